// Command teambench measures a team server under load: N librarians, each
// signed in with a keep-alive session of their own, rate and review for a
// while as an admin's crawl runs, and it prints every request's latency
// quantiles, the errors, and what the crawl fetched meanwhile.
//
//	go run ./tools/teambench -librarians 30 -duration 60s
//
// It runs in one process: the demo web (crawl/demoweb) served as an HTTP
// proxy, a project crawled from it first (so there are sites to rate), the
// app's one handler with accounts (`serve --team`) on a loopback listener,
// and the librarians as HTTP clients over real TCP connections. Each
// librarian loops: the review queue (GET /api/review/queue), a site's review
// page (GET /api/sites/{site}/review), a rating (PUT
// /api/sites/{site}/rating), one after another without pause — a harder load
// than people at work. The admin starts the crawl through the API as the
// librarians sign in. Passwords are hashed at the real argon2id costs.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"sitesift/app"
	"sitesift/app/accounts"
	"sitesift/app/crawling"
	"sitesift/app/httpapi"
	"sitesift/app/project"
	"sitesift/crawl/demoweb"
)

func main() {
	n := flag.Int("librarians", 30, "signed-in librarians working at once")
	dur := flag.Duration("duration", 60*time.Second, "how long they work")
	firstPages := flag.Int("first-pages", 300, "pages of the first crawl, before the librarians start")
	delay := flag.Duration("crawl-delay", 50*time.Millisecond, "per-site delay of the admin's crawl during the run")
	flag.Parse()
	if err := run(*n, *dur, *firstPages, *delay); err != nil {
		log.Fatal(err)
	}
}

func run(n int, dur time.Duration, firstPages int, delay time.Duration) error {
	ctx := context.Background()
	web := demoweb.New(demoweb.DefaultSeed)
	ws, err := web.Serve(ctx, "")
	if err != nil {
		return err
	}
	defer ws.Close()
	dir, err := os.MkdirTemp("", "teambench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p, err := project.Open(filepath.Join(dir, "p"), true)
	if err != nil {
		return err
	}
	defer p.Close()
	a := app.New(app.Options{Project: p})
	defer a.Close()
	req := crawling.CrawlRequest{Seeds: web.Seeds(), MaxPages: firstPages, Strategy: "greedy", Proxy: ws.URL,
		SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(0), Parallel: app.Set(8)}}
	if _, err := a.Crawling.Run(ctx, req, time.Second, nil); err != nil {
		return fmt.Errorf("first crawl: %w", err)
	}
	acc := accounts.New(p, accounts.Options{})
	names := []string{"admin"}
	for i := range n {
		names = append(names, fmt.Sprintf("lib%02d", i+1))
	}
	for i, name := range names {
		role := project.RoleApprover
		if i == 0 {
			role = project.RoleAdmin
		}
		if _, err := acc.Add(ctx, name, role, name+"-bench-password"); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: httpapi.New(a, httpapi.Team(acc)), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	admin, err := signIn(base, "admin")
	if err != nil {
		return err
	}
	crawlBody, _ := json.Marshal(map[string]any{"seeds": web.Seeds(), "max_pages": 1_000_000, "proxy": ws.URL,
		"delay_ms": delay.Milliseconds(), "parallel": 8})
	if code, body := admin.do("POST", "/api/crawl", crawlBody); code != http.StatusAccepted {
		return fmt.Errorf("the admin's crawl: HTTP %d %s", code, body)
	}
	// The demo web is small: a crawl ends in seconds. The admin keeps one
	// running all along, starting a recrawl whenever the last one ended.
	stop := make(chan struct{})
	crawls, crawlPages := 1, 0
	var crawlWG sync.WaitGroup
	crawlWG.Add(1)
	go func() {
		defer crawlWG.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Millisecond):
			}
			_, body := admin.do("GET", "/api/crawl", nil)
			var st struct {
				Data struct {
					State string `json:"state"`
					Pages int    `json:"pages"`
				} `json:"data"`
			}
			json.Unmarshal(body, &st)
			if st.Data.State == "running" || st.Data.State == "stopping" {
				continue
			}
			crawlPages += st.Data.Pages
			rb, _ := json.Marshal(map[string]any{"proxy": ws.URL, "delay_ms": delay.Milliseconds(), "parallel": 8})
			if code, body := admin.do("POST", "/api/crawl/recrawl", rb); code == http.StatusAccepted {
				crawls++
			} else {
				log.Printf("recrawl: HTTP %d %s", code, body)
			}
		}
	}()
	// Every site of the project: a librarian who has rated all the queue
	// holds rates one of them again.
	_, body := admin.do("GET", "/api/sites?limit=500", nil)
	var sl struct {
		Data struct {
			Rows []struct{ Site string } `json:"rows"`
		} `json:"data"`
	}
	json.Unmarshal(body, &sl)
	var allSites []string
	for _, r := range sl.Data.Rows {
		allSites = append(allSites, r.Site)
	}
	if len(allSites) == 0 {
		return fmt.Errorf("the first crawl left no site to rate: %s", body)
	}

	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	errs := map[string]int{}
	var wg sync.WaitGroup
	signInStart := time.Now()
	var signInLat []time.Duration
	for _, name := range names[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			c, err := signIn(base, name)
			mu.Lock()
			signInLat = append(signInLat, time.Since(t0))
			mu.Unlock()
			if err != nil {
				mu.Lock()
				errs["sign-in: "+err.Error()]++
				mu.Unlock()
				return
			}
			rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(name[len(name)-1])))
			end := time.Now().Add(dur)
			for time.Now().Before(end) {
				t := time.Now()
				code, body := c.do("GET", "/api/review/queue?limit=20", nil)
				c.note(&mu, lat, errs, "GET /api/review/queue", code, body, time.Since(t))
				var q struct {
					Data struct {
						Rows []struct{ Site string } `json:"rows"`
					} `json:"data"`
				}
				json.Unmarshal(body, &q)
				site := url.PathEscape(allSites[rng.IntN(len(allSites))])
				if len(q.Data.Rows) > 0 {
					site = url.PathEscape(q.Data.Rows[rng.IntN(len(q.Data.Rows))].Site)
				}
				t = time.Now()
				code, body = c.do("GET", "/api/sites/"+site+"/review", nil)
				c.note(&mu, lat, errs, "GET /api/sites/{site}/review", code, body, time.Since(t))
				t = time.Now()
				code, body = c.do("PUT", "/api/sites/"+site+"/rating", []byte(fmt.Sprintf(`{"rating":%d}`, 1+rng.IntN(4))))
				c.note(&mu, lat, errs, "PUT /api/sites/{site}/rating", code, body, time.Since(t))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(signInStart)
	close(stop)
	crawlWG.Wait()
	_, after := admin.do("GET", "/api/crawl", nil)

	fmt.Printf("teambench: %d signed-in librarians for %v, one admin's crawl running (delay %v)\n", n, dur, delay)
	fmt.Printf("%-32s %7s %8s %8s %8s %8s\n", "request", "count", "p50", "p95", "p99", "max")
	var all []time.Duration
	row := func(name string, ds []time.Duration) {
		slices.Sort(ds)
		q := func(f float64) time.Duration { return ds[min(len(ds)-1, int(f*float64(len(ds))))] }
		fmt.Printf("%-32s %7d %8s %8s %8s %8s\n", name, len(ds), ms(q(0.5)), ms(q(0.95)), ms(q(0.99)), ms(ds[len(ds)-1]))
	}
	row("POST /api/login", signInLat)
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range lat {
			if !yield(k) {
				return
			}
		}
	}) {
		row(k, lat[k])
		all = append(all, lat[k]...)
	}
	if len(all) > 0 {
		row("all work requests", all)
		fmt.Printf("throughput: %.0f requests/s over %v\n", float64(len(all))/elapsed.Seconds(), elapsed.Round(time.Second))
	}
	total := 0
	for e, c := range errs {
		fmt.Printf("error ×%d: %s\n", c, e)
		total += c
	}
	fmt.Printf("errors: %d\n", total)
	fmt.Printf("the admin's crawls: %d started (the first, then a recrawl whenever one ended), %d responses in those that ended; the last: %s\n",
		crawls, crawlPages, crawlLine(after))
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

