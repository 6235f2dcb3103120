// Browser end-to-end test of a team server's Accounts page (#/accounts): an
// admin sees every account with its last sign-in, adds an account with a
// role and gets its one-time sign-in link (which signs the new librarian
// in), changes its role, resets it (a new link, shown once), disables it
// (its session ends) and enables it again; the admin cannot disable
// themself nor demote the last admin; a curator sees no Accounts link, the
// page tells them it is the admins', and the API refuses them.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ TEAM_ADMIN=dora TEAM_CURATOR=ana TEAM_PASSWORD=… node e2e/accounts.spec.mjs
//
// The server serves a project with --team whose accounts are TEAM_ADMIN (the
// only admin) and TEAM_CURATOR (a curator, never signed in), both with the
// password TEAM_PASSWORD.

import { answered, assert, harness } from './harness.mjs';

const PASSWORD = process.env.TEAM_PASSWORD;
const ADMIN = process.env.TEAM_ADMIN || 'dora';
const CURATOR = process.env.TEAM_CURATOR || 'ana';
if (!PASSWORD) {
  console.error('accounts.spec: set TEAM_PASSWORD to the password of the accounts TEAM_ADMIN and TEAM_CURATOR');
  process.exit(2);
}

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('accounts.spec');
const NEW = `eve${process.pid}`;

const admin = await launch();
const other = await launch();

/** signIn signs in on the page's sign-in form and waits for the app's top bar. */
async function signIn(page, name) {
  await page.goto(base);
  await page.waitForSelector('ss-sign-in #signin-name');
  await page.fill('#signin-name', name);
  await page.fill('#signin-password', PASSWORD);
  const post = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await page.click('#signin-submit');
  // The page reloads on success, which drops the answer's body: its status alone is read.
  const res = await post;
  assert(res.ok(), `${name}'s sign-in answered HTTP ${res.status()}`);
  await page.waitForSelector('ss-signed-in [data-me]');
}

/** row is the Accounts table's row of name. */
const row = (page, name) => page.locator(`.accounts-table tr[data-account="${name}"]`);

/** cells gives the row's state and last sign-in as shown. */
async function cells(page, name) {
  const r = row(page, name);
  return { state: await r.getAttribute('data-state'), last: (await r.locator('td').nth(3).innerText()).trim() };
}

