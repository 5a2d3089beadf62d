"""Multi-attribute GSI keys (DynamoDB since November 2025, dynamodb-facts §14): a GSI's
KeySchema of up to 4 HASH and 4 RANGE attributes, on CreateTable and UpdateTable; sparse
entries; Query with equality on every partition attribute and sort attributes left to
right; results in sort-tuple order; LastEvaluatedKey / ExclusiveStartKey with every key
attribute; long components; capacity and Contributor Insights by the tuple; --data-dir.

The messages are DynamoDB Local 3.3's (the service's own texts for these are not
published); every test here except the sluice_only ones also passes against DynamoDB Local
(SLUICE_ENDPOINT=http://127.0.0.1:PORT).
"""
import os
import time
import uuid

import pytest

from conftest import Server, admin, S, N

H = lambda n: {"AttributeName": n, "KeyType": "HASH"}  # noqa: E731
R = lambda n: {"AttributeName": n, "KeyType": "RANGE"}  # noqa: E731
TYPES = {"pk": "S", "a": "S", "b": "N", "c": "S", "d": "S", "x": "S", "y": "N", "z": "S",
         "w": "S", "v": "S"}
ITEMS = [  # (pk, x, y, z) with a = "A", b = 1
    ("p0", "X0", 10, "z0"), ("p1", "X1", 9, "z1"), ("p2", "X0", 8, "z2"),
    ("p3", "X1", 7, "z3"), ("p4", "X0", 6, "z4"), ("p5", "X1", 5, "z5"),
    ("p6", "X0", 4, "z6"), ("p7", "X1", 3, "z7"),
]


def defs(*names):
    return [{"AttributeName": n, "AttributeType": TYPES[n]} for n in dict.fromkeys(names)]


def gsi(name, ks, projection="ALL"):
    return {"IndexName": name, "KeySchema": ks, "Projection": {"ProjectionType": projection}}


def wait_ready(raw, name, timeout=30):
    t0 = time.time()
    while True:
        d = raw.call("DescribeTable", {"TableName": name}).json["Table"]
        if d["TableStatus"] == "ACTIVE" and all(
                g.get("IndexStatus") == "ACTIVE" for g in d.get("GlobalSecondaryIndexes", [])):
            return d
        assert time.time() - t0 < timeout, d
        time.sleep(0.05)


@pytest.fixture
def tables(raw):
    created = []
    yield created
    for t in created:
        raw.call("DeleteTable", {"TableName": t})


def create(raw, tables, ks, extra=(), projection="ALL", **kw):
    name = "mk_" + uuid.uuid4().hex[:10]
    names = ["pk"] + [k["AttributeName"] for k in ks] + list(extra)
    body = {"TableName": name, "KeySchema": [H("pk")], "AttributeDefinitions": defs(*names),
            "BillingMode": "PAY_PER_REQUEST",
            "GlobalSecondaryIndexes": [gsi("gsi1", ks, projection)]}
    body.update(kw)
    r = raw.call("CreateTable", body)
    assert r.status == 200, r
    tables.append(name)
    wait_ready(raw, name)
    return name


def item(pk, x, y, z, a="A", b=1):
    return {"pk": S(pk), "a": S(a), "b": N(str(b)), "x": S(x), "y": N(str(y)), "z": S(z)}


@pytest.fixture
def loaded(raw, tables):
    """A table whose GSI has partition key (a, b) and sort key (x, y, z), with ITEMS and one
    item missing z (not in the index)."""
    name = create(raw, tables, [H("a"), H("b"), R("x"), R("y"), R("z")], projection="KEYS_ONLY")
    for it in ITEMS:
        assert raw.call("PutItem", {"TableName": name, "Item": item(*it)}).status == 200
    sparse = item("sparse", "X0", 1, "zz")
    del sparse["z"]
    assert raw.call("PutItem", {"TableName": name, "Item": sparse}).status == 200
    return name


def query(raw, name, kce, values, **kw):
    body = {"TableName": name, "IndexName": "gsi1", "KeyConditionExpression": kce,
            "ExpressionAttributeValues": values}
    body.update(kw)
    return raw.call("Query", body)


AB = {":a": S("A"), ":b": N("1")}


def pks(reply):
    assert reply.status == 200, reply
    return [i["pk"]["S"] for i in reply.json["Items"]]


# ---- CreateTable / DescribeTable ----

