"""FilterExpression on Query and Scan: what it may reference, how it interacts with Count,
ScannedCount, Limit and paging, and its errors.

The condition language itself (comparators, functions, types) is tested once in
test_condition_expression.py; here a few cases check that the filter uses the same rules.
Texts are DynamoDB Local's; dynalite test/scan.js (live texts) agrees where it has them.
"""
import pytest

from conftest import error_of, invalid, N, new_key, S


@pytest.fixture(scope="module")
def part(raw, range_table):
    """A partition of 10 items, sk 0..9: a = sk*10, t = "even"/"odd", and a string x on sk 3."""
    p = new_key()
    for i in range(10):
        item = {"pk": S(p), "sk": N(i), "a": N(i * 10), "t": S("even" if i % 2 == 0 else "odd")}
        if i == 3:
            item["x"] = S("three")
        assert raw.call("PutItem", {"TableName": range_table, "Item": item}).status == 200
    return p


def query(raw, table, p, fe=None, values=None, **kw):
    body = {"TableName": table, "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": S(p), **(values or {})}, **kw}
    if fe is not None:
        body["FilterExpression"] = fe
    return raw.call("Query", body)


def sks(r):
    assert r.status == 200, r
    return [int(i["sk"]["N"]) for i in r.json["Items"]]


# --- validation ----------------------------------------------------------------------------------

# An empty filter has its own text.
def test_empty_expression(raw, range_table):
    r = query(raw, range_table, "a", "")
    assert error_of(r) == invalid("Invalid FilterExpression: The expression can not be empty;")


# A Query filter may not use key attributes (the key condition does that).
@pytest.mark.parametrize("fe,key", [("sk > :v", "sk"), ("pk = :s", "pk"), ("a > :v OR attribute_exists(sk)", "sk")])
def test_query_filter_on_key(raw, range_table, fe, key):
    values = {k: v for k, v in {":v": N(1), ":s": S("x")}.items() if k in fe}
    r = query(raw, range_table, "a", fe, values)
    assert error_of(r) == invalid(f"Filter Expression can only contain non-primary key attributes: Primary key "
                                  f"attribute: {key}")


# Errors of the condition language carry the FilterExpression prefix.
@pytest.mark.parametrize("fe,values,msg", [
    ("a >", None, 'Syntax error; token: "<EOF>", near: ">"'),
    ("((a > :v))", {":v": N(1)}, "The expression has redundant parentheses;"),
    ("a < :v", {":v": {"BOOL": True}}, "Incorrect operand type for operator or function; operator or function: <, "
                                       "operand type: BOOL"),
    ("if_not_exists(a, :v) = :v", {":v": N(1)}, "The function is not allowed in a condition expression; function: "
                                                 "if_not_exists"),
    ("size(a)", None, "The function is not allowed to be used this way in an expression; function: size"),
    ("a = :zz", None, "An expression attribute value used in expression is not defined; attribute value: :zz"),
    ("#zz = :v", {":v": N(1)}, "An expression attribute name used in the document path is not defined; attribute "
                               "name: #zz"),
    ("a = a", None, "The first operand must be distinct from the remaining operands for this operator or function; "
                    "operator: =, first operand: [a]"),
])
def test_condition_language_errors(raw, range_table, fe, values, msg):
    r = query(raw, range_table, "a", fe, values)
    assert error_of(r) == invalid("Invalid FilterExpression: " + msg)


# --- behaviour: Query ----------------------------------------------------------------------------

# The filter drops items after they are read: Count counts returned items, ScannedCount read ones.
@pytest.mark.parametrize("fe,values,want", [
    ("a >= :v", {":v": N(50)}, [5, 6, 7, 8, 9]),
    ("t = :v", {":v": S("odd")}, [1, 3, 5, 7, 9]),
    ("t = :e AND a < :v", {":e": S("even"), ":v": N(50)}, [0, 2, 4]),
    ("NOT t = :e OR a = :v", {":e": S("even"), ":v": N(0)}, [0, 1, 3, 5, 7, 9]),
    ("attribute_exists(x)", None, [3]),
    ("a IN (:a, :b)", {":a": N(20), ":b": N(70)}, [2, 7]),
    ("begins_with(t, :v)", {":v": S("ev")}, [0, 2, 4, 6, 8]),
    ("x < :v", {":v": N(100)}, []),   # x is a string: comparing it with a number is just false
    ("a > :v", {":v": S("0")}, []),   # and a number with a string
    ("NOT x < :v", {":v": N(100)}, list(range(10))),
])
def test_query_filter(raw, range_table, part, fe, values, want):
    r = query(raw, range_table, part, fe, values)
    assert sks(r) == want
    assert (r.json["Count"], r.json["ScannedCount"]) == (len(want), 10)


# The filter works the same backwards, and with Select COUNT.
def test_query_filter_reverse_and_count(raw, range_table, part):
    r = query(raw, range_table, part, "a >= :v", {":v": N(70)}, ScanIndexForward=False)
    assert sks(r) == [9, 8, 7]
    r = query(raw, range_table, part, "a >= :v", {":v": N(70)}, Select="COUNT")
    assert r.json == {"Count": 3, "ScannedCount": 10}


# Limit bounds the items read, not the items returned: a page may come back with fewer
# items than Limit, even none, and still a LastEvaluatedKey.
def test_query_filter_with_limit(raw, range_table, part):
    r = query(raw, range_table, part, "t = :v", {":v": S("odd")}, Limit=3)
    assert sks(r) == [1]
    assert (r.json["Count"], r.json["ScannedCount"]) == (1, 3)
    assert r.json["LastEvaluatedKey"] == {"pk": S(part), "sk": N(2)}
    r = query(raw, range_table, part, "a > :v", {":v": N(1000)}, Limit=4)
    assert r.json["Items"] == [] and r.json["ScannedCount"] == 4
    assert r.json["LastEvaluatedKey"] == {"pk": S(part), "sk": N(3)}


# Paging through a filtered Query returns each matching item once.
def test_query_filter_paging(raw, range_table, part):
    got, start, pages = [], None, 0
    while True:
        kw = {"Limit": 3}
        if start:
            kw["ExclusiveStartKey"] = start
        r = query(raw, range_table, part, "t = :v", {":v": S("even")}, **kw)
        got += sks(r)
        pages += 1
        start = r.json.get("LastEvaluatedKey")
        if not start:
            break
    assert got == [0, 2, 4, 6, 8]
    assert pages in (4, 5)  # 10 items read 3 at a time; a last empty page is allowed


# --- behaviour: Scan -----------------------------------------------------------------------------

# A Scan filter may use key attributes. (The shared table holds other tests' items: read
# every page.)
def test_scan_filter_on_keys(raw, range_table, part):
    got, scanned, start = [], 0, None
    while True:
        body = {"TableName": range_table, "FilterExpression": "pk = :p AND sk BETWEEN :a AND :b",
                "ExpressionAttributeValues": {":p": S(part), ":a": N(2), ":b": N(4)}}
        if start:
            body["ExclusiveStartKey"] = start
        r = raw.call("Scan", body)
        got += sks(r)
        assert r.json["Count"] == len(r.json["Items"])
        scanned += r.json["ScannedCount"]
        start = r.json.get("LastEvaluatedKey")
        if not start:
            break
    assert sorted(got) == [2, 3, 4] and scanned >= 10
