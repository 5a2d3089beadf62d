// Browser test of the dashboard (issues #6 and #18): a user running the hot-key
// scenario of docs/capacity.md sees, on GET /dashboard, which partition is
// hot, which key is throttled and why.
//
// Starts its own sluice with a manual clock (SLUICE_BIN, default
// build/sluice), drives a hot-key workload over raw HTTP (sluice accepts any
// Authorization header), opens the dashboard in Debian's headless Chromium
// through playwright-core, and checks: the hot partition is marked (with
// text, not only colour), the reason TableWriteKeyRangeThroughputExceeded is
// shown, the throttled key is named, the manual clock and its advance
// buttons work, the query workbench previews a statement and runs it for the
// units it predicted, the page makes no request to another origin and logs no
// error (a Content-Security-Policy violation is one). Saves a full-page
// screenshot next to the binary (build/dashboard.png); with
// DOCS_SCREENSHOT=1 also to docs/dashboard.png.
//
// Run through tests/browser/run.sh (installs playwright-core, never a
// browser). Environment: SLUICE_BIN, CHROMIUM (default /usr/bin/chromium),
// SCREENSHOT (output path), DOCS_SCREENSHOT=1.
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const sluiceBin = path.resolve(process.env.SLUICE_BIN || path.join(root, 'build', 'sluice'));
const chromiumBin = process.env.CHROMIUM || '/usr/bin/chromium';
const screenshot = path.resolve(process.env.SCREENSHOT || path.join(path.dirname(sluiceBin), 'dashboard.png'));
const HOT_KEY = 'customer#42';
const REASON = 'TableWriteKeyRangeThroughputExceeded';

let failures = 0;
function check(cond, what) {
  if (cond) {
    console.log(`  ok   ${what}`);
  } else {
    failures++;
    console.log(`  FAIL ${what}`);
  }
}

function startSluice() {
  return new Promise((resolve, reject) => {
    const child = spawn(sluiceBin, ['serve', '--port', '0', '--clock', 'manual',
      '--clock-start', '2026-11-30T12:00:00Z', '--log-level', 'warn'],
    {stdio: ['ignore', 'pipe', 'inherit']});
    let buf = '';
    const timer = setTimeout(() => reject(new Error('sluice did not print its address in 10 s')), 10000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`sluice exited early (${code})`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /listening on (http:\/\/[^\s/]+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        child.removeAllListeners('exit');
        resolve({child, endpoint: m[1]});
      }
    });
  });
}

const agent = new http.Agent({keepAlive: true, maxSockets: 1});

function request(endpoint, method, urlPath, body, headers) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = http.request(new URL(urlPath, endpoint), {
      method, agent,
      headers: Object.assign(data ? {'Content-Length': data.length} : {}, headers || {}),
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch (_) { /* not JSON */ }
        resolve({status: res.statusCode, headers: res.headers, text, json});
      });
    });
    req.on('error', reject);
    if (data)
      req.write(data);
    req.end();
  });
}

function streams(endpoint, op, body) {
  return request(endpoint, 'POST', '/', body, {
    'Content-Type': 'application/x-amz-json-1.0',
    'X-Amz-Target': `DynamoDBStreams_20120810.${op}`,
    Authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, ' +
      'SignedHeaders=host, Signature=0',
  });
}

function autoscaling(endpoint, op, body) {
  return request(endpoint, 'POST', '/', body, {
    'Content-Type': 'application/x-amz-json-1.1',
    'X-Amz-Target': `AnyScaleFrontendService.${op}`,
    Authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/application-autoscaling/aws4_request, ' +
      'SignedHeaders=host, Signature=0',
  });
}

// Reads every shard of a table's stream to its end (as a consumer would).
async function readStream(endpoint, table) {
  const d = await mustCall(endpoint, 'DescribeTable', {TableName: table});
  const desc = (await streams(endpoint, 'DescribeStream', {StreamArn: d.Table.LatestStreamArn})).json.StreamDescription;
  let n = 0;
  for (const sh of desc.Shards) {
    let it = (await streams(endpoint, 'GetShardIterator', {StreamArn: d.Table.LatestStreamArn,
      ShardId: sh.ShardId, ShardIteratorType: 'TRIM_HORIZON'})).json.ShardIterator;
    for (let k = 0; it && k < 20; k++) {
      const r = (await streams(endpoint, 'GetRecords', {ShardIterator: it, Limit: 1000})).json;
      n += r.Records.length;
      it = r.NextShardIterator;
      if (!r.Records.length)
        break;
    }
  }
  return n;
}

function dynamodb(endpoint, op, body) {
  return request(endpoint, 'POST', '/', body, {
    'Content-Type': 'application/x-amz-json-1.0',
    'X-Amz-Target': `DynamoDB_20120810.${op}`,
    Authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, ' +
      'SignedHeaders=host, Signature=0',
  });
}

async function mustCall(endpoint, op, body) {
  const r = await dynamodb(endpoint, op, body);
  if (r.status !== 200)
    throw new Error(`${op} failed: ${r.status} ${r.text}`);
  return r.json;
}

const advance = (endpoint, ms) => request(endpoint, 'POST', '/_sluice/clock', {advance_ms: ms},
  {'Content-Type': 'application/json'});

function item(pk, size) {
  return {pk: {S: pk}, payload: {S: 'x'.repeat(size - pk.length - 'pk'.length - 'payload'.length)}};
}

