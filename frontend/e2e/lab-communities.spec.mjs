// Browser end-to-end test of the Lab and Communities pages against a running
// `sitesift serve`.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/lab-communities.spec.mjs
//
// It drives Debian's Chromium through playwright-core, as sites.spec.mjs
// does. It assumes a crawled project whose site graph has links between
// sites (a crawl of the demo web will do). It runs the norm-leak experiment
// (the fast one) and waits for its plot, and the comparison of the
// project's editorial and all-links graphs and checks its tables against
// the files the server wrote; then finds 3 communities, checks
// the cores and the graph picture, unchecks a seed, adds one by hand, and
// downloads the list as txt through the page (collections.spec.mjs tests
// what is kept of these edits). Screenshots go to
// SCREENSHOT_DIR (default e2e/out/). It prints "N passed, M failed" and
// exits non-zero when anything failed.

import { readFileSync } from 'node:fs';
import { TIMEOUT, addLibrarian, answered, assert, harness } from './harness.mjs';

/** The norm-leak experiment takes well under a second; the margin is for a loaded CI machine. */
const LAB_TIMEOUT = 120_000;
// A seed of our own, so the check cannot pass on a URL the project happens to hold.
const ADDED = `http://e2e-${process.pid}-${Date.now().toString(36)}.test/`;

const { base, state, step, need, launch, shot, finish } = harness('lab-communities.spec');

/** apiCall matches a response (or, with request, a request) to METHOD /path. */
const apiCall = (method, path) => (r) => {
  const req = typeof r.request === 'function' ? r.request() : r;
  return new URL(r.url()).pathname === path && req.method() === method;
};

const { browser, context, page, pageErrors } = await launch({ acceptDownloads: true });
// A run of the extractor is saved under the librarian's name: a librarian of the project, kept for it as the top
// bar's chooser keeps one.
const projectId = await addLibrarian(page, base, 'e2e-lab');
await context.addInitScript(([p, n]) => {
  localStorage.setItem('sitesift.project', p);
  localStorage.setItem(`sitesift.librarian.${p}`, n);
}, [projectId, 'e2e-lab']);
await page.reload();

