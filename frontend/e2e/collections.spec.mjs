// Browser end-to-end test of saved collections on the Communities page,
// against a running `sitesift serve`.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/collections.spec.mjs
//
// It assumes a crawled project whose site graph has links between sites (a
// crawl of the demo web will do). It finds communities (the run is saved as
// a collection), checks that every seed is a site's home page and no site
// gives two, unchecks a core, adds a seed by hand, renames a community and
// the collection, reloads the page and checks that everything is as it was
// left, downloads the txt and CSV seed lists and checks their lines, has a
// second seed of one site refused, and deletes the collection. Screenshots
// go to SCREENSHOT_DIR (default e2e/out/). It prints "N passed, M failed"
// and exits non-zero when anything failed.

import { readFileSync } from 'node:fs';
import { addLibrarian, answered, assert, harness } from './harness.mjs';

const TAG = `${process.pid}-${Date.now().toString(36)}`;
// Names and a seed of our own, so no check can pass on what the project happens to hold.
const LIB = `e2e-coll-${TAG}`;
const ADDED = `https://e2e-${TAG}.test/jazz/`;
const COMMUNITY_NAME = `Jazz labels ${TAG}`;
const COLLECTION_NAME = `Collection e2e ${TAG}`;

const { base, state, step, need, launch, shot, finish } = harness('collections.spec');

/** apiCall matches a response (or, with request, a request) to METHOD and a path matching re. */
const apiCall = (method, re) => (r) => {
  const req = typeof r.request === 'function' ? r.request() : r;
  return re.test(new URL(r.url()).pathname) && req.method() === method;
};

const { browser, context, page, pageErrors } = await launch({ acceptDownloads: true });
// The librarian the collection is made by: a librarian of the project, kept for it as the top bar's chooser keeps one.
const projectId = await addLibrarian(page, base, LIB);
await context.addInitScript(([p, n]) => {
  localStorage.setItem('sitesift.project', p);
  localStorage.setItem(`sitesift.librarian.${p}`, n);
}, [projectId, LIB]);
await page.reload();

/** coreList reads the cores shown: core index, seed, name, checked. */
const coreList = () =>
  page.locator('ol.core-list li.core').evaluateAll((li) =>
    li.map((e) => ({
      core: Number(e.dataset.core),
      seed: e.dataset.seed,
      name: e.querySelector('input.core-name')?.value ?? '',
      checked: e.querySelector('input.seed-toggle')?.checked ?? null,
    })),
  );

/** edited waits for the edit request fn makes and for the page to say it is saved. */
async function edited(method, re, fn, what) {
  const res = page.waitForResponse(apiCall(method, re));
  await fn();
  const r = await answered(res, what);
  await page.waitForSelector('.collection-head .saved');
  return r;
}

