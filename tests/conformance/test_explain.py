"""The cost preview, POST /_sluice/explain: the plan a SELECT becomes and what running it costs,
before running it.

The estimate must be exact: for random tables and statements, the preview's read units equal the
ConsumedCapacity of actually running the statement, summed over every page a client fetches with
NextToken. sluice's own endpoint (sluice_only).
"""
import json
import random
import urllib.request

import pytest

from conftest import N, S, admin, sluice_bin

pytestmark = pytest.mark.sluice_only


def explain(endpoint, statement, **kw):
    return admin(endpoint, "POST", "/_sluice/explain", {"Statement": statement, **kw})


def run_all(raw, statement, **kw):
    """Runs a statement to its end; (items, consumed units summed, pages)."""
    items, units, pages, token = [], 0.0, 0, None
    while True:
        body = {"Statement": statement, "ReturnConsumedCapacity": "TOTAL", **kw}
        if token:
            body["NextToken"] = token
        r = raw.call("ExecuteStatement", body)
        assert r.status == 200, r
        items += r.json["Items"]
        units += r.json["ConsumedCapacity"]["CapacityUnits"]
        pages += 1
        token = r.json.get("NextToken")
        if not token:
            return items, units, pages


@pytest.fixture(scope="module")
def shop(ddb, module_table):
    """A table of random-sized orders (pk customer, sk order number) with a GSI on status."""
    import uuid
    name = "t_" + uuid.uuid4().hex[:12]
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": t}
                              for a, t in (("pk", "S"), ("sk", "N"), ("status", "S"))],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "by_status", "Projection": {"ProjectionType": "ALL"},
                                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}]}])
    from conftest import wait_active
    wait_active(ddb, name)
    rnd = random.Random(14)
    for c in range(12):
        for o in range(rnd.randint(1, 25)):
            ddb.put_item(TableName=name, Item={
                "pk": S(f"c{c}"), "sk": N(o), "status": S(rnd.choice(["open", "shipped", "lost"])),
                "total": N(rnd.randint(1, 500)), "pad": S("x" * rnd.randint(0, 6000))})
    yield name
    ddb.delete_table(TableName=name)


STATEMENTS = [
    "SELECT * FROM \"T\" WHERE pk = 'c3' AND sk = 2",
    "SELECT * FROM \"T\" WHERE pk = 'c3' AND sk = 999",
    "SELECT * FROM \"T\" WHERE pk = 'c5'",
    "SELECT * FROM \"T\" WHERE pk = 'c5' AND sk BETWEEN 3 AND 9",
    "SELECT total FROM \"T\" WHERE pk = 'c7' AND total > 250",
    "SELECT * FROM \"T\" WHERE pk = 'c1' ORDER BY sk DESC",
    "SELECT * FROM \"T\"",
    "SELECT * FROM \"T\" WHERE total > 400",
    "SELECT * FROM \"T\" WHERE status = 'lost'",
    "SELECT * FROM \"T\".\"by_status\" WHERE status = 'open'",
    "SELECT * FROM \"T\".\"by_status\"",
    "SELECT * FROM \"T\" WHERE pk IN ['c1', 'c3', 'c9', 'nobody']",
    "SELECT * FROM \"T\" WHERE pk = 'c2' OR pk = 'c4' AND total > 100",
    "SELECT * FROM \"T\" WHERE (pk = 'c1' AND sk = 2 OR pk = 'c3' AND sk = 1) AND total > 3",
    "SELECT * FROM \"T\".\"by_status\" WHERE status IN ['lost', 'open']",
]


# The preview's read units are what running the statement costs, page by page, exactly.
# (Strongly consistent reads of a GSI do not exist: those combinations are not generated.)
CASES = [(s, c) for s in STATEMENTS for c in (False, True) if not (c and "by_status" in s)]


