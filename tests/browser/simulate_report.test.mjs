// Browser test of the `sluice simulate --html` report (issue #15): a user
// opening the report of an example sees which limit the design hits, on
// which resource, why and what fixes it, with every chart drawn and nothing
// overflowing the page.
//
// Runs `sluice simulate --html` on examples/hot-key.json and
// examples/gsi-backpressure.json, opens each report as a file in Debian's
// headless Chromium through playwright-core, and checks: the diagnosis names
// the limit and the fix; every chart (figure.chart) holds an SVG with drawn
// marks; the throttle chart's bars carry AWS's ThrottlingReason; the hot
// partition is marked (with text, not only colour); no element is wider than
// the page at 1280 px and at 800 px; the page makes no request beyond its own
// file and logs no error; `--compare` puts two designs side by side. Saves
// full-page screenshots next to the binary
// (build/simulate-*.png); with DOCS_SCREENSHOT=1 also to docs/.
//
// Run through tests/browser/run.sh. Environment: SLUICE_BIN, CHROMIUM
// (default /usr/bin/chromium), DOCS_SCREENSHOT=1.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const sluiceBin = path.resolve(process.env.SLUICE_BIN || path.join(root, 'build', 'sluice'));
const chromiumBin = process.env.CHROMIUM || '/usr/bin/chromium';
const outDir = path.dirname(sluiceBin);

let failures = 0;
function check(cond, what) {
  if (cond) {
    console.log(`  ok   ${what}`);
  } else {
    failures++;
    console.log(`  FAIL ${what}`);
  }
}

