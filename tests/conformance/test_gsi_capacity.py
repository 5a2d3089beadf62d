"""GSI capacity on a manual clock: back-pressure of a GSI on its table's writes, a hot index
partition key, the index's own decrease budget, and a backfill that pays with the index's
write capacity (capacity-model.md §5 and §7, facts §1.2-1.4 and §2.2). DynamoDB Local
ignores capacity, so every test here is marked `capacity`.

Units: items of ~1,000 bytes cost one write unit on the table and one on each GSI whose
entry they write (facts §2.2); the scenarios run on lean_client, whose provisioned resources
start with one second of their rate (the default, a full burst, is test_new_table_burst.py).
"""
import uuid

import pytest

from conftest import Client, Server

pytestmark = pytest.mark.capacity

INDEX_PROVISIONED_MSG = (
    "The level of configured provisioned throughput for one or more global secondary indexes of "
    "the table was exceeded. Consider increasing your provisioning level for the "
    "under-provisioned global secondary indexes with the UpdateTable API")
INDEX_ON_DEMAND_MSG = (
    "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB "
    "is automatically scaling your index so please try again shortly.")


def pt(r, w):
    return {"ReadCapacityUnits": r, "WriteCapacityUnits": w}


def new_name():
    return "t_" + uuid.uuid4().hex[:12]


def add_gsi(client, table, index, attr, **kw):
    action = {"IndexName": index, "KeySchema": [{"AttributeName": attr, "KeyType": "HASH"}],
              "Projection": {"ProjectionType": "ALL"}}
    action.update(kw)
    status, reply = client.call("UpdateTable", {
        "TableName": table, "AttributeDefinitions": [{"AttributeName": attr, "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [{"Create": action}]})
    assert status == 200, reply
    return reply["TableDescription"]


def gsi(client, table, index):
    status, reply = client.call("DescribeTable", {"TableName": table})
    assert status == 200, reply
    for g in reply["Table"].get("GlobalSecondaryIndexes", []):
        if g["IndexName"] == index:
            return g
    return None


def item(pk, g=None, size=1000):
    """An item of about `size` bytes (one write unit), with GSI key g when given."""
    it = {"pk": {"S": pk}, "p": {"S": "x" * (size - len(pk) - 2 - (len(g) + 1 if g else 0) - 1)}}
    if g is not None:
        it["g"] = {"S": g}
    return it


def put(client, table, it):
    return client.call("PutItem", {"TableName": table, "Item": it})


def metric_total(ep, name, table, index):
    """The value of a Prometheus series of /metrics for one table and index (0 if absent)."""
    import urllib.request
    with urllib.request.urlopen(ep + "/metrics", timeout=10) as r:
        text = r.read().decode()
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name) or line.startswith("#"):
            continue
        if f'table_name="{table}"' in line and f'global_secondary_index_name="{index}"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


# An under-provisioned GSI (added by UpdateTable) throttles the table's writes that touch it
# while the table has capacity to spare: the provisioned exception with the GSI message and
# the index's reason and ARN; writes that do not touch the index pass (facts §1.2).
def test_under_provisioned_gsi_throttles_table_writes(lean_client):
    name = new_name()
    lean_client.create_table(name, ProvisionedThroughput=pt(1000, 1000))
    d = add_gsi(lean_client, name, "byg", "g", ProvisionedThroughput=pt(1, 1))
    arn = d["TableArn"] + "/index/byg"
    assert put(lean_client, name, item("a", "g1"))[0] == 200  # the index's first second
    status, reply = put(lean_client, name, item("b", "g1"))
    assert status == 400
    assert reply["__type"].endswith("#ProvisionedThroughputExceededException")
    assert reply["message"] == INDEX_PROVISIONED_MSG
    assert reply["ThrottlingReasons"] == [
        {"reason": "IndexWriteProvisionedThroughputExceeded", "resource": arn}]
    # Nothing was written.
    assert "Item" not in lean_client.call("GetItem", {"TableName": name, "Key": {"pk": {"S": "b"}}})[1]
    # Writes without the index key cost the index nothing.
    assert put(lean_client, name, item("c"))[0] == 200
    lean_client.advance(1000)
    assert put(lean_client, name, item("b", "g1"))[0] == 200


# A hot GSI partition key: every write lands on one index partition (1,000 write units a
# second) while the table spreads them; the on-demand index throttles with its KeyRange
# reason (facts §1.2, capacity-model.md §4).
def test_hot_gsi_partition_key(client):
    name = new_name()
    client.create_table(name)
    d = add_gsi(client, name, "byg", "g")
    arn = d["TableArn"] + "/index/byg"
    throttled = None
    for i in range(3000):
        status, reply = put(client, name, item(f"k{i}", "hot"))
        if status != 200:
            throttled = (i, reply)
            break
    assert throttled is not None, "the hot index key never throttled"
    i, reply = throttled
    assert 800 <= i <= 1100, i
    assert reply["__type"].endswith("#ThrottlingException")
    assert reply["message"] == INDEX_ON_DEMAND_MSG
    assert reply["throttlingReasons"] == [
        {"reason": "IndexWriteKeyRangeThroughputExceeded", "resource": arn}]
    # The table itself has capacity to spare: a write that skips the index passes.
    assert put(client, name, item("cold"))[0] == 200


# A backfill pays for every entry with the index's write capacity: with 5 units a second
# it copies about five items a second, shows Backfilling and a growing ItemCount, records
# OnlineIndexConsumedWriteCapacity and OnlineIndexThrottleEvents, and ends ACTIVE with every
# item once enough clock time has passed (capacity-model.md §7).
def test_backfill_consumes_index_capacity(lean_client):
    ep = lean_client.ep
    name = new_name()
    lean_client.create_table(name, ProvisionedThroughput=pt(1000, 1000))
    for i in range(50):
        assert put(lean_client, name, item(f"k{i:02d}", f"g{i % 5}"))[0] == 200
    d = add_gsi(lean_client, name, "byg", "g", ProvisionedThroughput=pt(5, 5))
    g = [x for x in d["GlobalSecondaryIndexes"] if x["IndexName"] == "byg"][0]
    assert g["IndexStatus"] == "CREATING" and g["Backfilling"] is True
    g = gsi(lean_client, name, "byg")
    assert g["IndexStatus"] == "CREATING" and g["Backfilling"] is True
    assert g["ItemCount"] <= 7
    lean_client.advance(2000)
    g = gsi(lean_client, name, "byg")
    assert g["IndexStatus"] == "CREATING"
    assert 10 <= g["ItemCount"] <= 20, g
    assert metric_total(ep, "sluice_dynamodb_online_index_throttle_events", name, "byg") >= 1
    lean_client.advance(20000)
    g = gsi(lean_client, name, "byg")
    assert g["IndexStatus"] == "ACTIVE" and "Backfilling" not in g
    assert g["ItemCount"] == 50
    assert g["IndexSizeBytes"] > 45000
    consumed = metric_total(ep, "sluice_dynamodb_online_index_consumed_write_capacity_units",
                            name, "byg")
    assert consumed == 50
    status, reply = lean_client.call("Query", {
        "TableName": name, "IndexName": "byg", "KeyConditionExpression": "g = :g",
        "ExpressionAttributeValues": {":g": {"S": "g3"}}, "Select": "COUNT"})
    assert status == 200 and reply["Count"] == 10


# A backfill on a table with no items has nothing to copy: the index is ACTIVE at once. The
# reply shows it CREATING with Backfilling false, as the service's reply does for an index
# whose backfill has not started (aws-cli update-table example 2).
def test_index_on_empty_table_is_active_at_once(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(10, 10))
    d = add_gsi(client, name, "byg", "g", ProvisionedThroughput=pt(1, 1))
    g = [x for x in d["GlobalSecondaryIndexes"] if x["IndexName"] == "byg"][0]
    assert g["IndexStatus"] == "CREATING" and g["Backfilling"] is False
    assert gsi(client, name, "byg")["IndexStatus"] == "ACTIVE"


# Each GSI has its own decrease budget, apart from the table's: after four decreases of the
# index the fifth is refused with the service's text, and the table can still decrease
# (capacity-model.md §5, DDB-TABLE-157).
def test_index_decrease_budget(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(50, 50),
                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "g", "AttributeType": "S"}],
                 GlobalSecondaryIndexes=[{
                     "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                     "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": pt(50, 50)}])
    for units in (45, 40, 35, 30):
        status, reply = client.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
            {"Update": {"IndexName": "byg", "ProvisionedThroughput": pt(units, units)}}]})
        assert status == 200, reply
    assert gsi(client, name, "byg")["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 4
    status, reply = client.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "byg", "ProvisionedThroughput": pt(25, 25)}}]})
    assert status == 400
    assert reply["__type"].endswith("#LimitExceededException")
    assert reply["message"].startswith(
        "Subscriber limit exceeded: Provisioned throughput decreases are limited within a given "
        "UTC day. After the first 4 decreases, each subsequent decrease in the same UTC day can be "
        "performed at most once every 3600 seconds. Number of decreases today: 4.")
    status, reply = client.call("UpdateTable", {"TableName": name,
                                                "ProvisionedThroughput": pt(40, 40)})
    assert status == 200, reply
    # An increase of the index is always allowed.
    status, reply = client.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "byg", "ProvisionedThroughput": pt(100, 100)}}]})
    assert status == 200, reply


