package ranking_test

import (
	"context"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/fault"
	"sitesift/app/project"
)

// TestSettingsChecked: SetSettings refuses a bad contact, user agent or
// delay as a bad request and stores none of it; a contact can be removed.
func TestSettingsChecked(t *testing.T) {
	a := apptest.Empty(t)
	ctx := context.Background()
	for _, u := range []project.SettingsUpdate{
		{Contact: app.Set("nobody")},
		{Contact: app.Set("ftp://library.org/")},
		{Contact: app.Set("Ana <ana@library.org>")},
		{UserAgent: app.Set("bot\r\nX-Evil: 1")},
		{UserAgent: app.Set("/1.0")},
		{DelayMS: app.Set(-1)},
		{Parallel: app.Set(0)},
		{MaxDelayMS: app.Set(0)},
		{DelayMS: app.Set(5000), MaxDelayMS: app.Set(1000)},
	} {
		if _, err := a.Ranking.SetSettings(ctx, u); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("SetSettings(%+v): %v, want a bad request", u, err)
		}
	}
	if s, err := a.Settings(ctx); err != nil || s.DelayMS != project.DefaultDelayMS || s.Contact != "" {
		t.Errorf("refused settings were stored: %+v, %v", s, err)
	}
	// A contact can be removed again.
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{Contact: app.Set("ana@library.org")}); err != nil {
		t.Fatal(err)
	}
	if s, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{Contact: app.Set("")}); err != nil || s.Contact != "" {
		t.Errorf("clearing the contact: %+v, %v", s, err)
	}
}
