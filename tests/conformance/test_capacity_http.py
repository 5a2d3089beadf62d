"""Capacity over HTTP: the throttling model seen by a client, on a private
sluice with a manual clock (conftest.manual_server). DynamoDB Local ignores
capacity, so every test here is marked `capacity`.

The wire shapes pinned here are facts §1.2-1.4 of ../shared/spec/dynamodb-facts.md:
ThrottlingException (on-demand) carries `throttlingReasons`, the provisioned
exception `ThrottlingReasons`; reasons are `{reason, resource}` with the table
or index ARN.
"""
import random
import uuid

import pytest

from conftest import admin, Client

pytestmark = pytest.mark.capacity

ON_DEMAND_MSG = (
    "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
    "scaling your table or index so please try again shortly. If exceptions persist, check if you "
    "have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "bp-partition-key-design.html")
PROVISIONED_MSG = (
    "The level of configured provisioned throughput for the table was exceeded. Consider "
    "increasing your provisioning level with the UpdateTable API.")


def create(client, name, **kw):
    return client.create_table(name, **kw)["TableArn"]


def item(pk, size=1000):
    """An item of exactly `size` bytes (1 KB = 1 WCU at 1000)."""
    return {"pk": {"S": pk}, "p": {"S": "x" * (size - len(pk) - 3)}}


def put(client, table, pk, size=1000):
    return client.call("PutItem", {"TableName": table, "Item": item(pk, size)})


# A hot key on an on-demand table throttles with ThrottlingException, the lower-case
# reasons key, KeyRangeThroughputExceeded and the table ARN (facts §1.2-1.4, spec §4):
# the partition's burst (850 ms of 1,032.5 WCU/s) is spent, the table is far below 4,000.
def test_hot_key_on_demand_wire_shape(client):
    arn = create(client, "hot")
    statuses = [put(client, "hot", "k")[0] for _ in range(900)]
    assert statuses[:870] == [200] * 870
    status, reply = put(client, "hot", "k")
    assert status == 400
    assert reply["__type"] == "com.amazon.coral.availability#ThrottlingException"
    assert reply["message"] == ON_DEMAND_MSG
    assert reply["throttlingReasons"] == [
        {"reason": "TableWriteKeyRangeThroughputExceeded", "resource": arn}]
    assert "ThrottlingReasons" not in reply
    # Refill repays the debt: a second later the key is writable again.
    client.advance(1000)
    assert put(client, "hot", "k")[0] == 200


# A provisioned table with one second of capacity (lean_client; spec §5) then throttles with
# ProvisionedThroughputExceededException and capital-T ThrottlingReasons.
def test_provisioned_table_wire_shape(lean_client):
    arn = create(lean_client, "prov", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                       "WriteCapacityUnits": 5})
    for i in range(5):
        assert put(lean_client, "prov", f"k{i}")[0] == 200
    status, reply = put(lean_client, "prov", "k5")
    assert status == 400
    assert reply["__type"] == ("com.amazonaws.dynamodb.v20120810#"
                               "ProvisionedThroughputExceededException")
    assert reply["message"] == PROVISIONED_MSG
    assert reply["ThrottlingReasons"] == [
        {"reason": "TableWriteProvisionedThroughputExceeded", "resource": arn}]
    lean_client.advance(1000)
    assert put(lean_client, "prov", "k5")[0] == 200


# A throttled PutItem changes nothing: the old item is intact (spec §3).
def test_throttled_put_leaves_old_item(lean_client):
    create(lean_client, "keep", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 1})
    assert lean_client.call("PutItem", {"TableName": "keep",
                                   "Item": {"pk": {"S": "a"}, "v": {"N": "1"}}})[0] == 200
    status, _ = lean_client.call("PutItem", {"TableName": "keep",
                                        "Item": {"pk": {"S": "a"}, "v": {"N": "2"}}})
    assert status == 400
    status, reply = lean_client.call("GetItem", {"TableName": "keep", "Key": {"pk": {"S": "a"}}})
    assert status == 200
    assert reply["Item"]["v"] == {"N": "1"}


# A configured on-demand maximum throttles first, with MaxOnDemandThroughputExceeded
# (spec §3 check 1), as ThrottlingException.
def test_max_on_demand_throughput(client):
    arn = create(client, "capped", OnDemandThroughput={"MaxReadRequestUnits": 100,
                                                       "MaxWriteRequestUnits": 5})
    for i in range(5):
        assert put(client, "capped", f"k{i}")[0] == 200
    status, reply = put(client, "capped", "k9")
    assert status == 400
    assert reply["__type"].endswith("#ThrottlingException")
    assert reply["throttlingReasons"][0] == {
        "reason": "TableWriteMaxOnDemandThroughputExceeded", "resource": arn}


