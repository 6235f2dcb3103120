// Browser end-to-end test of the Import page against a running
// `sitesift serve` on a project of its own.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/import.spec.mjs
//
// It imports the real WARC sample iana.warc.gz of the shared reference data
// (WARC_DIR, default ../shared/data/warc from the project root) by its path
// on the server, follows the import to its end on the page, finds one of
// the archive's pages with Search, reloads and finds the form and the
// record of the file kept; after each import the top bar's page and site
// counts follow without a reload; the Crawl page shows the file imported
// instead of an idle crawl; a path that does not exist is refused naming
// it; example.warc.gz is uploaded through the page and imported. It prints
// "N passed, M failed" and exits non-zero when anything failed.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, harness } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const WARC_DIR = resolve(process.env.WARC_DIR || join(here, '..', '..', '..', 'shared', 'data', 'warc'));
const IANA = join(WARC_DIR, 'iana.warc.gz');
const EXAMPLE = join(WARC_DIR, 'example.warc.gz');
/** An import of a small WARC file takes well under a second; the margin is for a loaded machine. */
const IMPORT_TIMEOUT = 60_000;

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('import.spec');
if (!existsSync(IANA)) {
  console.error(`import.spec: ${IANA} is missing (set WARC_DIR)`);
  process.exit(2);
}

const { browser, page, pageErrors } = await launch();

/** startImport clicks Import and waits for the server to take the import. */
async function startImport() {
  const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/imports' && r.request().method() === 'POST');
  await page.click('button.import-start');
  const res = await started;
  assert(res.status() === 202, `POST /api/imports answered ${res.status()}: ${await res.text()}`);
}

/** topCounts reads the top bar's page and site counts ("20 pages · 1 sites"). */
async function topCounts() {
  const text = await page.locator('ss-app .topbar .counts').innerText();
  const m = /([\d,]+) pages · ([\d,]+) sites/.exec(text);
  assert(m, `the top bar's counts read "${text}"`);
  return { pages: Number(m[1].replaceAll(',', '')), sites: Number(m[2].replaceAll(',', '')) };
}

/** apiCounts reads the project's page and site counts from the API. */
async function apiCounts() {
  const r = await page.request.get(`${base}api/project`);
  const { data } = await r.json();
  return { pages: data.pages, sites: data.sites };
}

/** waitCounts waits, without a reload, for the top bar to show the API's counts, and returns them. */
async function waitCounts(before) {
  const want = await apiCounts();
  assert(want.pages !== before.pages || want.sites !== before.sites, `the API's counts ${JSON.stringify(want)} did not change`);
  await page.waitForFunction(
    (w) => document.querySelector('ss-app .topbar .counts')?.textContent?.replaceAll(',', '').includes(`${w.pages} pages · ${w.sites} sites`),
    want, { timeout: 10_000 },
  ).catch(async () => {
    throw new Error(`the top bar still shows ${JSON.stringify(await topCounts())} after the import, the API ${JSON.stringify(want)}`);
  });
  return want;
}

/** waitResult waits for the result panel of a finished import and returns its state. */
async function waitResult() {
  await page.waitForSelector('ss-import section.import-result:not([data-state="running"])', { timeout: IMPORT_TIMEOUT });
  return page.locator('ss-import section.import-result').getAttribute('data-state');
}

