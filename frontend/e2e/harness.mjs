// The shared frame of sitesift's browser tests: configuration from the
// environment, Debian's Chromium through playwright-core, named steps that
// record a pass or a failure and go on, and the closing "N passed, M failed"
// line with the exit status.
//
//   SITESIFT_URL    address of a running `sitesift serve` (required)
//   SCREENSHOT_DIR  where screenshots go (default e2e/out/)
//   CHROMIUM_PATH   the browser (default /usr/bin/chromium)

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));

/** TIMEOUT bounds each wait of a step. */
export const TIMEOUT = 15_000;

/**
 * harness reads the environment for the test named name (exiting with status
 * 2 when SITESIFT_URL is missing) and returns its base URL, screenshot
 * directory and step helpers.
 */
export function harness(name) {
  const BASE = process.env.SITESIFT_URL;
  if (!BASE) {
    console.error(`${name}: set SITESIFT_URL to the address of a running \`sitesift serve\` (e.g. http://127.0.0.1:7777/)`);
    process.exit(2);
  }
  const shots = resolve(process.env.SCREENSHOT_DIR || join(here, 'out'));
  mkdirSync(shots, { recursive: true });
  const results = [];
  /** state carries what earlier steps found to the steps that need it. */
  const state = {};

  /** step runs fn as one named check: a failure is reported and the next step runs. */
  async function step(stepName, fn) {
    const t0 = Date.now();
    try {
      await fn();
      results.push({ name: stepName, ok: true });
      console.log(`ok    ${stepName} (${Date.now() - t0} ms)`);
    } catch (err) {
      results.push({ name: stepName, ok: false });
      console.log(`FAIL  ${stepName}: ${(err && err.message ? err.message : String(err)).split('\n')[0]}`);
    }
  }

  /** need returns what an earlier step stored under key, or fails the step saying why it cannot run. */
  function need(key, what) {
    if (state[key] === undefined) throw new Error(`skipped: ${what} is unknown because an earlier step failed`);
    return state[key];
  }

  /** launch starts Chromium and opens one page, recording its uncaught errors in pageErrors. */
  async function launch(contextOptions = {}) {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return { browser, context, page, pageErrors };
  }

  /** shot saves a screenshot of page as NAME.png in the screenshot directory. */
  async function shot(page, shotName, fullPage = false) {
    await page.screenshot({ path: join(shots, `${shotName}.png`), fullPage });
  }

  /** closeChecked checks, as a last step, that the page threw no uncaught error, and closes the browser. */
  async function closeChecked(browser, pageErrors) {
    await step('no uncaught errors in the page', async () => {
      assert(pageErrors.length === 0, `${pageErrors.length} page error(s): ${pageErrors.join(' | ')}`);
    });
    await browser.close();
  }

  /** finish prints the summary line and exits, non-zero when a step failed. */
  function finish() {
    const passed = results.filter((r) => r.ok).length;
    const failed = results.length - passed;
    console.log(`screenshots in ${shots}`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  }

  return { base: BASE.endsWith('/') ? BASE : `${BASE}/`, shots, state, step, need, launch, shot, closeChecked, finish };
}

/** assert fails the current step with msg unless cond holds. */
export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/**
 * answered waits for a response the UI should have caused, failing with what
 * was missing; unless wantOK is false, a response that is not 2xx fails too.
 */
export async function answered(promise, what, wantOK = true) {
  let res;
  try {
    res = await promise;
  } catch {
    throw new Error(`no ${what} reached the server within ${TIMEOUT / 1000} s`);
  }
  if (wantOK) assert(res.ok(), `${what} answered HTTP ${res.status()}: ${(await res.text()).slice(0, 200)}`);
  return res;
}

/** crawlEnded waits for the crawl of the server at base to end (not running, paused or stopping) and returns its status. */
export async function crawlEnded(page, base, seconds = 30) {
  const active = ['running', 'paused', 'stopping'];
  const until = Date.now() + seconds * 1000;
  let st;
  for (;;) {
    const res = await page.request.get(`${base}api/crawl`);
    assert(res.ok(), `GET /api/crawl answered HTTP ${res.status()}`);
    st = (await res.json()).data;
    if (!active.includes(st.state) || Date.now() > until) break;
    await page.waitForTimeout(250);
  }
  assert(!active.includes(st.state), `the crawl is still ${st.state} after ${seconds} s`);
  return st;
}

/**
 * addLibrarian adds a librarian profile to the project of the server at base
 * through the app's own page (writes need the page's session token), and
 * returns the project's id. Ratings and decisions take known librarians only.
 */
export async function addLibrarian(page, base, name) {
  if (!page.url().startsWith(base)) await page.goto(base);
  const { status, id } = await page.evaluate(async (n) => {
    const token = (await (await fetch('/api/session')).json()).data.token;
    const res = await fetch('/api/librarians', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sitesift-Token': token },
      body: JSON.stringify({ name: n }),
    });
    const project = (await (await fetch('/api/project')).json()).data;
    return { status: res.status, id: project.id };
  }, name);
  assert(status === 201 || status === 200, `POST /api/librarians ${name} answered HTTP ${status}`);
  return id;
}

/** chooseLibrarian makes name the librarian this browser keeps for the project id, and reloads the page (open on the app) to use it. */
export async function chooseLibrarian(page, id, name) {
  await page.evaluate(
    ([p, n]) => {
      localStorage.setItem('sitesift.project', p);
      localStorage.setItem(`sitesift.librarian.${p}`, n);
    },
    [id, name],
  );
  await page.reload();
}

/** storedLibrarian is the librarian the page's browser keeps for its project. */
export function storedLibrarian(page) {
  return page.evaluate(() => localStorage.getItem(`sitesift.librarian.${localStorage.getItem('sitesift.project')}`));
}