# The whole key schema comes back in DescribeTable, HASH elements first, in request order.
def test_describe_shows_every_key_attribute(raw, tables):
    ks = [H("a"), H("b"), R("x"), R("y"), R("z")]
    name = create(raw, tables, ks)
    d = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    (g,) = d["GlobalSecondaryIndexes"]
    assert g["KeySchema"] == ks
    assert sorted(a["AttributeName"] for a in d["AttributeDefinitions"]) == \
        ["a", "b", "pk", "x", "y", "z"]


# Four partition and four sort attributes are the most a GSI takes.
def test_four_and_four(raw, tables):
    ks = [H("a"), H("b"), H("c"), H("d"), R("x"), R("y"), R("z"), R("w")]
    name = create(raw, tables, ks)
    d = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert d["GlobalSecondaryIndexes"][0]["KeySchema"] == ks


BAD_SCHEMAS = [
    ("five_hash", [H("a"), H("b"), H("c"), H("d"), H("v")],
     "Too many partition keys. GSI can have at most 4 partition keys"),
    ("five_range", [H("a"), R("b"), R("c"), R("d"), R("v"), R("x")],
     "Too many sort keys. GSI can have at most 4 sort keys"),
    ("nine", [H("a"), H("b"), H("c"), H("d"), R("v"), R("x"), R("y"), R("z"), R("w")],
     "Key Schema too big.  Key Schema must at most consist of the hash and range key of a "
     "table"),
    ("hash_after_range", [H("a"), R("x"), H("b")],
     "Invalid key order. Hash Key must be specified first in key schema, Range Key must be "
     "specifed second"),
    ("same_hash_twice", [H("a"), H("a")], "Two keys can not have the same name"),
    ("same_range_twice", [H("a"), R("x"), R("x")], "Two keys can not have the same name"),
]


# Each broken multi-attribute key schema is refused with its own text, and nothing is created.
@pytest.mark.parametrize("ks,msg", [c[1:] for c in BAD_SCHEMAS], ids=[c[0] for c in BAD_SCHEMAS])
def test_bad_key_schema(raw, ks, msg):
    name = "mk_" + uuid.uuid4().hex[:10]
    names = ["pk"] + [k["AttributeName"] for k in ks]
    r = raw.call("CreateTable", {"TableName": name, "KeySchema": [H("pk")],
                                 "AttributeDefinitions": defs(*names),
                                 "BillingMode": "PAY_PER_REQUEST",
                                 "GlobalSecondaryIndexes": [gsi("gsi1", ks)]})
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", msg)
    assert raw.call("DescribeTable", {"TableName": name}).error_type == \
        "ResourceNotFoundException"


# Tables and LSIs keep one HASH and at most one RANGE attribute.
@pytest.mark.parametrize("where", ["table", "lsi"])
def test_table_and_lsi_keep_two(raw, where):
    name = "mk_" + uuid.uuid4().hex[:10]
    if where == "table":
        body = {"KeySchema": [H("pk"), R("x"), R("z")], "AttributeDefinitions": defs("pk", "x", "z")}
    else:
        body = {"KeySchema": [H("pk"), R("x")], "AttributeDefinitions": defs("pk", "x", "y", "z"),
                "LocalSecondaryIndexes": [{"IndexName": "lsi1",
                                           "KeySchema": [H("pk"), R("y"), R("z")],
                                           "Projection": {"ProjectionType": "ALL"}}]}
    r = raw.call("CreateTable", dict(TableName=name, BillingMode="PAY_PER_REQUEST", **body))
    assert (r.status, r.error_type) == (400, "ValidationException")


# ---- writes and sparse entries ----

# An item is in the index only when it has every key attribute of the index.
def test_sparse(raw, loaded):
    r = raw.call("Scan", {"TableName": loaded, "IndexName": "gsi1"})
    assert sorted(pks(r)) == sorted(p for p, *_ in ITEMS)
    # Removing one component takes the item out; putting it back brings it in.
    assert raw.call("UpdateItem", {"TableName": loaded, "Key": {"pk": S("p3")},
                                   "UpdateExpression": "REMOVE y"}).status == 200
    assert "p3" not in pks(query(raw, loaded, "a = :a AND b = :b", AB))
    assert raw.call("UpdateItem", {"TableName": loaded, "Key": {"pk": S("sparse")},
                                   "UpdateExpression": "SET z = :z",
                                   "ExpressionAttributeValues": {":z": S("zz")}}).status == 200
    assert pks(query(raw, loaded, "a = :a AND b = :b AND x = :x AND y = :y",
                     {**AB, ":x": S("X0"), ":y": N("1")})) == ["sparse"]


