bench_boot() { unmeasured boot 'not written yet'; }
