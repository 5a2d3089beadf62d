"""The legacy (pre-expression) parameters: Expected with ConditionalOperator, AttributesToGet,
AttributeUpdates, KeyConditions, QueryFilter and ScanFilter, and the rules against mixing them
with expression parameters.

Sources for the real service: dynalite test/updateItem.js, test/query.js and test/scan.js (live
texts), Alternator test/alternator/test_expected.py, test_key_conditions.py,
test_query_filter.py and test_item.py (run against AWS); where DynamoDB Local differs the test
is marked ddblocal_differs.
"""
import pytest

from conftest import B, error_of, invalid, N, new_key, S


def C(op, *values):
    return {"ComparisonOperator": op, "AttributeValueList": list(values)}


ITEM = {"a": S("hello"), "n": N(5), "b": B("Y2F0"), "ss": {"SS": ["x", "y"]}, "l": {"L": [S("x"), N(1)]},
        "z": {"NULL": True}}


@pytest.fixture(scope="module")
def stored(raw, hash_table):
    k = new_key()
    assert raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), **ITEM}}).status == 200
    return k


@pytest.fixture
def expect(raw, hash_table, stored):
    """Evaluates Expected (and ConditionalOperator) against the stored item: True, False or the reply."""
    def run(expected, **kw):
        r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(stored), **ITEM}, "Expected": expected,
                                 **kw})
        if r.status == 200:
            return True
        if r.error_type == "ConditionalCheckFailedException":
            return False
        return r
    return run


def update(raw, table, key, updates, **kw):
    return raw.call("UpdateItem", {"TableName": table, "Key": {"pk": S(key)}, "AttributeUpdates": updates, **kw})


def get(raw, table, key, **kw):
    r = raw.call("GetItem", {"TableName": table, "Key": {"pk": S(key)}, "ConsistentRead": True, **kw})
    return r.json.get("Item")


MIX = "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: " \
      "{{{}}} Expression parameters: {{{}}}"


# --- Expected: validation ------------------------------------------------------------------------

# Malformed Expected entries, each with its text.
@pytest.mark.parametrize("cond,msg", [
    ({}, "Value must be provided when Exists is null for Attribute: a"),
    ({"Exists": True}, "Value must be provided when Exists is true for Attribute: a"),
    ({"Exists": False, "Value": S("x")}, "Value cannot be used when Exists is false for Attribute: a"),
    ({"ComparisonOperator": "EQ", "Value": S("x"), "AttributeValueList": [S("x")]},
     "Value and AttributeValueList cannot be used together for Attribute: a"),
    ({"Exists": False, "ComparisonOperator": "NULL"}, "Exists and ComparisonOperator cannot be used together for "
                                                      "Attribute: a"),
    ({"ComparisonOperator": "GT"}, "Value or AttributeValueList must be used with ComparisonOperator: GT for "
                                   "Attribute: a"),
    (C("EQ"), "Invalid number of argument(s) for the EQ ComparisonOperator"),
    (C("GT", N(6), N(7)), "Invalid number of argument(s) for the GT ComparisonOperator"),
    (C("NULL", S("x")), "Invalid number of argument(s) for the NULL ComparisonOperator"),
    (C("BETWEEN", N(1)), "Invalid number of argument(s) for the BETWEEN ComparisonOperator"),
    (C("GT", {"BOOL": True}), "ComparisonOperator GT is not valid for BOOL AttributeValue type"),
    (C("LT", {"SS": ["a"]}), "ComparisonOperator LT is not valid for SS AttributeValue type"),
    (C("CONTAINS", {"SS": ["a"]}), "ComparisonOperator CONTAINS is not valid for SS AttributeValue type"),
    (C("BEGINS_WITH", N(1)), "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"),
    (C("IN", N(5), S("x")), "AttributeValues inside AttributeValueList must be of same type"),
])
def test_expected_invalid(expect, cond, msg):
    assert error_of(expect({"a": cond})) == invalid("One or more parameter values were invalid: " + msg)


