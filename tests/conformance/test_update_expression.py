"""UpdateExpression: the SET, REMOVE, ADD and DELETE clauses, their operands, paths and errors.

What UpdateItem does around the expression (upsert, ReturnValues, limits) is in
test_update_item.py; placeholders and lexical rules in test_expression_attributes.py.
Texts are DynamoDB Local's; dynalite test/updateItem.js (live texts) and Alternator's
test/alternator/test_update_expression.py (written against the live service) agree on every
rule they cover, including which cases are errors.
"""
import re
from decimal import Decimal

import pytest

from conftest import error_of, invalid, L, N, new_key, S


def used(placeholders, expr):
    """The entries of placeholders that expr mentions (None when there are none)."""
    tokens = set(re.findall(r"[:#][A-Za-z0-9_]+", expr))
    picked = {k: v for k, v in placeholders.items() if k in tokens}
    return picked or None


def update(raw, table, key, expr, values=None, names=None, **kw):
    body = dict(TableName=table, Key={"pk": {"S": key}}, UpdateExpression=expr, **kw)
    if values is not None:
        body["ExpressionAttributeValues"] = values
    if names is not None:
        body["ExpressionAttributeNames"] = names
    return raw.call("UpdateItem", body)


def put(raw, table, key, **attrs):
    r = raw.call("PutItem", {"TableName": table, "Item": {"pk": {"S": key}, **attrs}})
    assert r.status == 200, r


def get(raw, table, key):
    r = raw.call("GetItem", {"TableName": table, "Key": {"pk": {"S": key}}, "ConsistentRead": True})
    return r.json.get("Item")


@pytest.fixture
def item(raw, hash_table):
    """A fresh item with one attribute of each common type; returns its key."""
    k = new_key()
    put(raw, hash_table, k, s=S("hello"), n=N(5), l=L(N(1), N(2), N(3)), m={"M": {"x": N(1)}},
        ss={"SS": ["a", "b"]}, ns={"NS": ["1", "2"]})
    return k


# --- validation: clauses -------------------------------------------------------------------------

# Each clause kind may appear once, wherever it is.
@pytest.mark.parametrize("expr,kind", [
    ("SET a = :v SET b = :v", "SET"),
    ("SET a = :v REMOVE b SET c = :v", "SET"),
    ("REMOVE a SET b = :v REMOVE c", "REMOVE"),
    ("ADD a :v SET b = :v ADD c :v", "ADD"),
    ("DELETE a :s SET b = :v DELETE c :s", "DELETE"),
])
def test_clause_used_twice(raw, hash_table, expr, kind):
    r = update(raw, hash_table, new_key(), expr, values=used({":v": N(1), ":s": {"SS": ["x"]}}, expr))
    assert error_of(r) == invalid(f'Invalid UpdateExpression: The "{kind}" section can only be used once in an '
                                  f'update expression;')


# Clause keywords are followed by at least one action; REMOVE takes paths only, ADD and
# DELETE a path and a value without "=".
@pytest.mark.parametrize("expr", ["SET", "REMOVE", "ADD a", "DELETE a", "REMOVE a = :v", "ADD a = :v",
                                  "SET a :v", "REMOVE :v", "SET a = b / :v"])
def test_clause_syntax(raw, hash_table, expr):
    r = update(raw, hash_table, new_key(), expr, values={":v": N(1)} if ":v" in expr else None)
    assert r.error_type == "ValidationException"
    assert r.message.startswith("Invalid UpdateExpression: Syntax error; token: ")


# --- validation: overlapping and conflicting paths -----------------------------------------------

OVERLAP = "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of " \
          "these paths; path one: {}, path two: {}"
CONFLICT = "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of " \
           "these paths; path one: {}, path two: {}"