// The hot-key scenario: an on-demand table (four partitions, 1,032.5 WCU/s
// each) takes ~1,000 writes a second of one 1 KB item, next to a trickle of
// other keys and some reads; each clock second about 880 writes of the hot
// key succeed and the rest throttle with TableWriteKeyRangeThroughputExceeded
// while the table stays near a quarter of its 4,130 WCU/s.
async function workload(endpoint) {
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Orders',
    AttributeDefinitions: [{AttributeName: 'pk', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}],
    BillingMode: 'PAY_PER_REQUEST',
  });
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Customers',
    AttributeDefinitions: [{AttributeName: 'pk', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}],
    ProvisionedThroughput: {ReadCapacityUnits: 25, WriteCapacityUnits: 10},
  });
  await mustCall(endpoint, 'UpdateContributorInsights', {
    TableName: 'Orders', ContributorInsightsAction: 'ENABLE'});
  const counts = {ok: 0, throttled: 0, reasons: new Map()};
  for (let i = 0; i < 8; i++)
    await mustCall(endpoint, 'PutItem', {TableName: 'Customers', Item: item(`customer#${i}`, 400)});
  const seconds = 8;
  for (let s = 0; s < seconds; s++) {
    const hot = s < 3 ? 300 + 200 * s : 1000;
    for (let i = 0; i < hot; i++) {
      const r = await dynamodb(endpoint, 'PutItem', {TableName: 'Orders', Item: item(HOT_KEY, 1000)});
      if (r.status === 200) {
        counts.ok++;
      } else {
        counts.throttled++;
        for (const x of (r.json && (r.json.throttlingReasons || r.json.ThrottlingReasons)) || [])
          counts.reasons.set(x.reason, (counts.reasons.get(x.reason) || 0) + 1);
      }
      if (i % 20 === 0)
        await dynamodb(endpoint, 'PutItem', {TableName: 'Orders', Item: item(`order#${s}-${i}`, 700)});
      if (i % 8 === 0)
        await dynamodb(endpoint, 'GetItem', {TableName: 'Orders', Key: {pk: {S: `order#${s}-${i - (i % 20)}`}}});
    }
    if (s < seconds - 1)
      await advance(endpoint, 1000);
  }
  return counts;
}

