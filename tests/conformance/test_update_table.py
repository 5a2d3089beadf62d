"""UpdateTable: serialization, validation, behaviour (billing mode and provisioned throughput).

On AWS a billing-mode switch keeps the table UPDATING for one to three minutes, hence the
long wait_active timeouts; against sluice and DynamoDB Local the wait returns at once.
Provisioned tests stay within one or two changes per table (AWS allows 4 decreases a day).
"""
import time
import uuid

import pytest

from conftest import wait_active

SWITCH_TIMEOUT = 600


def pt(r, w):
    return {"ReadCapacityUnits": r, "WriteCapacityUnits": w}


# --- serialization -------------------------------------------------------------------------

# ddblocal_differs: DynamoDB Local does no type checking (HTTP 500 here).
# Source: dynalite test/helpers.js assertType, Long case (live texts).
@pytest.mark.ddblocal_differs
def test_capacity_of_wrong_json_type_is_serialization_exception(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": {
        "ReadCapacityUnits": "2", "WriteCapacityUnits": 1}})
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "STRING_VALUE cannot be converted to Long"


# --- validation ----------------------------------------------------------------------------

# A request that changes nothing is rejected.
def test_nothing_to_update_is_validation_exception(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table()})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Nothing to update".
# Source: ACKQ DDB-TABLE-442, live us-east-1 text for a TableName-only request.
@pytest.mark.ddblocal_differs
def test_nothing_to_update_message(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table()})
    assert r.message == (
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, "
        "ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
        "OnDemandThroughput, WarmThroughput or TableClass is required")


# Re-sending the current throughput is an error, not a no-op.
def test_same_throughput_is_validation_exception(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(1, 1)})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "The requested throughput value equals the current value".
# Source: ACKQ DDB-TABLE-057/-442 (live); dynalite validations (facts §1.4).
@pytest.mark.ddblocal_differs
def test_same_throughput_message(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(1, 1)})
    assert r.message == (
        "The provisioned throughput for the table will not change. The requested value equals "
        "the current value. Current ReadCapacityUnits provisioned for the table: 1. Requested "
        "ReadCapacityUnits: 1. Current WriteCapacityUnits provisioned for the table: 1. Requested "
        "WriteCapacityUnits: 1. Refer to the Amazon DynamoDB Developer Guide for current limits "
        "and how to request higher limits.")


# Switching to PROVISIONED needs the new capacities in the same call.
def test_provisioned_without_throughput_is_validation_exception(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "BillingMode": "PROVISIONED"})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "No provisioned throughput specified for the table".
# Source: ACKQ DDB-TABLE-057 (live).
@pytest.mark.ddblocal_differs
def test_provisioned_without_throughput_message(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "BillingMode": "PROVISIONED"})
    assert r.message == ("One or more parameter values were invalid: ProvisionedThroughput must be "
                         "specified when BillingMode is PROVISIONED")


# Capacities below 1 fail the model constraint.
def test_zero_capacity_is_validation_exception(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(0, 1)})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Table read and write throughput must be at least 1,
# and cannot be null". Source: ACKQ DDB-TABLE-058 (live, model-constraint form).
@pytest.mark.ddblocal_differs
def test_zero_capacity_message(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(0, 1)})
    assert r.message == ("1 validation error detected: Value '0' at "
                         "'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
                         "Member must have value greater than or equal to 1")


# An on-demand table takes no provisioned throughput.
# ddblocal_differs: DynamoDB Local accepts the request and ignores the throughput.
# Source: ACKQ DDB-TABLE-059/-442 (live text).
@pytest.mark.ddblocal_differs
def test_throughput_on_on_demand_table_is_rejected(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "ProvisionedThroughput": pt(1, 1)})
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values were invalid: Neither ReadCapacityUnits "
                         "nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")


# An unknown BillingMode fails the enum constraint.
# ddblocal_differs: DynamoDB Local answers HTTP 500 InternalFailure.
# Source: facts §1.4 model-constraint form (set order is not fixed, members are checked).
@pytest.mark.ddblocal_differs
def test_invalid_billing_mode_is_enum_violation(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "BillingMode": "BOGUS"})
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message.startswith("1 validation error detected: Value 'BOGUS' at 'billingMode' "
                                "failed to satisfy constraint: Member must satisfy enum value set: [")


