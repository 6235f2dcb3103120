#!/usr/bin/env bash
# Times `sitesift rank --edges` (read + PageRank to 1e-10) against python-igraph
# (Read_Ncol + PRPACK PageRank), and networkx (read_edgelist + pagerank) on
# the synthetic graph, whole process each, and checks that the PageRank
# vectors agree to 1e-9. Three graphs:
#   synthetic  importance.Synthetic(N, D, seed 1) through tools/graphgen, sites
#              named site0000042.example, numbered as the model draws them (a
#              node's links go anywhere in the file)
#   crawl      the same graph with LAW-style names (n42) in a crawl's node
#              order (tools/graphgen --names law --order crawl: breadth-first
#              discovery, so a node's first-found targets are numbered next to
#              each other, as in a real crawl's file), lines in that order
#   polblogs   the political blogs (../shared/data/polblogs/edges.tsv, read its
#              README): a real web graph of 1,224 sites, self-links dropped and
#              repeated lines collapsed as its reference scores were computed
# Each round runs sitesift then igraph on one graph, under /usr/bin/time:
# wall, CPU (user + system) and max RSS. On a machine shared with other
# jobs, CPU time is the figure to compare; the load average is printed with
# each round, and the summary gives the range over the rounds of each
# figure and of sitesift's CPU time over igraph's in the same round.
# Python is Debian's /usr/bin/python3 with python3-igraph, python3-networkx
# and (for networkx's default pagerank) python3-scipy.
#
# Usage: importance/bench/rank-vs-igraph.sh [--dir DIR] [--nodes N] [--avg-out D]
#          [--graphs LIST] [--networkx full|small|skip] [--small-nodes N]
#          [--repeat R] [--sitesift BINARY]
#   --dir          where the binary, the graphs (cached) and outputs go; default /tmp/sitesift-bench
#   --nodes, --avg-out  the generated graphs' nodes and mean out-degree; default
#                  320000 and 10, 3 200 858 arcs
#   --graphs       comma-separated subset of synthetic,crawl,polblogs (default all)
#   --networkx     on the synthetic graph, once: full, on the same file (minutes,
#                  GBs); small, on a graph of --small-nodes nodes (default N/10),
#                  extrapolated, said so in the output; skip. Default full.
#   --repeat       rounds on each graph (default 1)
#   --sitesift     time this binary instead of building the checkout (to
#                  compare builds; the vector check then needs its CSV columns
#                  site, pagerank and out_sites)
#
# PageRank everywhere: damping 0.85 (teleport 0.15), dangling nodes spread
# uniformly, unweighted arcs (sitesift --weighting binary; the files have no
# weights and no repeated pairs), stopped at an L1 residual below 1e-10 —
# sitesift's RankTolerance; networkx's test is err < N·tol, so tol = 1e-10/N;
# PRPACK's own tolerance is 1e-10. A residual r bounds the L1 error by
# r·0.85/0.15, so every score is within 6e-10 of the fixpoint.
set -euo pipefail
cd "$(dirname "$0")/../.."

dir=/tmp/sitesift-bench
nodes=320000
avgout=10
graphs=synthetic,crawl,polblogs
nxmode=full
smallnodes=
repeat=1
bin=
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --avg-out) avgout=$2; shift 2 ;;
    --graphs) graphs=$2; shift 2 ;;
    --networkx) nxmode=$2; shift 2 ;;
    --small-nodes) smallnodes=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --sitesift) bin=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "rank-vs-igraph: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$nxmode" in full|small|skip) ;; *) echo "rank-vs-igraph: --networkx full|small|skip" >&2; exit 2 ;; esac
for g in ${graphs//,/ }; do
  case "$g" in synthetic|crawl|polblogs) ;; *) echo "rank-vs-igraph: unknown graph $g (want synthetic, crawl, polblogs)" >&2; exit 2 ;; esac
done
[ -n "$smallnodes" ] || smallnodes=$((nodes / 10))
PY=/usr/bin/python3
for m in igraph networkx; do
  $PY -c "import $m" 2>/dev/null || { echo "rank-vs-igraph: $PY lacks $m (run .ci/install)" >&2; exit 1; }
done
polblogs_src=../shared/data/polblogs/edges.tsv
mkdir -p "$dir"

if [ -z "$bin" ]; then
  echo "== build"
  bin=$dir/sitesift
  CGO_ENABLED=0 go build -o "$bin" .
fi

# generated VAR NODES [graphgen flags]: generate once; the name holds the parameters.
generated() {
  local var=$1 n=$2; shift 2
  local f="$dir/graph-n$n-d$avgout-s1$(printf '%s' "$*" | tr -d ' -').txt"
  if [ ! -s "$f" ]; then
    go run ./tools/graphgen --nodes "$n" --avg-out "$avgout" --seed 1 "$@" --out "$f"
  fi
  eval "$var=\$f"
}

