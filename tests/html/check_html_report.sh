#!/usr/bin/env bash
# Loads an HTML report of `evalcli report --html` in headless Chromium (Debian's chromium,
# .ci/packages.d/report.txt) and checks what a reader would see (docs/report.md, "The HTML report"):
#   check_html_report.sh [--rows N] [--charts N] [--table TABLE.json] HTML OUTDIR
# * the page runs without a console message or an uncaught error (the page's own error hook
#   writes data-js-error on <html>; Chromium's log has a CONSOLE line for every console message);
# * the DOM after loading has the score table, the SVG charts (exactly N with --charts, else at
#   least one), the segment view with its first page rendered (exactly N rows with --rows, else
#   at least one), and no element that text of the report could have injected (id="escape-probe",
#   planted in tests/data/report/table.json);
# * with --table (the document the page was made from): the first page shows the segments that
#   python3 finds first in the default order (highest minus lowest score of the first row,
#   descending, undefined last, ties in segment order; one system: its score ascending), and
#   after clicks (interaction_probe.html, appended to a copy of the page: "next", then the first
#   system's column head twice) the pages python3 expects; and the highlighted words of every
#   hypothesis shown are those check_highlights.py finds;
# * a screenshot is written and is larger than the screenshot of a blank page of the same size.
# OUTDIR receives dom.html, screenshot.png and the browser logs. Exit 0: passed; 1: failed;
# 77: chromium is missing and CI is not "true" (CTest's SKIP_RETURN_CODE; under CI=true it fails).
set -euo pipefail

rows="" charts="" table=""
while [[ $# -gt 2 ]]; do
  case $1 in
    --rows) rows=$2; shift 2 ;;
    --charts) charts=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    *) echo "usage: $0 [--rows N] [--charts N] [--table TABLE.json] HTML OUTDIR" >&2; exit 1 ;;
  esac
