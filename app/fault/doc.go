// Package fault is the kinds of errors sitesift's services return, which
// their adapters map: the HTTP API to a status code, the command line to a
// message and an exit status. A service marks an error with [Invalid],
// [NotFound] or [Conflict]; [KindOf] reads the mark, or the kind a store
// or format error implies, and takes anything else for a failure of
// sitesift or of the machine.
package fault
