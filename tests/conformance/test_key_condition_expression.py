"""KeyConditionExpression of Query: the operators on the sort key for number, string and binary
keys, and every misuse with DynamoDB's text.

Each key type has one partition written once per module in the shared range tables. Paging,
Select, Limit and the rest of Query are in test_query.py. Texts are DynamoDB Local's;
Alternator test/alternator/test_key_condition_expression.py (run against AWS) agrees on which
cases are errors, and a live CLI transcript quoted in the ddblocal_differs test below gives the
one text DynamoDB Local shortens.
"""
import base64

import pytest

from conftest import error_of, invalid, N, new_key, S


def B(b):
    return {"B": base64.b64encode(b).decode()}


def query(raw, table, kce, values=None, names=None, **kw):
    body = dict(TableName=table, KeyConditionExpression=kce, **kw)
    if values is not None:
        body["ExpressionAttributeValues"] = values
    if names is not None:
        body["ExpressionAttributeNames"] = names
    return raw.call("Query", body)


def sort_keys(reply):
    assert reply.status == 200, reply
    return [list(i["sk"].values())[0] for i in reply.json["Items"]]


NUMS = [-10, -1.5, 0, 1, 2, 3, 4, 5, 7, 10, 11, 100]
STRS = ["a", "aa", "aab", "ab", "abc", "b", "B", "10", "2", "é", "z"]
BYTES = [b"\x00", b"\x7e", b"\x7f", b"\x7f\x00", b"\x80", b"\x81", b"\xff"]


@pytest.fixture(scope="module")
def num_part(raw, range_table):
    p = new_key()
    for n in NUMS:
        assert raw.call("PutItem", {"TableName": range_table, "Item": {"pk": S(p), "sk": N(n)}}).status == 200
    # a neighbour partition that must never show up
    raw.call("PutItem", {"TableName": range_table, "Item": {"pk": S(p + "x"), "sk": N(1)}})
    return p


@pytest.fixture(scope="module")
def str_part(raw, range_s_table):
    p = new_key()
    for s in STRS:
        assert raw.call("PutItem", {"TableName": range_s_table, "Item": {"pk": S(p), "sk": S(s)}}).status == 200
    return p


@pytest.fixture(scope="module")
def bin_part(raw, range_b_table):
    p = new_key()
    for b in BYTES:
        assert raw.call("PutItem", {"TableName": range_b_table, "Item": {"pk": S(p), "sk": B(b)}}).status == 200
    return p


def nums(xs):
    return [str(x) for x in xs]


# --- validation ----------------------------------------------------------------------------------

# A Query needs a key condition, in one of the two forms, not both.
def test_no_key_condition(raw, range_table):
    r = raw.call("Query", {"TableName": range_table})
    assert error_of(r) == invalid("Either the KeyConditions or KeyConditionExpression parameter must be specified "
                                  "in the request.")


# KeyConditions and KeyConditionExpression exclude each other.
def test_both_key_condition_forms(raw, range_table):
    r = query(raw, range_table, "pk = :p", {":p": S("a")},
              KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("a")]}})
    assert error_of(r) == invalid("Can not use both expression and non-expression parameters in the same request: "
                                  "Non-expression parameters: {KeyConditions} Expression parameters: "
                                  "{KeyConditionExpression}")


# An empty key condition has its own text.
def test_empty_expression(raw, range_table):
    r = query(raw, range_table, "")
    assert error_of(r) == invalid("Invalid KeyConditionExpression: The expression can not be empty;")


# The partition key must be compared with "=".
@pytest.mark.parametrize("kce", ["pk < :p", "pk >= :p", "pk BETWEEN :p AND :p", "begins_with(pk, :p)"])
def test_partition_key_needs_equality(raw, range_table, kce):
    assert error_of(query(raw, range_table, kce, {":p": S("a")})) == invalid("Query key condition not supported")


# The partition key must be there; a condition on a non-key attribute does not count.
@pytest.mark.parametrize("kce,values", [("sk = :s", {":s": N(1)}), ("v = :s", {":s": N(1)}),
                                        ("pk = :p AND v = :s", {":p": S("a"), ":s": N(1)})])
def test_missing_key_element(raw, range_table, kce, values):
    r = query(raw, range_table, kce, values)
    assert r.error_type == "ValidationException"
    assert r.message.startswith("Query condition missed key schema element")