@pytest.mark.parametrize("statement,consistent", CASES)
@pytest.mark.parametrize("limit", [None, 7])
def test_preview_equals_consumed_capacity(endpoint, raw, shop, statement, consistent, limit):
    statement = statement.replace('"T"', f'"{shop}"')
    kw = {"ConsistentRead": consistent, **({"Limit": limit} if limit else {})}
    status, e = explain(endpoint, statement, **kw)
    assert status == 200, e
    items, units, pages = run_all(raw, statement, **kw)
    est = e["Estimate"]
    assert est["ReadUnits"] == units
    assert est["Pages"] == pages and est["ReturnedItems"] == len(items) and est["Exact"] is True


# Random tables and statements: preview and bill agree.
def test_random_tables_and_statements(endpoint, raw, ddb, module_table):
    rnd = random.Random(1414)
    t = module_table(range_key=("sk", "N"))
    for i in range(rnd.randint(40, 90)):
        ddb.put_item(TableName=t, Item={"pk": S(f"p{rnd.randint(0, 6)}"), "sk": N(i),
                                        "v": N(rnd.randint(0, 9)), "pad": S("y" * rnd.randint(0, 9000))})
    for _ in range(25):
        where = rnd.choice([f"pk = 'p{rnd.randint(0, 7)}'", f"v = {rnd.randint(0, 9)}",
                            f"pk IN ['p{rnd.randint(0, 7)}', 'p{rnd.randint(0, 7)}', 'p{rnd.randint(0, 7)}']",
                            f"pk = 'p{rnd.randint(0, 6)}' OR pk = 'p{rnd.randint(0, 6)}' AND v > 4",
                            f"pk = 'p{rnd.randint(0, 6)}' AND sk > {rnd.randint(0, 80)}",
                            f"pk = 'p{rnd.randint(0, 6)}' AND sk = {rnd.randint(0, 90)}",
                            f"v < {rnd.randint(0, 9)} OR begins_with(pk, 'p1')"])
        statement = f'SELECT * FROM "{t}" WHERE {where}'
        kw = {"ConsistentRead": rnd.random() < 0.5}
        if rnd.random() < 0.5:
            kw["Limit"] = rnd.randint(1, 30)
        status, e = explain(endpoint, statement, **kw)
        assert status == 200, e
        _, units, pages = run_all(raw, statement, **kw)
        assert (e["Estimate"]["ReadUnits"], e["Estimate"]["Pages"]) == (units, pages), statement


# The plans, as the service chooses them.
@pytest.mark.parametrize("statement,operation,index", [
    ("SELECT * FROM \"T\" WHERE pk = 'c3' AND sk = 2", "GetItem", None),
    ("SELECT * FROM \"T\" WHERE pk = 'c3' AND sk > 2", "Query", None),
    ("SELECT * FROM \"T\" WHERE sk = 2", "Scan", None),
    ("SELECT * FROM \"T\".\"by_status\" WHERE status = 'open'", "Query", "by_status"),
    ("SELECT * FROM \"T\" WHERE pk IN ['c1', 'c2']", "Query", None),
    ("SELECT * FROM \"T\" WHERE pk = 'c1' AND sk = 1 OR pk = 'c2' AND sk = 1", "GetItem", None),
    ("SELECT * FROM \"T\" WHERE pk = 'c1' OR total = 2", "Scan", None),
])
def test_plan(endpoint, shop, statement, operation, index):
    status, e = explain(endpoint, statement.replace('"T"', f'"{shop}"'))
    assert status == 200, e
    assert e["Plan"]["Operation"] == operation and e["Plan"].get("IndexName") == index
    assert e["Plan"]["TableName"] == shop
    if " IN " in statement or " OR pk" in statement:
        assert e["Plan"]["Reads"] == 2 and len(e["Plan"]["KeyConditions"]) == 2