# BETWEEN bounds must be ordered (a text of its own, without the usual prefix).
def test_expected_between_bounds(expect):
    r = expect({"n": C("BETWEEN", N(6), N(1))})
    assert error_of(r) == invalid("The BETWEEN condition was provided a range where the lower bound is greater than "
                                  "the upper bound")


# ConditionalOperator needs at least two conditions.
def test_conditional_operator_needs_two(raw, hash_table, expect):
    r = expect({"a": {"Value": S("hello")}}, ConditionalOperator="AND")
    assert error_of(r) == invalid("ConditionalOperator can only be used when Filter or Expected has two or more "
                                  "elements")
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(new_key())}, "ConditionalOperator": "OR"})
    assert error_of(r) == invalid("ConditionalOperator cannot be used without Filter or Expected")


# Expected does not mix with ConditionExpression nor with the expression maps.
def test_expected_mixing(raw, hash_table, expect):
    r = expect({"a": {"Value": S("hello")}}, ConditionExpression="attribute_exists(a)")
    assert error_of(r) == invalid(MIX.format("Expected", "ConditionExpression"))
    r = expect({"a": {"Value": S("hello")}}, ExpressionAttributeValues={":v": S("x")})
    assert error_of(r) == invalid("ExpressionAttributeValues can only be specified when using expressions: "
                                  "ConditionExpression is null")
    r = expect({"a": {"Value": S("hello")}}, ExpressionAttributeNames={"#v": "x"})
    assert error_of(r) == invalid("ExpressionAttributeNames can only be specified when using expressions")
    r = raw.call("UpdateItem", {"TableName": hash_table, "Key": {"pk": S(new_key())}, "UpdateExpression": "SET a = :v",
                                "ExpressionAttributeValues": {":v": N(1)}, "Expected": {"a": {"Exists": False}}})
    assert error_of(r) == invalid(MIX.format("Expected", "UpdateExpression"))


# --- Expected: behaviour -------------------------------------------------------------------------

EXPECTED = [
    ({"a": {"Value": S("hello")}}, True), ({"a": {"Value": S("nope")}}, False),
    ({"a": {"Value": S("hello"), "Exists": True}}, True), ({"a": {"Exists": False}}, False),
    ({"zz": {"Exists": False}}, True), ({"n": {"Value": N("5.0")}}, True), ({"n": {"Value": S("5")}}, False),
    ({"n": {"ComparisonOperator": "GT", "Value": N(4)}}, True),
    ({"n": C("EQ", N(5))}, True), ({"n": C("EQ", S("5"))}, False), ({"ss": C("EQ", {"SS": ["y", "x"]})}, True),
    ({"n": C("NE", N(5))}, False), ({"n": C("NE", S("5"))}, True), ({"zz": C("NE", S("x"))}, True),
    ({"n": C("LT", N(6))}, True), ({"n": C("LE", N(5))}, True), ({"n": C("GT", N(5))}, False),
    ({"n": C("GE", N(5))}, True), ({"a": C("LT", S("z"))}, True), ({"b": C("LT", B("ZG9n"))}, True),
    ({"a": C("LT", N(1))}, False), ({"a": C("GT", N(1))}, False),
    ({"n": C("NOT_NULL")}, True), ({"z": C("NOT_NULL")}, True), ({"zz": C("NOT_NULL")}, False),
    ({"zz": C("NULL")}, True), ({"z": C("NULL")}, False),
    ({"a": C("CONTAINS", S("ell"))}, True), ({"ss": C("CONTAINS", S("x"))}, True), ({"l": C("CONTAINS", N(1))}, True),
    ({"a": C("NOT_CONTAINS", S("ell"))}, False), ({"ss": C("NOT_CONTAINS", S("q"))}, True),
    ({"a": C("BEGINS_WITH", S("hel"))}, True), ({"b": C("BEGINS_WITH", B("Y2E="))}, True),
    ({"n": C("IN", N(1), N(5))}, True), ({"n": C("IN", N(1), N(2))}, False),
    ({"n": C("BETWEEN", N(1), N(5))}, True), ({"n": C("BETWEEN", N(6), N(9))}, False),
]


