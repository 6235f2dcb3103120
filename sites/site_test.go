package sites

import (
	"errors"
	"testing"
)

func TestOf(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"http://Example.ORG/a", "example.org", false},
		{"http://www.example.org/", "www.example.org", false},
		{"https://example.org:443/x", "example.org", false},
		{"http://example.org:80", "example.org", false},
		{"http://example.org:8080/", "example.org:8080", false},
		{"https://example.org:80/", "example.org:80", false},
		{"http://[::1]:7777/", "[::1]:7777", false},
		{"  http://a.test/  ", "a.test", false},
		{"mailto:x@y.org", "", true},
		{"/relative", "", true},
		{"http:///nohost", "", true},
		{"ftp://a.test/", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Of(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("Of(%q) error = %v, want error %v", tt.in, err, tt.err)
			}
			if got != tt.want {
				t.Errorf("Of(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTP://A.test", "http://a.test/"},
		{"http://a.test:80/p?q=1#frag", "http://a.test/p?q=1"},
		{"http://user:pw@a.test/", "http://a.test/"},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	base, err := Parse("http://a.test/dir/page.html")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Resolve(base, "../other.html#x")
	if err != nil || got.String() != "http://a.test/other.html" {
		t.Errorf("Resolve = %v, %v", got, err)
	}
	if _, err := Resolve(base, "javascript:void(0)"); !errors.Is(err, ErrNotHTTP) {
		t.Errorf("Resolve(javascript:) error = %v, want ErrNotHTTP", err)
	}
}

func FuzzOf(f *testing.F) {
	for _, s := range []string{"http://a.test/", "https://WWW.x.org:443/p#f", "http://[::1]:80/", "mailto:a@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		site, err := Of(raw)
		if err != nil {
			return
		}
		if site == "" {
			t.Fatalf("Of(%q) returned an empty site without error", raw)
		}
		n, err := Normalize(raw)
		if err != nil {
			t.Fatalf("Of accepted %q but Normalize failed: %v", raw, err)
		}
		again, err := Of(n)
		if err != nil || again != site {
			t.Fatalf("site of normalised %q = %q, %v; want %q", n, again, err, site)
		}
	})
}
