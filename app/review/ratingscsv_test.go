package review

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sitesift/sites/store"
)

func TestParseRatings(t *testing.T) {
	in := "\uFEFFSite, Librarian ,rating,note\r\n" +
		"Example.ORG, ana ,4,\"rare, \"\"unique\"\"\nmaps\"\r\n" +
		"\r\n" +
		"b.test,ben,1,  spaced note  \r\n" +
		"b.test,ben,1,  spaced note  \r\n" // an equal repeat: harmless
	got, err := ParseRatings(strings.NewReader(in), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []RatingLine{
		{Line: 2, Rating: store.Rating{Librarian: "ana", Site: "example.org", Rating: 4, Note: "rare, \"unique\"\nmaps"}},
		{Line: 5, Rating: store.Rating{Librarian: "ben", Site: "b.test", Rating: 1, Note: "  spaced note  "}},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ParseRatings = %+v\nwant %+v", got, want)
	}
	// Site names take the site rule's form; the quote sitesift's export
	// puts before a formula is removed, and only that one.
	got, err = ParseRatings(strings.NewReader("librarian,site,rating,note\n"+
		"'=ana,Bücher.test,1,'=SUM(A1)\nana,xn--bcher-kva.test:80,1,'=SUM(A1)\nana,b.test,2,''@x\nana,c.test,3,'plain\nana,'-d.test,4,-0.5\n"), "f")
	want = []RatingLine{
		{Line: 2, Rating: store.Rating{Librarian: "=ana", Site: "xn--bcher-kva.test", Rating: 1, Note: "=SUM(A1)"}},
		{Line: 3, Rating: store.Rating{Librarian: "ana", Site: "xn--bcher-kva.test", Rating: 1, Note: "=SUM(A1)"}},
		{Line: 4, Rating: store.Rating{Librarian: "ana", Site: "b.test", Rating: 2, Note: "'@x"}},
		{Line: 5, Rating: store.Rating{Librarian: "ana", Site: "c.test", Rating: 3, Note: "'plain"}},
		{Line: 6, Rating: store.Rating{Librarian: "ana", Site: "-d.test", Rating: 4, Note: "-0.5"}},
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ParseRatings = %+v, %v\nwant %+v", got, err, want)
	}
	// The note column may be left out.
	got, err = ParseRatings(strings.NewReader("librarian,site,rating\nana,a.test,2\n"), "f")
	if err != nil || len(got) != 1 || got[0].Rating.Rating != 2 || got[0].Note != "" {
		t.Errorf("without note: %+v, %v", got, err)
	}
}

// Every kind of bad line, each reported with its number.
func TestParseRatingsBadLines(t *testing.T) {
	const header = "librarian,site,rating,note\n"
	for _, tc := range []struct {
		name string
		in   string
		want []BadLine // the line and a part of its message
	}{
		{"empty file", "", []BadLine{{1, "empty file"}}},
		{"no header", "ana,a.test,3,\n", []BadLine{{1, `not a ratings file: its first line (text, 4 cells) names none of the columns librarian,site,rating,note`}}},
		{"secrets", "AWS_SECRET_ACCESS_KEY=SECRET1\nAWS_ACCESS_KEY_ID=SECRET2\n", []BadLine{{1, `not a ratings file: its first line (text, 1 cell)`}}},
		{"unknown column", "librarian,site,rating,note,date\nana,a.test,3,,2026\n", []BadLine{{1, `column 5 is no column of a ratings file`}}},
		{"column twice", "librarian,site,rating,site\n", []BadLine{{1, `column "site" twice`}}},
		{"missing column", "librarian,site,note\n", []BadLine{{1, `no "rating" column`}}},
		{"rating out of range", header + "ana,a.test,0,\nana,b.test,5,\nana,c.test,-1,\nana,d.test,4,\n", []BadLine{
			{2, `rating "0" is not a whole number from 1 to 4`}, {3, `rating "5"`}, {4, `rating "-1"`}}},
		{"rating not a number", header + "ana,a.test,three,\nana,b.test,2.5,\nana,c.test,,\n", []BadLine{
			{2, `rating "three"`}, {3, `rating "2.5"`}, {4, `rating ""`}}},
		{"empty site", header + "ana,,3,\nana,  ,3,\n", []BadLine{{2, "empty site"}, {3, "empty site"}}},
		{"bad librarian", header + ",a.test,3,\n\"a\tb\",a.test,3,\n", []BadLine{{2, "empty librarian name"}, {3, "control character"}}},
		{"several faults on one line", header + ",,9,\n", []BadLine{{2, "empty librarian name; empty site; rating \"9\""}}},
		{"too few cells", header + "ana,a.test,3\n", []BadLine{{2, "3 cells, want 4"}}},
		{"too many cells", header + "ana,a.test,3,,x\n", []BadLine{{2, "5 cells, want 4"}}},
		{"bare quote", header + "ana,a\"test,3,\nben,b.test,2,\n", []BadLine{{2, "CSV: bare \" in non-quoted-field"}}},
		{"unclosed quote", header + "ana,a.test,3,ok\nben,b.test,2,\"open\n", []BadLine{{3, "CSV: extraneous or missing \" in quoted-field"}}},
		{"conflicting repeat", header + "ana,a.test,3,\nben,a.test,2,\nana,A.test,4,\n", []BadLine{{4, "ana rates a.test again, differently from line 2"}}},
		{"note too long", header + "ana,a.test,3," + strings.Repeat("x", store.MaxNote+1) + "\n", []BadLine{{2, "note of 4001 characters"}}},
		{"not UTF-8", header + "ana,a.test,3,\xff\n", []BadLine{{2, "not UTF-8"}}},
		{"control character", header + "ana,a.test,3,bell\a\n", []BadLine{{2, "control character U+0007"}}},
		{"multi-line note then a bad line", header + "ana,a.test,3,\"two\nlines\"\nana,b.test,7,\n", []BadLine{{4, `rating "7"`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRatings(strings.NewReader(tc.in), "f.csv")
			var fe *RatingsFileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a RatingsFileError", err)
			}
			if fe.Total != len(tc.want) || len(fe.Lines) != len(tc.want) {
				t.Fatalf("bad lines %+v, want %d", fe.Lines, len(tc.want))
			}
			for i, w := range tc.want {
				if fe.Lines[i].Line != w.Line || !strings.Contains(fe.Lines[i].Error, w.Error) {
					t.Errorf("bad line %d = %+v, want line %d with %q", i, fe.Lines[i], w.Line, w.Error)
				}
			}
			if !strings.HasPrefix(err.Error(), "ratings f.csv refused, nothing imported: ") {
				t.Errorf("message %q", err)
			}
			if strings.Contains(tc.in, "SECRET") && strings.Contains(err.Error(), "SECRET") {
				t.Errorf("the message quotes a file that is no ratings file: %v", err)
			}
		})
	}
}

func TestParseRatingsCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("librarian,site,rating,note\n")
	for i := range 250 {
		fmt.Fprintf(&b, "ana,s%d.test,%d,\n", i, 5+i%2) // every line bad
	}
	_, err := ParseRatings(strings.NewReader(b.String()), "big.csv")
	var fe *RatingsFileError
	if !errors.As(err, &fe) || fe.Total != 250 || len(fe.Lines) != MaxBadLines || fe.Lines[0].Line != 2 || fe.Lines[MaxBadLines-1].Line != MaxBadLines+1 {
		t.Fatalf("capped report: %d lines of %d", len(fe.Lines), fe.Total)
	}
	if !strings.Contains(err.Error(), "250 bad lines: line 2: ") || !strings.HasSuffix(err.Error(), "; and 247 more") {
		t.Errorf("message %q", err)
	}
}

