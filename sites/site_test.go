package sites

import (
	"errors"
	"strings"
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
		// A host must be a DNS name or an IP address.
		{"http://../x", "", true},
		{"http://./", "", true},
		{"http://a..test/", "", true},
		{"http://a.test./", "a.test", false},
		{"http://a b.test/", "", true},
		{"http://a$b.test/", "", true},
		{"http://my_site.example.org/", "my_site.example.org", false},
		{"http://r3---sn-x.example.com/", "r3---sn-x.example.com", false},
		{"http://" + strings.Repeat("a", 64) + ".test/", "", true},
		// One form for internationalised names: IDNA's ASCII form.
		{"http://bücher.test/", "xn--bcher-kva.test", false},
		{"http://BÜCHER.test/", "xn--bcher-kva.test", false},
		{"http://xn--bcher-kva.test/", "xn--bcher-kva.test", false},
		{"http://xn--zz.test/", "", true},
		{"http://b\xffcher.test/", "", true},
		// Ports 1-65535, written without leading zeros.
		{"http://a.test:99999/", "", true},
		{"http://a.test:0/", "", true},
		{"http://a.test:0080/", "a.test", false},
		{"http://a.test:08080/", "a.test:8080", false},
		// IP addresses in their standard form; no other numeric host.
		{"http://127.0.0.1:8080/", "127.0.0.1:8080", false},
		{"http://[0:0::1]/", "[::1]", false},
		{"http://[fe80::1%25eth0]/", "", true},
		{"http://0x7f.1/", "", true},
		{"http://1.2.3.04/", "", true},
		{"http://256.1.1.1/", "", true},
		{"http://example.123/", "", true},
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
		// Spaces and non-ASCII bytes of a query are percent-encoded, so
		// that the string parses back to itself.
		{"http://a.test/p?a b", "http://a.test/p?a%20b"},
		{"http://a.test/?q=café", "http://a.test/?q=caf%C3%A9"},
		{"http://a.test/?q=caf%C3%A9", "http://a.test/?q=caf%C3%A9"},
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
		if got := Name(site); got != site {
			t.Fatalf("Name(%q) = %q, want the site unchanged", site, got)
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

func TestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Example.ORG", "example.org"},
		{"bücher.test", "xn--bcher-kva.test"},
		{"xn--bcher-kva.test", "xn--bcher-kva.test"},
		{"a.test:80", "a.test"},
		{"a.test:8080", "a.test:8080"},
		{"Blog.Example/Path", "blog.example/path"},
		{"not a host", "not a host"},
	}
	for _, tt := range tests {
		if got := Name(tt.in); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBadHostIsErrBadHost(t *testing.T) {
	for _, raw := range []string{"http://../x", "http://a.test:99999/", "http://b\xffcher.test/"} {
		if _, err := Of(raw); !errors.Is(err, ErrBadHost) {
			t.Errorf("Of(%q) error = %v, want ErrBadHost", raw, err)
		}
	}
}

// FuzzResolve checks what the crawler relies on: every link Resolve accepts
// has a site, and its normalised form gives the same URL and site again, so
// the store never refuses a link the crawler kept.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"../a", "http://B.test:80/x#f", "//c.test/", "http://../x", "https://bücher.test/", "mailto:a@b"} {
		f.Add(s)
	}
	base, err := Parse("http://a.test/dir/page.html")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		u, err := Resolve(base, ref)
		if err != nil {
			return
		}
		s := u.String()
		site, err := Of(s)
		if err != nil {
			t.Fatalf("Resolve(%q) = %q, whose site fails: %v", ref, s, err)
		}
		if site != OfURL(u) {
			t.Fatalf("Resolve(%q) = %q: site %q, OfURL %q", ref, s, site, OfURL(u))
		}
		if n, err := Normalize(s); err != nil || n != s {
			t.Fatalf("Resolve(%q) = %q, normalised again %q, %v", ref, s, n, err)
		}
	})
}