# The decrease budget (spec §5): four decreases at any time per UTC day, then one per hour;
# the fifth within the hour is LimitExceededException with the observed message and dates;
# a new UTC day restores the budget.
def test_decrease_budget_across_midnight(client):
    create(client, "dec", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                "WriteCapacityUnits": 100})
    for units in (90, 80, 70, 60):
        status, reply = client.call("UpdateTable", {
            "TableName": "dec",
            "ProvisionedThroughput": {"ReadCapacityUnits": units, "WriteCapacityUnits": units}})
        assert status == 200, reply
        assert reply["TableDescription"]["ProvisionedThroughput"]["LastDecreaseDateTime"] > 0
        client.advance(1000)
    status, reply = client.call("UpdateTable", {
        "TableName": "dec",
        "ProvisionedThroughput": {"ReadCapacityUnits": 50, "WriteCapacityUnits": 50}})
    assert status == 400
    assert reply["__type"].endswith("#LimitExceededException")
    msg = reply["message"]
    assert msg.startswith(
        "Subscriber limit exceeded: Provisioned throughput decreases are limited within a given "
        "UTC day. After the first 4 decreases, each subsequent decrease in the same UTC day can be "
        "performed at most once every 3600 seconds. Number of decreases today: 4. Last decrease "
        "at Monday, November 30, 2026 12:00:03 PM UTC. Next decrease can be made at Monday, "
        "November 30, 2026 1:00:03 PM UTC"), msg
    status, reply = client.call("DescribeTable", {"TableName": "dec"})
    assert reply["Table"]["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 4
    # An hour later one more is allowed.
    client.advance(3600 * 1000)
    status, reply = client.call("UpdateTable", {
        "TableName": "dec",
        "ProvisionedThroughput": {"ReadCapacityUnits": 50, "WriteCapacityUnits": 50}})
    assert status == 200, reply
    # After UTC midnight the count starts again.
    admin(client.ep, "POST", "/_sluice/clock", {"set": "2026-12-01T00:00:01Z"})
    status, reply = client.call("DescribeTable", {"TableName": "dec"})
    assert reply["Table"]["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 0
    for units in (40, 30, 20, 10):
        status, reply = client.call("UpdateTable", {
            "TableName": "dec",
            "ProvisionedThroughput": {"ReadCapacityUnits": units, "WriteCapacityUnits": units}})
        assert status == 200, reply


# A table may switch to on-demand at most 4 times in a rolling 24 h (spec §6); switching
# back to provisioned is always allowed.
def test_on_demand_switch_limit(client):
    pt = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
    create(client, "switch", ProvisionedThroughput=pt)
    for _ in range(4):
        status, reply = client.call("UpdateTable", {"TableName": "switch",
                                                    "BillingMode": "PAY_PER_REQUEST"})
        assert status == 200, reply
        client.advance(60 * 1000)
        status, reply = client.call("UpdateTable", {"TableName": "switch", "BillingMode": "PROVISIONED",
                                                    "ProvisionedThroughput": pt})
        assert status == 200, reply
        client.advance(60 * 1000)
    status, reply = client.call("UpdateTable", {"TableName": "switch", "BillingMode": "PAY_PER_REQUEST"})
    assert status == 400
    assert reply["__type"].endswith("#LimitExceededException")
    client.advance(24 * 3600 * 1000)
    status, reply = client.call("UpdateTable", {"TableName": "switch", "BillingMode": "PAY_PER_REQUEST"})
    assert status == 200, reply


# DescribeLimits reports the model's quotas (facts §6).
def test_describe_limits(client):
    status, reply = client.call("DescribeLimits", {})
    assert status == 200
    assert reply == {"AccountMaxReadCapacityUnits": 80000, "AccountMaxWriteCapacityUnits": 80000,
                     "TableMaxReadCapacityUnits": 40000, "TableMaxWriteCapacityUnits": 40000}


# Per-table quota at CreateTable (spec §5): the table plus its GSIs above 40,000.
def test_per_table_quota_at_create(client):
    status, reply = client.call("CreateTable", {
        "TableName": "big",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "ProvisionedThroughput": {"ReadCapacityUnits": 40001, "WriteCapacityUnits": 5}})
    assert status == 400
    assert reply["__type"].endswith("#LimitExceededException")
    assert reply["message"].startswith(
        "The requested ReadCapacityUnits, 40001, is above the per table maximum for the account")


def offer(client, table, rate, seconds, step_ms=10, start=0):
    """Offers `rate` writes/s of ~1 KB items with uniformly random keys for `seconds` of the
    manual clock; returns (accepted per whole second, first throttle time in s or None)."""
    rng = random.Random(42 + start)
    per_step = rate * step_ms // 1000
    accepted = [0] * seconds
    first = None
    for step in range(seconds * 1000 // step_ms):
        for _ in range(per_step):
            status, reply = put(client, table, uuid.UUID(int=rng.getrandbits(128)).hex)
            if status == 200:
                accepted[step * step_ms // 1000] += 1
            elif first is None:
                assert reply["throttlingReasons"][0]["reason"] == \
                    "TableWriteKeyRangeThroughputExceeded"
                first = step * step_ms / 1000
        client.advance(step_ms)
    return accepted, first


# Calibration, end to end (spec §9): a new on-demand table accepts all of 4,000 writes/s,
# and caps 5,000 and 8,000 offered at 4,130/s (±1 %), the first throttle coming sooner at the
# higher rate, within [0.8, 4.0] s. The same numbers are checked for longer on the engine in
# tests/unit/cap/test_cap.c.
def test_calibration_short_windows(client):
    create(client, "cal4k")
    accepted, first = offer(client, "cal4k", 4000, 2)
    assert first is None and accepted == [4000, 4000]
    create(client, "cal5k")
    accepted, first5 = offer(client, "cal5k", 5000, 6, start=1)
    assert 0.8 <= first5 <= 4.0
    assert abs(accepted[5] - 4130) <= 41, accepted
    create(client, "cal8k")
    accepted, first8 = offer(client, "cal8k", 8000, 3, start=2)
    assert 0.8 <= first8 < first5
    assert abs(accepted[2] - 4130) <= 41, accepted


# The admin API shows each resource's partitions and buckets (spec §8): a hot key's partition
# is marked hot and counts its throttles.
@pytest.mark.sluice_only
def test_admin_capacity_shows_hot_partition(client):
    create(client, "seen")
    for _ in range(1000):
        put(client, "seen", "k")
    status, cap = admin(client.ep, "GET", "/_sluice/tables/seen/capacity")
    assert status == 200
    res = cap["resources"][0]
    assert res["kind"] == "table" and res["mode"] == "PAY_PER_REQUEST"
    assert len(res["partitions"]) == 4
    hot = [p for p in res["partitions"] if p["hot"]]
    assert len(hot) == 1 and hot[0]["write"]["throttles"] > 0
    assert res["throttles"]["write"]["KeyRangeThroughputExceeded"] > 0


@pytest.fixture
def configured(tmp_path):
    """Starts a private manual-clock sluice with capacity parameters from a
    --config file (the `name = value` format of `sluice serve --help`)."""
    from conftest import Server
    servers = []

    def start(**params):
        path = tmp_path / "sluice.conf"
        path.write_text("# test parameters\n" + "".join(f"{k} = {v}\n" for k, v in params.items()))
        srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                      "--config", str(path)])
        servers.append(srv)
        return Client(srv.endpoint)

    yield start
    for srv in servers:
        srv.stop()


# --config overrides any parameter by name, and /_sluice/config shows what is in force
# (ratios may be written as percentages).
@pytest.mark.sluice_only
def test_config_file_overrides_parameters(configured):
    client = configured(partition_write_rate=500, key_range_tolerance_ppm="5%")
    status, cfg = admin(client.ep, "GET", "/_sluice/config")
    assert status == 200
    assert cfg["capacity"]["partition_write_rate"] == 500
    assert cfg["capacity"]["key_range_tolerance_ppm"] == 50000
    assert cfg["capacity"]["partition_read_rate"] == 3000


# The control plane has its own request rate (spec §7): above it, ThrottlingException
# "Rate exceeded" from the Coral availability namespace, without reasons.
def test_control_plane_rate(configured):
    client = configured(control_plane_rate=5)
    statuses = [client.call("ListTables", {}) for _ in range(6)]
    assert [s for s, _ in statuses[:5]] == [200] * 5
    status, reply = statuses[5]
    assert status == 400
    assert reply == {"__type": "com.amazon.coral.availability#ThrottlingException",
                     "message": "Rate exceeded"}
    client.advance(1000)
    assert client.call("ListTables", {})[0] == 200


# Table states follow the clock (spec §7): with a creation delay a new table is CREATING,
# invisible to the data plane, and ACTIVE once the delay has passed.
def test_table_creation_delay(configured):
    client = configured(table_create_delay_ms=5000)
    create(client, "slow")
    status, reply = client.call("DescribeTable", {"TableName": "slow"})
    assert reply["Table"]["TableStatus"] == "CREATING"
    status, reply = put(client, "slow", "k")
    assert status == 400 and reply["__type"].endswith("#ResourceNotFoundException")
    client.advance(5000)
    status, reply = client.call("DescribeTable", {"TableName": "slow"})
    assert reply["Table"]["TableStatus"] == "ACTIVE"
    assert put(client, "slow", "k")[0] == 200


def decrease(client, table, units):
    return client.call("UpdateTable", {"TableName": table, "ProvisionedThroughput": {
        "ReadCapacityUnits": units, "WriteCapacityUnits": units}})


# Seed 002's decrease bucket (decrease_bucket = 1; spec §5, docs/capacity.md "Decreases"):
# four tokens at the start of the UTC day, one more per hour up to four available at any time.
# Over HTTP at its edges: the fifth decrease right after four is refused with the service's
# message naming the moment the next token is whole (exactly an hour after the last decrease),
# refused a millisecond before it and accepted at it; then, where the developer guide's rule
# (the default, test_decrease_budget_across_midnight) allows one decrease per idle hour,
# ten idle hours buy four at once (not ten), and the fifth is refused again; a new UTC day
# fills the bucket.
def test_decrease_bucket_edges(configured):
    client = configured(decrease_bucket=1)
    create(client, "bucket", ProvisionedThroughput={"ReadCapacityUnits": 1000,
                                                   "WriteCapacityUnits": 1000})
    units = 1000
    for _ in range(4):  # 12:00:00 .. 12:00:03
        units -= 10
        status, reply = decrease(client, "bucket", units)
        assert status == 200, reply
        client.advance(1000)
    status, reply = decrease(client, "bucket", units - 10)
    assert status == 400
    assert reply["__type"] == "com.amazonaws.dynamodb.v20120810#LimitExceededException"
    assert reply["message"] == (
        "Subscriber limit exceeded: Provisioned throughput decreases are limited within a given "
        "UTC day. After the first 4 decreases, each subsequent decrease in the same UTC day can be "
        "performed at most once every 3600 seconds. Number of decreases today: 4. Last decrease "
        "at Monday, November 30, 2026 12:00:03 PM UTC. Next decrease can be made at Monday, "
        "November 30, 2026 1:00:03 PM UTC")
    # The edge: the token is whole at 13:00:03.000, not a millisecond before.
    admin(client.ep, "POST", "/_sluice/clock", {"set": "2026-11-30T13:00:02.999Z"})
    assert decrease(client, "bucket", units - 10)[0] == 400
    client.advance(1)
    units -= 10
    status, reply = decrease(client, "bucket", units)
    assert status == 200, reply
    # Ten idle hours later: four at once (the bucket holds at most four), then none.
    admin(client.ep, "POST", "/_sluice/clock", {"set": "2026-11-30T23:00:03Z"})
    for _ in range(4):
        units -= 10
        status, reply = decrease(client, "bucket", units)
        assert status == 200, reply
    status, reply = decrease(client, "bucket", units - 10)
    assert status == 400
    assert "Number of decreases today: 9. Last decrease at Monday, November 30, 2026 11:00:03 PM " \
        "UTC. Next decrease can be made at Tuesday, December 1, 2026 12:00:00 AM UTC" in \
        reply["message"], reply["message"]
    status, reply = client.call("DescribeTable", {"TableName": "bucket"})
    assert reply["Table"]["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 9
    # The next UTC day: a full bucket again, four at once.
    admin(client.ep, "POST", "/_sluice/clock", {"set": "2026-12-01T00:00:00Z"})
    for _ in range(4):
        units -= 10
        status, reply = decrease(client, "bucket", units)
        assert status == 200, reply
    assert decrease(client, "bucket", units - 10)[0] == 400


# With the `unlimited` profile nothing throttles, like other emulators.
def test_unlimited_profile(configured):
    client = configured(unlimited=1)
    create(client, "free", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    assert all(put(client, "free", "k")[0] == 200 for _ in range(2000))


# POST /_sluice/reset with a prefix drops only the tables whose name starts with it, so
# parallel test workers sharing one server do not wipe each other's tables; without a body
# it drops every table; anything but {} or {"prefix": string} is a 400.
@pytest.mark.sluice_only
def test_reset_by_prefix(client):
    for name in ("w1_a", "w1_b", "w2_a"):
        client.create_table(name)
    status, _ = admin(client.ep, "POST", "/_sluice/reset", {"prefix": "w1_"})
    assert status == 200
    status, names = client.call("ListTables", {})
    assert names["TableNames"] == ["w2_a"]
    assert admin(client.ep, "POST", "/_sluice/reset", {"prefix": 3})[0] == 400
    assert admin(client.ep, "POST", "/_sluice/reset")[0] == 200
    assert client.call("ListTables", {})[1]["TableNames"] == []
