#!/usr/bin/env bash
# How close the running OPIC estimate, as a crawl leaves it, is to the PageRank of the site graph
# that crawl found, with the crawler's idle-site reads (the default, 4) and
# without them (--idle-reads 0): crawls of the built-in demo web, each into a
# new project, as `sitesift demo` crawls it (all its pages, at most 40 a site,
# 4 sites at a time), alternating the two settings. The per-site delay is
# DELAY (default 20ms; the demo's is 500ms): it changes which sites are ready
# when, so the crawl order, not what is fetched. For each
# crawl it prints Spearman's correlation of the two measures over the sites
# and OPIC's mean relative error against PageRank (mean over the sites of
# |opic − pagerank| / pagerank), then the range of each over the runs.
# Usage:
#
#   [DELAY=500ms] bash tools/crawlbench/idle-reads.sh [RUNS]          # default 5 runs of each
#
# Needs build/bin/sitesift (bash .ci/build) or BIN=path, and /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
BIN=${BIN:-./build/bin/sitesift}
. tools/crawlbench/demoweb.sh

measure() { # measure PROJECT_DIR: prints "spearman mre_pct sites"
  /usr/bin/python3 - "$1" <<'PY'
import sqlite3, sys
from scipy.stats import spearmanr
# The crawl's running OPIC estimate, (history + cash) normalised, as the
# crawl left it; what the Sites page shows is OPIC carried on to its
# fixpoint, which equals PageRank (tools/crawlbench/path.sh).
rows = sqlite3.connect(sys.argv[1] + "/project.db").execute(
    "SELECT opic_history + opic_cash, pagerank FROM sites").fetchall()
total = sum(o for o, _ in rows)
opic = [o / total for o, _ in rows]
pr = [p for _, p in rows]
rho = spearmanr(opic, pr).correlation
mre = sum(abs(o - p) / p for o, p in zip(opic, pr)) / len(pr)
print(f"{rho:.3f} {100 * mre:.1f} {len(rows)}")
PY
}

echo "delay ${DELAY:-20ms}; $(uptime)"
echo "run idle_reads pages sites spearman mre_pct"
for run in $(seq "$runs"); do
  for k in 4 0; do
    p="$work/p-$run-$k"
    "$BIN" crawl --project "$p" --proxy "$proxy" --max-pages 600 --max-pages-per-site 40 --parallel 4 \
      --delay "${DELAY:-20ms}" --no-warc --idle-reads "$k" "${seeds[@]}" >"$work/crawl.out" 2>&1 ||
      { echo "idle-reads: crawl failed:" >&2; cat "$work/crawl.out" >&2; exit 1; }
    pages=$(sed -nE 's/^crawl done .*: ([0-9]+) pages fetched.*/\1/p' "$work/crawl.out")
    read -r rho mre sites < <(measure "$p")
    echo "$run $k $pages $sites $rho $mre" | tee -a "$work/results.txt"
    rm -rf "$p"
  done
done
echo
awk '{ n[$2]++; if (!($2 in lo) || $5 < lo[$2]) lo[$2] = $5; if (!($2 in hi) || $5 > hi[$2]) hi[$2] = $5;
       if (!($2 in elo) || $6 < elo[$2]) elo[$2] = $6; if (!($2 in ehi) || $6 > ehi[$2]) ehi[$2] = $6 }
     END { for (k in n) printf "idle reads %s: %d crawls, Spearman %s–%s, mean relative error %s–%s%%\n", k, n[k], lo[k], hi[k], elo[k], ehi[k] }' \
  "$work/results.txt" | sort -r
