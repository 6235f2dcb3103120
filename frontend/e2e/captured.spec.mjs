// Browser end-to-end test of the Captured panel against a running
// `sitesift serve` on a crawled project.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/captured.spec.mjs
//
// It picks the site with the most captured pages (GET /api/sites/{site}/captures
// for the top sites), opens its site page and waits until ReplayWeb.page,
// served by sitesift itself on its replay origin (an origin apart from the
// app's, no CDN), replays
// the site's shallowest captured page inside the panel with the title the
// crawl stored; then opens another captured page from the panel's list and
// sees its title replayed; checks that the review card has the panel too; and
// that a site never captured (IMPORTED_URL, a project of an imported link
// graph, or a site of this project with no capture) says "No capture of this
// site in this project". Every request the replay makes stays on sitesift's
// two origins. It prints "N passed, M failed" and exits non-zero when anything
// failed.
//
//   IMPORTED_URL  optional: a `sitesift serve` of a project with no captures

import { addLibrarian, assert, chooseLibrarian, harness } from './harness.mjs';

/** REPLAY_TIMEOUT: ReplayWeb.page registers its service worker and loads the WACZ file's index first: seconds on a loaded machine. */
const REPLAY_TIMEOUT = 90_000;

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('captured.spec');
const { browser, context, page, pageErrors } = await launch();
const origin = new URL(base).origin;
/** replayOrigin is the origin of the captures' frame, once the API named it. */
let replayOrigin = '';
const elsewhere = [];
context.on('request', (req) => {
  const u = req.url();
  if (/^https?:/.test(u) && new URL(u).origin !== origin && new URL(u).origin !== replayOrigin) elsewhere.push(u);
});

/** apiGet reads an API answer's data. */
async function apiGet(path) {
  const res = await page.request.get(`${base}${path.replace(/^\//, '')}`);
  const env = await res.json();
  assert(env.status === 'success', `GET ${path}: ${res.status()} ${env.error ?? ''}`);
  return env.data;
}

/**
 * replayedTitle waits until the frame replaying url (ReplayWeb.page puts it at
 * …/w/COLLECTION/TIMESTAMPmp_/URL) has the title want, and returns the title
 * it last saw and the frame's URL.
 */
async function replayedTitle(p, url, want) {
  const until = Date.now() + REPLAY_TIMEOUT;
  let title = '';
  let frameURL = '';
  while (Date.now() < until) {
    const frame = p.frames().find((f) => f.url().includes('mp_/' + url));
    if (frame) {
      frameURL = frame.url();
      title = await frame.title().catch(() => '');
      if (title === want) break;
    }
    await p.waitForTimeout(250);
  }
  return { title, frameURL };
}

await step('a site with captured pages: the API lists them shallowest first, with a WACZ file of the site', async () => {
  const sites = await apiGet('/api/sites?sort=opic&order=desc&limit=10&offset=0');
  let best = null;
  for (const row of sites.rows ?? sites.sites ?? []) {
    const c = await apiGet(`/api/sites/${encodeURIComponent(row.site)}/captures`);
    if (c.source && c.pages.length >= 2 && c.pages[0].title && (!best || c.pages.length > best.pages.length)) best = c;
  }
  assert(best, 'no site among the top ten has two captured pages with a title');
  const segs = best.pages.map((p) => p.segments);
  assert(segs.every((s, i) => i === 0 || segs[i - 1] <= s), `pages not shallowest first: ${segs}`);
  assert(best.frame && new URL(best.frame).origin !== origin, `the captures' frame ${best.frame} is not on an origin of its own`);
  replayOrigin = new URL(best.frame).origin;
  state.c = best;
});

await step("the site page's Captured panel replays the shallowest captured page with its title, from sitesift's replay origin", async () => {
  const c = need('c', 'a captured site');
  const first = c.pages[0];
  await page.goto(`${base}#/sites/${encodeURIComponent(c.site)}`);
  const panel = page.locator('ss-captured .captured-panel[data-captured="replay"]');
  await panel.waitFor();
  await panel.scrollIntoViewIfNeeded();
  const src = await page.locator('ss-captured iframe.replay-frame').getAttribute('src');
  assert(src.startsWith(`${c.frame}#`), `the replay frame is ${src}, want ${c.frame}#…`);
  const { title, frameURL } = await replayedTitle(page, first.url, first.title);
  await shot(page, 'captured-site');
  assert(frameURL, `no replay frame of ${first.url}; frames: ${page.frames().map((f) => f.url()).join(' ')}`);
  assert(title === first.title, `the replayed ${first.url} is titled "${title}", want "${first.title}"`);
  assert(new URL(frameURL).origin === replayOrigin && replayOrigin !== origin, `the replay frame is at ${frameURL}, not on the replay origin ${replayOrigin} apart from ${origin}`);
  console.log(`      replayed ${first.url}: "${title}"`);
});

