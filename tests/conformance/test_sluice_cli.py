"""sluice's own command line (src/main.c): a table of subcommands, `sluice help`, and a
clear error for an unknown command. Not DynamoDB: marked sluice_only."""
import subprocess

import boto3
import pytest

from conftest import Server, sluice_bin

pytestmark = pytest.mark.sluice_only

BIN = sluice_bin()


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=10)


# `sluice help` lists every command with a line of summary, on stdout, exit 0.
def test_help_lists_the_commands():
    r = run("help")
    assert r.returncode == 0
    assert r.stdout.startswith("usage: sluice <command> [flags]")
    for name in ("serve", "bench", "explain", "size", "simulate", "streams", "version", "help"):
        assert f"\n  {name} " in r.stdout


# An unknown command names itself and shows the list, on stderr, exit 2; so does no command.
def test_unknown_command():
    r = run("frobnicate")
    assert r.returncode == 2
    assert "unknown command 'frobnicate'" in r.stderr
    assert "commands:" in r.stderr
    assert run().returncode == 2


def test_version():
    r = run("version")
    assert r.returncode == 0 and r.stdout.startswith("sluice ")


# --map-size and --pretouch take bytes, or a number with K, M or G (KiB, MiB, GiB);
# anything else is a usage error naming the flag (exit 2), before anything starts.
@pytest.mark.parametrize("flag,value", [
    ("--map-size", "abc"), ("--map-size", "0"), ("--map-size", "12X"), ("--map-size", "1.5G"),
    ("--map-size", "-1"), ("--pretouch", "99999999999999999999"), ("--pretouch", "64MB"),
    ("--pretouch", ""), ("--pretouch", "20000000000G")])
def test_size_flags_refuse_bad_values(flag, value):
    r = run("serve", "--port", "0", flag, value)
    assert r.returncode == 2
    word = "map size" if flag == "--map-size" else "pretouch size"
    assert r.stderr.startswith(f"sluice serve: invalid {word} '{value}' "
                               "(bytes, or a number with K, M or G)\n"), r.stderr


# --pretouch is for in-memory storage: with --data-dir the data is the file's pages.
def test_pretouch_needs_memory_storage(tmp_path):
    r = run("serve", "--port", "0", "--pretouch", "1M", "--data-dir", str(tmp_path / "d"))
    assert r.returncode == 2
    assert "--pretouch is for in-memory storage" in r.stderr
    assert not (tmp_path / "d").exists()


def storage_rss_kb(pid, map_kb):
    """Resident KiB of the process's storage map, found by its size in smaps."""
    size = rss = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            if line.startswith("Size:"):
                size = int(line.split()[1])
            elif line.startswith("Rss:") and size == map_kb:
                rss = int(line.split()[1])
    return rss


# With --pretouch the storage map's first SIZE is resident once the server listens
# (store/prefault.h, "Pretouch"); without it only the prefaulter's small reserve is; the
# server serves the same either way.
@pytest.mark.parametrize("pretouch", [None, "64M"])
def test_pretouch_makes_storage_resident(pretouch):
    args = ["--map-size", "256M", "--profile", "unlimited"]
    if pretouch:
        args += ["--pretouch", pretouch]
    srv = Server(args)
    try:
        rss = storage_rss_kb(srv.proc.pid, 256 * 1024)
        assert rss is not None, "the storage map is not in smaps"
        if pretouch:
            assert rss >= 64 * 1024, rss
        else:
            assert rss < 16 * 1024, rss
        ddb = boto3.client("dynamodb", endpoint_url=srv.endpoint, region_name="us-east-1",
                           aws_access_key_id="AKID", aws_secret_access_key="secret")
        ddb.create_table(TableName="tbl", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST")
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}, "v": {"S": "x" * 1000}})
        got = ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})["Item"]
        assert got["v"]["S"] == "x" * 1000
    finally:
        srv.stop()


# With --pretouch a stream's records take the pretouched memory the table does not use
# yet (store/store.h, "Prefaulting"), and the table then grows through the part of the
# map they took: 3,000 items of ~4 KB (~12 MB of records, ~20 MB of table) in a 32 MB
# pretouch, then 6,000 more, past it; every item and every record reads back.
def test_pretouch_shared_with_stream_records():
    srv = Server(["--map-size", "256M", "--profile", "unlimited", "--pretouch", "32M"])
    try:
        kw = dict(endpoint_url=srv.endpoint, region_name="us-east-1",
                  aws_access_key_id="AKID", aws_secret_access_key="secret")
        ddb = boto3.client("dynamodb", **kw)
        st = boto3.client("dynamodbstreams", **kw)
        arn = ddb.create_table(
            TableName="tbl", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
        )["TableDescription"]["LatestStreamArn"]

        def put(lo, hi):
            for b in range(lo, hi, 25):
                reqs = [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}, "v": {"S": f"{i:08d}" * 500}}}}
                        for i in range(b, min(b + 25, hi))]
                assert not ddb.batch_write_item(RequestItems={"tbl": reqs})["UnprocessedItems"]
        put(0, 3000)
        put(3000, 9000)
        seen = {}
        for shard in st.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
            it = st.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                       ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while it:
                r = st.get_records(ShardIterator=it)
                for rec in r["Records"]:
                    pk = rec["dynamodb"]["Keys"]["pk"]["S"]
                    seen[pk] = rec["dynamodb"]["NewImage"]["v"]["S"]
                it = r.get("NextShardIterator") if r["Records"] else None
        assert len(seen) == 9000
        assert all(v == f"{int(k[1:]):08d}" * 500 for k, v in seen.items())
        items, start = 0, None
        while True:
            page = ddb.scan(TableName="tbl", **({"ExclusiveStartKey": start} if start else {}))
            items += sum(it["v"]["S"] == f"{int(it['pk']['S'][1:]):08d}" * 500
                         for it in page["Items"])
            start = page.get("LastEvaluatedKey")
            if not start:
                break
        assert items == 9000
    finally:
        srv.stop()


# --time-scale takes a number above 0 and at most 1,000,000 (sluice bench's limit); NaN,
# infinity, 0, a negative, a larger one or trailing letters are a usage error (exit 2)
# rather than a clock that runs wild.
@pytest.mark.parametrize("value", ["nan", "inf", "1e400", "0", "-2", "2x", "", "2e6"])
def test_time_scale_refuses_bad_values(value):
    r = run("serve", "--port", "0", "--time-scale", value)
    assert r.returncode == 2
    assert r.stderr.startswith(f"sluice serve: invalid time scale '{value}' "
                               "(a number above 0, at most 1000000)\n")
