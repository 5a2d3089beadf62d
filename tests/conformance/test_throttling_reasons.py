"""Every one of the 16 ThrottlingReason strings on the wire (facts §1.2-1.4, capacity-model.md
§3): Table or Index, Read or Write, and ProvisionedThroughputExceeded,
KeyRangeThroughputExceeded, MaxOnDemandThroughputExceeded or AccountLimitExceeded, each
produced by the model (no fault rule), with the resource ARN (the index's for an index). Reads
and writes of an index are a Query on it and a PutItem whose item carries its key. The account
limit (the on-demand per-table quota) is cut to 10 units/s by --config; the provisioned cases
run on one second of burst. Manual clock, no time passes: every throttle comes from spending a
bucket. DynamoDB Local ignores capacity: marked `capacity`.
"""
import uuid

import pytest

from conftest import Client, Server

pytestmark = pytest.mark.capacity

GSI_ATTRS = [{"AttributeName": "pk", "AttributeType": "S"},
             {"AttributeName": "gk", "AttributeType": "S"}]


def gsi(**extra):
    g = {"IndexName": "byg", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}
    g.update(extra)
    return g


def new_table(client, **kw):
    name = "t_" + uuid.uuid4().hex[:12]
    d = client.create_table(name, AttributeDefinitions=GSI_ATTRS, **kw)
    idx = d.get("GlobalSecondaryIndexes", [{}])[0].get("IndexArn")
    return name, d["TableArn"], idx


def item(pk, size, gk=None):
    it = {"pk": {"S": pk}, "p": {"S": "x" * (size - len(pk) - 3 - (len(gk) + 2 if gk else 0))}}
    if gk:
        it["gk"] = {"S": gk}
    return it


def reasons_until_throttled(call, limit=2000):
    """Calls `call()` until it is throttled; the reasons of that answer."""
    for _ in range(limit):
        status, reply = call()
        if status != 200:
            assert status == 400, reply
            got = reply.get("ThrottlingReasons") or reply.get("throttlingReasons")
            assert got, reply
            return got
    raise AssertionError("never throttled")


def put(client, table, pk, size=1000, gk=None):
    return client.call("PutItem", {"TableName": table, "Item": item(pk, size, gk)})


def get(client, table, pk, consistent=True):
    return client.call("GetItem", {"TableName": table, "Key": {"pk": {"S": pk}},
                                   "ConsistentRead": consistent})


def query(client, table, gk):
    return client.call("Query", {"TableName": table, "IndexName": "byg",
                                 "KeyConditionExpression": "gk = :v",
                                 "ExpressionAttributeValues": {":v": {"S": gk}}})


def counter():
    n = [0]

    def nxt():
        n[0] += 1
        return f"k{n[0]}"
    return nxt


def check(got, reason, arn):
    assert {"reason": reason, "resource": arn} in got, got


PT = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
BIG = {"ReadCapacityUnits": 1000, "WriteCapacityUnits": 1000}


def test_provisioned_reasons(lean_client):
    c = lean_client
    name, arn, iarn = new_table(c, ProvisionedThroughput=PT,
                                GlobalSecondaryIndexes=[gsi(ProvisionedThroughput=BIG)])
    k = counter()
    check(reasons_until_throttled(lambda: put(c, name, k())), "TableWriteProvisionedThroughputExceeded",
          arn)
    # A missing item still costs a strongly consistent read its unit.
    check(reasons_until_throttled(lambda: get(c, name, "r")), "TableReadProvisionedThroughputExceeded",
          arn)
    name, arn, iarn = new_table(c, ProvisionedThroughput=BIG,
                                GlobalSecondaryIndexes=[gsi(ProvisionedThroughput=PT)])
    check(reasons_until_throttled(lambda: put(c, name, k(), gk="g1")),
          "IndexWriteProvisionedThroughputExceeded", iarn)
    check(reasons_until_throttled(lambda: query(c, name, "g1")),
          "IndexReadProvisionedThroughputExceeded", iarn)


