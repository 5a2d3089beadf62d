// PartiQL through the AWS SDK for JavaScript v3 (@aws-sdk/client-dynamodb): the three
// operations as a Node.js program would call them. Run by
// tests/conformance/test_partiql_js.py with the endpoint and a fresh table name:
//   node partiql.test.mjs http://127.0.0.1:8000 t_abc [ddblocal]
// Prints "ok" and exits 0 when every check holds; otherwise the failed check and exit 1.
import {
  DynamoDBClient, CreateTableCommand, DeleteTableCommand, DescribeTableCommand,
  ExecuteStatementCommand, BatchExecuteStatementCommand, ExecuteTransactionCommand,
  DuplicateItemException, ConditionalCheckFailedException, TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";
import assert from "node:assert/strict";

const [endpoint, table, peer] = process.argv.slice(2);
// DynamoDB Local names its exception "DuplicateItem"; the model (botocore's and this SDK's)
// names it DuplicateItemException, as sluice sends it.
const ddbLocal = peer === "ddblocal";
const ddb = new DynamoDBClient({
  endpoint, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
});

async function rejects(promise, type) {
  try {
    await promise;
  } catch (e) {
    if (type) assert.ok(e instanceof type, `expected ${type.name}, got ${e.name}: ${e.message}`);
    return e;
  }
  assert.fail("expected an error");
}

await ddb.send(new CreateTableCommand({
  TableName: table, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "sk", AttributeType: "N" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
}));
for (let i = 0; i < 50; i++) {
  const d = await ddb.send(new DescribeTableCommand({ TableName: table }));
  if (d.Table.TableStatus === "ACTIVE") break;
  await new Promise((r) => setTimeout(r, 100));
}
try {
  const run = (Statement, extra = {}) => ddb.send(new ExecuteStatementCommand({ Statement, ...extra }));
  // INSERT with parameters, then SELECT as Query, in sort order, paged.
  for (let i = 0; i < 5; i++)
    await run(`INSERT INTO "${table}" VALUE {'pk': ?, 'sk': ?, 'v': ?}`,
      { Parameters: [{ S: "p" }, { N: String(i) }, { S: `v${i}` }] });
  let r = await run(`SELECT * FROM "${table}" WHERE pk = ? ORDER BY sk DESC`, { Parameters: [{ S: "p" }] });
  assert.deepEqual(r.Items.map((it) => it.sk.N), ["4", "3", "2", "1", "0"]);
  const seen = [];
  let NextToken;
  do {
    r = await run(`SELECT sk FROM "${table}" WHERE pk = 'p'`, { Limit: 2, NextToken });
    seen.push(...r.Items.map((it) => it.sk.N));
    NextToken = r.NextToken;
  } while (NextToken);
  assert.deepEqual(seen, ["0", "1", "2", "3", "4"]);
  // An existing key: the modelled exception class.
  const dup = await rejects(run(`INSERT INTO "${table}" VALUE {'pk': 'p', 'sk': 1}`),
    ddbLocal ? undefined : DuplicateItemException);
  assert.equal(dup.message, "Duplicate primary key exists in table");
  // UPDATE with RETURNING; a missing item fails the condition.
  r = await run(`UPDATE "${table}" SET v = 'new' WHERE pk = 'p' AND sk = 1 RETURNING MODIFIED NEW *`);
  assert.deepEqual(r.Items, [{ v: { S: "new" } }]);
  await rejects(run(`UPDATE "${table}" SET v = 'x' WHERE pk = 'p' AND sk = 99`), ConditionalCheckFailedException);
  // A malformed statement.
  const e = await rejects(run("SELEC *"));
  assert.equal(e.name, "ValidationException");
  assert.equal(e.message, "Statement wasn't well formed, can't be processed: SELEC *");
  // BatchExecuteStatement: per-statement results.
  r = await ddb.send(new BatchExecuteStatementCommand({ Statements: [
    { Statement: `SELECT v FROM "${table}" WHERE pk = 'p' AND sk = 2` },
    { Statement: `SELECT v FROM "nope_table_x" WHERE pk = 'p' AND sk = 2` },
  ] }));
  assert.deepEqual(r.Responses[0], { TableName: table, Item: { v: { S: "v2" } } });
  assert.equal(r.Responses[1].Error.Code, "ResourceNotFound");
  // ExecuteTransaction: cancelled with reasons, then committed.
  const t = await rejects(ddb.send(new ExecuteTransactionCommand({ TransactStatements: [
    { Statement: `DELETE FROM "${table}" WHERE pk = 'p' AND sk = 0` },
    { Statement: `UPDATE "${table}" SET v = 'x' WHERE pk = 'p' AND sk = 98` },
  ] })), TransactionCanceledException);
  assert.deepEqual(t.CancellationReasons.map((c) => c.Code), ["None", "ConditionalCheckFailed"]);
  await ddb.send(new ExecuteTransactionCommand({ TransactStatements: [
    { Statement: `DELETE FROM "${table}" WHERE pk = 'p' AND sk = 0` },
  ] }));
  r = await run(`SELECT * FROM "${table}" WHERE pk = 'p' AND sk = 0`);
  assert.deepEqual(r.Items, []);
  console.log("ok");
} finally {
  await ddb.send(new DeleteTableCommand({ TableName: table }));
}
