"""sluice's metrics over HTTP (src/server/metrics_http.c, src/metrics/): GET /metrics
in the Prometheus text format, checked by scripts/promcheck.py; CloudWatch-style
datapoints at /_sluice/metrics; recent throttle events at /_sluice/events;
Contributor Insights top keys at /_sluice/tables/{name}/insights.

Everything runs on a private server with a manual clock (conftest.manual_server), so
every number is exact: 2026-11-30T12:00:00Z is minute 0. DynamoDB Local has none of
these endpoints: sluice_only (and capacity where throttles are involved).
"""
import json
import os
import subprocess
import sys
import urllib.request

import pytest

from conftest import ROOT, admin
from test_capacity_http import create, put

pytestmark = [pytest.mark.sluice_only, pytest.mark.capacity]

PROMCHECK = os.path.join(ROOT, "scripts", "promcheck.py")
T0 = 1796040000000  # 2026-11-30T12:00:00Z in epoch ms


def get(ep, path):
    """GET an admin path; returns (status, content type, body bytes)."""
    try:
        with urllib.request.urlopen(ep + path, timeout=30) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def datapoints(ep, **q):
    path = "/_sluice/metrics?" + "&".join(f"{k}={v}" for k, v in q.items())
    status, body = admin(ep, "GET", path)
    assert status == 200, body
    return body["Datapoints"]


def promcheck(data, conventions=True):
    args = [sys.executable, PROMCHECK] + (["--conventions"] if conventions else []) + ["-"]
    p = subprocess.run(args, input=data, capture_output=True)
    return p.returncode, p.stdout.decode()


def workload(client):
    """Minute 0: 8 PutItems on a 5 WCU table (5 admitted, 3 throttled), 2 GetItems,
    one unknown-table GetItem. Minute 1: 2 PutItems."""
    create(client, "orders", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                    "WriteCapacityUnits": 5})
    statuses = [put(client, "orders", f"k{i}")[0] for i in range(8)]
    assert statuses == [200] * 5 + [400] * 3
    for k in ("k0", "nope"):
        assert client.call("GetItem", {"TableName": "orders", "Key": {"pk": {"S": k}}})[0] == 200
    assert client.call("GetItem", {"TableName": "missing", "Key": {"pk": {"S": "x"}}})[0] == 400
    client.advance(60 * 1000)
    for k in ("m0", "m1"):
        assert put(client, "orders", k)[0] == 200


# The checker is strict: it rejects what the format forbids (so that its OK means
# something).
def test_promcheck_rejects_bad_input():
    bad = [
        b"x_total 1",                                              # no final newline
        b"# TYPE x_total counter\nx_total -1\n",                   # negative counter
        b"x_total 1\n# TYPE x_total counter\n",                    # TYPE after samples
        b'x{a="\\q"} 1\n',                                         # bad escape
        b'x{a="1",a="2"} 1\n',                                     # label twice
        b"x 1\nx 2\n",                                             # duplicate sample
        b"x 1\ny 1\nx{a=\"b\"} 1\n",                               # family not contiguous
        b"x one\n",                                                # bad value
        b'# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
        b'# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n',   # no +Inf
        b'# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n',  # count mismatch
        b'{__name__="x"} 1\n',                                     # no metric name
    ]
    for data in bad:
        rc, out = promcheck(data, conventions=False)
        assert rc == 1, (data, out)
    rc, out = promcheck(b"# TYPE requests counter\nrequests 1\n")
    assert rc == 1 and "_total" in out
    good = (b'# HELP h_seconds Latency\\nin seconds\n# TYPE h_seconds histogram\n'
            b'h_seconds_bucket{op="a",le="0.1"} 1\nh_seconds_bucket{op="a",le="+Inf"} 2\n'
            b'h_seconds_sum{op="a"} 0.3\nh_seconds_count{op="a"} 2\n'
            b'# TYPE up gauge\nup{x="a\\"b\\\\c\\nd"} 1 1700000000000\nup NaN\n')
    assert promcheck(good) == (0, "")