done
[[ $# -eq 2 ]] || { echo "usage: $0 [--rows N] [--charts N] [--table TABLE.json] HTML OUTDIR" >&2; exit 1; }
html=$(realpath "$1")
outdir=$2
mkdir -p "$outdir"

browser=${CHROMIUM:-chromium}
if ! command -v "$browser" >/dev/null; then
  if [[ ${CI:-} == true ]]; then
    echo "FAIL: $browser not found (CI=true requires it: apt-get install chromium)" >&2
    exit 1
  fi
  echo "SKIP: $browser not found (install Debian's chromium to run the browser test)" >&2
  exit 77
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run_browser LOG ARGS...: one headless Chromium run with a fresh profile, at most 120 s.
run_browser() {
  local log=$1
  shift
  rm -rf "${profile:?}"/*
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --hide-scrollbars "$@" 2>"$log"
}

# 1. The DOM once the page has loaded and its scripts have run.
if ! run_browser "$outdir/dump-dom.log" --dump-dom "file://$html" >"$outdir/dom.html"; then
  fail "chromium --dump-dom failed or timed out (log: $outdir/dump-dom.log)"
fi
dom="$outdir/dom.html"
# count PATTERN: how many times the extended regular expression occurs in the DOM.
count() { grep -oE "$1" "$dom" | wc -l; }

if grep -E 'CONSOLE|Uncaught' "$outdir/dump-dom.log" >&2; then fail "console messages (above)"; fi
if grep -qE '<html[^>]* data-js-error=' "$dom"; then
  fail "uncaught error in the page: $(grep -oE 'data-js-error="[^"]*"' "$dom" | head -1)"
fi
[[ $(count '<table id="score-table"') -eq 1 ]] || fail "no score table (id=\"score-table\")"
[[ $(count '<section id="segments"') -eq 1 ]] || fail "no segment view (id=\"segments\")"
[[ $(count '<table id="segment-table"[^>]* data-page="1"') -eq 1 ]] || fail "the segment view's first page was not rendered"
found_charts=$(count '<svg class="chart[ "]')
found_rows=$(count '<tr class="segment"')
if [[ -n $charts ]]; then
  [[ $found_charts -eq $charts ]] || fail "$found_charts SVG charts, expected $charts"
else
  [[ $found_charts -ge 1 ]] || fail "no SVG chart (svg class=\"chart\")"
fi
if [[ -n $rows ]]; then
  [[ $found_rows -eq $rows ]] || fail "$found_rows segment rows rendered, expected $rows"
else
  [[ $found_rows -ge 1 ]] || fail "no segment row rendered (tr class=\"segment\")"
fi
# expected_orders TABLE: what python3 expects on the pages the probe looks at, one line each:
# the first page, the page after "next", then sorted by the first system's score descending and
# ascending (undefined last, ties in segment order; 50 segments a page).
expected_orders() {
  python3 - "$1" <<'PY'
import json, sys
table = json.load(open(sys.argv[1], encoding="utf-8"))
scores, systems = table["segments"]["scores"][0], len(table["systems"])
count = len(scores)
def defined(i):
    return [v for v in scores[i] if isinstance(v, (int, float))]
def first_system(i):
    v = scores[i][0]
    return v if isinstance(v, (int, float)) else None
def default_key(i):
    if systems == 1:
        return (first_system(i) is None, first_system(i) or 0, i)
    v = defined(i)
    return (len(v) < 2, -(max(v) - min(v)) if len(v) >= 2 else 0, i)
def page(order, number):
    number = min(number, max(1, -(-count // 50)) - 1)
    return " ".join(str(i) for i in order[number * 50:number * 50 + 50])
default = sorted(range(count), key=default_key)
descending = sorted(range(count), key=lambda i: (first_system(i) is None, -(first_system(i) or 0), i))
ascending = sorted(range(count), key=lambda i: (first_system(i) is None, first_system(i) or 0, i))
print(page(default, 0))
print("next=" + page(default, 1))
print("system0-descending=" + page(descending, 0))
print("system0-ascending=" + page(ascending, 0))
PY
}
if [[ -n $table ]]; then
  mapfile -t expected < <(expected_orders "$table")
  shown=$(grep -oE '<tr class="segment" data-segment="[0-9]+"' "$dom" | grep -oE '[0-9]+' | tr '\n' ' ' | sed 's/ $//')
  [[ $shown == "${expected[0]}" ]] || fail "first page shows segments [$shown], expected [${expected[0]}]"
  python3 "$(dirname "$0")/check_highlights.py" "$table" "$dom" >&2 || fail "highlighted words (above)"
  # The same page with the probe's clicks (a copy beside the page: it loads nothing else).
  probe_page="$outdir/with-probe.html"
  cat "$html" "$(dirname "$0")/interaction_probe.html" >"$probe_page"
  run_browser "$outdir/probe.log" --dump-dom "file://$(realpath "$probe_page")" >"$outdir/probe-dom.html" \
    || fail "chromium --dump-dom of the probe page failed (log: $outdir/probe.log)"
  if grep -E 'CONSOLE|Uncaught' "$outdir/probe.log" >&2; then fail "console messages after clicks (above)"; fi
  probe=$(grep -oE '<html[^>]* data-probe="[^"]*"' "$outdir/probe-dom.html" | sed 's/.*data-probe="//; s/"$//')
  IFS='|' read -r -a clicked <<<"$probe"
  for k in 1 2 3; do
    [[ ${clicked[k - 1]:-} == "${expected[k]}" ]] || fail "after clicks: [${clicked[k - 1]:-}], expected [${expected[k]}]"
  done
fi
# Text is serialised with < as &lt;: a real element here means that report text broke out.
if grep -qE '<[a-zA-Z]+ [^>]*id="escape-probe"' "$dom"; then fail "text of the report became markup (escape-probe)"; fi

# 2. A screenshot, compared with one of a blank page of the same size (a PNG of white pixels is small).
size=1280,2000
if ! run_browser "$outdir/screenshot.log" --window-size=$size --screenshot="$outdir/screenshot.png" "file://$html" \
  || [[ ! -s $outdir/screenshot.png ]]; then
  fail "no screenshot (log: $outdir/screenshot.log)"
else
  echo '<!DOCTYPE html><html><body></body></html>' >"$profile.blank.html"
  run_browser "$outdir/blank.log" --window-size=$size --screenshot="$outdir/blank.png" "file://$profile.blank.html" || true
  rm -f "$profile.blank.html"
  shot=$(stat -c %s "$outdir/screenshot.png")
  blank=$(stat -c %s "$outdir/blank.png" 2>/dev/null || echo 0)
  [[ $blank -gt 0 ]] || fail "no screenshot of the blank page to compare with"
  [[ $shot -gt $((3 * blank)) ]] || fail "screenshot of $shot bytes, not over 3 times the blank page's $blank bytes"
fi

if [[ $failures -gt 0 ]]; then exit 1; fi
echo "ok: $found_charts charts, $found_rows segment rows rendered${table:+ in the expected order, also after clicks}, screenshot $outdir/screenshot.png ($shot bytes; blank page $blank)"
