package store

import (
	"context"
	"database/sql"
	"fmt"
)

// querier runs a query: *sql.DB, *sql.Tx and *sql.Conn all do.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// scanner reads the columns of one row: *sql.Rows while walking a result,
// *sql.Row for a query of one row, so that one scan function serves both.
type scanner interface {
	Scan(dest ...any) error
}

// rowScanner is the scanner queryRows hands out. It marks the errors of
// Scan itself with "scan", and only those: an error the scan function makes
// of its own (a stored time that does not parse) already says what it is.
type rowScanner struct{ rows *sql.Rows }

func (r rowScanner) Scan(dest ...any) error {
	if err := r.rows.Scan(dest...); err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	return nil
}

// queryRows runs query on q and calls fn for each row, in order, stopping at
// the first error fn returns, which is returned as is. Errors are not
// wrapped with what was asked: the caller knows that and wraps them once.
func queryRows(ctx context.Context, q querier, fn func(scanner) error, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	return eachRow(rows, fn)
}

// eachRow is queryRows for rows a prepared statement returned. It closes
// rows. It is the store's one loop over a result: the error that ended the
// iteration early (rows.Err) and the error of closing are both reported,
// neither is lost to a deferred Close.
func eachRow(rows *sql.Rows, fn func(scanner) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rowScanner{rows}); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// queryList runs query on q and returns what scan makes of each row, in
// order. A result of no rows is an empty slice, never nil, so that the
// lists the API returns are written as [] in JSON, not null.
func queryList[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	out := []T{}
	err := queryRows(ctx, q, func(sc scanner) error {
		v, err := scan(sc)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	}, query, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanValue reads a row of one column into a T: a name, a URL.
func scanValue[T any](sc scanner) (T, error) {
	var v T
	err := sc.Scan(&v)
	return v, err
}
