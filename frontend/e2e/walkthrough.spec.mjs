// The user guide's "A librarian's job, page by page" (docs/guide.md), walked in the browser on a
// crawl of the demo web with its page chrome (navigation, publisher networks,
// share buttons, cookie banners, related boxes, utm_ and ?share= links),
// checking on each page what a librarian would check before trusting it, and
// saving a screenshot of each step for the guide (docs/img).
//
//   SITESIFT_URL=http://127.0.0.1:7777/ DEMO_PROXY=http://127.0.0.1:7778 node e2e/walkthrough.spec.mjs
//
//   DEMO_PROXY   the demo web's proxy (`sitesift demo-web`), through which each
//                search hit's page is read again to see where the word is (required)
//   SEARCH_WORD  a word of the cookie banner of every demo page that some of
//                the authors also wrote (default "remember": "remember your
//                choices" in the banner, "older readers remember" in articles)
//   WALK_LIBRARIAN  the librarian the walk adds and chooses (default a name of
//                its own; "ana" for pictures of the guide)
//
// It assumes a project crawled from the demo web's seeds (`sitesift demo` or
// .ci/ui-test). Screenshots go to SCREENSHOT_DIR (default e2e/out/), named
// walk-*.png. It prints "N passed, M failed" and exits non-zero when anything
// failed. It leaves a librarian and a saved collection in the project.

import { request as httpRequest } from 'node:http';
import { answered, assert, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('walkthrough.spec');

const PROXY = process.env.DEMO_PROXY || '';
if (!PROXY) {
  console.error('walkthrough.spec: set DEMO_PROXY to the demo web\'s proxy (`sitesift demo-web` prints it)');
  process.exit(2);
}
const WORD = (process.env.SEARCH_WORD || 'remember').toLowerCase();
const LIBRARIAN = process.env.WALK_LIBRARIAN || `e2e-walk-${process.pid}-${Date.now().toString(36)}`;

// Function words of English and French: no phrase of a topic label starts or ends on one.
const STOP = new Set(
  ('a an and are as at be but by for from had has have he her his i in is it its not of on or our she that the their ' +
    'them they this to was we were what when which who will with you your also more most than then there these those ' +
    'au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui mais me même ne nos notre nous on ou ' +
    'par pas pour qu que qui sa se ses son sur ta te tu un une vous été être avoir fait plus sont').split(' '),
);
// Parameters that make one article several URLs; a hit carrying one is a copy.
const COPY_PARAM = /^(utm_.*|share|nb|fbclid|gclid|ref)$/i;

/** siteOf is the host of a URL as sitesift names sites (no www.). */
const siteOf = (u) => new URL(u).host.replace(/^www\./, '');

/** apiGet reads data of a GET on the served API, failing with its status. */
async function apiGet(page, path) {
  const res = await page.request.get(`${base}${path.replace(/^\//, '')}`);
  assert(res.ok(), `GET ${path} answered HTTP ${res.status()}`);
  return (await res.json()).data;
}

/** viaProxy fetches url from the demo web through its proxy, following up to 3 redirects. */
function viaProxy(url, hops = 3) {
  const p = new URL(PROXY);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: p.hostname, port: p.port, path: url, headers: { Host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location && hops > 0) {
          resolve(viaProxy(new URL(res.headers.location, url).href, hops - 1));
        } else if (res.statusCode !== 200) {
          reject(new Error(`the demo web answered ${res.statusCode} for ${url}`));
        } else resolve(body);
      });
    });
    req.on('error', (err) => reject(new Error(`fetch ${url} through ${PROXY}: ${err.message}`)));
    req.end();
  });
}

const { browser, page, pageErrors } = await launch({ acceptDownloads: true });
// A second tab reads the demo pages' HTML as a browser lays it out, without their network.
const reader = await page.context().newPage();