try {
  await step('a run of the extractor is saved as a collection made by the librarian', async () => {
    await page.goto(`${base}#/communities`);
    await page.waitForSelector('#communities-count');
    await page.fill('#communities-count', '6');
    const created = page.waitForResponse(apiCall('POST', /^\/api\/collections$/));
    await page.click('#communities-run');
    const res = await answered(created, 'POST /api/collections');
    const body = res.request().postDataJSON();
    assert(body.count === 6 && body.created_by === LIB, `the run sent ${JSON.stringify(body)}`);
    const c = (await res.json()).data;
    assert(c.id > 0 && c.created_by === LIB, `the collection made is ${JSON.stringify({ id: c.id, by: c.created_by })}`);
    await page.waitForSelector('ol.core-list li.core');
    await page.waitForFunction((id) => location.hash === `#/communities?collection=${id}`, c.id);
    const shown = await coreList();
    assert(shown.length >= 2, `${shown.length} cores listed, want at least 2 to uncheck one and keep one`);
    assert(
      JSON.stringify(shown.map((k) => k.seed)) === JSON.stringify(c.communities.map((k) => k.seed)),
      `listed seeds ${JSON.stringify(shown.map((k) => k.seed))} differ from the saved ${JSON.stringify(c.communities.map((k) => k.seed))}`,
    );
    // A seed is a site's home page, one a site; a community is named (by its topic), not "core N".
    const sites = new Set();
    for (const k of c.communities) {
      if (!k.seed) continue;
      const u = new URL(k.seed);
      assert(u.pathname === '/' && !u.search, `the seed ${k.seed} is not a home page`);
      assert(!sites.has(k.site), `the site ${k.site} gives two seeds`);
      sites.add(k.site);
      assert(k.name && !/^core \d+$/i.test(k.name), `community ${k.core} is named "${k.name}"`);
    }
    const topics = c.communities.filter((k) => k.topic).map((k) => k.topic);
    assert(topics.length > 0, 'no community has a topic label');
    assert(topics.every((t) => /^[^·]+( · [^·]+)*$/.test(t)), `topic labels ${JSON.stringify(topics)}`);
    const listed = await page.locator(`.collection-list li[data-collection="${c.id}"]`).count();
    assert(listed === 1, 'the new collection is not in the saved collections list');
    console.log(`      collection ${c.id}: ${shown.length} cores; topics ${topics.slice(0, 3).join(' | ')}`);
    state.id = c.id;
    state.cores = shown;
  });

  await step('unchecking a core, adding a seed and renaming a community are each saved at once', async () => {
    const id = need('id', 'the collection');
    const cores = need('cores', 'the cores');
    const first = page.locator('ol.core-list li.core').first();
    const patched = await edited('PATCH', /\/communities\/\d+$/, () => first.locator('input.seed-toggle').uncheck(), 'PATCH kept');
    assert(patched.request().postDataJSON().kept === false, `the uncheck sent ${patched.request().postData()}`);
    assert(await first.evaluate((e) => e.classList.contains('off')), 'the unchecked core is not marked off');

    await page.fill('#seed-add', ADDED);
    await edited('POST', /\/seeds$/, () => page.click('#seed-add-button'), 'POST seed');
    await page.waitForSelector(`.added-seeds li[data-seed="${ADDED}"]`);

    const second = page.locator('ol.core-list li.core').nth(1).locator('input.core-name');
    await second.fill(COMMUNITY_NAME);
    const renamed = await edited('PATCH', /\/communities\/\d+$/, () => second.press('Enter'), 'PATCH name');
    assert(renamed.request().postDataJSON().name === COMMUNITY_NAME, `the rename sent ${renamed.request().postData()}`);

    await page.click('#collection-rename');
    await page.fill('#collection-name', COLLECTION_NAME);
    await edited('PATCH', new RegExp(`^/api/collections/${id}$`), () => page.click('#collection-rename-save'), 'PATCH collection');
    await page.waitForSelector('.collection-title');
    state.expect = {
      cores: cores.map((k, i) => ({ ...k, checked: i === 0 ? false : k.checked, name: i === 1 ? COMMUNITY_NAME : k.name })),
    };
    await shot(page, 'collections-edited');
  });

  await step('a reload shows exactly what was left', async () => {
    const id = need('id', 'the collection');
    const want = need('expect', 'the edits').cores;
    await page.reload();
    await page.waitForSelector('ol.core-list li.core');
    const got = await coreList();
    assert(JSON.stringify(got) === JSON.stringify(want), `after reload the cores are ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    assert((await page.locator(`.added-seeds li[data-seed="${ADDED}"]`).count()) === 1, 'the added seed is gone after reload');
    const title = await page.locator('.collection-title').innerText();
    assert(title === COLLECTION_NAME, `the collection is called "${title}" after reload`);
    assert(
      (await page.locator(`.collection-list li[data-collection="${id}"] a`).innerText()) === COLLECTION_NAME,
      'the saved collections list does not show the new name',
    );
    // Away and back through the navigation (no collection in the address): the same collection opens.
    await page.click('nav a[data-nav="sites"]');
    await page.click('nav a[data-nav="communities"]');
    await page.waitForSelector('ol.core-list li.core');
    assert(JSON.stringify(await coreList()) === JSON.stringify(want), 'coming back through the navigation shows other cores');
  });

  await step('the txt and CSV seed lists hold the checked seeds and the added one', async () => {
    const want = need('expect', 'the edits').cores;
    const kept = want.filter((k) => k.checked).map((k) => k.seed);
    const out = want[0].seed;
    let dl = page.waitForEvent('download');
    await page.click('a[data-export="txt"]');
    let file = await dl;
    const lines = readFileSync(await file.path(), 'utf8').split('\n').filter(Boolean);
    assert(file.suggestedFilename().endsWith('.txt'), `the txt file is named ${file.suggestedFilename()}`);
    assert(JSON.stringify(lines) === JSON.stringify([...kept, ADDED]), `the txt file holds ${JSON.stringify(lines)}, want ${JSON.stringify([...kept, ADDED])}`);
    assert(!lines.includes(out), `the unchecked seed ${out} is in the file`);

    dl = page.waitForEvent('download');
    await page.click('a[data-export="csv"]');
    file = await dl;
    const rows = readFileSync(await file.path(), 'utf8').trim().split('\n');
    assert(rows[0] === 'community,topic,site,seed_url,hub_score,added_by_hand', `the CSV header is ${rows[0]}`);
    assert(rows.length === kept.length + 2, `the CSV has ${rows.length - 1} rows, want ${kept.length + 1}`);
    assert(rows.some((r) => r.startsWith(`${COMMUNITY_NAME},`)), `no CSV row of the renamed community "${COMMUNITY_NAME}"`);
    const last = rows[rows.length - 1];
    assert(last === `,,${new URL(ADDED).host},${ADDED},,true`, `the added seed's row is ${last}`);
    console.log(`      ${file.suggestedFilename()}: ${rows.length - 1} seeds`);
  });

  await step('a second seed of a site already giving one is refused, with the site named', async () => {
    const host = new URL(ADDED).host;
    await page.fill('#seed-add', `http://${host}/other`);
    const res = page.waitForResponse(apiCall('POST', /\/seeds$/));
    await page.click('#seed-add-button');
    const r = await answered(res, 'POST seed', false);
    assert(r.status() === 409, `the server answered ${r.status()}, want 409`);
    const alert = await page.locator('.seeds-panel .alert').innerText();
    assert(alert.includes(host), `the page says "${alert}", which does not name ${host}`);
    assert((await page.locator('.added-seeds li').count()) === 1, 'a second seed of the site was listed');
  });

  await step('the collection is deleted', async () => {
    const id = need('id', 'the collection');
    await page.click('#collection-delete');
    const res = page.waitForResponse(apiCall('DELETE', new RegExp(`^/api/collections/${id}$`)));
    await page.click('#collection-delete-yes');
    await answered(res, 'DELETE collection');
    await page.waitForSelector(`.collection-list li[data-collection="${id}"]`, { state: 'detached' });
    const status = await page.evaluate(async (u) => (await fetch(u)).status, `/api/collections/${id}`);
    assert(status === 404, `the deleted collection still answers ${status}`);
  });

  await step('no uncaught errors in the page', async () => {
    assert(pageErrors.length === 0, `${pageErrors.length} page error(s): ${pageErrors.join(' | ')}`);
  });
} finally {
  await browser.close();
}

finish();
