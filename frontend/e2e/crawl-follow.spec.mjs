// Browser end-to-end test of which links a crawl follows to other sites,
// against a running `sitesift serve` on an empty project of its own.
//
//   SITESIFT_URL=http://127.0.0.1:7779/ DEMO_PROXY=http://127.0.0.1:7778 \
//   DEMO_SEEDS="http://web-directory.test/ http://news-aggregator.test/" node e2e/crawl-follow.spec.mjs
//
//   DEMO_PROXY  the demo web's proxy (required)
//   DEMO_SEEDS  seeds of the demo web, separated by spaces (required)
//
// The Crawl form offers Editorial (the default) and All; a crawl sends its
// choice, and its status says how many template links to how many sites it
// did not follow, as the API counts them.

import { answered, assert, crawlEnded, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('crawl-follow.spec');

const PROXY = process.env.DEMO_PROXY || '';
const SEEDS = (process.env.DEMO_SEEDS || '').split(/\s+/).filter(Boolean);
if (!PROXY || SEEDS.length === 0) {
  console.error('crawl-follow.spec: set DEMO_PROXY and DEMO_SEEDS (the demo web: `sitesift demo-web`)');
  process.exit(2);
}

const { browser, page, pageErrors } = await launch();

try {
  await step('the form offers editorial and all links, editorial chosen, each explained', async () => {
    await page.goto(`${base}#/crawl`);
    await page.waitForSelector('#crawl-follow');
    const options = await page.locator('#crawl-follow option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    assert(JSON.stringify(options.map(([v]) => v)) === JSON.stringify(['editorial', 'all']), `the choices are ${JSON.stringify(options)}`);
    assert(options.every(([, label]) => label.includes(' — ')), `a choice without its explanation: ${JSON.stringify(options)}`);
    assert((await page.inputValue('#crawl-follow')) === 'editorial', 'editorial is not chosen on a fresh form');
  });

  await step('a crawl sends follow: editorial', async () => {
    await page.fill('#crawl-seeds', SEEDS.join('\n'));
    await page.fill('#crawl-proxy', PROXY);
    await page.fill('#crawl-max-pages', '40');
    await page.waitForFunction(() => document.querySelector('#settings-delay-ms')?.value !== '');
    await page.fill('#settings-delay-ms', '10');
    const started = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/crawl');
    started.catch(() => undefined);
    await page.click('#crawl-start');
    const res = await answered(started, 'POST /api/crawl', true);
    const body = res.request().postDataJSON();
    assert(body.follow === 'editorial', `the request's follow is ${JSON.stringify(body.follow)}`);
    state.status = await crawlEnded(page, base, 90);
  });

  await step('the status says how many template links to how many sites it did not follow', async () => {
    const st = need('status', 'the crawl');
    assert(st.follow === 'editorial', `the status's follow is ${JSON.stringify(st.follow)}`);
    const links = st.template_links_left_out ?? 0;
    const sites = st.template_sites_left_out ?? 0;
    assert(links > 0 && sites > 0 && sites <= links, `the API counts ${links} template links to ${sites} sites left out`);
    const want = `Not followed: ${links.toLocaleString('en-US')} template ${links === 1 ? 'link' : 'links'} to ${sites.toLocaleString('en-US')} ${sites === 1 ? 'site' : 'sites'}`;
    const read = () => page.locator('#crawl-template-left-out').evaluate((el) => el.textContent.replace(/\s+/g, ' ').trim()).catch(() => '');
    await page.waitForFunction((w) => document.querySelector('#crawl-template-left-out')?.textContent.replace(/\s+/g, ' ').trim().startsWith(w), want)
      .catch(async () => assert(false, `the line reads "${await read()}", want "${want}…"`));
    await page.locator('.status-panel').scrollIntoViewIfNeeded();
    await shot(page, 'crawl-follow-left-out');
  });

  await step('the choice of all is remembered with the form', async () => {
    await page.selectOption('#crawl-follow', 'all');
    await page.reload();
    await page.waitForSelector('#crawl-follow');
    assert((await page.inputValue('#crawl-follow')) === 'all', 'the choice of all was not remembered');
  });
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
