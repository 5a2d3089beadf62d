// The JS SDK v3's retries against throttles injected by sluice's fault rules
// (/_sluice/faults). Pinned versions (tests/js/package-lock.json): @aws-sdk/client-dynamodb
// 3.1162.0 with @smithy/core 3.41.1. ../shared/spec/dynamodb-facts.md §9 dates the 2026
// retry defaults (DynamoDB: 4 attempts in all, 1 s throttling base) to client 3.1166.0 with
// @smithy/core >= 3.40.0; this install, observed, already makes 4 attempts on a DynamoDB
// throttle: two injected throttles are retried through (3 attempts), five exhaust it after
// 4, and the rule's hit count is the number of attempts the SDK made. maxAttempts changes
// the count. Run by tests/conformance/test_js_sdk.py against a private sluice
// (SLUICE_ENDPOINT, AWS_* variables cleared); exits non-zero on the first failed check.
import assert from "node:assert/strict";
import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, ProvisionedThroughputExceededException,
} from "@aws-sdk/client-dynamodb";

const ep = process.env.SLUICE_ENDPOINT;
const base = {
  endpoint: ep, region: "us-east-1",
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "secret" },
};
const table = "js_retry_" + Math.random().toString(16).slice(2, 10);

async function rule(count) {
  const r = await fetch(ep + "/_sluice/faults", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ table, operation: "PutItem", count,
                           reason: "TableWriteProvisionedThroughputExceeded" }),
  });
  assert.equal(r.status, 200);
  return (await r.json()).rules[0].id;
}

async function hits(id) {
  const rules = (await (await fetch(ep + "/_sluice/faults")).json()).rules;
  return rules.find((x) => x.id === id).hits;
}

const ddb = new DynamoDBClient(base);
await ddb.send(new CreateTableCommand({
  TableName: table, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
}));
const put = (client) => client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: "a" } } }));

// Two throttles, then success: 3 attempts, with a backoff between them.
let id = await rule(2);
let out = await put(ddb);
assert.equal(out.$metadata.attempts, 3);
assert.ok(out.$metadata.totalRetryDelay > 0);
assert.equal(await hits(id), 2);

// Five throttles: the SDK gives up after 4 attempts with the service's exception.
id = await rule(5);
await assert.rejects(put(ddb), (e) => {
  assert.ok(e instanceof ProvisionedThroughputExceededException, e.name);
  assert.equal(e.$metadata.attempts, 4);
  return true;
});
assert.equal(await hits(id), 4);

// maxAttempts 1 does not retry the throttle left on that rule; the next call succeeds.
const once = new DynamoDBClient({ ...base, maxAttempts: 1 });
await assert.rejects(put(once), ProvisionedThroughputExceededException);
assert.equal(await hits(id), 5);
out = await put(once);
assert.equal(out.$metadata.attempts, 1);
console.log("ok");