# Each comparison operator, with type mismatches false rather than errors.
@pytest.mark.parametrize("expected,want", EXPECTED, ids=[str(e) for e, _ in EXPECTED])
def test_expected(expect, expected, want):
    assert expect(expected) is want


# Several conditions are ANDed by default; ConditionalOperator OR makes one enough.
def test_conditional_operator(expect):
    both = {"a": C("EQ", S("nope")), "zz": {"Exists": False}}
    assert expect(both) is False
    assert expect(both, ConditionalOperator="AND") is False
    assert expect(both, ConditionalOperator="OR") is True
    assert expect({"a": C("EQ", S("hello")), "zz": {"Exists": False}}) is True


# An attribute name in Expected is a plain name: dots are part of it.
def test_expected_names_are_literal(expect):
    assert expect({"l.x": {"Exists": False}}) is True


# Expected works on DeleteItem and UpdateItem the same way, and a failure changes nothing.
def test_expected_on_delete_and_update(raw, hash_table):
    k = new_key()
    raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), "n": N(1)}})
    r = raw.call("DeleteItem", {"TableName": hash_table, "Key": {"pk": S(k)}, "Expected": {"n": {"Value": N(2)}}})
    assert error_of(r) == (400, "ConditionalCheckFailedException", "The conditional request failed")
    r = update(raw, hash_table, k, {"n": {"Action": "PUT", "Value": N(3)}}, Expected={"n": {"Value": N(1)}})
    assert r.status == 200
    assert get(raw, hash_table, k)["n"] == N(3)
    assert raw.call("DeleteItem", {"TableName": hash_table, "Key": {"pk": S(k)},
                                   "Expected": {"n": {"Value": N(3)}}}).status == 200


# --- AttributesToGet -----------------------------------------------------------------------------

# AttributesToGet returns the listed top-level attributes that exist, keys only when listed.
def test_attributes_to_get(raw, hash_table, stored):
    assert get(raw, hash_table, stored, AttributesToGet=["a", "zz", "pk"]) == {"a": S("hello"), "pk": S(stored)}
    assert get(raw, hash_table, stored, AttributesToGet=["l.x"]) == {}


# Listing a name twice is rejected.
def test_attributes_to_get_duplicates(raw, hash_table, stored):
    r = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": S(stored)}, "AttributesToGet": ["a", "a"]})
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Cannot have two attributes with the same name".
# Source: dynalite test/query.js and test/scan.js "duplicate values in AttributesToGet" (live).
@pytest.mark.ddblocal_differs
def test_attributes_to_get_duplicates_message(raw, hash_table, stored):
    r = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": S(stored)}, "AttributesToGet": ["a", "a"]})
    assert r.message == "One or more parameter values were invalid: Duplicate value in attribute name: a"


# An empty list is a model constraint violation.
# ddblocal_differs: DynamoDB Local accepts it and returns the whole item.
# Source: dynalite test/query.js and test/scan.js "incorrect attributes" (live constraint text).
@pytest.mark.ddblocal_differs
def test_attributes_to_get_empty(raw, hash_table, stored):
    r = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": S(stored)}, "AttributesToGet": []})
    assert error_of(r) == invalid("1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy "
                                  "constraint: Member must have length greater than or equal to 1")