# /metrics after a workload with throttles, a GSI and latencies is valid Prometheus
# text, follows the naming conventions, and carries the CloudWatch counts.
def test_prometheus_exposition(lean_client):
    workload(lean_client)
    create(lean_client, "withgsi",
           AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "g", "AttributeType": "S"}],
           GlobalSecondaryIndexes=[{"IndexName": "byg",
                                    "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                    "Projection": {"ProjectionType": "ALL"}}])
    assert lean_client.call("PutItem", {"TableName": "withgsi",
                                   "Item": {"pk": {"S": "a"}, "g": {"S": "b"}}})[0] == 200
    status, ctype, body = get(lean_client.ep, "/metrics")
    assert status == 200
    assert ctype == "text/plain; version=0.0.4; charset=utf-8"
    assert promcheck(body) == (0, "")
    text = body.decode()
    lines = set(text.splitlines())
    assert 'sluice_dynamodb_consumed_write_capacity_units_total{table_name="orders"} 7' in lines
    assert 'sluice_dynamodb_consumed_read_capacity_units_total{table_name="orders"} 1' in lines
    assert 'sluice_dynamodb_write_throttle_events_total{table_name="orders"} 3' in lines
    assert ('sluice_dynamodb_write_provisioned_throughput_throttle_events_total'
            '{table_name="orders"} 3') in lines
    assert ('sluice_dynamodb_throttled_requests_total{table_name="orders",operation="PutItem"} 3'
            in lines)
    assert "sluice_dynamodb_user_errors_total 1" in lines
    assert ('sluice_dynamodb_successful_request_latency_seconds_count'
            '{table_name="orders",operation="PutItem"} 7') in lines
    assert ('sluice_dynamodb_consumed_write_capacity_units_total'
            '{table_name="withgsi",global_secondary_index_name="byg"} 1') in lines
    assert 'sluice_dynamodb_provisioned_write_capacity_units{table_name="orders"} 5' in lines
    assert "# TYPE sluice_dynamodb_successful_request_latency_seconds histogram" in lines


# CloudWatch datapoints per minute: Sum = units, SampleCount = requests; the throttled
# puts are events and throttled requests, not consumption.
def test_datapoints_per_minute(lean_client):
    workload(lean_client)
    ep = lean_client.ep
    end = T0 + 120000
    dps = datapoints(ep, table="orders", metric="ConsumedWriteCapacityUnits", period=60,
                     start=T0, end=end)
    assert dps == [
        {"Timestamp": "2026-11-30T12:00:00.000Z", "SampleCount": 5.0, "Sum": 5.0,
         "Average": 1.0, "Minimum": 1.0, "Maximum": 1.0, "Unit": "Count"},
        {"Timestamp": "2026-11-30T12:01:00.000Z", "SampleCount": 2.0, "Sum": 2.0,
         "Average": 1.0, "Minimum": 1.0, "Maximum": 1.0, "Unit": "Count"}]
    # ISO times work as well as epoch milliseconds; a 120 s period is one datapoint.
    dps = datapoints(ep, table="orders", metric="ConsumedWriteCapacityUnits", period=120,
                     start="2026-11-30T12:00:00Z", end="2026-11-30T12:02:00Z")
    assert [(d["Sum"], d["SampleCount"]) for d in dps] == [(7.0, 7.0)]
    # Reads: 0.5 unit each (eventually consistent, item <= 4 KB), a missing item too.
    dps = datapoints(ep, table="orders", metric="ConsumedReadCapacityUnits", start=T0, end=end)
    assert [(d["Sum"], d["SampleCount"], d["Average"]) for d in dps] == [(1.0, 2.0, 0.5)]
    dps = datapoints(ep, table="orders", metric="WriteThrottleEvents", start=T0, end=end)
    assert [(d["Timestamp"], d["Sum"]) for d in dps] == [("2026-11-30T12:00:00.000Z", 3.0)]
    dps = datapoints(ep, table="orders", metric="WriteProvisionedThroughputThrottleEvents",
                     start=T0, end=end)
    assert [d["Sum"] for d in dps] == [3.0]
    assert datapoints(ep, table="orders", metric="WriteKeyRangeThroughputThrottleEvents",
                      start=T0, end=end) == []
    dps = datapoints(ep, table="orders", metric="ThrottledRequests", operation="PutItem",
                     start=T0, end=end)
    assert [d["Sum"] for d in dps] == [3.0]
    assert datapoints(ep, table="orders", metric="ThrottledRequests", operation="GetItem",
                      start=T0, end=end) == []
    # Latency: milliseconds, one sample per successful request, all operations together
    # when no operation is named.
    dps = datapoints(ep, table="orders", metric="SuccessfulRequestLatency", start=T0, end=end)
    assert [d["SampleCount"] for d in dps] == [7.0, 2.0]
    assert all(d["Unit"] == "Milliseconds" and d["Minimum"] >= 0 for d in dps)
    dps = datapoints(ep, table="orders", metric="SuccessfulRequestLatency", operation="GetItem",
                     start=T0, end=end)
    assert [d["SampleCount"] for d in dps] == [2.0]
    # UserErrors has no dimension.
    dps = datapoints(ep, metric="UserErrors", start=T0, end=end)
    assert [d["Sum"] for d in dps] == [1.0]


# Per-second datapoints come from the second ring (the last five minutes).
def test_datapoints_per_second(client):
    create(client, "persec", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                    "WriteCapacityUnits": 100})
    for s in range(3):
        for i in range(s + 1):
            assert put(client, "persec", f"k{s}{i}")[0] == 200
        client.advance(1000)
    dps = datapoints(client.ep, table="persec", metric="ConsumedWriteCapacityUnits", period=1,
                     start=T0, end=T0 + 3000)
    assert [(d["Timestamp"], d["Sum"]) for d in dps] == [
        ("2026-11-30T12:00:00.000Z", 1.0), ("2026-11-30T12:00:01.000Z", 2.0),
        ("2026-11-30T12:00:02.000Z", 3.0)]
    # Five minutes later the seconds are gone; the minute keeps them.
    client.advance(300 * 1000)
    assert datapoints(client.ep, table="persec", metric="ConsumedWriteCapacityUnits", period=1,
                      start=T0, end=T0 + 3000) == []
    dps = datapoints(client.ep, table="persec", metric="ConsumedWriteCapacityUnits", period=60,
                     start=T0, end=T0 + 60000)
    assert [d["Sum"] for d in dps] == [6.0]


# Bad requests to /_sluice/metrics say what is wrong.
def test_datapoints_errors(client):
    ep = client.ep
    for q, word in (("metric=Nope&table=t", "metric"),
                    ("metric=ConsumedReadCapacityUnits", "table"),
                    ("metric=ConsumedReadCapacityUnits&table=t&period=7", "period"),
                    ("metric=ConsumedReadCapacityUnits&table=t&period=x", "period"),
                    ("metric=ConsumedReadCapacityUnits&table=t&start=yesterday", "start"),
                    ("metric=ConsumedReadCapacityUnits&table=t&period=1&start=0", "datapoints")):
        status, body = admin(ep, "GET", "/_sluice/metrics?" + q)
        assert status == 400, q
        assert word in body["error"], (q, body)
    status, _ = admin(ep, "POST", "/_sluice/metrics?metric=UserErrors", {})
    assert status == 405


# Recent throttle events: newest first, with the operation, exception, reasons,
# partition and key; filtered by table; bounded by limit.
def test_events(lean_client):
    workload(lean_client)
    create(lean_client, "other", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                   "WriteCapacityUnits": 1})
    put(lean_client, "other", "o1")
    assert put(lean_client, "other", "o2")[0] == 400
    status, body = admin(lean_client.ep, "GET", "/_sluice/events?table=orders")
    assert status == 200
    ev = body["events"]
    assert [e["partition_key"] for e in ev] == ["k7", "k6", "k5"]
    assert ev[0] == {"time": "2026-11-30T12:00:00.000Z", "time_ms": T0, "operation": "PutItem",
                     "exception": "ProvisionedThroughputExceededException", "table": "orders",
                     "index": None, "direction": "write",
                     "reasons": ["TableWriteProvisionedThroughputExceeded"], "partition": 0,
                     "partition_key": "k7", "sort_key": None}
    status, body = admin(lean_client.ep, "GET", "/_sluice/events?limit=2")
    assert [e["table"] for e in body["events"]] == ["other", "orders"]
    assert body["events"][0]["time"] == "2026-11-30T12:01:00.000Z"
    status, body = admin(lean_client.ep, "GET", "/_sluice/events?limit=0")
    assert status == 400


