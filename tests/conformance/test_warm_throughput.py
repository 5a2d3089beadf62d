"""Warm throughput over HTTP (capacity-model.md §6, facts §4): an UpdateTable that raises it
leaves the table's (or the GSI's) WarmThroughput UPDATING for `warm_delay_ms` (60 s here, by
--config), then ACTIVE; a decrease below what DescribeTable reports — a value asked for
before, a new on-demand table's 12,000 / 4,000, the most ever provisioned — is refused with the
service's ValidationException (texts from the ack-api-quirks live catalogue, DDB-TABLE-061/-179,
the message catalogue) and changes nothing; a warm table serves at once what a new one
throttles. DynamoDB Local has no warm throughput: marked `capacity`.
"""
import uuid

import pytest

from conftest import Client, Server, admin

pytestmark = pytest.mark.capacity


@pytest.fixture
def warm(tmp_path):
    cfg = tmp_path / "warm.conf"
    cfg.write_text("warm_delay_ms = 60000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(cfg)])
    yield Client(srv.endpoint)
    srv.stop()


def describe(c, name):
    status, reply = c.call("DescribeTable", {"TableName": name})
    assert status == 200, reply
    return reply["Table"]


def test_warm_throughput_updating_then_active(warm):
    c = warm
    name = "t_" + uuid.uuid4().hex[:12]
    c.create_table(name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "gk", "AttributeType": "S"}],
                   GlobalSecondaryIndexes=[{
                       "IndexName": "byg", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
                       "Projection": {"ProjectionType": "ALL"}}])
    assert describe(c, name)["WarmThroughput"] == {
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"}
    status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000}})
    assert status == 200, reply
    # Until it is ACTIVE the values in effect before are reported, UPDATING (DDB-TABLE-179:
    # "DescribeTable kept the OLD values with Status=UPDATING until completion", the reply
    # too); the table itself stays ACTIVE ("TableStatus never left ACTIVE") and takes other
    # changes meanwhile (DDB-TABLE-459).
    assert reply["TableDescription"]["TableStatus"] == "ACTIVE"
    assert reply["TableDescription"]["WarmThroughput"] == {
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "UPDATING"}
    t = describe(c, name)
    assert t["WarmThroughput"] == {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000,
                                   "Status": "UPDATING"}
    assert t["TableStatus"] == "ACTIVE"
    status, reply = c.call("UpdateTable", {"TableName": name, "DeletionProtectionEnabled": False})
    assert status == 200, reply
    # The old values asked again are no decrease of what is in effect (DDB-TABLE-066), and
    # change nothing of the running increase, which keeps its end (DDB-TABLE-459: "no write
    # resets its Status"; last writer wins).
    c.advance(10_000)
    status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000}})
    assert status == 200, reply
    status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000}})
    assert status == 200, reply
    c.advance(49_999)
    assert describe(c, name)["WarmThroughput"] == {
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "UPDATING"}
    c.advance(1)
    assert describe(c, name)["WarmThroughput"] == {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000, "Status": "ACTIVE"}
    # A decrease, of either value, is refused and changes nothing; read is checked first.
    for r, w, unit in ((30000, 9999, "Write"), (29999, 10000, "Read"), (1, 1, "Read")):
        status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
            "ReadUnitsPerSecond": r, "WriteUnitsPerSecond": w}})
        assert status == 400
        assert reply["__type"] == "com.amazon.coral.validate#ValidationException"
        assert reply["message"] == (
            f"One or more parameter values were invalid: Requested {unit}UnitsPerSecond for "
            "WarmThroughput for table is lower than current WarmThroughput, decreasing "
            "WarmThroughput is not supported")
    # The same values again are no decrease (DDB-TABLE-066: equal accepted).
    assert c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000}})[0] == 200
    c.advance(60_000)
    assert describe(c, name)["WarmThroughput"] == {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000, "Status": "ACTIVE"}
    # The GSI's own warm throughput: UPDATING, then ACTIVE, independently of the table's.
    status, reply = c.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [{
        "Update": {"IndexName": "byg", "WarmThroughput": {"WriteUnitsPerSecond": 6000}}}]})
    assert status == 200, reply
    t = describe(c, name)
    assert t["GlobalSecondaryIndexes"][0]["WarmThroughput"]["Status"] == "UPDATING"
    assert t["GlobalSecondaryIndexes"][0]["WarmThroughput"]["WriteUnitsPerSecond"] == 4000
    assert t["WarmThroughput"]["Status"] == "ACTIVE"
    c.advance(60_000)
    x = describe(c, name)["GlobalSecondaryIndexes"][0]["WarmThroughput"]
    assert x["Status"] == "ACTIVE" and x["WriteUnitsPerSecond"] == 6000


