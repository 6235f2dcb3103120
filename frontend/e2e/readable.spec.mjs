// Browser end-to-end test of the numbers a librarian reads and of search as
// people expect it, against a running `sitesift serve` of a crawled project:
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/readable.spec.mjs
//
// The Sites page shows each site's rank and 0–100 importance (the top site
// 100, as the API says) with the raw shares behind a toggle kept across a
// reload; the explainer sentence and the rating legend are there; a search of
// two words finds the pages with both and the "any word" toggle widens it; a
// query with an exclusion that finds nothing is advised to drop the exclusion,
// not to try "any word"; a query of stop words and a malformed one get plain messages; the review
// card and the site page show the legend and the scores; the card of a site
// whose every fetch failed says its crawl status and failures by class; the
// Crawl page says
// why the crawl ended, and, with IMPORTED_URL (a `sitesift serve` of a
// project made by `sitesift import` of a 4-site, 4-link file with one
// self-edge), shows the import's counts and file instead of "No sites yet". Every word and site it uses comes from the API, so the
// demo web's content may change. Screenshots go to SCREENSHOT_DIR (default
// e2e/out/). It prints "N passed, M failed" and exits non-zero when anything
// failed.

import { TIMEOUT, addLibrarian, assert, chooseLibrarian, harness } from './harness.mjs';

const LIB = `e2e-read-${process.pid}-${Date.now().toString(36)}`;
// Words to try for the two-word search: the first pair found on some pages
// together and on more pages apart is used.
const CANDIDATES = ['museum', 'music', 'library', 'archive', 'printing', 'history', 'science', 'sports', 'recipe',
  'cheese', 'portal', 'news', 'heritage', 'open', 'city', 'national', 'forum', 'photo', 'results', 'directory'];

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('readable.spec');