# polblogs VAR: the political blogs as "SRC DST" lines, self-links dropped
# and repeats collapsed (igraph would count a repeated line twice and keep a
# self-link; sitesift --weighting binary counts a pair once and drops it).
polblogs() {
  local f="$dir/polblogs.txt"
  [ -s "$polblogs_src" ] || { echo "rank-vs-igraph: $polblogs_src missing (the shared reference data)" >&2; exit 1; }
  $PY - "$polblogs_src" "$f" <<'EOF'
import sys
seen, out = set(), []
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("#"):
        continue
    s, t = (x.strip() for x in line.rstrip("\n").split("\t"))
    if s != t and (s, t) not in seen:
        seen.add((s, t))
        out.append("%s %s\n" % (s, t))
open(sys.argv[2], "w", encoding="utf-8").writelines(out)
EOF
  eval "$1=\$f"
}

cat > "$dir/igraph_pr.py" <<'EOF'
import sys, time, igraph
t = time.time()
g = igraph.Graph.Read_Ncol(sys.argv[1], names=True, weights=False, directed=True)
t1 = time.time()
pr = g.pagerank(implementation="prpack", damping=0.85, directed=True)
t2 = time.time()
print("igraph: read %.2fs, pagerank %.2fs, %d nodes, %d arcs" % (t1 - t, t2 - t1, g.vcount(), g.ecount()), file=sys.stderr)
with open(sys.argv[2], "w") as f:
    for name, r in zip(g.vs["name"], pr):
        f.write("%s,%r\n" % (name, r))
EOF
cat > "$dir/networkx_pr.py" <<'EOF'
import sys, time, networkx as nx
t = time.time()
g = nx.read_edgelist(sys.argv[1], create_using=nx.DiGraph, nodetype=str, data=False)
t1 = time.time()
n = g.number_of_nodes()
try:
    import scipy  # nx.pagerank runs on scipy.sparse
    pr = nx.pagerank(g, alpha=0.85, tol=1e-10 / n, max_iter=1000)
    how = "pagerank (scipy)"
except ImportError:
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python
    pr = _pagerank_python(g, alpha=0.85, tol=1e-10 / n, max_iter=1000)
    how = "pure-Python pagerank (python3-scipy not installed)"
t2 = time.time()
print("networkx: read %.2fs, %s %.2fs, %d nodes, %d arcs" % (t1 - t, how, t2 - t1, n, g.number_of_edges()), file=sys.stderr)
with open(sys.argv[2], "w") as f:
    for name, r in pr.items():
        f.write("%s,%r\n" % (name, r))
EOF
cat > "$dir/compare.py" <<'EOF'
import sys, csv
def load_sitesift(path):
    pr, dangling = {}, 0
    with open(path) as f:
        for row in csv.DictReader(f):
            pr[row["site"]] = float(row["pagerank"])
            dangling += row["out_sites"] == "0"
    return pr, dangling
def load_pairs(path):
    out = {}
    with open(path) as f:
        for line in f:
            name, r = line.rstrip("\n").rsplit(",", 1)
            out[name] = float(r)
    return out
def compare(label, a, b):
    if set(a) != set(b):
        print("%s: node sets differ (%d vs %d nodes)" % (label, len(a), len(b)))
        return False
    d = max(abs(a[k] - b[k]) for k in a)
    ok = d < 1e-9
    print("%s: max |difference| = %.3g over %d nodes (sums %.15f, %.15f) %s" % (label, d, len(a), sum(a.values()), sum(b.values()), "OK" if ok else "TOO LARGE"))
    return ok
# compare.py GRAPH SITESIFT.csv IGRAPH.csv [NETWORKX.csv [SITESIFT-SMALL.csv]]
s, dangling = load_sitesift(sys.argv[2])
ok = compare(sys.argv[1] + ": sitesift vs igraph PRPACK", s, load_pairs(sys.argv[3]))
print("%s: dangling nodes: %d of %d (%.1f%%); PRPACK agreeing to this precision with sitesift's M* means it spreads their rank uniformly, as M* does" % (sys.argv[1], dangling, len(s), 100.0 * dangling / len(s)))
if len(sys.argv) > 4:
    small = len(sys.argv) > 5
    other = load_sitesift(sys.argv[5])[0] if small else s
    ok = compare(sys.argv[1] + ": sitesift vs networkx" + (" (small graph)" if small else ""), other, load_pairs(sys.argv[4])) and ok
sys.exit(0 if ok else 1)
EOF

# timed NAME OUT CMD...: runs CMD once under /usr/bin/time with its stdout
# in OUT and sets NAME_wall, NAME_cpu (user + system, s) and NAME_rss (MB).
timed() {
  local name=$1 out=$2 w u s m; shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$dir/$name.time" "$@" > "$out" 2> "$dir/$name.err" || { cat "$dir/$name.err" >&2; exit 1; }
  cat "$dir/$name.err" >&2 # the tool's own messages
  read -r w u s m < <(tail -1 "$dir/$name.time")
  eval "${name}_wall=$w; ${name}_cpu=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}'); ${name}_rss=$((m / 1024))"
}

