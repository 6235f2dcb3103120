// Package lab runs the experiments of the papers behind sitesift as pure
// computation: the convergence of OPIC to PageRank under the Greedy, Random
// and Cycle strategies (OPIC paper, section 4), the window policies of
// Adaptive OPIC on a graph that changes (section 3.2 and 4), and the norm
// leak of PageRank's M′ matrix that the Kim–Lee M* fixes.
//
// Each experiment returns its measures as a slice of points; writing them
// to CSV or drawing them is the caller's business. Nothing here touches
// files or starts goroutines. A long experiment reports its progress
// through a [Progress] callback and stops when its context is cancelled,
// returning the context's error. Given the same inputs and seed, every
// experiment returns the same points.
//
//	pts, err := lab.Convergence(ctx, importance.Synthetic(100000, 8, 1),
//		[]importance.Strategy{importance.Greedy, importance.Random},
//		1000000, 100000, importance.DefaultTeleport, 1, nil)
package lab