# Changing one component moves the entry: it is found under its new key only.
def test_key_change_moves_entry(raw, loaded):
    assert raw.call("UpdateItem", {"TableName": loaded, "Key": {"pk": S("p0")},
                                   "UpdateExpression": "SET b = :b",
                                   "ExpressionAttributeValues": {":b": N("2")}}).status == 200
    assert "p0" not in pks(query(raw, loaded, "a = :a AND b = :b", AB))
    assert pks(query(raw, loaded, "a = :a AND b = :b", {":a": S("A"), ":b": N("2")})) == ["p0"]


# A value of the wrong type for any key attribute of the index is refused by the writer.
def test_write_type_mismatch(raw, loaded):
    bad = item("q", "X0", 1, "z")
    bad["z"] = N("5")
    r = raw.call("PutItem", {"TableName": loaded, "Item": bad})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message.startswith(
        "One or more parameter values were invalid: Type mismatch for Index Key")


# An empty string or binary value for any key attribute of the index is refused.
@pytest.mark.parametrize("attr", ["a", "x", "z"])
def test_write_empty_component(raw, loaded, attr):
    bad = item("q", "X0", 1, "z")
    bad[attr] = S("")
    r = raw.call("PutItem", {"TableName": loaded, "Item": bad})
    assert r.message == (
        "One or more parameter values are not valid. A value specified for a secondary index "
        "key is not supported. The AttributeValue for a key attribute cannot contain an empty "
        "string value. IndexName: gsi1, IndexKey: " + attr)


# Key size limits: each attribute within its key's limit, and all of a tuple's values
# together (sizes as DynamoDB counts them: a number 1 is 2 bytes).
@pytest.mark.parametrize("values,msg", [
    (dict(a=S("a" * 2047), b=N("1"), x=S("x" * 1000)),
     "Aggregate size for HASH key attributes a, b of index gsi1 has exceeded limit 2048 bytes, "
     "with actual size 2049 bytes"),
    (dict(a=S("a"), b=N("1"), x=S("x" * 1000), y=N("1"), z=S("z" * 30)),
     "Aggregate size for RANGE key attributes x, y, z of index gsi1 has exceeded limit 1024 "
     "bytes, with actual size 1032 bytes"),
    (dict(x=S("x" * 1025)), "One or more parameter values were invalid: Size limit exceeded"),
])
def test_write_key_sizes(raw, loaded, values, msg):
    it = {"pk": S("big"), **values}
    r = raw.call("PutItem", {"TableName": loaded, "Item": it})
    assert r.status == 400 and r.message.startswith(msg), r
    # At the limit: accepted.
    r = raw.call("PutItem", {"TableName": loaded, "Item": {
        "pk": S("edge"), "a": S("a" * 2046), "b": N("1"), "x": S("x" * 1018), "y": N("1"),
        "z": S("zzzz")}})
    assert r.status == 200, r


# ---- Query ----

# Equality on both partition attributes: every entry, ordered by (x, y, z); backwards too.
def test_query_order(raw, loaded):
    want = ["p6", "p4", "p2", "p0", "p7", "p5", "p3", "p1"]
    assert pks(query(raw, loaded, "a = :a AND b = :b", AB)) == want
    assert pks(query(raw, loaded, "a = :a AND b = :b", AB, ScanIndexForward=False)) == want[::-1]


