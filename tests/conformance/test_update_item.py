"""UpdateItem: validation, upsert, ReturnValues, conditional failure, limits after the update.

The UpdateExpression language itself is in test_update_expression.py, ConditionExpression in
test_condition_expression.py, AttributeUpdates/Expected in test_legacy_parameters.py.
Sources for the real service: dynalite test/updateItem.js (live texts), Alternator
test/alternator/test_returnvalues.py, test_update_expression.py and test_number.py (run
against AWS); where DynamoDB Local differs the test is marked ddblocal_differs.
"""
import uuid
from decimal import Decimal

import pytest

from conftest import call_retrying, error_of, invalid, L, N, new_key, S


def update(raw, table, key, expr=None, values=None, names=None, **kw):
    body = dict(TableName=table, Key={"pk": {"S": key}}, **kw)
    if expr is not None:
        body["UpdateExpression"] = expr
    if values is not None:
        body["ExpressionAttributeValues"] = values
    if names is not None:
        body["ExpressionAttributeNames"] = names
    return raw.call("UpdateItem", body)


def put(raw, table, key, **attrs):
    # Retrying: several 300 KB setup writes may land on one partition within its burst.
    r = call_retrying(raw, "PutItem", {"TableName": table, "Item": {"pk": {"S": key}, **attrs}})
    assert r.status == 200, r


def get(raw, table, key):
    return raw.call("GetItem", {"TableName": table, "Key": {"pk": {"S": key}}, "ConsistentRead": True}).json.get("Item")


# --- validation ----------------------------------------------------------------------------------

