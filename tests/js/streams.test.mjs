// DynamoDB Streams through the JS SDK v3 (@aws-sdk/client-dynamodb-streams), unmodified:
// a table with a stream, written by PutItem, UpdateItem, DeleteItem, BatchWriteItem and
// TransactWriteItems, is read back by ListStreams, DescribeStream, GetShardIterator and
// GetRecords, following shard lineage. Run by tests/conformance/test_js_sdk.py with
// SLUICE_ENDPOINT set; exits non-zero on the first failed check.
import assert from "node:assert/strict";
import {
  DynamoDBClient, CreateTableCommand, DescribeTableCommand, PutItemCommand, UpdateItemCommand,
  DeleteItemCommand, BatchWriteItemCommand, TransactWriteItemsCommand, DeleteTableCommand,
} from "@aws-sdk/client-dynamodb";
import {
  DynamoDBStreamsClient, ListStreamsCommand, DescribeStreamCommand, GetShardIteratorCommand,
  GetRecordsCommand, ResourceNotFoundException,
} from "@aws-sdk/client-dynamodb-streams";

const config = {
  endpoint: process.env.SLUICE_ENDPOINT,
  region: "us-east-1",
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "secret" },
  maxAttempts: 1,
};
const ddb = new DynamoDBClient(config);
const streams = new DynamoDBStreamsClient(config);
const table = "js_" + Math.random().toString(16).slice(2, 12);

async function waitActive() {
  for (let i = 0; i < 300; i++) {
    const t = (await ddb.send(new DescribeTableCommand({ TableName: table }))).Table;
    if (t.TableStatus === "ACTIVE") return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("table never became ACTIVE");
}

await ddb.send(new CreateTableCommand({
  TableName: table, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
  StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
}));
try {
  const t = await waitActive();
  const arn = t.LatestStreamArn;
  assert.equal(arn, `${t.TableArn}/stream/${t.LatestStreamLabel}`);

  await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: "a" }, n: { N: "1" } } }));
  await ddb.send(new UpdateItemCommand({
    TableName: table, Key: { pk: { S: "a" } }, UpdateExpression: "SET n = :n",
    ExpressionAttributeValues: { ":n": { N: "2" } },
  }));
  await ddb.send(new BatchWriteItemCommand({ RequestItems: { [table]: [
    { PutRequest: { Item: { pk: { S: "b" } } } }] } }));
  await ddb.send(new TransactWriteItemsCommand({ TransactItems: [
    { Put: { TableName: table, Item: { pk: { S: "c" } } } }] }));
  await ddb.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: "a" } } }));

  const listed = await streams.send(new ListStreamsCommand({ TableName: table }));
  assert.deepEqual(listed.Streams.map((s) => s.StreamArn), [arn]);
  const desc = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription;
  assert.equal(desc.StreamStatus, "ENABLED");
  assert.equal(desc.StreamViewType, "NEW_AND_OLD_IMAGES");
  assert.ok(desc.CreationRequestDateTime instanceof Date);
  assert.deepEqual(desc.KeySchema, [{ AttributeName: "pk", KeyType: "HASH" }]);

  // Every shard from TRIM_HORIZON, parents first.
  const records = [];
  const done = new Set();
  const ids = new Set(desc.Shards.map((s) => s.ShardId));
  while (done.size < desc.Shards.length) {
    for (const shard of desc.Shards) {
      if (done.has(shard.ShardId)) continue;
      if (shard.ParentShardId && ids.has(shard.ParentShardId) && !done.has(shard.ParentShardId)) continue;
      let it = (await streams.send(new GetShardIteratorCommand({
        StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: "TRIM_HORIZON",
      }))).ShardIterator;
      while (it) {
        const r = await streams.send(new GetRecordsCommand({ ShardIterator: it }));
        records.push(...r.Records);
        if (r.Records.length === 0) break;
        it = r.NextShardIterator;
      }
      done.add(shard.ShardId);
    }
  }
  // Shards hold different items: one item's records are in its order, others may interleave.
  const got = records.map((r) => [r.eventName, r.dynamodb.Keys.pk.S]);
  assert.deepEqual(got.filter((g) => g[1] === "a"), [["INSERT", "a"], ["MODIFY", "a"], ["REMOVE", "a"]]);
  assert.deepEqual(got.filter((g) => g[1] !== "a").sort(), [["INSERT", "b"], ["INSERT", "c"]]);
  const modify = records.find((r) => r.eventName === "MODIFY");
  assert.equal(modify.eventSource, "aws:dynamodb");
  assert.equal(modify.eventVersion, "1.1");
  assert.deepEqual(modify.dynamodb.OldImage, { pk: { S: "a" }, n: { N: "1" } });
  assert.deepEqual(modify.dynamodb.NewImage, { pk: { S: "a" }, n: { N: "2" } });
  assert.ok(modify.dynamodb.ApproximateCreationDateTime instanceof Date);
  assert.equal(typeof modify.dynamodb.SizeBytes, "number");
  const nums = records.filter((r) => r.dynamodb.Keys.pk.S === "a").map((r) => BigInt(r.dynamodb.SequenceNumber));
  assert.deepEqual([...nums].sort((x, y) => (x < y ? -1 : 1)), nums);

  // The SDK's modelled exception class for an unknown stream.
  await assert.rejects(
    streams.send(new DescribeStreamCommand({ StreamArn: arn + "0" })),
    (e) => e instanceof ResourceNotFoundException);
  console.log(`js sdk streams: ${records.length} records ok`);
} finally {
  await ddb.send(new DeleteTableCommand({ TableName: table }));
}
