"""What PartiQL statements cost: exactly the core each becomes (GetItem, Query, Scan, PutItem,
UpdateItem, DeleteItem), side by side with that operation called directly.

The lesson of the seeds ("the cheapest throttling fix is the expensive read you did not run"):
a SELECT without an equality on the partition key is a Scan, and pays for every item of the
table whatever its WHERE keeps; the same question with the key is a Query of one partition.
DynamoDB Local returns no ConsumedCapacity for PartiQL, so these run against sluice
(capacity; the units are the developer guide's, facts §2.2).
"""
import pytest

from conftest import N, S, admin

pytestmark = pytest.mark.capacity


def cc(reply):
    assert "ConsumedCapacity" in reply, reply
    return reply["ConsumedCapacity"]["CapacityUnits"]


def stmt(client, statement, **kw):
    status, reply = client.call("ExecuteStatement", {"Statement": statement,
                                                     "ReturnConsumedCapacity": "TOTAL", **kw})
    assert status == 200, reply
    return reply


def call(client, op, body):
    status, reply = client.call(op, {**body, "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200, reply
    return reply


@pytest.fixture
def orders(client):
    """20 customers x 10 orders of about 1 KB each (200 KB in all)."""
    client.create_table("orders", AttributeDefinitions=[
        {"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
    for c in range(20):
        for o in range(10):
            call(client, "PutItem", {"TableName": "orders", "Item": {
                "pk": S(f"c{c}"), "sk": N(o), "status": S("open" if o % 3 else "shipped"),
                "pad": S("x" * 1000)}})
    return "orders"


# GetItem: the full key.
@pytest.mark.parametrize("consistent", [False, True])
def test_select_by_key_costs_a_get_item(client, orders, consistent):
    r = stmt(client, "SELECT * FROM orders WHERE pk = 'c1' AND sk = 3", ConsistentRead=consistent)
    g = call(client, "GetItem", {"TableName": orders, "Key": {"pk": S("c1"), "sk": N(3)},
                                 "ConsistentRead": consistent})
    assert cc(r) == cc(g) == (1.0 if consistent else 0.5)


# The seeds' lesson: one question, as a Query and as a Scan. The Query reads one partition
# (10 KB: 3 units strongly consistent); the Scan reads all 200 KB (50 units) to return the same
# four items.
def test_same_question_as_query_and_as_scan(client, orders):
    q = stmt(client, "SELECT * FROM orders WHERE pk = 'c7' AND status = 'shipped'", ConsistentRead=True)
    s = stmt(client, "SELECT * FROM orders WHERE begins_with(pk, 'c7') AND status = 'shipped'",
             ConsistentRead=True)
    scan = call(client, "Scan", {"TableName": orders, "ConsistentRead": True})
    query = call(client, "Query", {"TableName": orders, "KeyConditionExpression": "pk = :p",
                                   "ExpressionAttributeValues": {":p": S("c7")}, "ConsistentRead": True})
    assert len(q["Items"]) == 4 and sorted(map(str, q["Items"])) == sorted(map(str, s["Items"]))
    assert cc(q) == cc(query) == 3.0
    assert cc(s) == cc(scan) == 50.0


# pk IN [...] costs one read per key, not a Scan: three GetItems of 1 KB items, strongly
# consistent, 1 unit each (a missing key costs the minimum too).
def test_key_list_costs_its_reads(client):
    client.create_table("keys")
    for i in range(50):
        call(client, "PutItem", {"TableName": "keys", "Item": {"pk": S(f"k{i}"), "pad": S("x" * 1000)}})
    r = stmt(client, "SELECT * FROM keys WHERE pk IN ['k1', 'k2', 'nope']", ConsistentRead=True)
    assert len(r["Items"]) == 2 and cc(r) == 3.0
    s = stmt(client, "SELECT * FROM keys WHERE begins_with(pk, 'k1')", ConsistentRead=True)
    assert cc(s) == 13.0  # the whole table: 50 x ~1 KB


# A filter does not reduce a Scan's cost: a WHERE that keeps nothing pays for every item read.
def test_filtered_scan_pays_for_the_table(client, orders):
    r = stmt(client, "SELECT * FROM orders WHERE status = 'nothing'", ConsistentRead=True)
    assert r["Items"] == [] and cc(r) == 50.0


# Paging: each page costs what a Scan page with that Limit costs.
def test_paged_scan_costs_per_page(client, orders):
    r = stmt(client, "SELECT * FROM orders", Limit=8, ConsistentRead=True)
    s = call(client, "Scan", {"TableName": orders, "Limit": 8, "ConsistentRead": True})
    assert len(r["Items"]) == 8 and "NextToken" in r
    assert cc(r) == cc(s) == 2.0


# Writes cost their core's units: INSERT a PutItem, UPDATE an UpdateItem (the larger of the old
# and new item), DELETE a DeleteItem.
def test_writes_cost_their_cores(client, orders):
    big = "y" * 2500
    r = stmt(client, f"INSERT INTO orders VALUE {{'pk': 'n1', 'sk': 1, 'pad': '{big}'}}")
    p = call(client, "PutItem", {"TableName": orders, "Item": {"pk": S("n2"), "sk": N(1), "pad": S(big)}})
    assert cc(r) == cc(p) == 3.0
    r = stmt(client, "UPDATE orders SET v = 1 WHERE pk = 'n1' AND sk = 1")
    u = call(client, "UpdateItem", {"TableName": orders, "Key": {"pk": S("n2"), "sk": N(1)},
                                    "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": N(1)}})
    assert cc(r) == cc(u) == 3.0
    r = stmt(client, "DELETE FROM orders WHERE pk = 'n1' AND sk = 1")
    d = call(client, "DeleteItem", {"TableName": orders, "Key": {"pk": S("n2"), "sk": N(1)}})
    assert cc(r) == cc(d) == 3.0


# A Scan plan on a provisioned table is throttled like a Scan: the page that overdraws the
# table's burst is admitted, the next is ProvisionedThroughputExceededException with the
# table's read reason.
def test_scan_plan_throttles_like_a_scan(lean_client):
    lean_client.create_table("prov", ProvisionedThroughput={"ReadCapacityUnits": 10,
                                                            "WriteCapacityUnits": 1000})
    for i in range(40):
        status, reply = lean_client.call("PutItem", {"TableName": "prov",
                                                     "Item": {"pk": S(f"k{i}"), "pad": S("x" * 3000)}})
        assert status == 200, reply
    status, reply = lean_client.call("ExecuteStatement", {"Statement": "SELECT * FROM prov WHERE pad = 'z'",
                                                          "ConsistentRead": True})
    assert status == 200, reply
    status, reply = lean_client.call("ExecuteStatement", {"Statement": "SELECT * FROM prov WHERE pad = 'z'",
                                                          "ConsistentRead": True})
    assert status == 400, reply
    assert reply["__type"].endswith("#ProvisionedThroughputExceededException")
    assert [r["reason"] for r in reply["ThrottlingReasons"]] == ["TableReadProvisionedThroughputExceeded"]


T0 = 1796040000000  # the manual clock's start, 2026-11-30T12:00:00Z, in epoch ms


def samples(ep, **q):
    """The SampleCount of a metric over the first minute (the manual clock does not move)."""
    path = "/_sluice/metrics?" + "&".join(f"{k}={v}" for k, v in
                                          dict(q, start=T0, end=T0 + 60000).items())
    status, body = admin(ep, "GET", path)
    assert status == 200, body
    return sum(d["SampleCount"] for d in body["Datapoints"])


# CloudWatch's dimensions of the PartiQL operations (facts §7): ExecuteStatement's request
# metrics carry Verb (PartiQLSelect, PartiQLInsert, PartiQLUpdate, PartiQLDelete);
# BatchExecuteStatement's and ExecuteTransaction's carry OperationType (Read, Write). Naming
# no verb sums them all; /metrics labels them verb and operation_type.
def test_verb_and_operation_type_dimensions(client):
    client.create_table("verbs")
    for s in ["INSERT INTO verbs VALUE {'pk': 'a'}", "UPDATE verbs SET v = 1 WHERE pk = 'a'",
              "SELECT * FROM verbs WHERE pk = 'a'", "SELECT * FROM verbs", "DELETE FROM verbs WHERE pk = 'a'"]:
        stmt(client, s)
    call(client, "BatchExecuteStatement", {"Statements": [{"Statement": "SELECT * FROM verbs WHERE pk = 'b'"}]})
    call(client, "BatchExecuteStatement", {"Statements": [{"Statement": "INSERT INTO verbs VALUE {'pk': 'b'}"},
                                                          {"Statement": "INSERT INTO verbs VALUE {'pk': 'c'}"}]})
    call(client, "ExecuteTransaction", {"TransactStatements": [{"Statement": "DELETE FROM verbs WHERE pk = 'b'"}]})
    call(client, "ExecuteTransaction", {"TransactStatements": [{"Statement": "SELECT * FROM verbs WHERE pk = 'c'"}]})
    ep = client.ep
    lat = dict(table="verbs", metric="SuccessfulRequestLatency")
    assert {v: samples(ep, operation="ExecuteStatement", verb=v, **lat) for v in
            ("PartiQLInsert", "PartiQLUpdate", "PartiQLSelect", "PartiQLDelete")} == {
        "PartiQLInsert": 1, "PartiQLUpdate": 1, "PartiQLSelect": 2, "PartiQLDelete": 1}
    assert samples(ep, operation="ExecuteStatement", **lat) == 5
    assert samples(ep, operation="BatchExecuteStatement", verb="Read", **lat) == 1
    assert samples(ep, operation="BatchExecuteStatement", verb="Write", **lat) == 1
    assert samples(ep, operation="ExecuteTransaction", verb="Write", **lat) == 1
    assert samples(ep, operation="ExecuteTransaction", verb="Read", **lat) == 1
    assert samples(ep, operation="ExecuteStatement", verb="Read", **lat) == 0
    import urllib.request
    with urllib.request.urlopen(ep + "/metrics", timeout=30) as r:
        text = r.read().decode()
    assert 'table_name="verbs",operation="ExecuteStatement",verb="PartiQLSelect"' in text
    assert 'table_name="verbs",operation="BatchExecuteStatement",operation_type="Write"' in text


# BatchExecuteStatement throttles as BatchGetItem: each throttled statement is one
# ReadThrottleEvents and its own error; the batch is one ThrottledRequests only when every
# statement was throttled (facts §7).
def test_batch_throttle_counting(lean_client):
    c = lean_client
    c.create_table("thin", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1000})
    for i in range(6):
        assert c.call("PutItem", {"TableName": "thin", "Item": {"pk": S(f"k{i}")}})[0] == 200
    batch = {"Statements": [{"Statement": f"SELECT * FROM thin WHERE pk = 'k{i}'", "ConsistentRead": True}
                            for i in range(3)]}
    status, first = c.call("BatchExecuteStatement", batch)
    assert status == 200, first
    codes = [r.get("Error", {}).get("Code") for r in first["Responses"]]
    assert codes[0] is None and codes[1:] == ["ProvisionedThroughputExceeded"] * 2
    q = dict(table="thin", metric="ThrottledRequests", operation="BatchExecuteStatement")
    assert samples(c.ep, **q) == 0
    status, second = c.call("BatchExecuteStatement", batch)
    assert status == 200, second
    assert [r["Error"]["Code"] for r in second["Responses"]] == ["ProvisionedThroughputExceeded"] * 3
    assert samples(c.ep, **q) == 1
    assert samples(c.ep, table="thin", metric="ReadThrottleEvents") == 5
