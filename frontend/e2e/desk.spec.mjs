// Browser end-to-end test of the librarian's desk at 1280×800, as a person
// sees it without scrolling, against a running `sitesift serve` on a
// crawled project whose librarians have rated sites (review.spec.mjs leaves
// three):
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/desk.spec.mjs
//
//  - the review card shows the site's capture in the window, whole, with no
//    scrolling;
//  - the History page fits the width of the window (no horizontal scroll,
//    the top bar whole);
//  - the Agreement page leads with what the figures mean for the team, in
//    words made of the API's own figures, and keeps the statistics' terms
//    (κ, LOO, Spearman) in a help note that starts closed;
//  - with STYLED_URL, a `sitesift serve` of a crawl of e2e/styled-web.mjs:
//    the replay shows the capture's first page with its own (inline)
//    styles, and says that its style sheet was not captured, where the
//    page whose styles are all inline has no such word.
//
// It prints "N passed, M failed" and exits non-zero when anything failed.

import { addLibrarian, assert, chooseLibrarian, harness } from './harness.mjs';
import { INK } from './styled-web.mjs';

const RUN = `${process.pid}-${Date.now().toString(36)}`;
/** LIB only looks: it rates nothing, so the agreement stays the other tests'. */
const LIB = `e2e-desk-${RUN}`;
/** WIDTH and HEIGHT are the window every check is made in. */
const WIDTH = 1280;
const HEIGHT = 800;
/** MIN_FRAME is the least height of the review card's replay: a page's first screen, legible. */
const MIN_FRAME = 260;
/** STYLED is the server of the styled web's crawl, if given. */
const STYLED = process.env.STYLED_URL ? process.env.STYLED_URL.replace(/\/?$/, '/') : '';
/** REPLAY_TIMEOUT: ReplayWeb.page registers its service worker and reads the WACZ file's index first: seconds on a loaded machine. */
const REPLAY_TIMEOUT = 90_000;

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('desk.spec');
const { browser, page, pageErrors } = await launch({ viewport: { width: WIDTH, height: HEIGHT } });

/** apiGet reads an API answer's data. */
async function apiGet(path) {
  const res = await page.request.get(`${base}${path.replace(/^\//, '')}`);
  const env = await res.json();
  assert(env.status === 'success', `GET ${path}: ${res.status()} ${env.error ?? ''}`);
  return env.data;
}

/** pct formats a percentage as the Agreement page does. */
const pct = (x) => `${x.toFixed(1)}%`;

