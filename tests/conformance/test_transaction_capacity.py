"""Transactions under throttling (capacity-model.md §3): TransactWriteItems and
TransactGetItems are admitted all or nothing. If any action is throttled the call fails with
TransactionCanceledException whose CancellationReasons carry ProvisionedThroughputExceeded
(provisioned) or ThrottlingError (on-demand), with the message of that exception, for the
throttled actions and None for the others; nothing is written and nothing is charged.
Transactional reads and writes cost twice the single ones (facts §2.2).

Every test runs on a private sluice with a manual clock (conftest.manual_server): refill
happens only when a test advances the clock, and bucket levels are read from the admin API.
DynamoDB Local ignores capacity: all marked `capacity`.
"""
import pytest

from conftest import admin
from test_capacity_http import ON_DEMAND_MSG, PROVISIONED_MSG

pytestmark = pytest.mark.capacity

PROVISIONED_GSI_MSG = (
    "The level of configured provisioned throughput for one or more global secondary indexes of "
    "the table was exceeded. Consider increasing your provisioning level for the "
    "under-provisioned global secondary indexes with the UpdateTable API")
CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]"


def create(client, name, wcu=None, rcu=100, extra_attrs=(), **kw):
    if wcu is not None:
        kw["ProvisionedThroughput"] = {"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu}
    if extra_attrs:
        kw["AttributeDefinitions"] = [{"AttributeName": "pk", "AttributeType": "S"}] + [
            {"AttributeName": a, "AttributeType": t} for a, t in extra_attrs]
    return client.create_table(name, **kw)["TableArn"]


def item(pk, size=1000):
    """An item of exactly `size` bytes (1000: 1 write unit, 2 transactional)."""
    return {"pk": {"S": pk}, "p": {"S": "x" * (size - len(pk) - 3)}}


def key(pk):
    return {"pk": {"S": pk}}


def put(table, it, **kw):
    return {"Put": dict(TableName=table, Item=it, **kw)}


def exists(client, table, pk):
    status, reply = client.call("GetItem", {"TableName": table, "Key": key(pk)})
    assert status == 200, reply
    return "Item" in reply


def level(client, table, direction="write", index=None):
    """The table's (or a GSI's) bucket level in units, from the admin API."""
    status, cap = admin(client.ep, "GET", f"/_sluice/tables/{table}/capacity")
    assert status == 200, cap
    for res in cap["resources"]:
        if (index is None and res["kind"] == "table") or res["name"] == index:
            return res["buckets"][direction]["table"]["level"]
    raise AssertionError(f"no resource {index or table}")


def cancelled(status, reply, codes):
    assert status == 400, reply
    assert reply["__type"] == "com.amazonaws.dynamodb.v20120810#TransactionCanceledException"
    assert reply["Message"] == CANCELLED.format(", ".join(codes))
    assert [r["Code"] for r in reply["CancellationReasons"]] == codes
    return reply["CancellationReasons"]


# A provisioned table whose capacity is spent: the transaction is cancelled with
# ProvisionedThroughputExceeded for its action (the provisioned exception's text) and None for
# the actions on the on-demand table, which are not written either. A second later the same
# transaction goes through, each 1 KB put charged 2 units.
def test_provisioned_table_throttle_cancels(lean_client):
    create(lean_client, "ondemand")
    create(lean_client, "prov", wcu=5)
    assert lean_client.call("PutItem", {"TableName": "prov", "Item": item("fill", 5000)})[0] == 200
    tx = {"TransactItems": [put("ondemand", item("a")), put("prov", item("b")), put("ondemand", item("c"))],
          "ReturnConsumedCapacity": "TOTAL"}
    reasons = cancelled(*lean_client.call("TransactWriteItems", tx),
                        ["None", "ProvisionedThroughputExceeded", "None"])
    assert reasons == [{"Code": "None"},
                       {"Code": "ProvisionedThroughputExceeded", "Message": PROVISIONED_MSG},
                       {"Code": "None"}]
    assert not any(exists(lean_client, t, pk) for t, pk in (("ondemand", "a"), ("prov", "b"), ("ondemand", "c")))
    lean_client.advance(1000)
    status, reply = lean_client.call("TransactWriteItems", tx)
    assert status == 200, reply
    assert reply["ConsumedCapacity"] == [
        {"TableName": "ondemand", "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0},
        {"TableName": "prov", "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}]
    assert all(exists(lean_client, t, pk) for t, pk in (("ondemand", "a"), ("prov", "b"), ("ondemand", "c")))


# An on-demand hot key: once one partition key has spent its partition's burst, a
# transaction touching it is cancelled with ThrottlingError and the on-demand text; the other
# action, on another table, is None and not written.
def test_on_demand_hot_key_throttling_error(client):
    create(client, "hot")
    create(client, "other")
    for i in range(2000):
        status, reply = client.call("PutItem", {"TableName": "hot", "Item": item("h")})
        if status != 200:
            assert reply["throttlingReasons"][0]["reason"] == "TableWriteKeyRangeThroughputExceeded"
            break
    else:
        raise AssertionError("the hot key never throttled")
    tx = {"TransactItems": [
        put("other", item("x")),
        {"Update": {"TableName": "hot", "Key": key("h"), "UpdateExpression": "SET n = :n",
                    "ExpressionAttributeValues": {":n": {"N": "1"}}}}]}
    reasons = cancelled(*client.call("TransactWriteItems", tx), ["None", "ThrottlingError"])
    assert reasons[1] == {"Code": "ThrottlingError", "Message": ON_DEMAND_MSG}
    assert not exists(client, "other", "x")
    client.advance(1000)
    assert client.call("TransactWriteItems", tx)[0] == 200
    assert exists(client, "other", "x")


# A configured on-demand maximum is an on-demand throttle too: ThrottlingError.
def test_on_demand_maximum_throttling_error(client):
    create(client, "capped", OnDemandThroughput={"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 3})
    assert client.call("TransactWriteItems", {"TransactItems": [put("capped", item("a"))]})[0] == 200
    assert client.call("TransactWriteItems", {"TransactItems": [put("capped", item("b"))]})[0] == 200
    reasons = cancelled(*client.call("TransactWriteItems", {"TransactItems": [put("capped", item("c"))]}),
                        ["ThrottlingError"])
    assert reasons[0]["Message"] == ON_DEMAND_MSG


# A throttle wins over a failed condition (as in PutItem): the condition's action is None.
def test_throttle_wins_over_failed_condition(lean_client):
    create(lean_client, "ondemand")
    create(lean_client, "prov", wcu=1)
    assert lean_client.call("PutItem", {"TableName": "prov", "Item": item("fill")})[0] == 200
    tx = {"TransactItems": [put("ondemand", item("a"), ConditionExpression="attribute_exists(pk)"),
                            put("prov", item("b"))]}
    cancelled(*lean_client.call("TransactWriteItems", tx), ["None", "ProvisionedThroughputExceeded"])


# Transactional writes cost double: a provisioned table with one second of capacity (lean_client)
# (5 units); a 1 KB transactional put takes 2, a 1.5 KB one 4 (admission while the level is
# positive, debt allowed: spec §3), and then the table throttles.
def test_transactional_write_costs_double(lean_client):
    create(lean_client, "prov", wcu=5)
    assert lean_client.call("TransactWriteItems", {"TransactItems": [put("prov", item("a"))]})[0] == 200
    assert level(lean_client, "prov") == 3.0
    assert lean_client.call("TransactWriteItems", {"TransactItems": [put("prov", item("b", 1500))]})[0] == 200
    assert level(lean_client, "prov") == -1.0
    cancelled(*lean_client.call("TransactWriteItems", {"TransactItems": [put("prov", item("c"))]}),
              ["ProvisionedThroughputExceeded"])
    assert level(lean_client, "prov") == -1.0


# A throttled transaction charges nothing, not even the tables that had capacity.
def test_throttled_transaction_charges_nothing(lean_client):
    create(lean_client, "spent", wcu=1)
    create(lean_client, "fresh", wcu=10)
    assert lean_client.call("PutItem", {"TableName": "spent", "Item": item("fill")})[0] == 200
    cancelled(*lean_client.call("TransactWriteItems", {"TransactItems": [
        put("fresh", item("a")), put("spent", item("b"))]}), ["None", "ProvisionedThroughputExceeded"])
    assert level(lean_client, "fresh") == 10.0
    assert level(lean_client, "spent") == 0.0


# A transaction cancelled for a failed condition costs its prepare phase: one write per action
# that reached its item, sized as a failed conditional write (the new item where one exists,
# else 1 unit). sluice's choice: AWS publishes no figure for cancelled transactions.
def test_cancelled_transaction_costs_prepare_phase(lean_client):
    create(lean_client, "prov", wcu=10)
    assert lean_client.call("PutItem", {"TableName": "prov", "Item": item("old", 3000)})[0] == 200
    assert level(lean_client, "prov") == 7.0
    cancelled(*lean_client.call("TransactWriteItems", {"TransactItems": [
        put("prov", item("old", 2000)),
        put("prov", item("new"), ConditionExpression="attribute_exists(pk)")]}),
        ["None", "ConditionalCheckFailed"])
    assert level(lean_client, "prov") == 4.0


# A ConditionCheck is billed as a transactional write of the checked item.
def test_condition_check_costs_write(lean_client):
    create(lean_client, "prov", wcu=10)
    assert lean_client.call("PutItem", {"TableName": "prov", "Item": item("c", 2000)})[0] == 200
    status, reply = lean_client.call("TransactWriteItems", {
        "TransactItems": [{"ConditionCheck": {"TableName": "prov", "Key": key("c"),
                                              "ConditionExpression": "attribute_exists(pk)"}}],
        "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200, reply
    assert reply["ConsumedCapacity"] == [{"TableName": "prov", "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}]
    assert level(lean_client, "prov") == 4.0
    assert level(lean_client, "prov", "read") == 100.0


# A provisioned GSI without capacity cancels a transaction whose put writes to it, with the
# GSI text of ProvisionedThroughputExceeded, while the table has plenty.
def test_gsi_throttle_cancels(lean_client):
    create(lean_client, "withgsi", wcu=100, extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[{
        "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"},
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 1}}])
    it = dict(item("a"), g={"S": "x"})
    assert lean_client.call("TransactWriteItems", {"TransactItems": [put("withgsi", it)]})[0] == 200
    assert level(lean_client, "withgsi", index="byg") == -1.0
    it = dict(item("b"), g={"S": "y"})
    reasons = cancelled(*lean_client.call("TransactWriteItems", {"TransactItems": [put("withgsi", it)]}),
                        ["ProvisionedThroughputExceeded"])
    assert reasons[0]["Message"] == PROVISIONED_GSI_MSG
    assert level(lean_client, "withgsi") == 98.0


# TransactGetItems: 2 read units per item (4 KB rounding), all or nothing: with the
# provisioned table's read capacity spent, a Get on it is ProvisionedThroughputExceeded and the
# Get on the on-demand table None.
def test_transact_get_throttle(lean_client):
    create(lean_client, "ondemand")
    create(lean_client, "prov", wcu=10, rcu=3)
    tx = {"TransactItems": [{"Get": {"TableName": "ondemand", "Key": key("a")}},
                            {"Get": {"TableName": "prov", "Key": key("b")}}],
          "ReturnConsumedCapacity": "TOTAL"}
    status, reply = lean_client.call("TransactGetItems", tx)
    assert status == 200, reply
    assert reply["ConsumedCapacity"] == [
        {"TableName": "ondemand", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0},
        {"TableName": "prov", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]
    assert level(lean_client, "prov", "read") == 1.0
    assert lean_client.call("TransactGetItems", tx)[0] == 200
    assert level(lean_client, "prov", "read") == -1.0
    reasons = cancelled(*lean_client.call("TransactGetItems", tx), ["None", "ProvisionedThroughputExceeded"])
    assert reasons[1]["Message"] == PROVISIONED_MSG
    assert level(lean_client, "prov", "read") == -1.0
    lean_client.advance(1000)
    assert lean_client.call("TransactGetItems", tx)[0] == 200


# A replayed ClientRequestToken reads the items again and pays read units (not write units):
# with the read capacity spent, the replay is cancelled, and nothing is written again.
def test_replay_consumes_read_capacity(lean_client):
    create(lean_client, "prov", wcu=10, rcu=1)
    tx = {"TransactItems": [{"Update": {"TableName": "prov", "Key": key("c"),
                                        "UpdateExpression": "ADD n :one",
                                        "ExpressionAttributeValues": {":one": {"N": "1"}}}}],
          "ClientRequestToken": "replay-1"}
    assert lean_client.call("TransactWriteItems", tx)[0] == 200
    assert level(lean_client, "prov") == 8.0
    assert lean_client.call("TransactWriteItems", tx)[0] == 200
    assert (level(lean_client, "prov"), level(lean_client, "prov", "read")) == (8.0, -1.0)
    cancelled(*lean_client.call("TransactWriteItems", tx), ["ProvisionedThroughputExceeded"])
    lean_client.advance(2000)
    status, reply = lean_client.call("GetItem", {"TableName": "prov", "Key": key("c")})
    assert reply["Item"]["n"] == {"N": "1"}
