"""`sluice bench` workloads on indexes, parallel scans and binary keys
(src/tools/bench.h, "Indexes"). They run against any endpoint (DynamoDB Local
too): the counts are the schedule's, every request is answered, and what the
bench wrote is in the table and its indexes.
"""
import re
import subprocess

from test_bench_tool import BIN, ENV, bench, created_table


# A created table with --gsis 2: items carry g0 and g1, so every write also
# writes both indexes; query-index queries gsi0 by g0 and follows pages.
def test_created_table_with_gsis(endpoint, ddb, tmp_path):
    rc, out, err, rep = bench(endpoint, "--workload", "put:1,query-index:1", "--gsis", "2",
                              "--gsi-keys", "5", "--keys", "40", "--prefill", "40",
                              "--schedule", "40@1", "--page-size", "3", "--pages", "2",
                              "--results-dir", str(tmp_path / "r"), tmp_path=tmp_path)
    assert rc == 0, (out, err)
    t = rep["totals"]
    assert t["offered"] == 40 and t["errors"] == 0 and t["throttled"] == 0, t
    # Each query on 8 items per g0 value with Limit 3 follows its second page.
    assert t["ok"] == t["sent"] > 40
    assert t["read_units"] > 0 and t["write_units"] > 0
    table = created_table(err)
    assert f"deleted table {table}" in err


# The indexes of the created table exist and hold what was written (checked
# on a table the bench keeps: an existing one with the same shape).
def test_existing_table_gsi_attributes(endpoint, ddb, make_table, tmp_path):
    name = make_table(
        hash_key=("id", "S"), extra_attrs=[("gk", "N"), ("gs", "S")],
        GlobalSecondaryIndexes=[
            {"IndexName": "by_gk", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "by_gs", "KeySchema": [{"AttributeName": "gs", "KeyType": "HASH"},
                                                 {"AttributeName": "id", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "ALL"}}])
    rc, out, err, rep = bench(endpoint, "--table", name, "--workload", "put:2,query-index:1",
                              "--index", "by_gs", "--keys", "30", "--gsi-keys", "3",
                              "--key-dist", "sequential", "--rate", "30", "--duration", "1",
                              tmp_path=tmp_path)
    assert rc == 0, (out, err)
    assert rep["totals"]["errors"] == 0 and rep["totals"]["offered"] == 30
    items = ddb.scan(TableName=name)["Items"]
    assert items
    for i in items:
        k = int(i["id"]["S"][1:])
        assert i["gk"] == {"N": str(k % 3)}
        assert i["gs"] == {"S": "k%010d" % (k % 3)}
    # Both indexes were written: each holds every item.
    for index in ("by_gk", "by_gs"):
        assert ddb.scan(TableName=name, IndexName=index, Select="COUNT")["Count"] == len(items)
    assert "deleted" not in err


# query-index without an index is refused before anything is created.
def test_query_index_needs_an_index(endpoint, make_table):
    p = subprocess.run([BIN, "bench", "--endpoint", endpoint, "--workload", "query-index"],
                       capture_output=True, text=True, timeout=30, env=ENV)
    assert p.returncode == 2 and "--gsis" in p.stderr and "sluice bench: created table" not in p.stderr
    name = make_table()
    p = subprocess.run([BIN, "bench", "--endpoint", endpoint, "--table", name, "--workload",
                        "query-index", "--rate", "5", "--duration", "1"],
                       capture_output=True, text=True, timeout=30, env=ENV)
    assert p.returncode == 1 and "needs a global secondary index" in p.stderr, p.stderr


# A parallel scan: operation n reads segment n mod N; together the segments
# read each prefilled item once.
def test_parallel_scan_segments(endpoint, tmp_path):
    rc, out, err, rep = bench(endpoint, "--workload", "scan", "--segments", "4", "--keys",
                              "40", "--prefill", "40", "--schedule", "4@1", "--page-size",
                              "100", tmp_path=tmp_path)
    assert rc == 0, (out, err)
    t = rep["totals"]
    assert (t["offered"], t["ok"], t["errors"]) == (4, 4, 0), t
    # Four segments of one 1 KB-item table: each reads its share, so the
    # units are those of reading 40 items once (in four pages), not four times.
    assert t["read_units"] < 4 * 40 * 1000 / 4096


# An existing table keyed on binary attributes: keys go out base64-encoded,
# the bytes of the bench's key text (boto3 hands them back decoded).
def test_binary_keys(endpoint, ddb, make_table, tmp_path):
    name = make_table(hash_key=("bk", "B"), range_key=("bs", "B"))
    rc, out, err, rep = bench(endpoint, "--table", name, "--workload", "put:1,get:1,query:1",
                              "--keys", "10", "--key-dist", "sequential", "--collection",
                              "3", "--rate", "30", "--duration", "1", tmp_path=tmp_path)
    assert rc == 0, (out, err)
    assert rep["totals"]["errors"] == 0 and rep["totals"]["ok"] == 30, rep["totals"]
    items = ddb.scan(TableName=name)["Items"]
    assert items
    for i in items:
        assert re.fullmatch(rb"k\d{10}", i["bk"]["B"]) and re.fullmatch(rb"\d{6}", i["bs"]["B"])
