"""Batches under throttling (capacity-model.md §3): BatchWriteItem and BatchGetItem admit item
by item in request order; throttled items come back in UnprocessedItems / UnprocessedKeys and
are really not written (or not read and not charged); only when every item is throttled does
the call fail, with the exception of the first throttle, and then nothing is written.

Every test runs on a private sluice with a manual clock (conftest.manual_server), so refill
happens only when a test advances the clock. DynamoDB Local ignores capacity: all marked
`capacity`.
"""
import re
import urllib.request

import pytest

from conftest import admin
from test_capacity_http import ON_DEMAND_MSG, PROVISIONED_MSG

pytestmark = pytest.mark.capacity


def create(client, name, range_key=False, **kw):
    if range_key:
        kw = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "sk", "AttributeType": "N"}],
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                            {"AttributeName": "sk", "KeyType": "RANGE"}], **kw}
    return client.create_table(name, **kw)["TableArn"]


def item(pk, size=1000, sk=None):
    """An item of about `size` bytes (1000: 1 WCU), exactly without a sort key."""
    it = {"pk": {"S": pk}}
    if sk is not None:
        it["sk"] = {"N": str(sk)}
    it["p"] = {"S": "x" * (size - 2 - len(pk) - 1 - (8 if sk is not None else 0))}
    return it


def key_of(it):
    return {k: v for k, v in it.items() if k in ("pk", "sk")}


def exists(client, table, key):
    status, reply = client.call("GetItem", {"TableName": table, "Key": key})
    assert status == 200, reply
    return "Item" in reply


def drain_write_partition(client, table, pk):
    """Puts 1 KB items under one partition key until its partition throttles (about 870 with
    the default burst of 850 ms at 1,032.5 WCU/s). Returns the number written."""
    for i in range(5000):
        status, reply = client.call("PutItem", {"TableName": table, "Item": item(pk, sk=i)})
        if status != 200:
            assert reply["throttlingReasons"][0]["reason"] == "TableWriteKeyRangeThroughputExceeded"
            return i
    raise AssertionError("the partition never throttled")


# --- BatchWriteItem -----------------------------------------------------------------------

# A provisioned table with one second of capacity (lean_client; spec §5): of eight 1 KB puts the
# first five are admitted, in request order, and the last three come back in UnprocessedItems
# exactly as sent, not written. ConsumedCapacity counts the admitted ones only.
def test_batch_write_partly_throttled_in_request_order(lean_client):
    create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                  "WriteCapacityUnits": 5})
    items = [item(f"k{i}") for i in range(8)]
    status, reply = lean_client.call("BatchWriteItem", {
        "RequestItems": {"prov": [{"PutRequest": {"Item": it}} for it in items]},
        "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200, reply
    assert reply["UnprocessedItems"] == {"prov": [{"PutRequest": {"Item": it}} for it in items[5:]]}
    assert reply["ConsumedCapacity"] == [{"TableName": "prov", "CapacityUnits": 5.0}]
    assert [exists(lean_client, "prov", key_of(it)) for it in items] == [True] * 5 + [False] * 3


# Sent again at once, the unprocessed items are all throttled: the call fails with the
# provisioned exception and its reasons, and writes nothing. A second later the same
# UnprocessedItems value goes through (the retry loop the SDKs implement).
def test_batch_write_all_throttled_fails_then_retry_succeeds(lean_client):
    arn = create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                        "WriteCapacityUnits": 5})
    items = [item(f"k{i}") for i in range(8)]
    status, reply = lean_client.call("BatchWriteItem", {
        "RequestItems": {"prov": [{"PutRequest": {"Item": it}} for it in items]}})
    unprocessed = reply["UnprocessedItems"]
    status, reply = lean_client.call("BatchWriteItem", {"RequestItems": unprocessed})
    assert status == 400
    assert reply["__type"] == ("com.amazonaws.dynamodb.v20120810#"
                               "ProvisionedThroughputExceededException")
    assert reply["message"] == PROVISIONED_MSG
    assert reply["ThrottlingReasons"] == [
        {"reason": "TableWriteProvisionedThroughputExceeded", "resource": arn}]
    assert not any(exists(lean_client, "prov", key_of(it)) for it in items[5:])
    lean_client.advance(1000)
    status, reply = lean_client.call("BatchWriteItem", {"RequestItems": unprocessed})
    assert status == 200, reply
    assert reply["UnprocessedItems"] == {}
    assert all(exists(lean_client, "prov", key_of(it)) for it in items)


