// Browser end-to-end test of curation against a running `sitesift serve`:
// two-person approval (a librarian nominates a site, fails to approve it,
// another approves it), an approved seed marked as its page only and back,
// librarians chosen per project and kept over a
// reload, a note kept without a rating, colleagues' ratings said to be
// hidden until one rates, and every deliverable of the Export page
// downloaded with one click, its file name and contents checked.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/curation.spec.mjs
//
// It needs a crawled project whose approval is two-person (the default) and
// with at least four sites it has not decided on; every librarian it makes
// has the process id in its name, so earlier runs do not change its result.

import { readFileSync } from 'node:fs';
import { TIMEOUT, addLibrarian, answered, assert, chooseLibrarian, harness, storedLibrarian } from './harness.mjs';

const RUN = `${process.pid}-${Date.now().toString(36)}`;
const A = `e2e-cur-a-${RUN}`;
const B = `e2e-cur-b-${RUN}`;
const NOTE = `e2e note alone ${RUN}`;

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('curation.spec');

const quote = (s) => s.replace(/["\\]/g, '\\$&');

/** apiGet reads an API envelope's data straight from the server. */
async function apiGet(path) {
  const env = await (await fetch(new URL(path.replace(/^\//, ''), base))).json();
  if (env.status !== 'success') throw new Error(`GET ${path}: ${env.error}`);
  return env.data;
}

/** write sends a change through the app's page (writes need its session token) and returns [status, envelope]. */
function write(page, method, path, body) {
  return page.evaluate(
    async ([m, p, b]) => {
      const token = (await (await fetch('/api/session')).json()).data.token;
      const res = await fetch(p, { method: m, headers: { 'Content-Type': 'application/json', 'X-Sitesift-Token': token }, body: JSON.stringify(b) });
      return [res.status, await res.json()];
    },
    [method, path, body],
  );
}

/** parseCSV reads CSV with quoted cells ("" escapes, line breaks inside quotes). */
function parseCSV(text) {
  // A spreadsheet table starts with a UTF-8 byte-order mark, for Excel on Windows.
  text = text.replace(/^\uFEFF/, '');
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else if (c !== '\r') cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** download clicks the link sel on the Export page and returns the saved file's name and text. */
async function download(page, sel) {
  const link = page.locator(sel);
  await link.waitFor();
  const got = page.waitForEvent('download');
  await link.click();
  const d = await got.catch(async (e) => {
    // Say which link saved nothing, and what the page showed instead.
    const shown = await page.locator('.alert, [role="alert"]').allInnerTexts().catch(() => []);
    throw new Error(`${sel}: ${e.message}; the page shows ${JSON.stringify(shown)}`);
  });
  const path = await d.path();
  assert(path, `${sel}: the download failed: ${await d.failure()}`);
  return { name: d.suggestedFilename(), text: readFileSync(path, 'utf8'), href: await link.getAttribute('href') };
}

const { browser, page, pageErrors } = await launch({ acceptDownloads: true });

try {
  await step('two librarians of the project, and four sites no one decided on', async () => {
    state.project = await apiGet('/api/project');
    assert(state.project.id && state.project.name, `the project has no id or name: ${JSON.stringify(state.project)}`);
    await addLibrarian(page, base, A);
    await addLibrarian(page, base, B);
    const settings = await apiGet('/api/settings');
    assert(settings.single_person_approval === false, 'the project allows single-person approval: this test needs the default');
    const q = await apiGet(`/api/review/queue?librarian=${encodeURIComponent(A)}&limit=100`);
    const fresh = (q.rows ?? []).filter((r) => r.status === 'candidate').map((r) => r.site);
    assert(fresh.length >= 4, `only ${fresh.length} candidate sites in the queue`);
    [state.site, state.rejected, state.noted, state.rated] = fresh;
  });

  await step('A nominates a site on its page', async () => {
    const site = need('site', 'the site');
    await chooseLibrarian(page, state.project.id, A);
    await page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
    await page.reload(); // a new page load, which reads the librarian kept for the project
    await page.waitForSelector('.site-selection[data-status="candidate"]');
    assert((await page.inputValue('#librarian')) === A, `the chooser shows "${await page.inputValue('#librarian')}", want ${A}`);
    const put = page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await page.click('.site-selection button[data-action="nominated"]');
    await answered(put, `PUT /api/sites/${site}/selection`);
    await page.waitForSelector('.site-selection[data-status="nominated"]');
    const text = await page.innerText('.site-selection .decided');
    assert(text.includes('nominated by') && text.includes(A), `the site page says "${text}"`);
  });

  await step('A cannot approve the site A nominated: the error names the nominator', async () => {
    const site = need('site', 'the site');
    await page.goto(`${base}#/selection?status=nominated`);
    const row = `.selection-table tr[data-site="${quote(site)}"]`;
    await page.waitForSelector(row);
    const put = page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await page.click(`${row} button[data-action="approved"]`);
    const res = await answered(put, 'PUT selection', false);
    assert(res.status() === 409, `approval by the nominator answered HTTP ${res.status()}, want 409`);
    await page.waitForSelector('.alert');
    const alert = await page.locator('.alert').first().innerText();
    assert(alert.includes(`nominated by ${A}, and ${A} cannot also approve it`), `the page says "${alert}"`);
    const sel = (await apiGet(`/api/sites/${encodeURIComponent(site)}/review?librarian=${encodeURIComponent(B)}`)).selection;
    assert(sel.status === 'nominated' && !sel.approved_by, `after the refusal the site is ${sel.status}, approved by "${sel.approved_by}"`);
    await shot(page, 'curation-self-approval');
  });

  await step('B, chosen in the top bar, approves it; the choice is kept over a reload', async () => {
    const site = need('site', 'the site');
    await page.click('#librarian');
    await page.fill('#librarian', B);
    await page.click(`#librarian-menu li[data-librarian="${quote(B)}"]`);
    assert((await storedLibrarian(page)) === B, `the browser keeps "${await storedLibrarian(page)}" for the project`);
    await page.reload();
    const row = `.selection-table tr[data-site="${quote(site)}"]`;
    await page.waitForSelector(row);
    assert((await page.inputValue('#librarian')) === B, `after a reload the chooser shows "${await page.inputValue('#librarian')}"`);
    const put = page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await page.click(`${row} button[data-action="approved"]`);
    await answered(put, 'PUT selection');
    await page.goto(`${base}#/selection`);
    await page.waitForSelector(`.selection-table tr[data-site="${quote(site)}"][data-status="approved"]`);
    const who = await page.innerText(`.selection-table tr[data-site="${quote(site)}"] .decided`);
    assert(who.includes(A) && who.includes(B), `the Approved tab says "${who}"`);
    const sel = (await apiGet(`/api/sites/${encodeURIComponent(site)}/review?librarian=${encodeURIComponent(B)}`)).selection;
    assert(sel.nominated_by === A && sel.approved_by === B && sel.nominated_at && sel.approved_at, `kept: ${JSON.stringify(sel)}`);
    await shot(page, 'curation-approved');
  });

  await step('B marks the approved site\'s seed as its page only on the Selection page: the Heritrix seeds give it no prefix of its site, Browsertrix the page scope; unmarked, its whole site again', async () => {
    const site = need('site', 'the approved site');
    const box = `.selection-table tr[data-site="${quote(site)}"] input[data-action="page-only"]`;
    const text = async (what) => {
      const res = await fetch(new URL(`api/export/${what}`, base));
      assert(res.ok, `GET /api/export/${what}: ${res.status}`);
      return res.text();
    };
    const seedOf = async () => (await apiGet('/api/selection')).find((x) => x.site === site);
    const mark = async (on) => {
      const put = page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
      await (on ? page.check(box) : page.uncheck(box));
      await answered(put, 'PUT selection');
      await page.waitForSelector(`${box}${on ? ':checked' : ':not(:checked)'}`);
    };
    await page.waitForSelector(box);
    assert(!(await page.isChecked(box)), `${site} is marked page only before any click`);
    await mark(true);
    const s = await seedOf();
    assert(s && s.page_only === true, `after the click the API gives ${JSON.stringify(s)}`);
    const lines = (await text('heritrix-seeds')).split('\n');
    const at = lines.indexOf(s.seed_url);
    assert(at >= 0 && !(lines[at + 1] ?? '').startsWith('+'), `the Heritrix seeds follow ${s.seed_url} with "${lines[at + 1]}"`);
    const yaml = await text('browsertrix');
    assert(yaml.includes(`- url: "${s.seed_url}"\n    scopeType: page\n`), `the Browsertrix configuration:\n${yaml}`);
    assert((await page.innerText('[data-scope-note]')).includes('1 seed marked'), `the export panel says "${await page.innerText('[data-scope-note]')}"`);
    await page.reload();
    await page.waitForSelector(`${box}:checked`);
    await shot(page, 'curation-page-only');
    await mark(false);
    assert((await seedOf())?.page_only === false, `${site} is still marked page only`);
    const again = (await text('heritrix-seeds')).split('\n');
    assert((again[again.indexOf(s.seed_url) + 1] ?? '').startsWith('+'), `unmarked, the Heritrix seed ${s.seed_url} has no prefix line`);
  });

  await step('a rejected site (with its reason) and a note kept without a rating', async () => {
    const [rejected, noted, rated] = [need('rejected', 'a site'), need('noted', 'a site'), need('rated', 'a site')];
    const [st] = await write(page, 'PUT', `/api/sites/${encodeURIComponent(rejected)}/selection`, { librarian: B, status: 'rejected', reason: 'e2e: off topic' });
    assert(st === 200, `rejecting ${rejected} answered ${st}`);
    const [st2] = await write(page, 'PUT', `/api/sites/${encodeURIComponent(rated)}/rating`, { librarian: A, rating: 3, note: '' });
    assert(st2 === 200, `A's rating answered ${st2}`);
    await page.goto(`${base}#/sites/${encodeURIComponent(noted)}`);
    await page.waitForSelector('#site-note');
    await page.fill('#site-note', NOTE);
    const put = page.waitForResponse((r) => r.url().includes('/note') && r.request().method() === 'PUT');
    await page.click('#site-note-save');
    await answered(put, `PUT /api/sites/${noted}/note`);
    await page.waitForSelector('[data-note-state]');
    assert((await page.innerText('[data-note-state]')).includes('not rated'), `the note says "${await page.innerText('[data-note-state]')}"`);
    await page.reload();
    await page.waitForSelector('#site-note');
    await page.waitForFunction((n) => document.querySelector('#site-note')?.value === n, NOTE);
    const row = (await apiGet(`/api/sites/${encodeURIComponent(noted)}/review?librarian=${encodeURIComponent(B)}`)).rating;
    assert(row && row.rating === 0 && row.note === NOTE, `the stored note: ${JSON.stringify(row)}`);
  });

  await step("the site page says colleagues' ratings are hidden until B rates, not that no one rated", async () => {
    const rated = need('rated', 'the rated site');
    await page.goto(`${base}#/sites/${encodeURIComponent(rated)}`);
    await page.waitForSelector('[data-withheld]');
    await page.waitForFunction(() => Number(document.querySelector('[data-withheld]')?.dataset.withheld) > 0);
    const text = await page.innerText('[data-withheld]');
    assert(text.includes('hidden until you rate') && !text.includes('No one else'), `the site page says "${text}"`);
    await shot(page, 'curation-withheld');
  });

  await step('the Export page downloads every deliverable under its one name, with its contents', async () => {
    const p = need('project', 'the project');
    const [site, rejected, noted, rated] = [state.site, state.rejected, state.noted, state.rated];
    await page.goto(`${base}#/export`);
    await page.waitForSelector('a[data-export="approved"][data-format="txt"]');
    await shot(page, 'curation-export', true);
    const files = {};
    for (const [sel, want] of [
      ['a[data-export="approved"][data-format="txt"]', `${p.name}-approved.txt`],
      ['a[data-export="approved"][data-format="csv"]', `${p.name}-approved.csv`],
      ['a[data-export="approved"][data-format="json"]', `${p.name}-approved.json`],
      ['#export-download', `${p.name}-top-100.txt`],
      ['a[data-export="communities"][data-format="txt"]', `${p.name}-communities.txt`],
      ['a[data-export="ratings"][data-format="csv"]', `${p.name}-ratings.csv`],
      ['a[data-export="sites"][data-format="csv"]', `${p.name}-sites.csv`],
      ['a[data-export="sites"][data-format="json"]', `${p.name}-sites.json`],
      ['a[data-export="heritrix-precedence"][data-format="txt"]', `${p.name}-heritrix-precedence.txt`],
    ]) {
      const f = await download(page, sel);
      assert(f.name === want, `${sel} saved ${f.name}, want ${want}`);
      files[want] = f.text;
    }
    // Chromium lets a page start ten downloads at most: the crawler configurations come from the page loaded again.
    await page.reload();
    for (const [sel, want] of [
      ['a[data-export="browsertrix"][data-format="yaml"]', `${p.name}-browsertrix.yaml`],
      ['a[data-export="heritrix-seeds"][data-format="txt"]', `${p.name}-heritrix-seeds.txt`],
    ]) {
      const f = await download(page, sel);
      assert(f.name === want, `${sel} saved ${f.name}, want ${want}`);
      files[want] = f.text;
    }
    for (const f of [`${p.name}-ratings.csv`, `${p.name}-sites.csv`, `${p.name}-approved.csv`]) {
      const bom = files[f].startsWith('\uFEFF');
      assert(bom === !f.endsWith('approved.csv'), `${f} ${bom ? 'has' : 'lacks'} a byte-order mark`);
    }
    // The seed is the site's shallowest page that answered: its home page, on
    // the host the crawl fetched (www. or not, http or https).
    const home = JSON.parse(files[`${p.name}-approved.json`]).find((x) => x.site === site)?.seed_url ?? '';
    const hostRe = new RegExp(`^https?://(www\\.)?${site.replace(/[.]/g, '\\.')}/$`);
    assert(hostRe.test(home), `the approved seed of ${site} is ${home}, not its home page`);
    assert(files[`${p.name}-approved.txt`].split('\n').includes(home), `the approved seeds lack ${home}`);
    const csv = parseCSV(files[`${p.name}-approved.csv`]);
    const head = csv[0];
    assert(head.join(',').startsWith('site,seed_url,status,nominated_by,nominated_at,approved_by,approved_at'), `approved CSV header ${head}`);
    const line = csv.find((r) => r[0] === site);
    assert(line && line[head.indexOf('nominated_by')] === A && line[head.indexOf('approved_by')] === B, `approved CSV line ${line}`);
    const json = JSON.parse(files[`${p.name}-approved.json`]).find((x) => x.site === site);
    assert(json && json.seed_url === home && json.checked === true && json.nominated_by === A && json.approved_by === B && json.approved_at, `approved JSON ${JSON.stringify(json)}`);
    const top = files[`${p.name}-top-100.txt`].split('\n');
    assert(top.length > 1 && !top.includes(`http://${rejected}/`), `the top 100 holds the rejected ${rejected}`);
    assert(files[`${p.name}-communities.txt`].split('\n')[0].startsWith('http'), 'the community seeds are no URL list');
    const ratings = parseCSV(files[`${p.name}-ratings.csv`]);
    assert(ratings[0].join(',') === 'librarian,site,rating,note', `ratings header ${ratings[0]}`);
    assert(ratings.some((r) => r.join(',') === `${A},${rated},3,`), `the ratings file lacks ${A}'s 3 on ${rated}`);
    assert(ratings.some((r) => r[0] === B && r[1] === noted && r[2] === '' && r[3] === NOTE), `the ratings file lacks ${B}'s note alone on ${noted}`);
    const sites = parseCSV(files[`${p.name}-sites.csv`]);
    assert(sites[0].slice(0, 10).join(',') === 'site,crawl_status,pages,opic,pagerank,in_sites,out_sites,hub,authority,selection', `sites header ${sites[0]}`);
    const srow = sites.find((r) => r[0] === rated);
    assert(srow && srow[sites[0].indexOf(A)] === '3' && srow[sites[0].indexOf(B)] === '', `sites table row ${srow}`);
    assert(sites.find((r) => r[0] === site)?.[9] === 'approved', `the sites table gives ${site} as ${sites.find((r) => r[0] === site)?.[9]}`);
    const sj = JSON.parse(files[`${p.name}-sites.json`]);
    assert(sj.find((x) => x.site === rated)?.ratings?.[A] === 3, 'the sites table JSON lacks the rating');
    const her = files[`${p.name}-heritrix-precedence.txt`].trim().split('\n');
    assert(her.every((l) => /^https?:\/\/\S+ \d+$/.test(l)), `a Heritrix line is not "URI precedence": ${her.find((l) => !/^https?:\/\/\S+ \d+$/.test(l))}`);
    // The crawler configurations: the approved site's seed in both, the user agent appended to the browser's.
    const seed = JSON.parse(files[`${p.name}-approved.json`]).find((x) => x.site === site)?.seed_url;
    assert(files[`${p.name}-heritrix-seeds.txt`].split('\n').includes(seed), `the Heritrix seeds lack ${seed}`);
    const yaml = files[`${p.name}-browsertrix.yaml`];
    assert(yaml.includes(`- url: "${seed}"`) && /\nuserAgentSuffix: "/.test(yaml) && !/\nuserAgent:/.test(yaml), `the Browsertrix configuration:\n${yaml}`);
    // The WARC archive, when the crawl wrote one, is listed on the same page.
    const warcs = (await apiGet('/api/warcs')) ?? [];
    if (warcs.length) await page.waitForSelector('.warc-table tr[data-warc]');
  });

  await step('a community seed moved into the platforms leaves the communities: the file names it no more, and the card says what the file leaves out as the API does', async () => {
    // Communities are found without the platforms' links: a seed site moved into the platforms is in no
    // community any more (none is a hub or an authority), rather than a seed left out of the file.
    const seeds = async () => {
      const res = await fetch(new URL('api/export/communities?format=csv', base));
      assert(res.ok, `GET /api/export/communities?format=csv: ${res.status}`);
      const csv = parseCSV(await res.text());
      const col = csv[0].indexOf('site');
      return csv.slice(1).map((r) => r[col]).filter(Boolean);
    };
    const site = (await seeds())[0];
    assert(site, 'the community seeds name no site');
    const platform = (on) => write(page, 'PUT', `/api/sites/${encodeURIComponent(site)}/platform`, { platform: on });
    const [status, env] = await platform(true);
    assert(status === 200, `moving ${site} into the platforms: ${status} ${JSON.stringify(env)}`);
    try {
      const after = await seeds();
      assert(!after.includes(site), `the community seeds still name ${site}, a platform: ${after.join(' ')}`);
      const lo = await apiGet('/api/export/communities/left-out');
      await page.goto(`${base}#/export`);
      await page.reload();
      const card = page.locator('[data-deliverable="communities"]');
      await card.waitFor({ timeout: TIMEOUT });
      const line = card.locator('[data-left-out="communities"]');
      const text = (await line.count()) ? await line.innerText() : '';
      assert(lo.text ? text.includes(lo.text) : text === '', `the Community seeds card says "${text}", the API "${lo.text}"`);
      console.log(`      ${site} a platform: seeds ${after.length}, left out "${lo.text}"`);
      await card.scrollIntoViewIfNeeded();
      await shot(page, 'export-communities-left-out');
    } finally {
      const [back] = await platform(false);
      assert(back === 200, `moving ${site} back out of the platforms: ${back}`);
    }
  });

  await step('the Selection page rejects a site with the reason typed, and shows who, when and why', async () => {
    const site = need('site', 'the approved site');
    const why = `e2e: a duplicate ${RUN}`;
    await page.goto(`${base}#/selection`);
    const row = `.selection-table tr[data-site="${quote(site)}"]`;
    await page.click(`${row} button[data-action="rejected"]`);
    // The reason is asked for in a row of its own under the site's.
    const form = `.selection-table tr[data-reject-for="${quote(site)}"]`;
    await page.fill(`${form} .reject-reason`, why);
    const put = page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await page.click(`${form} button[data-action="confirm-reject"]`);
    await answered(put, 'PUT selection');
    await page.goto(`${base}#/selection?status=rejected`);
    await page.waitForSelector(`${row}[data-status="rejected"] [data-reason]`);
    const text = await page.innerText(`${row} .decided`);
    assert(text.includes(`rejected by`) && text.includes(B) && text.includes(why) && text.includes(A), `the Rejected tab says "${text}"`);
    const sel = (await apiGet(`/api/sites/${encodeURIComponent(site)}/review?librarian=${encodeURIComponent(B)}`)).selection;
    assert(sel.rejected_by === B && sel.rejected_reason === why && sel.approved_by === B && sel.nominated_by === A, `kept: ${JSON.stringify(sel)}`);
  });

  await step('the settings form turns single-person approval on and off, saved at once', async () => {
    await page.goto(`${base}#/crawl`);
    const box = page.locator('#settings-single-approval');
    await box.waitFor();
    assert(!(await box.isChecked()), 'single-person approval is on by default');
    for (const on of [true, false]) {
      const put = page.waitForResponse((r) => r.url().includes('/api/settings') && r.request().method() === 'PUT');
      await (on ? box.check() : box.uncheck());
      await answered(put, 'PUT /api/settings');
      await page.waitForSelector('#settings-approval-saved');
      const s = await apiGet('/api/settings');
      assert(s.single_person_approval === on, `after ${on ? 'ticking' : 'unticking'} the setting is ${s.single_person_approval}`);
    }
  });

  await step('the old scattered links lead to the Export page', async () => {
    await page.goto(`${base}#/agreement`);
    await page.waitForSelector('#ratings-export');
    assert((await page.getAttribute('#ratings-export', 'href')) === '#/export', 'the Agreement page still exports on its own');
    await page.goto(`${base}#/selection`);
    await page.waitForSelector('#selection-export-link');
    assert((await page.getAttribute('#selection-export-link', 'href')) === '#/export', 'the Selection page still exports on its own');
  });
} finally {
  await closeChecked(browser, pageErrors);
}
finish();