# In Query, AttributesToGet goes with Select SPECIFIC_ATTRIBUTES (or none), not with COUNT
# or ALL_ATTRIBUTES, and not with expressions.
def test_attributes_to_get_in_query(raw, range_table):
    p = new_key()
    for i in range(3):
        raw.call("PutItem", {"TableName": range_table, "Item": {"pk": S(p), "sk": N(i), "v": N(i * 10), "w": N(0)}})
    base = {"TableName": range_table, "KeyConditions": {"pk": C("EQ", S(p))}, "AttributesToGet": ["v"]}
    r = raw.call("Query", base)
    assert r.json["Items"] == [{"v": N(0)}, {"v": N(10)}, {"v": N(20)}]
    assert raw.call("Query", {**base, "Select": "SPECIFIC_ATTRIBUTES"}).json["Items"] == r.json["Items"]
    r = raw.call("Query", {**base, "Select": "COUNT"})  # (a prefix as for ProjectionExpression is possible)
    assert r.error_type == "ValidationException"
    assert r.message.endswith("Cannot specify the AttributesToGet when choosing to get only the Count")
    r = raw.call("Query", {**base, "Select": "ALL_ATTRIBUTES"})
    assert r.error_type == "ValidationException"
    assert r.message.endswith("Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES")
    r = raw.call("Query", {"TableName": range_table, "KeyConditionExpression": "pk = :p",
                           "ExpressionAttributeValues": {":p": S(p)}, "AttributesToGet": ["v"]})
    assert error_of(r) == invalid(MIX.format("AttributesToGet", "KeyConditionExpression"))


# --- AttributeUpdates ----------------------------------------------------------------------------

# PUT sets, DELETE without a value removes, ADD adds numbers, unites sets and appends lists.
def test_attribute_updates(raw, hash_table):
    k = new_key()
    raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), "a": S("x"), "n": N(1), "s": {"SS": ["p"]},
                                                           "l": {"L": [S("a")]}, "gone": S("x")}})
    r = update(raw, hash_table, k, {"a": {"Action": "PUT", "Value": S("y")}, "gone": {"Action": "DELETE"},
                                    "n": {"Action": "ADD", "Value": N(2)},
                                    "s": {"Action": "ADD", "Value": {"SS": ["q"]}},
                                    "l": {"Action": "ADD", "Value": {"L": [S("b")]}},
                                    "new": {"Action": "ADD", "Value": N(7)}}, ReturnValues="UPDATED_NEW")
    assert r.status == 200, r
    got = r.json["Attributes"]
    assert sorted(got["s"]["SS"]) == ["p", "q"]
    assert {k2: v for k2, v in got.items() if k2 != "s"} == {"a": S("y"), "n": N(3), "l": {"L": [S("a"), S("b")]},
                                                           "new": N(7)}
    assert "gone" not in get(raw, hash_table, k)


# DELETE with a set removes members; an emptied set disappears; absent attributes are fine.
def test_attribute_updates_delete_from_set(raw, hash_table):
    k = new_key()
    raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), "s": {"SS": ["p", "q"]}, "t": {"NS": ["1"]}}})
    r = update(raw, hash_table, k, {"s": {"Action": "DELETE", "Value": {"SS": ["p", "x"]}},
                                    "t": {"Action": "DELETE", "Value": {"NS": ["1"]}},
                                    "u": {"Action": "DELETE", "Value": {"SS": ["p"]}}})
    assert r.status == 200, r
    assert get(raw, hash_table, k) == {"pk": S(k), "s": {"SS": ["q"]}}


# Names in AttributeUpdates are literal, dots included; an empty AttributeUpdates creates the
# bare key item.
def test_attribute_updates_literal_names_and_empty(raw, hash_table):
    k = new_key()
    assert update(raw, hash_table, k, {"a.b": {"Action": "PUT", "Value": S("q")}}).status == 200
    assert get(raw, hash_table, k) == {"pk": S(k), "a.b": S("q")}
    k = new_key()
    r = update(raw, hash_table, k, {}, ReturnValues="ALL_NEW")
    assert r.json == {"Attributes": {"pk": S(k)}}


# Without Action an update is a PUT.
# ddblocal_differs: DynamoDB Local ignores such entries.
# Source: AWS API reference AttributeValueUpdate ("Action ... PUT - (default)"); dynalite
# test/updateItem.js uses Action-less updates throughout (live).
@pytest.mark.ddblocal_differs
def test_attribute_updates_default_action(raw, hash_table):
    k = new_key()
    assert update(raw, hash_table, k, {"b": {"Value": S("x")}}).status == 200
    assert get(raw, hash_table, k) == {"pk": S(k), "b": S("x")}


