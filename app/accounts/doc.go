// Package accounts is the team server's sign-in: librarians' accounts
// (a profile of the project given a role and a password), argon2id password
// hashes, one-time sign-in links, the slowing of failed sign-ins, and the
// sessions of signed-in librarians.
//
// It decides who a request is; what that librarian may do is decided where
// the work is done, by the services, from the [project.Identity] the HTTP
// adapter puts in each request's context ([project.WithIdentity],
// [project.Require]).
//
// Sessions live in memory: a restart of `sitesift serve --team` ends them,
// and every librarian signs in again (docs/team.md).
package accounts
