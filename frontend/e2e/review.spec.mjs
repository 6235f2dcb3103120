// Browser end-to-end test of librarian review against a running
// `sitesift serve`: the review queue driven by the keyboard only, ratings
// files (one refused for a bad line, one naming new librarians, imported
// once they are confirmed), the agreement page and
// its heat map, the selection page and the search facet.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/review.spec.mjs
//
// It drives Debian's Chromium through playwright-core, as sites.spec.mjs
// does, and needs a crawled project with at least six sites (a crawl of the
// demo web will do). Every name it uses is its own (librarians with the
// process id in them) and every site name comes from the API, so earlier
// runs and other tests cannot make it pass or fail. Screenshots go to
// SCREENSHOT_DIR (default e2e/out/). It prints "N passed, M failed" and exits
// non-zero when anything failed.

import { TIMEOUT, addLibrarian, answered, assert, harness, storedLibrarian } from './harness.mjs';

const RUN = `${process.pid}-${Date.now().toString(36)}`;
// The librarian who rates in the browser, and the two whose ratings come from a file.
const LIB = `e2e-rev-${RUN}`;
const LIB_B = `e2e-b-${RUN}`;
const LIB_C = `e2e-c-${RUN}`;
// The librarian added through the top bar's chooser.
const LIB_D = `e2e-d-${RUN}`;
// The ratings each gives the first five sites of LIB's queue.
const RATINGS = [4, 3, 2, 3, 1];
const RATINGS_B = [3, 2, 2, 4, 1];
const RATINGS_C = [3, 2, 1, 4, 2];
const NOTE = `e2e note ${RUN}`;
// In the refused file, this line (header = line 1) carries a rating out of 1–4.
const BAD_LINE = 5;

const { base, state, step, need, launch, shot, finish } = harness('review.spec');

/** apiGet reads an API envelope's data straight from the server (not through the page). */
async function apiGet(path) {
  const res = await fetch(new URL(path.replace(/^\//, ''), base));
  const env = await res.json();
  if (env.status !== 'success') throw new Error(`GET ${path}: ${env.error}`);
  return env.data;
}

const sel = (s) => s.replace(/["\\]/g, '\\$&');

/** cardSite waits until the review card shows a site other than not, and returns it. */
async function cardSite(page, not = '') {
  await page.waitForFunction((n) => {
    const c = document.querySelector('ss-review .review-card');
    return c && c.dataset.site && c.dataset.site !== n;
  }, not);
  return page.locator('ss-review .review-card').getAttribute('data-site');
}

/** parseCSV reads simple CSV (quoted cells with "" escapes; no line breaks inside cells needed here). */
function parseCSV(text) {
  // A spreadsheet table starts with a UTF-8 byte-order mark, for Excel on Windows.
  text = text.replace(/^\uFEFF/, '');
  const rows = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line) continue;
    const cells = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cur);
        cur = '';
      } else cur += ch;
    }
    cells.push(cur);
    rows.push(cells);
  }
  return rows;
}

/** ratingsFile builds a ratings CSV for LIB_B and LIB_C over sites; bad puts a rating of 7 on line BAD_LINE. */
function ratingsFile(sites, bad) {
  const lines = ['librarian,site,rating,note'];
  sites.forEach((s, i) => {
    lines.push(`${LIB_B},${s},${RATINGS_B[i]},`);
    lines.push(`${LIB_C},${s},${RATINGS_C[i]},"from a file, with a comma"`);
  });
  if (bad) lines[BAD_LINE - 1] = lines[BAD_LINE - 1].replace(/,\d,/, ',7,');
  return `${lines.join('\n')}\n`;
}

