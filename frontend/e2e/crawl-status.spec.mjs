// Browser end-to-end test of how sitesift shows failed fetches, against a
// running `sitesift serve` on a crawled project that holds a dead site.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ DEAD_SEED=https://unreachable.test/ \
//   EMPTY_URL=http://127.0.0.1:7779/ DEMO_PROXY=http://127.0.0.1:7778 node e2e/crawl-status.spec.mjs
//
//   DEAD_SEED   a seed of the project's crawl that no fetch could reach (required)
//   EMPTY_URL   a `sitesift serve` on an empty project, and
//   DEMO_PROXY  a proxy to crawl through: a crawl of an unreachable seed is
//               started there from the Crawl page (skipped without them)
//
// It checks that the dead site shows its status on the Sites page and can be
// filtered by it, that its site page explains it, that the review queue and
// the seed export leave it out unless their checkbox includes it, and that
// the Crawl page says why the last crawl ended — on the empty project, that
// no seed could be fetched. It changes nothing on the crawled project but a
// librarian's empty queue.

import { answered, assert, harness, addLibrarian, chooseLibrarian } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('crawl-status.spec');

const DEAD_SEED = process.env.DEAD_SEED;
if (!DEAD_SEED) {
  console.error('crawl-status.spec: set DEAD_SEED to a seed URL of the crawl that could not be fetched');
  process.exit(2);
}
const DEAD = new URL(DEAD_SEED).host;
const PROXY = process.env.DEMO_PROXY || '';
const EMPTY = process.env.EMPTY_URL ? process.env.EMPTY_URL.replace(/\/?$/, '/') : '';
// Names of our own, so earlier runs on the same project cannot confuse the checks.
const tag = `${process.pid}-${Date.now().toString(36)}`;
const LIBRARIAN = `e2e-status-${tag}`;
const NOWHERE = `https://nowhere-${tag}.test/`;

/** ENDED is what the Crawl page says for each end reason. */
const ENDED = {
  limit: 'Ended: the page cap was reached',
  exhausted: 'Ended: nothing was left to fetch',
  stopped: 'Ended: stopped by you',
  'seeds-failed': 'Ended: no seed could be fetched — check the URLs and your network',
  failed: 'Ended: sitesift itself failed',
};

/** endLine waits for the Crawl page's line saying the crawl ended for reason, and checks its words. */
async function endLine(page, reason) {
  const line = page.locator(`#crawl-end-reason[data-end-reason="${reason}"]`);
  await line.waitFor();
  const text = (await line.innerText()).trim();
  assert(text.startsWith(ENDED[reason]), `the end line reads "${text}", want "${ENDED[reason]}…"`);
}