# Once ACTIVE, the table serves the warmed rate: 6,000 writes at one instant throttle a new
# table (2 x 2,000 previous peak, about a second of burst) but not one warmed to 10,000 writes
# a second.
def test_warm_table_serves_its_rate(warm):
    c = warm

    def burst(name):
        throttled = 0
        for i in range(6000):
            status, _ = c.call("PutItem", {"TableName": name, "Item": {"pk": {"S": f"k{i}"}}})
            throttled += status != 200
        return throttled

    cold = "t_" + uuid.uuid4().hex[:12]
    hot = "t_" + uuid.uuid4().hex[:12]
    c.create_table(cold)
    c.create_table(hot)
    assert c.call("UpdateTable", {"TableName": hot, "WarmThroughput": {
        "WriteUnitsPerSecond": 10000}})[0] == 200
    c.advance(60_000)
    # At ACTIVE the buckets take the warm shape and fill at its rate: a second later, full.
    c.advance(1_000)
    assert burst(cold) > 0
    assert burst(hot) == 0


# The reference is what DescribeTable reports, not only a value asked for before: a new
# on-demand table reports 12,000 / 4,000 without any request, so 6,000 / 2,000 is a decrease
# (DDB-TABLE-179's probe: "{6000, 2000} -> ValidationException ... lower than current"), and so
# is a read value between the last one asked for and what the table reports after it grew; a
# GSI's message names it. Nothing changes.
def test_warm_decrease_from_reported_value(warm):
    c = warm
    name = "t_" + uuid.uuid4().hex[:12]
    c.create_table(name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "gk", "AttributeType": "S"}],
                   GlobalSecondaryIndexes=[{
                       "IndexName": "byg", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
                       "Projection": {"ProjectionType": "ALL"}}])

    def refused(body):
        status, reply = c.call("UpdateTable", {"TableName": name, **body})
        assert status == 400, reply
        assert reply["__type"] == "com.amazon.coral.validate#ValidationException"
        return reply["message"]

    lower = ("One or more parameter values were invalid: Requested {} for WarmThroughput for {} "
             "is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
    assert refused({"WarmThroughput": {"ReadUnitsPerSecond": 6000, "WriteUnitsPerSecond": 2000}}
                   ) == lower.format("ReadUnitsPerSecond", "table")
    assert refused({"WarmThroughput": {"WriteUnitsPerSecond": 3999}}) == lower.format(
        "WriteUnitsPerSecond", "table")
    assert refused({"GlobalSecondaryIndexUpdates": [{"Update": {
        "IndexName": "byg", "WarmThroughput": {"ReadUnitsPerSecond": 11999}}}]}) == lower.format(
        "ReadUnitsPerSecond", "index byg")
    t = describe(c, name)
    assert t["WarmThroughput"] == {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000,
                                   "Status": "ACTIVE"}
    assert t["TableStatus"] == "ACTIVE"
    # Equal to what it reports: accepted.
    status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000}})
    assert status == 200, reply
    c.advance(60_000)
    # Grown by use: a split (force_split, the fault-injection action on the model, stands
    # for a split for heat) gives it a fifth partition, and what it reports rises with its
    # partitions; a value between the 12,000 asked for and what it reports now is a
    # decrease.
    status, _ = admin(c.ep, "POST", "/_sluice/faults", {"action": "force_split",
                                                        "table": name})
    assert status == 200
    reported = describe(c, name)["WarmThroughput"]
    assert reported["ReadUnitsPerSecond"] == 15000 and reported["WriteUnitsPerSecond"] == 5000
    assert refused({"WarmThroughput": {"ReadUnitsPerSecond": 14000}}) == lower.format(
        "ReadUnitsPerSecond", "table")
    status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 15000}})
    assert status == 200, reply


# At CreateTable the reference is the initial throughput: on demand 12,000 / 4,000 (the
# service's "lower than initial throughput for OnDemand" with its link), provisioned the
# units asked for ("lower than ReadCapacityUnits of ProvisionedThroughput").
def test_warm_below_initial_at_create(warm):
    c = warm
    keys = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
    status, reply = c.call("CreateTable", {
        "TableName": "t_" + uuid.uuid4().hex[:12], "BillingMode": "PAY_PER_REQUEST",
        "WarmThroughput": {"ReadUnitsPerSecond": 11999, "WriteUnitsPerSecond": 4000}, **keys})
    assert status == 400
    assert reply["__type"] == "com.amazon.coral.validate#ValidationException"
    assert reply["message"] == (
        "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
        "WarmThroughput for table is lower than initial throughput for OnDemand. See: "
        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
        "on-demand-capacity-mode.html#on-demand-capacity-mode-initial")
    status, reply = c.call("CreateTable", {
        "TableName": "t_" + uuid.uuid4().hex[:12],
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        "WarmThroughput": {"ReadUnitsPerSecond": 5000, "WriteUnitsPerSecond": 4}, **keys})
    assert status == 400
    assert reply["message"] == (
        "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
        "WarmThroughput for table is lower than WriteCapacityUnits of ProvisionedThroughput")
    # Terraform's report (hashicorp/terraform-provider-aws#49894): 5,000 / 2,000 on a 5/5
    # provisioned table is accepted.
    status, reply = c.call("CreateTable", {
        "TableName": "t_" + uuid.uuid4().hex[:12],
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        "WarmThroughput": {"ReadUnitsPerSecond": 5000, "WriteUnitsPerSecond": 2000}, **keys})
    assert status == 200, reply