try {
  await step('a librarian to look with, and a site with captured pages', async () => {
    const id = await addLibrarian(page, base, LIB);
    await chooseLibrarian(page, id, LIB);
    const sites = await apiGet('/api/sites?sort=opic&order=desc&limit=10&offset=0');
    for (const row of sites.rows ?? []) {
      const c = await apiGet(`/api/sites/${encodeURIComponent(row.site)}/captures`);
      if (c.source && c.frame && c.pages.length) {
        state.site = row.site;
        break;
      }
    }
    assert(state.site, 'no site among the top ten has a captured page');
  });

  await step('the review card shows the capture whole in a 1280×800 window, without scrolling', async () => {
    const site = need('site', 'a captured site');
    await page.goto(`${base}#/review?site=${encodeURIComponent(site)}`);
    const frame = page.locator(`.review-card[data-site="${site}"] iframe.replay-frame`);
    await frame.waitFor();
    // The card's parts above the replay (its standing, the rating) have loaded.
    await page.waitForSelector(`.review-card[data-site="${site}"][aria-busy="false"]`);
    await page.waitForTimeout(300);
    await shot(page, 'desk-review');
    const g = await frame.evaluate((f) => {
      const r = f.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height, scrollY: window.scrollY, vh: window.innerHeight };
    });
    assert(g.scrollY === 0, `the page was scrolled to ${g.scrollY} px`);
    assert(g.top >= 0 && g.bottom <= g.vh, `the replay spans ${Math.round(g.top)}–${Math.round(g.bottom)} px of a ${g.vh} px window: not all of it is in view`);
    assert(g.height >= MIN_FRAME, `the replay is ${Math.round(g.height)} px high, under ${MIN_FRAME}`);
  });

  await step('after a rating, the next card shows its capture whole too, under the line saying what was rated', async () => {
    const site = need('site', 'a captured site');
    await page.locator(`.review-card[data-site="${site}"]`).focus();
    await page.keyboard.press('1');
    await page.waitForSelector(`.review-flash[data-flash="${site}"]`);
    const frame = page.locator(`.review-card:not([data-site="${site}"]) iframe.replay-frame`);
    await frame.waitFor();
    await page.waitForSelector('.review-card[aria-busy="false"]');
    await page.waitForTimeout(300);
    await shot(page, 'desk-review-after-rating');
    const g = await frame.evaluate((f) => {
      const r = f.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height, scrollY: window.scrollY, vh: window.innerHeight };
    });
    assert(g.scrollY === 0, `the page was scrolled to ${g.scrollY} px`);
    assert(g.top >= 0 && g.bottom <= g.vh, `the next replay spans ${Math.round(g.top)}–${Math.round(g.bottom)} px of a ${g.vh} px window: not all of it is in view`);
    assert(g.height >= MIN_FRAME, `the next replay is ${Math.round(g.height)} px high, under ${MIN_FRAME}`);
  });

  await step('the History page fits 1280 px: no horizontal scroll, the top bar whole', async () => {
    await page.goto(`${base}#/history`);
    await page.waitForSelector('.history .history-table, #history-empty');
    await page.waitForTimeout(200);
    await shot(page, 'desk-history');
    const w = await page.evaluate(() => {
      const bar = document.querySelector('.topbar');
      const out = [...bar.children].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.className || e.tagName);
      return { doc: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth, bar: bar.scrollWidth, barCW: bar.clientWidth, out,
        more: document.querySelector('#nav-more')?.textContent.trim() };
    });
    assert(w.doc <= w.cw, `the page is ${w.doc} px wide in a ${w.cw} px window`);
    assert(w.bar <= w.barCW && w.out.length === 0, `the top bar is ${w.bar} px in ${w.barCW}; past the window's edge: ${w.out.join(', ')}`);
    assert(/History/.test(w.more ?? ''), `the More button reads "${w.more}" on the History page`);
  });

  await step('the Agreement page leads with what the figures mean for the team, from the API’s figures', async () => {
    const ag = await apiGet('/api/agreement');
    await page.goto(`${base}#/agreement`);
    const plain = page.locator('#agreement-plain');
    await plain.waitFor();
    await page.waitForSelector('.agreement-table tr[data-rater]');
    await shot(page, 'desk-agreement');
    const order = await page.evaluate(() => {
      const p = document.querySelector('#agreement-plain').getBoundingClientRect();
      const t = document.querySelector('.agreement-table').getBoundingClientRect();
      return { plainTop: p.top, tableTop: t.top, vh: window.innerHeight };
    });
    assert(order.plainTop < order.tableTop && order.plainTop < order.vh / 2, `the words begin at ${order.plainTop} px, the table at ${order.tableTop} px`);
    const words = (await plain.locator('.plain-says').innerText()).replace(/\s+/g, ' ');
    for (const jargon of ['κ', 'kappa', 'LOO', 'leave-one-out', 'Spearman', 'quantile']) {
      assert(!words.includes(jargon), `the words say "${jargon}": ${words}`);
    }
    const libs = ag.rows.filter((r) => r.kind === 'librarian' && r.sites > 0 && r.score_loo_pct !== null);
    assert(ag.reference_sites > 0 && libs.length >= 2, `the project has ${ag.reference_sites} sites with a reference and ${libs.length} librarians with a leave-one-out score: run review.spec.mjs first`);
    const raters = (await plain.locator('[data-says="raters"]').innerText()).replace(/\s+/g, ' ');
    const loo = libs.map((r) => r.score_loo_pct);
    for (const x of [Math.min(...loo), Math.max(...loo)]) assert(raters.includes(pct(x)), `"${raters}" does not give ${pct(x)}, a leave-one-out score of the API`);
    assert(raters.includes(`of the ${ag.reference_sites} sites`), `"${raters}" does not count the ${ag.reference_sites} sites with a reference`);
    const mean = loo.reduce((a, b) => a + b, 0) / loo.length;
    assert(raters.includes(mean > 50 ? 'agree on most sites' : mean === 50 ? 'half of the sites' : 'fewer than half'), `"${raters}" with a mean score of ${mean}`);
    const disputed = await plain.locator('[data-disputed]').evaluateAll((as) => as.map((a) => a.dataset.disputed));
    assert(JSON.stringify(disputed) === JSON.stringify(ag.disputed.map((d) => d.site)), `the words name ${disputed.join(', ') || 'no site'}, the API ${ag.disputed.map((d) => d.site).join(', ') || 'none'}`);
    const opic = ag.rows.find((r) => r.rater === 'opic');
    if (opic && opic.score_pct !== null && !ag.measures_tied) {
      const imp = await plain.locator('[data-says="importance"]').innerText();
      assert(imp.includes(pct(opic.score_pct)), `"${imp}" does not give OPIC's score ${pct(opic.score_pct)}`);
    }
    const help = page.locator('details#agreement-help');
    assert(!(await help.evaluate((d) => d.open)), 'the help note on the statistics starts open');
    const helpText = await help.textContent();
    for (const term of ['LOO', 'κw', 'Spearman']) assert(helpText.includes(term), `the help note does not explain ${term}`);
    await help.locator('summary').click();
    assert(await help.evaluate((d) => d.open), 'the help note does not open on a click');
    await shot(page, 'desk-agreement-help');
  });

  /** replayed waits until the frame replaying url has the title want, and returns that frame. */
  async function replayed(url, want) {
    const until = Date.now() + REPLAY_TIMEOUT;
    let title = '';
    while (Date.now() < until) {
      const frame = page.frames().find((f) => f.url().endsWith('mp_/' + url));
      if (frame) {
        title = await frame.title().catch(() => '');
        if (title === want) return frame;
      }
      await page.waitForTimeout(200);
    }
    throw new Error(`the replay of ${url} did not show "${want}" (last title "${title}")`);
  }

  if (STYLED) {
    await step("the replay shows a capture's first page with its own styles, and says its style sheet was not captured", async () => {
      await page.goto(`${STYLED}#/sites/styled.test`);
      const frame = await replayed('http://styled.test/', 'Styled home');
      const ink = await frame.evaluate(() => getComputedStyle(document.querySelector('h1')).color);
      assert(ink === INK, `the replayed heading is ${ink}, not the page's own ${INK}`);
      const note = page.locator('ss-captured [data-captured-unstyled]');
      await note.waitFor({ timeout: REPLAY_TIMEOUT });
      await shot(page, 'desk-replay-unstyled');
      assert((await note.getAttribute('data-captured-unstyled')) === '1', `the note counts ${await note.getAttribute('data-captured-unstyled')} missing sheets, want 1`);
      const words = await note.innerText();
      assert(/without its style sheet/.test(words) && /crawl keeps pages/.test(words), `the note reads "${words}"`);
    });
    await step('a captured page whose styles are all inline shows them, with no word of missing style sheets', async () => {
      await page.click('ss-captured [data-captured-url="http://styled.test/inline.html"]');
      const frame = await replayed('http://styled.test/inline.html', 'Inline only');
      const ink = await frame.evaluate(() => getComputedStyle(document.querySelector('h1')).color);
      assert(ink === INK, `the replayed heading is ${ink}, not the page's own ${INK}`);
      // The frame page reports twice a second: three reports have come and gone.
      await page.waitForTimeout(1500);
      const n = await page.locator('ss-captured [data-captured-unstyled]').count();
      assert(n === 0, 'the page whose styles are all inline is said to lack a style sheet');
    });
  } else {
    console.log('desk.spec: STYLED_URL not set: the replay of styles is not checked');
  }
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