# ddblocal_differs: DynamoDB Local stops after "element".
# Source: AWS CLI transcript of a live Query, "Query condition missed key schema element: id"
# (a public blog post; moto's tests record the same form).
@pytest.mark.ddblocal_differs
def test_missing_key_element_message(raw, range_table):
    assert query(raw, range_table, "sk = :s", {":s": N(1)}).message == "Query condition missed key schema element: pk"
    r = query(raw, range_table, "pk = :p AND v = :s", {":p": S("a"), ":s": N(1)})
    assert r.message == "Query condition missed key schema element: sk"


# Each key appears once, and there are at most two conditions.
@pytest.mark.parametrize("kce", ["pk = :p AND pk = :p", "pk = :p AND sk > :s AND sk < :s"])
def test_one_condition_per_key(raw, range_table, kce):
    r = query(raw, range_table, kce, {":p": S("a"), ":s": N(1)} if ":s" in kce else {":p": S("a")})
    assert error_of(r) == invalid("KeyConditionExpressions must only contain one condition per key")


# A third condition (on a non-key attribute) is counted before it is looked at.
def test_three_conditions(raw, range_table):
    r = query(raw, range_table, "pk = :p AND sk < :s AND v < :s", {":p": S("a"), ":s": N(1)})
    assert error_of(r) == invalid("Conditions can be of length 1 or 2 only")


# OR, NOT, <>, IN and functions other than begins_with parse but are not allowed.
@pytest.mark.parametrize("kce,op", [("pk = :p OR sk = :s", "OR"), ("pk = :p AND NOT sk = :s", "NOT"),
                                    ("pk = :p AND sk <> :s", "<>"), ("pk = :p AND sk IN (:s)", "IN"),
                                    ("pk = :p AND contains(sk, :s)", "contains"),
                                    ("pk = :p AND attribute_exists(sk)", "attribute_exists"),
                                    ("pk = :p AND attribute_type(sk, :t)", "attribute_type")])
def test_invalid_operator(raw, range_table, kce, op):
    values = {k: v for k, v in {":p": S("a"), ":s": N(1), ":t": S("N")}.items() if k in kce}
    assert error_of(query(raw, range_table, kce, values)) == invalid(f"Invalid operator used in "
                                                                     f"KeyConditionExpression: {op}")


# Functions are case-sensitive; unknown ones are named.
@pytest.mark.parametrize("fn", ["BEGINS_WITH", "dog"])
def test_invalid_function(raw, range_s_table, fn):
    r = query(raw, range_s_table, f"pk = :p AND {fn}(sk, :s)", {":p": S("a"), ":s": S("a")})
    assert error_of(r) == invalid(f"Invalid KeyConditionExpression: Invalid function name; function: {fn}")