# A hot key: one partition's 3,000 read / 1,000 write units a second, far below the table's
# on-demand ceiling. Large items make each request costly, so that few requests spend it.
def test_key_range_reasons(client):
    c = client
    name, arn, iarn = new_table(c, BillingMode="PAY_PER_REQUEST", GlobalSecondaryIndexes=[gsi()])
    check(reasons_until_throttled(lambda: put(c, name, "hot", size=100_000)),
          "TableWriteKeyRangeThroughputExceeded", arn)
    c.advance(60_000)
    check(reasons_until_throttled(lambda: get(c, name, "hot")),
          "TableReadKeyRangeThroughputExceeded", arn)
    c.advance(60_000)
    k = counter()
    check(reasons_until_throttled(lambda: put(c, name, k(), size=100_000, gk="hot")),
          "IndexWriteKeyRangeThroughputExceeded", iarn)
    c.advance(60_000)
    # One 100 KB entry under the key: 12.5 units an eventually consistent Query.
    name, arn, iarn = new_table(c, BillingMode="PAY_PER_REQUEST", GlobalSecondaryIndexes=[gsi()])
    assert put(c, name, "one", size=100_000, gk="hot")[0] == 200
    check(reasons_until_throttled(lambda: query(c, name, "hot")),
          "IndexReadKeyRangeThroughputExceeded", iarn)


# OnDemandThroughput maxima of the table and of the index.
def test_max_on_demand_reasons(client):
    c = client
    cap = {"MaxReadRequestUnits": 5, "MaxWriteRequestUnits": 5}
    name, arn, iarn = new_table(c, BillingMode="PAY_PER_REQUEST", OnDemandThroughput=cap,
                                GlobalSecondaryIndexes=[gsi()])
    k = counter()
    check(reasons_until_throttled(lambda: put(c, name, k())),
          "TableWriteMaxOnDemandThroughputExceeded", arn)
    check(reasons_until_throttled(lambda: get(c, name, "k1")),
          "TableReadMaxOnDemandThroughputExceeded", arn)
    name, arn, iarn = new_table(c, BillingMode="PAY_PER_REQUEST",
                                GlobalSecondaryIndexes=[gsi(OnDemandThroughput=cap)])
    check(reasons_until_throttled(lambda: put(c, name, k(), gk="g1")),
          "IndexWriteMaxOnDemandThroughputExceeded", iarn)
    check(reasons_until_throttled(lambda: query(c, name, "g1")),
          "IndexReadMaxOnDemandThroughputExceeded", iarn)


# The account limit: the per-table quota of an on-demand table and of its index (10 units/s
# here). A write with the index key charges both, each its own quota; a Query only the index.
def test_account_limit_reasons(tmp_path):
    cfg = tmp_path / "quota.conf"
    cfg.write_text("table_quota_read = 10\ntable_quota_write = 10\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(cfg)])
    try:
        c = Client(srv.endpoint)
        name, arn, iarn = new_table(c, BillingMode="PAY_PER_REQUEST",
                                    GlobalSecondaryIndexes=[gsi()])
        k = counter()
        check(reasons_until_throttled(lambda: put(c, name, k())), "TableWriteAccountLimitExceeded",
              arn)
        check(reasons_until_throttled(lambda: get(c, name, "k1")), "TableReadAccountLimitExceeded",
              arn)
        name, arn, iarn = new_table(c, BillingMode="PAY_PER_REQUEST",
                                    GlobalSecondaryIndexes=[gsi()])
        got = reasons_until_throttled(lambda: put(c, name, k(), gk="g1"))
        check(got, "IndexWriteAccountLimitExceeded", iarn)
        check(reasons_until_throttled(lambda: query(c, name, "g1")),
              "IndexReadAccountLimitExceeded", iarn)
    finally:
        srv.stop()