# Sort attributes left to right: equality on a prefix, then one range condition on the next.
@pytest.mark.parametrize("cond,values,want", [
    ("x = :x", {":x": S("X0")}, ["p6", "p4", "p2", "p0"]),
    ("x = :x AND y > :y", {":x": S("X0"), ":y": N("4")}, ["p4", "p2", "p0"]),
    ("x = :x AND y >= :y", {":x": S("X1"), ":y": N("7")}, ["p3", "p1"]),
    ("x = :x AND y < :y", {":x": S("X1"), ":y": N("7")}, ["p7", "p5"]),
    ("x = :x AND y <= :y", {":x": S("X1"), ":y": N("7")}, ["p7", "p5", "p3"]),
    ("x = :x AND y BETWEEN :y AND :w", {":x": S("X0"), ":y": N("4"), ":w": N("8")},
     ["p6", "p4", "p2"]),
    ("begins_with(x, :x)", {":x": S("X")}, ["p6", "p4", "p2", "p0", "p7", "p5", "p3", "p1"]),
    ("x > :x", {":x": S("X0")}, ["p7", "p5", "p3", "p1"]),
    ("x = :x AND y = :y AND z = :z", {":x": S("X0"), ":y": N("10"), ":z": S("z0")}, ["p0"]),
    ("x = :x AND y = :y AND begins_with(z, :z)", {":x": S("X0"), ":y": N("10"), ":z": S("z")},
     ["p0"]),
    ("x = :x AND y = :y", {":x": S("X0"), ":y": N("11")}, []),
])
def test_query_sort_prefix(raw, loaded, cond, values, want):
    assert pks(query(raw, loaded, "a = :a AND b = :b AND " + cond, {**AB, **values})) == want


BAD_QUERIES = [
    ("one_hash", "a = :a", {":a": S("A")},
     "HASH key attributes b must have equality conditions specified in the query"),
    ("other_hash", "b = :b", {":b": N("1")},
     "HASH key attributes a must have equality conditions specified in the query"),
    ("hash_range", "a = :a AND b > :b", AB,
     "HASH key attributes b must have equality conditions specified in the query"),
    ("skip_x", "a = :a AND b = :b AND y = :y", {**AB, ":y": N("4")},
     "RANGE key attributes x must have equality conditions specified in the query because a "
     "condition is present on key attribute y"),
    ("range_then_eq", "a = :a AND b = :b AND x > :x AND y = :y",
     {**AB, ":x": S("X0"), ":y": N("4")},
     "RANGE key attributes x must have equality conditions specified in the query because a "
     "condition is present on key attribute y"),
    ("skip_two", "a = :a AND b = :b AND z = :z", {**AB, ":z": S("z0")},
     "RANGE key attributes x, y must have equality conditions specified in the query because a "
     "condition is present on key attribute z"),
    ("range_in_middle", "a = :a AND b = :b AND x = :x AND y > :y AND z = :z",
     {**AB, ":x": S("X0"), ":y": N("4"), ":z": S("z")},
     "RANGE key attributes y must have equality conditions specified in the query because a "
     "condition is present on key attribute z"),
    ("sort_type", "a = :a AND b = :b AND x = :x", {**AB, ":x": N("1")},
     "One or more parameter values were invalid: Condition parameter type does not match "
     "schema type"),
    ("hash_type", "a = :a AND b = :b", {":a": S("A"), ":b": S("1")},
     "One or more parameter values were invalid: Condition parameter type does not match "
     "schema type"),
    ("empty_sort", "a = :a AND b = :b AND x = :x", {**AB, ":x": S("")},
     "One or more parameter values are not valid. A value specified for a secondary index key "
     "is not supported. The AttributeValue for a key attribute cannot contain an empty string "
     "value. IndexName: gsi1, IndexKey: x"),
    ("empty_hash", "a = :a AND b = :b", {":a": S(""), ":b": N("1")},
     "One or more parameter values are not valid. A value specified for a secondary index key "
     "is not supported. The AttributeValue for a key attribute cannot contain an empty string "
     "value. IndexName: gsi1, IndexKey: a"),
    ("twice", "a = :a AND b = :b AND b = :b", AB,
     "KeyConditionExpressions must only contain one condition per key"),
]


# Each condition the rules refuse, with its text.
@pytest.mark.parametrize("kce,values,msg", [c[1:] for c in BAD_QUERIES],
                         ids=[c[0] for c in BAD_QUERIES])
def test_query_refused(raw, loaded, kce, values, msg):
    r = query(raw, loaded, kce, values)
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", msg)


# A condition on an attribute that is not a key of the index misses the key schema.
def test_query_non_key(raw, loaded):
    r = query(raw, loaded, "a = :a AND b = :b AND pk = :p", {**AB, ":p": S("p0")})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message.startswith("Query condition missed key schema element")


# Every key attribute of the index is a key attribute for FilterExpression.
def test_filter_on_key_attribute(raw, loaded):
    r = query(raw, loaded, "a = :a AND b = :b", {**AB, ":z": S("z1")},
              FilterExpression="z = :z")
    assert r.message == ("Filter Expression can only contain non-primary key attributes: "
                         "Primary key attribute: z")