# size() and other nested operands, nested paths, and conditions without exactly one key
# attribute are rejected.
@pytest.mark.parametrize("kce,msg", [
    ("pk = :p AND size(sk) > :s", "KeyConditionExpressions cannot contain nested operations"),
    ("pk = :p AND sk[0] > :s", "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
                               "allowed: Key: sk"),
    ("pk.a = :p", "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
                  "Key: pk"),
    (":p = :p", "Invalid condition in KeyConditionExpression: No key attribute specified"),
    ("pk = :p AND :s = :s", "Invalid condition in KeyConditionExpression: No key attribute specified"),
    ("pk = sk", "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
    ("pk = :p AND sk = sk", "Invalid KeyConditionExpression: The first operand must be distinct from the remaining "
                            "operands for this operator or function; operator: =, first operand: [sk]"),
])
def test_invalid_condition_shape(raw, range_table, kce, msg):
    values = {k: v for k, v in {":p": S("a"), ":s": N(1)}.items() if k in kce} or None
    assert error_of(query(raw, range_table, kce, values)) == invalid(msg)


# begins_with takes the key first.
def test_begins_with_key_first(raw, range_s_table):
    r = query(raw, range_s_table, "pk = :p AND begins_with(:s, sk)", {":p": S("a"), ":s": S("a")})
    assert error_of(r) == invalid("Invalid condition in KeyConditionExpression: begins_with operator must have the "
                                  "key attribute as its first operand")


# Syntax errors are reported like in other expressions.
@pytest.mark.parametrize("kce,tail", [("pk", '"<EOF>", near: "pk"'), ("pk = :p AND sk", '"<EOF>", near: "sk"'),
                                      ("pk = :p AND sk != :s", '"!", near: "sk !="')])
def test_syntax_error(raw, range_table, kce, tail):
    values = {k: v for k, v in {":p": S("a"), ":s": N(1)}.items() if k in kce} or None
    r = query(raw, range_table, kce, values)
    assert error_of(r) == invalid("Invalid KeyConditionExpression: Syntax error; token: " + tail)


# One pair of parentheses per level is allowed, a redundant second pair is not.
def test_parentheses(raw, range_table, num_part):
    r = query(raw, range_table, "((sk = :s) AND (pk = :p))", {":p": S(num_part), ":s": N(3)})
    assert sort_keys(r) == ["3"]
    r = query(raw, range_table, "((sk = :s) AND ((pk = :p)))", {":p": S(num_part), ":s": N(3)})
    assert error_of(r) == invalid("Invalid KeyConditionExpression: The expression has redundant parentheses;")


# Values must have the key's type; the texts differ for the comparison kinds.
def test_value_type_must_match_schema(raw, range_table, range_s_table):
    type_msg = "One or more parameter values were invalid: Condition parameter type does not match schema type"
    for kce, values in [("pk = :v", {":v": N(1)}), ("pk = :p AND sk = :v", {":p": S("a"), ":v": S("1")}),
                        ("pk = :p AND sk = :v", {":p": S("a"), ":v": {"NULL": True}}),
                        ("pk = :p AND sk BETWEEN :v AND :v", {":p": S("a"), ":v": S("1")})]:
        assert error_of(query(raw, range_table, kce, values)) == invalid(type_msg)
    r = query(raw, range_s_table, "pk = :p AND begins_with(sk, :v)", {":p": S("a"), ":v": B(b"a")})
    assert error_of(r) == invalid(type_msg)
    r = query(raw, range_table, "pk = :p AND sk > :v", {":p": S("a"), ":v": {"BOOL": True}})
    assert error_of(r) == invalid("Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
                                  "operator or function: >, operand type: BOOL")
    r = query(raw, range_table, "pk = :p AND begins_with(sk, :v)", {":p": S("a"), ":v": N(1)})
    assert error_of(r) == invalid("Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
                                  "operator or function: begins_with, operand type: N")


# BETWEEN bounds must be ordered and of one type.
def test_between_bounds(raw, range_table):
    r = query(raw, range_table, "pk = :p AND sk BETWEEN :a AND :b", {":p": S("a"), ":a": N(3), ":b": N(1)})
    assert error_of(r) == invalid("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
                                  "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:3}, "
                                  "upper bound operand: AttributeValue: {N:1}")
    r = query(raw, range_table, "pk = :p AND sk BETWEEN :a AND :b", {":p": S("a"), ":a": N(1), ":b": S("3")})
    assert error_of(r) == invalid("Invalid KeyConditionExpression: The BETWEEN operator requires same data type for "
                                  "lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound "
                                  "operand: AttributeValue: {S:3}")


# Key values follow the key rules: no empty strings, sort keys at most 1024 bytes.
def test_key_value_rules(raw, range_s_table):
    r = query(raw, range_s_table, "pk = :p", {":p": S("")})
    assert error_of(r) == invalid("One or more parameter values are not valid. The AttributeValue for a key "
                                  "attribute cannot contain an empty string value. Key: pk")
    r = query(raw, range_s_table, "pk = :p AND sk = :s", {":p": S("a"), ":s": S("")})
    assert error_of(r) == invalid("One or more parameter values are not valid. The AttributeValue for a key "
                                  "attribute cannot contain an empty string value. Key: sk")
    r = query(raw, range_s_table, "pk = :p AND sk > :s", {":p": S("a"), ":s": S("x" * 1025)})
    assert error_of(r) == invalid("One or more parameter values were invalid: Aggregated size of all range keys has "
                                  "exceeded the size limit of 1024 bytes")


# --- behaviour: number sort keys -----------------------------------------------------------------

NUM_CASES = [
    ("pk = :p", {}, NUMS),
    ("pk = :p AND sk = :a", {":a": N("3.0")}, [3]),
    ("pk = :p AND sk = :a", {":a": N(6)}, []),
    ("pk = :p AND sk < :a", {":a": N(3)}, [-10, -1.5, 0, 1, 2]),
    ("pk = :p AND sk <= :a", {":a": N(3)}, [-10, -1.5, 0, 1, 2, 3]),
    ("pk = :p AND sk > :a", {":a": N(5)}, [7, 10, 11, 100]),
    ("pk = :p AND sk >= :a", {":a": N(5)}, [5, 7, 10, 11, 100]),
    ("pk = :p AND sk > :a", {":a": N("-1e3")}, NUMS),
    ("pk = :p AND sk BETWEEN :a AND :b", {":a": N("-1.5"), ":b": N(2)}, [-1.5, 0, 1, 2]),
    ("pk = :p AND sk BETWEEN :a AND :b", {":a": N(6), ":b": N(6)}, []),
    # the operands may be reversed: ":a < sk" means "sk > :a"
    (":p = pk AND :a < sk", {":a": N(10)}, [11, 100]),
    (":a >= sk AND pk = :p", {":a": N(0)}, [-10, -1.5, 0]),
    ("#k = :p AND #s < :a", {":a": N(0)}, [-10, -1.5]),
    ("pk = :p AnD sk BeTwEeN :a aNd :b", {":a": N(4), ":b": N(7)}, [4, 5, 7]),
]


# Each sort-key operator on a number key, operands in either order (see NUM_CASES).
@pytest.mark.parametrize("kce,values,want", NUM_CASES, ids=[c[0] + str(c[1]) for c in NUM_CASES])
def test_number_sort_key(raw, range_table, num_part, kce, values, want):
    names = {"#k": "pk", "#s": "sk"} if "#" in kce else None
    r = query(raw, range_table, kce, {":p": S(num_part), **values}, names=names)
    assert sort_keys(r) == nums(want)
    assert r.json["Count"] == len(want) == r.json["ScannedCount"]


# --- behaviour: string sort keys -----------------------------------------------------------------

STR_ORDER = sorted(STRS, key=lambda s: s.encode())


# String keys order by UTF-8 bytes; begins_with matches a byte prefix.
@pytest.mark.parametrize("kce,values,want", [
    ("pk = :p", {}, STR_ORDER),
    ("pk = :p AND sk < :a", {":a": S("a")}, [s for s in STR_ORDER if s.encode() < b"a"]),
    ("pk = :p AND sk >= :a", {":a": S("b")}, [s for s in STR_ORDER if s.encode() >= b"b"]),
    ("pk = :p AND sk BETWEEN :a AND :b", {":a": S("aa"), ":b": S("ab")}, ["aa", "aab", "ab"]),
    ("pk = :p AND begins_with(sk, :a)", {":a": S("a")}, ["a", "aa", "aab", "ab", "abc"]),
    ("pk = :p AND begins_with(sk, :a)", {":a": S("aa")}, ["aa", "aab"]),
    ("pk = :p AND begins_with(sk, :a)", {":a": S("c")}, []),
    ("pk = :p AND begins_with(sk, :a)", {":a": S("é")}, ["é"]),
])
def test_string_sort_key(raw, range_s_table, str_part, kce, values, want):
    assert sort_keys(query(raw, range_s_table, kce, {":p": S(str_part), **values})) == want


# --- behaviour: binary sort keys -----------------------------------------------------------------

# Binary keys order as unsigned bytes, shorter prefix first.
@pytest.mark.parametrize("kce,values,want", [
    ("pk = :p", {}, BYTES),
    ("pk = :p AND sk < :a", {":a": B(b"\x7f")}, [b"\x00", b"\x7e"]),
    ("pk = :p AND sk > :a", {":a": B(b"\x7f")}, [b"\x7f\x00", b"\x80", b"\x81", b"\xff"]),
    ("pk = :p AND sk BETWEEN :a AND :b", {":a": B(b"\x7f"), ":b": B(b"\x80")}, [b"\x7f", b"\x7f\x00", b"\x80"]),
    ("pk = :p AND begins_with(sk, :a)", {":a": B(b"\x7f")}, [b"\x7f", b"\x7f\x00"]),
])
def test_binary_sort_key(raw, range_b_table, bin_part, kce, values, want):
    assert sort_keys(query(raw, range_b_table, kce, {":p": S(bin_part), **values})) == [B(b)["B"] for b in want]


# --- behaviour: hash-only tables -----------------------------------------------------------------

# On a table without a sort key a Query returns the one item, or nothing; a sort-key
# condition has no key to apply to.
def test_hash_only_table(raw, hash_table):
    k = new_key()
    raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), "a": N(1)}})
    r = query(raw, hash_table, "pk = :p", {":p": S(k)})
    assert r.json["Items"] == [{"pk": S(k), "a": N(1)}] and r.json["Count"] == 1
    r = query(raw, hash_table, "pk = :p", {":p": S(new_key())})
    assert r.json["Items"] == [] and r.json["Count"] == 0
    r = query(raw, hash_table, "pk = :p AND a = :a", {":p": S(k), ":a": N(1)})
    assert r.error_type == "ValidationException"
