"""`sluice size` (src/tools/size.c) against the server: for random items on a table with
an LSI and two GSIs, the sizes and units the tool computes offline equal the
ConsumedCapacity the server returns for the same item (PutItem with
ReturnConsumedCapacity INDEXES, GetItem eventual and strong), exactly; an update (a
PutItem replacing an item) equals `--old`. The tool's output formats, flags and errors
are pinned too. sluice's own tool: marked sluice_only (the server it compares with runs
with --profile unlimited so that nothing throttles while the clock stands still)."""
import base64
import json
import os
import random
import subprocess

import pytest

from conftest import Client, Server, sluice_bin

pytestmark = pytest.mark.sluice_only

BIN = sluice_bin()

TABLE = {
    "TableName": "sized",
    "AttributeDefinitions": [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "sk", "AttributeType": "N"},
        {"AttributeName": "status", "AttributeType": "S"},
        {"AttributeName": "at", "AttributeType": "N"},
        {"AttributeName": "owner", "AttributeType": "B"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "LocalSecondaryIndexes": [{
        "IndexName": "byAt",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "at", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}}],
    "GlobalSecondaryIndexes": [
        {"IndexName": "byStatus",
         "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                       {"AttributeName": "at", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["total", "note"]}},
        {"IndexName": "byOwner",
         "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}],
    "BillingMode": "PAY_PER_REQUEST",
}


def run(*args, stdin=None):
    return subprocess.run([BIN, "size", *args], input=stdin, capture_output=True, text=True,
                          timeout=60)


def rand_text(rng, n):
    alphabet = "abcxyz0123 -_é€日本語🙂"
    return "".join(rng.choice(alphabet) for _ in range(n))


def rand_number(rng):
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 38)))
    digits = digits.lstrip("0") or "0"
    if rng.random() < 0.3 and len(digits) > 1:
        cut = rng.randint(1, len(digits) - 1)
        digits = digits[:cut] + "." + digits[cut:]
    if rng.random() < 0.2:
        digits = "-" + digits
    if rng.random() < 0.1:
        digits += "E" + str(rng.randint(-20, 20))
    return digits


def rand_value(rng, depth=0):
    kind = rng.choice(["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"]
                      if depth < 3 else ["S", "N", "B", "BOOL", "NULL"])
    if kind == "S":
        return {"S": rand_text(rng, rng.choice([0, 1, 5, 40, 300, 1500]))}
    if kind == "N":
        return {"N": rand_number(rng)}
    if kind == "B":
        return {"B": base64.b64encode(os.urandom(rng.randint(1, 600))).decode()}
    if kind == "BOOL":
        return {"BOOL": rng.random() < 0.5}
    if kind == "NULL":
        return {"NULL": True}
    if kind == "SS":
        return {"SS": sorted({rand_text(rng, rng.randint(1, 30)) for _ in range(rng.randint(1, 5))})}
    if kind == "NS":
        return {"NS": sorted({str(rng.randint(-10**6, 10**9)) for _ in range(rng.randint(1, 5))})}
    if kind == "BS":
        return {"BS": sorted({base64.b64encode(bytes([i]) * rng.randint(1, 40)).decode()
                              for i in range(rng.randint(1, 4))})}
    if kind == "L":
        return {"L": [rand_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]}
    return {"M": {rand_text(rng, rng.randint(1, 8)): rand_value(rng, depth + 1)
                  for _ in range(rng.randint(0, 4))}}


def rand_item(rng, pk, sk):
    item = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
    if rng.random() < 0.7:
        item["status"] = {"S": rng.choice(["NEW", "PAID", "SHIPPED", "x" * rng.randint(1, 900)])}
    if rng.random() < 0.6:
        item["at"] = {"N": str(rng.randint(0, 10**12))}
    if rng.random() < 0.4:
        item["owner"] = {"B": base64.b64encode(os.urandom(rng.randint(1, 64))).decode()}
    for name in ("total", "note"):
        if rng.random() < 0.5:
            item[name] = rand_value(rng)
    for _ in range(rng.randint(0, 6)):
        item[rand_text(rng, rng.randint(1, 12))] = rand_value(rng)
    return item


def units(consumed, section, name):
    return consumed.get(section, {}).get(name, {}).get("CapacityUnits", 0.0)


@pytest.fixture(scope="module")
def server():
    srv = Server(["--profile", "unlimited"])
    client = Client(srv.endpoint)
    status, reply = client.call("CreateTable", TABLE)
    assert status == 200, reply
    yield client
    srv.stop()


@pytest.fixture(scope="module")
def described(server, tmp_path_factory):
    status, reply = server.call("DescribeTable", {"TableName": "sized"})
    assert status == 200
    path = tmp_path_factory.mktemp("size") / "table.json"
    path.write_text(json.dumps(reply))
    return str(path)


def put(server, item):
    status, reply = server.call("PutItem", {"TableName": "sized", "Item": item,
                                            "ReturnConsumedCapacity": "INDEXES"})
    assert status == 200, reply
    return reply["ConsumedCapacity"]