func crawlLine(body []byte) string {
	var st struct {
		Data struct {
			State   string `json:"state"`
			PagesOK int    `json:"pages_ok"`
			Pages   int    `json:"pages"`
		} `json:"data"`
	}
	json.Unmarshal(body, &st)
	return fmt.Sprintf("%s, %d pages fetched fine of %d responses", st.Data.State, st.Data.PagesOK, st.Data.Pages)
}

// client is one signed-in librarian: a cookie jar, keep-alive connections
// and the write token of the page.
type client struct {
	base  string
	http  *http.Client
	token string
}

func signIn(base, name string) (*client, error) {
	jar, _ := cookiejar.New(nil)
	c := &client{base: base, http: &http.Client{Jar: jar, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
	if code, body := c.do("POST", "/api/login", []byte(`{"name":"`+name+`","password":"`+name+`-bench-password"}`)); code != 200 {
		return nil, fmt.Errorf("sign in %s: HTTP %d %s", name, code, body)
	}
	_, body := c.do("GET", "/api/session", nil)
	var env struct {
		Data struct{ Token string } `json:"data"`
	}
	json.Unmarshal(body, &env)
	c.token = env.Data.Token
	return c, nil
}

func (c *client) do(method, path string, body []byte) (int, []byte) {
	req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(httpapi.TokenHeader, c.token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func (c *client) note(mu *sync.Mutex, lat map[string][]time.Duration, errs map[string]int, what string, code int, body []byte, d time.Duration) {
	mu.Lock()
	defer mu.Unlock()
	lat[what] = append(lat[what], d)
	if code < 200 || code > 299 {
		msg := string(body)
		if len(msg) > 160 {
			msg = msg[:160]
		}
		errs[fmt.Sprintf("%s: HTTP %d %s", what, code, strings.TrimSpace(msg))]++
	}
}