// FuzzParseRatings: any input either parses into ratings that are valid and
// survive WriteRatings and a second parse unchanged, or is refused with its
// bad lines listed in order, by number, within the file.
func FuzzParseRatings(f *testing.F) {
	for _, s := range []string{
		"librarian,site,rating,note\nana,a.test,3,x\n",
		"librarian,site,rating,note\nana,a.test,,a note alone\nAna,b.test, ,\n",
		"site,rating,librarian\nA.test,1,ben\n",
		"librarian,site,rating,note\nana,a.test,3,\"a\nb\"\nana,a.test,4,\n",
		"\uFEFFlibrarian,site,rating\r\nana,b,2\r\n",
		"librarian,site,rating,note\nana,\"a,b\",3,\"\"\"\"\n",
		"librarian,site,rating,note\n\"unclosed,a,3,\n",
		"librarian,site,rating,note\n'=ana,Bücher.test:80,3,''=x\nana,'-b.test,2,-0.5\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		lines, err := ParseRatings(strings.NewReader(in), "f")
		lineCount := strings.Count(in, "\n") + 1
		if err != nil {
			var fe *RatingsFileError
			if !errors.As(err, &fe) || fe.Total == 0 || len(fe.Lines) == 0 || len(fe.Lines) > MaxBadLines || fe.Total < len(fe.Lines) {
				t.Fatalf("error %v is not a proper RatingsFileError", err)
			}
			for i, l := range fe.Lines {
				if l.Line < 1 || l.Line > lineCount || (i > 0 && l.Line < fe.Lines[i-1].Line) || l.Error == "" {
					t.Fatalf("bad line %+v (of %d lines) in %+v", l, lineCount, fe.Lines)
				}
			}
		}
		rs := make([]store.Rating, len(lines))
		for i, l := range lines {
			noteAlone := l.Rating.Rating == 0 && strings.TrimSpace(l.Note) != ""
			if store.ValidLibrarian(l.Librarian) != nil || l.Site == "" || (!noteAlone && (l.Rating.Rating < 1 || l.Rating.Rating > 4)) || l.Line < 2 || l.Line > lineCount {
				t.Fatalf("parsed a bad rating %+v", l)
			}
			rs[i] = l.Rating
		}
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteRatings(&buf, rs); err != nil {
			t.Fatal(err)
		}
		again, err := ParseRatings(&buf, "g")
		if err != nil {
			t.Fatalf("written ratings do not parse: %v\n%s", err, buf.String())
		}
		if len(again) != len(rs) {
			t.Fatalf("%d ratings written, %d read back", len(rs), len(again))
		}
		for i := range again {
			if again[i].Rating != rs[i] {
				t.Fatalf("rating %d: wrote %+v, read %+v", i, rs[i], again[i].Rating)
			}
		}
	})
}
