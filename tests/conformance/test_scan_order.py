"""A Scan-order (sequential) workload (capacity-model.md §4, facts §3): keys written in the
order a Scan returns them, which is the order of their partition-key hashes, land on one
partition at a time, so a new on-demand table throttles with KeyRangeThroughputExceeded far
below its 4,000-write ceiling although no key is written twice; the same keys shuffled, at the
same 3,000 units a second, spread over the four partitions (750 a second each) and pass. 4 KB
items (4 units each), 3 writes every 4 ms of the manual clock; the table is the one whose Scan
gave the order, a minute later (its buckets full again). DynamoDB
Local ignores capacity: marked `capacity`.
"""
import random
import uuid

import pytest

pytestmark = pytest.mark.capacity

N = 2000


def new_table(client):
    name = "t_" + uuid.uuid4().hex[:12]
    client.create_table(name)
    return name


def put(client, table, pk, size=100):
    return client.call("PutItem", {"TableName": table,
                                   "Item": {"pk": {"S": pk}, "p": {"S": "x" * (size - len(pk) - 3)}}})


def scan_keys(client, table):
    keys, start = [], None
    while True:
        body = {"TableName": table, "ProjectionExpression": "pk"}
        if start:
            body["ExclusiveStartKey"] = start
        status, reply = client.call("Scan", body)
        assert status == 200, reply
        keys += [it["pk"]["S"] for it in reply["Items"]]
        start = reply.get("LastEvaluatedKey")
        if not start:
            return keys


def test_scan_order_throttles_one_partition_at_a_time(client):
    rng = random.Random(16)
    keys = [f"user{rng.randrange(10**9):09d}" for _ in range(N)]
    # Learn the hash order: write the keys (spread over time), then Scan.
    src = new_table(client)
    for i, k in enumerate(keys):
        assert put(client, src, k)[0] == 200
        if i % 500 == 499:
            client.advance(1000)
    ordered = scan_keys(client, src)
    assert sorted(ordered) == sorted(set(keys))
    client.advance(60_000)

    def run(order):
        results = []
        for i, k in enumerate(order):
            results.append(put(client, src, k, size=4000))
            if i % 3 == 2:
                client.advance(4)
        return results

    # Sequential: throttled on one partition, the table far below its ceiling.
    results = run(ordered)
    throttled = [r for s, r in results if s != 200]
    assert throttled
    assert {r["throttlingReasons"][0]["reason"] for r in throttled} == {
        "TableWriteKeyRangeThroughputExceeded"}
    client.advance(60_000)
    mixed = list(ordered)
    rng.shuffle(mixed)
    assert all(s == 200 for s, _ in run(mixed))