# Updating an unknown table is ResourceNotFoundException.
def test_unknown_table_is_resource_not_found(raw):
    r = raw.call("UpdateTable", {"TableName": "t_" + uuid.uuid4().hex, "BillingMode": "PAY_PER_REQUEST"})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: dynalite db/index.js getTable (control-plane form naming the table).
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    name = "t_" + uuid.uuid4().hex
    r = raw.call("UpdateTable", {"TableName": name, "BillingMode": "PAY_PER_REQUEST"})
    assert r.message == f"Requested resource not found: Table: {name} not found"


# --- behaviour -----------------------------------------------------------------------------

# On-demand -> provisioned: the table reports the mode and the capacities given, and keeps
# its items.
def test_switch_to_provisioned(raw, ddb, make_table):
    name = make_table()
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    r = raw.call("UpdateTable", {"TableName": name, "BillingMode": "PROVISIONED",
                                 "ProvisionedThroughput": pt(2, 3)})
    assert r.status == 200, r
    t = wait_active(ddb, name, timeout=SWITCH_TIMEOUT)
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert t["BillingModeSummary"]["BillingMode"] == "PROVISIONED"
    assert (t["ProvisionedThroughput"]["ReadCapacityUnits"],
            t["ProvisionedThroughput"]["WriteCapacityUnits"]) == (2, 3)
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "a"}}, ConsistentRead=True)["Item"]


# Provisioned -> on-demand: capacities read 0/0 and the summary records when the switch happened.
def test_switch_to_on_demand(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    before = time.time()
    r = raw.call("UpdateTable", {"TableName": name, "BillingMode": "PAY_PER_REQUEST"})
    assert r.status == 200, r
    wait_active(ddb, name, timeout=SWITCH_TIMEOUT)
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert t["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert t["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"] > before - 300
    assert (t["ProvisionedThroughput"]["ReadCapacityUnits"],
            t["ProvisionedThroughput"]["WriteCapacityUnits"]) == (0, 0)


# Re-sending PAY_PER_REQUEST to an on-demand table is accepted and changes nothing
# (ACKQ DDB-TABLE-156), unlike re-sending the same provisioned throughput.
def test_same_on_demand_mode_is_accepted(raw, ddb, make_table):
    name = make_table()
    r = raw.call("UpdateTable", {"TableName": name, "BillingMode": "PAY_PER_REQUEST"})
    assert r.status == 200, r
    wait_active(ddb, name, timeout=SWITCH_TIMEOUT)
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert t["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


# Raising provisioned throughput is reflected in DescribeTable once the table is ACTIVE.
def test_increase_throughput(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(5, 4)})
    assert r.status == 200, r
    assert r.json["TableDescription"]["TableName"] == name
    wait_active(ddb, name)
    p = raw.call("DescribeTable", {"TableName": name}).json["Table"]["ProvisionedThroughput"]
    assert (p["ReadCapacityUnits"], p["WriteCapacityUnits"]) == (5, 4)


# The reply describes the table before the change takes effect: UPDATING, with the units it
# had; the new ones show once it is ACTIVE.
# ddblocal_differs: DynamoDB Local answers ACTIVE with the new units.
# Source: botocore's UpdateTable example and aws-cli's update-table example (10/10 requested
# on a 1/1 table: the reply says UPDATING with ReadCapacityUnits 1, WriteCapacityUnits 1).
@pytest.mark.ddblocal_differs
def test_reply_shows_units_before_the_change(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(10, 10)})
    assert r.status == 200, r
    d = r.json["TableDescription"]
    assert d["TableStatus"] == "UPDATING"
    p = d["ProvisionedThroughput"]
    assert (p["ReadCapacityUnits"], p["WriteCapacityUnits"]) == (1, 1)
    wait_active(ddb, name)
    p = raw.call("DescribeTable", {"TableName": name}).json["Table"]["ProvisionedThroughput"]
    assert (p["ReadCapacityUnits"], p["WriteCapacityUnits"]) == (10, 10)


# An increase stamps LastIncreaseDateTime; the response says UPDATING while it applies.
# ddblocal_differs: DynamoDB Local answers ACTIVE and leaves LastIncreaseDateTime at 0.
# Source: ACKQ DDB-TABLE-058/-060 (live: response TableStatus=UPDATING, LastIncreaseDateTime=now).
@pytest.mark.ddblocal_differs
def test_increase_stamps_last_increase(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    before = time.time()
    r = raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(2, 1)})
    assert r.json["TableDescription"]["TableStatus"] == "UPDATING"
    wait_active(ddb, name)
    p = raw.call("DescribeTable", {"TableName": name}).json["Table"]["ProvisionedThroughput"]
    assert before - 300 < p["LastIncreaseDateTime"] < time.time() + 300
    assert p["NumberOfDecreasesToday"] == 0
    assert "LastDecreaseDateTime" not in p


