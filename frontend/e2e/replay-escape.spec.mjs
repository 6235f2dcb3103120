// Browser test: an archived page never acts with the app's authority.
//
//   SITESIFT_URL=http://127.0.0.1:7777/ [TEAM_URL=… TEAM_ADMIN=name TEAM_PASSWORD=…] \
//     node e2e/replay-escape.spec.mjs
//
// The servers serve a project that crawled http://evil.test/ (e2e/evil-web.mjs):
// a page whose script tries every way out of ReplayWeb.page's frame (top,
// parent, (0,eval)('this').top, Function('return this')(), opener, a blob
// worker, an about:blank frame, wbinfo.prefix, the app's origin directly,
// the app's document and cookies, a message that claims to be the replay's,
// a form), and a second page that tries to navigate the app away and open
// popups. Each site page is opened as the app's user would (on the team
// server, signed in as an admin), the replay runs, and then: every attempt
// of the page says "blocked"; no librarian and no account named evil-…
// exists; the app's page is where it was, with no popup; the replay frame is
// of another origin than the app's, and the app's pages send a
// Content-Security-Policy that lets no other site frame them.

import { assert, harness } from './harness.mjs';

/** REPLAY_TIMEOUT: the replay's service worker starts and reads the WACZ file first: seconds on a loaded machine. */
const REPLAY_TIMEOUT = 90_000;

const { base, step, need, state, launch, shot, closeChecked, finish } = harness('replay-escape.spec');
const team = process.env.TEAM_URL ? new URL(process.env.TEAM_URL).href : '';

/** evilLog waits until the replayed evil.test page has made all its attempts and returns its log's lines. */
async function evilLog(page) {
  const until = Date.now() + REPLAY_TIMEOUT;
  while (Date.now() < until) {
    for (const f of page.frames()) {
      if (!f.url().includes('mp_/http://evil.test/')) continue;
      const log = await f.locator('#log').textContent({ timeout: 500 }).catch(() => '');
      if (log.includes('done: all attempts made')) return log.trim().split('\n');
    }
    await page.waitForTimeout(250);
  }
  const src = await page.locator('ss-captured iframe.replay-frame').getAttribute('src', { timeout: 1000 }).catch(() => '(no frame)');
  const panel = await page.locator('ss-captured').innerText({ timeout: 1000 }).catch(() => '(no panel)');
  throw new Error(`the replay of http://evil.test/ did not finish its attempts in ${REPLAY_TIMEOUT / 1000} s; frames: ${page.frames().map((f) => f.url()).join(' ')}; the replay frame: ${src}; the panel: ${panel.replace(/\s+/g, ' ').slice(0, 300)}`);
}

/** apiData reads an API answer's data through the page's own session. */
async function apiData(page, at, path) {
  const res = await page.request.get(new URL(path, at).href);
  const env = await res.json();
  assert(env.status === 'success', `GET ${path}: ${res.status()} ${env.error ?? ''}`);
  return env.data;
}