# Contributor Insights top keys: the hot key leads by consumed throughput units
# (3 x write units + read units) and by throttle count.
def test_insights(lean_client):
    create(lean_client, "hotkeys", ProvisionedThroughput={"ReadCapacityUnits": 100,
                                                     "WriteCapacityUnits": 10})
    status, reply = lean_client.call("UpdateContributorInsights", {
        "TableName": "hotkeys", "ContributorInsightsAction": "ENABLE"})
    assert status == 200, reply
    results = [put(lean_client, "hotkeys", "hot")[0] for _ in range(12)]
    assert results.count(400) == 2
    assert put(lean_client, "hotkeys", "cold")[0] == 400  # the table bucket is empty now
    lean_client.advance(1000)
    for _ in range(3):
        assert lean_client.call("GetItem", {"TableName": "hotkeys", "Key": {"pk": {"S": "cold"}},
                                       "ConsistentRead": True})[0] == 200
    status, body = admin(lean_client.ep, "GET", "/_sluice/tables/hotkeys/insights?minutes=1")
    assert status == 200
    (res,) = body["resources"]
    assert res["table"] == "hotkeys" and res["index"] is None
    assert res["mode"] == "ACCESSED_AND_THROTTLED_KEYS"
    acc = res["most_accessed_keys"]["partition_key"]
    assert [(k["partition_key"], k["consumed_throughput_units"]) for k in acc] == [
        ("hot", 30.0), ("cold", 3.0)]
    thr = res["most_throttled_keys"]["partition_key"]
    assert [(k["partition_key"], k["throttle_count"]) for k in thr] == [("hot", 2.0),
                                                                       ("cold", 1.0)]
    assert res["most_accessed_keys"]["partition_and_sort_key"] == []
    # Disabled: no resources any more. Unknown table: 404.
    lean_client.call("UpdateContributorInsights", {"TableName": "hotkeys",
                                              "ContributorInsightsAction": "DISABLE"})
    assert admin(lean_client.ep, "GET", "/_sluice/tables/hotkeys/insights")[1]["resources"] == []
    assert admin(lean_client.ep, "GET", "/_sluice/tables/nope/insights")[0] == 404


