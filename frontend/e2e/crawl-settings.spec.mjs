// Browser end-to-end test of the crawl settings, the continuation of a crawl,
// the errors list of the last crawl and the WARC archive, against a running
// `sitesift serve` on a crawled project (a crawl of the demo web).
//
//   SITESIFT_URL=http://127.0.0.1:7777/ DEMO_PROXY=http://127.0.0.1:7778 \
//   DEMO_SEED=http://web-directory.test/ DEAD_SEED=https://unreachable.test/ node e2e/crawl-settings.spec.mjs
//
//   DEMO_PROXY  the demo web's proxy: two short crawls are started from the
//               Crawl page through it (skipped without it)
//   DEMO_SEED   a seed of the demo web for those crawls (default: the most
//               important site of the project)
//   DEAD_SEED   a seed of the project's crawl that no fetch could reach: the
//               errors list must show it (optional)
//
// The settings it changes it sets back; its crawls add a few pages to the project.

import { readFileSync } from 'node:fs';
import { answered, assert, crawlEnded, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('crawl-settings.spec');

const PROXY = process.env.DEMO_PROXY || '';
const DEAD = process.env.DEAD_SEED ? new URL(process.env.DEAD_SEED).host : '';
const FIELDS = { contact: '#settings-contact', user_agent: '#settings-user-agent', delay_ms: '#settings-delay-ms', parallel: '#settings-parallel', max_delay_ms: '#settings-max-delay-ms' };

/** expect waits for a response matching pred; a step that fails before awaiting it leaves no unhandled rejection. */
function expect(page, pred) {
  const p = page.waitForResponse(pred);
  p.catch(() => undefined);
  return p;
}

const isCall = (method, path) => (r) => r.request().method() === method && new URL(r.url()).pathname === path;

const { browser, page, pageErrors } = await launch({ acceptDownloads: true });

/** get reads the data of one API call. */
async function get(path) {
  const res = await page.request.get(`${base}${path}`);
  assert(res.ok(), `GET /${path} answered HTTP ${res.status()}`);
  return (await res.json()).data;
}

/** settingsShown reads the settings panel's fields. */
async function settingsShown() {
  const out = {};
  for (const [k, sel] of Object.entries(FIELDS)) out[k] = await page.inputValue(sel);
  return out;
}

/** saveSetting types value into a settings field and saves it, returning the PUT body. */
async function saveSetting(field, value) {
  await page.fill(FIELDS[field], String(value));
  const put = expect(page, isCall('PUT', '/api/settings'));
  await page.click('#settings-save');
  const res = await answered(put, 'PUT /api/settings');
  await page.waitForSelector('#settings-saved');
  return res.request().postDataJSON();
}

/** crawlFromPage starts a crawl of seed from the Crawl page and waits for its end; it returns the POST body. */
async function crawlFromPage(seed) {
  await page.fill('#crawl-seeds', seed);
  await page.fill('#crawl-max-pages', '5');
  await page.fill('#crawl-proxy', PROXY);
  const started = expect(page, isCall('POST', '/api/crawl'));
  await page.click('#crawl-start');
  const res = await answered(started, 'POST /api/crawl');
  await crawlEnded(page, base);
  await page.waitForSelector('#crawl-end-reason');
  return res.request().postDataJSON();
}

try {
  await step('the settings panel shows the stored settings', async () => {
    const s = await get('api/settings');
    state.settings = s;
    await page.goto(`${base}#/crawl`);
    await page.waitForSelector(FIELDS.delay_ms);
    await page.waitForFunction((sel) => document.querySelector(sel).value !== '', FIELDS.delay_ms);
    const shown = await settingsShown();
    for (const k of Object.keys(FIELDS)) {
      assert(shown[k] === String(s[k]), `the ${k} field shows "${shown[k]}", the API says ${JSON.stringify(s[k])}`);
    }
    const ua = (await page.innerText('#settings-effective-ua')).trim();
    assert(ua === s.effective_user_agent, `the user agent sent reads "${ua}", the API says "${s.effective_user_agent}"`);
    // The crawl form has no delay or parallel fields of its own any more.
    assert((await page.locator('#crawl-delay, #crawl-parallel').count()) === 0, 'the crawl form still has delay or parallel fields');
    await shot(page, 'crawl-settings');
  });

  await step('a saved change is kept after a reload, and only the changed field is sent', async () => {
    const s = need('settings', 'the stored settings');
    const want = s.max_delay_ms + 1000;
    const body = await saveSetting('max_delay_ms', want);
    assert(JSON.stringify(body) === JSON.stringify({ max_delay_ms: want }), `PUT /api/settings sent ${JSON.stringify(body)}`);
    await page.reload();
    await page.waitForFunction(([sel, v]) => document.querySelector(sel)?.value === v, [FIELDS.max_delay_ms, String(want)]);
    assert((await get('api/settings')).max_delay_ms === want, 'the API does not have the saved max delay');
    const back = await saveSetting('max_delay_ms', s.max_delay_ms);
    assert(back.max_delay_ms === s.max_delay_ms, `setting it back sent ${JSON.stringify(back)}`);
  });

  await step('a crawl of the open web without a contact is refused at the contact field', async () => {
    const s = need('settings', 'the stored settings');
    assert(!s.contact, `the project has a contact (${s.contact}): the refusal cannot be shown`);
    await page.fill('#crawl-seeds', 'https://www.example.org/');
    const started = expect(page, isCall('POST', '/api/crawl'));
    await page.click('#crawl-start');
    const res = await answered(started, 'POST /api/crawl', false);
    assert(res.status() === 400, `POST /api/crawl answered HTTP ${res.status()}, want 400`);
    const msg = page.locator('#settings-contact-error');
    await msg.waitFor();
    assert(/contact/i.test(await msg.innerText()), `the message at the contact field reads "${await msg.innerText()}"`);
    await page.waitForFunction(() => document.activeElement?.id === 'settings-contact');
    await shot(page, 'crawl-settings-contact');
    await page.fill('#crawl-seeds', '');
  });

  await step('the Crawl page says what a new crawl continues', async () => {
    const c = await get('api/crawl/continuation');
    assert(c.continues, 'the API says a new crawl would not continue one');
    const line = page.locator('#crawl-continuation');
    await line.waitFor();
    const text = await line.innerText();
    assert(text.includes('This crawl continues the crawl of'), `the line reads "${text}"`);
    const pages = (await line.locator('[data-pages]').innerText()).replace(/,/g, '');
    const waiting = (await line.locator('[data-waiting]').innerText()).replace(/,/g, '');
    assert(pages === String(c.pages) && waiting === String(c.waiting),
      `the line says ${pages} pages fetched, ${waiting} waiting; the API ${c.pages} and ${c.waiting}`);
    assert((await page.locator('#crawl-fresh-frontier').count()) === 1, 'no fresh frontier checkbox');
  });

  await step("the errors list shows the last crawl's failures", async () => {
    const e = await get('api/crawl/errors?limit=500');
    assert(e.total > 0, 'the last crawl has no failed fetch to show');
    state.errors = e;
    await page.waitForSelector('.crawl-errors-table tbody tr');
    const total = (await page.innerText('#crawl-errors-total')).replace(/,/g, '');
    assert(total === String(e.total), `the list counts ${total}, the API ${e.total}`);
    const urls = await page.locator('.crawl-errors-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.url));
    const want = e.rows.slice(0, urls.length).map((r) => r.url);
    assert(urls.length === Math.min(25, e.total) && JSON.stringify(urls) === JSON.stringify(want), `rows ${JSON.stringify(urls)}, want ${JSON.stringify(want)}`);
    if (DEAD) {
      assert(e.rows.some((r) => r.site === DEAD), `the API lists no failure of ${DEAD}`);
    }
    await shot(page, 'crawl-errors', true);
  });

  await step('the errors list filters by class and by site; a site opens its page', async () => {
    const e = need('errors', 'the errors list');
    const classes = [...new Set(e.rows.map((r) => r.class))];
    const cls = classes[0];
    const filtered = expect(page, (r) => r.url().includes('/api/crawl/errors') && r.url().includes(`class=${cls}`));
    await page.selectOption('#crawl-errors-class', cls);
    const data = (await (await answered(filtered, `GET /api/crawl/errors?class=${cls}`)).json()).data;
    await page.waitForFunction((n) => document.querySelector('#crawl-errors-total')?.textContent.replace(/,/g, '') === String(n), data.total);
    const shown = await page.locator('.crawl-errors-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.class));
    assert(shown.length > 0 && shown.every((c) => c === cls), `rows filtered by ${cls} have classes ${JSON.stringify(shown)}`);
    assert(data.total === e.rows.filter((r) => r.class === cls).length, `the API counts ${data.total} ${cls} failures of ${e.total}`);
    await page.selectOption('#crawl-errors-class', '');
    const site = DEAD || e.rows[0].site;
    const bySite = expect(page, (r) => r.url().includes('/api/crawl/errors') && r.url().includes(`site=${encodeURIComponent(site)}`));
    await page.fill('#crawl-errors-site', site);
    await answered(bySite, `GET /api/crawl/errors?site=${site}`);
    await page.waitForFunction(
      (s) => [...document.querySelectorAll('.crawl-errors-table tbody tr')].every((r) => r.dataset.site === s) &&
        document.querySelectorAll('.crawl-errors-table tbody tr').length > 0,
      site,
    );
    await page.click(`.crawl-errors-table tbody tr[data-site="${site}"] td.site a`);
    await page.waitForFunction((s) => location.hash === `#/sites/${encodeURIComponent(s)}`, site);
  });

  await step('the Export page lists the WARC files of the crawl', async () => {
    const files = await get('api/warcs');
    assert(files.length > 0, 'the project has no WARC file');
    state.warcs = files;
    await page.goto(`${base}#/export`);
    await page.waitForSelector('.warc-table tr[data-warc]');
    const rows = await page.locator('.warc-table tr[data-warc]').evaluateAll((trs) => trs.map((r) => [r.dataset.warc, r.children[2].textContent.trim()]));
    const want = files.map((f) => [f.name, f.records.toLocaleString('en-US')]);
    assert(JSON.stringify(rows) === JSON.stringify(want), `rows ${JSON.stringify(rows)}, want ${JSON.stringify(want)}`);
    await page.locator('ss-warc-files').scrollIntoViewIfNeeded();
    await shot(page, 'export-warcs');
  });

  await step('a WARC file downloads in the browser, gzip from its first bytes', async () => {
    const f = need('warcs', 'the WARC files').find((w) => !w.open);
    assert(f, 'every WARC file is open');
    const link = page.locator(`.warc-table tr[data-warc="${f.name}"] a.name`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert(download.suggestedFilename() === f.name, `the download is named ${download.suggestedFilename()}, want ${f.name}`);
    const bytes = readFileSync(await download.path());
    assert(bytes.length === f.size, `downloaded ${bytes.length} bytes, the list says ${f.size}`);
    assert(bytes[0] === 0x1f && bytes[1] === 0x8b, `the file begins ${bytes.subarray(0, 2).toString('hex')}, not the gzip magic 1f8b`);
  });

  if (!PROXY) {
    console.log('skip  crawls from the Crawl page (set DEMO_PROXY to run them)');
  } else {
    await step('a crawl started from the page leaves the delay setting as it was', async () => {
      const before = await get('api/settings');
      const seed = process.env.DEMO_SEED || `http://${(await get('api/sites?limit=1')).rows[0].site}/`;
      state.seed = seed;
      await page.goto(`${base}#/crawl`);
      await page.waitForFunction((sel) => document.querySelector(sel)?.value !== '', FIELDS.delay_ms);
      const body = await crawlFromPage(seed);
      for (const k of ['delay_ms', 'parallel', 'max_delay_ms', 'contact', 'user_agent']) {
        assert(!(k in body), `the crawl request carried ${k}=${JSON.stringify(body[k])}`);
      }
      const after = await get('api/settings');
      assert(after.delay_ms === before.delay_ms && after.parallel === before.parallel,
        `settings went from delay ${before.delay_ms}, parallel ${before.parallel} to ${after.delay_ms}, ${after.parallel}`);
      assert((await page.inputValue(FIELDS.delay_ms)) === String(before.delay_ms), 'the delay field changed');
      state.delay = before.delay_ms;
    });

    await step('a delay changed and not saved goes with the crawl, which keeps it', async () => {
      const delay = need('delay', 'the delay setting');
      await page.fill(FIELDS.delay_ms, String(delay + 5));
      await page.waitForSelector('#settings-dirty');
      const body = await crawlFromPage(need('seed', 'the seed'));
      assert(body.delay_ms === delay + 5 && !('parallel' in body), `the crawl request carried ${JSON.stringify(body)}`);
      assert((await get('api/settings')).delay_ms === delay + 5, 'the project did not keep the delay of the crawl');
      await page.waitForFunction(() => !document.querySelector('#settings-dirty'));
      await shot(page, 'crawl-after-page-crawl');
      await saveSetting('delay_ms', delay);
      assert((await get('api/settings')).delay_ms === delay, 'the delay was not set back');
    });
  }
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