# No path may be written twice, nor a path and its ancestor, across all clauses; the check runs
# before the item is read, so the item need not exist. A placeholder is resolved first, and a
# name that looks like an index prints like one.
@pytest.mark.parametrize("expr,one,two", [
    ("SET a = :v REMOVE a", "[a]", "[a]"),
    ("REMOVE a SET a = :v", "[a]", "[a]"),
    ("SET a = :v, a = :v", "[a]", "[a]"),
    ("SET #a1 = :v, #a2 = :v", "[a]", "[a]"),
    ("SET a = :v, a.b = :v", "[a]", "[a, b]"),
    ("SET a.b = :v, a = :v", "[a, b]", "[a]"),
    ("SET a.b.c = :v, a.b = :v", "[a, b, c]", "[a, b]"),
    ("SET a[1] = :v, a = :v", "[a, [1]]", "[a]"),
    ("SET a[1][1] = :v, a[1] = :v", "[a, [1], [1]]", "[a, [1]]"),
    ("REMOVE a, a", "[a]", "[a]"),
    ("REMOVE l[0] SET l[0] = :v", "[l, [0]]", "[l, [0]]"),
    ("ADD a :v, a :v", "[a]", "[a]"),
    ("ADD a :s DELETE a :s", "[a]", "[a]"),
    ("SET #c[3].#d = :v, #c[3] = :v", "[c, [3], [3]]", "[c, [3]]"),
])
def test_overlapping_paths(raw, hash_table, expr, one, two):
    r = update(raw, hash_table, new_key(), expr, values=used({":v": N(1), ":s": {"SS": ["x"]}}, expr),
               names=used({"#a1": "a", "#a2": "a", "#c": "c", "#d": "[3]"}, expr))
    assert error_of(r) == invalid(OVERLAP.format(one, two))


# A path that treats the same attribute as a map in one action and a list in another conflicts.
@pytest.mark.parametrize("expr,one,two", [
    ("SET a.b = :v, a[1] = :v", "[a, b]", "[a, [1]]"),
    ("SET a.b.c = :v, a.b[2] = :v", "[a, b, c]", "[a, b, [2]]"),
    ("REMOVE a.c SET a[1] = :v", "[a, c]", "[a, [1]]"),
])
def test_conflicting_paths(raw, hash_table, expr, one, two):
    r = update(raw, hash_table, new_key(), expr, values={":v": N(1)})
    assert error_of(r) == invalid(CONFLICT.format(one, two))


# Reading a path that is also written is fine: all reads see the item as it was before.
def test_read_and_write_same_path(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a=S("hello"))
    assert update(raw, hash_table, k, "REMOVE a SET b = a").status == 200
    assert get(raw, hash_table, k) == {"pk": S(k), "b": S("hello")}
    assert update(raw, hash_table, k, "SET c = b REMOVE b").status == 200
    assert update(raw, hash_table, k, "SET c = c, d = c").status == 200
    assert get(raw, hash_table, k) == {"pk": S(k), "c": S("hello"), "d": S("hello")}


# --- validation: key attributes ------------------------------------------------------------------

KEY_MSG = "One or more parameter values were invalid: Cannot update attribute {}. This attribute is part of the key"


# No clause may touch a key attribute, nor a path inside one.
@pytest.mark.parametrize("expr", ["SET pk = :s", "REMOVE pk", "ADD pk :v", "DELETE pk :ss", "SET #k.x = :v",
                                  "REMOVE pk.x", "SET a = :v, pk = :s"])
def test_hash_key_cannot_be_updated(raw, hash_table, expr):
    r = update(raw, hash_table, new_key(), expr, values=used({":v": N(1), ":s": S("x"), ":ss": {"SS": ["x"]}}, expr),
               names=used({"#k": "pk"}, expr))
    assert error_of(r) == invalid(KEY_MSG.format("pk"))


# The range key is protected the same way.
def test_range_key_cannot_be_updated(raw, range_table):
    r = raw.call("UpdateItem", {"TableName": range_table, "Key": {"pk": S(new_key()), "sk": N(1)},
                                "UpdateExpression": "SET sk = :v", "ExpressionAttributeValues": {":v": N(2)}})
    assert error_of(r) == invalid(KEY_MSG.format("sk"))
    r = raw.call("UpdateItem", {"TableName": range_table, "Key": {"pk": S(new_key()), "sk": N(1)},
                                "UpdateExpression": "ADD sk :v", "ExpressionAttributeValues": {":v": N(2)}})
    assert error_of(r) == invalid(KEY_MSG.format("sk"))


# Key attributes may be read, though.
def test_key_attribute_can_be_read(raw, hash_table):
    k = new_key()
    assert update(raw, hash_table, k, "SET cp = pk").status == 200
    assert get(raw, hash_table, k)["cp"] == S(k)


# --- validation: functions -----------------------------------------------------------------------

