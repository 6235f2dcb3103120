// Browser end-to-end test of the crawl's WACZ file against a running
// `sitesift serve` on a crawled project.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/wacz.spec.mjs
//
// It downloads PROJECT-crawl.wacz from the Export page's WACZ card, reads the
// ZIP with a reader of its own (every entry stored, pages.jsonl's header and a
// page with a title), then serves ReplayWeb.page (the replaywebpage package's
// ui.js and sw.js, under /replay/) and the WACZ file, with byte ranges, from
// a local origin of its own, embeds <replay-web-page source=… url=…> there
// and waits for the captured page to be replayed with its title. With
// IMPORTED_URL, a `sitesift serve` of a project made by importing a link
// graph, it checks that the card says there is nothing to package and offers
// no file. It prints "N passed, M failed" and exits non-zero when anything
// failed.
//
//   REPLAYWEBPAGE_DIR  the replaywebpage package (default node_modules/replaywebpage)
//   IMPORTED_URL       optional: a project with no captures

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, harness } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RWP = resolve(process.env.REPLAYWEBPAGE_DIR || join(here, '..', 'node_modules', 'replaywebpage'));
/** ReplayWeb.page loads the WACZ file's index into the browser before it replays: seconds on a loaded machine. */
const REPLAY_TIMEOUT = 90_000;

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('wacz.spec');
if (!existsSync(join(RWP, 'ui.js')) || !existsSync(join(RWP, 'sw.js'))) {
  console.error(`wacz.spec: no ui.js and sw.js in ${RWP}: run npm ci in frontend/ (replaywebpage is a dev dependency)`);
  process.exit(2);
}

/**
 * zipEntries reads a ZIP file's central directory and returns its entries by
 * name, each with its method and its data (the stored bytes).
 */