# Contributor Insights on a GSI records the index's own key-range write throttles (a hot key
# of the index: 100 KB items all under one index key spend its partition's 1,000 units a
# second) but not the throttles caused by the index's insufficient capacity (a 1-WCU
# provisioned GSI), as the developer guide excludes only those.
def test_insights_on_a_gsi_records_its_key_range_throttles(lean_client):
    c = lean_client
    attrs = [{"AttributeName": "pk", "AttributeType": "S"},
             {"AttributeName": "gk", "AttributeType": "S"}]

    def gsi(**kw):
        return dict({"IndexName": "byg", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
                     "Projection": {"ProjectionType": "ALL"}}, **kw)

    def throttles_recorded(table, size, n):
        assert c.call("UpdateContributorInsights", {"TableName": table, "IndexName": "byg",
                                                    "ContributorInsightsAction": "ENABLE"})[0] == 200
        statuses = [c.call("PutItem", {"TableName": table, "Item": {
            "pk": {"S": f"k{i}"}, "gk": {"S": "hot"}, "p": {"S": "x" * size}}})[0]
            for i in range(n)]
        assert 400 in statuses
        _, body = admin(c.ep, "GET", f"/_sluice/tables/{table}/insights?minutes=1")
        (res,) = [r for r in body["resources"] if r["index"] == "byg"]
        return {k["partition_key"]: k["throttle_count"]
                for k in res["most_throttled_keys"]["partition_key"]}

    create(c, "cihot", BillingMode="PAY_PER_REQUEST", AttributeDefinitions=attrs,
           GlobalSecondaryIndexes=[gsi()])
    assert throttles_recorded("cihot", 100_000, 40).get("hot", 0) >= 1
    create(c, "cilow", AttributeDefinitions=attrs,
           ProvisionedThroughput={"ReadCapacityUnits": 100, "WriteCapacityUnits": 100},
           GlobalSecondaryIndexes=[gsi(ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                              "WriteCapacityUnits": 1})])
    assert throttles_recorded("cilow", 10, 5) == {}