const reports = [
  {example: 'hot-key.json', shot: 'simulate-hot-key.png',
    diagnosis: [/by one key, 'hot0'/, /more table capacity will not help/, /shard the key/],
    reason: 'TableWriteKeyRangeThroughputExceeded', charts: ['traffic', 'throttles', 'partition-load', 'partitions']},
  {example: 'gsi-backpressure.json', shot: 'simulate-gsi-backpressure.png',
    diagnosis: [/GSI back-pressure/, /few distinct values \(3\)/],
    reason: 'IndexWriteKeyRangeThroughputExceeded', charts: ['traffic', 'throttles', 'partition-load', 'partitions']},
];

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-sim-'));
  const profile = path.join(tmp, 'profile');
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumBin,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: {width: 1280, height: 900},
      deviceScaleFactor: 1,
      colorScheme: 'light',
    });
    for (const r of reports) {
      const html = path.join(tmp, r.example.replace('.json', '.html'));
      execFileSync(sluiceBin, ['simulate', '--html', '--out', html, path.join(root, 'examples', r.example)]);
      console.log(`simulate report: ${r.example}`);
      const page = await context.newPage();
      const problems = [];
      const own = pathToFileURL(html).href;
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning')
          problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (q) => {
        if (q.url() !== own)
          problems.push(`request: ${q.url()}`);
      });
      await page.setViewportSize({width: 1280, height: 900});
      await page.goto(own, {waitUntil: 'load'});
      const diagnosis = await page.locator('section.diagnosis').innerText();
      for (const re of r.diagnosis)
        check(re.test(diagnosis), `the diagnosis says ${re}`);
      const kinds = await page.locator('figure.chart').evaluateAll((figs) => figs.map((f) => f.dataset.chart));
      for (const k of r.charts)
        check(kinds.includes(k), `a ${k} chart is present`);
      const empty = await page.locator('figure.chart').evaluateAll((figs) => figs.filter((f) => {
        const svg = f.querySelector('svg[role="img"]');
        if (!svg)
          return true;
        const box = svg.getBoundingClientRect();
        return box.width < 300 || box.height < 60 || !svg.querySelector('path.series, rect.bar');
      }).length);
      check(empty === 0, `every one of the ${kinds.length} charts has an SVG with drawn marks`);
      const captions = await page.locator('figure.chart figcaption').allInnerTexts();
      check(captions.length === kinds.length && captions.every((c) => c.length > 10), 'every chart has a caption');
      const bars = await page.locator(`figure.chart[data-chart="throttles"] rect.bar[data-reason="${r.reason}"]`).count();
      check(bars > 0, `throttle bars carry the reason ${r.reason}`);
      const legend = await page.locator('figure.chart[data-chart="throttles"] .legend').first().innerText();
      check(legend.includes(r.reason), 'the throttle chart\'s legend names the reason as AWS does');
      const summary = await page.locator('section.summary').innerText();
      check(summary.includes(r.reason), 'the summary table names the reason');
      const hot = await page.locator('figure.chart[data-chart="partition-load"] svg').evaluateAll((svgs) =>
        svgs.filter((s) => s.querySelector('rect.bar[data-hot="true"]') && /\bhot\b/.test(s.textContent)).length);
      check(hot > 0, 'a hot partition is marked, with text');
      const cost = await page.locator('section.cost').innerText();
      check(/\$\d+\.\d{3}/.test(cost) && /Prices of 2024-11-01/.test(cost), 'the cost and its price table are shown');
      for (const width of [1280, 800]) {
        await page.setViewportSize({width, height: 900});
        const over = await page.evaluate(() => {
          const vw = document.documentElement.clientWidth;
          const bad = [];
          if (document.documentElement.scrollWidth > vw)
            bad.push(`page ${document.documentElement.scrollWidth} > ${vw}`);
          for (const el of document.querySelectorAll('section, figure, table, svg')) {
            const b = el.getBoundingClientRect();
            if (b.right > vw + 0.5)
              bad.push(`${el.tagName}.${el.className.baseVal ?? el.className} right ${b.right}`);
          }
          return bad;
        });
        check(over.length === 0, `nothing overflows at ${width} px${over.length ? ': ' + over.slice(0, 3).join('; ') : ''}`);
      }
      await page.setViewportSize({width: 1280, height: 900});
      const shot = path.join(outDir, r.shot);
      await page.screenshot({path: shot, fullPage: true});
      console.log(`  screenshot: ${shot}`);
      if (process.env.DOCS_SCREENSHOT === '1') {
        fs.copyFileSync(shot, path.join(root, 'docs', r.shot));
        console.log(`  copied to docs/${r.shot}`);
      }
      check(problems.length === 0, `no console errors, page errors or other requests${problems.length ? ': ' + problems.join('; ') : ''}`);
      await page.close();
    }
    // --compare: two designs on one page, side by side on a wide screen.
    const cmp = path.join(tmp, 'compare.html');
    execFileSync(sluiceBin, ['simulate', '--compare', '--html', '--out', cmp,
      path.join(root, 'examples', 'hot-key.json'), path.join(root, 'examples', 'hot-key-sharded.json')]);
    console.log('simulate report: --compare hot-key.json hot-key-sharded.json');
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewportSize({width: 1600, height: 900});
    await page.goto(pathToFileURL(cmp).href, {waitUntil: 'load'});
    const table = await page.locator('section.comparison').innerText();
    check(/by one key, 'hot0'/.test(table) && /No throttling/.test(table), 'the comparison shows both diagnoses');
    const boxes = await page.locator('div.design').evaluateAll((ds) => ds.map((d) => d.getBoundingClientRect().left));
    check(boxes.length === 2 && boxes[1] > boxes[0] + 300, 'the two designs stand side by side at 1600 px');
    const over = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    check(!over && errors.length === 0, 'nothing overflows and no page error');
    const shot = path.join(outDir, 'simulate-compare.png');
    await page.screenshot({path: shot, fullPage: false});
    console.log(`  screenshot: ${shot}`);
    await page.close();
  } finally {
    if (context)
      await context.close().catch(() => {});
    fs.rmSync(tmp, {recursive: true, force: true});
  }
  if (failures) {
    console.log(`simulate report test: ${failures} check(s) failed`);
    process.exit(1);
  }
  console.log('simulate report test: all checks passed');
}

const guard = setTimeout(() => {
  console.log('simulate report test: timed out after 120 s');
  process.exit(1);
}, 120000);
guard.unref();

main().catch((e) => {
  console.log(`simulate report test: ${e.stack || e}`);
  process.exit(1);
});
