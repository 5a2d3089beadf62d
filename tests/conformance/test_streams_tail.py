"""`sluice streams tail TABLE`: prints a table's stream records as JSON lines as they
arrive, following shard lineage, against any endpoint (it also runs against DynamoDB
Local). The tool is sluice's binary (SLUICE_BIN or build/sluice)."""
import json
import os
import subprocess

import pytest

from conftest import CREDS, REGION, sluice_bin, wait_active

BIN = sluice_bin()


def tail(endpoint, table, *args):
    # The suite's credentials: DynamoDB Local keeps tables per access key and region.
    env = {**os.environ, "AWS_ACCESS_KEY_ID": CREDS.access_key,
           "AWS_SECRET_ACCESS_KEY": CREDS.secret_key, "AWS_REGION": REGION}
    return subprocess.Popen([BIN, "streams", "tail", table, "--endpoint", endpoint,
                             "--interval-ms", "50", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def stream_table(make_table, view="NEW_IMAGE"):
    return make_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": view})


# From LATEST (the default) it prints only what is written after it starts, one Record
# object per line, each item's records in order; --count ends it.
def test_tail_prints_new_records(endpoint, ddb, make_table):
    name = stream_table(make_table)
    ddb.put_item(TableName=name, Item={"pk": {"S": "before"}})
    p = tail(endpoint, name, "--count", "3")
    assert "following" in p.stderr.readline()  # its LATEST iterators are taken
    for k in ("a", "b"):
        ddb.put_item(TableName=name, Item={"pk": {"S": k}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    recs = [json.loads(line) for line in out.splitlines()]
    got = [(r["eventName"], r["dynamodb"]["Keys"]["pk"]["S"]) for r in recs]
    # Items on different shards may come in any order; one item's come in its order.
    assert sorted(got) == [("INSERT", "a"), ("INSERT", "b"), ("REMOVE", "a")]
    assert got.index(("INSERT", "a")) < got.index(("REMOVE", "a"))
    assert next(r for r in recs if r["eventName"] == "INSERT" and
                r["dynamodb"]["Keys"]["pk"]["S"] == "a")["dynamodb"]["NewImage"] == {"pk": {"S": "a"}}


# --from trim-horizon prints the stream from its oldest record; once the stream is disabled
# and every shard drained, the tool ends by itself.
def test_tail_from_trim_horizon_until_disabled(endpoint, ddb, make_table):
    name = stream_table(make_table, "KEYS_ONLY")
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    wait_active(ddb, name)
    p = tail(endpoint, name, "--from", "trim-horizon")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert sorted(json.loads(line)["dynamodb"]["Keys"]["pk"]["S"] for line in out.splitlines()) \
        == [f"k{i}" for i in range(5)]


# A table without a stream, and a table that does not exist, are errors on stderr (exit 1);
# bad flags are a usage error (exit 2).
def test_tail_errors(endpoint, make_table):
    plain = make_table()
    p = tail(endpoint, plain)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 1 and "has no stream" in err
    p = tail(endpoint, "no_such_table_" + str(os.getpid()))
    out, err = p.communicate(timeout=30)
    assert p.returncode == 1 and "ResourceNotFoundException" in err
    p = subprocess.run([BIN, "streams", "tail", plain, "--from", "yesterday"], capture_output=True,
                       text=True, timeout=30)
    assert p.returncode == 2 and "usage" in p.stderr


# Across a shard rollover (sluice's manual clock, 4 h) it reads each parent to its end and
# then its child: every record once.
@pytest.mark.sluice_only
def test_tail_follows_lineage(manual_server):
    from conftest import admin, make_client
    ep = manual_server.endpoint
    ddb = make_client(ep)
    ddb.create_table(TableName="tailed", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    p = tail(ep, "tailed", "--count", "3")
    assert "following" in p.stderr.readline()
    ddb.put_item(TableName="tailed", Item={"pk": {"S": "a"}})
    assert admin(ep, "POST", "/_sluice/clock", {"advance_ms": 4 * 3600_000})[0] == 200
    ddb.put_item(TableName="tailed", Item={"pk": {"S": "b"}})
    ddb.put_item(TableName="tailed", Item={"pk": {"S": "c"}})
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert sorted(json.loads(line)["dynamodb"]["Keys"]["pk"]["S"] for line in out.splitlines()) \
        == ["a", "b", "c"]
    shards = ddb_shards(ep)  # every partition's shard and its child
    assert len([s for s in shards if s.get("ParentShardId")]) * 2 == len(shards)


def ddb_shards(ep):
    import boto3
    st = boto3.client("dynamodbstreams", endpoint_url=ep, region_name=REGION,
                      aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key)
    arn = st.list_streams(TableName="tailed")["Streams"][0]["StreamArn"]
    return st.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
