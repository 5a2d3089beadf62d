"""Item size and ReturnConsumedCapacity for PutItem, GetItem and DeleteItem.

Item sizes follow facts §2.1 (AWS developer guide "Item sizes and formats"): a string is its
UTF-8 bytes, a binary its raw bytes, a number about one byte per two significant digits plus
one, BOOL and NULL one byte, a list or map 3 bytes plus one byte per element plus its
elements (map keys count as names), a set the sum of its elements; every attribute adds its
name's UTF-8 bytes. Writes cost 1 unit per started KB, strongly consistent reads 1 unit per
started 4 KB, eventually consistent reads half that (facts §2.2). DynamoDB Local computes the
same figures for every test here.
"""
import base64
import math

import pytest

from conftest import new_key


def number_size(n):
    """Facts §2.1 for numbers whose size is not in doubt (see test_number_sizes)."""
    digits = n.lstrip("-").replace(".", "").lstrip("0").rstrip("0")
    return math.ceil(len(digits) / 2) + 1


def value_size(v):
    (t, x), = v.items()
    if t == "S":
        return len(x.encode())
    if t == "N":
        return number_size(x)
    if t == "B":
        return len(base64.b64decode(x))
    if t in ("BOOL", "NULL"):
        return 1
    if t == "SS":
        return sum(len(s.encode()) for s in x)
    if t == "NS":
        return sum(number_size(s) for s in x)
    if t == "BS":
        return sum(len(base64.b64decode(s)) for s in x)
    if t == "L":
        return 3 + sum(1 + value_size(e) for e in x)
    return 3 + sum(1 + len(k.encode()) + value_size(e) for k, e in x.items())  # M


def item_size(item):
    return sum(len(k.encode()) + value_size(v) for k, v in item.items())


def sized(size, **attrs):
    """An item under a fresh key, with attrs and a padding string attribute "p" that make it
    exactly size bytes."""
    item = {"pk": {"S": new_key()}, **attrs, "p": {"S": ""}}
    item["p"] = {"S": "x" * (size - item_size(item))}
    assert item_size(item) == size
    return item


def units(reply):
    assert reply.status == 200, reply
    return reply.json["ConsumedCapacity"]["CapacityUnits"]


def put(raw, table, item, rcc="TOTAL", **kw):
    return raw.call("PutItem", dict(TableName=table, Item=item, ReturnConsumedCapacity=rcc, **kw))


def get(raw, table, item, consistent, rcc="TOTAL", **kw):
    return raw.call("GetItem", dict(TableName=table, Key={"pk": item["pk"]}, ConsistentRead=consistent,
                                    ReturnConsumedCapacity=rcc, **kw))


def delete(raw, table, item, rcc="TOTAL", **kw):
    return raw.call("DeleteItem", dict(TableName=table, Key={"pk": item["pk"]},
                                       ReturnConsumedCapacity=rcc, **kw))


# --- response shapes -----------------------------------------------------------------------

# TOTAL gives the table name and the units, and no per-table breakdown. (Whether AWS adds
# ReadCapacityUnits/WriteCapacityUnits beside CapacityUnits is not established: if present
# they must agree.)
@pytest.mark.parametrize("op", ["put", "get", "delete"])
def test_total_shape(raw, hash_table, op):
    item = {"pk": {"S": new_key()}}
    raw.call("PutItem", {"TableName": hash_table, "Item": item})
    r = {"put": lambda: put(raw, hash_table, item), "get": lambda: get(raw, hash_table, item, True),
         "delete": lambda: delete(raw, hash_table, item)}[op]()
    cc = r.json["ConsumedCapacity"]
    assert cc["TableName"] == hash_table
    assert cc["CapacityUnits"] == 1.0
    assert set(cc) <= {"TableName", "CapacityUnits", "ReadCapacityUnits", "WriteCapacityUnits"}
    assert all(cc[k] == cc["CapacityUnits"] for k in ("ReadCapacityUnits", "WriteCapacityUnits") if k in cc)


