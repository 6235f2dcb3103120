#!/usr/bin/env bash
# Times `sitesift rank --edges` (load + PageRank to 1e-9) against python-igraph
# (Read_Ncol + PRPACK PageRank) and networkx (read_edgelist + pagerank) on
# one synthetic edge file of at least 3 million edges, in one run, and checks
# that the three PageRank vectors agree. Wall time and max RSS come from
# /usr/bin/time -v; Python is Debian's /usr/bin/python3 with python3-igraph,
# python3-networkx and (for networkx's default pagerank) python3-scipy.
#
# Usage: importance/bench/rank-vs-igraph.sh [--dir DIR] [--nodes N] [--avg-out D]
#          [--networkx full|small|skip] [--small-nodes N] [--repeat R]
#   --dir          where the binary, the graph (cached) and outputs go; default /tmp/sitesift-bench
#   --nodes, --avg-out  the synthetic graph: importance.Synthetic(N, D, seed 1); default
#                  320000 and 10, 3 200 858 arcs
#   --networkx     full: on the same file (minutes, GBs); small: on a graph with
#                  --small-nodes nodes (default N/10) and extrapolated, said so in the
#                  output; skip: not at all. Default full.
#   --repeat       run each tool R times and keep its fastest run (default 1): on a
#                  shared machine the fastest run is the least disturbed one
#
# PageRank everywhere: damping 0.85 (teleport 0.15), dangling nodes spread
# uniformly, unweighted arcs (sitesift --weighting binary; the file has no
# weights and no repeated pairs), stopped at an L1 residual below 1e-10 —
# sitesift's RankTolerance; networkx's test is err < N·tol, so tol = 1e-10/N;
# PRPACK's own tolerance is 1e-10. A residual r bounds the L1 error by
# r·0.85/0.15, so every score is within 6e-10 of the fixpoint.
set -euo pipefail
cd "$(dirname "$0")/../.."

dir=/tmp/sitesift-bench
nodes=320000
avgout=10
nxmode=full
smallnodes=
repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --avg-out) avgout=$2; shift 2 ;;
    --networkx) nxmode=$2; shift 2 ;;
    --small-nodes) smallnodes=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "rank-vs-igraph: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$nxmode" in full|small|skip) ;; *) echo "rank-vs-igraph: --networkx full|small|skip" >&2; exit 2 ;; esac
[ -n "$smallnodes" ] || smallnodes=$((nodes / 10))
PY=/usr/bin/python3
for m in igraph networkx; do
  $PY -c "import $m" 2>/dev/null || { echo "rank-vs-igraph: $PY lacks $m (run .ci/install)" >&2; exit 1; }
done
mkdir -p "$dir"

echo "== build"
CGO_ENABLED=0 go build -o "$dir/sitesift" .

# graph FILE NODES: generate once; the name holds the parameters.
graph() {
  local f="$dir/graph-n$2-d$avgout-s1.txt"
  if [ ! -s "$f" ]; then
    go run ./tools/graphgen --nodes "$2" --avg-out "$avgout" --seed 1 --out "$f"
  fi
  eval "$1=\$f"
}
graph big "$nodes"
edges=$(wc -l < "$big")
echo "graph: $big, $edges edges"

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

# run NAME OUT CMD...: time CMD with its stdout to OUT, $repeat times; sets
# NAME_wall (fastest run, s) and NAME_rss (max RSS of that run, MB).
run() {
  local name=$1 out=$2; shift 2
  local best="" bestrss="" r wall rss
  for r in $(seq "$repeat"); do
    cat "$big" > /dev/null # the file in the page cache for every tool alike
    /usr/bin/time -v "$@" > "$out" 2> "$dir/$name.time" || { cat "$dir/$name.time" >&2; exit 1; }
    grep -v $'^\t' "$dir/$name.time" >&2 || true # the tool's own messages; time -v's are indented
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$dir/$name.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$dir/$name.time")
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$wall; bestrss=$rss; fi
  done
  eval "${name}_wall=$best; ${name}_rss=$bestrss"
  printf '%-14s %8.2f s  %6d MB max RSS%s\n' "$name" "$best" "$bestrss" "$([ "$repeat" -gt 1 ] && echo "  (fastest of $repeat)")"
}

echo "== timing on $edges edges (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
run sitesift "$dir/sitesift.csv" "$dir/sitesift" rank --edges "$big" --no-opic --format csv --weighting binary
run igraph "$dir/igraph.csv" $PY "$dir/igraph_pr.py" "$big" /dev/stdout
nxnote=""
case "$nxmode" in
  full)
    run networkx "$dir/networkx.csv" $PY "$dir/networkx_pr.py" "$big" /dev/stdout ;;
  small)
    graph small "$smallnodes"
    sedges=$(wc -l < "$small")
    echo "== networkx on the small graph ($sedges edges), sitesift on it too for the ratio"
    big_saved=$big; big=$small
    run sitesift_small "$dir/sitesift-small.csv" "$dir/sitesift" rank --edges "$small" --no-opic --format csv --weighting binary
    run networkx "$dir/networkx.csv" $PY "$dir/networkx_pr.py" "$small" /dev/stdout
    big=$big_saved
    nxnote=" (measured on $sedges edges: the networkx/sitesift ratio is that of the small graph; networkx's time scaled by $edges/$sedges edges would be $(awk -v w="$networkx_wall" -v a="$edges" -v b="$sedges" 'BEGIN {printf "%.0f", w * a / b}') s, an extrapolation, not a measurement)" ;;
esac

echo "== agreement"
$PY - "$dir/sitesift.csv" "$dir/igraph.csv" "$nxmode" "$dir/networkx.csv" "$dir/sitesift-small.csv" <<'EOF'
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
s, dangling = load_sitesift(sys.argv[1])
ok = compare("sitesift vs igraph PRPACK", s, load_pairs(sys.argv[2]))
print("dangling nodes: %d of %d (%.1f%%); PRPACK agreeing to this precision with sitesift's M* means it spreads their rank uniformly, as M* does" % (dangling, len(s), 100.0 * dangling / len(s)))
if sys.argv[3] == "full":
    ok = compare("sitesift vs networkx", s, load_pairs(sys.argv[4])) and ok
elif sys.argv[3] == "small":
    small, _ = load_sitesift(sys.argv[5])
    ok = compare("sitesift vs networkx (small graph)", small, load_pairs(sys.argv[4])) and ok
sys.exit(0 if ok else 1)
EOF

echo "== summary ($edges edges, $(nproc) cores)"
awk -v s="$sitesift_wall" -v i="$igraph_wall" -v sm="$sitesift_rss" -v im="$igraph_rss" 'BEGIN {
  printf "sitesift/igraph wall time: %.2f (target ≤ 1)   memory: %.2f\n", s / i, sm / im }'
case "$nxmode" in
  full)
    awk -v s="$sitesift_wall" -v n="$networkx_wall" -v sm="$sitesift_rss" -v nm="$networkx_rss" 'BEGIN {
      printf "networkx/sitesift wall time: %.1f (target ≥ 30)   memory: %.1f\n", n / s, nm / sm }' ;;
  small)
    awk -v s="$sitesift_small_wall" -v n="$networkx_wall" -v sm="$sitesift_small_rss" -v nm="$networkx_rss" -v note="$nxnote" 'BEGIN {
      printf "networkx/sitesift wall time: %.1f (target ≥ 30)   memory: %.1f%s\n", n / s, nm / sm, note }' ;;
  skip) echo "networkx: skipped" ;;
esac