# Deleting the GSI removes its capacity resource: writes it throttled pass at once.
def test_deleted_index_stops_throttling(lean_client):
    name = new_name()
    lean_client.create_table(name, ProvisionedThroughput=pt(1000, 1000))
    add_gsi(lean_client, name, "byg", "g", ProvisionedThroughput=pt(1, 1))
    assert put(lean_client, name, item("a", "g1"))[0] == 200
    assert put(lean_client, name, item("b", "g1"))[0] == 400
    status, reply = lean_client.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Delete": {"IndexName": "byg"}}]})
    assert status == 200, reply
    assert put(lean_client, name, item("b", "g1"))[0] == 200
    assert gsi(lean_client, name, "byg") is None


# backfill_rate fixes the backfill's pace whatever the index's capacity (cap/params.def).
def test_backfill_rate_parameter(tmp_path):
    cfg = tmp_path / "rate.conf"
    cfg.write_text("backfill_rate = 2\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--config", str(cfg)])
    try:
        client = Client(srv.endpoint)
        name = new_name()
        client.create_table(name, ProvisionedThroughput=pt(1000, 1000))
        for i in range(20):
            assert put(client, name, item(f"k{i:02d}", "g"))[0] == 200
        add_gsi(client, name, "byg", "g", ProvisionedThroughput=pt(1000, 1000))
        client.advance(3000)
        g = gsi(client, name, "byg")
        assert g["IndexStatus"] == "CREATING" and g["ItemCount"] <= 10, g
        client.advance(20000)
        g = gsi(client, name, "byg")
        assert g["IndexStatus"] == "ACTIVE" and g["ItemCount"] == 20
    finally:
        srv.stop()
