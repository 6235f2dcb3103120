// Browser end-to-end test of the sitesift UI against a running `sitesift serve`.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/sites.spec.mjs
//
// It drives Debian's Chromium through playwright-core (never the full
// `playwright` package, which downloads its own browser). It assumes a crawled
// project with at least two sites and reads every site name from the page.
// Screenshots go to SCREENSHOT_DIR (default e2e/out/). It prints
// "N passed, M failed" and exits non-zero when anything failed.

import { TIMEOUT, answered, assert, harness, storedLibrarian } from './harness.mjs';

// A name of our own, so ratings left by people or earlier runs cannot confuse the checks.
const LIBRARIAN = `e2e-${process.pid}-${Date.now().toString(36)}`;

// Words too common to show that search works.
const STOP = new Set(['about', 'from', 'have', 'home', 'page', 'that', 'this', 'with', 'your', 'what', 'will', 'more', 'welcome']);

const { base, state, step, need, launch, shot, finish } = harness('sites.spec');

const sitesAPI = (method) => (r) =>
  r.url().includes('/api/sites') && r.request().method() === method && r.status() < 500;

/** row returns the sites-table row of one site, found by its data-site attribute. */
const row = (page, site) => page.locator(`table.sites-table tr[data-site="${site.replace(/["\\]/g, '\\$&')}"]`);

async function ratingOf(page, site) {
  const cell = row(page, site).locator('td[data-rating]');
  return { attr: await cell.getAttribute('data-rating'), text: (await cell.innerText()).trim() };
}

async function waitRating(page, site, want) {
  const sel = `table.sites-table tr[data-site="${site.replace(/["\\]/g, '\\$&')}"] td[data-rating="${want}"]`;
  try {
    await page.waitForSelector(sel, { timeout: TIMEOUT });
  } catch {
    const got = await ratingOf(page, site).catch(() => ({ attr: '(no such row)', text: '' }));
    throw new Error(`rating cell of ${site}: want "${want}", still data-rating="${got.attr}" text "${got.text}" after ${TIMEOUT / 1000} s`);
  }
  const got = await ratingOf(page, site);
  assert(got.attr === want && got.text === want, `rating cell of ${site}: want "${want}", got data-rating="${got.attr}" text "${got.text}"`);
}

const { browser, context, page, pageErrors } = await launch();

