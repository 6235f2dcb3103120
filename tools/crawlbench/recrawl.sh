#!/usr/bin/env bash
# How close the running OPIC estimate (the window policy's, (history + cash)
# normalised, which orders the recrawls) gets to PageRank over recrawls, per
# window policy: the whole demo web (507 pages) is crawled once, then
# recrawled RECRAWLS times (default 3), in a fresh project per policy; after
# each, the L1 distance between that estimate and PageRank, read from the
# project's database, is printed. (The importance shown, OPIC's fixpoint,
# is PageRank's limit whatever the policy.)
#
#   bash tools/crawlbench/recrawl.sh [POLICY...]      (default: full-history fixed variable)
#
# Needs build/bin/sitesift (bash .ci/build) or SITESIFT=path, and /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${SITESIFT:-./build/bin/sitesift}
RECRAWLS=${RECRAWLS:-3}
policies=("$@")
[ ${#policies[@]} -gt 0 ] || policies=(full-history fixed variable)
. tools/crawlbench/demoweb.sh

l1() {
  /usr/bin/python3 - "$work/p/project.db" <<'PY'
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT opic_history + opic_cash, pagerank FROM sites").fetchall()
o = sum(r[0] for r in rows)
p = sum(r[1] for r in rows)
print("%.3f" % sum(abs(r[0] / o - r[1] / p) for r in rows))
PY
}

for pol in "${policies[@]}"; do
  rm -rf "$work/p"
  "$BIN" crawl --project "$work/p" --proxy "$proxy" --delay 0s --max-pages 600 "${seeds[@]}" >/dev/null 2>&1
  "$BIN" settings --project "$work/p" --window "$pol" >/dev/null
  line="$pol: crawl $(l1)"
  for i in $(seq "$RECRAWLS"); do
    "$BIN" crawl --project "$work/p" --recrawl --proxy "$proxy" --delay 0s >/dev/null 2>&1
    line="$line, recrawl $i $(l1)"
  done
  echo "$line"
done
