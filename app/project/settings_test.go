package project

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"sitesift/app/fault"
	"sitesift/sites"
	"sitesift/sites/store"
)

// openSettings opens a new project for a settings test.
func openSettings(t *testing.T) *Project {
	t.Helper()
	p, err := Open(filepath.Join(t.TempDir(), "p"), true, SearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestSettingsStored: a new project has the default settings; a change is
// kept across a reopening, a nil field keeps what was stored, an empty
// contact removes it, and the audit log holds the change; a change of the
// link graph says the importance must be computed again, once.
func TestSettingsStored(t *testing.T) {
	p, err := Open(filepath.Join(t.TempDir(), "p"), true, SearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := p.Settings(ctx)
	want := DefaultSettings()
	want.EffectiveUserAgent = "sitesift/" + Version
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Fatalf("settings of a new project: %+v, %v; want %+v", s, err, want)
	}
	s, relink, err := p.SetSettings(ctx, SettingsUpdate{Contact: new(" ana@library.org "), DelayMS: new(250),
		Window: new(WindowFixed), WindowSize: new(3), SinglePersonApproval: new(true), SiteRule: new("domain")})
	if err != nil || relink || s.Contact != "ana@library.org" || s.DelayMS != 250 || s.Window != WindowFixed ||
		s.WindowSize != 3 || !s.SinglePersonApproval || s.SiteRule != string(sites.RuleDomain) ||
		s.EffectiveUserAgent != "sitesift/"+Version+" (+ana@library.org)" || s.From() != "ana@library.org" {
		t.Fatalf("after a change: %+v, relink %v, %v", s, relink, err)
	}
	if _, _, err := p.SetSettings(ctx, SettingsUpdate{Parallel: new(2)}); err != nil {
		t.Fatal(err)
	}
	dir := p.Dir
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if p, err = Open(dir, false, SearchTimeout(NoSearchTimeout)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	got, err := p.Settings(ctx)
	s.Parallel = 2
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("reopened: %+v, %v; want %+v", got, err, s)
	}
	if s, _, err = p.SetSettings(ctx, SettingsUpdate{Contact: new("")}); err != nil || s.Contact != "" || s.From() != "" ||
		s.EffectiveUserAgent != "sitesift/"+Version || s.DelayMS != 250 {
		t.Fatalf("contact removed: %+v, %v", s, err)
	}
	for i, wantRelink := range []bool{true, false} {
		if _, relink, err := p.SetSettings(ctx, SettingsUpdate{Links: new(" all ")}); err != nil || relink != wantRelink {
			t.Errorf("links all, time %d: relink %v, %v; want %v", i+1, relink, err, wantRelink)
		}
	}
	if s, _ := p.Settings(ctx); s.Links != string(store.AllLinks) {
		t.Errorf("links after the change: %q", s.Links)
	}
	audit, err := p.Store.Audit(ctx, store.AuditQuery{})
	n := 0
	for _, e := range audit {
		if e.Action == store.AuditSettings {
			n++
		}
	}
	if err != nil || n != 5 {
		t.Errorf("audit of 5 settings changes: %d entries, %v", n, err)
	}
}

// TestSettingsRefused: a value that is not valid is refused as invalid,
// and nothing of the update is stored.
func TestSettingsRefused(t *testing.T) {
	p := openSettings(t)
	ctx := context.Background()
	for _, u := range []SettingsUpdate{
		{Contact: new("not a contact")},
		{Contact: new("ftp://library.org/")},
		{UserAgent: new("1bot/1.0")},
		{UserAgent: new("bot/1.0 \x01")},
		{DelayMS: new(-1)},
		{Parallel: new(0)},
		{Parallel: new(65)},
		{MaxDelayMS: new(0)},
		{DelayMS: new(5000), MaxDelayMS: new(4000)},
		{DelayMS: new(DefaultMaxDelayMS + 1)},
		{Window: new("median")},
		{WindowSize: new(0)},
		{WindowSize: new(101)},
		{SiteRule: new("path")},
		{Links: new("template")},
		{Contact: new("ana@library.org"), Parallel: new(0)},
	} {
		if _, _, err := p.SetSettings(ctx, u); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("update %+v: %v; want an invalid value", u, err)
		}
	}
	want := DefaultSettings()
	want.EffectiveUserAgent = "sitesift/" + Version
	if s, err := p.Settings(ctx); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("after refused updates: %+v, %v; want the defaults", s, err)
	}
}

// TestSettingsAdminOnly: on a team server only an admin changes the
// settings.
func TestSettingsAdminOnly(t *testing.T) {
	p := openSettings(t)
	ctx := WithIdentity(context.Background(), Identity{Name: "ana", Role: RoleApprover})
	if _, _, err := p.SetSettings(ctx, SettingsUpdate{DelayMS: new(5)}); fault.KindOf(err) != fault.KindForbidden {
		t.Errorf("an approver changes the settings: %v; want forbidden", err)
	}
	if s, _ := p.Settings(ctx); s.DelayMS != DefaultDelayMS {
		t.Errorf("an approver's change was stored: %+v", s)
	}
}