# Function names are case-sensitive and checked after parsing.
@pytest.mark.parametrize("fn", ["LIST_APPEND", "f", "f123_hi", "If_Not_Exists"])
def test_unknown_function(raw, hash_table, fn):
    r = update(raw, hash_table, new_key(), f"SET a = {fn}(:v, :v)", values={":v": L()})
    assert error_of(r) == invalid(f"Invalid UpdateExpression: Invalid function name; function: {fn}")


# Condition functions are known names, but not allowed in an update.
@pytest.mark.parametrize("expr,fn", [("SET a = attribute_exists(b)", "attribute_exists"),
                                     ("SET a = size(b)", "size"),
                                     ("SET a = contains(b, :v)", "contains")])
def test_condition_function_in_update(raw, hash_table, expr, fn):
    r = update(raw, hash_table, new_key(), expr, values={":v": N(1)} if ":v" in expr else None)
    assert error_of(r) == invalid(f"Invalid UpdateExpression: The function is not allowed in an update "
                                  f"expression; function: {fn}")


# list_append and if_not_exists take exactly two operands.
@pytest.mark.parametrize("expr,fn,n", [("SET a = list_append(:l)", "list_append", 1),
                                       ("SET a = list_append(:l, :l, :l)", "list_append", 3),
                                       ("SET a = if_not_exists(b)", "if_not_exists", 1),
                                       ("SET a = if_not_exists(b, :l, :l)", "if_not_exists", 3)])
def test_function_operand_count(raw, hash_table, expr, fn, n):
    r = update(raw, hash_table, new_key(), expr, values={":l": L()})
    assert error_of(r) == invalid(f"Invalid UpdateExpression: Incorrect number of operands for operator or "
                                  f"function; operator or function: {fn}, number of operands: {n}")