# The seeds' lesson: a filtered Scan warns that the filter does not reduce cost, and names the
# index that makes it a Query, with that Query's cost.
def test_scan_warning_and_alternative(endpoint, shop):
    status, e = explain(endpoint, f"SELECT * FROM \"{shop}\" WHERE status = 'lost'")
    assert status == 200, e
    assert e["Plan"]["Operation"] == "Scan" and e["Plan"]["Filter"]
    assert any("A filter does not reduce cost" in w for w in e["Warnings"])
    [alt] = e["Alternatives"]
    assert alt["IndexName"] == "by_status" and alt["Operation"] == "Query"
    assert alt["ReadUnits"] < e["Estimate"]["ReadUnits"]
    status, q = explain(endpoint, f"SELECT * FROM \"{shop}\".\"by_status\" WHERE status = 'lost'")
    assert q["Estimate"]["ReadUnits"] == alt["ReadUnits"]


# Nothing is charged by a preview: the table's consumed read units do not move.
def test_preview_spends_nothing(endpoint, raw, shop):
    run_all(raw, f"SELECT * FROM \"{shop}\" WHERE pk = 'c1'")
    before = _consumed(endpoint, shop)
    assert before
    for _ in range(3):
        assert explain(endpoint, f'SELECT * FROM "{shop}"', ConsistentRead=True)[0] == 200
    assert _consumed(endpoint, shop) == before


def _consumed(endpoint, table):
    with urllib.request.urlopen(f"{endpoint}/metrics") as r:
        text = r.read().decode()
    return sorted(l for l in text.splitlines()
                  if "consumed_read" in l.lower() and f'"{table}"' in l)


# Errors are the ones running the statement would get.
def test_errors(endpoint, shop):
    status, e = explain(endpoint, "SELEC *")
    assert status == 400 and e["type"] == "ValidationException"
    assert e["error"] == "Statement wasn't well formed, can't be processed: SELEC *"
    status, e = explain(endpoint, 'SELECT * FROM "no_such_table_x"')
    assert status == 400 and e["type"] == "ResourceNotFoundException"
    status, e = explain(endpoint, f"DELETE FROM \"{shop}\" WHERE pk = 'c1'")
    assert status == 400 and e["error"] == ("Where clause does not contain a mandatory equality "
                                            "on all key attributes")
    status, e = explain(endpoint, f"EXISTS(SELECT * FROM \"{shop}\" WHERE pk = 'c1' AND sk = 1)")
    assert status == 400 and "explains SELECT, INSERT, UPDATE and DELETE" in e["error"]
    status, e = admin(endpoint, "POST", "/_sluice/explain", {"Query": 1})
    assert status == 400