# A hot partition (spec §4) throttles the writes that land on it and only those: after one
# item collection has spent its partition's burst, a batch mixing it with other partition
# keys comes back with every hot write unprocessed, the others written (keys that happen to
# share the hot partition are throttled with it), and each write where the reply says.
def test_batch_write_against_hot_partition(client):
    create(client, "hot", range_key=True)
    drain_write_partition(client, "hot", "hot")
    hot = [item("hot", sk=10000 + i) for i in range(5)]
    cold = [item(f"cold{i}", sk=1) for i in range(20)]
    status, reply = client.call("BatchWriteItem", {
        "RequestItems": {"hot": [{"PutRequest": {"Item": it}} for it in hot + cold]},
        "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200, reply
    left = [r["PutRequest"]["Item"] for r in reply["UnprocessedItems"]["hot"]]
    assert all(it in left for it in hot)
    written = [it for it in cold if it not in left]
    assert written, "every cold key landed on the hot partition"
    assert reply["ConsumedCapacity"] == [{"TableName": "hot", "CapacityUnits": float(len(written))}]
    for it in hot + cold:
        assert exists(client, "hot", key_of(it)) == (it not in left)


# A batch of nothing but hot writes fails as a whole with the on-demand exception, its
# lower-case throttlingReasons and the table ARN, and writes nothing.
def test_batch_write_all_on_hot_partition_fails(client):
    arn = create(client, "hot", range_key=True)
    drain_write_partition(client, "hot", "hot")
    hot = [item("hot", sk=10000 + i) for i in range(3)]
    status, reply = client.call("BatchWriteItem", {
        "RequestItems": {"hot": [{"PutRequest": {"Item": it}} for it in hot]}})
    assert status == 400
    assert reply["__type"] == "com.amazon.coral.availability#ThrottlingException"
    assert reply["message"] == ON_DEMAND_MSG
    assert reply["throttlingReasons"] == [
        {"reason": "TableWriteKeyRangeThroughputExceeded", "resource": arn}]
    assert not any(exists(client, "hot", key_of(it)) for it in hot)


# When every write is throttled, the exception is the first throttled write's: request order
# decides between an exhausted provisioned table and a hot on-demand partition.
@pytest.mark.parametrize("first", ["hot", "prov"])
def test_batch_write_all_throttled_uses_first_throttle(lean_client, first):
    create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                  "WriteCapacityUnits": 1})
    create(lean_client, "hot", range_key=True)
    assert lean_client.call("PutItem", {"TableName": "prov", "Item": item("a")})[0] == 200
    drain_write_partition(lean_client, "hot", "hot")
    entries = {"hot": [{"PutRequest": {"Item": item("hot", sk=99999)}}],
               "prov": [{"PutRequest": {"Item": item("b")}}]}
    order = [first, "prov" if first == "hot" else "hot"]
    status, reply = lean_client.call("BatchWriteItem", {"RequestItems": {t: entries[t] for t in order}})
    assert status == 400
    expected = "ThrottlingException" if first == "hot" else "ProvisionedThroughputExceededException"
    assert reply["__type"].endswith("#" + expected)


