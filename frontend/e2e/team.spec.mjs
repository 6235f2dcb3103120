// Browser end-to-end test of a team server (`sitesift serve --team`): two
// librarians sign in, each in a browser context of their own, and do the
// two-person approval end to end — ana (a curator) nominates a site and is
// offered no Approve or Reject anywhere (the server still refuses them), ben
// (an approver) is not offered the approval of a site he nominated, and
// approves ana's — then the Selection history shows both decisions by
// account, and signing out shows the sign-in form again, in every tab of hers.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ TEAM_PASSWORD=… node e2e/team.spec.mjs
//
// The server serves a crawled project with --team whose accounts are ana
// (curator) and ben (approver), both with the password TEAM_PASSWORD, and
// whose approval is two-person (the default).

import { answered, assert, harness } from './harness.mjs';

const PASSWORD = process.env.TEAM_PASSWORD;
if (!PASSWORD) {
  console.error('team.spec: set TEAM_PASSWORD to the password of the accounts ana and ben');
  process.exit(2);
}

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('team.spec');
const quote = (s) => s.replace(/["\\]/g, '\\$&');

const ana = await launch();
const ben = await launch();

/** approveByAPI sends the approval of site from page's session straight to the API, past the buttons the page offers; it returns the HTTP status and the envelope. */
function approveByAPI(page, site) {
  return page.evaluate(async (s) => {
    const token = (await (await fetch('/api/session')).json()).data.token;
    const res = await fetch(`/api/sites/${encodeURIComponent(s)}/selection`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Sitesift-Token': token },
      body: JSON.stringify({ status: 'approved' }),
    });
    return [res.status, await res.json()];
  }, site);
}

/** signIn signs in on the page's sign-in form and waits for the app's top bar. */
async function signIn(page, name, password) {
  await page.goto(base);
  await page.waitForSelector('ss-sign-in #signin-name');
  await page.fill('#signin-name', name);
  await page.fill('#signin-password', password);
  const post = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await page.click('#signin-submit');
  return post;
}

try {
  await step('without a session the API answers 401, reads included, and the page shows the sign-in form', async () => {
    for (const path of ['api/project', 'api/session', 'api/selection', 'api/audit']) {
      const res = await fetch(new URL(path, base));
      assert(res.status === 401, `GET /${path} without a session: HTTP ${res.status}`);
    }
    await ana.page.goto(base);
    await ana.page.waitForSelector('ss-sign-in form');
    assert((await ana.page.locator('ss-app').count()) === 0, 'the app is shown before signing in');
    await shot(ana.page, 'team-sign-in');
  });

  await step('a wrong password is refused on the form', async () => {
    const res = await signIn(ana.page, 'ana', 'not-the-password');
    assert(res.status() === 401, `a wrong password answered HTTP ${res.status()}`);
    const alert = await ana.page.locator('#signin-error').innerText();
    assert(alert === 'wrong name or password', `the form says "${alert}"`);
  });

  await step('ana signs in: "signed in as ana · sign out" in place of the librarian chooser', async () => {
    const res = await signIn(ana.page, 'ana', PASSWORD);
    assert(res.ok(), `sign-in answered HTTP ${res.status()}`);
    const cookie = (await ana.context.cookies()).find((c) => c.name === 'sitesift_session');
    assert(cookie && cookie.httpOnly && cookie.sameSite === 'Strict', `session cookie ${JSON.stringify(cookie)}`);
    await ana.page.waitForSelector('ss-signed-in [data-me]');
    assert((await ana.page.innerText('ss-signed-in [data-me]')) === 'ana', 'the top bar does not name ana');
    assert((await ana.page.locator('ss-librarian').count()) === 0, 'the librarian chooser is still shown');
    const q = await (await ana.page.request.get(`${base}api/review/queue?limit=50`)).json();
    const fresh = (q.data?.rows ?? []).filter((r) => r.status === 'candidate').map((r) => r.site);
    assert(fresh.length >= 2, `fewer than two candidate sites in ana's queue: ${JSON.stringify(q).slice(0, 200)}`);
    state.site = fresh[0];
    state.site2 = fresh[1];
  });

  await step('ben signs in in another browser context', async () => {
    const res = await signIn(ben.page, 'ben', PASSWORD);
    assert(res.ok(), `sign-in answered HTTP ${res.status()}`);
    await ben.page.waitForSelector('ss-signed-in [data-me]');
    assert((await ben.page.innerText('ss-signed-in [data-me]')) === 'ben', 'the top bar does not name ben');
  });

  await step('ana nominates a site on its page', async () => {
    const site = need('site', 'the site');
    await ana.page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
    await ana.page.waitForSelector('.site-selection[data-status="candidate"]');
    const put = ana.page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await ana.page.click('.site-selection button[data-action="nominated"]');
    await answered(put, `PUT /api/sites/${site}/selection`);
    await ana.page.waitForSelector('.site-selection[data-status="nominated"]');
    const text = await ana.page.innerText('.site-selection .decided');
    assert(text.includes('nominated by') && text.includes('ana'), `the site page says "${text}"`);
  });

  await step('ana, a curator, is offered no Approve or Reject anywhere, and the server still refuses her approval', async () => {
    const site = need('site', 'the site');
    await ana.page.goto(`${base}#/selection?status=nominated`);
    const row = `.selection-table tr[data-site="${quote(site)}"]`;
    await ana.page.waitForSelector(`${row} a[href*="review"]`);
    for (const a of ['approved', 'rejected']) {
      const n = await ana.page.locator(`${row} button[data-action="${a}"]`).count();
      assert(n === 0, `the Selection page offers ana (a curator) ${a}: ${n} button(s)`);
    }
    await ana.page.goto(`${base}#/sites/${encodeURIComponent(site)}`);
    await ana.page.waitForSelector('.site-selection[data-status="nominated"] .actions button');
    for (const a of ['approved', 'rejected']) {
      const n = await ana.page.locator(`.site-selection button[data-action="${a}"]`).count();
      assert(n === 0, `the site page offers ana (a curator) ${a}: ${n} button(s)`);
    }
    await ana.page.goto(`${base}#/review?site=${encodeURIComponent(site)}`);
    await ana.page.waitForSelector('.review-selection[data-status="nominated"] .sel-workflow');
    for (const a of ['advance', 'reject']) {
      const n = await ana.page.locator(`.review-selection button[data-action="${a}"]`).count();
      assert(n === 0, `the review card offers ana (a curator) ${a}: ${n} button(s)`);
    }
    await shot(ana.page, 'team-curator-no-approve');
    const [status, env] = await approveByAPI(ana.page, site);
    assert(status === 403 && env.error.includes('needs the approver role; ana is a curator'), `approval by a curator: HTTP ${status}: ${env.error}`);
  });

  await step('ben nominates a second site: he is offered its Reject, not its Approve, and the server still refuses it', async () => {
    const site2 = need('site2', 'a second candidate site');
    await ben.page.goto(`${base}#/sites/${encodeURIComponent(site2)}`);
    await ben.page.waitForSelector('.site-selection[data-status="candidate"]');
    const put = ben.page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await ben.page.click('.site-selection button[data-action="nominated"]');
    await answered(put, `PUT /api/sites/${site2}/selection`);
    await ben.page.waitForSelector('.site-selection[data-status="nominated"] button[data-action="rejected"]');
    assert((await ben.page.locator('.site-selection button[data-action="approved"]').count()) === 0, 'the site page offers ben the approval of his own nomination');
    await ben.page.goto(`${base}#/review?site=${encodeURIComponent(site2)}`);
    await ben.page.waitForSelector('.review-selection[data-status="nominated"] .sel-workflow');
    await ben.page.waitForSelector('.review-selection button[data-action="reject"]');
    assert((await ben.page.locator('.review-selection button[data-action="advance"]').count()) === 0, 'the review card offers ben the approval of his own nomination');
    await ben.page.goto(`${base}#/selection?status=nominated`);
    const own = `.selection-table tr[data-site="${quote(site2)}"]`;
    const anas = `.selection-table tr[data-site="${quote(need('site', 'the site'))}"]`;
    await ben.page.waitForSelector(`${own} button[data-action="rejected"]`);
    assert((await ben.page.locator(`${own} button[data-action="approved"]`).count()) === 0, 'the Selection page offers ben the approval of his own nomination');
    await ben.page.waitForSelector(`${anas} button[data-action="approved"]`);
    await shot(ben.page, 'team-nominator-no-approve');
    const [status, env] = await approveByAPI(ben.page, site2);
    assert(status === 409 && env.error.includes('nominated by ben'), `approval by its nominator: HTTP ${status}: ${env.error}`);
  });

  await step('ana cannot act as ben through the API either', async () => {
    const site = need('site', 'the site');
    const [status, env] = await ana.page.evaluate(async (s) => {
      const token = (await (await fetch('/api/session')).json()).data.token;
      const res = await fetch(`/api/sites/${encodeURIComponent(s)}/selection`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Sitesift-Token': token },
        body: JSON.stringify({ librarian: 'ben', status: 'approved' }),
      });
      return [res.status, await res.json()];
    }, site);
    assert(status === 403 && env.error === 'signed in as ana: cannot act as ben', `HTTP ${status}: ${env.error}`);
  });

  await step('ben approves it: nominated by ana, approved by ben', async () => {
    const site = need('site', 'the site');
    await ben.page.goto(`${base}#/selection?status=nominated`);
    const row = `.selection-table tr[data-site="${quote(site)}"]`;
    await ben.page.waitForSelector(row);
    const put = ben.page.waitForResponse((r) => r.url().includes('/selection') && r.request().method() === 'PUT');
    await ben.page.click(`${row} button[data-action="approved"]`);
    await answered(put, 'PUT selection');
    const sel = (await (await ben.page.request.get(`${base}api/selection?status=approved`)).json()).data.find((x) => x.site === site);
    assert(sel && sel.nominated_by === 'ana' && sel.approved_by === 'ben', `approved: ${JSON.stringify(sel)}`);
    await shot(ben.page, 'team-approved');
  });

  await step('the Selection history shows both decisions by account', async () => {
    const site = need('site', 'the site');
    await ben.page.goto(`${base}#/history?site=${encodeURIComponent(site)}`);
    await ben.page.waitForSelector('.history-table tr[data-action="approval"]');
    const rows = await ben.page.locator('.history-table tbody tr').allInnerTexts();
    assert(rows.length === 2, `${rows.length} rows: ${rows.join(' | ')}`);
    assert(rows[0].includes('ben') && rows[0].includes('approval'), `newest row: ${rows[0]}`);
    assert(rows[1].includes('ana') && rows[1].includes('nomination'), `older row: ${rows[1]}`);
    await shot(ben.page, 'team-history');
  });

  await step('ana signs out: the sign-in form again, her cookie opens nothing, and her other tab shows the form at its next call', async () => {
    const other = await ana.context.newPage();
    await other.goto(`${base}#/sites`);
    await other.waitForSelector('ss-signed-in [data-me]');
    await ana.page.goto(base);
    await ana.page.waitForSelector('#sign-out');
    await ana.page.click('#sign-out');
    await ana.page.waitForSelector('ss-sign-in form');
    const res = await ana.page.request.get(`${base}api/project`);
    assert(res.status() === 401, `after signing out GET /api/project answered HTTP ${res.status()}`);
    await other.evaluate(() => (location.hash = '#/selection'));
    await other.waitForSelector('ss-sign-in form');
    await other.close();
  });
} finally {
  await ben.browser.close();
  await closeChecked(ana.browser, ana.pageErrors.concat(ben.pageErrors));
}
finish();