# Legacy KeyConditions follow the same rules.
def test_legacy_key_conditions(raw, loaded):
    def eq(v):
        return {"ComparisonOperator": "EQ", "AttributeValueList": [v]}
    r = raw.call("Query", {"TableName": loaded, "IndexName": "gsi1", "KeyConditions": {
        "a": eq(S("A")), "b": eq(N("1")), "x": eq(S("X1"))}})
    assert pks(r) == ["p7", "p5", "p3", "p1"]
    r = raw.call("Query", {"TableName": loaded, "IndexName": "gsi1", "KeyConditions": {
        "a": eq(S("A")), "b": eq(N("1")), "y": eq(N("1"))}})
    assert r.message == ("RANGE key attributes x must have equality conditions specified in "
                         "the query because a condition is present on key attribute y")


# Pages: LastEvaluatedKey carries every key attribute of the index and the table's key, and
# feeding it back continues exactly where the page ended.
def test_pages(raw, loaded):
    seen, start = [], None
    for _ in range(10):
        kw = {"Limit": 3}
        if start:
            kw["ExclusiveStartKey"] = start
        r = query(raw, loaded, "a = :a AND b = :b", AB, **kw)
        seen += pks(r)
        start = r.json.get("LastEvaluatedKey")
        if not start:
            break
        assert sorted(start) == ["a", "b", "pk", "x", "y", "z"]
    assert seen == ["p6", "p4", "p2", "p0", "p7", "p5", "p3", "p1"]
    # Index Scan pages carry them too.
    r = raw.call("Scan", {"TableName": loaded, "IndexName": "gsi1", "Limit": 2})
    assert sorted(r.json["LastEvaluatedKey"]) == ["a", "b", "pk", "x", "y", "z"]


# A start key missing a key attribute is invalid; one outside the condition does not match.
def test_bad_start_key(raw, loaded):
    r = query(raw, loaded, "a = :a AND b = :b", AB, Limit=3)
    lek = r.json["LastEvaluatedKey"]
    missing = {k: v for k, v in lek.items() if k != "z"}
    r = query(raw, loaded, "a = :a AND b = :b", AB, ExclusiveStartKey=missing)
    assert r.error_type == "ValidationException"
    assert r.message.startswith("The provided starting key is invalid")
    r = query(raw, loaded, "a = :a AND b = :b", AB, ExclusiveStartKey={**lek, "a": S("B")})
    assert r.message == "The provided starting key does not match the range key predicate"
    r = query(raw, loaded, "a = :a AND b = :b AND x = :x", {**AB, ":x": S("X0")},
              ExclusiveStartKey={**lek, "x": S("X9")})
    assert r.message == "The provided starting key does not match the range key predicate"


# KEYS_ONLY projects every key attribute of the index and the table's key.
def test_keys_only_projection(raw, loaded):
    r = query(raw, loaded, "a = :a AND b = :b AND x = :x AND y = :y",
              {**AB, ":x": S("X0"), ":y": N("10")})
    assert r.json["Items"] == [item("p0", "X0", 10, "z0")]


# Long components: sort tuples far longer than any key budget are cut in storage; Query still
# returns exactly the items the condition selects, in order.
def test_long_components(raw, tables):
    name = create(raw, tables, [H("a"), R("x"), R("z"), R("w")])
    long = "k" * 300
    for i in range(12):
        x, z, w = long, long[:-1] + "lm"[i % 2], "%s%02d" % (long, i)
        r = raw.call("PutItem", {"TableName": name, "Item": {
            "pk": S("p%02d" % i), "a": S("A"), "x": S(x), "z": S(z), "w": S(w)}})
        assert r.status == 200, r
    vals = {":a": S("A"), ":x": S(long), ":z": S(long[:-1] + "m")}

    def q(kce, extra=None, **kw):
        return query(raw, name, kce, {**vals, **(extra or {})}, **kw)
    odd = ["p%02d" % i for i in range(12) if i % 2]
    assert pks(q("a = :a AND x = :x AND z = :z", {})) == odd
    assert pks(q("a = :a AND x = :x AND z = :z AND w > :w", {":w": S(long + "05")})) == \
        [p for p in odd if p > "p05"]
    assert pks(q("a = :a AND x = :x AND z = :z AND w BETWEEN :w AND :v",
                 {":w": S(long + "03"), ":v": S(long + "07")})) == ["p03", "p05", "p07"]
    assert pks(q("a = :a AND x = :x AND z = :z AND begins_with(w, :w)", {":w": S(long + "1")})) \
        == ["p11"]
    assert pks(q("a = :a AND x = :x AND z = :z", {}, ScanIndexForward=False)) == odd[::-1]
    assert pks(q("a = :a AND x = :x AND z < :z", {})) == \
        ["p%02d" % i for i in range(12) if i % 2 == 0]