const quote = (s) => s.replace(/["\\]/g, '\\$&');
const siteRow = (page, site) => page.locator(`table.sites-table tr[data-site="${quote(site)}"]`);
const isQueue = (include) => (r) =>
  r.url().includes('/api/review/queue') && r.url().includes(`librarian=${LIBRARIAN}`) && r.url().includes('include_failed=true') === include;

/**
 * expect waits for a response matching pred; a step that fails before it
 * awaits the wait leaves no unhandled rejection behind.
 */
function expect(page, pred) {
  const p = page.waitForResponse(pred);
  p.catch(() => undefined);
  return p;
}

const { browser, page, pageErrors } = await launch();
// Librarians are profiles of the project: add this one and make it the browser's choice for the project.
await chooseLibrarian(page, await addLibrarian(page, base, LIBRARIAN), LIBRARIAN);

try {
  await step(`the API calls ${DEAD} dead`, async () => {
    const res = await page.request.get(`${base}api/sites/${encodeURIComponent(DEAD)}`);
    assert(res.ok(), `GET /api/sites/${DEAD} answered HTTP ${res.status()}`);
    const d = (await res.json()).data;
    assert(d.crawl_status === 'dead', `crawl_status of ${DEAD} is ${JSON.stringify(d.crawl_status)}, want "dead"`);
    state.report = d.report;
  });

  await step('the Sites page shows the dead site with its status and a tooltip', async () => {
    await page.goto(`${base}#/sites?q=${encodeURIComponent(DEAD)}`);
    const badge = siteRow(page, DEAD).locator('.crawl-badge');
    await badge.waitFor();
    assert((await badge.getAttribute('data-crawl-status')) === 'dead', `badge of ${DEAD}: data-crawl-status="${await badge.getAttribute('data-crawl-status')}"`);
    assert((await badge.innerText()).trim().toLowerCase() === 'dead', `badge of ${DEAD} reads "${await badge.innerText()}"`);
    const tip = (await badge.getAttribute('title')) || '';
    assert(/fail/i.test(tip), `badge tooltip "${tip}" does not say the fetches failed`);
    const errors = (await siteRow(page, DEAD).locator('td.col-errors').innerText()).trim();
    assert(Number(errors) >= 1, `errors cell of ${DEAD} reads "${errors}", want at least 1`);
    await shot(page, 'status-sites-dead');
  });

  await step('the status filter shows only dead sites, and j/k still move the selection', async () => {
    await page.goto(`${base}#/sites`);
    await page.waitForSelector('table.sites-table tr[data-site]');
    const filtered = expect(page, (r) => r.url().includes('/api/sites?') && r.url().includes('status=dead'));
    await page.selectOption('#site-status-filter', 'dead');
    await answered(filtered, 'GET /api/sites?status=dead');
    await page.waitForFunction(() => location.hash.includes('status=dead'));
    await page.waitForSelector(`table.sites-table tr[data-site="${quote(DEAD)}"]`);
    const statuses = await page.locator('table.sites-table tbody td.col-crawl-status').evaluateAll((td) => td.map((e) => e.dataset.crawlStatus));
    assert(statuses.length > 0 && statuses.every((s) => s === 'dead'), `filtered rows have statuses ${JSON.stringify(statuses)}`);
    await page.keyboard.press('Escape'); // leave the select: the table's keys work again
    await page.locator('#site-status-filter').blur();
    const first = await page.locator('table.sites-table tr.selected').getAttribute('data-site');
    await page.keyboard.press('j');
    const sites = await page.locator('table.sites-table tr[data-site]').evaluateAll((rows) => rows.map((r) => r.dataset.site));
    const now = await page.locator('table.sites-table tr.selected').getAttribute('data-site');
    assert(sites.length < 2 || now === sites[1], `after j the selected row is "${now}" (was "${first}"), want "${sites[1]}"`);
    await shot(page, 'status-sites-filter');
    // Back to all statuses.
    await page.selectOption('#site-status-filter', '');
    await page.waitForFunction(() => !location.hash.includes('status='));
  });

  await step('the site page explains the status and reports the errors by class', async () => {
    await page.goto(`${base}#/sites/${encodeURIComponent(DEAD)}`);
    const panel = page.locator('.crawl-report');
    await panel.waitFor();
    assert((await panel.getAttribute('data-crawl-status')) === 'dead', 'report panel is not marked dead');
    const text = await panel.innerText();
    assert(/every fetch failed/i.test(text), `the report does not explain the status: "${text}"`);
    assert((await panel.locator('[data-report="pages_ok"]').innerText()).trim() === '0', 'pages fetched fine is not 0');
    const report = state.report;
    if (report && report.errors_by_class) {
      for (const [c, n] of Object.entries(report.errors_by_class)) {
        if (!n) continue;
        const shown = await panel.locator(`.err-count[data-error-class="${c}"]`).innerText();
        assert(shown.includes(String(n)), `error class ${c}: shows "${shown}", the API says ${n}`);
      }
    }
    await shot(page, 'status-site-dead');
  });

  await step('the review queue leaves the dead site out and says how many were left out', async () => {
    const loaded = expect(page, isQueue(false));
    await page.goto(`${base}#/review`);
    const res = await answered(loaded, 'GET /api/review/queue');
    const q = (await res.json()).data;
    assert(q.excluded >= 1, `the queue answer has excluded=${q.excluded}, want at least 1`);
    assert(!(q.rows || []).some((r) => r.site === DEAD), `${DEAD} is in the queue without include_failed`);
    const note = page.locator('.excluded-note[data-excluded]');
    await note.waitFor();
    const text = (await note.innerText()).trim();
    assert(text.startsWith(`${q.excluded} site`) && /left out/.test(text), `note reads "${text}", want ${q.excluded} sites left out`);
    // Filtered to its name, the queue is empty.
    const filtered = expect(page, isQueue(false));
    await page.goto(`${base}#/review?q=${encodeURIComponent(DEAD)}`);
    const fr = (await (await answered(filtered, 'GET /api/review/queue?q=')).json()).data;
    assert(!(fr.rows || []).some((r) => r.site === DEAD), `${DEAD} is in the queue filtered by its name`);
    await page.waitForSelector('.review-empty');
    assert((await page.locator(`.queue-list li[data-site="${quote(DEAD)}"]`).count()) === 0, `${DEAD} is listed in the queue`);
    await shot(page, 'status-review-left-out');
  });

  await step('ticking "include dead and closed sites" brings it into the queue', async () => {
    const again = expect(page, isQueue(true));
    await page.check('#review-include-failed');
    await answered(again, 'GET /api/review/queue?include_failed=true');
    await page.waitForSelector(`.review-card[data-site="${quote(DEAD)}"]`);
    await page.waitForFunction(() => location.hash.includes('include_failed=1'));
    assert((await page.locator('.excluded-note[data-excluded]').count()) === 0, 'the left-out note is still shown with the checkbox ticked');
    await shot(page, 'status-review-included');
  });

  await step('the seed export leaves the dead site out unless its checkbox is ticked', async () => {
    const line = `http://${DEAD}/`;
    const first = expect(page, (r) => r.url().includes('/api/export/seeds') && !r.url().includes('include_failed'));
    await page.goto(`${base}#/export?format=txt&count=5000`);
    const without = await (await answered(first, 'GET /api/export/seeds')).text();
    assert(!without.split('\n').includes(line), `${line} is in the export without include_failed`);
    const second = expect(page, (r) => r.url().includes('/api/export/seeds') && r.url().includes('include_failed=true'));
    await page.check('#export-include-failed');
    const withIt = await (await answered(second, 'GET /api/export/seeds?include_failed=true')).text();
    assert(withIt.split('\n').includes(line), `${line} is not in the export with include_failed`);
    const href = await page.locator('#export-download').getAttribute('href');
    assert(href.includes('include_failed=true'), `the download link ${href} does not include the failed sites`);
  });

  await step("the Crawl page says why the project's last crawl ended", async () => {
    const st = (await (await page.request.get(`${base}api/crawl`)).json()).data;
    assert(st.end_reason in ENDED, `the last crawl is ${st.state} with end_reason ${JSON.stringify(st.end_reason)}`);
    await page.goto(`${base}#/crawl`);
    await endLine(page, st.end_reason);
    await shot(page, 'status-crawl-last');
  });

  if (!EMPTY || !PROXY) {
    console.log('skip  a crawl of an unreachable seed (set EMPTY_URL and DEMO_PROXY to run it)');
  } else {
    await step('on an empty project, a crawl of an unreachable seed ends saying no seed could be fetched', async () => {
      await page.goto(`${EMPTY}#/crawl`);
      await page.waitForSelector('#crawl-seeds');
      await page.fill('#crawl-seeds', NOWHERE);
      await page.fill('#crawl-max-pages', '5');
      await page.fill('#crawl-proxy', PROXY);
      const started = expect(page, (r) => r.url().endsWith('/api/crawl') && r.request().method() === 'POST');
      await page.click('#crawl-start');
      await answered(started, 'POST /api/crawl');
      // The server runs the crawl once it has answered: wait for its end there, then for the page to say why.
      let st;
      for (let i = 0; i < 120; i++) {
        st = (await (await page.request.get(`${EMPTY}api/crawl`)).json()).data;
        if (!['running', 'paused', 'stopping'].includes(st.state)) break;
        await page.waitForTimeout(500);
      }
      assert(st.end_reason === 'seeds-failed', `the crawl is ${st.state} with end_reason ${JSON.stringify(st.end_reason)}, want seeds-failed`);
      await endLine(page, 'seeds-failed');
      const errors = await page.locator('#crawl-errors-by-class').innerText();
      for (const [c, n] of Object.entries(st.errors_by_class || {})) {
        if (n) assert(errors.includes(`${c} ${n}`), `errors by class read "${errors}", the API says ${c} ${n}`);
      }
      // The progress counts pages fetched fine and failures apart, never failures against the page cap.
      const label = (await page.locator('#crawl-progress-label').innerText()).trim();
      const want = `${st.pages_ok} pages fetched, ${st.errors} failed`;
      assert(st.errors > 0 && label.startsWith(want), `the progress reads "${label}", want "${want}…"`);
      state.crawled = true;
      await shot(page, 'status-crawl-seeds-failed');
    });

    await step('the Crawl page still says why after a reload', async () => {
      need('crawled', 'the crawl');
      await page.reload();
      await endLine(page, 'seeds-failed');
    });
  }

} finally {
  await closeChecked(browser, pageErrors);
}

finish();
