"""Writes ids.txt, a graph of integer ids (4 of them named by no line) in the form LAW, SNAP, networkx and
igraph write ("SRC DST" a line), and ids.igraph.tsv, igraph's PageRank
(PRPACK, damping 0.85, directed) of each id, to 17 significant digits.

Run from this folder: /usr/bin/python3 ids_igraph.py
"""
import random

import igraph

rng = random.Random(33)
n = 3000
lines = []  # igraph reads no comment line
edges = []
for u in range(n):
    if u % 7 == 3:
        continue  # dangling: no out-link
    for _ in range(rng.randint(1, 8)):
        v = int(rng.paretovariate(0.8)) % n if rng.random() < 0.6 else rng.randrange(n)
        if v != u:
            edges.append((u, v))
rng.shuffle(edges)
# Every id is an end of some edge, but for a few that no line names: nodes
# without links to igraph, which makes a node of every id up to the largest.
ends = {x for e in edges for x in e}
for u in range(n):
    if u not in ends:
        edges.append(((u + 1) % n, u))
unnamed = {5, 77, 1234, 2998}
edges = [e for e in edges if e[0] not in unnamed and e[1] not in unnamed]
edges += edges[:200]  # repeated lines: parallel arcs to igraph, weights to sitesift
with open("ids.txt", "w") as f:
    f.write("\n".join(lines + [f"{u} {v}" for u, v in edges]) + "\n")

g = igraph.Graph.Read_Edgelist("ids.txt", directed=True)
assert g.vcount() == n
pr = g.pagerank(damping=0.85, directed=True, implementation="prpack")
with open("ids.igraph.tsv", "w") as f:
    f.write("# id\tigraph PageRank (PRPACK, damping 0.85), igraph %s\n" % igraph.__version__)
    for u, x in enumerate(pr):
        f.write(f"{u}\t{x!r}\n")
