// Package lab runs the lab experiments that reproduce the papers' figures
// and turns their measures into files: it checks an experiment's parameters
// and fills in their defaults, builds the graph a run works on, runs it
// through sitesift/importance/lab (which does the computing) and renders the
// results as CSV (through sitesift/app/export) and SVG (through
// sitesift/app/plot), with a few lines that sum them up.
//
// It owns the experiments' names, parameter types and bounds, the
// parameter error [ParamError], the layout of every output file and
// [WriteFiles], which puts files into a directory so that none is ever seen
// half-written. The command line (`sitesift lab`) and the API's lab jobs
// (POST /api/lab/{experiment}) both go through the same parameter types and
// run functions, so a figure in the app is the figure of the command.
//
// Its [Service] is the lab of one open project, which the Lab page and the
// job feed call: one experiment at a time in the background ([Service.Start],
// [Service.Cancel], [Service.File]), on a synthetic graph or the project's
// own ([Service.LinkGraphs], [Service.SeedGraphs], read through the ranking
// and communities services). It stands on app/project, app/ranking and
// app/communities.
//
// It is no adapter: it does not import package app, speaks no HTTP and
// parses no flags; the caller hands it parameters (and, on the command
// line, graphs) and maps a [ParamError] to its own kind of usage error.
//
//	p := lab.NormLeakParams{Iterations: 30}
//	if err := p.Check(); err != nil {
//		return err // a ParamError: the caller's usage error
//	}
//	out, err := lab.RunNormLeak(p)
//	if err != nil {
//		return err
//	}
//	err = lab.WriteFiles(dir, out.Files)
package lab