# An update without a value must be a DELETE; key attributes are protected.
@pytest.mark.parametrize("updates,msg", [
    ({"a": {"Action": "PUT"}}, "One or more parameter values were invalid: Only DELETE action is allowed when no "
                               "attribute value is specified"),
    ({"pk": {"Action": "PUT", "Value": S("z")}}, "One or more parameter values were invalid: Cannot update attribute "
                                                  "pk. This attribute is part of the key"),
])
def test_attribute_updates_invalid(raw, hash_table, updates, msg):
    assert error_of(update(raw, hash_table, new_key(), updates)) == invalid(msg)


# ADD takes numbers, sets and lists; DELETE with a value takes sets.
@pytest.mark.parametrize("action,value", [("ADD", S("x")), ("ADD", {"BOOL": True}), ("ADD", {"M": {}}),
                                          ("DELETE", S("x")), ("DELETE", N(1)), ("DELETE", {"L": []})])
def test_attribute_updates_action_type(raw, hash_table, action, value):
    r = update(raw, hash_table, new_key(), {"a": {"Action": action, "Value": value}})
    assert r.error_type == "ValidationException"
    assert r.message.startswith(f"One or more parameter values were invalid: {action} action ")


# ddblocal_differs: DynamoDB Local spells the type out ("for the type STRING").
# Source: dynalite test/updateItem.js "trying to add/delete incorrect types" (live texts).
@pytest.mark.ddblocal_differs
def test_attribute_updates_action_type_message(raw, hash_table):
    r = update(raw, hash_table, new_key(), {"a": {"Action": "ADD", "Value": S("x")}})
    assert r.message == "One or more parameter values were invalid: ADD action is not supported for the type S"
    r = update(raw, hash_table, new_key(), {"a": {"Action": "DELETE", "Value": N(1)}})
    assert r.message == ("One or more parameter values were invalid: DELETE action with value is not supported for "
                         "the type N")


# A stored attribute of another type cannot be added to or deleted from.
@pytest.mark.parametrize("updates", [{"s": {"Action": "ADD", "Value": N(1)}},
                                     {"n": {"Action": "ADD", "Value": {"SS": ["q"]}}},
                                     {"s": {"Action": "DELETE", "Value": {"SS": ["q"]}}},
                                     {"ns": {"Action": "DELETE", "Value": {"SS": ["1"]}}}])
def test_attribute_updates_type_mismatch(raw, hash_table, updates):
    k = new_key()
    raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), "s": S("x"), "n": N(1), "ns": {"NS": ["1"]}}})
    assert error_of(update(raw, hash_table, k, updates)) == invalid("Type mismatch for attribute to update")


# AttributeUpdates does not mix with UpdateExpression or ConditionExpression.
def test_attribute_updates_mixing(raw, hash_table):
    put_b = {"b": {"Action": "PUT", "Value": S("z")}}
    r = update(raw, hash_table, new_key(), put_b, UpdateExpression="SET c = :v",
               ExpressionAttributeValues={":v": S("q")})
    assert error_of(r) == invalid(MIX.format("AttributeUpdates", "UpdateExpression"))
    r = update(raw, hash_table, new_key(), put_b, ConditionExpression="attribute_exists(a)")
    assert error_of(r) == invalid(MIX.format("AttributeUpdates", "ConditionExpression"))


# --- KeyConditions -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def part(raw, range_table):
    p = new_key()
    for i in range(6):
        item = {"pk": S(p), "sk": N(i), "v": N(i * 10)}
        if i % 2:
            item["odd"] = {"BOOL": True}
        assert raw.call("PutItem", {"TableName": range_table, "Item": item}).status == 200
    return p


def kc_query(raw, table, p, sk=None, **kw):
    conds = {"pk": C("EQ", S(p))}
    if sk:
        conds["sk"] = sk
    return raw.call("Query", {"TableName": table, "KeyConditions": conds, **kw})


def sks(r):
    assert r.status == 200, r
    return [int(i["sk"]["N"]) for i in r.json["Items"]]