/** grantedLink is the sign-in link the page shows once after an add or a reset. */
async function grantedLink(page) {
  await page.waitForSelector('#granted #granted-link');
  const link = await page.inputValue('#granted-link');
  assert(new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?signin=[0-9a-f]{64}$`).test(link), `the sign-in link reads ${link}`);
  return link;
}

try {
  await step(`${ADMIN} (admin) opens Accounts under More: every account, its role, state and last sign-in`, async () => {
    await signIn(admin.page, ADMIN);
    await admin.page.click('#nav-more');
    const link = admin.page.locator('#nav-more-menu a[data-nav="accounts"]');
    assert((await link.count()) === 1, 'no Accounts under More for an admin');
    await shot(admin.page, 'accounts-more-menu');
    const list = admin.page.waitForResponse((r) => r.url().endsWith('/api/accounts') && r.request().method() === 'GET');
    await link.click();
    await answered(list, 'GET /api/accounts');
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${ADMIN}"]`);
    const me = await cells(admin.page, ADMIN);
    assert(me.state === 'active' || me.state === 'sign-in link pending', `${ADMIN}'s state: ${me.state}`);
    assert(me.last !== 'never' && /\d/.test(me.last), `${ADMIN}'s last sign-in reads "${me.last}", just after signing in`);
    const cur = await cells(admin.page, CURATOR);
    assert(cur.last === 'never', `${CURATOR}'s last sign-in reads "${cur.last}", never signed in`);
    assert((await row(admin.page, CURATOR).locator('select').inputValue()) === 'curator', `${CURATOR} is not shown a curator`);
    await shot(admin.page, 'accounts-list');
  });

  await step('the last admin can neither disable nor demote themself on the page', async () => {
    const r = row(admin.page, ADMIN);
    assert(await r.locator('[data-disable]').isDisabled(), `${ADMIN}'s Disable is offered to ${ADMIN}`);
    for (const role of ['curator', 'approver']) {
      assert(await r.locator(`option[value="${role}"]`).isDisabled(), `the last admin may be made ${role}`);
    }
  });

  await step(`${ADMIN} adds ${NEW} as an approver: a one-time sign-in link and a password, shown once`, async () => {
    await admin.page.fill('#account-name', NEW);
    await admin.page.selectOption('#account-role', 'approver');
    const post = admin.page.waitForResponse((r) => r.url().endsWith('/api/accounts') && r.request().method() === 'POST');
    await admin.page.click('#account-add');
    await answered(post, 'POST /api/accounts');
    state.link = await grantedLink(admin.page);
    const pw = await admin.page.inputValue('#granted-password');
    assert(pw.length >= 12, `the generated password reads "${pw}"`);
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${NEW}"]`);
    const c = await cells(admin.page, NEW);
    assert(c.state === 'sign-in link pending' && c.last === 'never', `${NEW}: ${JSON.stringify(c)}`);
    assert((await row(admin.page, NEW).locator('select').inputValue()) === 'approver', `${NEW} is not an approver`);
    await shot(admin.page, 'accounts-added');
  });

  await step(`the link signs ${NEW} in, once; the page then shows ${NEW}'s last sign-in`, async () => {
    const link = need('link', 'the sign-in link');
    await other.page.goto(link);
    await other.page.waitForSelector('ss-signed-in [data-me]');
    assert((await other.page.innerText('ss-signed-in [data-me]')) === NEW, 'the link did not sign the new account in');
    assert(!other.page.url().includes('signin='), `the link stays in the address bar: ${other.page.url()}`);
    await other.page.click('#nav-more');
    await other.page.waitForSelector('#nav-more-menu a[data-nav="history"]');
    assert((await other.page.locator('#nav-more-menu a[data-nav="accounts"]').count()) === 0, 'an approver is offered Accounts');
    await admin.page.reload();
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${NEW}"]`);
    const c = await cells(admin.page, NEW);
    assert(c.state === 'active' && c.last !== 'never', `${NEW} after signing in: ${JSON.stringify(c)}`);
  });

  await step(`${ADMIN} makes ${NEW} a curator`, async () => {
    const put = admin.page.waitForResponse((r) => r.url().endsWith(`/api/accounts/${NEW}`) && r.request().method() === 'PUT');
    await row(admin.page, NEW).locator('select').selectOption('curator');
    await answered(put, 'PUT role');
    await admin.page.reload();
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${NEW}"]`);
    assert((await row(admin.page, NEW).locator('select').inputValue()) === 'curator', `${NEW}'s role after a reload`);
    const me = await (await other.page.request.get(`${base}api/me`)).json();
    assert(me.data.role === 'curator', `${NEW}'s session says role ${me.data.role}`);
  });

  await step(`${ADMIN} resets ${NEW} after confirming: a new link, shown once; ${NEW}'s session ends`, async () => {
    await row(admin.page, NEW).locator('[data-reset]').click();
    assert((await admin.page.locator('#granted').count()) === 0, 'the first click reset the account without confirming');
    const put = admin.page.waitForResponse((r) => r.url().endsWith(`/api/accounts/${NEW}`) && r.request().method() === 'PUT');
    await row(admin.page, NEW).locator('[data-reset]').click();
    await answered(put, 'PUT reset');
    const link = await grantedLink(admin.page);
    assert(link !== need('link', 'the first link'), 'the reset gave the same link');
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${NEW}"][data-state="sign-in link pending"]`);
    const res = await other.page.request.get(`${base}api/me`);
    assert(res.status() === 401, `${NEW}'s session after the reset: HTTP ${res.status()}`);
    await shot(admin.page, 'accounts-reset');
    state.link2 = link;
  });

  await step(`${ADMIN} disables ${NEW}: the new link no longer signs in; then enables ${NEW} again`, async () => {
    const put = admin.page.waitForResponse((r) => r.url().endsWith(`/api/accounts/${NEW}`) && r.request().method() === 'PUT');
    await row(admin.page, NEW).locator('[data-disable]').click();
    await answered(put, 'PUT disable');
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${NEW}"][data-state="disabled"]`);
    assert((await admin.page.locator('#granted').count()) === 0, 'the reset’s password and link are still shown after the next action');
    await shot(admin.page, 'accounts-disabled');
    await other.page.goto(need('link2', 'the new link'));
    await other.page.waitForSelector('ss-sign-in #signin-error');
    const put2 = admin.page.waitForResponse((r) => r.url().endsWith(`/api/accounts/${NEW}`) && r.request().method() === 'PUT');
    await row(admin.page, NEW).locator('[data-enable]').click();
    await answered(put2, 'PUT enable');
    await admin.page.waitForSelector(`.accounts-table tr[data-account="${NEW}"][data-state="active"]`);
  });

  await step(`${CURATOR} (curator) sees no Accounts under More; #/accounts says it is the admins'; the API answers 403`, async () => {
    await other.context.clearCookies();
    await signIn(other.page, CURATOR);
    await other.page.click('#nav-more');
    await other.page.waitForSelector('#nav-more-menu a[data-nav="history"]');
    assert((await other.page.locator('#nav-more-menu a[data-nav="accounts"]').count()) === 0, 'a curator is offered Accounts');
    await other.page.goto(`${base}#/accounts`);
    await other.page.waitForSelector('#accounts-not-admin');
    assert((await other.page.locator('.accounts-table, .accounts-add').count()) === 0, 'a curator is shown the accounts or the form');
    const res = await other.page.request.get(`${base}api/accounts`);
    assert(res.status() === 403, `GET /api/accounts as a curator: HTTP ${res.status()}`);
    await shot(other.page, 'accounts-curator');
  });
} finally {
  await other.browser.close();
  await closeChecked(admin.browser, admin.pageErrors.concat(other.pageErrors));
}
finish();