function zipEntries(buf) {
  let end = buf.length - 22;
  while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end--;
  assert(end >= 0, 'no end of central directory: not a ZIP file');
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const out = new Map();
  for (let i = 0; i < count; i++) {
    assert(buf.readUInt32LE(p) === 0x02014b50, `central directory entry ${i + 1} at byte ${p} has no signature`);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const at = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.set(name, { method, data: buf.subarray(at, at + size) });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** serveReplay serves ReplayWeb.page and the WACZ file wacz from 127.0.0.1 and resolves to its address. */
function serveReplay(wacz, pageURL) {
  const files = {
    '/replay/ui.js': ['application/javascript', readFileSync(join(RWP, 'ui.js'))],
    '/replay/sw.js': ['application/javascript', readFileSync(join(RWP, 'sw.js'))],
    '/crawl.wacz': ['application/wacz', wacz],
    '/': [
      'text/html; charset=utf-8',
      Buffer.from(`<!doctype html>
<html><head><meta charset="utf-8"><title>WACZ replay</title>
<script src="/replay/ui.js"></script>
<style>body { margin: 0 } replay-web-page { display: block; width: 100vw; height: 100vh }</style></head>
<body><script type="module">
// The element's frame, loaded before the worker controls /replay/, would
// show this server's 404 instead of the replay: the worker is registered
// (the same script URL and scope as the element's own registration) and
// active first, as the app's Captured panel does.
const reg = await navigator.serviceWorker.register('/replay/sw.js?serveIndex=1', { scope: '/replay/' });
const sw = reg.installing ?? reg.waiting;
if (!reg.active && sw) {
  await new Promise((ok) => sw.addEventListener('statechange', () => sw.state === 'activated' && ok()));
}
const el = document.createElement('replay-web-page');
el.setAttribute('source', '/crawl.wacz');
el.setAttribute('url', ${JSON.stringify(pageURL)});
el.setAttribute('replayBase', '/replay/');
document.body.append(el);
</script></body></html>`),
    ],
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const f = files[path];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    const [type, body] = f;
    const headers = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' };
    if (path.startsWith('/replay/')) headers['Service-Worker-Allowed'] = '/replay/';
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (m) {
      const start = m[1] === '' ? body.length - Number(m[2]) : Number(m[1]);
      const last = m[1] === '' || m[2] === '' ? body.length - 1 : Math.min(Number(m[2]), body.length - 1);
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${last}/${body.length}`, 'Content-Length': last - start + 1 });
      res.end(req.method === 'HEAD' ? undefined : body.subarray(start, last + 1));
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

const { browser, context, page, pageErrors } = await launch({ acceptDownloads: true });

await step('the Export page offers the crawl as PROJECT-crawl.wacz, with its captures, and it downloads', async () => {
  await page.goto(`${base}#/export`);
  const link = page.locator('ss-wacz-export a[data-export="wacz"]');
  await link.waitFor();
  const name = await link.getAttribute('download');
  assert(/-crawl\.wacz$/.test(name ?? ''), `the link's file is ${name}`);
  const holds = await page.locator('ss-wacz-export .wacz-holds').innerText();
  assert(/[1-9][\d,]* captures/.test(holds), `the card says "${holds}"`);
  await link.scrollIntoViewIfNeeded();
  await shot(page, 'wacz-card');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert(download.suggestedFilename() === name, `downloaded as ${download.suggestedFilename()}, the link says ${name}`);
  const path = join(mkdtempSync(join(tmpdir(), 'wacz-spec-')), name);
  await download.saveAs(path);
  state.wacz = readFileSync(path);
});

await step('the WACZ file holds its WARC files stored, datapackage.json and pages.jsonl with titled pages', async () => {
  const entries = zipEntries(need('wacz', 'the WACZ file'));
  for (const [name, e] of entries) assert(e.method === 0, `${name} is compressed (method ${e.method}); every entry should be stored`);
  assert([...entries.keys()].some((n) => /^archive\/.+\.warc\.gz$/.test(n)), `no archive/*.warc.gz in ${[...entries.keys()]}`);
  const dp = JSON.parse(entries.get('datapackage.json').data.toString());
  assert(dp.wacz_version === '1.1.1' && dp.profile === 'data-package', `datapackage.json: ${JSON.stringify(dp).slice(0, 200)}`);
  const lines = entries.get('pages/pages.jsonl').data.toString().trim().split('\n');
  assert(lines[0] === '{"format":"json-pages-1.0","id":"pages","title":"All Pages"}', `pages.jsonl starts with ${lines[0]}`);
  const pages = lines.slice(1).map((l) => JSON.parse(l));
  // A site's home page: the demo web's home pages have a title of their own.
  const home = pages.find((p) => p.title && new URL(p.url).pathname === '/');
  assert(home, `no home page with a title among ${pages.length} pages`);
  state.page = home;
});

await step("ReplayWeb.page replays the WACZ file from a local origin and shows the captured page's title", async () => {
  const target = need('page', 'a captured page');
  const { server, url } = await serveReplay(need('wacz', 'the WACZ file'), target.url);
  try {
    const replay = await context.newPage();
    replay.on('pageerror', (err) => pageErrors.push(`replay: ${err.message}`));
    await replay.goto(url);
    // The archived page is replayed in a frame of ReplayWeb.page's own frame,
    // at /replay/w/COLLECTION/TIMESTAMPmp_/URL.
    const until = Date.now() + REPLAY_TIMEOUT;
    let title = '';
    let frameURL = '';
    while (Date.now() < until) {
      const frame = replay.frames().find((f) => f.url().includes('mp_/' + target.url));
      if (frame) {
        frameURL = frame.url();
        title = await frame.title().catch(() => '');
        if (title === target.title) break;
      }
      await replay.waitForTimeout(250);
    }
    await shot(replay, 'wacz-replay');
    assert(frameURL, `no replay frame of ${target.url}; frames: ${replay.frames().map((f) => f.url()).join(' ')}`);
    assert(title === target.title, `the replayed ${target.url} is titled "${title}", want "${target.title}" (frame ${frameURL})`);
    const text = await replay.frames().find((f) => f.url() === frameURL).locator('body').innerText();
    assert(text.trim().length > 0, 'the replayed page has no text');
    console.log(`      replayed ${target.url} captured ${target.ts}: "${title}"`);
    await replay.close();
  } finally {
    server.close();
  }
});

if (process.env.IMPORTED_URL) {
  await step('a project of an imported link graph: the card says there is nothing to package, and the download is refused saying why', async () => {
    const imported = process.env.IMPORTED_URL.endsWith('/') ? process.env.IMPORTED_URL : `${process.env.IMPORTED_URL}/`;
    await page.goto(`${imported}#/export`);
    const empty = page.locator('ss-wacz-export .wacz-empty');
    await empty.waitFor();
    const text = await empty.innerText();
    assert(/Nothing to package/.test(text), `the card says "${text}"`);
    assert((await page.locator('ss-wacz-export a[data-export="wacz"]').count()) === 0, 'the card offers a file all the same');
    const res = await page.request.get(`${imported}api/wacz/download`);
    const body = await res.text();
    assert(res.status() === 409 && body.includes('no captures in this project'), `the download answered ${res.status()}: ${body.slice(0, 200)}`);
    await empty.scrollIntoViewIfNeeded();
    await shot(page, 'wacz-nothing');
  });
}

await closeChecked(browser, pageErrors);
finish();