await step("another page of the panel's list opens in the replay with its title", async () => {
  const c = need('c', 'a captured site');
  const other = c.pages.find((p, i) => i > 0 && p.title && p.title !== c.pages[0].title);
  assert(other, `no second captured page with a title of its own among ${c.pages.length}`);
  await page.locator(`ss-captured button[data-captured-url="${other.url}"]`).click();
  const { title } = await replayedTitle(page, other.url, other.title);
  assert(title === other.title, `the replayed ${other.url} is titled "${title}", want "${other.title}"`);
  const current = await page.locator('ss-captured button[aria-current="true"]').getAttribute('data-captured-url');
  assert(current === other.url, `the list marks ${current} as shown`);
  await shot(page, 'captured-other-page');
});

await step('the review card has the Captured panel: after a click in the replay the keys still rate; the librarian can hide it and show it again (kept over a reload)', async () => {
  const c = need('c', 'a captured site');
  // The review queue is a librarian's: one of this test's own.
  const id = await addLibrarian(page, base, 'captured-spec');
  await chooseLibrarian(page, id, 'captured-spec');
  await page.goto(`${base}#/review?site=${encodeURIComponent(c.site)}`);
  const card = page.locator(`.review-card[data-site="${c.site}"]`);
  await card.waitFor();
  const panel = card.locator('ss-captured .captured-panel[data-captured="replay"]');
  await panel.waitFor({ timeout: REPLAY_TIMEOUT });
  const { title } = await replayedTitle(page, c.pages[0].url, c.pages[0].title);
  assert(title === c.pages[0].title, `the review card's replay is titled "${title}"`);
  await panel.scrollIntoViewIfNeeded();
  await shot(page, 'captured-review');
  await card.locator('[data-captured-hide]').click();
  await card.locator('ss-captured [data-captured="hidden"]').waitFor();
  await page.reload();
  await page.locator(`.review-card[data-site="${c.site}"] ss-captured [data-captured="hidden"]`).waitFor();
  await page.locator(`.review-card[data-site="${c.site}"] [data-captured-show]`).click();
  await page.locator(`.review-card[data-site="${c.site}"] ss-captured [data-captured="replay"]`).waitFor();
  // A click into the replay leaves the keyboard to the card: 3 rates the site (and the queue moves on).
  await replayedTitle(page, c.pages[0].url, c.pages[0].title);
  const box = await card.locator('ss-captured iframe.replay-frame').boundingBox();
  assert(box, 'the replay frame has no box');
  await page.mouse.click(box.x + box.width / 2, box.y + Math.min(box.height - 10, 120));
  const rated = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/api/sites/${encodeURIComponent(c.site)}/rating`), { timeout: 10_000 });
  await page.waitForTimeout(300);
  await page.keyboard.press('3');
  const res = await rated.catch(() => null);
  assert(res && res.ok(), `the key 3 after a click in the replay rated nothing (${res ? res.status() : 'no request'})`);
  assert(JSON.parse(res.request().postData() ?? '{}').rating === 3, `the rating sent: ${res.request().postData()}`);
});

await step('no request of the replay left sitesift\'s origin', async () => {
  // The replayed pages' own links to other sites are rewritten to the replay; nothing is fetched live.
  assert(elsewhere.length === 0, `requests elsewhere: ${elsewhere.slice(0, 5).join(' ')}`);
});

await step('a site never captured: the panel says "No capture of this site in this project"', async () => {
  let url = base;
  let site = '';
  if (process.env.IMPORTED_URL) {
    url = process.env.IMPORTED_URL.endsWith('/') ? process.env.IMPORTED_URL : `${process.env.IMPORTED_URL}/`;
    const res = await page.request.get(`${url}api/sites?sort=opic&order=desc&limit=1&offset=0`);
    const data = (await res.json()).data;
    site = (data.rows ?? data.sites)[0].site;
  } else {
    const data = await apiGet('/api/sites?sort=opic&order=asc&limit=50&offset=0');
    for (const row of data.rows ?? data.sites ?? []) {
      if (!(await apiGet(`/api/sites/${encodeURIComponent(row.site)}/captures`)).source) {
        site = row.site;
        break;
      }
    }
  }
  assert(site, 'no site without captures to open');
  await page.goto(`${url}#/sites/${encodeURIComponent(site)}`);
  const empty = page.locator('ss-captured [data-captured-empty]');
  await empty.waitFor();
  const text = await empty.innerText();
  assert(text === 'No capture of this site in this project', `the panel says "${text}"`);
  assert((await page.locator('ss-captured replay-web-page').count()) === 0, 'a replay all the same');
  await empty.scrollIntoViewIfNeeded();
  await shot(page, 'captured-none');
});

await closeChecked(browser, pageErrors);
finish();
