"""`sluice explain` against an endpoint that is not sluice (DynamoDB Local, AWS): the plan from
DescribeTable's key schema and indexes, the estimate from its ItemCount and TableSizeBytes,
marked "Exact": false, the DescribeTable request signed with SigV4 (net/sigv4.h).

Runs against DynamoDB Local as it is (the tool finds no /_sluice/explain and falls back) and
against sluice with --from-describe (the same estimate, asked of sluice's DescribeTable).
"""
import json
import math
import os
import subprocess

import pytest

from conftest import CREDS, N, REGION, S, _is_sluice_cached, sluice_bin, wait_active

BIN = sluice_bin()


def tool(endpoint, sluice, *args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=CREDS.access_key, AWS_SECRET_ACCESS_KEY=CREDS.secret_key,
               AWS_REGION=REGION)
    env.pop("AWS_SESSION_TOKEN", None)
    cmd = [BIN, "explain", "--endpoint", endpoint] + (["--from-describe"] if sluice else []) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)


@pytest.fixture(scope="module")
def orders(ddb):
    import uuid
    name = "t_" + uuid.uuid4().hex[:12]
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": t}
                              for a, t in (("pk", "S"), ("sk", "N"), ("status", "S"))],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "by_status", "Projection": {"ProjectionType": "ALL"},
                                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}]}])
    wait_active(ddb, name)
    for i in range(60):
        ddb.put_item(TableName=name, Item={"pk": S(f"c{i % 6}"), "sk": N(i), "status": S(["open", "lost"][i % 2]),
                                           "pad": S("x" * (500 + 97 * i))})
    yield name
    ddb.delete_table(TableName=name)


def estimate(endpoint, sluice, statement, *args):
    p = tool(endpoint, sluice, "--json", *args, statement)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


# A keyless SELECT is a Scan: every item of the table, its size in 4 KB units (half for an
# eventually consistent read), in pages of at most 1 MB; the GSI whose key the WHERE fixes is
# the alternative. The numbers are DescribeTable's.
@pytest.mark.parametrize("consistent", [False, True])
def test_scan_estimate(endpoint, ddb, orders, consistent):
    sluice = _is_sluice_cached(endpoint)
    d = ddb.describe_table(TableName=orders)["Table"]
    e = estimate(endpoint, sluice, f"SELECT * FROM \"{orders}\" WHERE status = 'lost'",
                 *(["--consistent"] if consistent else []))
    assert e["Plan"]["Operation"] == "Scan" and e["Plan"]["TableName"] == orders
    est = e["Estimate"]
    assert est["Exact"] is False and est["Source"] == "DescribeTable"
    assert (est["Items"], est["Bytes"], est["Pages"]) == (d["ItemCount"], d["TableSizeBytes"], 1)
    assert est["ReadUnits"] == math.ceil(d["TableSizeBytes"] / 4096) * (1.0 if consistent else 0.5)
    assert any("A filter does not reduce cost" in w for w in e["Warnings"])
    assert [a["IndexName"] for a in e["Alternatives"]] == ["by_status"]


# The full key is a GetItem of one item of the table's average size; a partition key alone a
# Query, whose key range DescribeTable does not size (no read units: null, as the seeds'
# preview shows none for a partition Query); an index named in FROM is read.
@pytest.mark.parametrize("where,op,index", [
    ("pk = 'c1' AND sk = 7", "GetItem", None),
    ("pk = 'c1' AND sk > 7", "Query", None),
    ("pk IN ['c1', 'c2']", "Query", None),
    ("sk = 7", "Scan", None),
])
def test_plans(endpoint, ddb, orders, where, op, index):
    d = ddb.describe_table(TableName=orders)["Table"]
    e = estimate(endpoint, _is_sluice_cached(endpoint), f"SELECT * FROM \"{orders}\" WHERE {where}")
    assert e["Plan"]["Operation"] == op and e["Plan"].get("IndexName") == index
    est = e["Estimate"]
    assert est["Exact"] is False
    if op == "GetItem":
        avg = d["TableSizeBytes"] / d["ItemCount"]
        assert est["Items"] == 1 and est["ReadUnits"] == math.ceil(avg / 4096) * 0.5
    if op == "Query":
        assert est["ReadUnits"] is None and est["Items"] is None


def test_index_query(endpoint, orders):
    e = estimate(endpoint, _is_sluice_cached(endpoint), f"SELECT * FROM \"{orders}\".\"by_status\" WHERE status = 'open'")
    assert (e["Plan"]["Operation"], e["Plan"]["IndexName"]) == ("Query", "by_status")


# The summary says it is an estimate; errors are the endpoint's (signed requests reach it).
def test_summary_and_errors(endpoint, orders):
    sluice = _is_sluice_cached(endpoint)
    p = tool(endpoint, sluice, f"SELECT * FROM \"{orders}\"")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(f"plan:     Scan {orders}\n") and "exact:    no" in p.stdout
    p = tool(endpoint, sluice, 'SELECT * FROM "no_such_table_x"')
    assert p.returncode == 1 and p.stderr.startswith("sluice explain: ResourceNotFoundException: ")
    p = tool(endpoint, sluice, f"SELECT * FROM \"{orders}\".\"nope\"")
    assert p.returncode == 1 and "The table does not have the specified index" in p.stderr
    p = tool(endpoint, sluice, f"DELETE FROM \"{orders}\" WHERE pk = 'c1' AND sk = 1")
    assert p.returncode == 1 and "only SELECT statements are estimated" in p.stderr
    p = tool(endpoint, sluice, "SELEC")
    assert p.returncode == 1
    assert p.stderr == ("sluice explain: ValidationException: Statement wasn't well formed, can't be "
                        "processed: SELEC\n")
