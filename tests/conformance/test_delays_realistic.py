"""`sluice serve --delays realistic` (jobs/env.h sl_env_delay_ms; docs/capacity.md,
"Control-plane delays"): each control-plane transition takes a time drawn from the service's
measured range by a generator seeded by --seed — CreateTable CREATING 7-22 s (seed 003), a
throughput change UPDATING 1-2 s, a billing-mode switch 54-129 s, a GSI added by UpdateTable allocating 24-55 s, a warm
throughput increase UPDATING 388-514 s — on the manual clock, so each edge is exact: the admin
API's table list shows when the transition ends (`status_until_ms`, `warm_until_ms`). The
default, `--delays instant`, is what every other test runs on. sluice-only: the flag and the
admin API are sluice's, and the manual clock cannot drive the service.
"""
import json
import subprocess

import pytest

from conftest import Client, Server, admin, sluice_bin

pytestmark = pytest.mark.sluice_only

START = ["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z"]
DEFS = [{"AttributeName": "pk", "AttributeType": "S"}]


@pytest.fixture
def realistic():
    srv = Server([*START, "--delays", "realistic", "--seed", "7"])
    yield Client(srv.endpoint)
    srv.stop()


def now_ms(c):
    status, clock = admin(c.ep, "GET", "/_sluice/clock")
    assert status == 200
    return clock["now_ms"]


def listed(c, name):
    status, reply = admin(c.ep, "GET", "/_sluice/tables")
    assert status == 200
    return next(t for t in reply["tables"] if t["name"] == name)


def describe(c, name):
    status, reply = c.call("DescribeTable", {"TableName": name})
    assert status == 200, reply
    return reply["Table"]


def create(c, name, **kw):
    """CreateTable; the drawn CREATING time in ms."""
    assert c.create_table(name, **kw)["TableStatus"] == "CREATING"
    return listed(c, name)["status_until_ms"] - now_ms(c)


def wait_active(c, name):
    """Moves the clock to the end of the table's transition."""
    t = listed(c, name)
    if "status_until_ms" in t:
        c.advance(t["status_until_ms"] - now_ms(c))
    assert describe(c, name)["TableStatus"] == "ACTIVE"


# A new table is CREATING (and refuses data-plane requests, as the service does) until its
# drawn delay has passed, to the millisecond, then ACTIVE; the delay lies in seed 003's
# measured 7.4-22 s (the 7-22 s of realistic_table_create_min_ms/_max_ms).
def test_create_table_active_after_drawn_delay(realistic):
    c = realistic
    delay = create(c, "orders")
    assert 7000 <= delay <= 22000
    c.advance(delay - 1)
    assert describe(c, "orders")["TableStatus"] == "CREATING"
    status, reply = c.call("PutItem", {"TableName": "orders", "Item": {"pk": {"S": "a"}}})
    assert status == 400 and reply["__type"].endswith("#ResourceNotFoundException")
    c.advance(1)
    assert describe(c, "orders")["TableStatus"] == "ACTIVE"
    assert c.call("PutItem", {"TableName": "orders", "Item": {"pk": {"S": "a"}}})[0] == 200