# ReturnValues outside the enum is a ValidationException.
def test_return_values_not_in_enum(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET a = :v", values={":v": N(1)}, ReturnValues="none")
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Return values set to invalid value".
# Source: dynalite test/updateItem.js "incorrect attributes" (live; Coral's set order).
@pytest.mark.ddblocal_differs
def test_return_values_not_in_enum_message(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET a = :v", values={":v": N(1)}, ReturnValues="BOGUS")
    assert r.message == ("1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy "
                         "constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, "
                         "UPDATED_NEW]")


# ReturnValuesOnConditionCheckFailure knows ALL_OLD and NONE only.
def test_return_values_on_condition_check_failure_enum(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET a = :v", values={":v": N(1)},
               ReturnValuesOnConditionCheckFailure="ALL_NEW")
    assert error_of(r) == invalid("1 validation error detected: Value 'ALL_NEW' at "
                                  "'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must "
                                  "satisfy enum value set: [ALL_OLD, NONE]")


# The key must match the schema.
def test_key_not_matching_schema(raw, hash_table, range_table):
    r = raw.call("UpdateItem", {"TableName": hash_table, "Key": {"pk": N(1)}})
    assert r.error_type == "ValidationException"
    r = raw.call("UpdateItem", {"TableName": range_table, "Key": {"pk": S("a")}})
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "One or more parameter values were invalid: Type
# mismatch for key" / "The number of conditions on the keys is invalid".
# Source: dynalite test/updateItem.js "Key does not match schema" (live text).
@pytest.mark.ddblocal_differs
def test_key_not_matching_schema_message(raw, hash_table, range_table):
    r = raw.call("UpdateItem", {"TableName": hash_table, "Key": {"pk": N(1)}})
    assert r.message == "The provided key element does not match the schema"
    r = raw.call("UpdateItem", {"TableName": range_table, "Key": {"pk": S("a")}})
    assert r.message == "The provided key element does not match the schema"


# An unknown table is ResourceNotFoundException.
def test_unknown_table(raw):
    r = raw.call("UpdateItem", {"TableName": "t_" + uuid.uuid4().hex, "Key": {"pk": S("a")},
                                "UpdateExpression": "SET a = :v", "ExpressionAttributeValues": {":v": N(1)}})
    assert r.error_type == "ResourceNotFoundException"


# --- behaviour: upsert ---------------------------------------------------------------------------

# An update of an absent item creates it, with the key attributes.
def test_upsert(raw, hash_table, range_table):
    k = new_key()
    r = update(raw, hash_table, k, "SET a = :v", values={":v": S("x")})
    assert r.status == 200 and r.json == {}
    assert get(raw, hash_table, k) == {"pk": S(k), "a": S("x")}
    r = raw.call("UpdateItem", {"TableName": range_table, "Key": {"pk": S(k), "sk": N(7)},
                                "UpdateExpression": "ADD c :v", "ExpressionAttributeValues": {":v": N(1)}})
    assert r.status == 200
    item = raw.call("GetItem", {"TableName": range_table, "Key": {"pk": S(k), "sk": N(7)},
                                "ConsistentRead": True}).json["Item"]
    assert item == {"pk": S(k), "sk": N(7), "c": N(1)}


# An update without any update creates the bare key item, or leaves an item as it is.
def test_update_without_actions(raw, hash_table):
    k = new_key()
    r = update(raw, hash_table, k)
    assert r.status == 200 and r.json == {}
    assert get(raw, hash_table, k) == {"pk": S(k)}
    put(raw, hash_table, k, a=S("x"))
    assert update(raw, hash_table, k).status == 200
    assert get(raw, hash_table, k) == {"pk": S(k), "a": S("x")}


# An update that only removes from an absent item creates nothing.
# ddblocal_differs: DynamoDB Local creates the bare key item.
# Source: Alternator test_returnvalues.py test_update_item_returnvalues_all_new ("the item is
# not created"), which passes on AWS.
@pytest.mark.ddblocal_differs
def test_remove_only_on_absent_item_creates_nothing(raw, hash_table):
    k = new_key()
    r = update(raw, hash_table, k, "REMOVE b", ReturnValues="ALL_NEW")
    assert r.status == 200 and "Attributes" not in r.json
    assert get(raw, hash_table, k) is None


# A conditional update that fails changes nothing and says "The conditional request failed".
def test_condition_failure_changes_nothing(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a=S("x"))
    r = update(raw, hash_table, k, "SET a = :v", values={":v": S("y"), ":w": S("z")}, ConditionExpression="a = :w")
    assert error_of(r) == (400, "ConditionalCheckFailedException", "The conditional request failed")
    assert get(raw, hash_table, k) == {"pk": S(k), "a": S("x")}
    r = update(raw, hash_table, new_key(), "SET a = :v", values={":v": S("y")},
               ConditionExpression="attribute_exists(pk)")
    assert r.error_type == "ConditionalCheckFailedException"


# ALL_OLD on condition failure puts the old item in the error body as "Item"; NONE and an
# absent item give none.
def test_condition_failure_returns_old_item(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a=S("x"), n=N(1))
    args = dict(values={":v": S("y"), ":w": S("z")}, ConditionExpression="a = :w")
    r = update(raw, hash_table, k, "SET a = :v", ReturnValuesOnConditionCheckFailure="ALL_OLD", **args)
    assert r.error_type == "ConditionalCheckFailedException"
    assert r.json["Item"] == {"pk": S(k), "a": S("x"), "n": N(1)}
    r = update(raw, hash_table, k, "SET a = :v", ReturnValuesOnConditionCheckFailure="NONE", **args)
    assert r.error_type == "ConditionalCheckFailedException" and "Item" not in r.json
    r = update(raw, hash_table, new_key(), "SET a = :v", ReturnValuesOnConditionCheckFailure="ALL_OLD", **args)
    assert r.error_type == "ConditionalCheckFailedException" and "Item" not in r.json


# --- behaviour: ReturnValues ---------------------------------------------------------------------

BEFORE = {"a": S("hi"), "b": S("dog"), "n": N(1)}


@pytest.fixture
def old(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, **BEFORE)
    return k


# NONE (and no ReturnValues) returns an empty object.
def test_return_values_none(raw, hash_table, old):
    r = update(raw, hash_table, old, "SET b = :v", values={":v": S("cat")}, ReturnValues="NONE")
    assert r.status == 200 and r.json == {}


# ALL_OLD returns the whole item before the update; nothing when it did not exist.
def test_return_values_all_old(raw, hash_table, old):
    r = update(raw, hash_table, old, "SET b = :v REMOVE a", values={":v": S("cat")}, ReturnValues="ALL_OLD")
    assert r.json == {"Attributes": {"pk": S(old), **BEFORE}}
    r = update(raw, hash_table, new_key(), "SET b = :v", values={":v": S("cat")}, ReturnValues="ALL_OLD")
    assert r.status == 200 and "Attributes" not in r.json


# ALL_NEW returns the whole item after the update, removed attributes gone, the key included.
def test_return_values_all_new(raw, hash_table, old):
    r = update(raw, hash_table, old, "SET b = :v REMOVE a ADD n :n", values={":v": S("cat"), ":n": N(2)},
               ReturnValues="ALL_NEW")
    assert r.json == {"Attributes": {"pk": S(old), "b": S("cat"), "n": N(3)}}
    k = new_key()
    r = update(raw, hash_table, k, "SET b = :v", values={":v": S("cat")}, ReturnValues="ALL_NEW")
    assert r.json == {"Attributes": {"pk": S(k), "b": S("cat")}}


# UPDATED_OLD returns the old values of the attributes the update wrote or removed and that
# existed; an overwrite with an equal value counts.
def test_return_values_updated_old(raw, hash_table, old):
    r = update(raw, hash_table, old, "SET b = :v, c = :w REMOVE a, zz", values={":v": S("cat"), ":w": S("new")},
               ReturnValues="UPDATED_OLD")
    assert r.json == {"Attributes": {"b": S("dog"), "a": S("hi")}}
    r = update(raw, hash_table, old, "SET b = :v", values={":v": S("cat")}, ReturnValues="UPDATED_OLD")
    assert r.json == {"Attributes": {"b": S("cat")}}
    r = update(raw, hash_table, old, "SET d = :v", values={":v": S("cat")}, ReturnValues="UPDATED_OLD")
    assert r.status == 200 and "Attributes" not in r.json


# UPDATED_NEW returns the new values of the attributes written (not removed ones, not keys).
def test_return_values_updated_new(raw, hash_table, old):
    r = update(raw, hash_table, old, "SET b = :v, c = :w REMOVE a ADD n :n",
               values={":v": S("cat"), ":w": S("new"), ":n": N(5)}, ReturnValues="UPDATED_NEW")
    assert r.json == {"Attributes": {"b": S("cat"), "c": S("new"), "n": N(6)}}
    r = update(raw, hash_table, old, "REMOVE b", ReturnValues="UPDATED_NEW")
    assert r.status == 200 and "Attributes" not in r.json
    k = new_key()
    r = update(raw, hash_table, k, "SET a = :v", values={":v": N(1)}, ReturnValues="UPDATED_NEW")
    assert r.json == {"Attributes": {"a": N(1)}}


# UPDATED_* report a whole set after ADD/DELETE; a set emptied by DELETE is removed.
def test_return_values_sets(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, s={"SS": ["p", "q"]})
    r = update(raw, hash_table, k, "ADD s :v", values={":v": {"SS": ["r"]}}, ReturnValues="UPDATED_NEW")
    assert sorted(r.json["Attributes"]["s"]["SS"]) == ["p", "q", "r"]
    r = update(raw, hash_table, k, "DELETE s :v", values={":v": {"SS": ["p", "q", "r"]}}, ReturnValues="UPDATED_NEW")
    assert r.status == 200 and "Attributes" not in r.json


# For a nested update, ALL_OLD and ALL_NEW still return whole items.
def test_return_values_all_with_nested_paths(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a={"M": {"b": S("dog"), "c": L(N(1), N(2), N(3))}}, d=S("cat"))
    r = update(raw, hash_table, k, "SET a.c[1] = :v", values={":v": N(7)}, ReturnValues="ALL_OLD")
    assert r.json["Attributes"] == {"pk": S(k), "a": {"M": {"b": S("dog"), "c": L(N(1), N(2), N(3))}}, "d": S("cat")}
    r = update(raw, hash_table, k, "SET a.b = :v", values={":v": S("hi")}, ReturnValues="ALL_NEW")
    assert r.json["Attributes"] == {"pk": S(k), "a": {"M": {"b": S("hi"), "c": L(N(1), N(7), N(3))}}, "d": S("cat")}


# UPDATED_OLD and UPDATED_NEW return only the updated nested paths, inside their parents;
# list elements are gathered into a list; a SET beyond the end of a list is not returned,
# and after REMOVE of an element the element that moved into its place is.
# ddblocal_differs: DynamoDB Local returns the whole top-level attribute.
# Source: Alternator test_returnvalues.py test_update_item_returnvalues_nested (passes on AWS);
# dynalite test/updateItem.js "should update nested attributes" (live) shows the same shape.
@pytest.mark.ddblocal_differs
def test_return_values_updated_nested(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a={"M": {"b": S("dog"), "c": L(N(1), N(2), N(3))}}, d=S("cat"))

    def rv(mode, expr, values=None):
        r = update(raw, hash_table, k, expr, values=values, ReturnValues=mode)
        assert r.status == 200, r
        return r.json.get("Attributes")

    assert rv("UPDATED_OLD", "SET a.b = :v", {":v": S("hi")}) == {"a": {"M": {"b": S("dog")}}}
    assert rv("UPDATED_OLD", "SET a.c[1] = :v", {":v": N(7)}) == {"a": {"M": {"c": L(N(2))}}}
    assert rv("UPDATED_OLD", "SET a.c[1] = :v, a.b = :w", {":v": N(8), ":w": S("yo")}) == \
        {"a": {"M": {"b": S("hi"), "c": L(N(7))}}}
    assert rv("UPDATED_NEW", "SET a.c[1] = :v, a.b = :w", {":v": N(3), ":w": S("dog")}) == \
        {"a": {"M": {"b": S("dog"), "c": L(N(3))}}}
    assert rv("UPDATED_OLD", "REMOVE a.c[1], a.c[3]") == {"a": {"M": {"c": L(N(3))}}}
    assert rv("UPDATED_OLD", "SET a.x1 = :v", {":v": N(8)}) is None
    assert rv("UPDATED_NEW", "SET a.x2 = :v", {":v": N(8)}) == {"a": {"M": {"x2": N(8)}}}
    assert rv("UPDATED_NEW", "SET a.c[100] = :v", {":v": N(70)}) is None
    assert rv("UPDATED_NEW", "REMOVE a.c[1]") == {"a": {"M": {"c": L(N(70))}}}


# --- behaviour: numbers after arithmetic ---------------------------------------------------------

# Results are exact decimals of up to 38 digits.
def test_arithmetic_is_exact(raw, hash_table):
    k = new_key()
    for expr, values, want in [
        ("SET n = :a + :b", {":a": N("0.1"), ":b": N("0.2")}, "0.3"),
        ("SET n = :a - :b", {":a": N("1e22"), ":b": N(1)}, "9999999999999999999999"),
        ("SET n = :a + :b", {":a": N("1e-130"), ":b": N("-1e-130")}, "0"),
        ("SET n = :a + :b", {":a": N("1234567890123456789012345678901234567"), ":b": N("0.5")},
         "1234567890123456789012345678901234567.5"),
    ]:
        r = update(raw, hash_table, k, expr, values=values, ReturnValues="UPDATED_NEW")
        assert r.status == 200, r
        assert Decimal(r.json["Attributes"]["n"]["N"]) == Decimal(want)
        assert Decimal(get(raw, hash_table, k)["n"]["N"]) == Decimal(want)


# Stored results come back canonical like written numbers: no trailing zeros, "0" for zero.
# ddblocal_differs: DynamoDB Local keeps the scale of the operands ("0.00", "1.60").
# Source: AWS developer guide "Supported data types" ("Leading and trailing zeroes are
# trimmed"); test_put_item.py test_numbers_come_back_canonical.
@pytest.mark.ddblocal_differs
def test_arithmetic_result_is_canonical(raw, hash_table):
    k = new_key()
    for expr, values, want in [("SET n = :a - :b", {":a": N("1"), ":b": N("1.00")}, "0"),
                               ("SET n = :a", {":a": N("0.10")}, "0.1"),
                               ("ADD n :a", {":a": N("1.50")}, "1.6")]:
        r = update(raw, hash_table, k, expr, values=values, ReturnValues="UPDATED_NEW")
        assert r.json["Attributes"]["n"] == N(want)
        assert get(raw, hash_table, k)["n"] == N(want)


# A result beyond the magnitude range fails, also through ADD; the item is unchanged.
@pytest.mark.parametrize("expr,values,msg", [
    ("SET n = :a + :b", {":a": N("9e125"), ":b": N("9e125")},
     "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("SET n = :a - :b", {":a": N("-9e125"), ":b": N("9e125")},
     "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("SET n = :a - :b", {":a": N("2e-130"), ":b": N("1.5e-130")},
     "Number underflow. Attempting to store a number with magnitude smaller than supported range"),
])
def test_arithmetic_out_of_range(raw, hash_table, expr, values, msg):
    k = new_key()
    put(raw, hash_table, k, n=N(1))
    r = update(raw, hash_table, k, expr, values=values)
    assert error_of(r) == invalid(msg)
    assert get(raw, hash_table, k) == {"pk": S(k), "n": N(1)}


# A result that needs more than 38 significant digits fails.
@pytest.mark.parametrize("expr,values", [
    ("SET n = :a + :b", {":a": N("1e50"), ":b": N(1)}),
    ("SET n = :a - :b", {":a": N("1e50"), ":b": N(1)}),
    ("SET n = :a + :b", {":a": N("12345678901234567890123456789012345678"), ":b": N("0.5")}),
    ("ADD n :a", {":a": N("9e125")}),
])
def test_arithmetic_too_precise(raw, hash_table, expr, values):
    k = new_key()
    put(raw, hash_table, k, n=N(5))
    r = update(raw, hash_table, k, expr, values=values)
    assert r.status == 400 and r.error_type == "ValidationException"
    assert get(raw, hash_table, k)["n"] == N(5)


# ddblocal_differs: DynamoDB Local says "DynamoDB only supports precision up to 38 digits".
# Source: Alternator test_number.py test_update_expression_plus_imprecise records that AWS
# reports this case as "Number overflow. Attempting to store a number with magnitude larger
# than supported range".
@pytest.mark.ddblocal_differs
def test_arithmetic_too_precise_message(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET n = :a + :b", values={":a": N("1e50"), ":b": N(1)})
    assert r.message == "Number overflow. Attempting to store a number with magnitude larger than supported range"


# --- behaviour: item size after the update -------------------------------------------------------

# The 400 KB limit applies to the item the update would produce, however it grows.
@pytest.mark.parametrize("expr,values", [
    ("SET b = :v", {":v": S("y" * 200000)}),
    ("SET b = a", None),
    ("SET b = list_append(:l, :l)", {":l": L(S("y" * 60000))}),
    ("ADD s :v", {":v": {"SS": ["y" * 60000, "z" * 60000]}}),
])
def test_item_too_large_after_update(raw, hash_table, expr, values):
    k = new_key()
    put(raw, hash_table, k, a=S("x" * 300000))
    r = update(raw, hash_table, k, expr, values=values)
    assert error_of(r) == invalid("Item size to update has exceeded the maximum allowed size")
    assert set(get(raw, hash_table, k)) == {"pk", "a"}


# An update may make an item exactly 400 KB (names plus values), not one byte more.
def test_item_size_limit_exact(raw, hash_table):
    k = new_key().ljust(40, "k")  # item = "pk"(2) + key(40) + "x"(1) + value
    r = update(raw, hash_table, k, "SET x = :v", values={":v": S("v" * (409600 - 43))})
    assert r.status == 200, r
    r = update(raw, hash_table, k, "SET x = :v", values={":v": S("v" * (409601 - 43))})
    assert error_of(r) == invalid("Item size to update has exceeded the maximum allowed size")
