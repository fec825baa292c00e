bench_cells() { unmeasured cells 'not written yet'; }
