// Browser end-to-end test of the Projects page, against a running
// `sitesift serve --projects DIR` with one crawled project in DIR and none
// open.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ DEMO_PROXY=http://127.0.0.1:7778 DEMO_SEED=http://a.test/ \
//     CRAWLED=news node e2e/projects.spec.mjs
//
//   CRAWLED     the name of the crawled project in DIR (required)
//   DEMO_PROXY  the demo web's proxy and DEMO_SEED one of its sites: the new
//               project's first crawl (both required)
//
// The page opens on Projects with no project open, lists the crawled one;
// a bad name is refused in words; a new project is created by name and
// opens empty on its Crawl page, where a crawl from a seed starts and
// fetches pages; the crawled project is opened again from the list; a
// switch while the crawl runs would be refused (checked by the Go tests).

import { answered, assert, crawlEnded, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('projects.spec');
const { CRAWLED, DEMO_PROXY: PROXY, DEMO_SEED: SEED } = process.env;
if (!CRAWLED || !PROXY || !SEED) {
  console.error('projects.spec: set CRAWLED, DEMO_PROXY and DEMO_SEED');
  process.exit(2);
}
const NAME = `fresh-${process.pid}`;

const { browser, page, pageErrors } = await launch();

await step('with no project open the app shows the Projects page and lists the folder', async () => {
  await page.goto(`${base}`);
  await page.waitForSelector('#folder-projects');
  assert(page.url().endsWith('#/projects'), `the app is at ${page.url()}, want #/projects`);
  const names = await page.locator('#folder-projects [data-project] .pname').allInnerTexts();
  assert(names.includes(CRAWLED), `listed ${names.join(', ')}, want ${CRAWLED}`);
  const top = await page.locator('header .project').innerText();
  assert(top.includes('Projects') && top.includes('no project open'), `the top bar says "${top}"`);
  await shot(page, 'projects-folder');
});

await step('a name with a path is refused in words, and nothing is created', async () => {
  await page.fill('#project-name', '../escape');
  const res = page.waitForResponse((r) => r.url().endsWith('/api/projects/create'));
  await page.click('#project-create');
  const r = await answered(res, 'POST /api/projects/create', false);
  assert(r.status() === 400, `status ${r.status()}, want 400`);
  const alert = await page.locator('.alert').first().innerText();
  assert(alert.includes('..'), `the page says "${alert}"`);
});

await step('a new project is created by name and opens empty on its Crawl page', async () => {
  await page.fill('#project-name', NAME);
  await page.click('#project-create');
  await page.waitForURL(/#\/crawl$/);
  await page.waitForSelector('#crawl-seeds');
  const info = (await (await page.request.get(`${base}api/project`)).json()).data;
  assert(info.name === NAME && info.pages === 0 && info.sites === 0, `GET /api/project: ${JSON.stringify(info)}`);
  await page.locator(`header .project .switch[data-project-name="${NAME}"]`).waitFor();
  await shot(page, 'projects-new-crawl');
  state.created = true;
});

await step("the new project's Crawl page starts a crawl from a seed and fetches pages", async () => {
  need('created', 'the new project');
  await page.fill('#crawl-seeds', SEED);
  await page.fill('#crawl-max-pages', '8');
  await page.fill('#crawl-proxy', PROXY);
  const started = page.waitForResponse((r) => r.url().endsWith('/api/crawl') && r.request().method() === 'POST');
  await page.click('#crawl-start');
  await answered(started, 'POST /api/crawl');
  const st = await crawlEnded(page, base, 60);
  assert(st.pages > 0, `the crawl fetched ${st.pages} pages: ${JSON.stringify(st)}`);
  state.crawled = true;
});

await step('the crawled project opens again from the Projects page, through the top bar', async () => {
  need('crawled', 'the new project crawled');
  await page.click('header a.project');
  await page.waitForSelector('#folder-projects');
  const row = page.locator(`#folder-projects [data-project="${NAME}"]`);
  assert((await row.locator('.badge').innerText()).trim().toLowerCase() === 'open', 'the new project is not marked open');
  await page.locator(`#folder-projects [data-project="${CRAWLED}"] button`).click();
  await page.waitForURL(/#\/sites/);
  await page.locator(`header .project .switch[data-project-name="${CRAWLED}"]`).waitFor();
  const info = (await (await page.request.get(`${base}api/project`)).json()).data;
  assert(info.name === CRAWLED && info.sites > 0, `GET /api/project: ${JSON.stringify(info)}`);
  await page.waitForSelector('tr[data-site]');
  await page.goto(`${base}#/projects`);
  await page.waitForSelector('#folder-projects');
  await shot(page, 'projects-switched');
});

await closeChecked(browser, pageErrors);
finish();
