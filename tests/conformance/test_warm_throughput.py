"""Warm throughput over HTTP (capacity-model.md §6, facts §4): an UpdateTable that raises it
leaves the table's (or the GSI's) WarmThroughput UPDATING for `warm_delay_ms` (60 s here, by
--config), then ACTIVE; a decrease is refused with a ValidationException that names the current
values, and changes nothing; a warm table serves at once what a new one throttles. DynamoDB
Local has no warm throughput: marked `capacity`.
"""
import uuid

import pytest

from conftest import Client, Server

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
    t = describe(c, name)
    assert t["WarmThroughput"] == {"ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000,
                                   "Status": "UPDATING"}
    c.advance(59_999)
    assert describe(c, name)["WarmThroughput"]["Status"] == "UPDATING"
    c.advance(1)
    assert describe(c, name)["WarmThroughput"] == {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000, "Status": "ACTIVE"}
    # A decrease, of either value, is refused and changes nothing.
    for r, w in ((30000, 9999), (29999, 10000)):
        status, reply = c.call("UpdateTable", {"TableName": name, "WarmThroughput": {
            "ReadUnitsPerSecond": r, "WriteUnitsPerSecond": w}})
        assert status == 400
        assert reply["__type"] == "com.amazon.coral.validate#ValidationException"
        assert reply["message"] == (
            "One or more parameter values were invalid: WarmThroughput cannot be decreased. "
            "Current ReadUnitsPerSecond: 30000, WriteUnitsPerSecond: 10000")
    assert describe(c, name)["WarmThroughput"] == {
        "ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 10000, "Status": "ACTIVE"}
    # The GSI's own warm throughput: UPDATING, then ACTIVE, independently of the table's.
    status, reply = c.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [{
        "Update": {"IndexName": "byg", "WarmThroughput": {"WriteUnitsPerSecond": 6000}}}]})
    assert status == 200, reply
    t = describe(c, name)
    assert t["GlobalSecondaryIndexes"][0]["WarmThroughput"]["Status"] == "UPDATING"
    assert t["GlobalSecondaryIndexes"][0]["WarmThroughput"]["WriteUnitsPerSecond"] == 6000
    assert t["WarmThroughput"]["Status"] == "ACTIVE"
    c.advance(60_000)
    assert describe(c, name)["GlobalSecondaryIndexes"][0]["WarmThroughput"]["Status"] == "ACTIVE"


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