def get(server, item, consistent):
    status, reply = server.call("GetItem", {
        "TableName": "sized", "Key": {"pk": item["pk"], "sk": item["sk"]},
        "ConsistentRead": consistent, "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200
    return reply["ConsumedCapacity"]["CapacityUnits"]


def check(report, consumed):
    assert consumed["Table"]["CapacityUnits"] == report["write"]["standard"]
    for x in report["indexes"]:
        section = "GlobalSecondaryIndexes" if x["kind"] == "GSI" else "LocalSecondaryIndexes"
        assert units(consumed, section, x["name"]) == x["write_units"], (x, consumed)
    assert consumed["CapacityUnits"] == report["total_write_units"]


# 3,000 random new items: the table part, each index's part and the total equal the
# server's ConsumedCapacity; the eventually and strongly consistent GetItem costs too.
def test_random_new_items_match_the_server(server, described):
    rng = random.Random(15)
    items = [rand_item(rng, rand_text(rng, rng.randint(1, 60)), i) for i in range(3000)]
    consumed = [put(server, it) for it in items]
    reads = [(get(server, it, False), get(server, it, True)) for it in items]
    r = run("--json", "--lines", "--table", described,
            stdin="".join(json.dumps(it) + "\n" for it in items))
    assert r.returncode == 0, r.stderr
    reports = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(reports) == len(items)
    for report, c, (eventual, strong) in zip(reports, consumed, reads):
        check(report, c)
        assert report["read"]["eventual"] == eventual
        assert report["read"]["strong"] == strong
    # The sample covers multi-unit items and every index outcome.
    assert max(rep["write"]["standard"] for rep in reports) >= 3
    assert {x["in_index"] for rep in reports for x in rep["indexes"]} == {True, False}


# --endpoint URL --table-name T: the description comes from DescribeTable over HTTP (signed
# with SigV4 as sluice bench signs) and gives the same reports as --table FILE.
def test_endpoint_gives_the_same_reports(server, described):
    rng = random.Random(16)
    text = "".join(json.dumps(rand_item(rng, rand_text(rng, 20), i)) + "\n" for i in range(50))
    by_file = run("--json", "--lines", "--table", described, stdin=text)
    by_endpoint = run("--json", "--lines", "--endpoint", server.ep, "--table-name", "sized",
                      stdin=text)
    assert by_endpoint.returncode == 0, by_endpoint.stderr
    assert by_endpoint.stdout == by_file.stdout
    assert any(json.loads(line)["indexes"] for line in by_endpoint.stdout.splitlines())
    r = run("--endpoint", server.ep, "--table-name", "nope", "{}")
    assert r.returncode == 1 and "DescribeTable of 'nope': HTTP 400" in r.stderr
    assert "ResourceNotFoundException" in r.stderr
    r = run("--endpoint", server.ep, "{}")
    assert r.returncode == 2 and "--endpoint and --table-name go together" in r.stderr
    r = run("--endpoint", "http://127.0.0.1:1", "--table-name", "x", "{}")
    assert r.returncode == 1 and "DescribeTable" in r.stderr


# An update (PutItem over an existing item) costs the larger image on the table and, per
# index, what the change did: a key change is a delete plus a put (2 writes).
def test_random_updates_match_the_server(server, described, tmp_path):
    rng = random.Random(1515)
    seen_two = False
    for i in range(120):
        pk = "u" + str(i)
        old = rand_item(rng, pk, 1)
        new = rand_item(rng, pk, 1)
        put(server, old)
        consumed = put(server, new)
        old_path = tmp_path / "old.json"
        old_path.write_text(json.dumps(old))
        r = run("--json", "--table", described, "--old", str(old_path), json.dumps(new))
        assert r.returncode == 0, r.stderr
        report = json.loads(r.stdout)
        check(report, consumed)
        seen_two |= any(x["writes"] == 2 for x in report["indexes"])
    assert seen_two


# The text report names the units and the per-attribute breakdown; the developer guide's
# 23-byte example.
def test_text_report():
    r = run('{"shirt-color":{"S":"R"},"shirt-size":{"S":"M"}}')
    assert r.returncode == 0
    assert r.stdout.startswith("item: 23 bytes")
    assert "shirt-color" in r.stdout and "eventually consistent    0.5 RCU" in r.stdout
    assert "standard                 1 WCU" in r.stdout
    # Plain JSON on standard input gives the same size.
    r = run("--plain", "--json", stdin='{"shirt-color":"R","shirt-size":"M"}')
    assert json.loads(r.stdout)["bytes"] == 23


# Input the service would refuse: the service's message; unknown flags: usage, exit 2.
def test_errors():
    r = run('{"a":{"N":"12x"}}')
    assert r.returncode == 1
    assert "ValidationException" in r.stderr
    r = run('{"a":"text"}')
    assert r.returncode == 1 and "--plain" in r.stderr
    r = run("--frob")
    assert r.returncode == 2 and "usage: sluice size" in r.stderr
    r = run("/nonexistent/item.json")
    assert r.returncode == 1 and "cannot read" in r.stderr
    r = run("--plain", stdin='{"pk":"' + "x" * 409600 + '"}')
    assert r.returncode == 0
    assert "Item size has exceeded the maximum allowed size" in r.stdout
