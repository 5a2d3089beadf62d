"""DescribeTable: serialization, validation, behaviour (by name and by ARN)."""
import re
import uuid

import pytest

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


# --- serialization -------------------------------------------------------------------------

# ddblocal_differs: DynamoDB Local does no type checking (a boolean name is "not found").
# Source: dynalite test/helpers.js assertType, String case (live texts).
@pytest.mark.ddblocal_differs
def test_table_name_of_wrong_json_type_is_serialization_exception(raw):
    r = raw.call("DescribeTable", {"TableName": True})
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "TRUE_VALUE cannot be converted to String"


# --- validation ----------------------------------------------------------------------------

# A name that can never exist is a validation error, not "not found".
@pytest.mark.parametrize("name", ["ab", "abc;", "a" * 256])
def test_invalid_name_is_validation_exception(raw, name):
    r = raw.call("DescribeTable", {"TableName": name})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# The name is required.
def test_missing_name_is_validation_exception(raw):
    r = raw.call("DescribeTable", {})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# --- behaviour -----------------------------------------------------------------------------

# An unknown table is ResourceNotFoundException.
def test_unknown_table_is_resource_not_found(raw):
    r = raw.call("DescribeTable", {"TableName": "t_" + uuid.uuid4().hex})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"
    assert r.json["__type"] == "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"


# The control-plane not-found text names the table.
# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: AWS developer guide Programming.Errors (official example body); dynalite db/index.js.
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    name = "t_" + uuid.uuid4().hex
    r = raw.call("DescribeTable", {"TableName": name})
    assert r.message == f"Requested resource not found: Table: {name} not found"


# DescribeTable returns the table's definition and current state.
def test_describes_table(raw, make_table):
    name = make_table(range_key=("sk", "N"))
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert t["TableName"] == name
    assert t["TableStatus"] == "ACTIVE"
    assert t["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}]
    assert sorted(t["AttributeDefinitions"], key=lambda a: a["AttributeName"]) == [
        {"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]
    assert t["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert isinstance(t["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"], (int, float))
    assert t["TableArn"].endswith(":table/" + name)
    assert t["DeletionProtectionEnabled"] is False


# The full ACTIVE on-demand description as AWS returns it, including TableId and the
# default warm throughput of a new on-demand table (12000 reads / 4000 writes per second).
# ddblocal_differs: DynamoDB Local has no TableId or WarmThroughput and adds zero
# LastIncrease/LastDecreaseDateTime to ProvisionedThroughput.
# Sources: live describe-table outputs quoted in facts §4; ACKQ DDB-TABLE-028/-032.
@pytest.mark.ddblocal_differs
def test_on_demand_description_exact_shape(raw, make_table):
    name = make_table()
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert set(t) == {"AttributeDefinitions", "TableName", "KeySchema", "TableStatus",
                      "CreationDateTime", "ProvisionedThroughput", "TableSizeBytes", "ItemCount",
                      "TableArn", "TableId", "BillingModeSummary", "DeletionProtectionEnabled",
                      "WarmThroughput"}
    assert UUID_RE.match(t["TableId"])
    assert t["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                                          "WriteCapacityUnits": 0}
    assert t["WarmThroughput"] == {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000,
                                   "Status": "ACTIVE"}


# A provisioned table's warm throughput equals its provisioned capacity.
# ddblocal_differs: DynamoDB Local has no WarmThroughput. Source: ACKQ DDB-TABLE-032 (live).
@pytest.mark.ddblocal_differs
def test_provisioned_warm_throughput_equals_capacity(raw, make_table):
    name = make_table(ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 3})
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert t["WarmThroughput"] == {"ReadUnitsPerSecond": 2, "WriteUnitsPerSecond": 3, "Status": "ACTIVE"}
    assert "BillingModeSummary" not in t


# The TableId stays the same from one DescribeTable to the next.
# ddblocal_differs: DynamoDB Local has no TableId. Source: ACKQ DDB-TABLE-009.
@pytest.mark.ddblocal_differs
def test_table_id_is_stable(raw, make_table):
    name = make_table()
    a = raw.call("DescribeTable", {"TableName": name}).json["Table"]["TableId"]
    b = raw.call("DescribeTable", {"TableName": name}).json["Table"]["TableId"]
    assert a == b


# The table's ARN is accepted wherever a TableName is, and describes the same table.
def test_describe_by_arn(raw, make_table):
    name = make_table()
    by_name = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    r = raw.call("DescribeTable", {"TableName": by_name["TableArn"]})
    assert r.status == 200, r
    assert r.json["Table"] == by_name


# The ARN of a table that does not exist is "not found", not a validation error.
def test_unknown_table_arn_is_resource_not_found(raw, make_table):
    arn = raw.call("DescribeTable", {"TableName": make_table()}).json["Table"]["TableArn"]
    missing = "t_" + uuid.uuid4().hex
    r = raw.call("DescribeTable", {"TableName": arn.rsplit("/", 1)[0] + "/" + missing})
    assert r.error_type == "ResourceNotFoundException"


# The not-found text names the table extracted from the ARN.
# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: ACKQ DDB-TABLE-072 ("a missing table is RNF naming the extracted name").
@pytest.mark.ddblocal_differs
def test_unknown_table_arn_message(raw, make_table):
    arn = raw.call("DescribeTable", {"TableName": make_table()}).json["Table"]["TableArn"]
    missing = "t_" + uuid.uuid4().hex
    r = raw.call("DescribeTable", {"TableName": arn.rsplit("/", 1)[0] + "/" + missing})
    assert r.message == f"Requested resource not found: Table: {missing} not found"