/** apiGet reads an API envelope's data straight from the server (not through the page). */
async function apiGet(path) {
  const res = await fetch(new URL(path.replace(/^\//, ''), base));
  const env = await res.json();
  if (env.status !== 'success') throw new Error(`GET ${path}: ${env.error}`);
  return env.data;
}

/** searchTotal is the number of pages the API finds for q (any: every word optional). */
async function searchTotal(q, any = false) {
  return (await apiGet(`/api/search?q=${encodeURIComponent(q)}&limit=1${any ? '&any=1' : ''}`)).total;
}

/** resultTotal waits for the Search page's "a–b of N pages" line (or its "no match") and returns N. */
async function resultTotal(page) {
  await page.waitForFunction(() => document.querySelector('ss-search .range') || document.querySelector('#search-empty'));
  const range = page.locator('ss-search .range');
  if ((await range.count()) === 0) return 0;
  const m = /of ([\d,]+) pages/.exec(await range.innerText());
  assert(m, `no total in "${await range.innerText()}"`);
  return Number(m[1].replace(/,/g, ''));
}

const { browser, page, pageErrors } = await launch();
page.setDefaultTimeout(TIMEOUT);

await step('Sites shows the rank and the 0–100 importance of the API, the top site #1 at 100', async () => {
  const api = await apiGet('/api/sites?sort=opic&order=desc&limit=50');
  assert(api.rows.length >= 3, `only ${api.rows.length} sites`);
  assert(api.rows[0].opic_rank === 1 && api.rows[0].opic_score === 100, `API top row ${JSON.stringify(api.rows[0])}`);
  await page.goto(`${base}#/sites`);
  await page.waitForSelector('ss-sites tr[data-site]');
  const first = page.locator('ss-sites tbody tr[data-site]').first();
  assert((await first.getAttribute('data-site')) === api.rows[0].site, 'the first row is not the top site');
  const tie = (r) => (r.opic_ties ? '=' : ''); // a rank shared with other sites reads #2=
  assert((await first.locator('td.col-rank').innerText()).trim() === `#1${tie(api.rows[0])}`, 'the top site is not shown as #1');
  assert((await first.locator('td.col-opic .v').innerText()).trim() === '100', 'the top site does not show 100');
  for (const r of api.rows.slice(0, 10)) {
    const row = page.locator(`ss-sites tr[data-site="${r.site}"]`);
    const shown = Number((await row.locator('td.col-opic .v').innerText()).trim());
    assert(shown === r.opic_score && shown >= 0 && shown <= 100, `${r.site} shows ${shown}, the API says ${r.opic_score}`);
    assert((await row.locator('td.col-rank').innerText()).trim() === `#${r.opic_rank}${tie(r)}`, `${r.site}: rank shown differs from ${r.opic_rank}`);
  }
  const sentence = await page.locator('ss-sites ss-explainer .explainer-text').innerText();
  assert(/top site = 100/.test(sentence) && /rank 1 is the most linked/.test(sentence), `explainer "${sentence}"`);
  assert((await page.locator('ss-sites ss-rating-legend .legend-item').count()) === 4, 'no rating legend on Sites');
  assert((await page.locator('ss-sites .raw-share').count()) === 0, 'raw shares shown before asked for');
  state.top = api.rows[0];
  await shot(page, 'readable-sites');
});

await step('the Sites page says what the ranking rests on, as GET /api/rank/basis does', async () => {
  const basis = await apiGet('/api/rank/basis');
  assert(basis.sites > 0 && basis.fixpoint.rounds > 1 && basis.fixpoint.residual < 1e-12, `basis ${JSON.stringify(basis)}`);
  const note = page.locator('ss-sites ss-rank-basis [data-rank-basis]');
  await note.waitFor();
  const text = (await note.innerText()).replace(/\s+/g, ' ');
  assert((await note.getAttribute('data-rank-basis')) === (basis.thin ? 'thin' : 'ok'), `note "${text}" for thin=${basis.thin}`);
  assert(text.includes(basis.summary), `the note "${text}" lacks the summary "${basis.summary}"`);
  if (basis.thin) {
    assert(text.includes('too small to separate the sites'), `thin note "${text}"`);
    assert((await note.locator('li').count()) === basis.advice.length, 'the advice is not all listed');
  } else {
    assert(text.includes(`${basis.fixpoint.rounds} rounds`), `the note "${text}" does not say how OPIC reached its fixpoint`);
  }
});

await step('the raw shares show on demand and stay shown after a reload', async () => {
  const top = need('top', 'the top site');
  await page.locator('ss-sites ss-explainer input.raw-shares').check();
  const raw = page.locator(`ss-sites tr[data-site="${top.site}"] td.col-opic .raw-share`);
  await raw.waitFor();
  const v = Number(await raw.getAttribute('data-share'));
  assert(Math.abs(v - top.opic) < 1e-12 && v > 0 && v < 1, `raw share ${v}, the API says ${top.opic}`);
  await shot(page, 'readable-sites-raw');
  await page.reload();
  await page.locator(`ss-sites tr[data-site="${top.site}"] td.col-opic .raw-share`).waitFor();
  assert(await page.locator('ss-sites ss-explainer input.raw-shares').isChecked(), 'the toggle is off after a reload');
  await page.locator('ss-sites ss-explainer input.raw-shares').uncheck();
  await page.waitForFunction(() => document.querySelectorAll('ss-sites .raw-share').length === 0);
});

await step('two words: the pages with both (as the API finds), and "any word" widens it', async () => {
  let pair = null;
  const totals = {};
  for (const w of CANDIDATES) totals[w] = await searchTotal(w);
  const found = CANDIDATES.filter((w) => totals[w] > 0);
  for (let i = 0; i < found.length && !pair; i++) {
    for (let j = i + 1; j < found.length && !pair; j++) {
      const q = `${found[i]} ${found[j]}`;
      const all = await searchTotal(q);
      const any = await searchTotal(q, true);
      if (all > 0 && any > all) pair = { q, all, any };
    }
  }
  assert(pair, `no two words of ${found.join(', ')} are found together and apart`);
  const [a, b] = pair.q.split(' ');
  assert(pair.all <= Math.min(totals[a], totals[b]), `"${pair.q}" finds ${pair.all}, more than one word alone`);
  await page.goto(`${base}#/search`);
  await page.locator('#search-q').fill(pair.q);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash.includes('q='));
  assert((await resultTotal(page)) === pair.all, `the page shows another total than the API's ${pair.all} for all words`);
  assert(await page.locator('#search-all').isChecked(), '"All words" is not the default');
  await shot(page, 'readable-search-all');
  await page.locator('label:has(#search-any)').click();
  await page.waitForFunction(() => location.hash.includes('any=1'));
  await page.waitForFunction((n) => {
    const m = /of ([\d,]+) pages/.exec(document.querySelector('ss-search .range')?.textContent ?? '');
    return m && Number(m[1].replace(/,/g, '')) === n;
  }, pair.any);
  await page.reload();
  assert((await resultTotal(page)) === pair.any && (await page.locator('#search-any').isChecked()), 'the "any word" choice is lost on reload');
  await shot(page, 'readable-search-any');
});

await step('a query with an exclusion that finds nothing gets advice that fits it, not "any word"', async () => {
  const q = 'qqzzxxnothing -zodiaco';
  assert((await searchTotal(q)) === 0, `the API finds pages for "${q}"`);
  await page.goto(`${base}#/search?q=${encodeURIComponent(q)}`);
  await page.locator('#search-empty').waitFor();
  const tip = page.locator('#search-advice li[data-advice="exclusion"]');
  await tip.waitFor();
  const text = await tip.innerText();
  assert(text.includes('“zodiaco” are left out') && text.includes('try qqzzxxnothing'), `the advice says "${text}"`);
  const link = await tip.locator('a').getAttribute('href');
  assert(link === `#/search?q=qqzzxxnothing`, `the advice links to ${link}`);
  assert((await page.locator('#search-advice li[data-advice="any"]').count()) === 0, 'it offers "any word" for one word and an exclusion');
  await shot(page, 'readable-search-advice');
});

await step('a query of stop words says they are too common, not "no match"', async () => {
  await page.goto(`${base}#/search?q=${encodeURIComponent('the of')}`);
  const box = page.locator('#search-problem[data-problem="stop_words"]');
  await box.waitFor();
  const text = await box.innerText();
  assert(text.includes("'the of' only has words too common to search for."), `message "${text}"`);
  assert((await page.locator('#search-empty').count()) === 0, 'a "no match" line is shown as well');
  await shot(page, 'readable-search-stopwords');
});

await step('malformed queries say what is wrong and where, never the parser\'s words', async () => {
  for (const [q, want] of [
    ['jazz "open records', 'Unbalanced quote: the " at character 6 has no closing quote.'],
    ['jazz - records', 'A lone "-" at character 6'],
    ['colour:red', 'Unknown field "colour" at character 1'],
  ]) {
    await page.goto(`${base}#/search?q=${encodeURIComponent(q)}`);
    const box = page.locator('#search-problem[data-problem="syntax"]');
    await box.waitFor();
    const text = await box.innerText();
    assert(text.includes(want), `"${q}": message "${text}", want "${want}"`);
    assert(!/tSTRING|tPHRASE|tCOLON|tEOF|syntax error|unexpected/i.test(text), `"${q}": the parser's words in "${text}"`);
  }
  await shot(page, 'readable-search-syntax');
});

await step('the query help lists every operator with an example', async () => {
  await page.goto(`${base}#/search`);
  const help = page.locator('#search-help');
  await help.waitFor();
  const text = await help.innerText();
  for (const op of ['"phrase"', '+word', '-word', 'field:value', 'wildcard', 'fuzzy', 'boost', '/regexp/', 'title:jazz', 'site:']) {
    assert(text.includes(op), `the help does not mention ${op}`);
  }
});

await step('the review card shows the rating legend, the explainer and the scores', async () => {
  // A librarian of the project, kept for it as the top bar's chooser keeps one.
  await chooseLibrarian(page, await addLibrarian(page, base, LIB), LIB);
  await page.goto(`${base}#/review`);
  await page.reload();
  await page.waitForSelector('ss-review .review-card');
  const legend = page.locator('ss-review .review-card ss-rating-legend .legend-item');
  await legend.first().waitFor();
  const items = await legend.allInnerTexts();
  assert(items.length === 4 && /1\s*least worth archiving/.test(items[0]) && /4\s*most worth archiving/.test(items[3]), `legend ${JSON.stringify(items)}`);
  const site = await page.locator('ss-review .review-card').getAttribute('data-site');
  const d = await apiGet(`/api/sites/${encodeURIComponent(site)}`);
  await page.waitForFunction(() => document.querySelector('ss-review .review-card [data-standing="opic"] [data-rank]')?.textContent?.startsWith('#'));
  const sc = (await page.locator('ss-review .review-card [data-standing="opic"] [data-score]').innerText()).trim();
  assert(sc === String(d.opic_score), `card shows ${sc}, the API ${d.opic_score}`);
  assert((await page.locator('ss-review ss-explainer .explainer-text').count()) === 1, 'no explainer on the review page');
  await shot(page, 'readable-review');
});

await step('the review card of a site with failed fetches only says how its crawl went and its failures by class', async () => {
  const all = await apiGet('/api/sites?limit=500');
  const failed = (all.rows ?? all).find((r) => r.pages === 0 && r.errors > 0);
  assert(failed, 'the project has no site whose every fetch failed (the demo web has dead platforms)');
  const d = await apiGet(`/api/sites/${encodeURIComponent(failed.site)}`);
  await page.goto(`${base}#/review?site=${encodeURIComponent(failed.site)}`);
  const box = page.locator(`ss-review .review-card[data-site="${failed.site}"] .review-failed`);
  await box.waitFor();
  assert((await box.getAttribute('data-crawl-status')) === d.crawl_status, `the card's status is not ${d.crawl_status}`);
  const text = await box.innerText();
  const n = failed.errors === 1 ? '1 fetch failed' : `${failed.errors} fetches failed`;
  assert(text.includes(n) && !text.includes('No page of this site was crawled'), `the card says "${text}", want "${n}"`);
  for (const [cls, count] of Object.entries(d.report.errors_by_class)) {
    const got = (await box.locator(`[data-error-class="${cls}"]`).innerText()).replace(/\s+/g, ' ').trim();
    assert(got === `${cls} ${count}`, `class ${cls}: "${got}", want ${count}`);
  }
  await shot(page, 'readable-review-failed');
});

await step('the site page shows the top site at 100, #1, and the legend', async () => {
  const top = need('top', 'the top site');
  await page.goto(`${base}#/sites/${encodeURIComponent(top.site)}`);
  const stat = page.locator('ss-site [data-standing="opic"]');
  await stat.waitFor();
  assert((await stat.locator('[data-score]').innerText()).trim() === '100', 'the top site does not score 100');
  assert((await stat.locator('[data-rank]').innerText()).trim() === '#1', 'the top site is not #1');
  assert((await page.locator('ss-site ss-rating-legend .legend-item').count()) === 4, 'no legend on the site page');
  await shot(page, 'readable-site');
});

await step('the Crawl page says why the crawl ended', async () => {
  await page.goto(`${base}#/crawl`);
  const line = page.locator('#crawl-end-reason');
  await line.waitFor();
  const reason = await line.getAttribute('data-end-reason');
  const text = await line.innerText();
  assert(reason && /^Ended: /.test(text) && text.length > 'Ended: '.length + 5, `end reason ${reason}: "${text}"`);
  await shot(page, 'readable-crawl');
});

if (process.env.IMPORTED_URL) {
  const imported = process.env.IMPORTED_URL.endsWith('/') ? process.env.IMPORTED_URL : `${process.env.IMPORTED_URL}/`;
  await step('the Crawl page of an imported project shows its counts, its file and when, not "No sites yet"', async () => {
    const info = await (await fetch(new URL('api/project', imported))).json();
    const imp = info.data.imports?.[0];
    assert(imp && info.data.sites === 4 && imp.edges === 4 && imp.self_edges === 1, `project ${JSON.stringify(info.data)}`);
    await page.goto(`${imported}#/crawl`);
    const box = page.locator('#crawl-imported');
    await box.waitFor();
    const text = await box.innerText();
    const file = imp.file.split('/').pop();
    assert(text.includes(file) && /imported/.test(text), `the import box "${text}" does not name ${file}`);
    assert((await box.locator('[data-imported-sites]').innerText()).trim() === '4', 'sites shown');
    assert((await box.locator('[data-imported-links]').innerText()).trim() === '4', 'links shown');
    assert((await box.locator('[data-imported-pages]').innerText()).trim() === '0', 'pages shown');
    const panel = await page.locator('ss-crawl .status-panel').innerText();
    assert(!panel.includes('No sites yet'), 'the Crawl page says "No sites yet" for 4 imported sites');
    assert(!(await page.locator('ss-crawl .status-panel > .metrics').isVisible()), "the crawl's zero counts are shown");
    await shot(page, 'readable-crawl-imported');
  });
}

await closeChecked(browser, pageErrors);
finish();