# INDEXES adds the table's own share under "Table"; a table without indexes has no index maps.
@pytest.mark.parametrize("op", ["put", "get", "delete"])
def test_indexes_shape(raw, hash_table, op):
    item = {"pk": {"S": new_key()}}
    raw.call("PutItem", {"TableName": hash_table, "Item": item})
    r = {"put": lambda: put(raw, hash_table, item, "INDEXES"),
         "get": lambda: get(raw, hash_table, item, True, "INDEXES"),
         "delete": lambda: delete(raw, hash_table, item, "INDEXES")}[op]()
    cc = r.json["ConsumedCapacity"]
    assert cc["TableName"] == hash_table
    assert cc["CapacityUnits"] == 1.0
    assert cc["Table"]["CapacityUnits"] == 1.0
    assert "GlobalSecondaryIndexes" not in cc and "LocalSecondaryIndexes" not in cc


# NONE, or no ReturnConsumedCapacity at all, returns no ConsumedCapacity.
@pytest.mark.parametrize("rcc", ["NONE", None])
def test_none_returns_nothing(raw, hash_table, rcc):
    item = {"pk": {"S": new_key()}}
    extra = {} if rcc is None else {"ReturnConsumedCapacity": rcc}
    for op, body in (("PutItem", {"Item": item}), ("GetItem", {"Key": item}), ("DeleteItem", {"Key": item})):
        r = raw.call(op, {"TableName": hash_table, **body, **extra})
        assert "ConsumedCapacity" not in r.json, (op, r)


# An invalid ReturnConsumedCapacity fails the model's enum constraint.
# ddblocal_differs: DynamoDB Local accepts any value and returns no ConsumedCapacity.
# Source: dynalite test/putItem.js (live text, set in Coral's order).
@pytest.mark.ddblocal_differs
def test_invalid_return_consumed_capacity(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}}, rcc="ALL")
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message == ("1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' "
                         "failed to satisfy constraint: Member must satisfy enum value set: "
                         "[INDEXES, TOTAL, NONE]")


# With an ARN as TableName, ConsumedCapacity.TableName echoes the ARN.
# ddblocal_differs: DynamoDB Local echoes the plain name.
# Source: BOTO ConsumedCapacity.TableName doc ("If you had specified the Amazon Resource
# Name (ARN) of a table in the input, you'll see the table ARN in the response"), facts §2.3.
@pytest.mark.ddblocal_differs
def test_table_name_echoes_arn(raw, hash_table):
    arn = raw.call("DescribeTable", {"TableName": hash_table}).json["Table"]["TableArn"]
    r = put(raw, arn, {"pk": {"S": new_key()}})
    assert r.json["ConsumedCapacity"]["TableName"] == arn


# --- write units ---------------------------------------------------------------------------

# A write costs one unit per started KB of the item.
@pytest.mark.parametrize("size,wcu", [(37, 1), (1024, 1), (1025, 2), (2048, 2), (2049, 3), (409600, 400)])
def test_put_units_by_size(raw, hash_table, size, wcu):
    assert units(put(raw, hash_table, sized(size))) == wcu


# Every attribute type counts as facts §2.1 says: an item of exactly 1024 bytes built from
# all of them costs 1 unit, one more byte costs 2.
@pytest.mark.parametrize("size,wcu", [(1024, 1), (1025, 2)])
def test_put_units_every_type(raw, hash_table, size, wcu):
    attrs = {
        "é": {"S": "€"},                                    # 2 + 3
        "n": {"N": "12345"},                                # 1 + 4 (5 digits)
        "big": {"N": "1234567890123456789012345678901234567"},  # 3 + 20 (37 digits)
        "b": {"B": base64.b64encode(b"\x00\x01\x02").decode()},  # 1 + 3
        "t": {"BOOL": True}, "z": {"NULL": True},           # 2 + 2
        "ss": {"SS": ["a", "bc"]},                          # 2 + 3
        "ns": {"NS": ["1", "123"]},                         # 2 + 2 + 3
        "bs": {"BS": [base64.b64encode(b"ab").decode()]},   # 2 + 2
        "l": {"L": [{"S": "ab"}, {"N": "1"}, {"BOOL": False}]},  # 1 + 3 + (1+2) + (1+2) + (1+1)
        "m": {"M": {"k": {"S": "v"}, "kk": {"N": "12"}}},   # 1 + 3 + (1+1+1) + (1+2+2)
        "e": {"L": []}, "f": {"M": {}},                     # 4 + 4
        "deep": {"M": {"l": {"L": [{"M": {"a": {"NULL": True}}}]}}},
    }
    item = sized(size, **attrs)
    assert units(put(raw, hash_table, item)) == wcu


