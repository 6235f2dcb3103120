// Browser end-to-end test of a recrawl, against a running `sitesift serve`
// on a project crawled from the demo web.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ DEMO_PROXY=http://127.0.0.1:7778 node e2e/recrawl.spec.mjs
//
//   DEMO_PROXY  the demo web's proxy, which the recrawl goes through (required)
//
// It clicks Recrawl on the Crawl page and checks that the recrawl says what
// it found (the demo web does not change: every page revisited is
// unchanged) and which sites moved, that a site page then shows its
// importance over the crawls — the first crawl and this recrawl — and that a
// reload keeps both. It adds one recrawl to the project.

import { answered, assert, crawlEnded, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('recrawl.spec');
const PROXY = process.env.DEMO_PROXY;
if (!PROXY) {
  console.error('recrawl.spec: set DEMO_PROXY to the demo web proxy the project was crawled through');
  process.exit(2);
}

const { browser, page, pageErrors } = await launch();

await step('Recrawl button starts a recrawl of the project', async () => {
  const before = await (await page.request.get(`${base}api/crawl`)).json();
  state.round = (before.data.recrawl?.round ?? 0) + 1;
  await page.goto(`${base}#/crawl`);
  await page.fill('#crawl-proxy', PROXY);
  const started = page.waitForResponse((r) => r.url().endsWith('/api/crawl/recrawl') && r.request().method() === 'POST');
  await page.click('#crawl-recrawl');
  const res = await answered(started, 'POST /api/crawl/recrawl');
  const st = (await res.json()).data;
  assert(st.recrawl && st.recrawl.revisit > 0, `the recrawl revisits ${st.recrawl?.revisit} pages`);
  state.revisit = st.recrawl.revisit;
});

await step('the recrawl ends and says what it found: every page unchanged', async () => {
  need('revisit', 'the recrawl');
  const st = await crawlEnded(page, base, 90);
  const r = st.recrawl;
  assert(r && r.finished, `recrawl not finished: ${JSON.stringify(r)}`);
  assert(r.round === state.round, `round ${r.round}, want ${state.round}`);
  assert(r.unchanged === state.revisit && r.changed === 0 && r.gone === 0, `counts ${JSON.stringify(r)}`);
  // The page follows the status stream: it says the sites that moved once it saw the end.
  const line = page.locator('#crawl-recrawl-report', { hasText: 'Importance moved most' });
  await line.waitFor();
  const text = await line.innerText();
  assert(text.includes(`Recrawl ${r.round}`) && text.includes(`${r.unchanged} unchanged`), `the report reads "${text}"`);
  assert(text.includes('Importance moved most'), `no sites moved in "${text}"`);
  state.site = r.moved[0].site;
  await shot(page, 'recrawl-crawl-page');
});

await step('the site page shows the importance over the crawls, kept after a reload', async () => {
  const site = need('site', 'a site the recrawl moved');
  await page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
  for (const reload of [false, true]) {
    if (reload) await page.reload();
    const panel = page.locator('#site-recrawls');
    await panel.waitFor();
    const rows = await panel.locator('tbody tr').count();
    assert(rows === state.round + 1, `${rows} crawls listed, want ${state.round + 1} (the first crawl and each recrawl)`);
    assert(await panel.locator('svg.sparkline').count() === 1, 'no chart of the importance over the crawls');
    const last = await panel.locator(`tr[data-round="${state.round}"]`).innerText();
    assert(last.includes(`recrawl ${state.round}`), `last row reads "${last}"`);
  }
  await shot(page, 'recrawl-site-page', true);
});

await step('the Crawl page still says what the recrawl found after a reload', async () => {
  need('site', 'the recrawl');
  await page.goto(`${base}#/crawl`);
  await page.reload();
  const line = page.locator('#crawl-recrawl-report');
  await line.waitFor();
  assert((await line.innerText()).includes(`Recrawl ${state.round}`), 'the recrawl report is gone after a reload');
});

await step('the window policy is saved at once, kept after a reload, a bad size refused', async () => {
  await page.goto(`${base}#/crawl`);
  const select = page.locator('#recrawl-window');
  // The select shows the default, disabled, until the settings are loaded.
  await page.locator('#recrawl-window:enabled').waitFor();
  assert((await select.inputValue()) === 'variable', `the default window is ${await select.inputValue()}`);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
  await select.selectOption('fixed');
  await answered(saved, 'PUT /api/settings');
  await page.reload();
  await page.locator('#recrawl-window:enabled').waitFor();
  assert((await page.locator('#recrawl-window').inputValue()) === 'fixed', 'the window went back after a reload');
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
  await page.fill('#recrawl-window-size', '0');
  await page.locator('#recrawl-window-size').dispatchEvent('change');
  await answered(refused, 'PUT /api/settings', false);
  await page.locator('.recrawl-window', { hasText: 'window size 0 must lie in 1..100' }).waitFor();
  const settings = (await (await page.request.get(`${base}api/settings`)).json()).data;
  assert(settings.window === 'fixed' && settings.window_size === 1, `settings after the refusal: ${JSON.stringify(settings)}`);
  const back = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
  await page.locator('#recrawl-window').selectOption('variable');
  await answered(back, 'PUT /api/settings');
});

await closeChecked(browser, pageErrors);
finish();
