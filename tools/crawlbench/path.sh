#!/usr/bin/env bash
# One importance whatever the path: crawls the whole built-in demo web
# (all its pages, at most 40 a site) RUNS times, each into a new project, in
# orders that differ (4 sites at a time with a 20 ms delay, then 1 site at a
# time with no delay, alternating), and prints for each crawl the number of
# sites, the fixpoint's rounds, Spearman's correlation with PageRank of the
# crawl's running OPIC estimate ((history + cash) normalised: what the Sites
# page showed before it showed the fixpoint) and of the OPIC shown (OPIC
# carried on to its fixpoint); then the largest difference, site by site,
# between the first crawl and each other of the running estimate and of the
# OPIC shown. The whole web is crawled, so every crawl finds the same site
# graph and only the order differs.
# Usage:
#
#   bash tools/crawlbench/path.sh [RUNS]          # default 4
#
# Needs build/bin/sitesift (bash .ci/build) or BIN=path, and /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-4}
BIN=${BIN:-./build/bin/sitesift}
. tools/crawlbench/demoweb.sh

echo "$(uptime)"
for run in $(seq "$runs"); do
  if [ $((run % 2)) -eq 1 ]; then par=4 delay=20ms; else par=1 delay=0s; fi
  "$BIN" crawl --project "$work/p$run" --proxy "$proxy" --max-pages 2000 --max-pages-per-site 40 --parallel "$par" \
    --delay "$delay" --no-warc "${seeds[@]}" >"$work/crawl.out" 2>&1 ||
    { echo "path: crawl failed:" >&2; cat "$work/crawl.out" >&2; exit 1; }
  echo "crawl $run: --parallel $par --delay $delay: $(sed -nE 's/^crawl done .*: ([0-9]+) pages fetched.*/\1 pages/p' "$work/crawl.out")"
done

/usr/bin/python3 - "$work" "$runs" <<'PY'
import sqlite3, sys
from scipy.stats import spearmanr
work, runs = sys.argv[1], int(sys.argv[2])
def read(i):
    db = sqlite3.connect(f"{work}/p{i}/project.db")
    rows = db.execute("SELECT name, opic_history + opic_cash, opic, pagerank FROM sites").fetchall()
    rounds, residual = db.execute("SELECT opic_rounds, opic_residual FROM project").fetchone()
    total = sum(r[1] for r in rows)
    return {n: (h / total, o, p) for n, h, o, p in rows}, rounds, residual
first = None
print("run sites rounds residual spearman_running spearman_shown max_diff_running max_diff_shown")
for i in range(1, runs + 1):
    s, rounds, residual = read(i)
    names = sorted(s)
    run = [s[n][0] for n in names]; shown = [s[n][1] for n in names]; pr = [s[n][2] for n in names]
    d_run = d_shown = float("nan")
    if first is None:
        first = s
    elif sorted(first) == names:
        d_run = max(abs(first[n][0] - s[n][0]) for n in names)
        d_shown = max(abs(first[n][1] - s[n][1]) for n in names)
    print(f"{i} {len(names)} {rounds} {residual:.1e} {spearmanr(run, pr).correlation:.3f} "
          f"{spearmanr(shown, pr).correlation:.3f} {d_run:.2e} {d_shown:.2e}")
PY