# A delete is admitted on its own too; a throttled delete leaves its item in place.
def test_batch_delete_throttled_leaves_item(lean_client):
    create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                  "WriteCapacityUnits": 2})
    for pk in ("a", "b"):
        assert lean_client.call("PutItem", {"TableName": "prov", "Item": item(pk)})[0] == 200
    lean_client.advance(1000)
    status, reply = lean_client.call("BatchWriteItem", {"RequestItems": {"prov": [
        {"DeleteRequest": {"Key": {"pk": {"S": "a"}}}},
        {"PutRequest": {"Item": item("c")}},
        {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}]}})
    assert status == 200, reply
    assert reply["UnprocessedItems"] == {"prov": [{"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}]}
    assert [exists(lean_client, "prov", {"pk": {"S": k}}) for k in "abc"] == [False, True, True]


# GSI back-pressure per item (spec §3): a write is admitted only if its table and every GSI
# it touches admit it. With an index of 1 WCU, the first write that enters the index passes
# and later ones come back unprocessed, while writes that stay out of the (sparse) index go
# through; a batch of nothing but index writes fails with the index's exception and ARN.
def test_batch_write_gsi_back_pressure(lean_client):
    arn = create(lean_client, "gsit", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                        "WriteCapacityUnits": 100},
                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "g", "AttributeType": "S"}],
                 GlobalSecondaryIndexes=[{
                     "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                     "Projection": {"ProjectionType": "KEYS_ONLY"},
                     "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}])
    indexed = [{"pk": {"S": f"i{i}"}, "g": {"S": f"g{i}"}} for i in range(3)]
    plain = [{"pk": {"S": f"p{i}"}} for i in range(3)]
    mixed = [indexed[0], plain[0], indexed[1], plain[1], indexed[2], plain[2]]
    status, reply = lean_client.call("BatchWriteItem", {
        "RequestItems": {"gsit": [{"PutRequest": {"Item": it}} for it in mixed]},
        "ReturnConsumedCapacity": "INDEXES"})
    assert status == 200, reply
    assert reply["UnprocessedItems"] == {"gsit": [{"PutRequest": {"Item": it}}
                                                  for it in indexed[1:]]}
    assert reply["ConsumedCapacity"] == [{
        "TableName": "gsit", "CapacityUnits": 5.0, "Table": {"CapacityUnits": 4.0},
        "GlobalSecondaryIndexes": {"byg": {"CapacityUnits": 1.0}}}]
    status, reply = lean_client.call("BatchWriteItem", {
        "RequestItems": {"gsit": [{"PutRequest": {"Item": it}} for it in indexed[1:]]}})
    assert status == 400
    assert reply["__type"].endswith("#ProvisionedThroughputExceededException")
    assert reply["message"].startswith("The level of configured provisioned throughput for one "
                                       "or more global secondary indexes of the table was exceeded")
    assert reply["ThrottlingReasons"] == [
        {"reason": "IndexWriteProvisionedThroughputExceeded", "resource": arn + "/index/byg"}]
    assert [exists(lean_client, "gsit", {"pk": it["pk"]}) for it in mixed] == [
        True, True, False, True, False, True]


def prometheus(client, name, **labels):
    """The value of one series of sluice's /metrics (0 when absent)."""
    with urllib.request.urlopen(client.ep + "/metrics", timeout=30) as r:
        text = r.read().decode()
    for line in text.splitlines():
        m = re.fullmatch(r"(\w+)(?:\{(.*)\})? (\S+)", line)
        if not m or m.group(1) != name:
            continue
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if got == labels:
            return float(m.group(3))
    return 0.0


# The batch rule of CloudWatch (facts §7): every throttled item is a throttle event, but a
# batch is a throttled request only when all its items were throttled.
def test_batch_write_throttle_metrics(lean_client):
    create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                  "WriteCapacityUnits": 5})
    items = [item(f"k{i}") for i in range(8)]
    status, reply = lean_client.call("BatchWriteItem", {
        "RequestItems": {"prov": [{"PutRequest": {"Item": it}} for it in items]}})
    assert status == 200
    events = "sluice_dynamodb_write_throttle_events_total"
    requests = "sluice_dynamodb_throttled_requests_total"
    assert prometheus(lean_client, events, table_name="prov") == 3
    assert prometheus(lean_client, requests, table_name="prov", operation="BatchWriteItem") == 0
    status, _ = lean_client.call("BatchWriteItem", {"RequestItems": reply["UnprocessedItems"]})
    assert status == 400
    assert prometheus(lean_client, events, table_name="prov") == 6
    assert prometheus(lean_client, requests, table_name="prov", operation="BatchWriteItem") == 1


# --- BatchGetItem -------------------------------------------------------------------------

def fill(client, table, pks):
    for pk in pks:
        assert client.call("PutItem", {"TableName": table, "Item": item(pk, size=100)})[0] == 200


# Reads are admitted key by key too: a fresh table with 5 RCU serves ten 0.5 RCU reads, and
# the two keys after them come back in UnprocessedKeys with the table's ConsistentRead and
# projection members, ready to be sent again; ConsumedCapacity counts the ten.
def test_batch_get_partly_throttled_in_request_order(lean_client):
    create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                  "WriteCapacityUnits": 100})
    pks = [f"k{i:02}" for i in range(12)]
    fill(lean_client, "prov", pks)
    entry = {"ProjectionExpression": "#p", "ExpressionAttributeNames": {"#p": "pk"},
             "ConsistentRead": False}
    status, reply = lean_client.call("BatchGetItem", {
        "RequestItems": {"prov": dict(Keys=[{"pk": {"S": pk}} for pk in pks], **entry)},
        "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200, reply
    assert sorted(i["pk"]["S"] for i in reply["Responses"]["prov"]) == pks[:10]
    assert reply["UnprocessedKeys"] == {
        "prov": dict(Keys=[{"pk": {"S": pk}} for pk in pks[10:]], **entry)}
    assert reply["ConsumedCapacity"] == [{"TableName": "prov", "CapacityUnits": 5.0}]


# Sent again at once they are all throttled: the call fails with the provisioned exception
# (read reason). A second later the UnprocessedKeys value is served.
def test_batch_get_all_throttled_fails_then_retry_succeeds(lean_client):
    arn = create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                        "WriteCapacityUnits": 100})
    pks = [f"k{i:02}" for i in range(12)]
    fill(lean_client, "prov", pks)
    status, reply = lean_client.call("BatchGetItem", {
        "RequestItems": {"prov": {"Keys": [{"pk": {"S": pk}} for pk in pks]}}})
    unprocessed = reply["UnprocessedKeys"]
    status, reply = lean_client.call("BatchGetItem", {"RequestItems": unprocessed})
    assert status == 400
    assert reply["__type"].endswith("#ProvisionedThroughputExceededException")
    assert reply["ThrottlingReasons"] == [
        {"reason": "TableReadProvisionedThroughputExceeded", "resource": arn}]
    lean_client.advance(1000)
    status, reply = lean_client.call("BatchGetItem", {"RequestItems": unprocessed})
    assert status == 200, reply
    assert sorted(i["pk"]["S"] for i in reply["Responses"]["prov"]) == pks[10:]
    assert reply["UnprocessedKeys"] == {}