async function importFile(page, name, text) {
  await page.setInputFiles('#ratings-file', { name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  const posted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/ratings/import' && r.request().method() === 'POST');
  await page.click('#ratings-import');
  return answered(posted, 'POST /api/ratings/import', false);
}

// A fresh context: no librarian remembered, so the page must ask for one.
const { browser, context, page, pageErrors } = await launch();

try {
  await step('the queue of a new librarian lists at least six sites (API)', async () => {
    // A librarian who rates nothing has the queue LIB starts with.
    const probe = `e2e-probe-${RUN}`;
    await addLibrarian(page, base, probe);
    const q = await apiGet(`/api/review/queue?librarian=${encodeURIComponent(probe)}&limit=20`);
    const sites = (q.rows ?? []).map((r) => r.site);
    assert(sites.length >= 6, `the queue has ${sites.length} sites, need 6`);
    state.queue = sites;
    state.total = q.total;
  });

  await step('the review page asks who is rating, and the name is typed with the keyboard', async () => {
    await page.goto(`${base}#/review`);
    await page.waitForSelector('.modal #prompt-name');
    await page.waitForFunction(() => document.activeElement?.id === 'prompt-name');
    await shot(page, 'review-prompt');
    const added = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/librarians' && r.request().method() === 'POST');
    await page.keyboard.type(LIB);
    await page.keyboard.press('Enter');
    const res = await answered(added, 'POST /api/librarians');
    assert((await res.json()).data.name === LIB, 'the profile created has another name');
    await page.waitForSelector('.modal', { state: 'detached' });
    const stored = await storedLibrarian(page);
    assert(stored === LIB, `localStorage holds "${stored}", want "${LIB}"`);
    assert((await page.inputValue('#librarian')) === LIB, 'the top bar chooser does not show the new librarian');
  });

  await step('the card shows the first site of the queue, with what a librarian needs', async () => {
    const queue = need('queue', 'the queue');
    const site = await cardSite(page);
    assert(site === queue[0], `the card shows ${site}, want the queue's first site ${queue[0]}`);
    await page.waitForSelector('ss-review .review-card[aria-busy="false"]');
    const card = page.locator('ss-review .review-card');
    const pages = await card.locator('.top-pages li').count();
    const detail = await apiGet(`/api/sites/${encodeURIComponent(site)}/review?librarian=${encodeURIComponent(LIB)}`);
    assert(pages === (detail.top_pages ?? []).length, `the card lists ${pages} top pages, the API ${(detail.top_pages ?? []).length}`);
    assert((await card.locator('[data-pages]').innerText()).replace(/,/g, '') === String(detail.pages_count), 'the page count differs from the API');
    const inLinks = await card.locator('[data-links="in"] li[data-site]').count();
    assert(inLinks === Math.min(8, (detail.in_links ?? []).length), `the card lists ${inLinks} linking sites, the API ${(detail.in_links ?? []).length}`);
    const series = (detail.opic_series ?? []).length;
    if (series) {
      const pts = Number(await card.locator('svg.sparkline').getAttribute('data-points'));
      assert(pts === series, `the sparkline has ${pts} points, the API ${series}`);
    }
    const rows = await page.locator('.queue-list li[data-site]').count();
    assert(rows >= 6, `the queue list shows ${rows} sites`);
    console.log(`      ${site}: ${pages} top pages, ${inLinks} linking sites shown, ${series} importance snapshots, ${rows} sites queued`);
    await shot(page, 'review');
  });

  await step('keys j and k move in the queue', async () => {
    const queue = need('queue', 'the queue');
    await page.keyboard.press('j');
    assert((await cardSite(page, queue[0])) === queue[1], 'j did not move to the second site');
    await page.keyboard.press('k');
    assert((await cardSite(page, queue[1])) === queue[0], 'k did not move back to the first site');
  });

  await step('a nominates (or approves) the current site, following the server', async () => {
    const queue = need('queue', 'the queue');
    const before = (await apiGet(`/api/sites/${encodeURIComponent(queue[0])}/review?librarian=${encodeURIComponent(LIB)}`)).selection.status;
    const next = { candidate: 'nominated', nominated: 'approved', rejected: 'candidate', approved: 'approved' }[before];
    if (before === 'approved') {
      await page.keyboard.press('a');
      await page.waitForSelector('.action-note');
    } else {
      const put = page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
      await page.keyboard.press('a');
      await answered(put, `PUT /api/sites/${queue[0]}/selection`);
    }
    await page.waitForSelector(`ss-review .review-selection[data-status="${next}"]`);
    const after = (await apiGet(`/api/sites/${encodeURIComponent(queue[0])}/review?librarian=${encodeURIComponent(LIB)}`)).selection.status;
    assert(after === next, `status ${before} → ${after}, want ${next}`);
    console.log(`      ${queue[0]}: ${before} → ${after}`);
  });

  await step('five sites rated with keys 1–4 (one with a note): the queue advances after each', async () => {
    const queue = need('queue', 'the queue');
    for (let i = 0; i < 5; i++) {
      const site = queue[i];
      const shown = await cardSite(page, i ? queue[i - 1] : '');
      assert(shown === site, `before rating #${i + 1} the card shows ${shown}, want ${site}`);
      if (i === 1) {
        // n focuses the note; Enter keeps it for the rating; the next key rates with it.
        await page.keyboard.press('n');
        await page.waitForFunction(() => document.activeElement?.id === 'review-note');
        await page.keyboard.type(NOTE);
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id !== 'review-note');
      }
      const put = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/api/sites/${encodeURIComponent(site)}/rating` && r.request().method() === 'PUT',
      );
      await page.keyboard.press(String(RATINGS[i]));
      const res = await answered(put, `PUT /api/sites/${site}/rating`);
      const body = res.request().postDataJSON();
      assert(body.rating === RATINGS[i] && body.librarian === LIB, `the PUT sent ${JSON.stringify(body)}`);
      if (i === 1) assert(body.note === NOTE, `the note sent is "${body.note}", want "${NOTE}"`);
      const next = await cardSite(page, site);
      assert(next === queue[i + 1], `after rating ${site} the card shows ${next}, want ${queue[i + 1]}`);
      await page.waitForSelector(`.queue-list li[data-site="${sel(site)}"][data-rated="${RATINGS[i]}"]`);
    }
    await page.waitForSelector(`.review-flash[data-flash="${sel(queue[4])}"]`);
    await shot(page, 'review-rated');
  });

  await step('the ratings are stored: after a reload the five sites have left the queue', async () => {
    const queue = need('queue', 'the queue');
    const total = need('total', 'the queue size');
    await page.reload();
    const first = await cardSite(page);
    assert(first === queue[5], `after the reload the card shows ${first}, want ${queue[5]}`);
    const listed = await page.locator('.queue-list li[data-site]').evaluateAll((li) => li.map((e) => e.dataset.site));
    for (const s of queue.slice(0, 5)) assert(!listed.includes(s), `${s} is still in the queue after the reload`);
    const left = Number(await page.locator('[data-remaining]').getAttribute('data-remaining'));
    assert(left === total - 5, `${left} sites left to rate, want ${total - 5}`);
    for (let i = 0; i < 5; i++) {
      const d = await apiGet(`/api/sites/${encodeURIComponent(queue[i])}?librarian=${encodeURIComponent(LIB)}`);
      assert(d.rating === RATINGS[i], `${queue[i]}: the server holds rating ${d.rating}, want ${RATINGS[i]}`);
    }
    const mine = (await apiGet(`/api/sites/${encodeURIComponent(queue[1])}/review?librarian=${encodeURIComponent(LIB)}`)).rating;
    assert(mine?.note === NOTE, `the note on ${queue[1]} is "${mine?.note}", want "${NOTE}"`);
  });

  await step('#/review?site= shows a rated site with its rating and the other librarians section', async () => {
    const queue = need('queue', 'the queue');
    await page.goto(`${base}#/review?site=${encodeURIComponent(queue[0])}`);
    try {
      await page.waitForSelector(`ss-review .review-card[data-site="${sel(queue[0])}"]`);
    } catch {
      throw new Error(`#/review?site= shows ${await page.locator('ss-review .review-card').getAttribute('data-site')}, not ${queue[0]}`);
    }
    await page.waitForSelector('ss-review .review-card .segmented[data-rating="4"]');
    await page.waitForSelector('ss-review .review-others');
  });

  await step('a ratings file with one bad line is refused, and the line number is shown', async () => {
    const queue = need('queue', 'the queue');
    await page.goto(`${base}#/agreement`);
    await page.waitForSelector('#ratings-file');
    const res = await importFile(page, 'bad-ratings.csv', ratingsFile(queue.slice(0, 5), true));
    assert(res.status() === 400, `the bad file was answered HTTP ${res.status()}, want 400`);
    await page.waitForSelector('.import-refused');
    const lines = await page.locator('.import-refused tr[data-line]').evaluateAll((tr) => tr.map((e) => e.dataset.line));
    assert(JSON.stringify(lines) === JSON.stringify([String(BAD_LINE)]), `the refusal lists lines ${JSON.stringify(lines)}, want [${BAD_LINE}]`);
    const text = await page.locator('.import-refused').innerText();
    assert(text.includes(`line ${BAD_LINE}`) && text.includes('7'), `the refusal does not name line ${BAD_LINE} and its rating: ${text}`);
    const libs = (await apiGet('/api/librarians')).map((l) => l.name);
    assert(!libs.includes(LIB_B) && !libs.includes(LIB_C), 'the refused file imported librarians all the same');
    console.log(`      refused: ${text.replace(/\s+/g, ' ').slice(0, 140)}`);
    await shot(page, 'agreement-refused', true);
  });

  await step('the corrected file names two librarians the project does not have: the page lists them and imports after a click', async () => {
    const queue = need('queue', 'the queue');
    const res = await importFile(page, 'ratings.csv', ratingsFile(queue.slice(0, 5), false));
    assert(res.status() === 409, `the file naming new librarians was answered HTTP ${res.status()}, want 409`);
    await page.waitForSelector('.import-ask');
    const names = await page.locator('.import-ask li[data-name]').evaluateAll((li) => li.map((e) => e.dataset.name));
    assert(JSON.stringify(names) === JSON.stringify([LIB_B, LIB_C].sort()), `the page lists ${JSON.stringify(names)}, want ${LIB_B} and ${LIB_C}`);
    const before = (await apiGet('/api/librarians')).map((l) => l.name);
    assert(!before.includes(LIB_B) && !before.includes(LIB_C), 'the librarians were added before the click');
    await shot(page, 'agreement-new-librarians', true);
    const posted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/ratings/import' && r.request().method() === 'POST');
    // The button has the focus: Return adds them, as the desktop test does.
    await page.keyboard.press('Enter');
    const added = await posted;
    assert(added.ok() && new URL(added.url()).searchParams.get('new_librarians') === '1', `the confirmed import was answered HTTP ${added.status()}`);
    await page.waitForSelector('.import-ok');
    assert((await page.locator('.import-ok').innerText()).includes(LIB_B), 'the result does not name the new librarians');
  });

  await step('the corrected file is imported: ten ratings by two other librarians', async () => {
    const queue = need('queue', 'the queue');
    await page.waitForSelector('.import-ok');
    const ok = page.locator('.import-ok');
    assert((await ok.getAttribute('data-rows')) === '10' && (await ok.getAttribute('data-added')) === '10', `the result reads: ${await ok.innerText()}`);
    assert((await page.locator('.import-refused').count()) === 0, 'the refusal is still shown');
    const again = await importFile(page, 'ratings.csv', ratingsFile(queue.slice(0, 5), false));
    assert(again.ok(), 'importing the same file again failed');
    await page.waitForSelector('.import-ok[data-added="0"]');
    assert((await page.locator('.import-ok').innerText()).includes('10 unchanged'), 'a second import of the same file changed something');
  });

  await step('the agreement table lists the three librarians and the measures, with the right score', async () => {
    await page.goto(`${base}#/agreement?rater=${encodeURIComponent(LIB)}`);
    await page.waitForSelector(`.agreement-table tr[data-rater="${sel(LIB)}"]`);
    const raters = await page.locator('.agreement-table tr[data-rater]').evaluateAll((tr) => tr.map((e) => e.dataset.rater));
    for (const r of [LIB, LIB_B, LIB_C, 'opic', 'pagerank', 'hits_authority', 'in_sites']) {
      assert(raters.includes(r), `the table lacks the rater ${r}: ${JSON.stringify(raters)}`);
    }
    // The paper's score of LIB, computed here from every rating the server holds.
    const rows = parseCSV(await (await fetch(new URL('api/ratings/export', base))).text());
    const head = rows.shift();
    const [li, si, ri] = ['librarian', 'site', 'rating'].map((c) => head.indexOf(c));
    const bySite = new Map();
    for (const r of rows) {
      if (r[ri] === '') continue; // a note kept without a rating is no rating
      if (!bySite.has(r[si])) bySite.set(r[si], []);
      bySite.get(r[si]).push({ who: r[li], v: Number(r[ri]) });
    }
    let n = 0;
    let hit = 0;
    for (const rs of bySite.values()) {
      const mine = rs.find((x) => x.who === LIB);
      if (!mine || rs.length < 2) continue;
      const ref = Math.floor(rs.reduce((a, x) => a + x.v, 0) / rs.length + 0.5); // half up
      n++;
      if (mine.v === ref) hit++;
    }
    const row = page.locator(`.agreement-table tr[data-rater="${sel(LIB)}"]`);
    const sites = Number(await row.locator('td.num').first().innerText());
    const score = (await row.locator('[data-col="score"]').innerText()).trim();
    assert(sites === n, `the table says ${LIB} rated ${sites} sites with a reference, the ratings file ${n}`);
    assert(score === `${((100 * hit) / n).toFixed(1)}%`, `the score of ${LIB} reads ${score}, want ${((100 * hit) / n).toFixed(1)}%`);
    for (const col of ['loo', 'kappa', 'spearman']) {
      const v = (await row.locator(`[data-col="${col}"]`).innerText()).trim();
      assert(v && v !== '–', `the ${col} cell of ${LIB} is empty`);
    }
    const th = await page.locator('.agreement-table tr[data-rater="opic"] [data-col="thresholds"] .th').count();
    assert(th === 3, `OPIC shows ${th} thresholds, want 3`);
    const excluded = await page.locator('.agreement-summary').getAttribute('data-excluded');
    assert(excluded !== null && (await page.locator('.agreement-summary').innerText()).includes('excluded'), 'the summary does not say how many sites were excluded');
    state.libSites = n;
    console.log(`      ${LIB}: ${sites} sites, score ${score} (${hit}/${n}); ${raters.length} raters; ${excluded} sites excluded`);
  });

  await step('the heat map shows the chosen rater\'s 4×4 confusion matrix', async () => {
    const n = need('libSites', 'the number of sites rated');
    await page.waitForSelector(`.heatmap[data-rater="${sel(LIB)}"]`);
    const cells = await page.locator('.heatmap .hm-cell').evaluateAll((c) =>
      c.map((e) => ({ n: Number(e.dataset.count), text: e.textContent.trim(), bg: getComputedStyle(e).backgroundColor })),
    );
    assert(cells.length === 16, `the heat map has ${cells.length} cells, want 16`);
    assert(cells.reduce((a, c) => a + c.n, 0) === n, `the cells count ${cells.reduce((a, c) => a + c.n, 0)} sites, want ${n}`);
    assert(cells.every((c) => c.text === String(c.n)), 'a cell does not show its count');
    const filled = cells.filter((c) => c.n > 0).map((c) => c.bg);
    const empty = cells.filter((c) => c.n === 0).map((c) => c.bg);
    assert(filled.length && empty.every((b) => !filled.includes(b)), 'cells with sites are not coloured differently from empty ones');
    // Another rater through the selector.
    const got = page.waitForResponse((r) => r.url().includes('/api/agreement') && r.url().includes('rater=opic'));
    await page.selectOption('#agreement-rater', 'opic');
    await answered(got, 'GET /api/agreement?rater=opic');
    await page.waitForSelector('.heatmap[data-rater="opic"]');
    await page.selectOption('#agreement-rater', LIB);
    await page.waitForSelector(`.heatmap[data-rater="${sel(LIB)}"]`);
    await shot(page, 'agreement', true);
  });

  await step('the biased ranking toggle adds its rows', async () => {
    await page.check('#agreement-biased');
    await page.waitForSelector('.agreement-table tr[data-rater="pagerank_biased_cv"]');
    assert((await page.locator('.agreement-table tr[data-rater="pagerank_biased"]').count()) === 1, 'no in-sample biased row');
    await page.waitForSelector('.bias-note');
    await shot(page, 'agreement-biased', true);
    await page.uncheck('#agreement-biased');
    await page.waitForSelector('.agreement-table tr[data-rater="pagerank_biased"]', { state: 'detached' });
  });

  await step('the selection page lists the decided site and sends its exports to the Export page', async () => {
    const queue = need('queue', 'the queue');
    const st = (await apiGet(`/api/sites/${encodeURIComponent(queue[0])}/review?librarian=${encodeURIComponent(LIB)}`)).selection.status;
    await page.goto(`${base}#/selection?status=${st}`);
    await page.waitForSelector(`.selection-table tr[data-site="${sel(queue[0])}"]`);
    assert((await page.locator('#selection-export-link').getAttribute('href')) === '#/export', 'the selection page does not link the Export page');
    const csv = await (await fetch(new URL('api/export/approved?format=csv', base))).text();
    assert(csv.startsWith('site,seed_url,status,nominated_by,nominated_at,approved_by,approved_at'), `the approved CSV starts "${csv.split('\n')[0]}"`);
    await shot(page, 'selection');
  });

  await step('search shows the facet by site, and a click filters to it', async () => {
    const queue = need('queue', 'the queue');
    const detail = await apiGet(`/api/sites/${encodeURIComponent(queue[0])}/review?librarian=${encodeURIComponent(LIB)}`);
    const word = ((detail.top_pages ?? [])[0]?.title.toLowerCase().match(/[\p{L}]{4,}/gu) ?? [])[0];
    assert(word, `no word in the titles of ${queue[0]}`);
    await page.goto(`${base}#/search?q=${encodeURIComponent(word)}`);
    await page.waitForSelector('.facets button[data-facet-site]');
    const facets = await page.locator('.facets button[data-facet-site]').evaluateAll((b) => b.map((e) => e.dataset.facetSite));
    const target = facets.includes(queue[0]) ? queue[0] : facets[0];
    await page.click(`.facets button[data-facet-site="${sel(target)}"]`);
    await page.waitForFunction((t) => location.hash.includes(`site=${encodeURIComponent(t)}`), target);
    await page.waitForFunction(
      (t) => {
        const hits = [...document.querySelectorAll('.hits .hit .chip')];
        return hits.length > 0 && hits.every((h) => h.textContent.trim() === t);
      },
      target,
    );
    // The same through site: in the query.
    await page.goto(`${base}#/search?q=${encodeURIComponent(`site:${target} ${word}`)}`);
    await page.waitForFunction(
      (t) => {
        const hits = [...document.querySelectorAll('.hits .hit .chip')];
        return hits.length > 0 && hits.every((h) => h.textContent.trim() === t);
      },
      target,
    );
    console.log(`      "${word}": ${facets.length} sites in the facet; filtered to ${target}`);
    await shot(page, 'search-facets');
  });

  await step('the top bar chooser picks another librarian, and the queue follows', async () => {
    const queue = need('queue', 'the queue');
    await page.goto(`${base}#/review`);
    await cardSite(page);
    await page.click('#librarian');
    await page.waitForSelector(`#librarian-menu li[data-librarian="${sel(LIB)}"].current`);
    await page.fill('#librarian', LIB_B.slice(0, -2)); // part of the name: the list narrows to it
    await page.waitForSelector(`#librarian-menu li[data-librarian="${sel(LIB_B)}"]`);
    const shown = await page.locator('#librarian-menu li[data-librarian]').evaluateAll((li) => li.map((e) => e.dataset.librarian));
    assert(shown.every((n) => n.includes(LIB_B.slice(0, -2))), `the list shows names that do not match: ${JSON.stringify(shown)}`);
    const i = shown.indexOf(LIB_B);
    for (let k = 0; k <= i; k++) await page.keyboard.press('ArrowDown');
    const reload = page.waitForResponse((r) => r.url().includes('/api/review/queue') && r.url().includes(`librarian=${encodeURIComponent(LIB_B)}`));
    await page.keyboard.press('Enter');
    await answered(reload, `GET /api/review/queue?librarian=${LIB_B}`);
    assert((await page.inputValue('#librarian')) === LIB_B, `the chooser shows "${await page.inputValue('#librarian')}"`);
    await page.waitForFunction((n) => localStorage.getItem(`sitesift.librarian.${localStorage.getItem('sitesift.project')}`) === n, LIB_B);
    // LIB_B rated the first five sites through the file: its queue starts after them.
    await page.waitForSelector(`ss-review .review-card[data-site="${sel(queue[5])}"]`);
    const listed = await page.locator('.queue-list li[data-site]').evaluateAll((li) => li.map((e) => e.dataset.site));
    for (const s of queue.slice(0, 5)) assert(!listed.includes(s), `${s} is in ${LIB_B}'s queue, who rated it`);
  });

  await step('the chooser adds a name that is part of a librarian\'s only through Add, and a new one on Enter', async () => {
    // Part of LIB_B's name: the menu offers LIB_B and Add; Enter asks rather than adding a near-duplicate.
    const part = LIB_B.slice(0, -2);
    await page.click('#librarian');
    await page.fill('#librarian', part);
    await page.waitForSelector(`#librarian-menu li[data-add="${sel(part)}"]`);
    await page.waitForSelector(`#librarian-menu li[data-librarian="${sel(LIB_B)}"]`);
    await shot(page, 'librarian-chooser');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.combo-error');
    assert((await page.innerText('.combo-error')).includes(`No librarian "${part}"`), `the chooser says "${await page.innerText('.combo-error')}"`);
    assert(!(await apiGet('/api/librarians')).some((l) => l.name === part), `${part} was added by typing its name`);
    await page.keyboard.press('Escape');
    // A name like no other: Add is the only option, and Enter adds it.
    await page.fill('#librarian', LIB_D);
    await page.waitForSelector(`#librarian-menu li[data-add="${sel(LIB_D)}"]`);
    assert((await page.locator('#librarian-menu li').count()) === 1, 'the menu offers more than Add');
    const added = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/librarians' && r.request().method() === 'POST');
    await page.keyboard.press('Enter');
    const res = await answered(added, 'POST /api/librarians');
    assert(res.status() === 201, `adding ${LIB_D} answered HTTP ${res.status()}, want 201 (created)`);
    const libs = (await apiGet('/api/librarians')).map((l) => l.name);
    assert(libs.includes(LIB_D), `${LIB_D} is not among the librarians`);
    await page.click('#librarian');
    await page.waitForSelector(`#librarian-menu li[data-librarian="${sel(LIB_D)}"].current`);
    await page.keyboard.press('Escape');
  });

  await step('no uncaught errors in the page', async () => {
    assert(pageErrors.length === 0, `${pageErrors.length} page error(s): ${pageErrors.join(' | ')}`);
  });
} finally {
  await browser.close();
}

finish();
