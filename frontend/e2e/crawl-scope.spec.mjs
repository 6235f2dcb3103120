// Browser end-to-end test of the crawl form's Scope group and the URLs a crawl
// leaves out, against a running `sitesift serve` on an empty project of its own
// (a crawl started here would otherwise go on with that project's frontier).
//
//   SITESIFT_URL=http://127.0.0.1:7779/ DEMO_PROXY=http://127.0.0.1:7778 \
//   DEMO_SEED=http://web-directory.test/ node e2e/crawl-scope.spec.mjs
//
//   DEMO_PROXY  the demo web's proxy (required)
//   DEMO_SEED   one seed of the demo web, a page that links to other hosts (required)
//
// A bad include expression is refused at its field; then a crawl of the seed's
// host only fetches that one site and says how many URLs it left out of scope.

import { answered, assert, crawlEnded, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('crawl-scope.spec');

const PROXY = process.env.DEMO_PROXY || '';
const SEED = process.env.DEMO_SEED || '';
if (!PROXY || !SEED) {
  console.error('crawl-scope.spec: set DEMO_PROXY and DEMO_SEED (the demo web: `sitesift demo-web`)');
  process.exit(2);
}

const { browser, page, pageErrors } = await launch();

/** get reads the data of one API call. */
async function get(path) {
  const res = await page.request.get(`${base}${path}`);
  assert(res.ok(), `GET /${path} answered HTTP ${res.status()}`);
  return (await res.json()).data;
}

/** startFromPage clicks Start crawl and returns the POST /api/crawl response. */
async function startFromPage(wantOK) {
  const started = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/crawl');
  started.catch(() => undefined);
  await page.click('#crawl-start');
  return answered(started, 'POST /api/crawl', wantOK);
}

try {
  await step('the Scope group offers the five scopes, each explained, and sends nothing by default', async () => {
    await page.goto(`${base}#/crawl`);
    await page.waitForSelector('#crawl-scope-group');
    const options = await page.locator('#crawl-scope option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    assert(JSON.stringify(options.map(([v]) => v)) === JSON.stringify(['any', 'domain', 'host', 'prefix', 'page']),
      `the scopes are ${JSON.stringify(options)}`);
    assert(options.every(([, label]) => label.includes(' — ')), `a scope without its explanation: ${JSON.stringify(options)}`);
    assert((await page.inputValue('#crawl-scope')) === 'any', 'the scope is not "any" on a fresh form');
    for (const sel of ['#crawl-max-hops', '#crawl-max-depth', '#crawl-include', '#crawl-exclude']) {
      assert((await page.locator(sel).count()) === 1, `no ${sel} field`);
    }
  });

  await step('a bad include expression is refused, its message shown at the field', async () => {
    await page.fill('#crawl-seeds', SEED);
    await page.fill('#crawl-proxy', PROXY);
    await page.fill('#crawl-include', '\n^http://ok\\.test/\n\n(unclosed\n');
    const res = await startFromPage(false);
    assert(res.status() === 400, `POST /api/crawl answered HTTP ${res.status()}, want 400`);
    const body = res.request().postDataJSON();
    assert(JSON.stringify(body.include) === JSON.stringify(['^http://ok\\.test/', '(unclosed']),
      `the request's include is ${JSON.stringify(body.include)} (empty lines must be left out)`);
    const serverMsg = (await res.json()).error;
    const msg = page.locator('#crawl-include-error');
    await msg.waitFor();
    const shown = await msg.innerText();
    assert(shown.includes('(unclosed') && shown === serverMsg, `the field's message reads "${shown}", the server's "${serverMsg}"`);
    await page.waitForFunction(() => document.activeElement?.id === 'crawl-include');
    assert((await page.locator('#crawl-exclude-error').count()) === 0, 'the message is shown at the exclude field too');
    assert((await get('api/crawl')).state === 'idle', 'a crawl started anyway');
    await shot(page, 'crawl-scope-bad-include');
    await page.fill('#crawl-include', '');
    await page.waitForSelector('#crawl-include-error', { state: 'detached' });
  });

  await step('a crawl with scope "host" sends the scope only, and the form is remembered', async () => {
    await page.selectOption('#crawl-scope', 'host');
    await page.fill('#crawl-max-pages', '12');
    await page.reload();
    await page.waitForSelector('#crawl-scope-group');
    assert((await page.inputValue('#crawl-scope')) === 'host', 'the scope was not remembered');
    assert((await page.inputValue('#crawl-seeds')) === SEED, 'the seed was not remembered');
    // A short delay, which this crawl carries and the project (the test's own) keeps.
    await page.waitForFunction(() => document.querySelector('#settings-delay-ms')?.value !== '');
    await page.fill('#settings-delay-ms', '20');
    const body = (await startFromPage(true)).request().postDataJSON();
    assert(body.scope === 'host', `the request's scope is ${JSON.stringify(body.scope)}`);
    for (const k of ['max_hops', 'max_depth', 'include', 'exclude']) {
      assert(!(k in body), `the request carried the default ${k}=${JSON.stringify(body[k])}`);
    }
    state.status = await crawlEnded(page, base, 60);
  });

  await step("the crawl fetched the seed's host only", async () => {
    const st = need('status', 'the crawl');
    assert(st.pages_ok > 0, `the crawl fetched no page fine (ended: ${st.end_reason})`);
    const ok = await get('api/sites?status=ok');
    const host = new URL(SEED).host.replace(/^www\./, '');
    const names = ok.rows.map((r) => r.site);
    assert(ok.total === 1 && names[0] === host, `sites fetched fine: ${JSON.stringify(names)} (total ${ok.total}), want only ${host}`);
  });

  await step('the status says how many URLs were left out of scope, with what each kind is', async () => {
    const st = need('status', 'the crawl');
    const n = st.dropped?.['out-of-scope'] ?? 0;
    assert(n > 0, `the API counts no URL out of scope: ${JSON.stringify(st.dropped)}`);
    const line = page.locator('#crawl-dropped');
    const want = `Left out: out of scope ${n.toLocaleString('en-US')}`;
    const read = () => line.evaluate((el) => el.textContent.replace(/\s+/g, ' ').trim()).catch(() => '');
    // The page follows the status feed, a moment behind the API.
    await page.waitForFunction((w) => document.querySelector('#crawl-dropped')?.textContent.replace(/\s+/g, ' ').trim().startsWith(w), want)
      .catch(async () => assert(false, `the line reads "${await read()}", want "${want}…"`));
    const tip = await line.locator('[data-dropped="out-of-scope"]').getAttribute('title');
    assert(/scope/i.test(tip ?? ''), `the out-of-scope count's tooltip reads "${tip}"`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'crawl-scope-left-out');
  });
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