try {
  await step('navigation links to Lab and Communities', async () => {
    await page.goto(`${base}#/sites`);
    await page.waitForSelector('nav a[data-nav="communities"]');
    // Lab is research, not a step of the job: it is under the navigation's More menu.
    await page.click('nav #nav-more');
    await page.click('nav a[data-nav="lab"]');
    await page.waitForSelector('ss-lab section.lab-card');
    const exps = await page.locator('ss-lab section.lab-card').evaluateAll((s) => s.map((e) => e.dataset.experiment));
    assert(
      ['convergence', 'windows', 'normleak', 'links'].every((e) => exps.includes(e)),
      `the Lab page shows the experiments ${JSON.stringify(exps)}, want convergence, windows, normleak and links`,
    );
  });

  await step('the norm-leak experiment runs and its plot appears', async () => {
    const card = page.locator('#lab-normleak');
    // A plot left from an earlier run in this tab would make the check pass by itself.
    const prev = card.locator('figure.lab-result');
    const before = (await prev.count()) ? await prev.getAttribute('data-job') : null;
    const started = page.waitForResponse(apiCall('POST', '/api/lab/normleak'));
    await card.locator('button.lab-run').click();
    const res = await answered(started, 'POST /api/lab/normleak');
    const id = String((await res.json()).data.id);
    assert(id && id !== before, `the job id "${id}" is not new`);
    try {
      await page.waitForSelector(`#lab-normleak figure.lab-result[data-job="${id}"] img.lab-plot`, { timeout: LAB_TIMEOUT });
    } catch {
      const err = await card.locator('.alert').allInnerTexts();
      throw new Error(`no plot of job ${id} after ${LAB_TIMEOUT / 1000} s${err.length ? `; the card says: ${err.join(' | ')}` : ''}`);
    }
    const img = card.locator('img.lab-plot');
    await page.waitForFunction((el) => el.complete, await img.elementHandle());
    const { src, w, h } = await img.evaluate((el) => ({ src: el.getAttribute('src'), w: el.naturalWidth, h: el.naturalHeight }));
    assert(src.startsWith('data:image/svg+xml'), `the plot's source is ${src.slice(0, 40)}…, want an SVG data URL`);
    const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
    assert(/<svg[\s>]/.test(svg), 'the plot is not SVG markup');
    assert(w > 0 && h > 0, `the plot did not decode as an image (natural size ${w}×${h})`);
    const csv = card.locator('a.lab-csv');
    assert((await csv.count()) === 1, 'no CSV download link next to the plot');
    assert((await csv.getAttribute('download')) === 'normleak.csv', 'the CSV link does not download normleak.csv');
    const served = await page.evaluate(async (u) => (await fetch(u)).text(), `/api/lab/jobs/${encodeURIComponent(id)}/csv`);
    const first = served.split('\n')[0];
    assert(first.includes(','), `the job's CSV starts with "${first}", want a header row`);
    console.log(`      job ${id}: plot ${w}×${h}, ${svg.length} bytes of SVG; CSV header: ${first}`);
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'lab');
  });

  await step('the links comparison sets both graphs\' top sites side by side, with the files of `sitesift lab links`', async () => {
    const card = page.locator('#lab-links');
    const prev = card.locator('figure.lab-result');
    const before = (await prev.count()) ? await prev.getAttribute('data-job') : null;
    await card.locator('#lab-links-top').fill('8');
    const started = page.waitForResponse(apiCall('POST', '/api/lab/links'));
    await card.locator('button.lab-run').click();
    const res = await answered(started, 'POST /api/lab/links');
    assert(res.request().postDataJSON().top === 8, `the request sent ${res.request().postData()}, want top 8`);
    const id = String((await res.json()).data.id);
    assert(id && id !== before, `the job id "${id}" is not new`);
    try {
      await page.waitForSelector(`#lab-links figure.lab-result[data-job="${id}"] table.links-top`, { timeout: LAB_TIMEOUT });
    } catch {
      const err = await card.locator('.alert').allInnerTexts();
      throw new Error(`no tables of job ${id} after ${LAB_TIMEOUT / 1000} s${err.length ? `; the card says: ${err.join(' | ')}` : ''}`);
    }
    const served = async (name) => page.evaluate(async (u) => (await fetch(u)).text(), `/api/lab/jobs/${encodeURIComponent(id)}/files/${name}`);
    const rowsOf = (text) => text.trim().split('\n').map((l) => l.split(','));
    const top = rowsOf(await served('links-top.csv'));
    assert(top[0].join(',') === 'place,editorial_site,editorial_pagerank,its_place_on_all_links,all_links_site,all_links_pagerank,its_place_on_editorial_links',
      `links-top.csv starts with ${top[0]}`);
    const shown = await card.locator('table.links-top tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('[data-graph="editorial"]').textContent.trim(), tr.querySelector('[data-graph="all"]').textContent.trim()]));
    assert(shown.length === top.length - 1 && shown.length >= 2 && shown.length <= 8, `${shown.length} places listed, links-top.csv has ${top.length - 1}`);
    for (const [i, [ed, all]] of shown.entries()) {
      assert(ed === top[i + 1][1] && all === top[i + 1][4], `place ${i + 1} shows ${ed} | ${all}, the file ${top[i + 1][1]} | ${top[i + 1][4]}`);
    }
    const summary = Object.fromEntries(rowsOf(await served('links-summary.csv')).slice(1));
    for (const key of ['spearman', 'kendall_tau']) {
      const dd = (await card.locator(`dd[data-measure="${key}"]`).innerText()).trim();
      assert(dd === Number(summary[key]).toFixed(3), `${key}: the card says ${dd}, the file ${summary[key]}`);
    }
    const overlap = (await card.locator('dd[data-measure="top_k_overlap"]').innerText()).trim();
    const k = Number(summary.top_k);
    assert(overlap === `${Math.round(k * Number(summary.top_k_overlap))} of ${k}`, `top-K overlap: the card says ${overlap}, the file ${summary.top_k_overlap} of ${k}`);
    const names = await card.locator('a.lab-csv').evaluateAll((as) => as.map((a) => a.getAttribute('download')));
    assert(JSON.stringify(names) === JSON.stringify(['links-top.csv', 'links-sites.csv', 'links-summary.csv']), `the CSV downloads are ${JSON.stringify(names)}`);
    const download = page.waitForEvent('download');
    await card.locator('a.lab-csv[data-file="links-sites.csv"]').click();
    const dl = await download;
    const sitesCSV = readFileSync(await dl.path(), 'utf8');
    assert(dl.suggestedFilename() === 'links-sites.csv' && sitesCSV === (await served('links-sites.csv')),
      `the downloaded ${dl.suggestedFilename()} differs from the job's links-sites.csv`);
    assert(rowsOf(sitesCSV).length - 1 === Number(summary.sites), `links-sites.csv lists ${rowsOf(sitesCSV).length - 1} sites, the summary ${summary.sites}`);
    console.log(`      job ${id}: ${summary.sites} sites, Spearman ${summary.spearman}, Kendall ${summary.kendall_tau}, top ${summary.top_k} shared ${summary.top_k_overlap}; first ${shown[0].join(' | ')}`);
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'lab-links');
  });

  await step('communities with K=3 lists at least one core', async () => {
    await page.click('nav a[data-nav="communities"]');
    await page.waitForSelector('#communities-count');
    await page.fill('#communities-count', '3');
    const got = page.waitForResponse(apiCall('POST', '/api/collections'));
    await page.click('#communities-run');
    const res = await answered(got, 'POST /api/collections');
    const sent = res.request().postDataJSON();
    assert(sent.count === 3, `the request sent ${JSON.stringify(sent)}, want count 3`);
    const cores = (await res.json()).data.communities ?? [];
    await page.waitForSelector('ol.core-list li.core');
    const shown = await page.locator('ol.core-list li.core').evaluateAll((li) => li.map((e) => e.dataset.seed));
    assert(shown.length >= 1 && shown.length <= 3, `${shown.length} cores listed, want 1 to 3`);
    assert(
      JSON.stringify(shown) === JSON.stringify(cores.map((c) => c.seed)),
      `listed seeds ${JSON.stringify(shown)} differ from the API's ${JSON.stringify(cores.map((c) => c.seed))}`,
    );
    const hubs = await page.locator('ol.core-list li.core').first().locator('details[data-kind="hubs"] li a').count();
    assert(hubs === (cores[0].hubs ?? []).length, `the first core lists ${hubs} hubs, the API gives ${(cores[0].hubs ?? []).length}`);
    state.seeds = shown;
  });

  await step('the site graph is drawn', async () => {
    const box = page.locator('.graph-canvas');
    await page.waitForSelector('.graph-canvas[data-nodes]', { timeout: 30_000 });
    const nodes = Number(await box.getAttribute('data-nodes'));
    assert(nodes > 1, `the graph has ${nodes} nodes`);
    // Cytoscape draws on canvases; wait until one of them has coloured pixels.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.graph-canvas canvas')].some((c) => {
          if (!c.width || !c.height) return false;
          const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
          if (!d) return false;
          for (let i = 3; i < d.length; i += 4 * 7) if (d[i] > 0) return true;
          return false;
        }),
      undefined,
      { timeout: TIMEOUT },
    );
    const links = Number(await box.getAttribute('data-links'));
    console.log(`      graph: ${nodes} sites, ${links} links`);
    await shot(page, 'communities');
  });

  await step('an unchecked seed is left out of the txt export', async () => {
    const seeds = need('seeds', 'the listed seeds');
    const out = seeds[0];
    await page.fill('#seed-add', ADDED);
    await page.click('#seed-add-button');
    await page.waitForSelector(`.added-seeds li[data-seed="${ADDED}"]`);
    await page.locator('ol.core-list li.core').first().locator('input.seed-toggle').uncheck();
    assert(await page.locator('ol.core-list li.core').first().evaluate((e) => e.classList.contains('off')), 'the unchecked core is not marked off');
    // The download must come after the uncheck is saved.
    await page.waitForSelector('.collection-head .saved');
    const href = await page.getAttribute('a[data-export="txt"]', 'href');
    assert(/^\/api\/collections\/\d+\/seeds\.txt$/.test(href), `the txt link goes to ${href}`);
    const download = page.waitForEvent('download');
    await page.click('a[data-export="txt"]');
    const dl = await download;
    const file = readFileSync(await dl.path(), 'utf8');
    const lines = file.split('\n').map((l) => l.trim()).filter(Boolean);
    assert(!lines.includes(out), `the downloaded ${dl.suggestedFilename()} still holds the unchecked seed ${out}`);
    assert(lines.includes(ADDED), `the downloaded ${dl.suggestedFilename()} lacks the added seed ${ADDED}: ${JSON.stringify(lines)}`);
    for (const s of seeds.slice(1)) assert(lines.includes(s), `the downloaded file lacks the checked seed ${s}`);
    assert(lines.length === seeds.length, `the file has ${lines.length} lines, want ${seeds.length} (${seeds.length - 1} checked + 1 added)`);
    console.log(`      ${dl.suggestedFilename()}: ${lines.length} seeds, without ${out}`);
    await shot(page, 'communities-export');
  });

  await step('no uncaught errors in the page', async () => {
    assert(pageErrors.length === 0, `${pageErrors.length} page error(s): ${pageErrors.join(' | ')}`);
  });
} finally {
  await browser.close();
}

finish();