# `sluice explain` prints the same preview from the command line (--json: the reply as is).
def test_cli(endpoint, shop):
    import subprocess
    binary = sluice_bin()
    statement = f"SELECT * FROM \"{shop}\" WHERE status = 'lost'"
    p = subprocess.run([binary, "explain", "--endpoint", endpoint, "--json", statement],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == explain(endpoint, statement)[1]
    p = subprocess.run([binary, "explain", "--endpoint", endpoint, statement],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0 and p.stdout.startswith(f"plan:     Scan {shop} Filter")
    assert "A filter does not reduce cost" in p.stdout and "instead:  Query index by_status" in p.stdout
    p = subprocess.run([binary, "explain", "--endpoint", endpoint, "SELEC"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 1
    assert p.stderr == ("sluice explain: ValidationException: Statement wasn't well formed, can't be "
                        "processed: SELEC\n")
    assert subprocess.run([binary, "explain"], capture_output=True, timeout=30).returncode == 2


def run_request(raw, op, body):
    """Runs a Query or Scan to its end; (consumed units summed, pages, items)."""
    units, pages, items, body = 0.0, 0, 0, dict(body, ReturnConsumedCapacity="TOTAL")
    while True:
        r = raw.call(op, body)
        assert r.status == 200, r
        units += r.json["ConsumedCapacity"]["CapacityUnits"]
        pages += 1
        items += r.json["Count"]
        if "LastEvaluatedKey" not in r.json:
            return units, pages, items
        body["ExclusiveStartKey"] = r.json["LastEvaluatedKey"]


# A Query or Scan request is previewed as itself: the same units as running it.
@pytest.mark.parametrize("op,body", [
    ("Query", {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("c5")}}),
    ("Query", {"KeyConditionExpression": "pk = :p AND sk > :s", "FilterExpression": "#t > :t",
               "ExpressionAttributeNames": {"#t": "total"},
               "ExpressionAttributeValues": {":p": S("c5"), ":s": N(2), ":t": N(100)},
               "ConsistentRead": True, "Limit": 4}),
    ("Query", {"IndexName": "by_status", "KeyConditionExpression": "#s = :v",
               "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":v": S("open")}}),
    ("Scan", {}),
    ("Scan", {"FilterExpression": "#t > :t", "ExpressionAttributeNames": {"#t": "total"},
              "ExpressionAttributeValues": {":t": N(400)},
              "Limit": 9, "ConsistentRead": True}),
])
def test_request_preview(endpoint, raw, shop, op, body):
    body = dict(body, TableName=shop)
    status, e = admin(endpoint, "POST", "/_sluice/explain", {op: body})
    assert status == 200, e
    assert e["Plan"]["Operation"] == op
    units, pages, items = run_request(raw, op, body)
    assert (e["Estimate"]["ReadUnits"], e["Estimate"]["Pages"], e["Estimate"]["ReturnedItems"]) == (
        units, pages, items)


# A request the operation would refuse is refused with the operation's error.
def test_request_errors(endpoint, shop):
    status, e = admin(endpoint, "POST", "/_sluice/explain", {"Query": {"TableName": shop}})
    assert status == 400 and e["type"] == "ValidationException"
    assert e["error"] == ("Either the KeyConditions or KeyConditionExpression parameter must be "
                          "specified in the request.")
    status, e = admin(endpoint, "POST", "/_sluice/explain", {"Scan": {"TableName": shop, "Limit": 0}})
    assert status == 400 and e["type"] == "ValidationException"
    status, e = admin(endpoint, "POST", "/_sluice/explain",
                      {"Scan": {"TableName": shop, "Segment": 2, "TotalSegments": 2}})
    assert status == 400 and e["type"] == "ValidationException"


# One segment of a parallel Scan is previewed as that segment: the units of running it, and
# the segments together examine every item once.
@pytest.mark.parametrize("consistent", [False, True])
def test_scan_segment_preview(endpoint, raw, shop, consistent):
    total, items = 3, 0
    for seg in range(total):
        body = {"TableName": shop, "Segment": seg, "TotalSegments": total, "ConsistentRead": consistent,
                "Limit": 11}
        status, e = admin(endpoint, "POST", "/_sluice/explain", {"Scan": body})
        assert status == 200, e
        assert (e["Plan"]["Segment"], e["Plan"]["TotalSegments"]) == (seg, total)
        assert any(f"segment {seg} of a parallel Scan of {total}" in w for w in e["Warnings"])
        units, pages, n = run_request(raw, "Scan", body)
        assert (e["Estimate"]["ReadUnits"], e["Estimate"]["Pages"], e["Estimate"]["Items"]) == (
            units, pages, n)
        items += n
    status, whole = admin(endpoint, "POST", "/_sluice/explain", {"Scan": {"TableName": shop}})
    assert items == whole["Estimate"]["Items"]


def batch_units(raw, statement):
    """Runs one write through BatchExecuteStatement, which reports the units of a failed
    write too; (units, error code or None)."""
    r = raw.call("BatchExecuteStatement", {"Statements": [{"Statement": statement}],
                                           "ReturnConsumedCapacity": "TOTAL"})
    assert r.status == 200, r
    [resp] = r.json["Responses"]
    return sum(c["CapacityUnits"] for c in r.json["ConsumedCapacity"]), resp.get("Error", {}).get("Code")


# The preview of a write: the single-item write it becomes, its units from the item's size
# (the larger of before and after, each GSI entry it changes; a failed condition still
# costs), whether its condition holds now; exactly what running it costs, and nothing written.
def test_write_preview_equals_consumed_capacity(endpoint, raw, ddb, make_table):
    t = make_table(range_key=("sk", "N"), extra_attrs=[("status", "S")], GlobalSecondaryIndexes=[{
        "IndexName": "by_status", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}])
    big = "z" * 3000
    ddb.put_item(TableName=t, Item={"pk": S("a"), "sk": N(1), "status": S("open"), "pad": S(big)})
    cases = [
        (f"INSERT INTO \"{t}\" VALUE {{'pk': 'b', 'sk': 1, 'status': 'open', 'pad': '{big}{big}'}}",
         "PutItem", True),
        (f"INSERT INTO \"{t}\" VALUE {{'pk': 'a', 'sk': 1}}", "PutItem", False),
        (f"UPDATE \"{t}\" SET pad = '{big * 2}' WHERE pk = 'a' AND sk = 1", "UpdateItem", True),
        (f"UPDATE \"{t}\" SET status = 'shipped' WHERE pk = 'a' AND sk = 1 AND status = 'open'",
         "UpdateItem", True),
        (f"UPDATE \"{t}\" SET v = 1 WHERE pk = 'a' AND sk = 1 AND status = 'lost'", "UpdateItem", False),
        (f"UPDATE \"{t}\" SET v = 1 WHERE pk = 'nobody' AND sk = 1", "UpdateItem", False),
        (f"DELETE FROM \"{t}\" WHERE pk = 'nobody' AND sk = 1", "DeleteItem", True),
        (f"DELETE FROM \"{t}\" WHERE pk = 'a' AND sk = 1 AND status = 'open'", "DeleteItem", False),
        (f"DELETE FROM \"{t}\" WHERE pk = 'b' AND sk = 1", "DeleteItem", True),
    ]
    for statement, operation, passes in cases:
        before = ddb.scan(TableName=t, ConsistentRead=True)["Items"]
        status, e = explain(endpoint, statement)
        assert status == 200, e
        assert e["Plan"]["Operation"] == operation and e["Plan"]["TableName"] == t, statement
        est = e["Estimate"]
        assert est["SingleItemWrite"] is True and est["ReadUnits"] == 0 and est["Exact"] is True
        assert est["ConditionPasses"] is passes, statement
        assert est["Bytes"] == max(est["ItemBytesBefore"], est["ItemBytesAfter"])
        assert ddb.scan(TableName=t, ConsistentRead=True)["Items"] == before  # nothing written
        units, code = batch_units(raw, statement)
        assert est["WriteUnits"] == units, statement
        assert code == (None if passes else "DuplicateItem" if operation == "PutItem"
                        else "ConditionalCheckFailed"), statement
        if not passes:
            assert any("The write would fail now" in w for w in e["Warnings"])


# POST /_sluice/execute (the dashboard workbench's Run) is ExecuteStatement with its
# ConsumedCapacity, and the API's error body on failure.
def test_execute_endpoint(endpoint, shop):
    statement = f"SELECT * FROM \"{shop}\" WHERE pk = 'c2'"
    status, r = admin(endpoint, "POST", "/_sluice/execute", {"Statement": statement})
    assert status == 200, r
    assert r["ConsumedCapacity"]["CapacityUnits"] == explain(endpoint, statement)[1]["Estimate"]["ReadUnits"]
    assert all(i["pk"] == S("c2") for i in r["Items"]) and r["Items"]
    status, r = admin(endpoint, "POST", "/_sluice/execute", {"Statement": "SELEC"})
    assert status == 400 and r["__type"].endswith("#ValidationException")
    assert r["message"] == "Statement wasn't well formed, can't be processed: SELEC"
