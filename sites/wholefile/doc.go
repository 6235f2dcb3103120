// Package wholefile writes a file whole or not at all.
//
// Every file sitesift hands a person or another program (an export, a saved
// download, a lab result, a WARC index) is written to a temporary file beside
// its place, synced, and renamed over it once complete: a failure or a kill
// halfway leaves the file that was there before, or none, never half of one.
// The temporary file is removed on failure, and errors name the file asked
// for, not the temporary one. A process killed halfway cannot remove its
// temporary file: each is held (a file lock) while it is written, and the
// next write of the same file removes the ones no one holds.
// [CreateTemp] does the same for the other temporary files of sitesift.
//
// Imports: the standard library only.
package wholefile
