"""DeleteTable: serialization, validation, behaviour."""
import uuid

import pytest

from conftest import wait_active, wait_gone


# --- serialization -------------------------------------------------------------------------

# ddblocal_differs: DynamoDB Local does no type checking.
# Source: dynalite test/helpers.js assertType, String case (live texts).
@pytest.mark.ddblocal_differs
def test_table_name_of_wrong_json_type_is_serialization_exception(raw):
    r = raw.call("DeleteTable", {"TableName": 23})
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "NUMBER_VALUE cannot be converted to String"


# --- validation ----------------------------------------------------------------------------

# A name that can never exist is a validation error.
@pytest.mark.parametrize("name", ["ab", "abc;"])
def test_invalid_name_is_validation_exception(raw, name):
    r = raw.call("DeleteTable", {"TableName": name})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# --- behaviour -----------------------------------------------------------------------------

# Deleting an unknown table is ResourceNotFoundException.
def test_unknown_table_is_resource_not_found(raw):
    r = raw.call("DeleteTable", {"TableName": "t_" + uuid.uuid4().hex})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: ACKQ DDB-TABLE-008 (live text after the table was gone).
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    name = "t_" + uuid.uuid4().hex
    assert raw.call("DeleteTable", {"TableName": name}).message == \
        f"Requested resource not found: Table: {name} not found"


# The response is the service's short description of the table being deleted: its
# identity, throughput and counters, not its schema, indexes or stream.
# ddblocal_differs: DynamoDB Local returns the whole description (KeySchema,
# AttributeDefinitions, CreationDateTime, indexes).
# Source: live AWS CLI outputs of delete-table — aws-cli's own example (TableName,
# TableStatus, ProvisionedThroughput, TableSizeBytes, ItemCount), a CDK workshop transcript
# in us-east-1 (+ TableArn, TableId) and a 2025 eu-central-1 transcript
# (+ DeletionProtectionEnabled); none has KeySchema or AttributeDefinitions.
@pytest.mark.ddblocal_differs
def test_response_is_the_short_description(raw, make_table):
    name = make_table(range_key=("sk", "N"), ProvisionedThroughput={
        "ReadCapacityUnits": 5, "WriteCapacityUnits": 5}, GlobalSecondaryIndexes=[{
            "IndexName": "by_sk", "KeySchema": [{"AttributeName": "sk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}])
    before = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    r = raw.call("DeleteTable", {"TableName": name})
    assert r.status == 200, r
    d = r.json["TableDescription"]
    assert set(d) == {"TableName", "TableStatus", "ProvisionedThroughput", "TableSizeBytes",
                      "ItemCount", "TableArn", "TableId", "DeletionProtectionEnabled"}
    for k in ("TableName", "TableArn", "TableId", "TableSizeBytes", "ItemCount"):
        assert d[k] == before[k]
    assert d["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0,
                                          "ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
    assert d["DeletionProtectionEnabled"] is False


# An on-demand table's short description carries its billing mode.
# ddblocal_differs: as above. Source: [INF] the billing summary is part of the table's
# identity in every description; the live outputs above are of provisioned tables.
@pytest.mark.ddblocal_differs
def test_response_of_on_demand_table_has_billing_summary(raw, make_table):
    name = make_table()
    r = raw.call("DeleteTable", {"TableName": name})
    d = r.json["TableDescription"]
    assert d["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert "KeySchema" not in d and "AttributeDefinitions" not in d


# The response names the table deleted, also when it was named by ARN.
def test_response_names_the_table(raw, make_table):
    name = make_table()
    r = raw.call("DeleteTable", {"TableName": name})
    assert r.status == 200, r
    assert r.json["TableDescription"]["TableName"] == name


# The response says DELETING: deletion is asynchronous.
# ddblocal_differs: DynamoDB Local answers TableStatus ACTIVE.
# Source: ACKQ DDB-TABLE-006 (live: HTTP 200 with TableStatus=DELETING).
@pytest.mark.ddblocal_differs
def test_response_status_is_deleting(raw, make_table):
    name = make_table()
    r = raw.call("DeleteTable", {"TableName": name})
    assert r.json["TableDescription"]["TableStatus"] == "DELETING"


# After deletion the table is gone: DescribeTable and item operations say not found.
def test_table_is_gone(raw, ddb, make_table):
    name = make_table()
    ddb.delete_table(TableName=name)
    wait_gone(ddb, name)
    assert raw.call("DescribeTable", {"TableName": name}).error_type == "ResourceNotFoundException"
    r = raw.call("GetItem", {"TableName": name, "Key": {"pk": {"S": "a"}}})
    assert r.error_type == "ResourceNotFoundException"
    assert raw.call("DeleteTable", {"TableName": name}).error_type == "ResourceNotFoundException"


# A table can be deleted through its ARN.
def test_delete_by_arn(raw, ddb, make_table):
    name = make_table()
    arn = raw.call("DescribeTable", {"TableName": name}).json["Table"]["TableArn"]
    r = raw.call("DeleteTable", {"TableName": arn})
    assert r.status == 200, r
    assert r.json["TableDescription"]["TableName"] == name
    wait_gone(ddb, name)


# A name can be reused once the table is gone, and the new table starts empty.
def test_recreate_after_delete_starts_empty(ddb, make_table):
    name = make_table()
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.delete_table(TableName=name)
    wait_gone(ddb, name)
    make_table(name)
    wait_active(ddb, name)
    assert "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "a"}}, ConsistentRead=True)


# A table with deletion protection cannot be deleted until the protection is turned off.
# Source of the text: ACKQ DDB-TABLE-442 (live); DynamoDB Local agrees.
def test_deletion_protection_blocks_delete(raw, ddb):
    name = "t_" + uuid.uuid4().hex[:12]
    r = raw.call("CreateTable", {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
                                 "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                 "DeletionProtectionEnabled": True})
    assert r.status == 200, r
    try:
        wait_active(ddb, name)
        r = raw.call("DeleteTable", {"TableName": name})
        assert r.status == 400
        assert r.error_type == "ValidationException"
        assert r.message == ("Resource cannot be deleted as it is currently protected against "
                             "deletion. Disable deletion protection first.")
    finally:
        raw.call("UpdateTable", {"TableName": name, "DeletionProtectionEnabled": False})
        wait_active(ddb, name)
        assert raw.call("DeleteTable", {"TableName": name}).status == 200
