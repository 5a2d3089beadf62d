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
        "One or more parameter values were invalid: WarmThroughput cannot be decreased. "
        "Current ReadUnitsPerSecond: 13000, WriteUnitsPerSecond: 5000")
