"""GetItem: serialization, validation, behaviour."""
import uuid

import pytest

from conftest import new_key


def get(raw, table, key, **kw):
    return raw.call("GetItem", dict(TableName=table, Key=key, **kw))


# --- serialization -------------------------------------------------------------------------

# A boolean member sent as a string is a SerializationException.
# ddblocal_differs: DynamoDB Local answers HTTP 500 InternalFailure.
# Source: dynalite test/helpers.js assertType, Boolean case (live texts).
@pytest.mark.ddblocal_differs
def test_consistent_read_of_wrong_json_type_is_serialization_exception(raw, hash_table):
    r = get(raw, hash_table, {"pk": {"S": "a"}}, ConsistentRead="yes")
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "Unexpected token received from parser"


# --- validation ----------------------------------------------------------------------------

# Keys that do not match the table's key schema: a missing attribute, an extra one, a wrong
# type, a missing range key.
BAD_KEYS = [
    ("no_attributes", "hash", {}),
    ("other_attribute", "hash", {"other": {"S": "a"}}),
    ("extra_attribute", "hash", {"pk": {"S": "a"}, "x": {"S": "b"}}),
    ("wrong_type", "hash", {"pk": {"N": "1"}}),
    ("missing_range_key", "range", {"pk": {"S": "a"}}),
    ("range_key_wrong_type", "range", {"pk": {"S": "a"}, "sk": {"S": "1"}}),
]


@pytest.fixture
def tables(hash_table, range_table):
    return {"hash": hash_table, "range": range_table}


# A key that does not match the schema is a ValidationException.
@pytest.mark.parametrize("which,key", [c[1:] for c in BAD_KEYS], ids=[c[0] for c in BAD_KEYS])
def test_key_not_matching_schema(raw, tables, which, key):
    r = get(raw, tables[which], key)
    assert r.status == 400
    assert r.error_type == "ValidationException"


# Every such key gets the one text "The provided key element does not match the schema".
# ddblocal_differs: DynamoDB Local says "The number of conditions on the keys is invalid" or
# "One or more parameter values were invalid: Type mismatch for key".
# Source: dynalite db/index.js validateKey/validateKeyPiece (live text); facts §1.4.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("which,key", [c[1:] for c in BAD_KEYS], ids=[c[0] for c in BAD_KEYS])
def test_key_not_matching_schema_message(raw, tables, which, key):
    assert get(raw, tables[which], key).message == "The provided key element does not match the schema"


# Empty key strings are rejected with the same text as in PutItem.
def test_empty_string_key(raw, hash_table):
    r = get(raw, hash_table, {"pk": {"S": ""}})
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values are not valid. The AttributeValue for a key "
                         "attribute cannot contain an empty string value. Key: pk")


# A key larger than the key limits is rejected before the read.
def test_key_too_large(raw, hash_table):
    r = get(raw, hash_table, {"pk": {"S": "a" * 2049}})
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Hash primary key values must be under 2048 bytes,
# and range primary key values must be under 1024 bytes".
# Source: dynalite db/index.js checkKeySize via validateKeyPiece (live text).
@pytest.mark.ddblocal_differs
def test_key_too_large_message(raw, hash_table):
    r = get(raw, hash_table, {"pk": {"S": "a" * 2049}})
    assert r.message == ("One or more parameter values were invalid: Size of hashkey has exceeded "
                         "the maximum size limit of2048 bytes")


# --- behaviour -----------------------------------------------------------------------------

# Reading from an unknown table is ResourceNotFoundException.
def test_unknown_table_is_resource_not_found(raw):
    r = get(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: facts §1.4; dynalite db/index.js getTable (live).
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    assert get(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}}).message == "Requested resource not found"


# A missing item is not an error: the response simply has no Item.
def test_missing_item_returns_no_item(raw, hash_table):
    r = get(raw, hash_table, {"pk": {"S": new_key()}})
    assert r.status == 200
    assert r.json == {}


# A stored item comes back, with both read consistencies.
@pytest.mark.parametrize("consistent", [True, False])
def test_returns_item(ddb, hash_table, consistent):
    item = {"pk": {"S": new_key()}, "v": {"N": "42"}}
    ddb.put_item(TableName=hash_table, Item=item)
    got = ddb.get_item(TableName=hash_table, Key={"pk": item["pk"]}, ConsistentRead=consistent)
    if not consistent and "Item" not in got:  # eventual consistency may lag on AWS
        got = ddb.get_item(TableName=hash_table, Key={"pk": item["pk"]}, ConsistentRead=True)
    assert got["Item"] == item


# A hash+range key addresses exactly one item of the partition.
def test_range_key_selects_item(ddb, range_table):
    pk = {"S": new_key()}
    for i in range(3):
        ddb.put_item(TableName=range_table, Item={"pk": pk, "sk": {"N": str(i)}, "v": {"N": str(i * 10)}})
    got = ddb.get_item(TableName=range_table, Key={"pk": pk, "sk": {"N": "1"}}, ConsistentRead=True)
    assert got["Item"] == {"pk": pk, "sk": {"N": "1"}, "v": {"N": "10"}}
    got = ddb.get_item(TableName=range_table, Key={"pk": pk, "sk": {"N": "5"}}, ConsistentRead=True)
    assert "Item" not in got


# The table's ARN is accepted as TableName.
def test_table_arn_accepted(raw, ddb, hash_table):
    arn = raw.call("DescribeTable", {"TableName": hash_table}).json["Table"]["TableArn"]
    item = {"pk": {"S": new_key()}, "v": {"S": "x"}}
    ddb.put_item(TableName=hash_table, Item=item)
    r = get(raw, arn, {"pk": item["pk"]}, ConsistentRead=True)
    assert r.status == 200, r
    assert r.json["Item"] == item


# ProjectionExpression returns only the named attributes.
def test_projection_expression(ddb, hash_table):
    item = {"pk": {"S": new_key()}, "a": {"S": "1"}, "b": {"M": {"c": {"N": "2"}, "d": {"N": "3"}}}}
    ddb.put_item(TableName=hash_table, Item=item)
    got = ddb.get_item(TableName=hash_table, Key={"pk": item["pk"]}, ConsistentRead=True,
                       ProjectionExpression="a, b.c")
    assert got["Item"] == {"a": {"S": "1"}, "b": {"M": {"c": {"N": "2"}}}}
