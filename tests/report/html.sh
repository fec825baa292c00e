# tests/report/html.sh: the HTML report's cases of tests/report/run.sh, which sources it (its
# golden, fail, ok, $FSM, $F, $E and $TMP): a page's marks, then the pages in headless
# Chromium, their screenshots and DOM.
# shellcheck shell=bash

# HTML: a mount option the kernel ignored marks the figures (with a tooltip saying why) and
# is listed under Problems.
if "$FSM" html "$F/ignored.jsonl" -o "$TMP/ignored.html" 2>"$TMP/err"; then
	marks=$(grep -c '<td class="num ignored" title="nobh was ignored by the kernel: the cell measured the defaults">[^<]* \*</td>' "$TMP/ignored.html")
	if [ "$marks" = 0 ]; then
		fail html-ignored "no marked figure in the page"
	elif ! grep -q '<li>md1/ext4/nobh/seqwrite: nobh was ignored by the kernel' "$TMP/ignored.html"; then
		fail html-ignored "the cell is not under Problems"
	else
		ok "html-ignored ($marks marked figures)"
	fi
else
	fail html-ignored "fsmatrix html exited with status $?"
	sed 's/^/#   /' "$TMP/err" | head -n 5
fi

# Headless Chromium renders a page twice: a screenshot ($TMP/NAME.png) and the DOM after its
# scripts ran ($TMP/NAME-dom.html), each with the browser's console on its log.
CHROME=$(command -v chromium || command -v chromium-browser || true)
render_page() { # HTML NAME HEIGHT
	local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
		--disable-background-networking --disable-component-update --disable-sync
		--user-data-dir="$TMP/chrome-$2" --window-size=1280,"$3")
	timeout 120 "$CHROME" "${flags[@]}" --enable-logging=stderr --v=0 \
		--screenshot="$TMP/$2.png" "file://$1" >"$TMP/$2-shot.log" 2>&1
	timeout 120 "$CHROME" "${flags[@]}" --dump-dom "file://$1" >"$TMP/$2-dom.html" 2>"$TMP/$2-dom.log"
}
page_errors() { # NAME: true when the page's scripts logged an error ($TMP/NAME-console)
	grep -Eh 'Uncaught|ERROR:CONSOLE|CONSOLE\(' "$TMP/$1-shot.log" "$TMP/$1-dom.log" >"$TMP/$1-console"
}

# HTML: self-contained, with SVG charts, rendered by headless Chromium without console errors.
html=$TMP/report.html
if reported html "$F/run-a.jsonl" "$F/run-b.jsonl" -o "$html" 2>"$TMP/err"; then
	if grep -Eq '(src|href)="?(https?:)?//' "$html"; then
		fail html-self-contained "the page fetches from the network"
	elif [ "$(grep -c '<svg' "$html")" -lt 4 ] || ! grep -q '<rect' "$html"; then
		fail html-self-contained "no SVG bar charts in the page"
	else
		ok html-self-contained
	fi
	if [ -z "$CHROME" ]; then
		skip html-chromium "chromium is not installed (make deps)"
	else
		render_page "$html" report 2000
		size=$(stat -c %s "$TMP/report.png" 2>/dev/null || echo 0)
		nsvg=$(grep -o '<svg' "$TMP/report-dom.html" | wc -l)
		nrect=$(grep -o '<rect' "$TMP/report-dom.html" | wc -l)
		if [ "$size" -lt 20000 ]; then
			fail html-chromium "no screenshot, or a blank one ($size bytes)"
			sed 's/^/#   /' "$TMP/report-shot.log" | tail -n 5
		elif [ "$nsvg" -lt 4 ] || [ "$nrect" -lt 8 ]; then
			fail html-chromium "the rendered page has $nsvg charts and $nrect bars"
		elif page_errors report; then
			fail html-chromium "console errors in the page"
			sed 's/^/#   /' "$TMP/report-console" | head -n 5
		else
			ok "html-chromium ($size-byte PNG, $nsvg charts, $nrect bars)"
		fi
	fi
else
	fail html "fsmatrix html exited with status $?"
	sed 's/^/#   /' "$TMP/err" | head -n 5
fi

# HTML time series, on a real run of tests/plans/series.ini (boot test 30-series; 8 cells on a
# disk and a raid5, ext4 under two mount sets): a chart per cell and, for each workload on
# each array, one overlaying the mounts; rendered by headless Chromium without console
# errors, every line drawn.
html=$TMP/series.html
if "$FSM" html "$F/real-series.jsonl" -o "$html" 2>"$TMP/err"; then
	ncell=$(grep -c '<svg [^>]*class="chart series"' "$html")
	nover=$(grep -c '<svg [^>]*class="chart overlay"' "$html")
	if [ "$ncell" != 8 ] || [ "$nover" != 4 ]; then
		fail html-series "$ncell cell charts (want 8) and $nover overlays (want 4)"
	elif [ -z "$CHROME" ]; then
		skip html-series "chromium is not installed (make deps)"
	else
		render_page "$html" series 4000
		size=$(stat -c %s "$TMP/series.png" 2>/dev/null || echo 0)
		# per cell: write, Dirty, Writeback; per overlay: a line per mount
		nline=$(grep -o '<polyline fill="none" stroke="[^"]*" stroke-width="1.5" points="[0-9]' "$TMP/series-dom.html" | wc -l)
		if [ "$size" -lt 20000 ]; then
			fail html-series "no screenshot, or a blank one ($size bytes)"
		elif [ "$nline" -lt $((8 * 3 + 4 * 2)) ]; then
			fail html-series "the rendered page draws $nline lines, want $((8 * 3 + 4 * 2))"
		elif page_errors series; then
			fail html-series "console errors in the page"
			sed 's/^/#   /' "$TMP/series-console" | head -n 5
		else
			ok "html-series ($size-byte PNG, $ncell cell charts, $nover overlays, $nline lines)"
		fi
	fi
else
	fail html-series "fsmatrix html exited with status $?"
	sed 's/^/#   /' "$TMP/err" | head -n 5
fi