// After the run (issue 18): the load has stopped; 30 s and then 10 min later a
// freshly opened page, without a click, opens on the table that throttled,
// counts its throttles in the window, marks the partition that throttled
// (though it is not hot any more) and names the hot partition key. Then
// Orders is deleted and created again: the new incarnation starts at zero
// and /metrics no longer shows the old one's throttles.
async function afterTheRun(endpoint, context) {
  // One partition key written with many sort keys throttles as one culprit
  // (Contributor Insights off: the page groups the recent events).
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Readings',
    AttributeDefinitions: [{AttributeName: 'device', AttributeType: 'S'}, {AttributeName: 'ts', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'device', KeyType: 'HASH'}, {AttributeName: 'ts', KeyType: 'RANGE'}],
    ProvisionedThroughput: {ReadCapacityUnits: 1, WriteCapacityUnits: 1},
    StreamSpecification: {StreamEnabled: true, StreamViewType: 'NEW_IMAGE'},
  });
  let readingsThrottled = 0;
  for (let i = 0; i < 400 && readingsThrottled < 40; i++) {
    const r = await dynamodb(endpoint, 'PutItem', {TableName: 'Readings',
      Item: {device: {S: 'device#7'}, ts: {S: `t${String(i).padStart(4, '0')}`}, v: {S: 'x'.repeat(900)}}});
    if (r.status !== 200)
      readingsThrottled++;
  }
  check(readingsThrottled > 0, `writes of one partition key with many sort keys throttle (${readingsThrottled})`);
  {
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Readings`, {waitUntil: 'load'});
    const grouped = page.locator('.topkeys table.keys tr.pk', {hasText: 'device=device#7'});
    await grouped.first().waitFor({timeout: 10000});
    const rows = await page.locator('.topkeys table.keys tr.pk').count();
    const text = await grouped.first().innerText();
    check(rows === 1 && /\d+ sort keys/.test(text),
      `the throttled keys are grouped by partition key, the sort keys under it (${text.replace(/\s+/g, ' ')})`);
    const listed = await page.locator('#tables tr', {has: page.getByRole('button', {name: /^Readings\b/})}).innerText();
    check(/stream NEW_IMAGE · 1 open shard/.test(listed), 'the table list shows the stream and its shards');
    // Nobody has read the stream: every record is unread, the shard never read.
    const stream = page.locator('section.stream');
    await stream.waitFor({timeout: 10000});
    const unreadText = await stream.innerText();
    check(/[\d,]+ records? not read yet/.test(unreadText) && /never read/.test(unreadText),
      `the stream view counts the records nobody read (${(unreadText.match(/[\d,]+ records? not read yet[^\n]*/) || [''])[0]})`);
    const diagnosis = await page.locator('section.diagnosis').innerText();
    check(/Most throttled partition key: device=device#7 \([\d,]+ throttles, over [\d,]+ sort keys\)/.test(diagnosis),
      'the diagnosis names the partition key device=device#7 over its sort keys');
    await page.close();
  }
  // LSIs share the table's capacity: their item collections are shown, per
  // partition-key value, against the 10 GB limit.
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Threads',
    AttributeDefinitions: [{AttributeName: 'forum', AttributeType: 'S'}, {AttributeName: 'id', AttributeType: 'S'},
      {AttributeName: 'last', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'forum', KeyType: 'HASH'}, {AttributeName: 'id', KeyType: 'RANGE'}],
    LocalSecondaryIndexes: [{IndexName: 'byLast', KeySchema: [{AttributeName: 'forum', KeyType: 'HASH'},
      {AttributeName: 'last', KeyType: 'RANGE'}], Projection: {ProjectionType: 'ALL'}}],
    BillingMode: 'PAY_PER_REQUEST',
  });
  for (let i = 0; i < 12; i++)
    await mustCall(endpoint, 'PutItem', {TableName: 'Threads', Item: {forum: {S: i < 9 ? 'forum#big' : 'forum#small'},
      id: {S: `t${i}`}, last: {S: `2026-11-30T12:0${i % 10}`}, body: {S: 'x'.repeat(2000)}}});
  {
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Threads`, {waitUntil: 'load'});
    const coll = page.locator('.collections');
    await coll.waitFor({timeout: 10000}).catch(() => {});
    const text = (await coll.count()) ? await coll.innerText() : '';
    const first = (await coll.count()) ? await coll.locator('tbody tr').first().innerText() : '';
    check(/forum=forum#big/.test(first) && /of 10 GB/.test(first) && /2 collections/.test(text),
      `a table with an LSI shows its largest item collections against 10 GB (${first.replace(/\s+/g, ' ')})`);
    const listed = await page.locator('#tables tr', {has: page.getByRole('button', {name: /^Threads\b/})}).innerText();
    check(/largest item collection [\d.]+ KB of 10 GB/.test(listed), 'the table list shows the largest item collection of an LSI table');
    await page.close();
  }

  // A GSI with a multi-attribute key (two HASH and two RANGE attributes):
  // its section names every key attribute in KeySchema order, and its
  // throttled keys are the tuples, named by the tuple of attribute names.
  // The index's burst is drained first, so its 1 WCU throttles the second
  // write at once (deterministic on the manual clock).
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Events',
    AttributeDefinitions: [{AttributeName: 'id', AttributeType: 'S'}, {AttributeName: 'tenant', AttributeType: 'S'},
      {AttributeName: 'region', AttributeType: 'S'}, {AttributeName: 'day', AttributeType: 'S'},
      {AttributeName: 'seq', AttributeType: 'N'}],
    KeySchema: [{AttributeName: 'id', KeyType: 'HASH'}],
    ProvisionedThroughput: {ReadCapacityUnits: 100, WriteCapacityUnits: 100},
    GlobalSecondaryIndexes: [{IndexName: 'byTenant', KeySchema: [
      {AttributeName: 'tenant', KeyType: 'HASH'}, {AttributeName: 'region', KeyType: 'HASH'},
      {AttributeName: 'day', KeyType: 'RANGE'}, {AttributeName: 'seq', KeyType: 'RANGE'}],
    Projection: {ProjectionType: 'KEYS_ONLY'}, ProvisionedThroughput: {ReadCapacityUnits: 1, WriteCapacityUnits: 1}}],
  });
  const drained = await request(endpoint, 'POST', '/_sluice/faults',
    {action: 'drain_burst', table: 'Events', index: 'byTenant'}, {'Content-Type': 'application/json'});
  check(drained.status === 200, `the GSI's burst is drained (${drained.status})`);
  let gsiThrottled = 0;
  for (let i = 0; i < 20; i++) {
    const r = await dynamodb(endpoint, 'PutItem', {TableName: 'Events', Item: {id: {S: `e${i}`},
      tenant: {S: 'acme'}, region: {S: 'eu'}, day: {S: '2026-11-30'}, seq: {N: String(i)}}});
    if (r.status !== 200 && /IndexWriteProvisionedThroughputExceeded/.test(r.text))
      gsiThrottled++;
  }
  check(gsiThrottled > 0, `writes throttle on the multi-attribute GSI (${gsiThrottled})`);
  {
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Events`, {waitUntil: 'load'});
    const section = page.locator('section.resource', {has: page.locator('h2', {hasText: 'byTenant (on Events)'})});
    const schema = section.locator('li.keyschema');
    const keyRow = section.locator('.topkeys table.keys tr.pk', {hasText: '[tenant, region]=[acme, eu]'});
    const sortRow = section.locator('.topkeys table.keys tr.sk', {hasText: '[day, seq]=[2026-11-30, '});
    /* Each wait fails the test if the row never appears. */
    await schema.waitFor({timeout: 10000});
    await keyRow.first().waitFor({timeout: 10000});
    await sortRow.first().waitFor({timeout: 10000});
    /* Paused, the page stops redrawing: the reads below see one rendering. */
    await page.locator('#pause').click();
    await page.waitForFunction(() => document.getElementById('pause').getAttribute('aria-pressed') === 'true');
    const schemaText = (await schema.innerText()).replace(/\s+/g, ' ');
    check(schemaText === 'partition key attributes tenant, region · sort key attributes day, seq',
      `the GSI's section lists every key attribute in order (${schemaText})`);
    const tableSchema = (await page.locator('section.resource', {has: page.locator('h2', {hasText: /^Events$/})})
      .locator('li.keyschema').innerText()).replace(/\s+/g, ' ');
    check(tableSchema === 'partition key id', `the table's section names its key (${tableSchema})`);
    check(true, 'the GSI\'s throttled keys are its key tuples, named by the tuple of attributes');
    const shot = screenshot.replace(/\.png$/, '-tuple-gsi.png');
    await page.screenshot({path: shot, fullPage: true});
    console.log(`  screenshot of a multi-attribute GSI: ${shot}`);
    await page.close();
  }

  const steps = [['30 s', 30000, '1 min'], ['10 min', 570000, '15 min']];
  for (const [when, ms, windowLabel] of steps) {
    await advance(endpoint, ms);
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard`, {waitUntil: 'load'});
    const orders = page.getByRole('button', {name: /^Orders\b/});
    await page.waitForFunction(() => {
      const b = [...document.querySelectorAll('#tables button')].find((x) => /^Orders\b/.test(x.textContent));
      return b && b.getAttribute('aria-pressed') === 'true' && document.querySelector('section.diagnosis');
    }, null, {timeout: 10000}).catch(() => {});
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shot = screenshot.replace(/\.png$/, `-after-${when.replace(' ', '')}.png`);
    await page.screenshot({path: shot, fullPage: true});
    console.log(`  screenshot ${when} after the run: ${shot}`);
    check(await orders.getAttribute('aria-pressed') === 'true', `${when} after the run, a fresh page opens on Orders, the table that throttled`);
    const win = await page.locator('#window-buttons button[aria-pressed="true"]').innerText();
    const note = await page.locator('#window-note').innerText();
    check(win === 'Auto' && note.includes(windowLabel === '1 min' ? 'minute' : '15 minutes'),
      `${when} after: the window is chosen automatically (${note})`);
    const row = page.locator('#tables tr', {has: orders});
    const thr = Number(await row.getAttribute('data-throttles'));
    check(thr > 100 && /THROTTLED/.test(await row.innerText()),
      `${when} after: the table list counts Orders' throttles in the window (${thr})`);
    const heading = await page.locator('#throttles-h').innerText();
    check(heading === `Throttles (${windowLabel})`, `${when} after: the throttles column names its window (${heading})`);
    const marked = page.locator('table.partitions tr[data-throttled="true"]');
    const n = await marked.count();
    const markedText = n ? await marked.first().innerText() : '';
    check(n === 1 && /throttled [\d,]+ times in the last (minute|15 minutes), last at 12:00:0\d/.test(markedText),
      `${when} after: the partition that throttled is marked with its count and time (${markedText.split('\n').slice(0, 2).join(' ')})`);
    const normalWithThrottles = await page.locator('table.partitions tr[data-throttled="false"][data-hot="false"]')
      .evaluateAll((rs) => rs.filter((r) => /\bnormal\b/.test(r.cells[1].innerText) && !/before the window/.test(r.innerText) &&
        /\d+ throttles?/.test(r.innerText)).length);
    check(normalWithThrottles === 0, `${when} after: no partition says "normal" next to throttles in the window`);
    const diagnosis = await page.locator('section.diagnosis').innerText();
    check(diagnosis.includes(`pk=${HOT_KEY}`) && diagnosis.includes(REASON) && /Partition \d/ .test(diagnosis),
      `${when} after: the diagnosis names the reason, the partition and pk=${HOT_KEY}`);
    check(!/no throttling/.test(diagnosis), `${when} after: the headline does not say "no throttling"`);
    const firstRow = await page.locator('#tables-body tr').first().getAttribute('data-throttles');
    const allThr = await page.locator('#tables-body tr').evaluateAll((rs) => rs.map((r) => Number(r.dataset.throttles)));
    check(Number(firstRow) === thr && allThr.every((v, i) => i === 0 || v <= allThr[i - 1]),
      `${when} after: the table list is sorted by throttles in the window, Orders first (${allThr.join(', ')})`);
    await page.close();
  }

  // A user-chosen window: 1 min shows nothing 10 min later, and says so.
  // The choice is made while a refresh of the automatic window (15 min) is
  // loading: its partitions are held back until after the click, so a page
  // that drew them beside a diagnosis of the new window would be caught.
  {
    const page = await context.newPage();
    let armed = false;
    let caught = null;
    const caughtP = new Promise((r) => { caught = r; });
    let release = null;
    const released = new Promise((r) => { release = r; });
    await page.route(/\/capacity\?window_s=900$/, async (route) => {
      if (armed) {
        armed = false;
        caught(true);
        await released;
      }
      await route.continue();
    });
    await page.goto(`${endpoint}/dashboard#Orders`, {waitUntil: 'load'});
    await page.locator('section.diagnosis').waitFor({timeout: 10000});
    armed = true; /* the next poll's partitions of the last 15 minutes */
    const held = await Promise.race([caughtP, new Promise((r) => setTimeout(() => r(false), 5000))]);
    check(held, 'a poll of the automatic 15 min window is in flight when the user chooses 1 min');
    await page.getByRole('button', {name: '1 min', exact: true}).click();
    release();
    await page.locator('section.diagnosis h2', {hasText: 'no throttling in the last minute'}).waitFor({timeout: 10000});
    check(true, 'a chosen 1 min window 10 min after the run says there was no throttling in the last minute');
    // Per-partition counts follow the window: none in the last minute.
    await page.locator('table.partitions').first().waitFor({timeout: 10000});
    const marked = await page.locator('table.partitions tr[data-throttled="true"]').count();
    const before = await page.locator('table.partitions tr', {hasText: 'before the window'}).count();
    check(marked === 0 && before === 1,
      `in a 1 min window 10 min after, no partition is marked throttled; the one that was says "before the window" (${marked} marked, ${before} before)`);
    await page.close();
  }

  // Active fault rules are marked, and a finding whose reason a rule injects
  // says its throttles may be injected.
  const added = await request(endpoint, 'POST', '/_sluice/faults',
    {operation: 'PutItem', table: 'Orders', probability: 0.5, reason: REASON}, {'Content-Type': 'application/json'});
  check(added.status === 200, `a fault rule is added (${added.status})`);
  {
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Orders`, {waitUntil: 'load'});
    const banner = page.locator('section.faults');
    await banner.waitFor({timeout: 10000});
    const text = await banner.innerText();
    check(/INJECTED/.test(text) && /Fault injection is on for Orders: 1 rule/.test(text) && text.includes(REASON),
      'an active fault rule is marked above the diagnosis, with its reason');
    const diagnosis = await page.locator('section.diagnosis').innerText();
    check(/may be injected, not real/.test(diagnosis), 'the diagnosis says its throttles may be injected');
    await page.close();
  }
  await request(endpoint, 'DELETE', '/_sluice/faults');

  // Auto scaling: registering a target whose minimum is above the table's
  // units scales it at once; the activity is drawn on the capacity chart.
  const reg = await autoscaling(endpoint, 'RegisterScalableTarget', {ServiceNamespace: 'dynamodb',
    ResourceId: 'table/Customers', ScalableDimension: 'dynamodb:table:WriteCapacityUnits', MinCapacity: 20, MaxCapacity: 100});
  check(reg.status === 200, `a scalable target is registered (${reg.status} ${reg.status === 200 ? '' : reg.text})`);
  await advance(endpoint, 2000);
  {
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Customers`, {waitUntil: 'load'});
    const mark = page.locator('figure.chart svg g.scale');
    await mark.first().waitFor({timeout: 10000}).catch(() => {});
    const n = await mark.count();
    const title = n ? await mark.first().locator('title').textContent() : '';
    const list = (await page.locator('.scaling').count()) ? await page.locator('.scaling').innerText() : '';
    check(n === 1 && /auto scaling \(Successful\)/.test(title) && /SUCCESSFUL/.test(list),
      `the scaling activity is marked on the write capacity chart and listed (${title})`);
    const shot = screenshot.replace(/\.png$/, '-scaling.png');
    await page.screenshot({path: shot, fullPage: true});
    console.log(`  screenshot of an auto scaling activity: ${shot}`);
    await page.close();
  }

  // A consumer reads the stream to its end: nothing is unread, no lag.
  const consumed = await readStream(endpoint, 'Readings');
  {
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Readings`, {waitUntil: 'load'});
    const stream = page.locator('section.stream', {hasText: 'Every record has been read'});
    await stream.waitFor({timeout: 10000}).catch(() => {});
    const text = await page.locator('section.stream').innerText();
    check(consumed > 0 && /Every record has been read/.test(text) && /GetRecords/.test(text),
      `after a consumer read ${consumed} records, the stream view shows no unread record and the last read`);
    await page.close();
  }
  // Then more writes nobody reads: the lag is the oldest unread record's age.
  // (Readings has 1 WCU: a write is retried a second later until it passes.)
  for (let i = 0; i < 3; i++)
    for (let k = 0; k < 10; k++) {
      await advance(endpoint, 1000);
      const r = await dynamodb(endpoint, 'PutItem', {TableName: 'Readings', Item: {device: {S: `device#${i}`}, ts: {S: 'late'}}});
      if (r.status === 200)
        break;
    }
  await advance(endpoint, 5000);
  {
    const sv = await request(endpoint, 'GET', '/_sluice/tables/Readings/stream');
    const shards = sv.json.stream.shards;
    const unread = shards.reduce((a, x) => a + x.unread_records, 0);
    const lag = Math.max(...shards.map((x) => x.lag_ms));
    check(unread === 3 && lag >= 7000, `the stream API counts 3 unread records, lagging by the oldest one's age (${unread}, ${lag} ms)`);
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Readings`, {waitUntil: 'load'});
    const stream = page.locator('section.stream', {hasText: 'not read yet'});
    await stream.waitFor({timeout: 10000}).catch(() => {});
    const text = await page.locator('section.stream').innerText();
    check(text.includes(`3 records not read yet · lag ${Math.round(lag / 1000)} s`), `the stream view shows the lag (${(text.match(/[\d,]+ records? not read yet[^\n]*/) || [''])[0]})`);
    const shot = screenshot.replace(/\.png$/, '-stream.png');
    /* Paused, the section stops being redrawn every second. */
    await page.locator('#pause').click();
    await page.waitForTimeout(1500);
    await page.locator('section.stream').screenshot({path: shot});
    console.log(`  screenshot of the stream view: ${shot}`);
    await page.close();
  }

  // Records per second and the oldest record's age, from known writes at
  // known times of the manual clock: 12 records when the stream is made,
  // 12 more 10 s later, read 5 s after that (the stream is 15 s old, so the
  // rate is over its life: 24 / 15 s); then 60 s on, 30 records more, read
  // 30 s later (the last minute holds only those: 30 / 60 s).
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Feed',
    AttributeDefinitions: [{AttributeName: 'id', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'id', KeyType: 'HASH'}],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: {StreamEnabled: true, StreamViewType: 'KEYS_ONLY'},
  });
  const putFeed = async (from, n) => {
    for (let i = from; i < from + n; i++)
      await mustCall(endpoint, 'PutItem', {TableName: 'Feed', Item: {id: {S: `f${i}`}}});
  };
  const feedStream = async (expect) => {
    const q = expect.window_s ? `?window_s=${expect.window_s}` : '';
    const sv = (await request(endpoint, 'GET', `/_sluice/tables/Feed/stream${q}`)).json.stream;
    check(sv.records_in_window === expect.n && sv.rate_window_ms === expect.span &&
      Math.abs(sv.records_per_second - expect.rate) < 1e-9 && !sv.rate_capped &&
      sv.oldest_record_age_ms === expect.age,
      `the stream API gives ${expect.rate} records/s over ${expect.span / 1000} s and the oldest record ` +
      `${expect.age / 1000} s old (${sv.records_per_second}/s, ${sv.records_in_window} in ${sv.rate_window_ms} ms, ${sv.oldest_record_age_ms} ms)`);
    if (expect.apiOnly)
      return null;
    // The page's window chosen with its button (else Auto: the shortest
    // window in which some table throttled).
    const page = await context.newPage();
    await page.goto(`${endpoint}/dashboard#Feed`, {waitUntil: 'load'});
    await page.locator(`#window-buttons button[data-window="${expect.button || '1m'}"]`).click();
    const stats = page.locator('section.stream p.streamstats', {hasText: expect.text});
    await stats.waitFor({timeout: 10000}).catch(() => {});
    const text = (await stats.count()) ? await stats.innerText()
      : await page.locator('section.stream p.streamstats').innerText().catch(() => '');
    check(text.includes(expect.text) && text.includes(`oldest record ${expect.ageText || `${expect.age / 1000} s`} old`),
      `the stream view shows "${expect.text}" and the oldest record's age (${text})`);
    return page;
  };
  await putFeed(0, 12);
  await advance(endpoint, 10000);
  await putFeed(12, 12);
  await advance(endpoint, 5000);
  (await feedStream({n: 24, span: 15000, rate: 1.6, age: 15000,
    text: '1.6 records/s over the last 15 s (24 records)'})).close();
  await advance(endpoint, 60000);
  await putFeed(24, 30);
  await advance(endpoint, 30000);
  {
    const page = await feedStream({n: 30, span: 60000, rate: 0.5, age: 105000,
      text: '0.5 records/s over the last minute (30 records)'});
    const oldestCells = await page.locator('section.stream table.shards tbody tr td:nth-child(3)').allInnerTexts();
    check(oldestCells.length === 4 && oldestCells.every((c) => c === '105 s ago'),
      `each of the 4 shards shows its oldest record's age (${oldestCells.join(', ')})`);
    await page.close();
  }
  // The rate follows the page's time window: 1,000 s on, 45 records, read
  // 200 s later (the stream is 1,305 s old). The last minute (its button)
  // holds none; the 15-minute button then gives 45 / 900 s, as the API's
  // ?window_s=900 does.
  await advance(endpoint, 1000000);
  await putFeed(54, 45);
  await advance(endpoint, 200000);
  {
    const page = await feedStream({n: 0, span: 60000, rate: 0, age: 1305000, ageText: '22 min',
      text: '0 records/s over the last minute (0 records)'});
    await feedStream({n: 45, span: 900000, rate: 0.05, age: 1305000, window_s: 900, apiOnly: true});
    await page.locator('#window-buttons button[data-window="15m"]').click();
    const want = '0.05 records/s over the last 15 minutes (45 records)';
    const stats = page.locator('section.stream p.streamstats', {hasText: want});
    await stats.waitFor({timeout: 10000}).catch(() => {});
    check(await stats.count() === 1 &&
      (await stats.getAttribute('data-records-per-second')) === '0.05',
      `after the 15 min button the stream view shows "${want}" ` +
      `(${await page.locator('section.stream p.streamstats').innerText()})`);
    await page.locator('#pause').click();
    await page.waitForTimeout(1500);
    const shot = screenshot.replace(/\.png$/, '-stream-rate.png');
    await page.locator('section.stream').screenshot({path: shot});
    console.log(`  screenshot of a stream's rate over the 15 min window and its oldest record: ${shot}`);
    await page.close();
  }

  // A new incarnation of Orders starts at zero.
  await mustCall(endpoint, 'DeleteTable', {TableName: 'Orders'});
  await mustCall(endpoint, 'CreateTable', {
    TableName: 'Orders',
    AttributeDefinitions: [{AttributeName: 'pk', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}],
    BillingMode: 'PAY_PER_REQUEST',
  });
  const list = await request(endpoint, 'GET', '/_sluice/tables?window_s=86400');
  const again = list.json.tables.find((t) => t.name === 'Orders');
  check(again && again.throttle_events === 0 && again.last_throttle_ms === null,
    `the recreated Orders has no throttles in 24 h (${again && again.throttle_events})`);
  const prom = await request(endpoint, 'GET', '/metrics');
  check(!/table_name="Orders"/.test(prom.text), '/metrics drops the deleted Orders\' series');
  const page = await context.newPage();
  await page.goto(`${endpoint}/dashboard#Orders`, {waitUntil: 'load'});
  await page.locator('table.partitions').first().waitFor({timeout: 10000});
  await page.locator('section.diagnosis h2', {hasText: 'no throttling'}).waitFor({timeout: 10000});
  const marks = await page.locator('table.partitions tr[data-throttled="true"], table.partitions tr[data-hot="true"]').count();
  const evText = await page.locator('section.panel-wide').last().innerText();
  check(marks === 0 && /No throttled request on this table yet/.test(evText),
    'the recreated Orders shows no throttled partition and no events of the old one');
  await page.close();

  // The deleted incarnation stays reachable: listed as DELETED with its
  // throttles; a fresh page opens on it (it throttled most in the window)
  // and names what throttled, where and why.
  {
    const p2 = await context.newPage();
    await p2.goto(`${endpoint}/dashboard`, {waitUntil: 'load'});
    const row = p2.locator('#tables tr[data-deleted="true"]', {hasText: 'Orders'});
    await row.waitFor({timeout: 10000}).catch(() => {});
    const thr = (await row.count()) ? Number(await row.getAttribute('data-throttles')) : 0;
    check(thr > 100 && /DELETED/.test(await row.innerText()), `the deleted Orders is listed with its throttles (${thr})`);
    await p2.locator('p.deleted-note').waitFor({timeout: 10000}).catch(() => {});
    const note = (await p2.locator('p.deleted-note').count()) ? await p2.locator('p.deleted-note').innerText() : '';
    check(/Orders was deleted at/.test(note) && /A new Orders exists and started at zero/.test(note),
      'a fresh page opens on the deleted incarnation, which throttled most, and says a new Orders exists');
    const diagnosis = await p2.locator('section.diagnosis').innerText();
    check(diagnosis.includes(`pk=${HOT_KEY}`) && diagnosis.includes(REASON) && /before it was deleted/.test(diagnosis),
      `the deleted incarnation's diagnosis names ${REASON} and pk=${HOT_KEY}`);
    await p2.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shot = screenshot.replace(/\.png$/, '-deleted.png');
    await p2.screenshot({path: shot, fullPage: true});
    console.log(`  screenshot of the deleted incarnation: ${shot}`);
    await p2.close();
  }
  // Deleted again: the older incarnation is dropped, the newest (no throttles) kept.
  await mustCall(endpoint, 'DeleteTable', {TableName: 'Orders'});
  const list2 = await request(endpoint, 'GET', '/_sluice/tables?window_s=86400');
  const kept = list2.json.deleted_tables.filter((t) => t.name === 'Orders');
  check(kept.length <= 1 && kept.every((t) => t.throttle_events === 0),
    `deleting Orders again drops the older incarnation (${JSON.stringify(kept.map((t) => t.throttle_events))})`);
}

