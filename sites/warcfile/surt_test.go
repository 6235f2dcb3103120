package warcfile

import "testing"

// TestSURTInternetArchive: SURT gives the keys of the Internet Archive's
// surt library (what pywb looks captures up by). The cases are the test
// vectors of the surt project (tests/test_surt.py, themselves from the
// Java archive-commons tests of WaybackURLKeyMaker, GoogleURLCanonicalizer
// and IAURLCanonicalizer), each canonicalizer's vector written as the key
// surt.surt gives the URL, and a query with percent-encoded characters as
// sitesift's own CDXJ index holds them.
func TestSURTInternetArchive(t *testing.T) {
	const sid32 = "0123456789abcdefghijklemopqrstuv"
	for _, c := range []struct{ in, want string }{
		// WaybackURLKeyMaker.
		{"", "-"},
		{"filedesc:foo.arc.gz", "filedesc:foo.arc.gz"},
		{"filedesc://foo.arc.gz", "filedesc://foo.arc.gz"},
		{"warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz"},
		{"dns:alexa.com", "com,alexa)"},
		{"dns:archive.org", "org,archive)"},
		{"http://www.archive.org/", "org,archive)/"},
		{"http://archive.org/", "org,archive)/"},
		{"http://archive.org/goo/", "org,archive)/goo"},
		{"http://archive.org/goo/?", "org,archive)/goo"},
		{"http://archive.org/goo/?b&a", "org,archive)/goo?a&b"},
		{"http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b"},
		{"http://archive.org/index.php?PHPSESSID=" + sid32 + "&action=profile;u=4221", "org,archive)/index.php?action=profile;u=4221"},
		{"whois://whois.isoc.org.il/shaveh.co.il", "whois://whois.isoc.org.il/shaveh.co.il"},
		{"http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
			"com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2"},
		{"mailto:foo@example.com", "mailto:foo@example.com"},
		{"http://www.example.com/", "com,example)/"},
		// DefaultIAURLCanonicalizer.
		{"http://www.alexa.com/", "com,alexa)/"},
		{"http://archive.org/index.html", "org,archive)/index.html"},
		{"http://archive.org/index.html?", "org,archive)/index.html"},
		{"http://archive.org/index.html?a=b", "org,archive)/index.html?a=b"},
		{"http://archive.org/index.html?b=b&a=b", "org,archive)/index.html?a=b&b=b"},
		{"http://archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
		{"http://www34.archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
		// GoogleURLCanonicalizer.
		{"http://host/%25%32%35", "host)/%25"},
		{"http://host/%25%32%35%25%32%35", "host)/%25%25"},
		{"http://host/%2525252525252525", "host)/%25"},
		{"http://host/asdf%25%32%35asd", "host)/asdf%25asd"},
		{"http://host/%%%25%32%35asd%%", "host)/%25%25%25asd%25%25"},
		{"http://www.google.com/", "com,google)/"},
		{"http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/", "26,99,188,168)/.secure/www.ebay.com"},
		{"http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
			"11,0,127,195)/uploads/%20%20%20%20/.verify/.ebaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx"},
		{"http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B", "com,host%23)/~a!b@c%23d$e%25f^00&11*22(33)44_55+"},
		{"http://3279880203/blah", "11,0,127,195)/blah"},
		{"http://www.google.com/blah/..", "com,google)/"},
		{"www.google.com/", "com,google)/"},
		{"www.google.com", "com,google)/"},
		{"http://www.evil.com/blah#frag", "com,evil)/blah"},
		{"http://www.GOOgle.com/", "com,google)/"},
		{"http://www.google.com.../", "com,google)/"},
		{"http://www.google.com/foo\tbar\rbaz\n2", "com,google)/foobarbaz2"},
		{"http://www.google.com/q?", "com,google)/q"},
		{"http://www.google.com/q?r?", "com,google)/q?r?"},
		{"http://www.google.com/q?r?s", "com,google)/q?r?s"},
		{"http://evil.com/foo#bar#baz", "com,evil)/foo"},
		{"http://evil.com/foo;", "com,evil)/foo;"},
		{"http://evil.com/foo?bar;", "com,evil)/foo?bar;"},
		{"http://\u0001\u0080.com/", "com,%01%c2%80)/"},
		{"B\u00fccher.ch:8080", "ch,xn--bcher-kva:8080)/"},
		{"☃.com", "com,xn--n3h)/"},
		{"http://www.t%EF%BF%BD%04.82.net/", "net,82,t%ef%bf%bd%04)/"},
		{"http://notrailingslash.com", "com,notrailingslash)/"},
		{"http://www.gotaport.com:1234/", "com,gotaport:1234)/"},
		{"  http://www.google.com/  ", "com,google)/"},
		{"http:// leadingspace.com/", "com,%20leadingspace)/"},
		{"http://%20leadingspace.com/", "com,%20leadingspace)/"},
		{"%20leadingspace.com/", "com,%20leadingspace)/"},
		{"https://www.securesite.com/", "com,securesite)/"},
		{"http://host.com/ab%23cd", "com,host)/ab%23cd"},
		{"http://host.com//twoslashes?more//slashes", "com,host)/twoslashes?more//slashes"},
		{"http:////////////////www.vikings.com", "com,vikings)/"},
		{"http://https://order.1and1.com", "com,1and1,order)/"},
		{"http://mineral.galleries.com:/minerals/silicate/chabazit/chabazit.htm", "com,galleries,mineral)/minerals/silicate/chabazit/chabazit.htm"},
		// attemptIPFormats.
		{"http://127.0.0.1/", "1,0,0,127)/"},
		{"http://017.0.0.1/", "1,0,0,15)/"},
		{"http://10.0.258/", "2,1,0,10)/"},
		{"http://1.2.3.256/", "256,3,2,1)/"},
		{"http://39024579298/", "226,210,11,22)/"},
		// IAURLCanonicalizer.
		{"http://ARCHIVE.ORG/", "org,archive)/"},
		{"http://www.archive.org:80/", "org,archive)/"},
		{"https://www.archive.org:80/", "org,archive:80)/"},
		{"http://www.archive.org:443/", "org,archive:443)/"},
		{"https://www.archive.org:443/", "org,archive)/"},
		{"http://www.archive.org/big/", "org,archive)/big"},
		{"dns:www.archive.org", "org,archive,www)"},
		{"http://www12.foo.com/", "com,foo)/"},
		{"http://www2foo.com/", "com,www2foo)/"},
		{"http://www2.www2foo.com/", "com,www2foo)/"},
		{"http://a.test/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "test,a)/mileg.aspx"},
		{"http://a.test/(4hqa0555fwsecu455xqckv45)/mileg.aspx", "test,a)/mileg.aspx"},
		{"http://a.test/(a(4hqa0555fwsecu455xqckv45)S(4hqa0555fwsecu455xqckv45)f(4hqa0555fwsecu455xqckv45))/mileg.aspx?page=sessionschedules",
			"test,a)/mileg.aspx?page=sessionschedules"},
		{"http://a.test/photos/36050182@N05/", "test,a)/photos/36050182@n05"},
		{"http://a.test/?jsessionid=" + sid32, "test,a)/"},
		{"http://a.test/?jsessionid=" + sid32 + "0", "test,a)/?jsessionid=" + sid32 + "0"},
		{"http://a.test/?jsessionid=" + sid32 + "&x=y", "test,a)/?x=y"},
		{"http://a.test/?one=two&jsessionid=" + sid32 + "&x=y", "test,a)/?one=two&x=y"},
		{"http://a.test/?one=two&jsessionid=" + sid32, "test,a)/?&one=two"},
		{"http://a.test/?aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX&x=y", "test,a)/?x=y"},
		{"http://a.test/?phpsessid=" + sid32 + "&x=y", "test,a)/?x=y"},
		{"http://a.test/?sid=9682993c8daa2c5497996114facdc805&x=y", "test,a)/?x=y"},
		{"http://a.test/?sid=9682993c8daa2c5497996114facdc805&jsessionid=" + sid32, "test,a)/"},
		{"http://a.test/?CFID=1169580&CFTOKEN=48630702&dtstamp=22%2F08%2F2006%7C06%3A58%3A11", "test,a)/?dtstamp=22/08/2006|06:58:11"},
		{"http://a.test/?CFID=14475712&CFTOKEN=2D89F5AF-3048-2957-DA4EE4B6B13661AB&r=468710288378&m=forgotten", "test,a)/?m=forgotten&r=468710288378"},
		{"http://a.test/?CFID=16603925&CFTOKEN=2AE13EEE-3048-85B0-56CEDAAB0ACA44B8", "test,a)/"},
		// alphaReorderQuery: a name alone before the same name with a value.
		{"http://a.test/?a=1&", "test,a)/?&a=1"},
		{"http://a.test/?b=b&a=b&b=a&a=a", "test,a)/?a=a&a=b&b=a&b=b"},
		{"http://a.test/?a-c=1&a=2&a", "test,a)/?a&a=2&a-c=1"},
		// Percent-encoded characters of a query, as sitesift's own
		// captures have them: decoded as IA does, a space re-encoded.
		{"http://a.test/w/index.php?title=Special%3ASearch&search=%5Bx%5D%21%2Fy+z%20", "test,a)/w/index.php?search=[x]!/y+z%20&title=special:search"},
		{"https://Example.org:8443/A?b=1&a=2#x", "org,example:8443)/a?a=2&b=1"},
	} {
		if got := SURT(c.in); got != c.want {
			t.Errorf("SURT(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