try {
  await step('sites table shows at least two rows', async () => {
    await page.goto(`${base}#/sites`);
    await page.waitForSelector('table.sites-table tr[data-site]');
    const sites = await page.locator('table.sites-table tr[data-site]').evaluateAll((rows) => rows.map((r) => r.dataset.site));
    assert(sites.length >= 2, `need at least 2 sites in the project, the table shows ${sites.length}`);
    state.sites = sites;
    state.target = sites[1];
    await shot(page, 'sites');
  });

  await step('librarian added with the chooser, chosen and kept', async () => {
    const reload = page.waitForResponse((r) => sitesAPI('GET')(r) && r.url().includes(`librarian=${LIBRARIAN}`));
    await page.fill('#librarian', LIBRARIAN);
    await page.waitForSelector('#librarian-menu li[data-add]');
    await page.keyboard.press('ArrowDown'); // the menu's "Add … as a new librarian"
    await page.keyboard.press('Enter');
    await answered(reload, `GET /api/sites?librarian=${LIBRARIAN}`); // the table reloads with this librarian's ratings
    await page.locator('#librarian').blur(); // keys typed into a field must not rate
    const stored = await storedLibrarian(page);
    assert(stored === LIBRARIAN, `localStorage holds "${stored}", want "${LIBRARIAN}"`);
  });

  await step('j selects the second row', async () => {
    const target = need('target', 'the second site');
    await page.keyboard.press('j');
    const selected = await page.locator('table.sites-table tr.selected').getAttribute('data-site');
    assert(selected === target, `selected row is "${selected}", want the second row "${target}"`);
  });

  await step('3 rates the selected site and the cell shows 3', async () => {
    const target = need('target', 'the second site');
    const saved = page.waitForResponse(sitesAPI('PUT'));
    await page.keyboard.press('3');
    await answered(saved, `PUT /api/sites/${target}/rating`);
    await waitRating(page, target, '3');
    await shot(page, 'sites-rated');
  });

  await step('the rating survives a reload', async () => {
    const target = need('target', 'the second site');
    await page.reload();
    await page.waitForSelector('table.sites-table tr[data-site]');
    assert((await row(page, target).count()) === 1, `after reload no row has data-site="${target}"`);
    await waitRating(page, target, '3');
  });

  await step('0 clears the rating, also after a reload', async () => {
    const target = need('target', 'the second site');
    await row(page, target).locator('td.col-rank').click(); // select the row without following its link
    const cleared = page.waitForResponse(sitesAPI('DELETE'));
    await page.keyboard.press('0');
    await answered(cleared, `DELETE /api/sites/${target}/rating`);
    await waitRating(page, target, '');
    await page.reload();
    await page.waitForSelector('table.sites-table tr[data-site]');
    await waitRating(page, target, '');
  });

  await step('crawl view shows the crawl status', async () => {
    await page.goto(`${base}#/crawl`);
    await page.waitForSelector('#crawl-seeds');
    const badge = page.locator('#crawl-state');
    await badge.waitFor();
    const s = (await badge.innerText()).trim().toLowerCase();
    const known = ['idle', 'running', 'paused', 'stopping', 'done', 'stopped', 'failed'];
    assert(known.includes(s), `crawl state badge reads "${s}"`);
    await shot(page, 'crawl');
  });

  await step('site detail lists crawled pages with titles', async () => {
    const sites = need('sites', 'the list of sites');
    // Take a word from the first page title that has one, visiting the sites in table order.
    for (const site of sites.slice(0, 10)) {
      await page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
      await page.waitForSelector('ss-site .stats');
      const titles = await page.locator('.pages-table .page .title').allInnerTexts();
      for (const t of titles) {
        const word = (t.toLowerCase().match(/[\p{L}]{4,}/gu) || []).find((w) => !STOP.has(w));
        if (word) {
          state.word = word;
          state.wordSite = site;
          await shot(page, 'site-detail');
          return;
        }
      }
    }
    throw new Error('no page title with a word of 4 or more letters on the first 10 sites');
  });

  await step("a page's text opens as its main text with its links by kind, and Whole page shows more", async () => {
    const site = need('wordSite', 'a site with titled pages');
    await page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
    // A titled page (an HTML page: files and images have no text to show).
    const pageRow = page.locator('.pages-table tr[data-page]')
      .filter({ has: page.locator('button[data-open-text]') })
      .filter({ hasNot: page.locator('.title .muted') })
      .first();
    await pageRow.waitFor();
    const url = await pageRow.getAttribute('data-page');
    const open = pageRow.locator('button[data-open-text]');
    const read = page.waitForResponse((r) => r.url().includes('/api/pages/text?') && r.status() < 500);
    await open.click();
    await answered(read, `GET /api/pages/text?url=${url}`);
    await page.locator(`.page-text[data-page-text="${url.replace(/["\\]/g, '\\$&')}"] .pt-body[data-view="main"]`).waitFor();
    const main = (await page.locator('.page-text .pt-body').innerText()).trim();
    assert(main.length > 0, `the main text of ${url} is empty`);
    assert(!(await page.locator('.page-text [data-full-text-missing]').count()), `${url}, fetched by this crawl, says its whole text was not kept`);
    const links = await page.locator('.page-text dd[data-links]').innerText();
    assert(/\d+ editorial · \d+ template/.test(links), `links line reads "${links}"`);
    await page.locator('.page-text button[data-show="whole"]').click();
    await page.waitForSelector('.page-text .pt-body[data-view="whole"]');
    const whole = (await page.locator('.page-text .pt-body').innerText()).trim();
    assert(whole.length > main.length, `the whole text of ${url} (${whole.length} characters) is not longer than its main text (${main.length})`);
    const first = main.match(/[\p{L}]{4,}/u)?.[0] ?? '';
    assert(whole.includes(first), `the whole text of ${url} lacks "${first}", a word of its main text`);
    console.log(`      ${url}: main text ${main.length} characters, whole page ${whole.length}; links ${links}`);
    await shot(page, 'page-text');
    await page.locator('.page-text button[data-show="main"]').click();
    await page.waitForSelector('.page-text .pt-body[data-view="main"]');
    await open.click(); // Hide text
    await page.locator('.page-text').waitFor({ state: 'detached' });
  });

  await step('"/" opens search, and a word from a title finds pages', async () => {
    const word = need('word', 'a word from a page title');
    await page.keyboard.press('/');
    await page.waitForSelector('#search-q');
    await page.waitForFunction(() => document.activeElement?.id === 'search-q');
    await page.keyboard.type(word);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.hits .hit');
    const n = await page.locator('.hits .hit').count();
    const marks = await page.locator('.hits .snippet mark').count();
    assert(n > 0, `searching "${word}" shows no results`);
    assert(page.url().includes(`q=${encodeURIComponent(word)}`), `search URL ${page.url()} does not carry the query`);
    console.log(`      searched "${word}" (from ${state.wordSite}): ${n} results on the page, ${marks} highlighted`);
    await shot(page, 'search');
  });

  await step('no uncaught errors in the page', async () => {
    assert(pageErrors.length === 0, `${pageErrors.length} page error(s): ${pageErrors.join(' | ')}`);
  });
} finally {
  await browser.close();
}

finish();
