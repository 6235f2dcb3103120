package doccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// skipDirs are directories whose Markdown is not sitesift's: installed
// packages, build output, the fuzzers' and tests' inputs.
var skipDirs = map[string]bool{"node_modules": true, ".git": true, "dist": true, "testdata": true, "out": true}

// markdownFiles lists the repository's .md files, relative to root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	fence      = regexp.MustCompile("(?ms)^ *```.*?^ *```")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	inlineLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	htmlSrc    = regexp.MustCompile(`(?:src|href)="([^"]+)"`)
)

// links gives the targets of the Markdown links and HTML src/href of text,
// outside code blocks and code spans, where a "](x)" is an example.
func links(text string) []string {
	text = fence.ReplaceAllString(text, "")
	text = codeSpan.ReplaceAllString(text, "")
	var out []string
	for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	for _, m := range htmlSrc.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestRelativeLinksResolve: a link from one page of the documentation to a
// file of the repository (another page, a picture, a source file) must lead
// somewhere; moving a page or a file breaks the test, not the reader.
func TestRelativeLinksResolve(t *testing.T) {
	files := markdownFiles(t)
	if len(files) < 3 {
		t.Fatalf("found %d Markdown files under %s, expected the README and docs/", len(files), root)
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range links(string(text)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue
			}
			path, _, _ := strings.Cut(target, "#")
			full := filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			if _, err := os.Stat(full); err != nil {
				rel, _ := filepath.Rel(root, f)
				t.Errorf("%s: the link %q leads nowhere (%s does not exist)", rel, target, filepath.Clean(full))
			}
		}
	}
}

func TestLinksSkipsCode(t *testing.T) {
	text := "See [a](docs/a.md) and `[b](not-a-link)`.\n```\n[c](nor-this)\n```\n<img src=\"docs/img/x.png\">\n"
	got := links(text)
	want := []string{"docs/a.md", "docs/img/x.png"}
	if !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
}

var srcName = regexp.MustCompile("`src/([A-Za-z0-9_./-]+)`")

// TestFrontendReadmeListsEverySourceFile: frontend/README.md's layout table
// names every file under frontend/src (as `src/NAME`), and every file it
// names exists, so a newcomer reading it finds each file and is never sent to
// one that is gone.
func TestFrontendReadmeListsEverySourceFile(t *testing.T) {
	dir := filepath.Join(root, "frontend")
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, m := range srcName.FindAllStringSubmatch(string(readme), -1) {
		named[m[1]] = true
	}
	var files []string
	err = filepath.WalkDir(filepath.Join(dir, "src"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(filepath.Join(dir, "src"), path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("frontend/src holds no files")
	}
	for _, f := range files {
		if !named[f] {
			t.Errorf("frontend/README.md does not describe src/%s", f)
		}
	}
	for n := range named {
		if !slices.Contains(files, n) {
			t.Errorf("frontend/README.md names src/%s, which does not exist", n)
		}
	}
}

// TestCJKFontInstalledAndNamed: a stock Debian has no font with Chinese,
// Japanese or Korean glyphs, so pages and titles in those scripts render as
// boxes in the window and in Chromium. .ci/install installs the Noto CJK
// fonts with the other apt packages, and the guide names them for a reader
// who installs by hand.
func TestCJKFontInstalledAndNamed(t *testing.T) {
	const pkg = "fonts-noto-cjk"
	install, err := os.ReadFile(filepath.Join(root, ".ci", "install"))
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)APT_PACKAGES=\(([^)]*)\)`).FindSubmatch(install)
	if list == nil || !slices.Contains(strings.Fields(string(list[1])), pkg) {
		t.Errorf(".ci/install: APT_PACKAGES does not hold %s", pkg)
	}
	guide, err := os.ReadFile(filepath.Join(root, "docs", "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), pkg) {
		t.Errorf("docs/guide.md does not name %s", pkg)
	}
}
