package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestQueryList(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	// One connection: a result left open would make every later query wait,
	// until this deadline.
	s.db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const three = `SELECT value FROM json_each('[1, 2, 3]') ORDER BY value`

	got, err := queryList(ctx, s.db, scanValue[int], three)
	if err != nil || len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Fatalf("queryList = %v, %v; want [1 2 3]", got, err)
	}
	none, err := queryList(ctx, s.db, scanValue[int], three+` LIMIT 0`)
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("queryList of no rows = %#v, %v; want an empty, non-nil slice", none, err)
	}

	stop := errors.New("stop")
	seen := 0
	err = queryRows(ctx, s.db, func(sc scanner) error {
		if seen++; seen == 2 {
			return stop
		}
		return nil
	}, three)
	if err != stop || seen != 2 {
		t.Errorf("queryRows stopped after %d rows with %v; want 2 rows and the callback's error as is", seen, err)
	}

	_, err = queryList(ctx, s.db, scanValue[[]int], three)
	if err == nil || !strings.HasPrefix(err.Error(), "scan: ") {
		t.Errorf("a failed Scan gives %v; want it marked as a scan error", err)
	}

	// The connection came back each time.
	if n, err := s.SchemaVersion(ctx); err != nil || n == 0 {
		t.Errorf("SchemaVersion = %d, %v after the queries", n, err)
	}
}