# Numbers are stored in base-100 digit pairs aligned on the decimal point, plus a sign byte
# for negatives, which the guide's "approximately" hides: "-1234.5" takes 5 bytes and "1.2"
# 3 bytes. Each item here is exactly 1024 bytes with these sizes, so costs 1 unit; one more
# byte costs 2. Source: dynalite db/index.js valSize (fitted to live DynamoDB); DynamoDB
# Local computes the same.
@pytest.mark.parametrize("number,size", [("-1234.5", 5), ("1.2", 3), ("0.012", 3), ("-1", 3),
                                         ("12.34", 3), ("0", 1), ("100", 2)])
def test_number_sizes(raw, hash_table, number, size):
    item = sized(1024 - size + number_size(number), n={"N": number})
    assert units(put(raw, hash_table, item)) == 1
    item = sized(1025 - size + number_size(number), n={"N": number})
    assert units(put(raw, hash_table, item)) == 2


# Replacing an item costs the larger of the old and the new item.
def test_put_over_existing_costs_larger_item(raw, hash_table):
    big = sized(2049)
    raw.call("PutItem", {"TableName": hash_table, "Item": big})
    assert units(put(raw, hash_table, {"pk": big["pk"]})) == 3
    small = {"pk": {"S": new_key()}}
    raw.call("PutItem", {"TableName": hash_table, "Item": small})
    bigger = {**sized(1025), "pk": small["pk"]}  # keys from new_key() all have one length
    assert item_size(bigger) == 1025
    assert units(put(raw, hash_table, bigger)) == 2


# A delete costs the size of the deleted item.
@pytest.mark.parametrize("size,wcu", [(1024, 1), (1025, 2), (3000, 3)])
def test_delete_costs_deleted_item(raw, hash_table, size, wcu):
    item = sized(size)
    raw.call("PutItem", {"TableName": hash_table, "Item": item})
    assert units(delete(raw, hash_table, item)) == wcu


# Deleting an item that does not exist still costs one write unit.
def test_delete_missing_item_costs_one(raw, hash_table):
    assert units(delete(raw, hash_table, {"pk": {"S": new_key()}})) == 1


# --- read units ----------------------------------------------------------------------------

# A strongly consistent read costs one unit per started 4 KB; an eventually consistent
# read half of that.
@pytest.mark.parametrize("size,rcu", [(4096, 1), (4097, 2), (8192, 2), (8193, 3)])
def test_get_units_by_size(raw, hash_table, size, rcu):
    item = sized(size)
    raw.call("PutItem", {"TableName": hash_table, "Item": item})
    assert units(get(raw, hash_table, item, True)) == rcu
    assert units(get(raw, hash_table, item, False)) == rcu / 2


# Reading an item that does not exist still costs the minimum.
def test_get_missing_item_costs_minimum(raw, hash_table):
    item = {"pk": {"S": new_key()}}
    assert units(get(raw, hash_table, item, True)) == 1
    assert units(get(raw, hash_table, item, False)) == 0.5


# A projection does not reduce the cost: the whole item is read.
def test_projection_does_not_reduce_cost(raw, hash_table):
    item = sized(4097)
    raw.call("PutItem", {"TableName": hash_table, "Item": item})
    assert units(get(raw, hash_table, item, True, ProjectionExpression="pk")) == 2
