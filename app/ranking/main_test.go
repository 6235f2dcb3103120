package ranking_test

import (
	"testing"

	"sitesift/app/apptest"
)

// TestMain removes the project apptest.CrawledProject made.
func TestMain(m *testing.M) { apptest.Main(m) }