# A decrease stamps LastDecreaseDateTime and counts in NumberOfDecreasesToday (a call that
# raises one dimension and lowers the other counts as a decrease, ACKQ DDB-TABLE-058).
# ddblocal_differs: DynamoDB Local keeps the counter at 0 and the timestamps at 0.
# Source: ACKQ DDB-TABLE-058 (live Describe after 3/3 -> 1/1: NumberOfDecreasesToday 1).
@pytest.mark.ddblocal_differs
def test_decrease_counts_and_stamps(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(3, 3))
    before = time.time()
    assert raw.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(1, 1)}).status == 200
    wait_active(ddb, name)
    p = raw.call("DescribeTable", {"TableName": name}).json["Table"]["ProvisionedThroughput"]
    assert (p["ReadCapacityUnits"], p["WriteCapacityUnits"], p["NumberOfDecreasesToday"]) == (1, 1, 1)
    assert before - 300 < p["LastDecreaseDateTime"] < time.time() + 300


# UpdateTable accepts the table's ARN.
def test_update_by_arn(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    arn = raw.call("DescribeTable", {"TableName": name}).json["Table"]["TableArn"]
    r = raw.call("UpdateTable", {"TableName": arn, "ProvisionedThroughput": pt(2, 2)})
    assert r.status == 200, r
    assert r.json["TableDescription"]["TableName"] == name
    wait_active(ddb, name)


# OnDemandThroughput and WarmThroughput above the per-table quota (40,000 by default) are
# refused with LimitExceededException, read checked before write; a maximum below 1 (other
# than -1) and a warm decrease are ValidationExceptions. The rules and texts live in
# src/cap/control.c, shared with `sluice simulate` (tests/unit/cap/test_control.c).
# ddblocal_differs: DynamoDB Local does not check these quotas.
# Source: the texts sluice's UpdateTable has given since issue 9 (ops/throughput.c), now
# from cap/control.c unchanged.
@pytest.mark.ddblocal_differs
def test_on_demand_and_warm_throughput_quotas(ddb, raw, make_table):
    name = make_table()

    def refused(**kw):  # raw requests: Debian's botocore predates both members
        r = raw.call("UpdateTable", {"TableName": name, **kw})
        assert r.status == 400
        return r.error_type, r.message

    assert refused(OnDemandThroughput={"MaxReadRequestUnits": 40001,
                                       "MaxWriteRequestUnits": 0}) == (
        "LimitExceededException",
        "Subscriber limit exceeded: Requested MaxReadRequestUnits for OnDemandThroughput for "
        "table exceeds TableMaxReadCapacityUnits of the account in region us-east-1")
    assert refused(OnDemandThroughput={"MaxReadRequestUnits": 0}) == (
        "ValidationException",
        "One or more parameter values were invalid: MaxReadRequestUnits and "
        "MaxWriteRequestUnits must be at least 1, or -1 to remove the maximum")
    assert refused(WarmThroughput={"WriteUnitsPerSecond": 40001}) == (
        "LimitExceededException",
        f"Subscriber limit exceeded: Requested WriteUnitsPerSecond for WarmThroughput for table "
        f"{name} exceeds TableMaxWriteCapacityUnits of the account in region us-east-1")
    r = raw.call("UpdateTable", {"TableName": name, "WarmThroughput": {
        "ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000}})
    assert r.status == 200
    wait_active(ddb, name)
    assert refused(WarmThroughput={"ReadUnitsPerSecond": 13000,
                                   "WriteUnitsPerSecond": 4999}) == (
        "ValidationException",
        "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
        "WarmThroughput for table is lower than current WarmThroughput, decreasing "
        "WarmThroughput is not supported")


# --- streams -------------------------------------------------------------------------------

INVALID = "One or more parameter values were invalid: "
KEYS = {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
# (case, the table's state, the UpdateTable members, the service's message; "{name}" is the
# table's name). The texts are the live service's as the ack-api-quirks catalogue recorded them
# (DDB-TABLE-442 message catalogue; DDB-TABLE-050 captures, DDB-TABLE-047/-437/-433).
STREAM_CASES = [
    ("disable_without_stream", "plain", {"StreamSpecification": {"StreamEnabled": False}},
     "Table has no stream to disable: TableName: {name}"),
    ("disable_after_disable", "disabled", {"StreamSpecification": {"StreamEnabled": False}},
     "Table has no stream to disable: TableName: {name}"),
    ("disable_with_view_type", "stream",
     {"StreamSpecification": {"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"}},
     INVALID + "If stream is being disabled, then UpdateViewType must not be specified"),
    ("enable_without_view_type", "plain", {"StreamSpecification": {"StreamEnabled": True}},
     INVALID + "If stream is being enabled then UpdateViewType is required"),
    ("enable_when_enabled", "stream", {"StreamSpecification": KEYS},
     "Table already has an enabled stream: TableName: {name}"),
    ("change_view_type", "stream",
     {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}},
     "Table already has an enabled stream: TableName: {name}"),
    ("with_throughput", "provisioned",
     {"StreamSpecification": KEYS, "ProvisionedThroughput": pt(2, 2)},
     INVALID + "You cannot modify stream status while updating table IOPS"),
]


def stream_case_table(raw, ddb, make_table, state):
    if state == "provisioned":
        return make_table(ProvisionedThroughput=pt(1, 1))
    if state == "plain":
        return make_table()
    name = make_table(StreamSpecification=KEYS)
    if state == "disabled":
        r = raw.call("UpdateTable", {"TableName": name,
                                     "StreamSpecification": {"StreamEnabled": False}})
        assert r.status == 200, r
        wait_active(ddb, name)
    return name


# Each refused StreamSpecification change is a ValidationException and changes nothing.
@pytest.mark.parametrize("case,state,members,message", STREAM_CASES,
                         ids=[c[0] for c in STREAM_CASES])
def test_stream_update_is_validation_exception(raw, ddb, make_table, case, state, members, message):
    name = stream_case_table(raw, ddb, make_table, state)
    before = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    r = raw.call("UpdateTable", dict(TableName=name, **members))
    assert (r.status, r.error_type) == (400, "ValidationException"), r
    after = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert after.get("StreamSpecification") == before.get("StreamSpecification")
    assert after.get("LatestStreamArn") == before.get("LatestStreamArn")


# The service's texts for them.
# ddblocal_differs: DynamoDB Local words them its own way ("Table has no stream to disable",
# "Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present.",
# "Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams.",
# "Table already has an enabled stream", "Cannot change IOPS and Streams at the same time.",
# checked against DynamoDB Local 3.3.0).
# Source: ack-api-quirks DDB-TABLE-442 (message catalogue, live us-east-1/us-west-2,
# 2026-10-09) and DDB-TABLE-050 (the same texts captured in full).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("case,state,members,message", STREAM_CASES,
                         ids=[c[0] for c in STREAM_CASES])
def test_stream_update_message(raw, ddb, make_table, case, state, members, message):
    name = stream_case_table(raw, ddb, make_table, state)
    r = raw.call("UpdateTable", dict(TableName=name, **members))
    assert r.message == message.format(name=name), r


# --- while UPDATING (sluice's configured delay, manual clock) -------------------------------

T0 = 1796040000  # 2026-11-30T12:00:00Z, the manual clock's start
DELAY_MS = 5000


@pytest.fixture
def slow_client(tmp_path):
    """A private manual-clock sluice whose table updates take 5 s (table_update_delay_ms), and
    whose new provisioned tables start with one second of capacity (initial_burst_ms)."""
    import os
    from conftest import Client, Server, _is_sluice_cached
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    conf = tmp_path / "slow.conf"
    conf.write_text(f"table_update_delay_ms = {DELAY_MS}\ninitial_burst_ms = 1000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(conf)])
    yield Client(srv.endpoint)
    srv.stop()


def describe(client, name):
    status, reply = client.call("DescribeTable", {"TableName": name})
    assert status == 200, reply
    return reply["Table"]


def units(p):
    return p["ReadCapacityUnits"], p["WriteCapacityUnits"]


def drain(client, name, index=None):
    from conftest import admin
    rule = {"action": "drain_burst", "table": name}
    if index:
        rule["index"] = index
    assert admin(client.ep, "POST", "/_sluice/faults", rule)[0] == 200


def writes_accepted(client, name, prefix, n, gsi_key=False):
    """PutItems n small items at one clock instant; how many are accepted."""
    ok = 0
    for i in range(n):
        item = {"pk": {"S": f"{prefix}{i}"}}
        if gsi_key:
            item["g"] = {"S": f"{prefix}{i}"}
        status, reply = client.call("PutItem", {"TableName": name, "Item": item})
        if status == 200:
            ok += 1
        else:
            assert reply["__type"].endswith("ProvisionedThroughputExceededException"), reply
    return ok


# While a provisioned-throughput change is UPDATING, DescribeTable shows the OLD units; they
# change when the table is ACTIVE again, and LastIncreaseDateTime / LastDecreaseDateTime are
# stamped at the request (the reply shows them) and again when the change applies, while
# NumberOfDecreasesToday counts the decrease only then.
# Source: API reference, UpdateTable (2011-12-05): "While the table is in the UPDATING state, the
# table still has the provisioned throughput from before the call. The new provisioned
# throughput setting is in effect only when the table returns to the ACTIVE state"; ACKQ
# DDB-TABLE-060 (reply: old units, LastIncreaseDateTime now), DDB-TABLE-063 (DescribeTable
# timeline [('UPDATING', 1), ('ACTIVE', 2)]); dynalite test/updateTable.js "should triple rates
# and then reduce if requested", run against the live service (dates later after ACTIVE,
# NumberOfDecreasesToday + 1 only after ACTIVE). Sluice-only: the delay is configured.
@pytest.mark.sluice_only
def test_describe_while_updating_shows_the_old_units(slow_client):
    c = slow_client
    name = "t_" + uuid.uuid4().hex[:12]
    c.create_table(name, ProvisionedThroughput=pt(5, 5))
    status, reply = c.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(10, 8)})
    assert status == 200, reply
    p = reply["TableDescription"]["ProvisionedThroughput"]
    assert reply["TableDescription"]["TableStatus"] == "UPDATING"
    assert (units(p), p["LastIncreaseDateTime"], p["NumberOfDecreasesToday"]) == ((5, 5), T0, 0)
    c.advance(DELAY_MS - 1)
    d = describe(c, name)
    assert d["TableStatus"] == "UPDATING"
    assert units(d["ProvisionedThroughput"]) == (5, 5)
    c.advance(1)
    d = describe(c, name)
    p = d["ProvisionedThroughput"]
    assert d["TableStatus"] == "ACTIVE"
    assert (units(p), p["LastIncreaseDateTime"]) == ((10, 8), T0 + 5)
    assert "LastDecreaseDateTime" not in p
    # A decrease: counted when it applies.
    c.advance(5000)
    status, reply = c.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(4, 4)})
    assert status == 200, reply
    p = reply["TableDescription"]["ProvisionedThroughput"]
    assert (units(p), p["LastDecreaseDateTime"], p["NumberOfDecreasesToday"]) == ((10, 8), T0 + 10, 0)
    p = describe(c, name)["ProvisionedThroughput"]
    assert (units(p), p["NumberOfDecreasesToday"]) == ((10, 8), 0)
    c.advance(DELAY_MS)
    d = describe(c, name)
    p = d["ProvisionedThroughput"]
    assert d["TableStatus"] == "ACTIVE"
    assert (units(p), p["LastDecreaseDateTime"], p["NumberOfDecreasesToday"]) == ((4, 4), T0 + 15, 1)
    assert p["LastIncreaseDateTime"] == T0 + 5