async function main() {
  if (!fs.existsSync(sluiceBin))
    throw new Error(`no sluice binary at ${sluiceBin} (set SLUICE_BIN or run make)`);
  if (!fs.existsSync(chromiumBin))
    throw new Error(`no Chromium at ${chromiumBin}: install Debian's chromium (scripts/deps.sh)`);
  const {child, endpoint} = await startSluice();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-chromium-'));
  let context = null;
  try {
    console.log(`dashboard test: sluice at ${endpoint}`);
    const started = Date.now();
    const counts = await workload(endpoint);
    console.log(`  workload: ${counts.ok} writes accepted, ${counts.throttled} throttled ` +
      `(${[...counts.reasons].map(([k, v]) => `${k} ${v}`).join(', ')}) in ${Date.now() - started} ms`);
    check(counts.throttled > 0 && counts.reasons.get(REASON) === counts.throttled,
      `the hot key throttles, every time with ${REASON}`);

    const page404 = await request(endpoint, 'GET', '/dashboard/no-such-file');
    check(page404.status === 404, 'an unknown dashboard file is a 404');
    const js = await request(endpoint, 'GET', '/dashboard/dashboard.js');
    check(js.status === 200 && /^text\/javascript/.test(js.headers['content-type']),
      'dashboard.js is served as text/javascript');
    const css = await request(endpoint, 'GET', '/dashboard/dashboard.css');
    check(css.status === 200 && /^text\/css/.test(css.headers['content-type']), 'dashboard.css is served as text/css');

    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumBin,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: {width: 1280, height: 900},
      deviceScaleFactor: 1,
      colorScheme: 'light',
      reducedMotion: 'reduce',
    });
    const page = context.pages()[0] || await context.newPage();
    const problems = [];
    const origin = new URL(endpoint).origin;
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning')
        problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(origin) && !u.startsWith('data:'))
        problems.push(`request to another origin: ${u}`);
      // The page uses the admin API only: it has no key to sign a DynamoDB
      // call with under --auth sigv4.
      if (r.method() === 'POST' && new URL(u).pathname === '/')
        problems.push(`DynamoDB API call from the page: ${r.postData()}`);
    });

    const resp = await page.goto(`${endpoint}/dashboard`, {waitUntil: 'load'});
    check(resp.status() === 200 && /^text\/html/.test(resp.headers()['content-type']), 'GET /dashboard is an HTML page');
    check(/default-src 'none'/.test(resp.headers()['content-security-policy'] || ''),
      'the page carries a same-origin Content-Security-Policy');

    // Choose the table the way a keyboard user would.
    const orders = page.getByRole('button', {name: /^Orders\b/});
    await orders.waitFor({timeout: 10000});
    await orders.focus();
    await page.keyboard.press('Enter');
    check(await orders.getAttribute('aria-pressed') === 'true', 'the Orders button is pressed after Enter');

    const hotRow = page.locator('table.partitions tr[data-hot="true"]');
    await hotRow.first().waitFor({timeout: 10000});
    const hotRows = await hotRow.count();
    const hotText = await hotRow.first().innerText();
    check(hotRows === 1, `exactly one partition is marked hot (${hotRows})`);
    check(/\bHOT\b/.test(hotText), 'the hot partition is marked with the text HOT');
    check(/throttle/.test(hotText), 'the hot partition shows its throttle count');
    const coolRows = await page.locator('table.partitions tr[data-hot="false"]').count();
    check(coolRows === 3, `the other three partitions are not hot (${coolRows})`);

    const reason = page.locator('.reason', {hasText: REASON});
    await reason.first().waitFor({timeout: 10000});
    check(await reason.count() >= 2, `${REASON} is shown (diagnosis, chart legend, events)`);
    const diagnosis = await page.locator('section.diagnosis').innerText();
    check(diagnosis.includes(REASON) && diagnosis.includes(HOT_KEY),
      `the diagnosis names the reason and the key ${HOT_KEY}`);
    check(/Partition 0\b|Partitions? \d/.test(diagnosis), 'the diagnosis names the hot partition');
    const keys = await page.locator('.topkeys').first().innerText();
    check(keys.includes(HOT_KEY), 'Contributor Insights lists the hot key');
    const events = await page.locator('table.events').innerText();
    check(events.includes('ThrottlingException') && events.includes(REASON), 'recent events show the exception and reason');

    // Charts: bars for consumption, an accessible name with the limit.
    await page.locator('figure.chart rect.bar').first().waitFor({timeout: 10000});
    const labels = await page.locator('figure.chart svg[role="img"]').evaluateAll(
      (els) => els.map((e) => e.getAttribute('aria-label')));
    check(labels.some((l) => /Writes consumed .*limit 4,130 WCU\/s.*1,032\.5 WCU\/s per partition/.test(l)),
      'the writes chart is labelled with the table limit and the per-partition limit');
    const limitText = await page.locator('section.resource').first().innerText();
    check(limitText.includes('limit 1,032.5 WCU/s'), 'the partition limit is written out in WCU/s');

    // The manual clock: shown, and its buttons move it.
    const clockBefore = await page.locator('#clock-now').getAttribute('datetime');
    check(await page.locator('#clock-mode').innerText() === 'manual clock', 'the clock is shown as manual');
    check(clockBefore && clockBefore.startsWith('2026-11-30T12:00:07'), `the clock shows the sluice time (${clockBefore})`);

    // The picture for the docs: no focus ring, the page settled.
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({path: screenshot, fullPage: true});
    console.log(`  screenshot: ${screenshot}`);
    if (process.env.DOCS_SCREENSHOT === '1') {
      fs.copyFileSync(screenshot, path.join(root, 'docs', 'dashboard.png'));
      console.log('  copied to docs/dashboard.png');
    }

    // Paused, the page stops polling; a click on +1 s still moves the clock
    // and shows the new time.
    const pause = page.locator('#pause');
    check(await pause.innerText() === 'Pause updates', 'a pause button is offered');
    await pause.click();
    check(await pause.getAttribute('aria-pressed') === 'true' && await pause.innerText() === 'Resume updates',
      'the pause button toggles (aria-pressed)');
    const plus1s = page.getByRole('button', {name: '+1 s'});
    await plus1s.click();
    await page.waitForFunction((before) => {
      const t = document.getElementById('clock-now').getAttribute('datetime');
      return t && t !== before;
    }, clockBefore, {timeout: 10000});
    const clockAfter = await page.locator('#clock-now').getAttribute('datetime');
    check(Date.parse(clockAfter) - Date.parse(clockBefore) === 1000, `+1 s moves the clock by one second (${clockAfter})`);
    await pause.click();
    check(await pause.getAttribute('aria-pressed') === 'false', 'updates resume');

    // Contributor Insights switched on from the page (the admin API).
    const customers = page.getByRole('button', {name: /^Customers\b/});
    await customers.click();
    const enable = page.getByRole('button', {name: 'Enable Contributor Insights on table Customers'});
    await enable.waitFor({timeout: 10000});
    await enable.click();
    let ci = null;
    for (let i = 0; i < 100; i++) {
      ci = await mustCall(endpoint, 'DescribeContributorInsights', {TableName: 'Customers'});
      if (ci.ContributorInsightsStatus !== 'DISABLED')
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    check(/^ENABL/.test(ci.ContributorInsightsStatus),
      `the page's button enables Contributor Insights (${ci.ContributorInsightsStatus})`);

    // The query workbench (issue #14): Preview shows the plan and its cost without running
    // it, Run executes it through the admin API and shows what it consumed, the same units.
    await page.locator('#wb-stmt').fill(`SELECT * FROM "Orders" WHERE payload = 'nothing'`);
    await page.getByRole('button', {name: 'Preview', exact: true}).click();
    const preview = page.locator('#wb-preview-out');
    await preview.getByText('A filter does not reduce cost', {exact: false}).waitFor({timeout: 10000});
    const previewText = await preview.innerText();
    check(/Scan Orders Filter/.test(previewText), 'the workbench previews the statement as a Scan with its filter');
    const previewUnits = /Read units\s+([\d.,]+) RCU/.exec(previewText);
    await page.getByRole('button', {name: 'Run', exact: true}).click();
    const run = page.locator('#wb-run-out');
    await run.getByText('Consumed capacity').waitFor({timeout: 10000});
    const ran = /Consumed capacity\s+([\d.,]+) units/.exec(await run.innerText());
    check(previewUnits && ran && previewUnits[1] === ran[1],
      `Run consumed the read units the preview predicted (${previewUnits && previewUnits[1]}, ${ran && ran[1]})`);

    // A write previews as its single-item write: the write units Run then consumes, and
    // whether its condition holds (an INSERT of a key that now exists does not).
    await page.locator('#wb-stmt').fill(`INSERT INTO "Orders" VALUE {'pk': 'wb-insert', 'v': 1}`);
    await page.getByRole('button', {name: 'Preview', exact: true}).click();
    await preview.getByText('PutItem Orders', {exact: false}).waitFor({timeout: 10000});
    const writeText = await preview.innerText();
    const writeUnits = /Write units\s+([\d.,]+) WCU/.exec(writeText);
    check(/Condition holds now\s+yes/.test(writeText), 'the workbench previews an INSERT of a new key as passing');
    await page.evaluate(() => { document.querySelector('#wb-run-out').textContent = ''; });
    await page.getByRole('button', {name: 'Run', exact: true}).click();
    await run.getByText('Consumed capacity').waitFor({timeout: 10000});
    const wrote = /Consumed capacity\s+([\d.,]+) units/.exec(await run.innerText());
    check(writeUnits && wrote && writeUnits[1] === wrote[1],
      `Run consumed the write units the preview predicted (${writeUnits && writeUnits[1]}, ${wrote && wrote[1]})`);
    await page.getByRole('button', {name: 'Preview', exact: true}).click();
    await preview.getByText('DuplicateItemException', {exact: false}).waitFor({timeout: 10000});
    check(/Condition holds now\s+no/.test(await preview.innerText()), 'a second INSERT of the key previews as failing');

    check(problems.length === 0, `no console errors, page errors, foreign requests or API calls${problems.length ? ': ' + problems.join('; ') : ''}`);

    // A malformed statement shows the service's error (after the check above: Chromium logs
    // the 400 reply on the console).
    await page.locator('#wb-stmt').fill('SELEC');
    await page.getByRole('button', {name: 'Preview', exact: true}).click();
    await preview.getByText('ValidationException', {exact: false}).waitFor({timeout: 10000});
    check(true, 'a malformed statement shows the service\'s error in the preview');

    // CORS in a real browser: a page of another origin (a second sluice on
    // another port) calls the API with the headers the JS SDK sends, so
    // Chromium sends a preflight first; both answers must let the page in and
    // expose the request id and the CRC (net/server.h).
    const other = await startSluice();
    try {
      const page2 = await context.newPage();
      await page2.goto(`${other.endpoint}/_sluice/clock`);
      const r = await page2.evaluate(async (ep) => {
        const res = await fetch(`${ep}/`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-amz-json-1.0',
            'X-Amz-Target': 'DynamoDB_20120810.ListTables',
            'X-Amz-Date': '20261130T120000Z',
            Authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/' +
              'aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0',
          },
          body: '{}',
        });
        return {status: res.status, id: res.headers.get('x-amzn-RequestId'),
          crc: res.headers.get('x-amz-crc32'), body: await res.json()};
      }, endpoint);
      check(r.status === 200 && Array.isArray(r.body.TableNames),
        'a page of another origin calls the API (CORS preflight and reply allow it)');
      check(Boolean(r.id) && Boolean(r.crc), 'that page reads x-amzn-RequestId and x-amz-crc32');
      await page2.close();
    } finally {
      other.child.kill('SIGTERM');
    }

    await afterTheRun(endpoint, context);
  } finally {
    if (context)
      await context.close().catch(() => {});
    child.kill('SIGTERM');
    agent.destroy();
    fs.rmSync(profile, {recursive: true, force: true});
  }
  if (failures) {
    console.log(`dashboard test: ${failures} check(s) failed`);
    process.exit(1);
  }
  console.log('dashboard test: all checks passed');
}

const guard = setTimeout(() => {
  console.log('dashboard test: timed out after 420 s');
  process.exit(1);
}, 420000); /* the run, 15 fresh pages and the scenarios of issue 18, on a shared machine */
guard.unref();

main().catch((e) => {
  console.log(`dashboard test: ${e.stack || e}`);
  process.exit(1);
});
