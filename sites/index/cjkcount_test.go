package index

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"sitesift/sites"
)

// TestCJKSentenceQuery: a query of a sentence or two of Chinese or Japanese
// runs and finds the page that holds it, while a query of a page of them
// is still refused as too many words.
func TestCJKSentenceQuery(t *testing.T) {
	zh := "图书馆员们正在讨论如何长期保存网络上的新闻网站，以便未来的读者能够查阅今天的报道和评论文章。" +
		"他们认为每一个网站都是这个时代的记录，应该由图书馆负责收集整理并且长期保存下来供研究使用。"
	ja := "図書館員は、ニュースサイトを長く保存する方法について話し合い、将来の読者のために記録を残そうとしている。" +
		"彼らは、すべてのウェブサイトがこの時代の記録であり、図書館が集めて整理すべきだと考えている。"
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	zhPage, jaPage := pg("http://zh.test/", "新闻", zh), pg("http://ja.test/", "記録", ja)
	zhPage.Language, jaPage.Language = "zh", "ja"
	if err := ix.Add([]sites.Page{zhPage, jaPage}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{"图书馆员们正在讨论如何长期保存网络上的新闻网站，以便未来的读者能够查阅今天的报道", "http://zh.test/"},
		{zh, "http://zh.test/"},
		{ja, "http://ja.test/"},
		// 122 characters: about 60 words, near MaxQueryWords.
		{zh + "图书馆员们正在讨论如何长期保存网络上的新闻网站，以便未来的读者", "http://zh.test/"},
	} {
		res, err := ix.Search(context.Background(), Query{Text: tc.text})
		if err != nil {
			t.Errorf("a query of %d characters: %v", utf8.RuneCountInString(tc.text), err)
			continue
		}
		if res.Total == 0 || res.Hits[0].URL != tc.want {
			t.Errorf("a query of %d characters finds %+v, want %s first", utf8.RuneCountInString(tc.text), res.Hits, tc.want)
		}
	}
	page := strings.Repeat(zh, 4)
	_, err = ix.Search(context.Background(), Query{Text: page})
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Problem != ProblemTooMany {
		t.Errorf("a query of %d Chinese characters: %v, want it refused as %s", utf8.RuneCountInString(page), err, ProblemTooMany)
	}
}