# POST /_sluice/reset forgets the dropped tables' metrics.
def test_reset_forgets(lean_client):
    workload(lean_client)
    assert admin(lean_client.ep, "POST", "/_sluice/reset", {})[0] == 200
    _, _, body = get(lean_client.ep, "/metrics")
    assert b'table_name="orders"' not in body
    assert admin(lean_client.ep, "GET", "/_sluice/events")[1]["events"] == []
    assert json.loads(get(lean_client.ep, "/_sluice/metrics?metric=UserErrors")[2])["Datapoints"]


# A deleted table's last incarnation (issue 18): its datapoints and events are
# read with incarnation=deleted, /_sluice/tables lists it under deleted_tables,
# a table made again under the name starts at zero; a bad incarnation is a 400.
def test_deleted_incarnation(lean_client):
    workload(lean_client)
    ep = lean_client.ep
    assert lean_client.call("DeleteTable", {"TableName": "orders"})[0] == 200
    create(lean_client, "orders", ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                         "WriteCapacityUnits": 5})
    q = dict(table="orders", metric="WriteThrottleEvents", period=60, start=T0,
             end=T0 + 180000)
    assert datapoints(ep, **q) == []
    old = datapoints(ep, incarnation="deleted", **q)
    assert [d["Sum"] for d in old] == [3]
    events = admin(ep, "GET", "/_sluice/events?table=orders")[1]["events"]
    assert events == []
    events = admin(ep, "GET", "/_sluice/events?table=orders&incarnation=deleted")[1]["events"]
    assert len(events) == 3 and {e["partition_key"] for e in events} <= {"k5", "k6", "k7"}
    listed = admin(ep, "GET", "/_sluice/tables?window_s=86400")[1]
    gone = [t for t in listed["deleted_tables"] if t["name"] == "orders"]
    assert len(gone) == 1 and gone[0]["throttle_events"] == 3
    assert gone[0]["partition_key"] == "pk" and gone[0]["sort_key"] is None
    assert [t["throttle_events"] for t in listed["tables"] if t["name"] == "orders"] == [0]
    _, _, body = get(ep, "/metrics")
    assert b'sluice_dynamodb_write_throttle_events_total{table_name="orders"}' not in body
    status, body = admin(ep, "GET", "/_sluice/events?incarnation=old")
    assert status == 400 and body["error"] == "incarnation must be live or deleted"
    status, body = admin(ep, "GET", "/_sluice/metrics?table=orders&metric=WriteThrottleEvents"
                                    "&incarnation=x")
    assert status == 400


# Per-partition throttles over the window (capacity?window_s=N): the three
# throttled writes of minute 0 are in a 5-minute window and not in a 10 s one
# two minutes later; a bad window is a 400.
def test_partition_throttles_in_window(lean_client):
    workload(lean_client)
    ep = lean_client.ep
    def counts(window):
        status, body = admin(ep, "GET", f"/_sluice/tables/orders/capacity?window_s={window}")
        assert status == 200, body
        parts = body["resources"][0]["partitions"]
        return sum(p["write"]["throttles_in_window"] for p in parts), \
            sum(p["write"]["throttles"] for p in parts)
    assert counts(300) == (3, 3)
    assert counts(10) == (0, 3)
    status, body = admin(ep, "GET", "/_sluice/tables/orders/capacity?window_s=0")
    assert status == 400 and body["error"] == "window_s must be 1..86400"