# The capacity engine keeps the old units while the change is UPDATING: a table raised from 5
# to 100 WCU still serves 5 writes a second until it is ACTIVE, then 100 (same source as above:
# "still has the provisioned throughput from before the call").
@pytest.mark.capacity
def test_engine_throttles_at_the_old_units_while_updating(slow_client):
    c = slow_client
    name = "t_" + uuid.uuid4().hex[:12]
    c.create_table(name, ProvisionedThroughput=pt(5, 5))
    status, reply = c.call("UpdateTable", {"TableName": name, "ProvisionedThroughput": pt(5, 100)})
    assert status == 200, reply
    drain(c, name)
    c.advance(1000)  # one second of capacity, still UPDATING
    assert describe(c, name)["TableStatus"] == "UPDATING"
    assert writes_accepted(c, name, "before", 20) == 5
    c.advance(DELAY_MS - 1000)
    assert describe(c, name)["TableStatus"] == "ACTIVE"
    drain(c, name)
    c.advance(1000)
    assert writes_accepted(c, name, "after", 20) == 20


# A GSI's ProvisionedThroughput Update: the table stays ACTIVE, the index is UPDATING with its
# old units (in DescribeTable and in the capacity engine, whose IndexWrite throttles hold the
# table's writes back) until it is ACTIVE again.
# Source: ACKQ DDB-TABLE-165 (live: "[Update gsi1 1/1 -> 2/2] returned TableStatus=ACTIVE and
# both indexes with IndexStatus=UPDATING but ProvisionedThroughput still 1/1 ... DescribeTable
# 2-4 s later shows 2/2 with LastIncreaseDateTime"); DDB-TABLE-148 (a GSI throughput Update
# makes only IndexStatus=UPDATING, ~2 s). Sluice-only: the delay is configured.
@pytest.mark.sluice_only
@pytest.mark.capacity
def test_gsi_update_keeps_the_old_units_while_updating(slow_client):
    c = slow_client
    name = "t_" + uuid.uuid4().hex[:12]
    c.create_table(name, ProvisionedThroughput=pt(100, 100),
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "g", "AttributeType": "S"}],
                   GlobalSecondaryIndexes=[{
                       "IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                       "Projection": {"ProjectionType": "KEYS_ONLY"},
                       "ProvisionedThroughput": pt(5, 5)}])
    status, reply = c.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(5, 100)}}]})
    assert status == 200, reply
    d = reply["TableDescription"]
    g = d["GlobalSecondaryIndexes"][0]
    assert (d["TableStatus"], g["IndexStatus"]) == ("ACTIVE", "UPDATING")
    assert (units(g["ProvisionedThroughput"]), g["ProvisionedThroughput"]["LastIncreaseDateTime"]) \
        == ((5, 5), T0)
    drain(c, name, "gsi1")
    c.advance(1000)
    g = describe(c, name)["GlobalSecondaryIndexes"][0]
    assert (g["IndexStatus"], units(g["ProvisionedThroughput"])) == ("UPDATING", (5, 5))
    assert writes_accepted(c, name, "before", 20, gsi_key=True) == 5
    c.advance(DELAY_MS - 1000)
    g = describe(c, name)["GlobalSecondaryIndexes"][0]
    p = g["ProvisionedThroughput"]
    assert (g["IndexStatus"], units(p), p["LastIncreaseDateTime"]) == ("ACTIVE", (5, 100), T0 + 5)
    drain(c, name, "gsi1")
    c.advance(1000)
    assert writes_accepted(c, name, "after", 20, gsi_key=True) == 20
    # A decrease of the index: counted when it applies.
    status, reply = c.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(5, 50)}}]})
    assert status == 200, reply
    p = describe(c, name)["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]
    assert (units(p), p["NumberOfDecreasesToday"], p["LastDecreaseDateTime"]) == ((5, 100), 0, T0 + 6)
    c.advance(DELAY_MS)
    p = describe(c, name)["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]
    assert (units(p), p["NumberOfDecreasesToday"], p["LastDecreaseDateTime"]) == ((5, 50), 1, T0 + 11)


# A pending change is in the table's catalog record: after a restart (same clock start) the
# table is still UPDATING with the old units, and the change applies at the same moment.
@pytest.mark.sluice_only
def test_pending_change_survives_a_restart(tmp_path):
    from conftest import Client, Server
    conf = tmp_path / "slow.conf"
    conf.write_text(f"table_update_delay_ms = {DELAY_MS}\n")
    data = tmp_path / "data"
    data.mkdir()
    args = ["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--config", str(conf),
            "--data-dir", str(data)]
    srv = Server(args)
    try:
        c = Client(srv.endpoint)
        c.create_table("pending", ProvisionedThroughput=pt(5, 5))
        status, reply = c.call("UpdateTable", {"TableName": "pending",
                                               "ProvisionedThroughput": pt(9, 9)})
        assert status == 200, reply
    finally:
        srv.stop()
    srv = Server(args)
    try:
        c = Client(srv.endpoint)
        d = describe(c, "pending")
        assert (d["TableStatus"], units(d["ProvisionedThroughput"])) == ("UPDATING", (5, 5))
        c.advance(DELAY_MS)
        p = describe(c, "pending")["ProvisionedThroughput"]
        assert (units(p), p["LastIncreaseDateTime"]) == ((9, 9), T0 + 5)
    finally:
        srv.stop()