try {
  await step('the Import page is in the navigation', async () => {
    await page.goto(`${base}#/sites`);
    await page.click('nav a[data-nav="import"]');
    await page.waitForSelector('ss-import form.import-form');
    assert(page.url().includes('#/import'), `URL ${page.url()} is not the Import page`);
  });

  await step('a path that does not exist is refused, naming it', async () => {
    await page.check('input[name="import-kind"][value="warc"]');
    const missing = join(WARC_DIR, 'no-such-file.warc.gz');
    await page.fill('#import-warc', missing);
    await page.click('button.import-start');
    const alert = page.locator('ss-import .alert');
    await alert.first().waitFor();
    const text = await alert.first().innerText();
    assert(text.includes(missing), `the error "${text}" does not name ${missing}`);
  });

  await step('a WARC file imported by its path on the server: progress, then what it added, and the top bar counts it', async () => {
    await page.fill('#import-warc', IANA);
    const before = await topCounts();
    await startImport();
    const st = await waitResult();
    assert(st === 'done', `the import ended "${st}": ${await page.locator('ss-import section.import-result').innerText()}`);
    const row = page.locator(`ss-import table.import-files tr[data-path="${IANA}"]`);
    const added = await row.innerText();
    assert(/20 html pages/.test(added) && /123 revisits/.test(added), `the file's row says "${added}"; want 20 html pages and 123 revisits`);
    const after = await waitCounts(before);
    // Of its 20 HTML pages, those answered 2xx are pages fetched fine; the redirects are not counted.
    assert(after.pages > before.pages && after.sites > before.sites,
      `the top bar went from ${JSON.stringify(before)} to ${JSON.stringify(after)}; the file added iana.org`);
    state.imported = true;
    await shot(page, 'import-done');
  });

  await step('Search finds a page of the archive', async () => {
    need('imported', 'the import');
    await page.goto(`${base}#/search?q=${encodeURIComponent('root zone management')}`);
    await page.waitForSelector('#search-q');
    const hit = page.locator('ss-search li.hit[data-url*="iana.org"]').first();
    await hit.waitFor({ timeout: 15_000 });
    const text = await page.locator('ss-search').innerText();
    assert(/Root Zone Management/.test(text), 'the results do not show the page "IANA — Root Zone Management"');
    await shot(page, 'import-search');
  });

  await step('the Crawl page says what was imported, not an idle crawl of 0 pages', async () => {
    need('imported', 'the import');
    await page.goto(`${base}#/crawl`);
    const box = page.locator('#crawl-imported');
    await box.waitFor();
    const text = await box.innerText();
    assert(/Imported from web archives/.test(text) && text.includes('iana.warc.gz'), `the import box says "${text}"`);
    const { pages } = await apiCounts();
    assert((await box.locator('[data-imported-pages]').innerText()).trim() === String(pages), `pages shown: want ${pages}`);
    const row = await box.locator('li[data-archive-import="warc"]').first().innerText();
    assert(/\d+ pages, \d+ redirects, \d+ error captures/.test(row), `the file's line says "${row}"`);
    const badge = (await page.locator('#crawl-state').innerText()).trim().toLowerCase();
    assert(badge === 'imported', `the state badge says "${badge}", want imported`);
    assert(!(await page.locator('ss-crawl .status-panel > .metrics').isVisible()), "the crawl's zero counts are shown");
    await shot(page, 'import-crawl-page');
  });

  await step('a reload keeps the form and shows the file imported', async () => {
    need('imported', 'the import');
    await page.goto(`${base}#/import`);
    await page.reload();
    await page.waitForSelector('ss-import section.import-history');
    const v = await page.inputValue('#import-warc');
    assert(v === IANA, `the path field holds "${v}" after a reload, want ${IANA}`);
    const hist = await page.locator('ss-import section.import-history').innerText();
    assert(hist.includes(IANA), 'the list of imported files lacks iana.warc.gz');
  });

  await step('importing the same file again changes nothing', async () => {
    need('imported', 'the import');
    await startImport();
    const st = await waitResult();
    const added = await page.locator(`ss-import table.import-files tr[data-path="${IANA}"]`).innerText();
    assert(st === 'done' && added.includes('imported before'), `second import "${st}", row "${added}"`);
  });

  await step('a WARC file uploaded through the page is imported', async () => {
    await page.fill('#import-warc', '');
    await page.setInputFiles('ss-import .import-upload input[type=file]', EXAMPLE);
    await page.waitForFunction(() => /example\.warc\.gz/.test(document.querySelector('#import-warc')?.value ?? ''));
    const before = await topCounts();
    await startImport();
    // Left at once, the Import page no longer follows the import: the app still learns of its end.
    await page.click('nav a[data-nav="sites"]');
    await page.click('nav a[data-nav="import"]');
    const st = await waitResult();
    const text = await page.locator('ss-import section.import-result').innerText();
    assert(st === 'done' && /1 html pages/.test(text), `upload import "${st}": ${text}`);
    const after = await waitCounts(before);
    assert(after.sites === before.sites + 1, `the top bar went from ${before.sites} to ${after.sites} sites; example.com is new`);
  });

  await step('host graph files uploaded go to their fields by name', async () => {
    await page.check('ss-import input[name=import-kind][value=cc]');
    for (const f of ['#import-cc_vertices', '#import-cc_edges', '#import-cc_ranks']) await page.fill(f, '');
    const file = (name) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from('0\tcom.example\n') });
    await page.setInputFiles('ss-import .import-upload input[type=file]', [file('host-vertices-00000.txt'), file('host-edges-00000.txt'), file('host-ranks.txt')]);
    await page.waitForFunction(() => /host-ranks\.txt/.test(document.querySelector('#import-cc_ranks')?.value ?? ''));
    const v = await page.inputValue('#import-cc_vertices');
    const e = await page.inputValue('#import-cc_edges');
    assert(/host-vertices-00000\.txt$/.test(v) && !v.includes('edges'), `vertices field "${v}"`);
    assert(/host-edges-00000\.txt$/.test(e) && !e.includes('vertices'), `edges field "${e}"`);
    await shot(page, 'import-cc-fields');
    await page.check('ss-import input[name=import-kind][value=warc]');
  });
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
