#!/usr/bin/env bash
# Builds tools/crawlbench and runs it: bare colly against sitesift's crawler (and,
# by default, sitesift saving into a store) on one generated loopback web,
# alternated, then prints the ratios and where each crawler's CPU went (the
# top of `go tool pprof -top -cum` for each run label). Usage:
#
#   bash tools/crawlbench/run.sh [-pages N] [-hosts H] [-parallel P] [-repeat R] [-index] [other bench flags]
#
# Defaults: -pages 5000 -hosts 200 -parallel 8 -repeat 3 -store. Later flags
# override earlier ones.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/bench" ./tools/crawlbench
echo "bench: before: $(uptime)"
"$work/bench" -pages 5000 -hosts 200 -parallel 8 -repeat 3 -store \
  -cpuprofile "$work/cpu.out" -mutexprofile "$work/mutex.out" "$@" | tee "$work/out.txt"
echo "bench: after: $(uptime)"
echo
echo "bench: CPU by run label (GC workers carry none)"
go tool pprof -tags "$work/cpu.out" 2>/dev/null | sed -n '/run:/,/^$/p' | sed 's/^/  /'
for label in colly sitesift 'sitesift+store' 'sitesift+index'; do
  grep -q "^round 1 $label " "$work/out.txt" || continue
  echo "bench: where $label's CPU went (cumulative, its own code, colly, net/http, HTML parsing, SQLite)"
  go tool pprof -top -cum -nodecount=400 -tagfocus="run=^${label//+/\\+}\$" "$work/bench" "$work/cpu.out" 2>/dev/null |
    grep -E 'sitesift/(crawl|sites|importance)|colly/v2\.\(\*Collector\)\.(fetch|scrape|handleOnHTML)$|goquery\.NewDocumentFromReader|x/net/html\.Parse |\(\*Transport\)\.dialConn$|persistConn\)\.(readLoop|writeLoop)$|\(\*Tx\)\.Commit$' |
    head -14 | awk '{ printf "  %7s %6s  %s\n", $4, $5, $6 }'
done
echo "bench: lock contention (mutex profile, all runs; time others waited for a lock the line released)"
go tool pprof -top -cum -nodecount=400 "$work/bench" "$work/mutex.out" 2>/dev/null |
  grep -E 'sitesift/crawl\.\(\*(Crawler|pacer)\)\.(dispatch\.func1|schedule|pick|release|acquire|flushLoop)$|colly/v2\.\(\*Collector\)\.fetch$' |
  awk '{ printf "  %7s  %s\n", $4, $6 }'
grep '^ratio' "$work/out.txt"