# A GSI created with its table becomes ACTIVE with it (DDB-TABLE-148: "everything flips to
# ACTIVE together").
def test_gsis_of_a_new_table_become_active_with_it(realistic):
    c = realistic
    delay = create(c, "withgsi", AttributeDefinitions=DEFS + [
        {"AttributeName": "g", "AttributeType": "S"}], GlobalSecondaryIndexes=[{
            "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    c.advance(delay - 1)
    t = describe(c, "withgsi")
    assert (t["TableStatus"], t["GlobalSecondaryIndexes"][0]["IndexStatus"]) == (
        "CREATING", "CREATING")
    c.advance(1)
    t = describe(c, "withgsi")
    assert (t["TableStatus"], t["GlobalSecondaryIndexes"][0]["IndexStatus"]) == (
        "ACTIVE", "ACTIVE")


def drawn_delays(seed):
    """The CREATING times of five tables created in order on a fresh server."""
    srv = Server([*START, "--delays", "realistic", "--seed", str(seed)])
    try:
        c = Client(srv.endpoint)
        return [create(c, f"table{i}") for i in range(5)]
    finally:
        srv.stop()


# The draws follow --seed: the same seed gives the same delays in the same order, another
# seed others (request ids and fault probabilities have generators of their own, so
# nothing else shifts them).
def test_same_seed_same_delays_other_seed_other_delays():
    a, b, other = drawn_delays(7), drawn_delays(7), drawn_delays(8)
    assert a == b
    assert other != a
    assert all(7000 <= d <= 22000 for d in a + other)
    assert len(set(a)) > 1  # drawn, not one constant


# A provisioned-throughput change leaves the table UPDATING for a drawn 1-2 s (live probes:
# 1.0-1.5 s), with the old units in effect until then, then ACTIVE with the new ones.
def test_update_table_updating_then_active(realistic):
    c = realistic
    create(c, "prov", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    wait_active(c, "prov")
    status, reply = c.call("UpdateTable", {"TableName": "prov", "ProvisionedThroughput": {
        "ReadCapacityUnits": 10, "WriteCapacityUnits": 10}})
    assert status == 200, reply
    assert reply["TableDescription"]["TableStatus"] == "UPDATING"
    delay = listed(c, "prov")["status_until_ms"] - now_ms(c)
    assert 1000 <= delay <= 2000
    c.advance(delay - 1)
    t = describe(c, "prov")
    assert t["TableStatus"] == "UPDATING"
    assert t["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
    c.advance(1)
    t = describe(c, "prov")
    assert t["TableStatus"] == "ACTIVE"
    assert t["ProvisionedThroughput"]["ReadCapacityUnits"] == 10


# A billing-mode switch takes longer: UPDATING for a drawn 54-129 s (live probes: 54.8-128.6 s),
# then ACTIVE in the new mode.
def test_billing_switch_takes_its_time(realistic):
    c = realistic
    create(c, "switch", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    wait_active(c, "switch")
    status, reply = c.call("UpdateTable", {"TableName": "switch",
                                           "BillingMode": "PAY_PER_REQUEST"})
    assert status == 200, reply
    delay = listed(c, "switch")["status_until_ms"] - now_ms(c)
    assert 54000 <= delay <= 129000
    c.advance(delay - 1)
    assert describe(c, "switch")["TableStatus"] == "UPDATING"
    c.advance(1)
    t = describe(c, "switch")
    assert t["TableStatus"] == "ACTIVE"
    assert t["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


# A GSI added by UpdateTable: the table is UPDATING and the index CREATING (no backfill yet)
# for the drawn resource allocation, 24-55 s (live probes: 24.3-55 s); then the table is ACTIVE
# and the index backfills, even on an empty table, for a drawn 7-16 min (live probes), then
# it is ACTIVE.
def test_gsi_creation_takes_its_allocation_time(realistic):
    c = realistic
    create(c, "addgsi")
    wait_active(c, "addgsi")
    status, reply = c.call("UpdateTable", {
        "TableName": "addgsi",
        "AttributeDefinitions": DEFS + [{"AttributeName": "g", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [{"Create": {
            "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}]})
    assert status == 200, reply
    delay = listed(c, "addgsi")["status_until_ms"] - now_ms(c)
    assert 24000 <= delay <= 55000
    c.advance(delay - 1)
    t = describe(c, "addgsi")
    assert t["TableStatus"] == "UPDATING"
    assert t["GlobalSecondaryIndexes"][0]["IndexStatus"] == "CREATING"
    assert t["GlobalSecondaryIndexes"][0]["Backfilling"] is False
    gsi = listed(c, "addgsi")["indexes"][0]
    assert gsi["alloc_until_ms"] == now_ms(c) + 1
    backfill = gsi["backfill_until_ms"] - gsi["alloc_until_ms"]
    assert 7 * 60000 <= backfill <= 16 * 60000
    c.advance(1)
    c.advance(1)  # the allocation's end, then the (empty) backfill's first step
    t = describe(c, "addgsi")
    assert t["TableStatus"] == "ACTIVE"
    assert t["GlobalSecondaryIndexes"][0]["IndexStatus"] == "CREATING"
    assert t["GlobalSecondaryIndexes"][0]["Backfilling"] is True
    # Items written meanwhile are in the index once it is ACTIVE.
    assert c.call("PutItem", {"TableName": "addgsi",
                              "Item": {"pk": {"S": "a"}, "g": {"S": "x"}}})[0] == 200
    c.advance(gsi["backfill_until_ms"] - now_ms(c) - 1)
    assert describe(c, "addgsi")["GlobalSecondaryIndexes"][0]["IndexStatus"] == "CREATING"
    c.advance(1)
    c.advance(1)  # the backfill's next step sees its time has come
    assert describe(c, "addgsi")["GlobalSecondaryIndexes"][0]["IndexStatus"] == "ACTIVE"
    status, reply = c.call("Query", {"TableName": "addgsi", "IndexName": "byg",
                                     "KeyConditionExpression": "g = :g",
                                     "ExpressionAttributeValues": {":g": {"S": "x"}}})
    assert status == 200 and [i["pk"]["S"] for i in reply["Items"]] == ["a"], reply


# A warm throughput increase is UPDATING for a drawn 388-514 s (live probes: 388.8-513.9 s)
# while the table stays ACTIVE, then ACTIVE.
def test_warm_throughput_updating_then_active(realistic):
    c = realistic
    create(c, "warm")
    wait_active(c, "warm")
    status, reply = c.call("UpdateTable", {"TableName": "warm", "WarmThroughput": {
        "ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000}})
    assert status == 200, reply
    assert reply["TableDescription"]["TableStatus"] == "ACTIVE"
    entry = listed(c, "warm")
    delay = entry["warm_until_ms"] - now_ms(c)
    assert 388000 <= delay <= 514000
    c.advance(delay - 1)
    t = describe(c, "warm")
    assert t["TableStatus"] == "ACTIVE"
    assert t["WarmThroughput"] == {  # the values before, until ACTIVE
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "UPDATING"}
    c.advance(1)
    assert describe(c, "warm")["WarmThroughput"] == {
        "ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000, "Status": "ACTIVE"}


# The default stays instant: a new table is ACTIVE at once.
def test_default_is_instant(client):
    client.create_table("fast")
    assert describe(client, "fast")["TableStatus"] == "ACTIVE"


# A bad value is refused at start with a message naming the two choices (exit status 2,
# the usage error of every flag).
@pytest.mark.parametrize("value", ["fast", "Realistic", ""])
def test_bad_delays_value_refused(value):
    binary = sluice_bin()
    p = subprocess.run([binary, "serve", "--port", "0", "--delays", value],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert p.stderr.startswith(
        f"sluice serve: invalid --delays '{value}' (instant or realistic)\n")


def stream_status(c, arn):
    c.conn.request("POST", "/", body=json.dumps({"StreamArn": arn}), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDBStreams_20120810.DescribeStream",
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                         "aws4_request, SignedHeaders=host, Signature=0"})
    r = c.conn.getresponse()
    reply = json.loads(r.read())
    assert r.status == 200, reply
    return reply["StreamDescription"]["StreamStatus"]


# A stream enabled or disabled by UpdateTable is ENABLING or DISABLING for as long as the
# table is UPDATING from that change (the drawn throughput-change time), then ENABLED or
# DISABLED, to the millisecond.
def test_stream_status_follows_the_drawn_update(realistic):
    c = realistic
    c.advance(create(c, "feed"))
    status, reply = c.call("UpdateTable", {"TableName": "feed", "StreamSpecification": {
        "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}})
    assert status == 200, reply
    arn = reply["TableDescription"]["LatestStreamArn"]
    left = listed(c, "feed")["status_until_ms"] - now_ms(c)
    assert 1000 <= left <= 2000
    c.advance(left - 1)
    assert stream_status(c, arn) == "ENABLING"
    c.advance(1)
    assert describe(c, "feed")["TableStatus"] == "ACTIVE"
    assert stream_status(c, arn) == "ENABLED"
    status, reply = c.call("UpdateTable", {"TableName": "feed",
                                           "StreamSpecification": {"StreamEnabled": False}})
    assert status == 200, reply
    left = listed(c, "feed")["status_until_ms"] - now_ms(c)
    assert 1000 <= left <= 2000
    c.advance(left - 1)
    assert stream_status(c, arn) == "DISABLING"
    c.advance(1)
    assert stream_status(c, arn) == "DISABLED"