# ---- UpdateTable ----

# A multi-attribute GSI added by UpdateTable is backfilled from the items already there
# (those lacking a key attribute stay out) and queried like one created with the table.
def test_update_table_create(raw, tables):
    name = "mk_" + uuid.uuid4().hex[:10]
    assert raw.call("CreateTable", {"TableName": name, "KeySchema": [H("pk")],
                                    "AttributeDefinitions": defs("pk"),
                                    "BillingMode": "PAY_PER_REQUEST"}).status == 200
    tables.append(name)
    wait_ready(raw, name)
    for it in ITEMS:
        raw.call("PutItem", {"TableName": name, "Item": item(*it)})
    raw.call("PutItem", {"TableName": name, "Item": {"pk": S("nob"), "a": S("A"), "x": S("X0"),
                                                     "y": N("1"), "z": S("z")}})
    ks = [H("a"), H("b"), R("x"), R("y")]
    r = raw.call("UpdateTable", {"TableName": name, "AttributeDefinitions": defs("a", "b", "x", "y"),
                                 "GlobalSecondaryIndexUpdates": [{"Create": gsi("gsi1", ks)}]})
    assert r.status == 200, r
    d = wait_ready(raw, name, timeout=120)
    assert d["GlobalSecondaryIndexes"][0]["KeySchema"] == ks
    assert pks(query(raw, name, "a = :a AND b = :b AND x = :x", {**AB, ":x": S("X1")})) == \
        ["p7", "p5", "p3", "p1"]
    bad = gsi("gsi2", [H("a"), H("b"), H("c"), H("d"), H("v")])
    r = raw.call("UpdateTable", {"TableName": name,
                                 "AttributeDefinitions": defs("a", "b", "c", "d", "v"),
                                 "GlobalSecondaryIndexUpdates": [{"Create": bad}]})
    assert r.message == "Too many partition keys. GSI can have at most 4 partition keys"


# ---- sluice: capacity, Contributor Insights, durability ----

# Each GSI write is charged to the index under the tuple's partition; Contributor Insights
# names a tuple key by its values in KeySchema order.
@pytest.mark.sluice_only
def test_capacity_and_insights_by_tuple(client):
    client.create_table("cit", AttributeDefinitions=defs("pk", "a", "b", "x", "y"),
                        GlobalSecondaryIndexes=[gsi("gsi1", [H("a"), H("b"), R("x"), R("y")])])
    status, _ = client.call("UpdateContributorInsights", {
        "TableName": "cit", "IndexName": "gsi1", "ContributorInsightsAction": "ENABLE"})
    assert status == 200
    for i in range(3):
        status, reply = client.call("PutItem", {
            "TableName": "cit", "Item": {"pk": S("p%d" % i), "a": S("A"), "b": N("1"),
                                        "x": S("X"), "y": N(str(i))},
            "ReturnConsumedCapacity": "INDEXES"})
        assert status == 200
        assert reply["ConsumedCapacity"]["GlobalSecondaryIndexes"] == {
            "gsi1": {"CapacityUnits": 1.0}}
    status, reply = client.call("Query", {
        "TableName": "cit", "IndexName": "gsi1", "KeyConditionExpression": "a = :a AND b = :b",
        "ExpressionAttributeValues": AB, "ReturnConsumedCapacity": "INDEXES"})
    assert status == 200 and reply["Count"] == 3
    assert reply["ConsumedCapacity"]["GlobalSecondaryIndexes"] == {"gsi1": {"CapacityUnits": 0.5}}
    status, body = admin(client.ep, "GET", "/_sluice/tables/cit/insights?minutes=1")
    assert status == 200
    (res,) = [r for r in body["resources"] if r["index"] == "gsi1"]
    keys = [k["partition_key"] for k in res["most_accessed_keys"]["partition_key"]]
    assert keys == ["[A, 1]"]
    both = res["most_accessed_keys"]["partition_and_sort_key"]
    assert sorted(k["sort_key"] for k in both) == ["[X, 0]", "[X, 1]", "[X, 2]"]
    # The admin API's table list names every key attribute, in order (the dashboard shows
    # them; tests/browser/dashboard.test.mjs).
    status, body = admin(client.ep, "GET", "/_sluice/tables")
    (t,) = [t for t in body["tables"] if t["name"] == "cit"]
    assert (t["partition_keys"], t["sort_keys"]) == (["pk"], [])
    (g,) = [i for i in t["indexes"] if i["name"] == "gsi1"]
    assert (g["partition_key"], g["sort_key"]) == ("a", "x")
    assert (g["partition_keys"], g["sort_keys"]) == (["a", "b"], ["x", "y"])


