// Browser end-to-end test of the layout and the feedback at 1280×800, against
// a running `sitesift serve` on a crawled project with no ratings (see
// .ci/ui-test):
//
//   SITESIFT_URL=http://127.0.0.1:7777/ DEMO_PROXY=http://127.0.0.1:7778 DEMO_SEED=http://web-directory.test/ \
//     node e2e/layout.spec.mjs
//
//   CRAWL_URL   a `sitesift serve` of an empty project, where a slow crawl is started from the Crawl page
//               (and stopped); a crawled project's continuation may have nothing left to fetch
//   DEMO_PROXY  the demo web's proxy, for that crawl
//   DEMO_SEED   a seed of the demo web for it
//
// Lab is under the navigation's More menu (by mouse and by keyboard) and not
// in its main row; Enter in the librarian chooser adds a name when "Add" is
// the only option; "Reject…" on the Selection page does not make its table
// scroll sideways; the window's "Saved …" note moves no button of the Export
// page; a ratings import's answer is in view after the click; after Start on
// the Crawl page its counters are in view, and the top bar's running pill
// leaves the page and site counts whole. It prints "N passed, M failed" and
// exits non-zero when anything failed.

import { answered, assert, crawlEnded, harness } from './harness.mjs';

const { base, shots, state, step, need, launch, shot, closeChecked, finish } = harness('layout.spec');
const { browser, page, pageErrors } = await launch();
const PROXY = process.env.DEMO_PROXY || '';
const SEED = process.env.DEMO_SEED || '';
const CRAWL = process.env.CRAWL_URL ? process.env.CRAWL_URL.replace(/\/?$/, '/') : '';
const RUN = Date.now().toString(36);
const ME = `layout-${RUN}`;

/** write sends a change through the app's page (writes need its session token) and returns [status, envelope]. */
function write(method, path, body) {
  return page.evaluate(
    async ([m, p, b]) => {
      const token = (await (await fetch('/api/session')).json()).data.token;
      const res = await fetch(p, { method: m, headers: { 'Content-Type': 'application/json', 'X-Sitesift-Token': token }, body: JSON.stringify(b) });
      return [res.status, await res.json()];
    },
    [method, path, body],
  );
}

/** inView reports whether the element of locator lies whole inside the viewport (and below the sticky top bar). */
async function inView(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    return { ok: r.height > 0 && r.top >= top - 1 && r.bottom <= innerHeight + 1, top: Math.round(r.top), bottom: Math.round(r.bottom), vh: innerHeight };
  });
}

/** boxes are the bounding boxes of the elements matching sel, rounded, keyed by index. */
function boxes(sel) {
  return page.locator(sel).evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return `${Math.round(r.left)},${Math.round(r.top + scrollY)} ${Math.round(r.width)}×${Math.round(r.height)}`;
  }));
}

