#!/usr/bin/env bash
# Crawls the hostile web (tools/hostileweb) with a freshly built sitesift and
# prints what it cost: the crawl's max RSS and wall time, the project's size,
# the top sites and what the crawl made of the endless calendar. Usage:
#
#   bash tools/hostileweb/run.sh [--only HOST | --link-lists N] [--max-pages N] [other crawl flags]
#
# --only HOST crawls one trap from its seed (endless-calendar.test, say)
# instead of all of them; --link-lists N crawls N sites whose home page is a
# 10 MiB list of links instead of the hostile web.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/sitesift" .
CGO_ENABLED=0 go build -o "$work/hostileweb" ./tools/hostileweb
web_args=()
if [ "${1:-}" = --link-lists ]; then
  web_args=(--link-lists "$2")
  shift 2
fi
"$work/hostileweb" "${web_args[@]}" > "$work/web.txt" &
for _ in $(seq 100); do [ "$(wc -l < "$work/web.txt")" -ge 2 ] && break; sleep 0.1; done
proxy=$(head -1 "$work/web.txt")
mapfile -t seeds < <(tail -n +2 "$work/web.txt")
if [ "${1:-}" = --only ]; then
  mapfile -t seeds < <(printf '%s\n' "${seeds[@]}" | grep -F "://$2/")
  shift 2
  [ "${#seeds[@]}" -gt 0 ] || { echo "hostile: no seed on that host" >&2; exit 2; }
fi
args=(--max-pages 3000 --max-pages-per-site 200 --delay 0s --parallel 4 "$@")
echo "hostile: sitesift crawl ${args[*]} (${#seeds[@]} seeds through $proxy)"
set +e
/usr/bin/time -v -o "$work/time.txt" "$work/sitesift" crawl --project "$work/p" --proxy "$proxy" "${args[@]}" "${seeds[@]}" \
  > "$work/crawl.out" 2> "$work/crawl.err"
status=$?
set -e
tail -n 3 "$work/crawl.out" "$work/crawl.err" | sed 's/^/  /'
echo "hostile: crawl exit status $status"
awk -F': ' '/Maximum resident/ { printf "hostile: max RSS %.0f MB\n", $2/1024 } /Elapsed \(wall/ { print "hostile: wall " $2 }' "$work/time.txt"
echo "hostile: project $(du -sh "$work/p" | cut -f1) (index $(du -sh "$work/p/index.bleve" | cut -f1))"
"$work/sitesift" rank --project "$work/p" --format csv --limit 5 | sed 's/^/  /'
# The endless calendar: what the crawl fetched of it, refused and left out.
[ "${#web_args[@]}" -gt 0 ] || "$work/sitesift" sites --project "$work/p" endless-calendar.test | sed 's/^/  /'