# A durable server keeps the multi-attribute schema and its entries across a restart.
@pytest.mark.sluice_only
def test_data_dir_restart(tmp_path):
    data = str(tmp_path / "data")
    os.mkdir(data)
    srv = Server(["--data-dir", data])
    try:
        from conftest import Raw
        raw = Raw(srv.endpoint)
        ks = [H("a"), H("b"), R("x"), R("y"), R("z")]
        assert raw.call("CreateTable", {"TableName": "dur", "KeySchema": [H("pk")],
                                        "AttributeDefinitions": defs("pk", "a", "b", "x", "y", "z"),
                                        "BillingMode": "PAY_PER_REQUEST",
                                        "GlobalSecondaryIndexes": [gsi("gsi1", ks)]}).status == 200
        wait_ready(raw, "dur")
        for it in ITEMS:
            assert raw.call("PutItem", {"TableName": "dur", "Item": item(*it)}).status == 200
    finally:
        srv.stop()
    srv = Server(["--data-dir", data])
    try:
        raw = Raw(srv.endpoint)
        d = raw.call("DescribeTable", {"TableName": "dur"}).json["Table"]
        assert d["GlobalSecondaryIndexes"][0]["KeySchema"] == ks
        assert pks(query(raw, "dur", "a = :a AND b = :b AND x = :x AND y < :y",
                         {**AB, ":x": S("X0"), ":y": N("9")})) == ["p6", "p4", "p2"]
    finally:
        srv.stop()


# Paging one item at a time through entries whose sort tuples share their whole cut prefix
# gives each item once, in order, both ways.
def test_long_components_paged(raw, tables):
    name = create(raw, tables, [H("a"), R("x"), R("z")])
    long = "k" * 400
    zs = ["%s%s" % (long, c) for c in "pbxa"] + [long[:-1]]
    for i, z in enumerate(zs):
        assert raw.call("PutItem", {"TableName": name, "Item": {
            "pk": S("p%d" % i), "a": S("A"), "x": S(long), "z": S(z)}}).status == 200
    want = ["p%d" % zs.index(z) for z in sorted(zs)]
    for forward in (True, False):
        seen, start = [], None
        for _ in range(20):
            kw = {"Limit": 1, "ScanIndexForward": forward}
            if start:
                kw["ExclusiveStartKey"] = start
            r = query(raw, name, "a = :a AND x = :x", {":a": S("A"), ":x": S(long)}, **kw)
            seen += pks(r)
            start = r.json.get("LastEvaluatedKey")
            if not start:
                break
        assert seen == (want if forward else want[::-1])


# PartiQL does not read a multi-attribute GSI (DynamoDB Local 3.3's answer); statements on the
# table itself still run.
def test_partiql(raw, loaded):
    r = raw.call("ExecuteStatement", {
        "Statement": 'SELECT pk FROM "%s"."gsi1" WHERE a = ? AND b = ?' % loaded,
        "Parameters": [S("A"), N("1")]})
    assert (r.status, r.error_type, r.message) == (
        400, "ValidationException",
        "PartiQL statements cannot be executed on tables with composite HASH keys or composite "
        "RANGE keys.")
    r = raw.call("ExecuteStatement", {
        "Statement": 'SELECT pk FROM "%s" WHERE pk = ?' % loaded, "Parameters": [S("p1")]})
    assert r.status == 200 and r.json["Items"] == [{"pk": S("p1")}]
