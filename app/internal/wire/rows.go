// Package wire turns the store's rows into the services' own types: each
// service decides the JSON field names of what it answers, and the store's
// rows carry none, so a list read from the store is converted element by
// element on its way out.
package wire

// Each is f of every element of in, and nil for nil: a list the store left
// nil stays null on the wire, as it was when the rows went out as they are.
func Each[S, T any](in []S, f func(S) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