# A hot read partition: once strongly consistent reads of a 400 KB item (100 RCU each) have
# spent its burst, that key comes back unprocessed while keys elsewhere are read; asked
# alone it fails the call with ThrottlingException and the read reason.
def test_batch_get_against_hot_partition(client):
    arn = create(client, "hot")
    big = item("hot", size=400 * 1024)
    assert client.call("PutItem", {"TableName": "hot", "Item": big})[0] == 200
    fill(client, "hot", [f"cold{i}" for i in range(10)])
    for _ in range(200):
        status, reply = client.call("GetItem", {"TableName": "hot", "Key": {"pk": {"S": "hot"}},
                                                "ConsistentRead": True})
        if status != 200:
            break
    else:
        raise AssertionError("the partition never throttled")
    pks = ["hot"] + [f"cold{i}" for i in range(10)]
    status, reply = client.call("BatchGetItem", {
        "RequestItems": {"hot": {"Keys": [{"pk": {"S": pk}} for pk in pks], "ConsistentRead": True}}})
    assert status == 200, reply
    read = [i["pk"]["S"] for i in reply["Responses"]["hot"]]
    left = [k["pk"]["S"] for k in reply["UnprocessedKeys"]["hot"]["Keys"]]
    assert "hot" in left and "hot" not in read
    assert read, "every cold key landed on the hot partition"
    assert sorted(read + left) == sorted(pks)
    status, reply = client.call("BatchGetItem", {
        "RequestItems": {"hot": {"Keys": [{"pk": {"S": "hot"}}]}}})
    assert status == 400
    assert reply["__type"] == "com.amazon.coral.availability#ThrottlingException"
    assert reply["throttlingReasons"] == [
        {"reason": "TableReadKeyRangeThroughputExceeded", "resource": arn}]


# Throttled keys cost nothing and are recorded as throttle events; admitted ones consume.
def test_batch_get_throttles_are_recorded(lean_client):
    create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                  "WriteCapacityUnits": 100})
    fill(lean_client, "prov", ["a", "b", "c"])
    status, reply = lean_client.call("BatchGetItem", {
        "RequestItems": {"prov": {"Keys": [{"pk": {"S": k}} for k in "abc"]}},
        "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200, reply
    assert reply["ConsumedCapacity"] == [{"TableName": "prov", "CapacityUnits": 1.0}]
    assert [k["pk"]["S"] for k in reply["UnprocessedKeys"]["prov"]["Keys"]] == ["c"]
    status, res = admin(lean_client.ep, "GET", "/_sluice/tables/prov/capacity")
    assert status == 200
    table = res["resources"][0]
    assert table["throttles"]["read"]["ProvisionedThroughputExceeded"] == 1
    assert table["consumed_last_minute"]["read"] == 1.0