# The first operand of if_not_exists must be a path; a value there is looked up (and must be
# defined) before this is noticed.
def test_if_not_exists_needs_path(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET a = if_not_exists(:v, :w)", values={":v": N(1), ":w": N(2)})
    assert error_of(r) == invalid("Invalid UpdateExpression: Operator or function requires a document path; "
                                  "operator or function: if_not_exists")
    r = update(raw, hash_table, new_key(), "SET a = if_not_exists(if_not_exists(a, :v), :v)", values={":v": N(1)})
    assert r.message.endswith("requires a document path; operator or function: if_not_exists")
    r = update(raw, hash_table, new_key(), "SET a = if_not_exists(:x, :v)", values={":v": N(1)})
    assert r.message == ("Invalid UpdateExpression: An expression attribute value used in expression is not "
                         "defined; attribute value: :x")


# list_append may not be nested in list_append; "+" only joins two operands, outside functions.
def test_nesting_limits_of_set_values(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET a = list_append(list_append(:l, :l), :l)", values={":l": L()})
    assert error_of(r) == invalid("Invalid UpdateExpression: The function is not allowed to be used this way in "
                                  "an expression; function: list_append")
    r = update(raw, hash_table, new_key(), "SET a = if_not_exists(b, :v + :v)", values={":v": N(1)})
    assert error_of(r) == invalid('Invalid UpdateExpression: Syntax error; token: "+", near: ":v + :v"')


# --- validation: operand types from the request --------------------------------------------------

OPERAND = "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: {}, " \
          "operand type: {}"


# A request value of the wrong type is rejected before the item is read, whatever it holds.
@pytest.mark.parametrize("expr,value,op,t", [
    ("SET a = :x + :n", S("x"), "+", "S"),
    ("SET a = :n + :x", L(), "+", "L"),
    ("SET a = :n - :x", {"SS": ["a"]}, "-", "SS"),
    ("SET a = :x - :n", {"BOOL": True}, "-", "BOOL"),
    ("SET a = :x + :n", {"NULL": True}, "+", "NULL"),
    ("SET a = :x + :n", {"M": {}}, "+", "M"),
    ("SET a = :x + :n", {"B": "AQ=="}, "+", "B"),
    ("SET a = :x + :n", {"NS": ["1"]}, "+", "NS"),
    ("SET a = list_append(:x, :l)", N(1), "list_append", "N"),
    ("SET a = list_append(:l, :x)", S("x"), "list_append", "S"),
    ("SET a = list_append(:l, :x)", {"SS": ["a"]}, "list_append", "SS"),
    ("SET a = list_append(:x, :l)", {"M": {}}, "list_append", "M"),
])
def test_operand_type_from_request(raw, hash_table, expr, value, op, t):
    r = update(raw, hash_table, new_key(), expr, values=used({":x": value, ":n": N(1), ":l": L()}, expr))
    assert error_of(r) == invalid(OPERAND.format(op, t))


# ADD takes a number or a set, DELETE a set; the text spells the type out and names the
# allowed set.
ADD_DELETE_TYPES = [("S", "x", "STRING"), ("B", "AQ==", "BINARY"), ("BOOL", True, "BOOLEAN"),
                    ("NULL", True, "NULL"), ("M", {}, "MAP"), ("L", [], "LIST")]


# ADD rejects every other request type.
@pytest.mark.parametrize("t,v,word", ADD_DELETE_TYPES, ids=[c[0] for c in ADD_DELETE_TYPES])
def test_add_operand_type(raw, hash_table, t, v, word):
    r = update(raw, hash_table, new_key(), "ADD a :v", values={":v": {t: v}})
    assert error_of(r) == invalid(f"Invalid UpdateExpression: Incorrect operand type for operator or function; "
                                  f"operator: ADD, operand type: {word}, typeSet: ALLOWED_FOR_ADD_OPERAND")


# DELETE rejects every non-set request type, numbers included.
@pytest.mark.parametrize("t,v,word", ADD_DELETE_TYPES + [("N", "1", "NUMBER")],
                         ids=[c[0] for c in ADD_DELETE_TYPES] + ["N"])
def test_delete_operand_type(raw, hash_table, t, v, word):
    r = update(raw, hash_table, new_key(), "DELETE a :v", values={":v": {t: v}})
    assert error_of(r) == invalid(f"Invalid UpdateExpression: Incorrect operand type for operator or function; "
                                  f"operator: DELETE, operand type: {word}, typeSet: ALLOWED_FOR_DELETE_OPERAND")


# --- validation: operand types in the item -------------------------------------------------------

STORED_TYPE = "An operand in the update expression has an incorrect data type"


# When the request's operands are fine but the stored attribute has the wrong type, the update
# fails with one generic text (and changes nothing).
@pytest.mark.parametrize("expr,values", [
    ("SET x = s + :v", {":v": N(1)}),
    ("SET x = :v - l", {":v": N(1)}),
    ("SET x = list_append(n, :l)", {":l": L()}),
    ("SET x = list_append(:l, m)", {":l": L()}),
    ("ADD s :v", {":v": N(1)}),
    ("ADD n :v", {":v": {"SS": ["a"]}}),
    ("ADD ss :v", {":v": {"NS": ["1"]}}),
    ("ADD ns :v", {":v": N(1)}),
    ("ADD l :v", {":v": {"SS": ["a"]}}),
    ("DELETE ss :v", {":v": {"NS": ["1"]}}),
    ("DELETE n :v", {":v": {"NS": ["1"]}}),
    ("DELETE s :v", {":v": {"SS": ["a"]}}),
])
def test_operand_type_from_item(raw, hash_table, item, expr, values):
    before = get(raw, hash_table, item)
    r = update(raw, hash_table, item, expr, values=values)
    assert error_of(r) == invalid(STORED_TYPE)
    assert get(raw, hash_table, item) == before


# A path operand that is absent is an error, also when the item is absent.
@pytest.mark.parametrize("expr,values", [
    ("SET x = zz", None),
    ("SET x = zz + :v", {":v": N(1)}),
    ("SET x = list_append(zz, :l)", {":l": L()}),
    ("SET x = list_append(:l, zz)", {":l": L()}),
    ("SET x = m.zz", None),
    ("SET x = l[7]", None),
    ("SET x = :v, y = x", {":v": N(1)}),
])
def test_missing_operand(raw, hash_table, item, expr, values):
    r = update(raw, hash_table, item, expr, values=values)
    assert error_of(r) == invalid("The provided expression refers to an attribute that does not exist in the item")
    r = update(raw, hash_table, new_key(), expr, values=values)
    assert error_of(r) == invalid("The provided expression refers to an attribute that does not exist in the item")


# A path to write must lead through existing maps and lists of the right kind.
@pytest.mark.parametrize("expr", ["SET s.x = :v", "SET s[0] = :v", "SET zz.x = :v", "SET zz[0] = :v",
                                  "SET m.x.y = :v", "SET l.x = :v", "SET m[0] = :v", "REMOVE s.x",
                                  "REMOVE s[0]", "REMOVE zz.x", "REMOVE m.zz.x", "ADD zz.x :v", "ADD l.x :v",
                                  "DELETE zz.x :ss"])
def test_invalid_document_path(raw, hash_table, item, expr):
    r = update(raw, hash_table, item, expr, values=used({":v": N(1), ":ss": {"SS": ["a"]}}, expr))
    assert error_of(r) == invalid("The document path provided in the update expression is invalid for update")


# On an absent item SET of a nested path fails the same way.
def test_invalid_document_path_absent_item(raw, hash_table):
    for expr in ("SET a.b = :v", "SET a[0] = :v"):
        r = update(raw, hash_table, new_key(), expr, values={":v": N(1)})
        assert error_of(r) == invalid("The document path provided in the update expression is invalid for update")


# ddblocal_differs: DynamoDB Local rejects REMOVE of a nested path when the item is absent;
# DynamoDB ignores it (and creates nothing). Source: Alternator test_update_expression.py
# test_nested_attribute_remove_from_missing_item, which passes on AWS.
@pytest.mark.ddblocal_differs
def test_remove_nested_path_of_absent_item(raw, hash_table):
    k = new_key()
    assert update(raw, hash_table, k, "REMOVE x.y").status == 200
    assert update(raw, hash_table, k, "REMOVE x[0]").status == 200
    assert get(raw, hash_table, k) is None


# List indexes are bounded; the text repeats the index.
@pytest.mark.parametrize("expr", ["SET l[99999999999] = :v", "REMOVE l[99999999999]", "SET x = l[99999999999]"])
def test_list_index_out_of_range(raw, hash_table, expr):
    r = update(raw, hash_table, new_key(), expr, values={":v": N(1)} if ":v" in expr else None)
    assert error_of(r) == invalid("Invalid UpdateExpression: List index is not within the allowable range; "
                                  "index: [99999999999]")


# A list index is a literal non-negative integer: no placeholders, signs or fractions.
@pytest.mark.parametrize("expr,tail", [("SET l[:v] = :v", '":v", near: "[:v]"'),
                                       ("SET l[#i] = :v", '"#i", near: "[#i]"'),
                                       ("SET l[-1] = :v", '"-", near: "[-1"'),
                                       ("SET l[1.5] = :v", '".", near: "1.5"')])
def test_list_index_syntax(raw, hash_table, expr, tail):
    r = update(raw, hash_table, new_key(), expr, values={":v": N(1)}, names={"#i": "x"} if "#i" in expr else None)
    assert error_of(r) == invalid("Invalid UpdateExpression: Syntax error; token: " + tail)


# Paths nest at most 32 levels below the attribute.
def test_nesting_levels(raw, hash_table):
    r = update(raw, hash_table, new_key(), "SET a" + ".b" * 32 + " = :v", values={":v": N(1)})
    assert error_of(r) == invalid("Invalid UpdateExpression: The document path has too many nesting levels; "
                                  "nesting levels: 33")


# --- behaviour: SET ------------------------------------------------------------------------------

# SET writes values, copies attributes and merges into the existing item.
def test_set_values_and_copies(raw, hash_table, item):
    r = update(raw, hash_table, item, "SET a = :v, b = s, c = m.x, d = l[2]", values={":v": S("new")})
    assert r.status == 200, r
    got = get(raw, hash_table, item)
    assert (got["a"], got["b"], got["c"], got["d"]) == (S("new"), S("hello"), N(1), N(3))
    assert got["n"] == N(5)


# "+" and "-" work on numbers from values, attributes or if_not_exists, in exact decimal.
@pytest.mark.parametrize("expr,result", [
    ("SET x = :a + :b", "5.5"),
    ("SET x = :a - :b", "-1.5"),
    ("SET x = n + :a", "7"),
    ("SET x = :a - n", "-3"),
    ("SET x = n + n", "10"),
    ("SET x = if_not_exists(zz, :a) + :b", "5.5"),
    ("SET x = if_not_exists(n, :a) - :b", "1.5"),
    ("SET x = :big + :a", "10000000000000000000002"),
    ("SET x = :tiny + :a", "2.0000000000000000000000000000000000001"),
    ("SET x = (:a + :b)", "5.5"),
])
def test_set_arithmetic(raw, hash_table, item, expr, result):
    values = used({":a": N(2), ":b": N("3.5"), ":big": N("1e22"), ":tiny": N("1e-37")}, expr)
    r = update(raw, hash_table, item, expr, values=values, ReturnValues="UPDATED_NEW")
    assert r.status == 200, r
    assert Decimal(r.json["Attributes"]["x"]["N"]) == Decimal(result)


# if_not_exists yields the attribute when present, else the value.
def test_if_not_exists(raw, hash_table, item):
    r = update(raw, hash_table, item, "SET n = if_not_exists(n, :v), x = if_not_exists(x, :v), "
                                      "y = if_not_exists(m.x, :v), z = if_not_exists(m.q, :v)",
               values={":v": S("default")})
    assert r.status == 200, r
    got = get(raw, hash_table, item)
    assert (got["n"], got["x"], got["y"], got["z"]) == (N(5), S("default"), N(1), S("default"))


# list_append joins two lists in order, from values or attributes; empty lists are fine.
def test_list_append(raw, hash_table, item):
    values = {":a": L(S("a")), ":e": L()}
    assert update(raw, hash_table, item, "SET l = list_append(l, :a), x = list_append(:a, l), "
                                         "y = list_append(:e, :e), z = list_append(l, l)", values=values).status == 200
    got = get(raw, hash_table, item)
    assert got["l"] == L(N(1), N(2), N(3), S("a"))
    assert got["x"] == L(S("a"), N(1), N(2), N(3))
    assert got["y"] == L()
    assert got["z"] == L(N(1), N(2), N(3), N(1), N(2), N(3))


# list_append(if_not_exists(...), ...) is the idiom for appending to a list that may be absent.
def test_list_append_if_not_exists(raw, hash_table):
    k = new_key()
    for v in ("a", "b"):
        r = update(raw, hash_table, k, "SET l = list_append(if_not_exists(l, :e), :v)",
                   values={":e": L(), ":v": L(S(v))})
        assert r.status == 200, r
    assert get(raw, hash_table, k)["l"] == L(S("a"), S("b"))


# SET of a list element replaces it; beyond the end it appends, several in index order.
def test_set_list_elements(raw, hash_table, item):
    assert update(raw, hash_table, item, "SET l[1] = :v", values={":v": S("x")}).status == 200
    assert get(raw, hash_table, item)["l"] == L(N(1), S("x"), N(3))
    r = update(raw, hash_table, item, "SET l[84] = :a, l[37] = :b, l[17] = :c, l[50] = :d",
               values={":a": S("a"), ":b": S("b"), ":c": S("c"), ":d": S("d")})
    assert r.status == 200, r
    assert get(raw, hash_table, item)["l"] == L(N(1), S("x"), N(3), S("c"), S("b"), S("d"), S("a"))


# Nested SET creates a new map key, replaces values of any type, and walks deep paths.
def test_set_nested(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a={"M": {"b": N(3), "c": L(S("hi"), {"M": {"x": {"M": {"y": L(N(3), N(5), N(7))}}}})}})
    r = update(raw, hash_table, k, "SET a.c[1].#n.y[1] = :v, a.d = :w, a.b = :m",
               values={":v": N(9), ":w": S("new"), ":m": {"M": {"q": N(1)}}}, names={"#n": "x"})
    assert r.status == 200, r
    assert get(raw, hash_table, k)["a"] == {"M": {"b": {"M": {"q": N(1)}}, "d": S("new"),
                                                  "c": L(S("hi"), {"M": {"x": {"M": {"y": L(N(3), N(9), N(7))}}}})}}


# Empty strings, binaries, lists and maps may be written outside keys; empty sets may not.
def test_set_empty_values(raw, hash_table):
    k = new_key()
    r = update(raw, hash_table, k, "SET a = :s, b = :b, c = :l, d = :m",
               values={":s": S(""), ":b": {"B": ""}, ":l": L(), ":m": {"M": {}}})
    assert r.status == 200, r
    assert get(raw, hash_table, k) == {"pk": S(k), "a": S(""), "b": {"B": ""}, "c": L(), "d": {"M": {}}}


# --- behaviour: REMOVE ---------------------------------------------------------------------------

# REMOVE deletes attributes and nested map keys; absent ones are ignored.
def test_remove(raw, hash_table, item):
    assert update(raw, hash_table, item, "REMOVE s, m.x, zz, m.zz").status == 200
    got = get(raw, hash_table, item)
    assert "s" not in got and got["m"] == {"M": {}}


# List elements are removed by their index before the update; indexes past the end are
# ignored; SET in the same update also addresses the original positions.
def test_remove_list_elements(raw, hash_table):
    k = new_key()
    put(raw, hash_table, k, a=L(*[N(i) for i in range(2, 8)]), b=L(N(1)))
    assert update(raw, hash_table, k, "REMOVE a[1], a[17] SET a[3] = :v", values={":v": N(17)}).status == 200
    assert get(raw, hash_table, k)["a"] == L(N(2), N(4), N(17), N(6), N(7))
    assert update(raw, hash_table, k, "REMOVE a[0], a[2], a[4], b[0]").status == 200
    got = get(raw, hash_table, k)
    assert got["a"] == L(N(4), N(6)) and got["b"] == L()


# --- behaviour: ADD ------------------------------------------------------------------------------

# ADD adds to a number, or starts from zero when the attribute (or the item) is absent.
def test_add_number(raw, hash_table, item):
    assert update(raw, hash_table, item, "ADD n :v, x :w", values={":v": N("-7.5"), ":w": N(3)}).status == 200
    got = get(raw, hash_table, item)
    assert (got["n"], got["x"]) == (N("-2.5"), N(3))
    k = new_key()
    assert update(raw, hash_table, k, "ADD c :v", values={":v": N(8)}).status == 200
    assert get(raw, hash_table, k) == {"pk": S(k), "c": N(8)}


# ADD unites sets of the same type (numbers by value, binaries by bytes), or creates the set.
def test_add_sets(raw, hash_table, item):
    values = {":ss": {"SS": ["b", "c"]}, ":ns": {"NS": ["2.0", "3"]}, ":bs": {"BS": ["AQ==", "Ag=="]}}
    assert update(raw, hash_table, item, "ADD ss :ss, ns :ns, bs :bs", values=values).status == 200
    got = get(raw, hash_table, item)
    assert sorted(got["ss"]["SS"]) == ["a", "b", "c"]
    assert sorted(float(x) for x in got["ns"]["NS"]) == [1, 2, 3]
    assert sorted(got["bs"]["BS"]) == ["AQ==", "Ag=="]


# ADD into nested paths works like at the top level.
def test_add_nested(raw, hash_table, item):
    assert update(raw, hash_table, item, "ADD m.x :v, m.s :s", values={":v": N(2), ":s": {"SS": ["q"]}}).status == 200
    assert get(raw, hash_table, item)["m"] == {"M": {"x": N(3), "s": {"SS": ["q"]}}}


# --- behaviour: DELETE ---------------------------------------------------------------------------

# DELETE removes members; missing members and absent attributes are ignored; removing the
# last member removes the attribute.
def test_delete_from_set(raw, hash_table, item):
    assert update(raw, hash_table, item, "DELETE ss :a, ns :n, zz :a",
                  values={":a": {"SS": ["a", "x"]}, ":n": {"NS": ["2.00"]}}).status == 200
    got = get(raw, hash_table, item)
    assert got["ss"] == {"SS": ["b"]} and got["ns"] == {"NS": ["1"]} and "zz" not in got
    assert update(raw, hash_table, item, "DELETE ss :b", values={":b": {"SS": ["b"]}}).status == 200
    assert "ss" not in get(raw, hash_table, item)


# --- behaviour: clauses together -----------------------------------------------------------------

# All four clauses in one expression, in any order, apply together.
def test_all_clauses(raw, hash_table):
    for expr in ("REMOVE b DELETE c :c ADD d :d, e :e SET f = :f", "ADD e :e, d :d DELETE c :c REMOVE b SET f = :f"):
        k = new_key()
        put(raw, hash_table, k, b=S("x"), c={"SS": ["a", "b", "z"]})
        r = update(raw, hash_table, k, expr, values={":c": {"SS": ["a", "b"]}, ":d": N(5), ":e": {"SS": ["a"]},
                                                      ":f": L(S("a"), N(1))})
        assert r.status == 200, r
        assert get(raw, hash_table, k) == {"pk": S(k), "c": {"SS": ["z"]}, "d": N(5), "e": {"SS": ["a"]},
                                           "f": L(S("a"), N(1))}
