"""What a new table gives at once (capacity-model.md §5, docs/capacity.md "A new table"):
test suites verified against the live service create provisioned 5/5 tables and seed them at
once, write transactions of several MB to new on-demand tables and write 400 KB items in a
row; they pass there, and must pass on sluice's default profile, with the SDK's own retries
and nothing more: not one throttle. The same tables offered a sustained load above their rate
then throttle, after the burst, with the usual reasons.

Private sluice servers on the default (`aws`) profile. DynamoDB Local ignores capacity: all
marked `capacity`.
"""
import boto3
import pytest

from conftest import CREDS, REGION, Client, Server, admin

pytestmark = pytest.mark.capacity

PROVISIONED = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}


def sdk_client(endpoint):
    """boto3 as an application's test suite has it: the default retry configuration."""
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name=REGION,
                        aws_access_key_id=CREDS.access_key,
                        aws_secret_access_key=CREDS.secret_key)


def create(ddb, name, **kw):
    if "ProvisionedThroughput" not in kw:
        kw["BillingMode"] = "PAY_PER_REQUEST"
    ddb.create_table(TableName=name,
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], **kw)


def sized(pk, size):
    """An item of exactly `size` bytes (pk: 2 + len, attribute "b": 1 + len)."""
    return {"pk": {"S": pk}, "b": {"S": "x" * (size - 2 - len(pk) - 1)}}


def throttle_events(endpoint):
    status, body = admin(endpoint, "GET", "/_sluice/events?limit=1000")
    assert status == 200
    return body["events"]


@pytest.fixture
def server():
    srv = Server()
    yield srv
    srv.stop()


# A 5/5 provisioned table seeded with 50 items of about 1 KB one after the other, then a
# 25-item BatchWriteItem: all written, nothing unprocessed, nothing throttled (a new table
# starts with its whole burst, 300 s of 5 WCU). Then three near-400 KB items in a row still
# fit (the service throttles a 5-WCU table only past its 1,500 units of burst).
def test_seeding_a_new_provisioned_table(server):
    ddb = sdk_client(server.endpoint)
    create(ddb, "seeded", ProvisionedThroughput=PROVISIONED)
    for i in range(50):
        ddb.put_item(TableName="seeded", Item=sized(f"seed-{i:02}", 1000))
    r = ddb.batch_write_item(RequestItems={"seeded": [
        {"PutRequest": {"Item": sized(f"batch-{i:02}", 1000)}} for i in range(25)]})
    assert r["UnprocessedItems"] == {}
    for i in range(3):
        ddb.put_item(TableName="seeded", Item=sized(f"big-{i}", 409600))
    keys = [f"seed-{i:02}" for i in range(50)] + [f"batch-{i:02}" for i in range(25)] + \
        [f"big-{i}" for i in range(3)]
    assert all("Item" in ddb.get_item(TableName="seeded", Key={"pk": {"S": k}},
                                      ProjectionExpression="pk") for k in keys)
    assert throttle_events(server.endpoint) == []


# A new on-demand table takes a 3.5 MB TransactWriteItems (10 puts of 350,000 bytes: 6,860
# WRU, transactional) and the ordinary writes that follow it at once: five 25-item batches
# with nothing unprocessed, as a suite seeds its TransactGetItems tests; then near-400 KB items
# written in a row (the size-limit tests of a suite): nothing throttled.
def test_large_transaction_then_ordinary_writes(server):
    ddb = sdk_client(server.endpoint)
    create(ddb, "txn")
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": "txn", "Item": sized(f"tw4mb-{i}", 350000)}} for i in range(10)])
    for b in range(5):
        r = ddb.batch_write_item(RequestItems={"txn": [
            {"PutRequest": {"Item": sized(f"tg-{b * 25 + i}", 100)}} for i in range(25)]})
        assert r["UnprocessedItems"] == {}
    got = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": "txn", "Key": {"pk": {"S": f"tg-{i}"}}}} for i in range(100)])
    assert all("Item" in r for r in got["Responses"])
    for name in ("under", "binary", "gate-at", "flat-1-at", "flat-2-at", "flat-5-at",
                 "flat-10-at"):
        ddb.put_item(TableName="txn", Item=sized(f"lim-is-{name}", 409600))
    assert throttle_events(server.endpoint) == []


# The seeded 5/5 table then offered 20 writes/s (the clock is manual, so the rate is exact):
# the burst left (1,500 units less the 75 of the seeding) covers 15 writes/s above the rate
# for 94 whole seconds and 15 writes of the 95th; then 5 writes/s succeed and the rest
# throttle with ProvisionedThroughputExceededException and
# TableWriteProvisionedThroughputExceeded.
def test_sustained_load_throttles_after_the_burst():
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z"])
    try:
        client = Client(srv.endpoint)
        arn = client.create_table("seeded", ProvisionedThroughput=PROVISIONED)["TableArn"]
        for i in range(75):
            status, reply = client.call("PutItem", {"TableName": "seeded",
                                                    "Item": sized(f"seed-{i:02}", 1000)})
            assert status == 200, reply
        first, accepted, reply = None, [], None
        for second in range(110):
            ok = 0
            for i in range(20):
                status, r = client.call("PutItem", {"TableName": "seeded",
                                                    "Item": sized(f"s{second}-{i}", 1000)})
                if status == 200:
                    ok += 1
                elif first is None:
                    first, reply = second, r
            accepted.append(ok)
            client.advance(1000)
        assert first == 94
        assert reply["__type"] == ("com.amazonaws.dynamodb.v20120810#"
                                   "ProvisionedThroughputExceededException")
        assert reply["ThrottlingReasons"] == [
            {"reason": "TableWriteProvisionedThroughputExceeded", "resource": arn}]
        assert accepted[:94] == [20] * 94
        assert accepted[94] == 15
        assert accepted[95:] == [5] * 15
    finally:
        srv.stop()