/** attack replays evil.test's pages on the site page of the app at at, in page, and checks that nothing of the app's was reached. */
async function attack(page, context, at, label) {
  await page.goto(`${at}#/sites/evil.test`);
  const log = await evilLog(page);
  console.log(`      ${log.length} attempts: ${log.map((l) => l.split(':')[0]).join(', ')}`);
  const reached = log.filter((l) => l.includes('REACHED'));
  assert(reached.length === 0, `attempts reached the app: ${reached.join(' | ')}`);
  for (const name of ['eval-this-top', 'function-this-top', 'top', 'parent', 'blob-worker', 'about-blank-fetch', 'wbinfo-prefix', 'direct-fetch', 'top-document', 'form-post']) {
    assert(log.some((l) => l.startsWith(`${name}:`)), `no attempt ${name} in the log: ${log.join(' | ')}`);
  }
  const frame = page.locator('ss-captured iframe.replay-frame');
  const src = await frame.getAttribute('src');
  assert(new URL(src).origin !== new URL(at).origin, `the replay frame ${src} is of the app's own origin`);
  const sandbox = (await frame.getAttribute('sandbox')) ?? '';
  assert(sandbox && !sandbox.includes('allow-top-navigation') && !sandbox.includes('allow-popups'), `the replay frame's sandbox is "${sandbox}"`);
  // The message the page sent as if it were the replay's: text at most.
  assert((await page.locator('ss-captured img[src="x"]').count()) === 0, 'the fake message put markup in the panel');
  await shot(page, `replay-escape-${label}`);

  // other.html navigates the app's page away and opens popups, by each of its windows.
  await page.locator('ss-captured button[data-captured-url="http://evil.test/other.html"]').click();
  const until = Date.now() + REPLAY_TIMEOUT;
  while (Date.now() < until && !page.frames().some((f) => f.url().includes('mp_/http://evil.test/other.html'))) await page.waitForTimeout(250);
  await page.waitForTimeout(3000);
  assert(page.url() === `${at}#/sites/evil.test`, `the app's page went to ${page.url()}`);
  assert(context.pages().length === 1, `popups opened: ${context.pages().map((p) => p.url()).join(' ')}`);

  const librarians = await apiData(page, at, 'api/librarians');
  const evil = (librarians ?? []).filter((l) => String(l.name ?? l).startsWith('evil'));
  assert(evil.length === 0, `librarians added by the archived page: ${JSON.stringify(evil)}`);
  return log;
}

await step('the app sends a Content-Security-Policy: its own scripts, frames of the replay origin alone, framed by itself alone', async () => {
  const res = await fetch(base);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert(csp.includes("frame-ancestors 'self'") && csp.includes("script-src 'self'") && /frame-src http:\/\/[^ ;]+/.test(csp), `CSP: ${csp}`);
  const sw = await fetch(new URL('replay/sw.js', base));
  assert(sw.status === 404, `the app's origin serves replay/sw.js: HTTP ${sw.status}`);
});

{
  const { browser, context, page, pageErrors } = await launch();
  await step('a link inside the replay to a page never captured says so plainly, with the way back', async () => {
    await page.goto(`${base}#/sites/evil.test`);
    await evilLog(page);
    const f = page.frames().find((x) => x.url().includes('mp_/http://evil.test/'));
    await f.locator('a', { hasText: 'a page never captured' }).click();
    const shown = page.locator('ss-captured [data-captured-shown="not-captured"]');
    await shown.waitFor({ timeout: REPLAY_TIMEOUT });
    const text = await shown.innerText();
    assert(text.includes('Not captured') && text.includes('http://evil.test/never-captured.html'), `the panel says "${text}"`);
    await shot(page, 'replay-not-captured');
    await shown.locator('[data-captured-back]').click();
    await evilLog(page);
    assert((await page.locator('ss-captured [data-captured-shown]').count()) === 0, 'the note stays after going back');
  });
  await step('serve: the archived page replays on the site page and none of its escapes reaches the app', async () => {
    await attack(page, context, base, 'serve');
  });
  await closeChecked(browser, pageErrors);
}

if (team) {
  const { browser, context, page, pageErrors } = await launch();
  await step('serve --team: signed in as an admin, the archived page replays and neither an account nor a librarian appears', async () => {
    await page.goto(team);
    await page.waitForSelector('ss-sign-in #signin-name');
    await page.fill('#signin-name', process.env.TEAM_ADMIN ?? 'admin');
    await page.fill('#signin-password', process.env.TEAM_PASSWORD ?? '');
    const post = page.waitForResponse((r) => r.url().endsWith('/api/login'));
    await page.click('#signin-submit');
    assert((await post).ok(), 'the admin could not sign in');
    await page.waitForSelector('ss-app');
    const before = (await apiData(page, team, 'api/accounts')).length;
    state.accounts = before;
    await attack(page, context, team, 'team');
    const accounts = await apiData(page, team, 'api/accounts');
    const evil = accounts.filter((a) => a.name.startsWith('evil'));
    assert(evil.length === 0 && accounts.length === need('accounts', 'the accounts before'), `accounts added by the archived page: ${JSON.stringify(evil)}`);
  });
  await closeChecked(browser, pageErrors);
}

finish();
