// Browser end-to-end test of an edge list imported from the Import page,
// against a running `sitesift serve` on an empty project of its own.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/edge-import.spec.mjs
//
// A small host graph with three bad lines (a comma for a dot, an address
// cut short, two dots in a row: the typos of real host graphs) is uploaded
// through the page. With "Refuse the whole file on any bad line" ticked it
// is refused, its bad lines named by number, and the project keeps no
// site; unticked, its good lines are imported and the page says how many
// sites and edges it added, how many lines it skipped and why, naming each
// by its number. A domain-graph CSV of the Archives Unleashed Toolkit is
// then imported beside it and named as such. It prints "N passed, M
// failed" and exits non-zero when anything failed.

import { assert, harness } from './harness.mjs';

/** An import of a few lines takes well under a second; the margin is for a loaded machine. */
const IMPORT_TIMEOUT = 60_000;

const MESSY = [
  '# a host graph with typos, as crawls of the 1990s have them',
  'www.bl.uk www.ox.ac.uk',
  'www,umass.edu www.bl.uk', // line 3: a comma for a dot
  'www.ox.ac.uk www.cam.ac.uk',
  'www.cam.ac.uk 194.131.191', // line 5: an address cut short
  'www.cam.ac.uk www.bl.uk 2',
  'www..igc.apc.org www.bl.uk', // line 7: two dots in a row
  '',
].join('\n');
const BAD = [3, 5, 7];

const DOMAIN_GRAPH = [
  'crawl_date,src_domain,dest_domain,count',
  '20080430,liberal.ca,youtube.com,11',
  '20081016,liberal.ca,youtube.com,7',
  '20080430,ndp.ca,liberal.ca,3',
  '20080430,ndp.ca,"bad domain",2', // line 5: no host name
  '',
].join('\n');

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('edge-import.spec');
const { browser, page, pageErrors } = await launch();

/** apiSites reads the project's site count from the API. */
async function apiSites() {
  const r = await page.request.get(`${base}api/project`);
  const { data } = await r.json();
  return data.sites;
}

/** uploadEdges sends a file through the page's upload control and waits for its path in the field. */
async function uploadEdges(name, text) {
  await page.setInputFiles('ss-import .import-upload input[type=file]', { name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction((n) => (document.querySelector('#import-edges')?.value ?? '').endsWith(n), name);
}

/** importEdges clicks Import and waits for the answer, returning the section that shows it. */
async function importEdges() {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/imports/edges', { timeout: IMPORT_TIMEOUT });
  await page.click('button.import-start');
  await answered;
  const section = page.locator('ss-import section.import-edges');
  await section.waitFor();
  return section;
}

/** lineNumbers reads the line numbers a list of lines names. */
async function lineNumbers(section) {
  return (await section.locator('ol.edge-lines li').evaluateAll((els) => els.map((e) => Number(e.dataset.line))));
}

try {
  await step('the Import page offers edge lists: a file chooser for their names and a checkbox to refuse a file with a bad line', async () => {
    await page.goto(`${base}#/import`);
    await page.waitForSelector('ss-import form.import-form');
    await page.check('ss-import input[name=import-kind][value=edges]');
    await page.waitForSelector('#import-edges');
    const accept = await page.getAttribute('ss-import .import-upload input[type=file]', 'accept');
    for (const ext of ['.txt', '.tsv', '.csv', '.graphml', '.gexf', '.gz']) assert(accept?.split(',').includes(ext), `the file chooser accepts "${accept}", not ${ext}`);
    assert(!(await page.isChecked('#import-strict')), 'the checkbox is ticked before anyone ticked it');
    state.page = true;
  });

  await step('ticked, the file with bad lines is refused, each named by its number, and the project keeps nothing', async () => {
    need('page', 'the Import page');
    await uploadEdges('messy-hosts.txt', MESSY);
    await page.check('#import-strict');
    const section = await importEdges();
    assert((await section.getAttribute('data-state')) === 'refused', `the answer is shown as ${await section.getAttribute('data-state')}: ${await section.innerText()}`);
    const text = await section.innerText();
    assert(/3 bad lines, nothing imported/.test(text), `the refusal says "${text}"`);
    const lines = await lineNumbers(section);
    assert(JSON.stringify(lines) === JSON.stringify(BAD), `the refusal names lines ${lines}, want ${BAD}`);
    assert(/no host name/.test(text), `the refusal does not say what is wrong: "${text}"`);
    const sites = await apiSites();
    assert(sites === 0, `the project holds ${sites} sites after a refused file`);
    await shot(page, 'edge-import-refused');
  });

  await step('unticked, the good lines are imported and the page counts sites, edges and the lines skipped, named and why', async () => {
    need('page', 'the Import page');
    await page.uncheck('#import-strict');
    const section = await importEdges();
    assert((await section.getAttribute('data-state')) === 'done', `the answer is shown as ${await section.getAttribute('data-state')}: ${await section.innerText()}`);
    const count = async (k) => Number((await section.locator(`[data-count="${k}"]`).innerText()).replaceAll(',', ''));
    const [sites, edges, skipped] = [await count('sites'), await count('edges'), await count('skipped')];
    assert(sites === 3 && edges === 3 && skipped === 3, `the page says ${sites} sites, ${edges} edges, ${skipped} skipped; want 3, 3 and 3`);
    const format = await section.locator('.edge-format').innerText();
    assert(format === 'edge list', `the file is said to be "${format}"`);
    const lines = await lineNumbers(section);
    assert(JSON.stringify(lines) === JSON.stringify(BAD), `the page names lines ${lines}, want ${BAD}`);
    const why = await section.locator('.edge-why').innerText();
    assert(/2 lines: the source name is no host name/.test(why) && /1 line: the target name is no host name/.test(why), `the reasons read "${why}"`);
    const api = await apiSites();
    assert(api === 3, `the project holds ${api} sites, want 3`);
    await page.waitForFunction(() => /\b3 sites\b/.test(document.querySelector('ss-app .topbar .counts')?.textContent ?? ''), null, { timeout: 10_000 });
    await shot(page, 'edge-import-done');
    state.imported = true;
  });

  await step('a reload keeps the form: edge list chosen, its path, the checkbox unticked', async () => {
    need('imported', 'the import');
    await page.reload();
    await page.waitForSelector('#import-edges');
    const v = await page.inputValue('#import-edges');
    assert(v.endsWith('messy-hosts.txt'), `the path field holds "${v}" after a reload`);
    assert(!(await page.isChecked('#import-strict')), 'the checkbox is ticked after a reload');
  });

  await step('a domain-graph CSV of the Archives Unleashed Toolkit is recognised, its pairs summed over crawl dates, its bad record named', async () => {
    need('imported', 'the import');
    await uploadEdges('domain-graph.csv', DOMAIN_GRAPH);
    const section = await importEdges();
    const text = await section.innerText();
    assert((await section.getAttribute('data-state')) === 'done', `the answer: ${text}`);
    const format = await section.locator('.edge-format').innerText();
    assert(/domain-graph CSV/.test(format), `the file is said to be "${format}"`);
    const edges = Number(await section.locator('[data-count="edges"]').innerText());
    assert(edges === 2, `the page says ${edges} edges, want 2 (liberal.ca → youtube.com over two dates, ndp.ca → liberal.ca)`);
    const lines = await lineNumbers(section);
    assert(JSON.stringify(lines) === '[5]', `the page names lines ${lines}, want [5]`);
    const api = await apiSites();
    assert(api === 6, `the project holds ${api} sites, want 6`);
    await shot(page, 'edge-import-domain-graph');
  });
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