# range "LIST" [FORMAT]: "min–max" of the numbers in LIST (one value: itself).
range() {
  printf '%s\n' $1 | sort -g | awk -v f="${2:-%.2f}" 'NR == 1 {lo = $1} {hi = $1} END {
    if (lo == hi) printf f, lo; else printf f "–" f, lo, hi }'
}

summary=()
agree=0
for name in ${graphs//,/ }; do
  case "$name" in
    synthetic) generated file "$nodes" ;;
    crawl) generated file "$nodes" --names law --order crawl ;;
    polblogs) polblogs file ;;
  esac
  edges=$(wc -l < "$file")
  echo "== $name: $file, $edges edges, $repeat round(s)"
  s_cpu=() s_wall=() s_rss=() i_cpu=() i_wall=() i_rss=() ratio=() loads=()
  for r in $(seq "$repeat"); do
    cat "$file" > /dev/null # the file in the page cache for both tools alike
    load=$(cut -d' ' -f1 /proc/loadavg)
    timed sitesift "$dir/$name-sitesift.csv" "$bin" rank --edges "$file" --no-opic --format csv --weighting binary
    timed igraph "$dir/$name-igraph.csv" $PY "$dir/igraph_pr.py" "$file" /dev/stdout
    q=$(awk -v a="$sitesift_cpu" -v b="$igraph_cpu" 'BEGIN {printf "%.3f", a / b}')
    printf '%-9s round %d, load %s: sitesift %.2f s CPU (%.2f s wall, %d MB); igraph %.2f s CPU (%.2f s wall, %d MB); CPU ratio %.3f\n' \
      "$name" "$r" "$load" "$sitesift_cpu" "$sitesift_wall" "$sitesift_rss" "$igraph_cpu" "$igraph_wall" "$igraph_rss" "$q"
    s_cpu+=("$sitesift_cpu") s_wall+=("$sitesift_wall") s_rss+=("$sitesift_rss")
    i_cpu+=("$igraph_cpu") i_wall+=("$igraph_wall") i_rss+=("$igraph_rss") ratio+=("$q") loads+=("$load")
  done
  nxargs=()
  if [ "$name" = synthetic ] && [ "$nxmode" != skip ]; then
    if [ "$nxmode" = full ]; then
      timed networkx "$dir/networkx.csv" $PY "$dir/networkx_pr.py" "$file" /dev/stdout
      nxargs=("$dir/networkx.csv")
      echo "networkx (once): $networkx_cpu s CPU, $networkx_wall s wall, $networkx_rss MB; networkx/sitesift CPU $(awk -v n="$networkx_cpu" -v s="${s_cpu[0]}" 'BEGIN {printf "%.1f", n / s}')"
    else
      generated small "$smallnodes"
      sedges=$(wc -l < "$small")
      timed sitesift_small "$dir/sitesift-small.csv" "$bin" rank --edges "$small" --no-opic --format csv --weighting binary
      timed networkx "$dir/networkx.csv" $PY "$dir/networkx_pr.py" "$small" /dev/stdout
      nxargs=("$dir/networkx.csv" "$dir/sitesift-small.csv")
      echo "networkx (once, on $sedges edges): $networkx_cpu s CPU against sitesift's $sitesift_small_cpu s on the same file: networkx/sitesift CPU $(awk -v n="$networkx_cpu" -v s="$sitesift_small_cpu" 'BEGIN {printf "%.1f", n / s}'), the ratio of the small graph (networkx's time scaled by $edges/$sedges edges would be $(awk -v w="$networkx_cpu" -v a="$edges" -v b="$sedges" 'BEGIN {printf "%.0f", w * a / b}') s, an extrapolation, not a measurement)"
    fi
  fi
  $PY "$dir/compare.py" "$name" "$dir/$name-sitesift.csv" "$dir/$name-igraph.csv" "${nxargs[@]}" || agree=1
  summary+=("$(printf '%-9s %7d edges, load %s: sitesift %s s CPU, %s s wall, %s MB; igraph %s s CPU, %s s wall, %s MB; sitesift/igraph CPU %s' \
    "$name" "$edges" "$(range "${loads[*]}")" "$(range "${s_cpu[*]}")" "$(range "${s_wall[*]}")" "$(range "${s_rss[*]}" %d)" \
    "$(range "${i_cpu[*]}")" "$(range "${i_wall[*]}")" "$(range "${i_rss[*]}" %d)" "$(range "${ratio[*]}" %.3f)")")
done

echo "== summary ($repeat round(s) a graph, ranges over the rounds, $(nproc) cores; $bin)"
printf '%s\n' "${summary[@]}"
[ "$agree" = 0 ] || echo "rank-vs-igraph: the PageRank vectors do not agree to 1e-9 (see above)" >&2
exit $agree