try {
  await step('Lab is under More, not in the main navigation, and #/lab still opens it', async () => {
    await page.goto(`${base}#/sites`);
    await page.waitForSelector('nav a[data-nav="sites"]');
    const row = await page.locator('nav > a.nav-item').evaluateAll((as) => as.map((a) => a.dataset.nav));
    assert(!row.includes('lab'), `the main navigation has ${row.join(', ')}: Lab is among them`);
    assert(row.includes('import') && row.includes('export'), `the main navigation has ${row.join(', ')}`);
    assert(!(await page.locator('a[data-nav="lab"]').isVisible()), 'a Lab link is visible before More is opened');
    await page.click('#nav-more');
    await page.locator('#nav-more-menu a[data-nav="lab"]').waitFor();
    await shot(page, 'layout-more-menu');
    await page.click('#nav-more-menu a[data-nav="lab"]');
    await page.waitForSelector('ss-lab section.lab-card');
    assert((await page.locator('#nav-more-menu').count()) === 0, 'the More menu stayed open after its link was followed');
    assert((await page.innerText('#nav-more')).includes('Lab'), `the More button reads "${await page.innerText('#nav-more')}" on the Lab page`);
    await page.goto(`${base}#/sites`);
    await page.goto(`${base}#/lab`);
    await page.waitForSelector('ss-lab section.lab-card');
  });

  await step('the More menu works by keyboard: Enter opens it on its link, Escape closes it back on the button', async () => {
    await page.goto(`${base}#/sites`);
    await page.focus('#nav-more');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.matches('#nav-more-menu a[data-nav="lab"]'));
    assert((await page.getAttribute('#nav-more', 'aria-expanded')) === 'true', 'aria-expanded is not true with the menu open');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('#nav-more-menu') && document.activeElement?.id === 'nav-more');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.activeElement?.matches('#nav-more-menu a[data-nav="lab"]'));
    await page.keyboard.press('Enter');
    await page.waitForSelector('ss-lab section.lab-card');
  });

  await step('Enter in the librarian chooser adds the name when "Add NAME as a new librarian" is the only option', async () => {
    await page.goto(`${base}#/sites`);
    await page.click('#librarian');
    await page.fill('#librarian', ME);
    await page.waitForSelector(`#librarian-menu li[data-add="${ME}"]`);
    assert((await page.locator('#librarian-menu li').count()) === 1, 'the menu offers more than Add');
    const added = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/librarians' && r.request().method() === 'POST');
    added.catch(() => undefined);
    await page.keyboard.press('Enter');
    const res = await answered(added, 'POST /api/librarians');
    assert(res.status() === 201, `adding ${ME} answered HTTP ${res.status()}, want 201`);
    await page.waitForFunction((n) => document.querySelector('#librarian')?.value === n, ME);
    const said = await page.locator('.combo-error').allInnerTexts();
    assert(said.length === 0, `the chooser says "${said.join(' ')}"`);
    state.me = ME;
  });

  await step('"Reject…" on the Selection page asks why without making the table scroll sideways', async () => {
    // The librarian of the step before, added here when that step failed.
    const me = state.me ?? ME;
    if (!state.me) {
      const [st0] = await write('POST', '/api/librarians', { name: me });
      assert(st0 === 200 || st0 === 201, `adding ${me} answered HTTP ${st0}`);
    }
    const sites = (await (await page.request.get(`${base}api/sites?limit=3&sort=opic`)).json()).data.rows.map((r) => r.site);
    // The longest name of the three, to widen the row most.
    const site = sites.sort((a, b) => b.length - a.length)[0];
    const [st] = await write('PUT', `/api/sites/${encodeURIComponent(site)}/selection`, { librarian: me, status: 'nominated', note: 'a note long enough to take some room in its column' });
    assert(st === 200, `nominating ${site} answered HTTP ${st}`);
    await page.goto(`${base}#/selection?status=nominated`);
    const row = page.locator(`.selection-table tr[data-site="${site}"]`);
    await row.waitFor();
    const panel = page.locator('ss-selection .table-panel');
    const before = await panel.evaluate((e) => [e.scrollWidth, e.clientWidth]);
    assert(before[0] <= before[1], `the table scrolls sideways before Reject… (${before[0]} > ${before[1]} px)`);
    await row.locator('button[data-action="rejected"]').click();
    const reason = page.locator(`.selection-table tr[data-reject-for="${site}"] .reject-reason`);
    await reason.waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('reject-reason'));
    const after = await panel.evaluate((e) => [e.scrollWidth, e.clientWidth]);
    await shot(page, 'layout-selection-reject');
    assert(after[0] <= after[1], `the table scrolls sideways after Reject…: ${after[0]} px wide in ${after[1]} px`);
    // The site's name and its buttons are whole inside the panel.
    const p = await panel.boundingBox();
    for (const sel of ['td.col-site a', 'button[data-action="rejected"]', 'a.btn']) {
      const b = await row.locator(sel).first().boundingBox();
      assert(b && b.x >= p.x - 1 && b.x + b.width <= p.x + p.width + 1, `${sel} of ${site} is cut: ${JSON.stringify(b)} in the panel ${JSON.stringify(p)}`);
    }
    await page.click(`.selection-table tr[data-reject-for="${site}"] button:not([type="submit"])`);
    await page.waitForFunction(() => !document.querySelector('.reject-row'));
  });

  await step("a ratings import's answer is in view after the click, not below the window's edge", async () => {
    const sites = (await (await page.request.get(`${base}api/sites?limit=8&sort=opic`)).json()).data.rows.map((r) => r.site);
    assert(sites.length >= 6, `the project has ${sites.length} sites`);
    const [a, b] = [`lay-a-${RUN}`, `lay-b-${RUN}`];
    const lines = ['librarian,site,rating,note'];
    sites.forEach((s, i) => lines.push(`${a},${s},${1 + (i % 4)},`, `${b},${s},${1 + ((i + 1) % 4)},`));
    await page.goto(`${base}#/agreement`);
    await page.waitForSelector('#ratings-file');
    await page.setInputFiles('#ratings-file', { name: 'colleagues.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n', 'utf8') });
    await page.click('#ratings-import');
    await page.waitForSelector('#ratings-import-new');
    const imported = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/ratings/import' && r.request().method() === 'POST');
    imported.catch(() => undefined);
    // The table is read again after the import and drawn (the heat map with it) before the answer is checked.
    const reread = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/agreement' && r.request().method() === 'GET');
    reread.catch(() => undefined);
    await page.click('#ratings-import-new');
    await answered(imported, 'POST /api/ratings/import');
    const ok = page.locator('.ratings-files .import-ok');
    await ok.waitFor();
    await answered(reread, 'GET /api/agreement after the import');
    await page.waitForTimeout(300);
    const v = await inView(ok);
    await shot(page, 'layout-agreement-imported');
    assert(v.ok, `the import's answer is at ${v.top}–${v.bottom} px in a ${v.vh} px window`);
  });

  await step('the window\'s "Saved …" note moves no button of the Export page', async () => {
    // The desktop window's Save dialog, which a browser does not have, answered as the window answers
    // (POST /api/desktop/save → where the file went); the page takes itself for the window when
    // window.runtime exists (download.ts). .ci/desktop-test saves through the real dialog.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addInitScript(() => {
      window.runtime = {};
    });
    const p2 = await ctx.newPage();
    p2.setDefaultTimeout(15_000);
    const errors = [];
    p2.on('pageerror', (e) => errors.push(e.message));
    await p2.route('**/api/desktop/save', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ status: 'success', data: { path: '/home/librarian/Downloads/walk-top-100.txt' } }) }),
    );
    try {
      await p2.goto(`${base}#/export`);
      await p2.waitForSelector('#export-download');
      await p2.waitForSelector('.export-card a[download]');
      const sel = '.export-card a[download], .export-card .btn, #export-bom';
      const all = () => p2.locator(sel).evaluateAll((els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return `${Math.round(r.left)},${Math.round(r.top + scrollY)}`;
      }));
      // The page settled: its cards fill in as their answers come (the "Empty:" lines).
      let before = await all();
      for (let i = 0; i < 40; i++) {
        await p2.waitForTimeout(250);
        const again = await all();
        if (again.join() === before.join()) break;
        before = again;
      }
      await p2.click('#export-download');
      await p2.waitForSelector('.download-saved');
      const after = await all();
      await p2.screenshot({ path: `${shots}/layout-export-saved.png` });
      const moved = before.map((b, i) => (b === after[i] ? '' : `${i}: ${b} → ${after[i]}`)).filter(Boolean);
      assert(before.length > 5 && before.length === after.length, `${before.length} buttons before, ${after.length} after`);
      assert(moved.length === 0, `${moved.length} of ${before.length} buttons moved: ${moved.slice(0, 3).join('; ')}`);
      const note = await p2.innerText('.download-saved');
      assert(note.includes('/home/librarian/Downloads/walk-top-100.txt'), `the note reads "${note}"`);
      const v = await p2.locator('.download-saved').evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.bottom <= innerHeight && r.top >= 0;
      });
      assert(v, 'the note is not in the window');
      assert(errors.length === 0, `page errors: ${errors.join(' | ')}`);
    } finally {
      await ctx.close();
    }
  });

  await step('after Start on the Crawl page its counters are in view, and the running pill leaves the counts whole', async () => {
    assert(PROXY && SEED && CRAWL, 'set CRAWL_URL, DEMO_PROXY and DEMO_SEED');
    await page.goto(`${CRAWL}#/crawl`);
    await page.waitForSelector('#settings-delay-ms');
    await page.waitForFunction(() => document.querySelector('#settings-delay-ms').value !== '');
    // Slow, so that it runs while the page is looked at; it is stopped below.
    await page.fill('#settings-delay-ms', '1500');
    await page.fill('#crawl-seeds', SEED);
    await page.fill('#crawl-max-pages', '40');
    await page.fill('#crawl-proxy', PROXY);
    await page.locator('#crawl-start').scrollIntoViewIfNeeded();
    const metrics = page.locator('ss-crawl .status-panel dl.metrics');
    assert(!(await inView(metrics)).ok, 'the counters are in view before Start: the check would prove nothing');
    const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/crawl' && r.request().method() === 'POST');
    started.catch(() => undefined);
    await page.click('#crawl-start');
    await answered(started, 'POST /api/crawl');
    await page.waitForSelector('.crawl-pill [data-pill-count]');
    await page.waitForTimeout(400);
    const v = await inView(metrics);
    await shot(page, 'layout-crawl-started');
    // Both checks are made before either fails, so that each says what it found.
    const problems = v.ok ? [] : [`the counters are at ${v.top}–${v.bottom} px in a ${v.vh} px window after Start`];
    const counts = page.locator('.topbar .counts');
    await counts.waitFor();
    const c = await counts.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const nav = document.querySelector('.topbar .nav').getBoundingClientRect();
      const pill = document.querySelector('.crawl-pill').getBoundingClientRect();
      const who = document.querySelector('.topbar ss-librarian').getBoundingClientRect();
      const bar = document.querySelector('.topbar');
      // Cut by an ancestor that hides its overflow (the path's box did that): its box is the visible part.
      let vis = r.right;
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') vis = Math.min(vis, a.getBoundingClientRect().right);
      }
      return { sw: el.scrollWidth, cw: el.clientWidth, left: r.left, right: r.right, vis, navRight: nav.right, pillLeft: pill.left, pillRight: pill.right,
        whoRight: who.right, barSW: bar.scrollWidth, barCW: bar.clientWidth, text: el.textContent };
    });
    await page.locator('.topbar').screenshot({ path: `${shots}/layout-topbar-pill.png` });
    if (!(c.sw <= c.cw && c.vis >= c.right - 0.5)) problems.push(`the counts "${c.text}" are cut: ${c.sw} px of text in ${c.cw} px, shown up to ${c.vis} of ${c.right} px`);
    if (!(c.left >= c.navRight && c.right <= c.pillLeft)) problems.push(`the counts "${c.text}" (${c.left}–${c.right} px) overlap the navigation (ends ${c.navRight}) or the pill (begins ${c.pillLeft})`);
    if (!(c.barSW <= c.barCW && c.whoRight <= 1280)) problems.push(`the top bar overflows: ${c.barSW} px in ${c.barCW}, the chooser ends at ${c.whoRight}`);
    if (!/\d pages · \d+ sites/.test(c.text)) problems.push(`the counts read "${c.text}"`);
    const [st] = await write('POST', '/api/crawl/stop', {});
    assert(st === 200, `POST /api/crawl/stop answered HTTP ${st}`);
    await crawlEnded(page, CRAWL);
    assert(problems.length === 0, problems.join('; '));
  });
} finally {
  await closeChecked(browser, pageErrors);
}

finish();
