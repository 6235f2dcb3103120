# Sourced by the crawl benchmarks (idle-reads.sh, path.sh, recrawl.sh) from
# the repository's root: makes the work folder $work, serves the built-in
# demo web with $BIN in the background, and sets $proxy and the array $seeds;
# at exit the web is stopped and $work removed.
work=$(mktemp -d)
web=""
cleanup() { [ -n "$web" ] && kill "$web" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$BIN" demo-web --addr 127.0.0.1:0 >"$work/web.out" 2>&1 & web=$!
for _ in $(seq 100); do [ "$(wc -l <"$work/web.out")" -gt 1 ] && break; sleep 0.1; done
proxy=$(head -n 1 "$work/web.out")
mapfile -t seeds < <(tail -n +2 "$work/web.out")