# Each sort-key operator of KeyConditions.
@pytest.mark.parametrize("cond,want", [
    (None, [0, 1, 2, 3, 4, 5]), (C("EQ", N(2)), [2]), (C("LT", N(2)), [0, 1]), (C("LE", N(2)), [0, 1, 2]),
    (C("GT", N(3)), [4, 5]), (C("GE", N(3)), [3, 4, 5]), (C("BETWEEN", N(1), N(3)), [1, 2, 3]),
])
def test_key_conditions(raw, range_table, part, cond, want):
    assert sks(kc_query(raw, range_table, part, cond)) == want


# BEGINS_WITH on a string sort key.
def test_key_conditions_begins_with(raw, range_s_table):
    p = new_key()
    for s in ("aa", "ab", "b"):
        raw.call("PutItem", {"TableName": range_s_table, "Item": {"pk": S(p), "sk": S(s)}})
    r = kc_query(raw, range_s_table, p, C("BEGINS_WITH", S("a")))
    assert [i["sk"]["S"] for i in r.json["Items"]] == ["aa", "ab"]


# Misused KeyConditions, each with its text.
@pytest.mark.parametrize("conds,msg", [
    ({"pk": C("GT", S("a"))}, "Query key condition not supported"),
    ({"pk": C("EQ", S("a")), "sk": C("EQ", N(1)), "v": C("EQ", N(1))}, "Conditions can be of length 1 or 2 only"),
    ({"pk": C("EQ", S("a")), "sk": C("EQ", S("1"))},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ({"pk": C("EQ", S("a")), "sk": C("BEGINS_WITH", N(1))},
     "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue "
     "type"),
])
def test_key_conditions_invalid(raw, range_table, conds, msg):
    r = raw.call("Query", {"TableName": range_table, "KeyConditions": conds})
    assert error_of(r) == invalid(msg)


# The hash key must be in the conditions.
def test_key_conditions_missing_hash(raw, range_table):
    r = raw.call("Query", {"TableName": range_table, "KeyConditions": {"sk": C("EQ", N(1))}})
    assert r.error_type == "ValidationException"
    assert r.message.startswith("Query condition missed key schema element")


# Operators that cannot use the key order are rejected.
@pytest.mark.parametrize("cond", [C("CONTAINS", N(1)), C("IN", N(1))])
def test_key_conditions_not_indexable(raw, range_table, cond):
    r = raw.call("Query", {"TableName": range_table, "KeyConditions": {"pk": C("EQ", S("a")), "sk": cond}})
    assert error_of(r) == invalid("Attempted conditional constraint is not an indexable operation")


# ddblocal_differs: DynamoDB Local fails with HTTP 500 for NE and says "Only scalar types can
# be used as Range Key values" for NULL and NOT_NULL.
# Source: dynalite test/query.js "querying with NULL/NOT_NULL" and "unsupported comparison"
# (live text).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("cond", [C("NE", N(1)), C("NULL"), C("NOT_NULL")])
def test_key_conditions_not_indexable_ne_null(raw, range_table, cond):
    r = raw.call("Query", {"TableName": range_table, "KeyConditions": {"pk": C("EQ", S("a")), "sk": cond}})
    assert error_of(r) == invalid("Attempted conditional constraint is not an indexable operation")


# ddblocal_differs: DynamoDB Local says "Conditions must be at least length 1".
# Source: dynalite test/query.js "empty conditions" (live text).
@pytest.mark.ddblocal_differs
def test_key_conditions_empty(raw, range_table):
    r = raw.call("Query", {"TableName": range_table, "KeyConditions": {}})
    assert error_of(r) == invalid("Conditions can be of length 1 or 2 only")


# --- QueryFilter and ScanFilter ------------------------------------------------------------------

# QueryFilter filters non-key attributes, ANDed unless ConditionalOperator is OR.
def test_query_filter(raw, range_table, part):
    r = kc_query(raw, range_table, part, QueryFilter={"v": C("GE", N(20))})
    assert sks(r) == [2, 3, 4, 5] and r.json["ScannedCount"] == 6
    r = kc_query(raw, range_table, part, QueryFilter={"v": C("GE", N(20)), "odd": C("NOT_NULL")})
    assert sks(r) == [3, 5]
    r = kc_query(raw, range_table, part, QueryFilter={"v": C("LT", N(20)), "odd": C("NOT_NULL")},
                 ConditionalOperator="OR")
    assert sks(r) == [0, 1, 3, 5]


# QueryFilter may not use key attributes.
def test_query_filter_on_key(raw, range_table, part):
    r = kc_query(raw, range_table, part, QueryFilter={"sk": C("GE", N(2))})
    assert error_of(r) == invalid("QueryFilter can only contain non-primary key attributes: Primary key attribute: sk")


# QueryFilter does not mix with expressions.
def test_query_filter_mixing(raw, range_table, part):
    r = raw.call("Query", {"TableName": range_table, "KeyConditionExpression": "pk = :p",
                           "ExpressionAttributeValues": {":p": S(part)}, "QueryFilter": {"v": C("GE", N(20))}})
    assert error_of(r) == invalid(MIX.format("QueryFilter", "KeyConditionExpression"))


# ScanFilter may use key attributes and combines like QueryFilter.
def test_scan_filter(raw, module_table):
    table = module_table()
    for i in range(8):
        raw.call("PutItem", {"TableName": table, "Item": {"pk": S(f"i{i}"), "v": N(i)}})
    r = raw.call("Scan", {"TableName": table, "ScanFilter": {"v": C("IN", N(2), N(3)), "pk": C("NE", S("i2"))}})
    assert [i["pk"]["S"] for i in r.json["Items"]] == ["i3"] and r.json["ScannedCount"] == 8
    r = raw.call("Scan", {"TableName": table, "ScanFilter": {"v": C("IN", N(2), N(3)), "pk": C("EQ", S("i7"))},
                          "ConditionalOperator": "OR", "Select": "COUNT"})
    assert r.json["Count"] == 3
    r = raw.call("Scan", {"TableName": table, "ScanFilter": {"v": C("GT", N(1))}, "FilterExpression": "v > :v",
                          "ExpressionAttributeValues": {":v": N(1)}})
    assert error_of(r) == invalid(MIX.format("ScanFilter", "FilterExpression"))
    r = raw.call("Scan", {"TableName": table, "ScanFilter": {"v": C("CONTAINS", {"SS": ["a"]})}})
    assert error_of(r) == invalid("One or more parameter values were invalid: ComparisonOperator CONTAINS is not valid "
                                  "for SS AttributeValue type")


# Mixing expression and legacy parameters is reported before the item's or key's values are
# checked: an empty value, NULL: false or two datatypes lose to it (dynalite validations
# putItem.js / updateItem.js / deleteItem.js / getItem.js call validateExpressionParams
# first; DynamoDB Local agrees).
MIXED = "Can not use both expression and non-expression parameters in the same request"


@pytest.mark.parametrize("value", [{}, {"NULL": False}, {"S": "a", "N": "1"}],
                         ids=["empty", "null_false", "two_types"])
@pytest.mark.parametrize("op", ["PutItem", "DeleteItem", "UpdateItem", "GetItem"])
def test_mixed_parameters_win_over_bad_values(raw, hash_table, op, value):
    body = {"TableName": hash_table}
    if op == "PutItem":
        body.update(Item={"pk": S(new_key()), "a": value}, ConditionExpression="attribute_exists(pk)",
                    Expected={"pk": {"Exists": False}})
    elif op == "GetItem":
        body.update(Key={"pk": value}, ProjectionExpression="a", AttributesToGet=["a"])
    elif op == "UpdateItem":
        body.update(Key={"pk": value}, UpdateExpression="SET a = :v",
                    AttributeUpdates={"b": {"Action": "DELETE"}}, ExpressionAttributeValues={":v": N(1)})
    else:
        body.update(Key={"pk": value}, ConditionExpression="attribute_exists(pk)",
                    Expected={"pk": {"Exists": False}})
    r = raw.call(op, body)
    assert r.status == 400, r
    assert r.error_type == "ValidationException"
    assert r.message.startswith(MIXED), r
