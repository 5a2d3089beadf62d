"""DeleteItem: serialization, validation, behaviour."""
import uuid

import pytest

from conftest import new_key


def delete(raw, table, key, **kw):
    return raw.call("DeleteItem", dict(TableName=table, Key=key, **kw))


# --- serialization -------------------------------------------------------------------------

# ddblocal_differs: DynamoDB Local does no type checking.
# Source: dynalite test/helpers.js assertType, String case (live texts).
@pytest.mark.ddblocal_differs
def test_return_values_of_wrong_json_type_is_serialization_exception(raw, hash_table):
    r = delete(raw, hash_table, {"pk": {"S": "a"}}, ReturnValues=5)
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "NUMBER_VALUE cannot be converted to String"


# --- validation ----------------------------------------------------------------------------

# DeleteItem only knows the old image: ALL_NEW and the UPDATED_* values are rejected.
@pytest.mark.parametrize("rv", ["ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"])
def test_return_values_other_than_all_old_or_none_rejected(raw, hash_table, rv):
    r = delete(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues=rv)
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Return values set to invalid value".
# Source: dynalite test/deleteItem.js (live text, same as PutItem).
@pytest.mark.ddblocal_differs
def test_return_values_all_new_message(raw, hash_table):
    r = delete(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues="ALL_NEW")
    assert r.message == "ReturnValues can only be ALL_OLD or NONE"


# Keys that do not match the key schema are rejected like in GetItem.
@pytest.mark.parametrize("key", [{}, {"pk": {"S": "a"}, "x": {"S": "b"}}, {"pk": {"N": "1"}}],
                         ids=["no_attributes", "extra_attribute", "wrong_type"])
def test_key_not_matching_schema(raw, hash_table, key):
    r = delete(raw, hash_table, key)
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "The number of conditions on the keys is invalid" or
# "...Type mismatch for key". Source: dynalite db/index.js validateKey (live text).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("key", [{}, {"pk": {"S": "a"}, "x": {"S": "b"}}, {"pk": {"N": "1"}}],
                         ids=["no_attributes", "extra_attribute", "wrong_type"])
def test_key_not_matching_schema_message(raw, hash_table, key):
    assert delete(raw, hash_table, key).message == "The provided key element does not match the schema"


# Empty key strings are rejected with the same text as in PutItem.
def test_empty_string_key(raw, hash_table):
    r = delete(raw, hash_table, {"pk": {"S": ""}})
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values are not valid. The AttributeValue for a key "
                         "attribute cannot contain an empty string value. Key: pk")


# A range key longer than 1024 bytes is rejected.
def test_range_key_too_large(raw, make_table):
    name = make_table(range_key=("sk", "S"))
    r = delete(raw, name, {"pk": {"S": "a"}, "sk": {"S": "a" * 1025}})
    assert r.error_type == "ValidationException"


# --- behaviour -----------------------------------------------------------------------------

# Deleting from an unknown table is ResourceNotFoundException.
def test_unknown_table_is_resource_not_found(raw):
    r = delete(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: facts §1.4; dynalite db/index.js getTable (live).
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    assert delete(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}}).message == "Requested resource not found"


# The item is gone after the delete; the default response is empty.
def test_deletes_item(raw, ddb, hash_table):
    k = {"pk": {"S": new_key()}}
    ddb.put_item(TableName=hash_table, Item={**k, "v": {"S": "x"}})
    r = delete(raw, hash_table, k)
    assert r.status == 200
    assert r.json == {}
    assert "Item" not in ddb.get_item(TableName=hash_table, Key=k, ConsistentRead=True)


# Deleting an item that does not exist succeeds and returns no old image.
def test_delete_missing_item_succeeds(raw, hash_table):
    r = delete(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues="ALL_OLD")
    assert r.status == 200
    assert "Attributes" not in r.json


# ... and, like every write, says nothing about capacity unless asked.
# ddblocal_differs: DynamoDB Local adds ConsumedCapacity {TableName, CapacityUnits: 1.0} to
# the response for a missing item even with ReturnConsumedCapacity absent or NONE.
# Source: BOTO model (ReturnConsumedCapacity defaults to NONE: "No ConsumedCapacity details
# are included in the response"), facts §2.3.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("extra", [{}, {"ReturnConsumedCapacity": "NONE"}])
def test_delete_missing_item_response_is_empty(raw, hash_table, extra):
    r = delete(raw, hash_table, {"pk": {"S": new_key()}}, **extra)
    assert r.json == {}


# ALL_OLD returns the deleted item; NONE returns nothing.
def test_return_values(ddb, hash_table):
    k = {"pk": {"S": new_key()}}
    item = {**k, "v": {"L": [{"N": "1"}, {"S": "a"}]}}
    ddb.put_item(TableName=hash_table, Item=item)
    assert ddb.delete_item(TableName=hash_table, Key=k, ReturnValues="ALL_OLD")["Attributes"] == item
    ddb.put_item(TableName=hash_table, Item=item)
    assert "Attributes" not in ddb.delete_item(TableName=hash_table, Key=k, ReturnValues="NONE")


# Only the addressed item of a partition is deleted.
def test_range_key_selects_item(ddb, range_table):
    pk = {"S": new_key()}
    for i in range(2):
        ddb.put_item(TableName=range_table, Item={"pk": pk, "sk": {"N": str(i)}})
    ddb.delete_item(TableName=range_table, Key={"pk": pk, "sk": {"N": "0"}})
    assert "Item" not in ddb.get_item(TableName=range_table, Key={"pk": pk, "sk": {"N": "0"}},
                                      ConsistentRead=True)
    assert "Item" in ddb.get_item(TableName=range_table, Key={"pk": pk, "sk": {"N": "1"}},
                                  ConsistentRead=True)


# The table's ARN is accepted as TableName.
def test_table_arn_accepted(raw, ddb, hash_table):
    arn = raw.call("DescribeTable", {"TableName": hash_table}).json["Table"]["TableArn"]
    k = {"pk": {"S": new_key()}}
    ddb.put_item(TableName=hash_table, Item=k)
    r = delete(raw, arn, k, ReturnValues="ALL_OLD")
    assert r.status == 200, r
    assert r.json["Attributes"] == k
