// The JS SDK v3 calling sluice the way it does from a web page: every call is preceded by
// the browser's CORS preflight (OPTIONS with Origin, Access-Control-Request-Method and
// Access-Control-Request-Headers naming the headers the SDK is about to send) and carries an
// Origin header; the SDK's request handler is replaced by one that does what the browser does
// and refuses, as a browser would, a preflight that does not allow the origin, the method or
// one of those headers, and a reply that does not allow the origin or hides the headers the
// SDK reads (x-amzn-RequestId, x-amz-crc32). Run by tests/conformance/test_js_sdk.py
// (SLUICE_ENDPOINT); exits non-zero on the first failed check.
import assert from "node:assert/strict";
import http from "node:http";
import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, ListTablesCommand,
} from "@aws-sdk/client-dynamodb";

const ep = new URL(process.env.SLUICE_ENDPOINT);
const ORIGIN = "http://page.example:3000";
let preflights = 0, calls = 0;

function send(opts, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(opts, resolve);
    req.on("error", reject);
    if (body)
      req.write(body);
    req.end();
  });
}

const list = (v) => (v || "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);

// A browser's fetch: the preflight, then the request with its Origin.
const browserLike = {
  metadata: { handlerProtocol: "http/1.1" },
  async handle(request) {
    const path = request.path + (request.query && Object.keys(request.query).length
      ? "?" + new URLSearchParams(request.query) : "");
    const names = Object.keys(request.headers).map((h) => h.toLowerCase())
      .filter((h) => h !== "host" && h !== "content-length").sort();
    const pre = await send({ hostname: request.hostname, port: request.port, method: "OPTIONS", path,
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": request.method,
                 "Access-Control-Request-Headers": names.join(",") } });
    pre.resume();
    preflights++;
    assert.ok(pre.statusCode >= 200 && pre.statusCode < 300, `preflight status ${pre.statusCode}`);
    const allowOrigin = pre.headers["access-control-allow-origin"];
    assert.ok(allowOrigin === ORIGIN || allowOrigin === "*", `preflight allows the origin (${allowOrigin})`);
    const methods = list(pre.headers["access-control-allow-methods"]);
    assert.ok(methods.includes("post") || methods.includes("*"), `preflight allows POST (${methods})`);
    const allowed = list(pre.headers["access-control-allow-headers"]);
    for (const n of names)
      assert.ok(allowed.includes(n) || allowed.includes("*"), `preflight allows the header ${n} (${allowed})`);
    const res = await send({ hostname: request.hostname, port: request.port, method: request.method, path,
      headers: { ...request.headers, Origin: ORIGIN } }, request.body);
    calls++;
    const got = res.headers["access-control-allow-origin"];
    assert.ok(got === ORIGIN || got === "*", `the reply allows the origin (${got})`);
    const exposed = list(res.headers["access-control-expose-headers"]);
    for (const n of ["x-amzn-requestid", "x-amz-crc32"])
      assert.ok(exposed.includes(n), `the reply exposes ${n} (${exposed})`);
    return { response: { statusCode: res.statusCode, reason: res.statusMessage, headers: res.headers,
                         body: res } };
  },
  updateHttpClientConfig() {},
  httpHandlerConfigs() { return {}; },
  destroy() {},
};

const ddb = new DynamoDBClient({
  endpoint: ep.origin, region: "us-east-1", requestHandler: browserLike, maxAttempts: 1,
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "secret" },
});
const table = "js_cors_" + Math.random().toString(16).slice(2, 10);
const made = await ddb.send(new CreateTableCommand({
  TableName: table, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
}));
assert.equal(made.TableDescription.TableName, table);
assert.equal(made.$metadata.requestId.length, 52);
await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: "a" }, v: { N: "1" } } }));
const got = await ddb.send(new GetItemCommand({ TableName: table, Key: { pk: { S: "a" } } }));
assert.deepEqual(got.Item, { pk: { S: "a" }, v: { N: "1" } });
const tables = await ddb.send(new ListTablesCommand({}));
assert.ok(tables.TableNames.includes(table));
// An error reply is readable across origins too.
await assert.rejects(ddb.send(new GetItemCommand({ TableName: table + "_no", Key: { pk: { S: "a" } } })),
  (e) => e.name === "ResourceNotFoundException");
assert.equal(preflights, 5);
assert.equal(calls, 5);
console.log(`cors: ${calls} SDK calls, each after a preflight the browser would accept`);