try {
  await step('Sites: platforms hidden, the top site a demo site at #1 and 100, numbers from the editorial links', async () => {
    await page.goto(`${base}#/sites`);
    await page.waitForSelector('table.sites-table tr[data-site]');
    const graph = page.locator('#sites-graph');
    await graph.waitFor();
    assert((await graph.getAttribute('data-links')) === 'editorial', `the graph line names ${await graph.getAttribute('data-links')}`);
    const line = (await graph.innerText()).replace(/\s+/g, ' ');
    assert(line.includes('editorial links'), `the graph line reads "${line}"`);
    const rows = page.locator('table.sites-table tr[data-site]');
    const sites = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.site));
    const badges = await page.locator('table.sites-table .platform-badge').count();
    assert(badges === 0, `${badges} platform rows shown by default`);
    const platforms = await apiGet(page, '/api/sites?platforms=only&limit=500');
    assert(platforms.total > 0, 'the crawl met no platform site: the demo web links to twitter.com, facebook.com, youtube.com');
    const names = new Set(platforms.rows.map((r) => r.site));
    const shown = sites.filter((s) => names.has(s));
    assert(shown.length === 0, `platforms in the default rows: ${shown.join(', ')}`);
    const hidden = (await page.locator('label.platform-show').innerText()).replace(/\s+/g, ' ');
    assert(hidden.includes(`(${platforms.total} hidden)`), `the checkbox says "${hidden}", want "(${platforms.total} hidden)"`);
    const top = rows.first();
    const site = await top.getAttribute('data-site');
    assert(site.endsWith('.test'), `the top site is ${site}, not a demo site`);
    assert(/^#1=?$/.test((await top.locator('td.col-rank').innerText()).trim()), `the top site ${site} is not #1`);
    assert((await top.locator('td.col-opic').getAttribute('data-score')) === '100', `the top site ${site} does not score 100`);
    state.top = site;
    state.platforms = [...names];
    console.log(`      top site ${site}; ${platforms.total} platforms hidden (${[...names].join(', ')}); ${sites.length} rows`);
    await shot(page, 'walk-sites');
    // The bars of the importance column start at one place, whatever the score's digits (100, 67, 9).
    const lefts = await page.locator('table.sites-table td.col-opic .bar-cell').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().left));
    const spread = Math.max(...lefts) - Math.min(...lefts);
    assert(spread < 1, `the importance bars start ${spread.toFixed(1)} px apart`);
  });

  await step('Sites with "show platforms": each platform marked, with no place and no score', async () => {
    const names = need('platforms', 'the platform sites');
    await page.check('#site-show-platforms');
    await page.waitForFunction(() => location.hash.includes('platforms=show'));
    const all = await apiGet(page, '/api/sites?limit=500');
    assert(all.rows.filter((r) => r.platform).length === names.length, 'the platforms shown are not the platforms counted');
    // Ranked on editorial links, platforms sit low in the table, often past
    // its first page: the Platforms filter shows them alone.
    await shot(page, 'walk-sites-platforms', true);
    await page.click('#site-platforms-filter');
    await page.waitForFunction(() => location.hash.includes('platforms=only'));
    await page.waitForFunction((n) => document.querySelectorAll('table.sites-table tr[data-site]').length === n, names.length);
    for (const p of names) {
      const r = page.locator(`table.sites-table tr[data-site="${p}"]`);
      assert((await r.locator('.platform-badge').count()) === 1, `${p} is not marked as a platform`);
      assert((await r.locator('td.col-rank').innerText()).trim() === '–', `${p} has a place: ${await r.locator('td.col-rank').innerText()}`);
      assert((await r.locator('td.col-opic .v').innerText()).trim() === '–', `${p} has a score`);
    }
    await shot(page, 'walk-sites-platforms-only');
  });

  await step('site page: the top site at #1 and 100, its pages, the sites linking to it', async () => {
    const site = need('top', 'the top site');
    await page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
    const stat = page.locator('ss-site [data-standing="opic"]');
    await stat.waitFor();
    assert((await stat.locator('[data-score]').innerText()).trim() === '100', `${site} does not score 100 on its page`);
    assert((await stat.locator('[data-rank]').innerText()).trim() === '#1', `${site} is not #1 on its page`);
    await page.waitForSelector('.pages-table .page');
    const d = await apiGet(page, `/api/sites/${encodeURIComponent(site)}`);
    assert(d.in_links.length >= 2, `${site} has ${d.in_links.length} linking sites`);
    const linking = await page.locator('table[data-links="in"] td.col-site a').allInnerTexts();
    assert(linking.length === d.in_links.length, `the page lists ${linking.length} linking sites, the API ${d.in_links.length}`);
    // A site no one has nominated says so in words.
    const decided = (await page.locator('ss-site .site-selection .decided').innerText()).trim();
    assert(decided === 'Not nominated yet.', `the selection box of ${site} says "${decided}"`);
    await shot(page, 'walk-site');
  });

  await step(`Search "${WORD}": articles that have the word, each once, none for its cookie banner`, async () => {
    await page.goto(`${base}#/search`);
    await page.fill('#search-q', WORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.hits .hit');
    await shot(page, 'walk-search');
    const shown = await page.locator('.hits .hit').evaluateAll((h) => h.map((e) => e.dataset.url));
    const all = await apiGet(page, `/api/search?q=${encodeURIComponent(WORD)}&limit=500`);
    assert(all.total === all.hits.length, `${all.total} hits, ${all.hits.length} read: raise the limit`);
    assert(JSON.stringify(shown) === JSON.stringify(all.hits.slice(0, shown.length).map((h) => h.url)), 'the page shows other hits than the API');
    const project = await apiGet(page, '/api/project');
    // Every page carries the word in its banner: a search of the whole page text finds them all.
    assert(all.total < project.pages / 2, `${all.total} hits of ${project.pages} pages: the banner is searched`);
    const seen = new Map();
    for (const h of all.hits) {
      const u = new URL(h.url);
      const copy = [...u.searchParams.keys()].filter((k) => COPY_PARAM.test(k));
      assert(copy.length === 0, `${h.url} carries ${copy.join(', ')}`);
      const key = `${siteOf(h.url)} ${h.title}`;
      assert(!seen.has(key), `one article twice: ${seen.get(key)} and ${h.url}`);
      seen.set(key, h.url);
    }
    // Each hit's page, read again: the word is in what its authors wrote, not only in its template.
    const re = new RegExp(`\\b${WORD}`, 'i');
    const chromeOnly = [];
    for (const h of all.hits) {
      await reader.setContent(await viaProxy(h.url), { waitUntil: 'domcontentloaded' });
      const text = await reader.evaluate(() => {
        const a = document.querySelector('main article') || document.querySelector('main');
        if (!a) return '';
        a.querySelectorAll('nav, aside, .share-buttons').forEach((e) => e.remove());
        return a.textContent || '';
      });
      if (!re.test(text)) chromeOnly.push(h.url);
    }
    assert(chromeOnly.length === 0, `${chromeOnly.length} hits have "${WORD}" only in their template: ${chromeOnly.slice(0, 3).join(' ')}`);
    console.log(`      "${WORD}": ${all.total} pages of ${project.pages}, each once, each with the word in its article`);
  });

  await step('Communities: cores of at least 2 hub and 2 authority sites, labelled by key phrases', async () => {
    await page.goto(`${base}#/communities`);
    await page.waitForSelector('#communities-count');
    // The page names the button to press as the button reads.
    const button = (await page.locator('#communities-run').innerText()).trim();
    const empty = (await page.locator('#communities-empty').innerText()).replace(/\s+/g, ' ');
    assert(empty.includes(`press ${button}`), `the page says "${empty}", the button reads "${button}"`);
    await page.fill('#communities-count', '5');
    const got = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/collections' && r.request().method() === 'POST');
    await page.click('#communities-run');
    // No librarian chosen yet: the run asks who you are, for the collection it saves, and goes on.
    await page.waitForSelector('.modal #prompt-name');
    const asks = (await page.locator('.modal').innerText()).replace(/\s+/g, ' ');
    assert(/collections/.test(asks) && !/Who is rating/.test(asks), `saving a collection asks "${asks}"`);
    await page.fill('#prompt-name', LIBRARIAN);
    await page.click('#prompt-add');
    const res = await answered(got, 'POST /api/collections');
    assert((await res.request().postDataJSON()).created_by === LIBRARIAN, 'the collection is not saved under the librarian just added');
    const cores = (await res.json()).data.communities ?? [];
    assert(cores.length >= 2, `${cores.length} communities found, want at least 2 on the demo web`);
    await page.waitForSelector('ol.core-list li.core');
    assert((await page.locator('ol.core-list li.core').count()) === cores.length, 'the page lists other cores than the run gave');
    for (const c of cores) {
      const hubs = new Set((c.hubs ?? []).map(siteOf));
      const auths = new Set((c.authorities ?? []).map(siteOf));
      assert(hubs.size >= 2 && auths.size >= 2, `community ${c.core} "${c.topic}" has ${hubs.size} hub and ${auths.size} authority sites`);
      const phrases = (c.topic || '').split(' · ').filter(Boolean);
      assert(phrases.length > 0, `community ${c.core} has no topic label`);
      for (const p of phrases) {
        const words = p.split(' ');
        assert(words.length >= 2 && words.length <= 4, `community ${c.core} is labelled "${c.topic}": "${p}" is no phrase of 2 to 4 words`);
        const ends = [words[0], words[words.length - 1]].filter((w) => STOP.has(w.toLowerCase()));
        assert(ends.length === 0, `community ${c.core} is labelled "${c.topic}": "${p}" starts or ends on a function word`);
      }
      const li = page.locator(`ol.core-list li.core[data-core="${c.core}"]`);
      assert((await li.locator('details[data-kind="hubs"] li').count()) === c.hubs.length, `community ${c.core} lists other hubs than the run gave`);
      console.log(`      ${c.topic}: hubs ${[...hubs].join(', ')} → ${[...auths].join(', ')}`);
    }
    await page.waitForSelector('.graph-canvas[data-nodes]', { timeout: 30_000 });
    await shot(page, 'walk-communities', true);
  });

  await step('Review card: the next site to rate is a demo site, with its standing and excerpt', async () => {
    const names = need('platforms', 'the platform sites');
    await page.goto(`${base}#/review`);
    const card = page.locator('ss-review .review-card');
    await card.waitFor();
    await page.waitForFunction(() => document.querySelector('ss-review .review-card [data-standing="opic"] [data-rank]')?.textContent?.startsWith('#'));
    const site = await card.getAttribute('data-site');
    assert(!names.includes(site), `the review card proposes the platform ${site}`);
    assert(site === need('top', 'the top site'), `the first card is ${site}, not the top site`);
    // What platforms are is said once in the line that counts them.
    const note = await page.locator('ss-review [data-platforms-left-out]').innerText();
    assert((note.match(/social networks/g) ?? []).length === 1, `the platforms line repeats itself: "${note}"`);
    // The numbers beside the linking sites say what they are.
    await page.waitForSelector('ss-review .review-links[data-links="in"] li[data-site]');
    const caption = await page.locator('ss-review .review-links[data-links="in"] .links-caption').innerText().catch(() => '');
    assert(caption.trim() === 'importance', `the linking sites' numbers are not named: "${caption}"`);
    await shot(page, 'walk-review', true);
  });

  await step('Export: the top-K seed list holds demo sites that answered, no platform, and says what it left out', async () => {
    const names = need('platforms', 'the platform sites');
    await page.goto(`${base}#/export`);
    const preview = page.locator('#export-preview');
    await preview.waitFor();
    const lines = (await preview.innerText()).split('\n').map((l) => l.trim()).filter((l) => l.startsWith('http'));
    assert(lines.length > 0, 'the top-K preview is empty');
    const platformSeeds = lines.filter((l) => names.includes(siteOf(l)));
    assert(platformSeeds.length === 0, `platform seeds exported: ${platformSeeds.join(' ')}`);
    assert(lines.every((l) => siteOf(l).endsWith('.test')), `a seed that is no demo site: ${lines.find((l) => !siteOf(l).endsWith('.test'))}`);
    const left = await page.locator('[data-deliverable="top-k"] .left-out').innerText().catch(() => '');
    assert(/platform/.test(left), `the top-K card does not say it left the platforms out: "${left}"`);
    await shot(page, 'walk-export', true);
  });
} finally {
  await closeChecked(browser, pageErrors);
}
finish();
