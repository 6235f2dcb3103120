// Browser end-to-end test of the job feed against a running `sitesift serve`
// of an empty project of its own:
//
//   SITESIFT_URL=http://127.0.0.1:7777/ WARC_DIR=../shared/data/warc node e2e/job-feed.spec.mjs
//
// The Crawl, Lab and Import pages follow their jobs through one stream,
// GET /api/jobs/events: a lab run and an archive import are seen to their
// end with no request of their own for the job's progress, and the crawl's
// old stream is not opened. With the stream refused (as the server refuses
// one beyond its bound), the same pages poll GET /api/jobs and still see a
// run to its end. It prints "N passed, M failed" and exits non-zero when
// anything failed.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, harness } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const WARC_DIR = resolve(process.env.WARC_DIR || join(here, '..', '..', '..', 'shared', 'data', 'warc'));
const IANA = join(WARC_DIR, 'iana.warc.gz');
/** A norm-leak run and an import of a small WARC file take well under a second; the margin is for a loaded machine. */
const JOB_TIMEOUT = 60_000;

const { base, step, launch, closeChecked, finish } = harness('job-feed.spec');
if (!existsSync(IANA)) {
  console.error(`job-feed.spec: ${IANA} is missing (set WARC_DIR)`);
  process.exit(2);
}

/** watch records the API requests page makes, as "METHOD /path". */
function watch(page) {
  const seen = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(`${r.method()} ${u.pathname}`);
  });
  return { count: (re) => seen.filter((s) => re.test(s)).length, seen };
}

/** progressPolls are the requests for a job's progress that the feed replaces. */
const progressPolls = /^GET \/api\/(lab\/jobs\/\d+|imports\/status|crawl|crawl\/events)$/;

/** runNormLeak runs the norm-leak experiment on the Lab page and waits for its plot; it returns the job's id. */
async function runNormLeak(page) {
  await page.goto(`${base}#/lab`);
  const card = page.locator('#lab-normleak');
  const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/lab/normleak' && r.request().method() === 'POST');
  await card.locator('button.lab-run').click();
  const res = await started;
  assert(res.status() === 202, `POST /api/lab/normleak answered ${res.status()}`);
  const id = String((await res.json()).data.id);
  await page.waitForSelector(`#lab-normleak figure.lab-result[data-job="${id}"] img.lab-plot`, { timeout: JOB_TIMEOUT });
  return id;
}

const { browser, page, pageErrors } = await launch();
const calls = watch(page);

try {
  await step('the Crawl page follows the crawl live through the job stream', async () => {
    await page.goto(`${base}#/crawl`);
    await page.waitForSelector('.feed-mode.live');
    assert(calls.count(/^GET \/api\/jobs\/events$/) === 1, `the app opened ${calls.count(/^GET \/api\/jobs\/events$/)} job streams, want 1`);
  });

  await step("a lab run's progress and end arrive through the stream: its plot appears, its job never polled", async () => {
    const id = await runNormLeak(page);
    const polls = calls.seen.filter((s) => progressPolls.test(s));
    assert(polls.length === 0, `job ${id}: the pages asked for progress themselves: ${polls.join(', ')}`);
  });

  await step("an import's progress and end arrive through the stream: it shows done, its status never polled", async () => {
    await page.goto(`${base}#/import`);
    await page.check('input[name="import-kind"][value="warc"]');
    await page.fill('#import-warc', IANA);
    const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/imports' && r.request().method() === 'POST');
    await page.click('button.import-start');
    const res = await started;
    assert(res.status() === 202, `POST /api/imports answered ${res.status()}: ${await res.text()}`);
    await page.waitForSelector('ss-import section.import-result[data-state="done"]', { timeout: JOB_TIMEOUT });
    const polls = calls.seen.filter((s) => progressPolls.test(s));
    assert(polls.length === 0, `the pages asked for progress themselves: ${polls.join(', ')}`);
    assert(calls.count(/^GET \/api\/jobs\/events$/) === 1, `the app opened ${calls.count(/^GET \/api\/jobs\/events$/)} job streams, want the one`);
  });
} finally {
  await closeChecked(browser, pageErrors);
}

{
  // A page whose stream the server refuses, as it refuses one beyond its bound.
  const { browser: b2, page: p2, pageErrors: errors2 } = await launch();
  const polled = watch(p2);
  await p2.route('**/api/jobs/events', (route) =>
    route.fulfill({ status: 429, contentType: 'application/json', body: '{"status":"error","error_type":"busy","error":"16 job feeds are open"}' }),
  );
  try {
    await step('with the stream refused, the Crawl page polls GET /api/jobs', async () => {
      await p2.goto(`${base}#/crawl`);
      await p2.waitForSelector('.feed-mode.polling');
      await p2.waitForRequest((r) => new URL(r.url()).pathname === '/api/jobs');
    });
    await step('with the stream refused, a lab run is still seen to its end, through GET /api/jobs', async () => {
      const id = await runNormLeak(p2);
      const polls = polled.seen.filter((s) => progressPolls.test(s));
      assert(polls.length === 0, `job ${id}: the pages asked for progress themselves: ${polls.join(', ')}`);
      assert(polled.count(/^GET \/api\/jobs$/) >= 1, 'GET /api/jobs was never asked');
    });
  } finally {
    await closeChecked(b2, errors2);
  }
}

finish();
