#!/usr/bin/env bash
# Measures sitesift on a synthetic site graph of national-domain size: the
# import of an edge list, PageRank, the offline OPIC simulation, the Sites
# page's first page of results through the HTTP API and a seed extraction,
# each step under /usr/bin/time -v, and prints a table: wall and CPU
# (user + system) seconds, max RSS, bytes of max RSS per edge, edges a
# second of wall time and of CPU time (on a machine shared with other jobs,
# the CPU figures are the ones to compare).
#
# Usage: importance/bench/scale.sh [--dir DIR] [--nodes N] [--avg-out D]
#          [--seeds K] [--steps LIST]
#   --dir       where the binary, the graph (cached), the project and the logs
#               go; default /tmp/sitesift-scale
#   --nodes, --avg-out  the graph: importance.Synthetic(N, D, seed 1) through
#               tools/graphgen; default 5000000 and 10 (50,005,756 edges)
#   --seeds     communities extracted by the seed step (default 20)
#   --steps     comma-separated subset of import,pagerank,opic,sites,seeds
#               (default all)
#
# Steps:
#   import    sitesift import --project P --edges G (read, CSR, PageRank, OPIC
#             10·N reads, one SQLite transaction)
#   pagerank  sitesift rank --project P (the graph read from the store,
#             PageRank, stored)
#   opic      sitesift rank --edges G --no-opic, then without --no-opic: the
#             simulation's cost is the difference (both rows are printed)
#   sites     sitesift serve on P, then GET /api/sites?sort=opic&order=desc
#             &limit=50 five times: the first page of the Sites page; the
#             row gives the slowest of the five (time_total of curl on
#             127.0.0.1, which is the server's time)
#   seeds     sitesift seeds --project P --count K (HITS + bipartite cores);
#             the row adds seconds per seed
set -euo pipefail
cd "$(dirname "$0")/../.."

dir=/tmp/sitesift-scale
nodes=5000000
avgout=10
seeds=20
steps=import,pagerank,opic,sites,seeds
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --avg-out) avgout=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "scale: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
bin="$dir/sitesift"
graph="$dir/graph-n$nodes-d$avgout-s1.txt"
project="$dir/project-n$nodes-d$avgout"

echo "== build" >&2
CGO_ENABLED=0 go build -o "$bin" .
if [ ! -s "$graph" ]; then
  echo "== generate $graph" >&2
  go run ./tools/graphgen --nodes "$nodes" --avg-out "$avgout" --out "$graph"
fi
edges=$(wc -l < "$graph")

has() { case ",$steps," in *",$1,"*) return 0 ;; esac; return 1; }

rows=()
# timed NAME CMD...: runs CMD under /usr/bin/time -v, its output in
# $dir/NAME.out, and adds a row to the table.
timed() {
  local name=$1; shift
  local log="$dir/$name.time"
  echo "== $name: $*" >&2
  if ! /usr/bin/time -v -o "$log" "$@" > "$dir/$name.out" 2>&1; then
    echo "scale: $name failed; see $dir/$name.out" >&2
    tail -5 "$dir/$name.out" >&2
    exit 1
  fi
  local wall user sys rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$log")
  user=$(awk -F': ' '/User time/{print $2}' "$log")
  sys=$(awk -F': ' '/System time/{print $2}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/{print $2}' "$log")
  rows+=("$(awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v e="$edges" \
    'BEGIN{printf "%-14s %9.1f %9.1f %9.0f %9.1f %12.0f %12.0f", n, w, u+s, r/1024, r*1024/e, e/w, e/(u+s)}')")
}

if has import; then
  rm -rf "$project"
  timed import "$bin" import --project "$project" --edges "$graph"
fi
if has pagerank; then
  timed pagerank "$bin" rank --project "$project" --limit 10 --format csv
fi
if has opic; then
  timed rank-no-opic "$bin" rank --edges "$graph" --no-opic --limit 10 --format csv
  timed rank-opic "$bin" rank --edges "$graph" --limit 10 --format csv
fi
sitesms=
if has sites; then
  port=$((20000 + RANDOM % 20000))
  "$bin" serve --project "$project" --addr "127.0.0.1:$port" > "$dir/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 600); do
    curl -fs "http://127.0.0.1:$port/api/sites?limit=1" > /dev/null 2>&1 && break
    sleep 0.5
  done
  worst=0
  for _ in 1 2 3 4 5; do
    t=$(curl -fs -o "$dir/sites.json" -w '%{time_total}' \
      "http://127.0.0.1:$port/api/sites?sort=opic&order=desc&limit=50")
    worst=$(awk -v a="$worst" -v b="$t" 'BEGIN{print (b > a) ? b : a}')
  done
  kill $server
  wait $server 2>/dev/null || true
  trap - EXIT
  sitesms=$(awk -v t="$worst" 'BEGIN{printf "%.1f", t*1000}')
fi
if has seeds; then
  timed seeds "$bin" seeds --project "$project" --count "$seeds" --format txt
fi

printf '\n%s edges, %s nodes (importance.Synthetic seed 1); load average %s\n' \
  "$edges" "$nodes" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %9s %9s %9s %9s %12s %12s\n' step wall_s cpu_s rss_MB B/edge edges/s_wall edges/s_cpu
for r in "${rows[@]}"; do echo "$r"; done
if [ -n "$sitesms" ]; then
  echo "sites page (GET /api/sites, first 50 by OPIC): slowest of 5: $sitesms ms"
fi
if has seeds; then
  awk -v k="$seeds" -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; w=s/k}
    /User time|System time/{c+=$2} END{printf "seeds: %.2f s a seed (wall), %.2f s a seed (CPU)\n", w, c/k}' "$dir/seeds.time"
fi
