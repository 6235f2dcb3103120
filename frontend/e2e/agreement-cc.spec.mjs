// Browser end-to-end test of Common Crawl's ranks on the Agreement page,
// against a running `sitesift serve` on a project imported from a Common
// Crawl–style host graph with --cc-ranks and rated by two librarians (see
// .ci/ui-test).
//
//   SITESIFT_URL=http://127.0.0.1:7777/ node e2e/agreement-cc.spec.mjs
//
// The table scores "CC harmonic" and "CC PageRank" as it scores the other
// measures, the panel beside them shows the API's comparisons with OPIC and
// PageRank, and a Common Crawl row's confusion matrix opens on click and is
// kept after a reload. It prints "N passed, M failed" and exits non-zero
// when anything failed.

import { assert, harness } from './harness.mjs';

const { base, state, step, need, launch, shot, closeChecked, finish } = harness('agreement-cc.spec');
const { browser, page, pageErrors } = await launch();

/** fixed formats a coefficient as the page does: three decimals, '–' for null. */
const fixed = (x) => (x === null || x === undefined ? '–' : x.toFixed(3));

try {
  await step('the API scores the Common Crawl ranks and compares them with OPIC and PageRank', async () => {
    const r = await page.request.get(`${base}api/agreement`);
    const { data } = await r.json();
    const raters = (data.rows ?? []).map((x) => x.rater);
    assert(raters.includes('cc_harmonic') && raters.includes('cc_pagerank'), `the rows are ${raters.join(', ')}`);
    const cs = data.comparisons ?? [];
    assert(cs.length === 4, `${cs.length} comparisons: ${JSON.stringify(cs)}`);
    state.api = data;
  });

  await step('the Agreement page shows both Common Crawl measures in its table', async () => {
    const api = need('api', "the API's report");
    await page.goto(`${base}#/agreement`);
    for (const m of ['cc_harmonic', 'cc_pagerank']) {
      const row = page.locator(`ss-agreement table.agreement-table tr[data-rater="${m}"][data-kind="measure"]`);
      await row.waitFor();
      const want = api.rows.find((x) => x.rater === m);
      const spearman = await row.locator('td[data-col="spearman"]').innerText();
      assert(spearman === fixed(want.spearman), `${m}: Spearman "${spearman}" on the page, ${fixed(want.spearman)} in the API`);
      const label = await row.locator('td.rater').innerText();
      assert(/^CC /.test(label), `${m} is labelled "${label}"`);
    }
  });

  await step("the comparisons panel shows the API's figures", async () => {
    const api = need('api', "the API's report");
    const panel = page.locator('ss-agreement section.cc-comparisons');
    await panel.waitFor();
    for (const c of api.comparisons) {
      const row = panel.locator(`tr[data-measure="${c.measure}"][data-with="${c.with}"]`);
      const sp = await row.locator('td[data-col="spearman"]').innerText();
      const kt = await row.locator('td[data-col="kendall"]').innerText();
      assert(sp === fixed(c.spearman) && kt === fixed(c.kendall_tau),
        `${c.measure} with ${c.with}: page ${sp} / ${kt}, API ${fixed(c.spearman)} / ${fixed(c.kendall_tau)}`);
    }
    await shot(page, 'agreement-cc');
  });

  await step("a Common Crawl row's confusion matrix opens on click and stays after a reload", async () => {
    await page.click('ss-agreement table.agreement-table tr[data-rater="cc_harmonic"] td.rater');
    await page.waitForSelector('ss-agreement .heatmap[data-rater="cc_harmonic"]');
    await page.reload();
    await page.waitForSelector('ss-agreement .heatmap[data-rater="cc_harmonic"]');
    const sel = await page.inputValue('#agreement-rater');
    assert(sel === 'cc_harmonic', `the rater chooser holds "${sel}" after the reload`);
  });
} finally {
  await closeChecked(browser, pageErrors);
}
finish();
