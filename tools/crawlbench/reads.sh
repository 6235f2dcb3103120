#!/usr/bin/env bash
# Readers of the API while a crawl runs: `sitesift serve` on a new project
# crawls a generated web of HOSTS hosts (tools/crawlbench -serve) at full speed
# (delay 0, parallel 8), started through POST /api/crawl as a librarian
# starts one, so the crawl runs in the serving process; after WARMUP seconds
# of crawl, CLIENTS readers (tools/crawlbench/reads) ask in turn for the sites
# table, the review queue, a search and a site's page for SECONDS seconds,
# each request with a 10 s timeout. Two runs, each on a new project: the
# machine as it is ("idle"), then with one busy loop per core ("hog"). Each
# prints the requests per second, the latency percentiles, time-outs and
# errors, and the pages the crawl fetched meanwhile (it must still be
# running at the end).
# Usage:
#
#   bash tools/crawlbench/reads.sh [SECONDS]         # default 30; CLIENTS=20 HOSTS=1000 WARMUP=5 RUNS="idle hog"
#
# PROFILE=DIR writes a CPU profile of each run's `sitesift serve` to
# DIR/cpu-RUN.out (SITESIFT_CPUPROFILE).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-30}
CLIENTS=${CLIENTS:-20}
HOSTS=${HOSTS:-1000}
WARMUP=${WARMUP:-5}
RUNS=${RUNS:-idle hog}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

CGO_ENABLED=0 go build -o "$work/sitesift" .
CGO_ENABLED=0 go build -o "$work/bench" ./tools/crawlbench
CGO_ENABLED=0 go build -o "$work/reads" ./tools/crawlbench/reads

# wait_for FILE PATTERN: until a line of FILE matches PATTERN (10 s at most).
wait_for() {
  for _ in $(seq 100); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "reads.sh: no '$2' in $1:" >&2; cat "$1" >&2; return 1
}

# 300 pages a host: the crawl cannot run out during a run.
"$work/bench" -serve 127.0.0.1:0 -hosts "$HOSTS" -pages $((HOSTS * 100)) >"$work/web.txt" 2>/dev/null &
pids+=($!)
wait_for "$work/web.txt" '^http://.*bench.test'
proxy=$(head -n 1 "$work/web.txt")
seeds=$(tail -n +2 "$work/web.txt" | sed 's/.*/"&"/' | paste -sd, -)

# crawl_field API NAME: a number of GET /api/crawl.
crawl_field() { curl -sf "$1/api/crawl" | grep -o "\"$2\":[0-9.]*" | head -n 1 | cut -d: -f2; }

run() { # run idle|hog
  local mode=$1 p="$work/p-$1" api token serve hogs=() pages0 pages1 state
  local env=()
  [ -n "${PROFILE:-}" ] && env=(SITESIFT_CPUPROFILE="$PROFILE/cpu-$mode.out")
  env "${env[@]}" "$work/sitesift" serve --project "$p" --addr 127.0.0.1:0 >"$work/serve-$mode.out" 2>"$work/serve-$mode.err" &
  serve=$!
  pids+=("$serve")
  wait_for "$work/serve-$mode.out" 'open http://'
  api=$(sed -nE 's|.*open (http://[0-9.:]+)/.*|\1|p' "$work/serve-$mode.out")
  token=$(curl -sf "$api/api/session" | sed -E 's/.*"token": *"([0-9a-f]+)".*/\1/')
  post() { curl -sf -o /dev/null -H "X-Sitesift-Token: $token" -H 'Content-Type: application/json' -d "$2" "$api$1"; }
  post /api/librarians '{"name": "bench"}'
  post /api/crawl "{\"seeds\": [$seeds], \"proxy\": \"$proxy\", \"max_pages\": 10000000, \"max_pages_per_site\": 300,
    \"delay_ms\": 0, \"parallel\": 8}"
  sleep "$WARMUP"
  if [ "$mode" = hog ]; then
    for _ in $(seq "$(nproc)"); do sh -c 'while :; do :; done' & hogs+=($!); pids+=($!); done
  fi
  pages0=$(crawl_field "$api" pages)
  echo "== $mode: $CLIENTS readers for ${secs}s, crawl at $pages0 pages; $(uptime)"
  "$work/reads" -api "$api" -clients "$CLIENTS" -duration "${secs}s" -librarian bench
  pages1=$(crawl_field "$api" pages)
  state=$(curl -sf "$api/api/crawl" | grep -o '"state":"[a-z]*"' | cut -d'"' -f4)
  for h in "${hogs[@]}"; do kill "$h"; done
  echo "crawl: $((pages1 - pages0)) pages in the ${secs}s ($(( (pages1 - pages0) / secs )) pages/s), $pages1 in all, state $state at the end"
  post /api/crawl/stop '{}'
  kill "$serve"
  wait "$serve" || true
  grep -v '^$' "$work/serve-$mode.err" | tail -n 5 || true
  rm -rf "$p"
}

echo "reads.sh: web of $HOSTS hosts, $(nproc) cores, $(go env GOVERSION)"
for mode in $RUNS; do run "$mode"; done
echo "$(uptime)"
