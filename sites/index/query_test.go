package index

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestSearchWords checks the rules of plain words: all required unless Any,
// stop words left out and reported.
func TestSearchWords(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		q       Query
		want    []string // any order
		ignored []string
	}{
		{"two words: both required", Query{Text: "open journals"}, []string{"http://news.test/open"}, nil},
		{"two words in title and text", Query{Text: "avocado toast"}, []string{"http://food.test/avocado"}, nil},
		{"two words, any", Query{Text: "open journals", Any: true},
			[]string{"http://news.test/closed", "http://news.test/open"}, nil},
		{"words of different pages: none", Query{Text: "kumquat avocado"}, nil, nil},
		{"words of different pages, any", Query{Text: "kumquat avocado", Any: true},
			[]string{"http://fruit.test/kumquat", "http://food.test/avocado", "http://food.test/bread", "http://garden.test/tree"}, nil},
		{"phrase and word required", Query{Text: `"open access" doors`}, nil, nil},
		{"excluded still excluded with all words", Query{Text: "open access -doors"}, []string{"http://news.test/open"}, nil},
		{"+ required with any", Query{Text: "+open journals doors", Any: true},
			[]string{"http://news.test/closed", "http://news.test/open"}, nil},
		{"stop word left out of required words", Query{Text: "the journals"}, []string{"http://news.test/open"}, []string{"the"}},
		{"stop words with a site filter: the site's pages", Query{Text: "the of site:kitchen.test"},
			[]string{"http://kitchen.test/loaf", "http://kitchen.test/starter"}, []string{"the", "of"}},
		{"field in all words", Query{Text: "title:bread time"}, []string{"http://food.test/bread"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := urls(res.Hits)
			sort.Strings(got)
			want := slices.Clone(tt.want)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("hits = %v, want %v", got, want)
			}
			if !slices.Equal(res.Ignored, tt.ignored) {
				t.Errorf("ignored = %q, want %q", res.Ignored, tt.ignored)
			}
		})
	}
}

// TestSearchQueryErrors checks that a query that cannot run says why in
// plain words, and where, never with bleve's parser messages.
func TestSearchQueryErrors(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	for _, tt := range []struct {
		text    string
		problem string
		pos     int
		message string // a part of the message
	}{
		{"", ProblemEmpty, 0, "Type something"},
		{"the of", ProblemStopWords, 0, "'the of' only has words too common to search for"},
		{`"the" and`, ProblemStopWords, 0, `'"the" and' only has words too common`},
		{`jazz "open records`, ProblemSyntax, 6, "Unbalanced quote: the \" at character 6 has no closing quote"},
		{`été "open`, ProblemSyntax, 5, "at character 5"}, // characters, not bytes
		{"jazz - records", ProblemSyntax, 6, `A lone "-" at character 6`},
		{"jazz +", ProblemSyntax, 6, `A lone "+" at character 6`},
		{"--jazz", ProblemSyntax, 1, "use one + or - before a word"},
		{"title:", ProblemSyntax, 1, "title: at character 1 has no value"},
		{"jazz colour:red", ProblemSyntax, 6, `Unknown field "colour" at character 6: the fields are title, text, site, url`},
		{`""`, ProblemSyntax, 1, "Empty phrase at character 1"},
		{"jazz^", ProblemSyntax, 5, "Boost at character 5 needs a number"},
		{"jazz^x", ProblemSyntax, 5, "Boost at character 5"},
		{"jazz~5", ProblemSyntax, 5, "Fuzziness at character 5 must be"},
		{"~1", ProblemSyntax, 1, "comes before any word"},
		{"/jaz", ProblemSyntax, 1, "Unfinished regular expression at character 1"},
		{"/[/", ProblemSyntax, 0, "The regular expression /[/ is not valid"},
		{`site:"a.test`, ProblemSyntax, 6, "Unbalanced quote"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			_, err := ix.Search(ctx, Query{Text: tt.text})
			var qe *QueryError
			if !errors.As(err, &qe) || !errors.Is(err, ErrBadQuery) {
				t.Fatalf("err = %v, want a QueryError", err)
			}
			if qe.Problem != tt.problem || qe.Pos != tt.pos || !strings.Contains(qe.Message, tt.message) {
				t.Errorf("got %s at %d: %q; want %s at %d: …%s…", qe.Problem, qe.Pos, qe.Message, tt.problem, tt.pos, tt.message)
			}
			for _, parser := range []string{"syntax error", "unexpected", "tSTRING", "tCOLON", "tEOF", "parse error"} {
				if strings.Contains(qe.Message, parser) {
					t.Errorf("message %q has the parser's words %q", qe.Message, parser)
				}
			}
		})
	}
}

// TestQuerySyntaxAccepted checks that every operator the Search page lists
// is accepted by the checks and runs.
func TestQuerySyntaxAccepted(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	for _, text := range []string{
		`"open access"`, "+open -doors", "title:bread", `title:"avocado toast"`, "site:food.test avocado",
		`url:"http://food.test/bread"`, "kumq*", "kumqu?t", "kumqat~", "kumqat~2", "/kumq.*/", "avocado^2 toast",
		`"open access"^2`, `e\-mail`, `a\:b`, "jazz-age", "-doors open",
	} {
		if _, err := ix.Search(ctx, Query{Text: text}); err != nil {
			t.Errorf("%s: %v", text, err)
		}
	}
	res, err := ix.Search(ctx, Query{Text: `url:"http://food.test/bread"`})
	if err != nil || len(res.Hits) != 1 {
		t.Errorf("url:\"…\" found %v, %v; want the one page", urls(res.Hits), err)
	}
}

// FuzzCheckSyntax checks that checkSyntax never panics, that each refusal
// has a message and a position within the text, and that what it lets
// through parses or gets the general message.
func FuzzCheckSyntax(f *testing.F) {
	for _, s := range []string{`"a`, "a - b", "title:", "x^", `"a"~`, `\`, "+-", `site:"a`, "é:\"", "/a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		err := checkSyntax(in)
		var qe *QueryError
		if err != nil {
			if !errors.As(err, &qe) || qe.Message == "" {
				t.Fatalf("%q: %v", in, err)
			}
			if qe.Pos < 0 || qe.Pos > len([]rune(in))+1 {
				t.Fatalf("%q: position %d", in, qe.Pos)
			}
			return
		}
		if _, err := parse(in); err != nil && !errors.As(err, &qe) {
			t.Fatalf("%q: parse: %v", in, err)
		}
	})
}
