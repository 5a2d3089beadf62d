"""DynamoDB Streams (DynamoDBStreams_20120810.*): ListStreams, DescribeStream,
GetShardIterator and GetRecords through boto3, the records every writer leaves, the
stream's life cycle, and, on sluice's manual clock, iterator expiry, retention, shard
rollover and durability.

Texts: DynamoDB Local's 2026-05 jar unless a test says otherwise (ops/streams.h). The
tests that run everywhere pass against DynamoDB Local too.
"""
import os
import signal
import threading
import time
import uuid

import boto3
import botocore.config
import pytest

from conftest import CREDS, REGION, Raw, Server, admin, make_client, sluice_bin, wait_active


def streams_client(ep):
    return boto3.client(
        "dynamodbstreams", endpoint_url=ep, region_name=REGION,
        aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key,
        config=botocore.config.Config(retries={"max_attempts": 1, "mode": "standard"}))


@pytest.fixture(scope="module")
def st(endpoint):
    return streams_client(endpoint)


def stream_table(make_table, ddb, view="NEW_AND_OLD_IMAGES", **kw):
    """A fresh table (pk S, optional range key) with a stream; (name, stream ARN)."""
    name = make_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": view}, **kw)
    return name, ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]


def shards_of(st, arn):
    shards, start = [], None
    while True:
        kw = {"ExclusiveStartShardId": start} if start else {}
        d = st.describe_stream(StreamArn=arn, **kw)["StreamDescription"]
        shards += d["Shards"]
        start = d.get("LastEvaluatedShardId")
        if not start:
            return shards


def read_shard(st, arn, shard_id, kind="TRIM_HORIZON", **kw):
    """Every record of one shard from an iterator of 'kind', until it is drained (closed)
    or a call returns nothing (open)."""
    it = st.get_shard_iterator(StreamArn=arn, ShardId=shard_id, ShardIteratorType=kind,
                               **kw)["ShardIterator"]
    out = []
    while it:
        r = st.get_records(ShardIterator=it)
        out += r["Records"]
        it = r.get("NextShardIterator")
        if not r["Records"]:
            break
    return out


def read_all(st, arn):
    """A KCL-style read: every shard from TRIM_HORIZON, parents before children; the
    records in sequence-number order (DynamoDB orders them per item; sluice's numbers
    also follow commit order across items and shards)."""
    shards = shards_of(st, arn)
    ids = {s["ShardId"] for s in shards}
    done, out = set(), []
    while len(done) < len(shards):
        for s in shards:
            parent = s.get("ParentShardId")
            if s["ShardId"] in done or (parent in ids and parent not in done):
                continue
            out += read_shard(st, arn, s["ShardId"])
            done.add(s["ShardId"])
    return sorted(out, key=lambda r: int(r["dynamodb"]["SequenceNumber"]))


def shard_with(st, arn, key):
    """The id of the open shard whose records include one of item pk=key."""
    for s in shards_of(st, arn):
        if "EndingSequenceNumber" in s["SequenceNumberRange"]:
            continue
        if any(r["dynamodb"]["Keys"]["pk"]["S"] == key for r in read_shard(st, arn, s["ShardId"])):
            return s["ShardId"]
    raise AssertionError(f"no open shard holds {key}")


def seqs(records):
    return [int(r["dynamodb"]["SequenceNumber"]) for r in records]


# --- the table's side -------------------------------------------------------------------------

# A table created with a stream describes it: the specification, and the latest stream's
# label (an ISO time to the millisecond) and ARN (the table's ARN + "/stream/" + label).
def test_create_table_with_stream(ddb, make_table):
    name = make_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    t = ddb.describe_table(TableName=name)["Table"]
    assert t["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    label = t["LatestStreamLabel"]
    assert len(label) == 23 and label[10] == "T" and label[19] == "."
    assert t["LatestStreamArn"] == t["TableArn"] + "/stream/" + label


# CreateTable's stream texts: a stream enabled without a view type, or a view type with the
# stream disabled, is a ValidationException.
# ddblocal_differs: DynamoDB Local accepts a view type with StreamEnabled false, and words the
# missing view type its own way.
# Source: ack-api-quirks DDB-TABLE-442 message catalogue (CreateTable, live, 2026-10-09).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("spec,message", [
    ({"StreamEnabled": True}, "One or more parameter values were invalid: Table is being created "
     "with a stream enabled, UpdateViewType is required"),
    ({"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"}, "One or more parameter values were "
     "invalid: Table is being created with a stream disabled, UpdateViewType should not be "
     "specified"),
])
def test_create_table_stream_texts(raw, spec, message):
    name = "t_" + uuid.uuid4().hex[:12]
    r = raw.call("CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST", "StreamSpecification": spec,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", message), r
    r = raw.call("DescribeTable", {"TableName": name})
    assert r.error_type == "ResourceNotFoundException"


# Enabling a stream needs its view type; enabling an enabled one, or disabling a table
# without one, is a ValidationException.
def test_update_table_stream_errors(ddb, make_table):
    name = make_table()
    with pytest.raises(ddb.exceptions.ClientError) as e:
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    with pytest.raises(ddb.exceptions.ClientError) as e:
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True,
                                                          "StreamViewType": "NEW_IMAGE"})
    wait_active(ddb, name)
    # The view type cannot change while the stream is enabled: disable it first.
    with pytest.raises(ddb.exceptions.ClientError) as e:
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True,
                                                              "StreamViewType": "OLD_IMAGE"})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    assert e.value.response["Error"]["Message"].startswith("Table already has an enabled stream")


# --- ListStreams ------------------------------------------------------------------------------

# ListStreams names each stream by ARN, table and label, filtered by TableName; a table
# with none lists nothing.
def test_list_streams(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb)
    other = make_table()
    got = st.list_streams(TableName=name)["Streams"]
    label = arn.rsplit("/", 1)[1]
    assert got == [{"StreamArn": arn, "TableName": name, "StreamLabel": label}]
    assert st.list_streams(TableName=other)["Streams"] == []
    assert any(s["StreamArn"] == arn for s in st.list_streams()["Streams"])


# Each enable is a new stream; both are listed (newest first, as DynamoDB Local lists them)
# and Limit pages them with LastEvaluatedStreamArn / ExclusiveStartStreamArn.
def test_list_streams_pages(st, ddb, make_table):
    name, first = stream_table(make_table, ddb, "KEYS_ONLY")
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    wait_active(ddb, name)
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True,
                                                          "StreamViewType": "NEW_IMAGE"})
    wait_active(ddb, name)
    second = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    assert second != first
    assert [s["StreamArn"] for s in st.list_streams(TableName=name)["Streams"]] == [second, first]
    # (DynamoDB Local pages in another order than it lists: only the pages' union is pinned.)
    p1 = st.list_streams(TableName=name, Limit=1)
    assert len(p1["Streams"]) == 1
    assert p1["LastEvaluatedStreamArn"] == p1["Streams"][0]["StreamArn"]
    p2 = st.list_streams(TableName=name, Limit=1, ExclusiveStartStreamArn=p1["LastEvaluatedStreamArn"])
    assert {p1["Streams"][0]["StreamArn"], p2["Streams"][0]["StreamArn"]} == {first, second}


# --- DescribeStream ---------------------------------------------------------------------------

# DescribeStream: status, view type, the table's key schema, the creation time and one
# open shard (a StartingSequenceNumber, no EndingSequenceNumber).
def test_describe_stream(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "NEW_IMAGE", range_key=("sk", "N"))
    d = st.describe_stream(StreamArn=arn)["StreamDescription"]
    assert d["StreamArn"] == arn
    assert d["StreamLabel"] == arn.rsplit("/", 1)[1]
    assert d["StreamStatus"] == "ENABLED"
    assert d["StreamViewType"] == "NEW_IMAGE"
    assert d["TableName"] == name
    assert d["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}]
    assert abs(d["CreationRequestDateTime"].timestamp() - time.time()) < 3600 * 24 * 400
    # One open shard per partition (sluice: four for a new on-demand table; DynamoDB Local
    # has one), none with a parent yet.
    assert len(d["Shards"]) >= 1
    for shard in d["Shards"]:
        assert shard["ShardId"].startswith("shardId-")
        assert 28 <= len(shard["ShardId"]) <= 65
        assert set(shard["SequenceNumberRange"]) == {"StartingSequenceNumber"}
        assert "ParentShardId" not in shard


def child_shards(raw, arn, shard_id, **kw):
    """DescribeStream with ShardFilter CHILD_SHARDS, sent raw: the botocore of the Debian
    interpreter predates ShardFilter (botocore 1.43's model has it)."""
    r = raw.call(None, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS",
                                                          "ShardId": shard_id}, **kw},
                 target="DynamoDBStreams_20120810.DescribeStream")
    if r.status != 200:
        return r
    return r.json["StreamDescription"]["Shards"]


# ShardFilter CHILD_SHARDS lists the children of one shard: none for a shard that has not
# split, nor for an id the stream does not have; it cannot be paged with
# ExclusiveStartShardId (the children after a split: test_split_lineage_replay).
def test_describe_stream_child_shards(st, ddb, make_table, raw):
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY")
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = shards_of(st, arn)[0]["ShardId"]
    assert child_shards(raw, arn, shard) == []
    assert child_shards(raw, arn, "shardId-00000000000000000000-00000000") == []
    r = child_shards(raw, arn, shard, ExclusiveStartShardId=shard)
    assert (r.status, r.error_type, r.message) == (
        400, "ValidationException",
        "ShardFilter and ExclusiveStartShardId both should not be specified in the request.")
    r = raw.call(None, {"StreamArn": arn, "ShardFilter": {"Type": "PARENT_SHARDS"}},
                 target="DynamoDBStreams_20120810.DescribeStream")
    assert (r.status, r.error_type) == (400, "ValidationException")


# An ARN that names no stream is ResourceNotFoundException naming it.
def test_describe_unknown_stream(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb)
    bad = arn[:-1] + ("0" if arn[-1] != "0" else "1")
    with pytest.raises(st.exceptions.ResourceNotFoundException) as e:
        st.describe_stream(StreamArn=bad)
    assert e.value.response["Error"]["Message"] == \
        f"Requested resource not found: Stream: {bad} not found"


# --- records ----------------------------------------------------------------------------------

IMAGES = {"KEYS_ONLY": (False, False), "NEW_IMAGE": (True, False), "OLD_IMAGE": (False, True),
          "NEW_AND_OLD_IMAGES": (True, True)}


# INSERT, MODIFY and REMOVE records carry what their view type says, with the record
# fields of the service; SizeBytes is the size of the keys and images carried.
@pytest.mark.parametrize("view", list(IMAGES))
def test_records_per_view_type(st, ddb, make_table, view):
    name, arn = stream_table(make_table, ddb, view)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "2"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    recs = read_all(st, arn)
    assert [r["eventName"] for r in recs] == ["INSERT", "MODIFY", "REMOVE"]
    new, old = IMAGES[view]
    v1 = {"pk": {"S": "a"}, "v": {"N": "1"}}
    v2 = {"pk": {"S": "a"}, "v": {"N": "2"}}
    expect = [(v1, None), (v2, v1), (None, v2)]
    for r, (n, o) in zip(recs, expect):
        assert r["eventSource"] == "aws:dynamodb"
        assert r["eventVersion"] == "1.1"
        assert r["eventID"] and isinstance(r["awsRegion"], str)
        assert "userIdentity" not in r
        d = r["dynamodb"]
        assert d["Keys"] == {"pk": {"S": "a"}}
        assert d["StreamViewType"] == view
        assert len(d["SequenceNumber"]) >= 21 and d["SequenceNumber"].isdigit()
        assert d.get("NewImage") == (n if new else None)
        assert d.get("OldImage") == (o if old else None)
        # Keys 3 bytes, each image 6 (facts §2.1 sizes).
        assert d["SizeBytes"] == 3 + (6 if new and n else 0) + (6 if old and o else 0)
    assert seqs(recs) == sorted(seqs(recs)) and len(set(seqs(recs))) == 3
    assert len({r["eventID"] for r in recs}) == 3


# A write that leaves the item as it was writes no record: an identical PutItem, an
# UpdateItem that sets what is there, a DeleteItem of a missing item (facts §11).
def test_no_record_for_unchanged_item(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb)
    item = {"pk": {"S": "a"}, "v": {"N": "1"}, "s": {"SS": ["x", "y"]}}
    ddb.put_item(TableName=name, Item=item)
    ddb.put_item(TableName=name, Item=item)
    ddb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"N": "1.0"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "missing"}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"N": "3"}})
    recs = read_all(st, arn)
    assert [r["eventName"] for r in recs] == ["INSERT", "MODIFY"]
    assert recs[1]["dynamodb"]["NewImage"]["v"] == {"N": "3"}


# BatchWriteItem and TransactWriteItems leave one record per item changed; a cancelled
# transaction, and a failed conditional write, leave none.
def test_batch_and_transaction_records(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "NEW_IMAGE")
    ddb.batch_write_item(RequestItems={name: [
        {"PutRequest": {"Item": {"pk": {"S": f"b{i}"}}}} for i in range(3)]})
    ddb.batch_write_item(RequestItems={name: [{"DeleteRequest": {"Key": {"pk": {"S": "b0"}}}}]})
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": name, "Item": {"pk": {"S": "t1"}}}},
        {"Update": {"TableName": name, "Key": {"pk": {"S": "b1"}}, "UpdateExpression": "SET x = :x",
                    "ExpressionAttributeValues": {":x": {"S": "y"}}}}])
    with pytest.raises(ddb.exceptions.TransactionCanceledException):
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": {"pk": {"S": "t2"}}}},
            {"ConditionCheck": {"TableName": name, "Key": {"pk": {"S": "nope"}},
                                "ConditionExpression": "attribute_exists(pk)"}}])
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.put_item(TableName=name, Item={"pk": {"S": "b1"}},
                     ConditionExpression="attribute_not_exists(pk)")
    recs = read_all(st, arn)
    got = [(r["eventName"], r["dynamodb"]["Keys"]["pk"]["S"]) for r in recs]
    assert sorted(got) == sorted([("INSERT", "b0"), ("INSERT", "b1"), ("INSERT", "b2"),
                                  ("REMOVE", "b0"), ("INSERT", "t1"), ("MODIFY", "b1")])
    assert got.index(("INSERT", "b0")) < got.index(("REMOVE", "b0"))
    assert got.index(("INSERT", "b1")) < got.index(("MODIFY", "b1"))


# The records of one item come in the order of its writes.
def test_records_in_order_per_item(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "NEW_IMAGE")
    for i in range(20):
        ddb.put_item(TableName=name, Item={"pk": {"S": "k"}, "n": {"N": str(i)}})
    recs = read_all(st, arn)
    assert [r["dynamodb"]["NewImage"]["n"]["N"] for r in recs] == [str(i) for i in range(20)]


# --- GetShardIterator and GetRecords ------------------------------------------------------------

# TRIM_HORIZON reads from the oldest record, LATEST only what comes after it,
# AT_SEQUENCE_NUMBER from a record and AFTER_SEQUENCE_NUMBER from the one after it.
def test_iterator_types(st, ddb, make_table):
    # One item collection: one partition, so one shard holds every record.
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY", range_key=("sk", "N"))
    for i in range(3):
        ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"N": str(i)}})
    shard = shard_with(st, arn, "p")
    sks = lambda recs: [r["dynamodb"]["Keys"]["sk"]["N"] for r in recs]  # noqa: E731
    all3 = read_shard(st, arn, shard)
    assert sks(all3) == ["0", "1", "2"]
    second = all3[1]["dynamodb"]["SequenceNumber"]
    at = read_shard(st, arn, shard, "AT_SEQUENCE_NUMBER", SequenceNumber=second)
    assert sks(at) == ["1", "2"]
    after = read_shard(st, arn, shard, "AFTER_SEQUENCE_NUMBER", SequenceNumber=second)
    assert sks(after) == ["2"]
    latest = st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                   ShardIteratorType="LATEST")["ShardIterator"]
    r = st.get_records(ShardIterator=latest)
    assert r["Records"] == [] and r["NextShardIterator"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"N": "3"}})
    r = st.get_records(ShardIterator=r["NextShardIterator"])
    assert sks(r["Records"]) == ["3"]


# Limit caps the records of one call; NextShardIterator continues after them.
def test_get_records_limit(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY", range_key=("sk", "N"))
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"N": str(i)}})
    shard = shard_with(st, arn, "p")
    it = st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                               ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    r = st.get_records(ShardIterator=it, Limit=2)
    assert len(r["Records"]) == 2
    r2 = st.get_records(ShardIterator=r["NextShardIterator"], Limit=1000)
    assert [x["dynamodb"]["Keys"]["sk"]["N"] for x in r2["Records"]] == ["2", "3", "4"]


# A shard the stream does not have; a sequence-number iterator without its number.
def test_get_shard_iterator_errors(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb)
    with pytest.raises(st.exceptions.ResourceNotFoundException) as e:
        st.get_shard_iterator(StreamArn=arn, ShardId="shardId-00000000000000000000-00000000",
                              ShardIteratorType="TRIM_HORIZON")
    assert e.value.response["Error"]["Message"] == "Shard does not exist"
    shard = shards_of(st, arn)[0]["ShardId"]
    with pytest.raises(st.exceptions.ClientError) as e:
        st.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_SEQUENCE_NUMBER")
    assert e.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "One or more parameter values were invalid: Invalid SequenceNumber"}
    with pytest.raises(st.exceptions.ResourceNotFoundException):
        st.get_shard_iterator(StreamArn=arn + "0", ShardId=shard, ShardIteratorType="LATEST")


# A sequence number outside the shard's range: below its first record, past a closed
# shard's last (no live text of the service's is known: DynamoDB Local's); AFTER the
# last number of a closed shard is its end, which reads nothing.
def test_sequence_number_out_of_range(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY")
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = {"ShardId": shard_with(st, arn, "a")}
    first = read_shard(st, arn, shard["ShardId"])[0]["dynamodb"]["SequenceNumber"]
    below = str(int(first) - 1).zfill(len(first))
    for seq in (below, "0" * 21):
        with pytest.raises(st.exceptions.ClientError) as e:
            st.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                  ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=seq)
        assert e.value.response["Error"] == {"Code": "ValidationException",
                                             "Message": "Invalid SequenceNumber for the shard"}
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    wait_active(ddb, name)
    end = next(s for s in shards_of(st, arn)
               if s["ShardId"] == shard["ShardId"])["SequenceNumberRange"]["EndingSequenceNumber"]
    with pytest.raises(st.exceptions.ClientError) as e:
        st.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                              ShardIteratorType="AT_SEQUENCE_NUMBER",
                              SequenceNumber=str(int(end) + 5).zfill(len(end)))
    assert e.value.response["Error"]["Message"] == "Invalid SequenceNumber for the shard"
    it = st.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                               ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                               SequenceNumber=end)["ShardIterator"]
    assert st.get_records(ShardIterator=it)["Records"] == []


# Past an open shard's last record, and a number of 40 digits: sluice refuses both, since
# its numbers are shared by all shards and a later record could get a lower one than the
# number given. (DynamoDB Local takes the first and reads nothing; the second is its
# InternalFailure.)
@pytest.mark.sluice_only
def test_sequence_number_past_open_shard(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY")
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = shard_with(st, arn, "a")
    last = read_shard(st, arn, shard)[-1]["dynamodb"]["SequenceNumber"]
    for seq in (str(int(last) + 1000).zfill(len(last)), "9" * 40):
        with pytest.raises(st.exceptions.ClientError) as e:
            st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                  ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=seq)
        assert e.value.response["Error"] == {"Code": "ValidationException",
                                             "Message": "Invalid SequenceNumber for the shard"}


# An iterator sluice did not write, and a Limit over 1,000.
def test_get_records_errors(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb)
    with pytest.raises(st.exceptions.ClientError) as e:
        st.get_records(ShardIterator="garbage")
    assert e.value.response["Error"] == {"Code": "ValidationException",
                                         "Message": "Invalid ShardIterator"}
    shard = shards_of(st, arn)[0]["ShardId"]
    it = st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                               ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    with pytest.raises(st.exceptions.ClientError) as e:
        st.get_records(ShardIterator=it, Limit=1001)
    assert e.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "One or more parameter values were invalid: Limit should be less than or "
                   "equal to 1000"}


# --- life cycle -------------------------------------------------------------------------------

# Disabling closes the stream: DISABLED, its shard ends at its last record, its records stay
# readable and a drained closed shard gives no NextShardIterator. The table keeps naming it
# as its latest stream, without a StreamSpecification (DynamoDB Local).
def test_disable(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    wait_active(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "c"}})  # no stream: no record
    t = ddb.describe_table(TableName=name)["Table"]
    assert "StreamSpecification" not in t
    assert t["LatestStreamArn"] == arn
    d = st.describe_stream(StreamArn=arn)["StreamDescription"]
    assert d["StreamStatus"] == "DISABLED"
    keys = []
    for shard in d["Shards"]:
        rng = shard["SequenceNumberRange"]
        assert "EndingSequenceNumber" in rng  # every shard is closed
        it = st.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                   ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        r = st.get_records(ShardIterator=it)
        assert "NextShardIterator" not in r  # read to its end
        if r["Records"]:
            assert rng["StartingSequenceNumber"] == r["Records"][0]["dynamodb"]["SequenceNumber"]
            assert rng["EndingSequenceNumber"] == r["Records"][-1]["dynamodb"]["SequenceNumber"]
        keys += [x["dynamodb"]["Keys"]["pk"]["S"] for x in r["Records"]]
    assert sorted(keys) == ["a", "b"]


# DeleteTable closes its stream; the stream stays listed and readable (for 24 h).
def test_delete_table_keeps_records(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY")
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.delete_table(TableName=name)
    deadline = time.time() + 60
    while st.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] != "DISABLED":
        assert time.time() < deadline
        time.sleep(0.2)
    assert arn in [s["StreamArn"] for s in st.list_streams(TableName=name)["Streams"]]
    assert [r["eventName"] for r in read_all(st, arn)] == ["INSERT"]


# A record's images are the item's as the change left it, whatever the table does
# after: later changes, the stream's disabling and later writes without records, the
# table's deletion. (In memory sluice reads a record's NewImage from the item's next
# record or from the table, and copies it when the stream is disabled;
# streams/streams.h, "After images".)
@pytest.mark.parametrize("end", ["disable", "delete"])
@pytest.mark.parametrize("view", ["NEW_IMAGE", "NEW_AND_OLD_IMAGES"])
def test_images_outlive_the_table(st, ddb, make_table, view, end):
    name, arn = stream_table(make_table, ddb, view)
    def put(pk, n):
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "n": {"N": str(n)}})
    put("a", 1)
    put("a", 2)
    put("b", 1)
    ddb.update_item(TableName=name, Key={"pk": {"S": "b"}}, UpdateExpression="SET n = :v",
                    ExpressionAttributeValues={":v": {"N": "5"}})
    put("c", 1)
    ddb.delete_item(TableName=name, Key={"pk": {"S": "c"}})
    if end == "disable":
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
        wait_active(ddb, name)
        put("a", 3)
        ddb.delete_item(TableName=name, Key={"pk": {"S": "b"}})
    else:
        ddb.delete_table(TableName=name)
    deadline = time.time() + 60
    while st.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] != "DISABLED":
        assert time.time() < deadline
        time.sleep(0.2)
    def n_of(img):
        return int(img["n"]["N"]) if img else None
    got = [(r["dynamodb"]["Keys"]["pk"]["S"], r["eventName"], n_of(r["dynamodb"].get("NewImage")),
            n_of(r["dynamodb"].get("OldImage"))) for r in read_all(st, arn)]
    both = view == "NEW_AND_OLD_IMAGES"
    assert got == [("a", "INSERT", 1, None), ("a", "MODIFY", 2, 1 if both else None),
                   ("b", "INSERT", 1, None), ("b", "MODIFY", 5, 1 if both else None),
                   ("c", "INSERT", 1, None), ("c", "REMOVE", None, 1 if both else None)]


# A KCL-style consumer reading every shard from TRIM_HORIZON while writers put, update and
# delete replays the table exactly: the final table equals the replay of its records.
def test_replay_under_concurrent_writes(st, ddb, make_table, endpoint):
    name, arn = stream_table(make_table, ddb, "NEW_AND_OLD_IMAGES")
    errors = []

    def writer(w):
        c = make_client(endpoint)
        try:
            for i in range(60):
                k = {"pk": {"S": f"w{w}-{i % 7}"}}
                if i % 5 == 4:
                    c.delete_item(TableName=name, Key=k)
                elif i % 3 == 0:
                    c.update_item(TableName=name, Key=k, UpdateExpression="ADD n :one",
                                  ExpressionAttributeValues={":one": {"N": "1"}})
                else:
                    c.put_item(TableName=name, Item={**k, "i": {"N": str(i)}})
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    replay, last = {}, {}
    iters = {s["ShardId"]: st.get_shard_iterator(StreamArn=arn, ShardId=s["ShardId"],
                                                 ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
             for s in shards_of(st, arn)}

    def apply(records):
        for r in records:
            d = r["dynamodb"]
            k = d["Keys"]["pk"]["S"]
            seq = int(d["SequenceNumber"])
            assert seq > last.get(k, 0)
            last[k] = seq
            if r["eventName"] == "REMOVE":
                replay.pop(k, None)
            else:
                replay[k] = d["NewImage"]

    def poll_all():
        got = 0
        for sid in iters:
            r = st.get_records(ShardIterator=iters[sid])
            apply(r["Records"])
            got += len(r["Records"])
            iters[sid] = r["NextShardIterator"]
        return got

    while any(t.is_alive() for t in threads):
        poll_all()
    for t in threads:
        t.join()
    assert not errors, errors
    # Drain what the last writes left (the shards stay open: the stream is younger than a
    # rollover and its table does not split under this load).
    assert len(shards_of(st, arn)) == len(iters)
    while poll_all():
        pass
    items = {}
    for page in ddb.get_paginator("scan").paginate(TableName=name):
        for item in page["Items"]:
            items[item["pk"]["S"]] = item
    assert replay == items


# --- on the manual clock (sluice) ---------------------------------------------------------------

@pytest.fixture
def clocked(manual_server):
    ep = manual_server.endpoint
    ddb = make_client(ep)

    def advance(ms):
        assert admin(ep, "POST", "/_sluice/clock", {"advance_ms": ms})[0] == 200

    return ddb, streams_client(ep), advance


def clocked_table(ddb, advance, view="NEW_AND_OLD_IMAGES", name=None):
    name = name or "s_" + uuid.uuid4().hex[:8]
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": view})
    arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    return name, arn


# While the table is being created with its stream, the stream is ENABLING (a server whose
# tables take 5 s to create; the default is 0).
@pytest.mark.sluice_only
def test_enabling_while_table_creates(tmp_path):
    conf = tmp_path / "slow.conf"
    conf.write_text("table_create_delay_ms = 5000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(conf)])
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        name, arn = clocked_table(ddb, None)
        assert st.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] == "ENABLING"
        assert admin(srv.endpoint, "POST", "/_sluice/clock", {"advance_ms": 5000})[0] == 200
        assert st.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] == "ENABLED"
    finally:
        srv.stop()


# With table updates taking 5 s (table_update_delay_ms), a stream enabled by UpdateTable is
# ENABLING while its table is UPDATING, and one disabled is DISABLING for as long, with
# its table UPDATING (and, as in DynamoDB Local, no StreamSpecification in its
# description), then DISABLED; the stream of a deleted table goes the same way.
@pytest.mark.sluice_only
def test_enabling_and_disabling_states(tmp_path):
    conf = tmp_path / "slow.conf"
    conf.write_text("table_update_delay_ms = 5000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(conf)])
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)

        def advance(ms):
            assert admin(srv.endpoint, "POST", "/_sluice/clock", {"advance_ms": ms})[0] == 200

        def states(arn):
            t = ddb.describe_table(TableName=name)["Table"]
            return (st.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"],
                    t["TableStatus"], t.get("StreamSpecification", {}).get("StreamEnabled"))

        name = "s_" + uuid.uuid4().hex[:8]
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        arn = ddb.update_table(TableName=name, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})["TableDescription"][
                "LatestStreamArn"]
        assert states(arn) == ("ENABLING", "UPDATING", True)
        advance(5000)
        assert states(arn) == ("ENABLED", "ACTIVE", True)
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
        assert states(arn) == ("DISABLING", "UPDATING", None)
        advance(4999)
        assert states(arn) == ("DISABLING", "UPDATING", None)
        advance(1)
        assert states(arn) == ("DISABLED", "ACTIVE", None)
        arn2 = ddb.update_table(TableName=name, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})["TableDescription"][
                "LatestStreamArn"]
        advance(5000)
        ddb.delete_table(TableName=name)
        assert st.describe_stream(StreamArn=arn2)["StreamDescription"]["StreamStatus"] == \
            "DISABLING"
        advance(5000)
        assert st.describe_stream(StreamArn=arn2)["StreamDescription"]["StreamStatus"] == \
            "DISABLED"
    finally:
        srv.stop()


# An iterator lives 15 minutes: used later it is ExpiredIteratorException; the
# NextShardIterator of each GetRecords is a fresh one.
@pytest.mark.sluice_only
def test_iterator_expiry(clocked):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance)
    advance(60_000)
    shard = shards_of(st, arn)[0]["ShardId"]
    it = st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                               ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    advance(14 * 60_000)
    nxt = st.get_records(ShardIterator=it)["NextShardIterator"]
    advance(60_000 + 1)
    with pytest.raises(st.exceptions.ExpiredIteratorException) as e:
        st.get_records(ShardIterator=it)
    # No live text of the service's is known; DynamoDB Local's message is empty.
    assert e.value.response["Error"]["Message"] == ""
    assert st.get_records(ShardIterator=nxt)["Records"] == []


# More than two readers polling one shard are throttled: the service documents at most two
# processes reading a shard at the same time (DG "DynamoDB Streams"; the model's
# LimitExceededException), and its text is "Rate exceeded" (aws-sdk-java-v2 #470,
# DynamoDBStreamsClient). A reader is one chain of NextShardIterators, polling once it
# reads with a second one; a one-off read never counts. Once a reader has been quiet for
# 2 s, another may poll. (DynamoDB Local throttles no reader.)
@pytest.mark.sluice_only
def test_third_reader_throttled(clocked):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")
    advance(1000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = shard_with(st, arn, "a")

    def reader():
        return st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                     ShardIteratorType="TRIM_HORIZON")["ShardIterator"]

    def poll(it, times):
        for _ in range(times):
            it = st.get_records(ShardIterator=it)["NextShardIterator"]
        return it

    one, two = poll(reader(), 3), poll(reader(), 3)
    # One-off reads of the shard go on: they do not poll.
    for _ in range(4):
        poll(reader(), 2)
    three = poll(reader(), 2)
    with pytest.raises(st.exceptions.LimitExceededException) as e:
        st.get_records(ShardIterator=three)
    assert e.value.response["Error"]["Message"] == "Rate exceeded"
    assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    one, two = poll(one, 2), poll(two, 2)  # the two readers are not disturbed
    advance(1500)
    one = poll(one, 1)
    advance(1500)  # reader two has been quiet for 3 s: reader three may poll
    poll(three, 3)
    with pytest.raises(st.exceptions.LimitExceededException):
        poll(two, 2)  # and reader two, back, is the third now


# The number of readers a shard serves at once is a parameter: `sluice serve
# --readers-per-shard 1` refuses a second poller as the default refuses a third; a number
# outside 1 to 4 stops the start with the usage.
@pytest.mark.sluice_only
def test_readers_per_shard_flag():
    import subprocess
    binary = sluice_bin()
    bad = subprocess.run([binary, "serve", "--port", "0", "--readers-per-shard", "5"],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2
    assert "invalid readers per shard '5' (1 to 4)" in bad.stderr
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--readers-per-shard", "1"])
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        name, arn = clocked_table(ddb, None, "KEYS_ONLY")
        ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
        shard = shard_with(st, arn, "a")

        def poll(times):
            it = st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                       ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            for _ in range(times):
                it = st.get_records(ShardIterator=it)["NextShardIterator"]
            return it

        one, two = poll(3), poll(2)
        with pytest.raises(st.exceptions.LimitExceededException):
            st.get_records(ShardIterator=two)
        st.get_records(ShardIterator=one)  # the one reader polls on
    finally:
        srv.stop()


def admin_stream(endpoint, name):
    """The table's stream as the admin API lists it."""
    status, body = admin(endpoint, "GET", "/_sluice/tables")
    assert status == 200
    return next(t for t in body["tables"] if t["name"] == name)["stream"]


# The admin API shows a table's stream with what a reader's lag needs: the time of the
# oldest record kept (the clock's ms; null before any) and the next sequence number.
@pytest.mark.sluice_only
def test_admin_stream_lag_fields(clocked, manual_server):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")
    advance(1000)

    assert admin_stream(manual_server.endpoint, name)["oldest_record_ms"] is None
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    at = st.get_records(ShardIterator=st.get_shard_iterator(
        StreamArn=arn, ShardId=shard_with(st, arn, "a"),
        ShardIteratorType="TRIM_HORIZON")["ShardIterator"])["Records"][0]
    advance(5000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
    s = admin_stream(manual_server.endpoint, name)
    assert s["oldest_record_ms"] // 1000 == int(at["dynamodb"]["ApproximateCreationDateTime"]
                                                .timestamp())
    assert s["next_sequence_number"] == int(at["dynamodb"]["SequenceNumber"]) + 2


# Records older than 24 hours are trimmed: TRIM_HORIZON starts after them, an iterator or a
# sequence number pointing at them is TrimmedDataAccessException.
@pytest.mark.sluice_only
def test_retention_trims_records(clocked):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")
    advance(60_000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "old"}})
    shard = shard_with(st, arn, "old")
    old = read_shard(st, arn, shard)
    assert len(old) == 1
    advance(12 * 3600_000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "new"}})
    advance(12 * 3600_000 - 5 * 60_000)
    # An iterator taken just before the record ages out, used just after.
    it = st.get_shard_iterator(StreamArn=arn, ShardId=shard,
                               ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    advance(5 * 60_000 + 2_000)
    ddb.describe_table(TableName=name)  # a request: the trim job has run
    with pytest.raises(st.exceptions.TrimmedDataAccessException):
        st.get_records(ShardIterator=it)
    with pytest.raises(st.exceptions.TrimmedDataAccessException):
        st.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_SEQUENCE_NUMBER",
                              SequenceNumber=old[0]["dynamodb"]["SequenceNumber"])
    # A shard that rolled over meanwhile: read the whole stream.
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in read_all(st, arn)] == ["new"]


# Trimming keeps pace with any write rate (issue 13): a tick trims at most 1,024 records
# (one short write transaction, so the request it runs before never waits long), and a
# tick that used its whole budget runs again before the next request instead of a second
# of the clock later. 5,000 records (more than the 4,096 a tick once trimmed a second),
# written at 2,000 a second of the clock (under a new on-demand table's throughput), are
# all gone within (records ever made) / 1,024 + 2 requests after the advance past
# retention, the clock standing still meanwhile.
@pytest.mark.sluice_only
def test_retention_trim_keeps_pace(clocked, manual_server):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")
    advance(1000)

    for i in range(0, 5000, 25):
        if i % 500 == 0:
            advance(250)
        out = ddb.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": f"k{j}"}}}} for j in range(i, i + 25)]})
        assert not out["UnprocessedItems"]
    assert len(read_all(st, arn)) == 5000
    made = admin_stream(manual_server.endpoint, name)["next_sequence_number"]
    advance(24 * 3600_000 + 1000)
    for _ in range(made // 1024 + 1):
        ddb.describe_table(TableName=name)
    assert admin_stream(manual_server.endpoint, name)["oldest_record_ms"] is None
    assert read_all(st, arn) == []


# A disabled stream is kept for 24 hours, then forgotten.
@pytest.mark.sluice_only
def test_disabled_stream_expires(clocked):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance)
    advance(60_000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    advance(23 * 3600_000)
    assert [s["StreamArn"] for s in st.list_streams(TableName=name)["Streams"]] == [arn]
    advance(3600_000 + 2_000)
    ddb.describe_table(TableName=name)
    assert st.list_streams(TableName=name)["Streams"] == []
    with pytest.raises(st.exceptions.ResourceNotFoundException):
        st.describe_stream(StreamArn=arn)


# A shard lives about four hours: the first write after that closes it and opens a child
# whose ParentShardId names it, and a reader following the lineage sees every record once.
@pytest.mark.sluice_only
def test_shard_rollover_lineage(clocked):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance, "NEW_IMAGE")
    advance(60_000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    advance(4 * 3600_000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
    # Every partition's shard rolled over: the first generation closed, each with one child.
    shards = shards_of(st, arn)
    parents = [s for s in shards if "ParentShardId" not in s]
    children = [s for s in shards if "ParentShardId" in s]
    assert len(parents) == len(children) >= 1
    assert all("EndingSequenceNumber" in s["SequenceNumberRange"] for s in parents)
    assert all("EndingSequenceNumber" not in s["SequenceNumberRange"] for s in children)
    assert sorted(s["ParentShardId"] for s in children) == sorted(s["ShardId"] for s in parents)
    recs = read_all(st, arn)
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in recs] == ["a", "b"]
    assert seqs(recs) == sorted(seqs(recs))


# The rollover interval is a parameter: with `--shard-rollover 60` a shard is followed by
# a child a minute after it opened; a bad value stops the start with the usage.
@pytest.mark.sluice_only
def test_shard_rollover_flag():
    import subprocess
    binary = sluice_bin()
    bad = subprocess.run([binary, "serve", "--port", "0", "--shard-rollover", "0"],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2
    assert "invalid shard rollover '0' (1 to 2592000 seconds)" in bad.stderr
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--shard-rollover", "60"])
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        name, arn = clocked_table(ddb, None, "KEYS_ONLY")
        first = shards_of(st, arn)
        assert admin(srv.endpoint, "POST", "/_sluice/clock", {"advance_ms": 59_000})[0] == 200
        ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
        assert [s["ShardId"] for s in shards_of(st, arn)] == [s["ShardId"] for s in first]
        assert admin(srv.endpoint, "POST", "/_sluice/clock", {"advance_ms": 2_000})[0] == 200
        ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
        shards = shards_of(st, arn)
        children = [s for s in shards if "ParentShardId" in s]
        assert sorted(s["ParentShardId"] for s in children) == sorted(s["ShardId"] for s in first)
    finally:
        srv.stop()


# TTL deletions leave a REMOVE record whose userIdentity is the service (facts §11).
@pytest.mark.sluice_only
def test_ttl_deletion_record(clocked):
    ddb, st, advance = clocked
    name, arn = clocked_table(ddb, advance, "OLD_IMAGE")
    advance(60_000)
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "exp"})
    now_s = 1796040000 + 60
    ddb.put_item(TableName=name, Item={"pk": {"S": "gone"}, "exp": {"N": str(now_s)}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "nope"}})
    for _ in range(40):
        advance(1_000)
        if "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "gone"}}):
            break
    recs = read_all(st, arn)
    assert [r["eventName"] for r in recs] == ["INSERT", "REMOVE"]
    assert "userIdentity" not in recs[0]
    assert recs[1]["userIdentity"] == {"PrincipalId": "dynamodb.amazonaws.com",
                                       "Type": "Service"}
    assert recs[1]["dynamodb"]["OldImage"]["pk"] == {"S": "gone"}


# Records are durable with --data-dir: every record of an acknowledged write survives
# kill -9, and the sequence numbers go on above them, in the same shards: the table's
# partition layout is saved with the directory, so its stream comes back as it was.
@pytest.mark.sluice_only
def test_records_survive_kill_9(tmp_path):
    data = str(tmp_path / "data")
    srv = Server(["--data-dir", data])
    ddb = make_client(srv.endpoint)
    ddb.create_table(TableName="durable", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    wait_active(ddb, "durable")
    arn = ddb.describe_table(TableName="durable")["Table"]["LatestStreamArn"]
    for i in range(50):
        ddb.put_item(TableName="durable", Item={"pk": {"S": f"k{i}"}})
    shards_before = shards_of(streams_client(srv.endpoint), arn)
    os.kill(srv.proc.pid, signal.SIGKILL)
    srv.proc.wait()
    srv = Server(["--data-dir", data])
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        before = read_all(st, arn)
        assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in before] == [f"k{i}" for i in range(50)]
        ddb.put_item(TableName="durable", Item={"pk": {"S": "after"}})
        recs = read_all(st, arn)
        assert len(recs) == 51 and seqs(recs)[-1] > seqs(before)[-1]
        assert shards_of(st, arn) == shards_before
    finally:
        srv.stop()


def wait_for(cond, what, timeout=30):
    """Polls cond() until it is true (the streams tick runs once a second of the clock)."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def capacity(ep):
    """The capacity engine's view of table "kept" (its resource, not its GSIs')."""
    status, body = admin(ep, "GET", "/_sluice/tables/kept/capacity")
    assert status == 200
    return next(r for r in body["resources"] if r["kind"] == "table")


# A restart on the same --data-dir keeps a stream's shards: the same ids, parents and
# sequence ranges, the open ones still open, even after partitions split (the capacity
# engine's partition layout is saved with the directory, jobs/tables.h); iterators and
# sequence numbers handed out before the restart still read, and a KCL-style reader sees
# every record once, each item in order. (The service keeps its shards whatever happens
# to the machines behind it; DynamoDB Local has no partitions to split.)
@pytest.mark.sluice_only
def test_restart_keeps_shards(tmp_path):
    data = str(tmp_path / "data")
    conf = tmp_path / "small.conf"
    conf.write_text("partition_max_bytes = 4096\n")
    args = ["--data-dir", data, "--config", str(conf)]
    srv = Server(args)
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        ddb.create_table(TableName="kept", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         StreamSpecification={"StreamEnabled": True,
                                              "StreamViewType": "NEW_AND_OLD_IMAGES"})
        wait_active(ddb, "kept")
        arn = ddb.describe_table(TableName="kept")["Table"]["LatestStreamArn"]
        for i in range(40):
            ddb.put_item(TableName="kept", Item={"pk": {"S": f"k{i}"}, "pad": {"S": "x" * 400}})
        # The streams tick follows the splits: every partition has its open shard.
        n_parts = lambda: len(capacity(srv.endpoint)["partitions"])
        open_shards = lambda: [s for s in shards_of(st, arn)
                               if "EndingSequenceNumber" not in s["SequenceNumberRange"]]
        wait_for(lambda: len(open_shards()) == n_parts() > 1, "shards of the split partitions")
        shards = shards_of(st, arn)
        assert any(s.get("ParentShardId") for s in shards), "no partition split"
        parts = capacity(srv.endpoint)["partitions"]
        # A reader's place in every open shard: the NextShardIterator after reading it.
        places = {}
        for s in open_shards():
            it = st.get_shard_iterator(StreamArn=arn, ShardId=s["ShardId"],
                                       ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            r = st.get_records(ShardIterator=it)
            places[s["ShardId"]] = (r["NextShardIterator"], r["Records"])
        old = read_all(st, arn)
        assert len(old) == 40
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait()
        srv = Server(args)
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        assert shards_of(st, arn) == shards
        got = capacity(srv.endpoint)["partitions"]
        assert [p["hash_range"] for p in got] == \
            [p["hash_range"] for p in parts]
        for i in range(40):  # the same sizes: no partition splits
            ddb.update_item(TableName="kept", Key={"pk": {"S": f"k{i}"}},
                            UpdateExpression="SET #p = :p", ExpressionAttributeNames={"#p": "pad"},
                            ExpressionAttributeValues={":p": {"S": "y" * 400}})
        # The same shards took them (an empty one now starts at its first record).
        lineage = lambda v: [(s["ShardId"], s.get("ParentShardId"),
                              s["SequenceNumberRange"].get("EndingSequenceNumber")) for s in v]
        assert lineage(shards_of(st, arn)) == lineage(shards)
        # The iterators of the run before read on where they stopped: the shard's records
        # after those they had read, every one a MODIFY of this run.
        modified = 0
        for sid, (it, first) in places.items():
            recs = st.get_records(ShardIterator=it)["Records"]
            assert recs == read_shard(st, arn, sid)[len(first):]
            assert all(r["eventName"] == "MODIFY" for r in recs)
            modified += len(recs)
        assert modified == 40
        # And a sequence number of the run before still positions an iterator.
        last = old[-1]
        sid = next(s["ShardId"] for s in shards if any(
            r["dynamodb"]["SequenceNumber"] == last["dynamodb"]["SequenceNumber"]
            for r in read_shard(st, arn, s["ShardId"])))
        after = read_shard(st, arn, sid, "AFTER_SEQUENCE_NUMBER",
                           SequenceNumber=last["dynamodb"]["SequenceNumber"])
        assert after and all(r["eventName"] == "MODIFY" for r in after)
        recs = read_all(st, arn)
        assert recs[:40] == old and len(recs) == 80
    finally:
        srv.stop()


# A shard's index of its records is written in batches after the records (streams.h,
# "the index"): on the manual clock, with no Streams read in between, the records of
# 300 writes are all still unindexed when the server is killed. Acknowledged, they are
# durable: the restarted server indexes them and reads every one, in its shard, in order.
@pytest.mark.sluice_only
def test_unindexed_records_survive_kill(tmp_path):
    args = ["--data-dir", str(tmp_path / "data"), "--clock", "manual",
            "--clock-start", "2026-11-30T12:00:00Z"]
    srv = Server(args)
    try:
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        name, arn = clocked_table(ddb, None, view="NEW_IMAGE", name="unindexed")
        before = {s["ShardId"] for s in shards_of(st, arn)}
        for i in range(300):
            ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i % 100}"}, "n": {"N": str(i)}})
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait()
        srv = Server(args)
        ddb, st = make_client(srv.endpoint), streams_client(srv.endpoint)
        assert {s["ShardId"] for s in shards_of(st, arn)} == before
        recs = read_all(st, arn)
        assert [int(r["dynamodb"]["NewImage"]["n"]["N"]) for r in recs] == list(range(300))
        assert [r["eventName"] for r in recs] == ["INSERT"] * 100 + ["MODIFY"] * 200
        # Each item's records are in one shard (its partition's), none twice.
        where = {}
        for sid in before:
            for r in read_shard(st, arn, sid):
                assert where.setdefault(r["dynamodb"]["Keys"]["pk"]["S"], sid) == sid
        assert len(where) == 100
        # And the writes after the restart follow, indexed as they come.
        ddb.put_item(TableName=name, Item={"pk": {"S": "k0"}, "n": {"N": "300"}})
        assert int(read_all(st, arn)[-1]["dynamodb"]["NewImage"]["n"]["N"]) == 300
    finally:
        srv.stop()


def prometheus(ep, name, table):
    import urllib.request
    with urllib.request.urlopen(ep + "/metrics", timeout=10) as r:
        text = r.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name) and f'table_name="{table}"' in line
               and 'operation="GetRecords"' in line)


# GetRecords is measured under CloudWatch's names: ReturnedRecordsCount, ReturnedBytes (the
# records' SizeBytes) and the request's SuccessfulRequestLatency, Operation GetRecords.
@pytest.mark.sluice_only
def test_get_records_metrics(st, ddb, make_table, endpoint):
    name, arn = stream_table(make_table, ddb, "KEYS_ONLY")
    for i in range(3):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}})
    recs = read_all(st, arn)
    assert len(recs) == 3
    assert prometheus(endpoint, "sluice_dynamodb_returned_records_total", name) == 3
    assert prometheus(endpoint, "sluice_dynamodb_returned_bytes_total", name) == \
        sum(r["dynamodb"]["SizeBytes"] for r in recs)
    assert prometheus(endpoint, "sluice_dynamodb_successful_request_latency_seconds_count",
                      name) >= 2


@pytest.fixture
def small_partitions(tmp_path):
    """A private sluice (real clock) whose partitions split by size at 4 KB."""
    conf = tmp_path / "small.conf"
    conf.write_text("partition_max_bytes = 4096\n")
    srv = Server(["--config", str(conf)])
    yield srv.endpoint
    srv.stop()


def kcl_consume(st, arn, stop, apply):
    """A KCL-style consumer: reads every shard from TRIM_HORIZON, starts a child only once
    its parent is read to its end, finds new shards by describing the stream again, and
    ends when 'stop' is set and a full pass found nothing new."""
    iters, done = {}, set()
    while True:
        shards = shards_of(st, arn)
        ids = {s["ShardId"] for s in shards}
        for s in shards:
            sid, parent = s["ShardId"], s.get("ParentShardId")
            if sid in done or sid in iters or (parent in ids and parent not in done):
                continue
            iters[sid] = st.get_shard_iterator(StreamArn=arn, ShardId=sid,
                                               ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        got = 0
        for sid in list(iters):
            r = st.get_records(ShardIterator=iters[sid])
            apply(r["Records"])
            got += len(r["Records"])
            if r.get("NextShardIterator"):
                iters[sid] = r["NextShardIterator"]
            else:
                del iters[sid]
                done.add(sid)
        if stop.is_set() and got == 0 and all(s["ShardId"] in iters or s["ShardId"] in done
                                             for s in shards_of(st, arn)):
            return done


# Shards follow the table's partitions: when a partition splits (here by size), its shard is
# closed and each half gets a shard whose ParentShardId names it; a KCL-style consumer
# following that lineage while writers run replays the table exactly.
@pytest.mark.sluice_only
def test_split_lineage_replay(small_partitions):
    ep = small_partitions
    ddb, st = make_client(ep), streams_client(ep)
    ddb.create_table(TableName="split", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     StreamSpecification={"StreamEnabled": True,
                                          "StreamViewType": "NEW_AND_OLD_IMAGES"})
    wait_active(ddb, "split")
    arn = ddb.describe_table(TableName="split")["Table"]["LatestStreamArn"]
    first = {s["ShardId"] for s in shards_of(st, arn)}
    stop, errors = threading.Event(), []

    def writer(w):
        c = make_client(ep)
        try:
            for i in range(150):
                k = {"pk": {"S": f"w{w}-{i % 40}"}}
                if i % 7 == 6:
                    c.delete_item(TableName="split", Key=k)
                else:
                    c.put_item(TableName="split", Item={**k, "i": {"N": str(i)},
                                                          "pad": {"S": "x" * 400}})
        except Exception as e:  # surfaced below
            errors.append(e)

    replay, last = {}, {}

    def apply(records):
        for r in records:
            d = r["dynamodb"]
            k = d["Keys"]["pk"]["S"]
            assert int(d["SequenceNumber"]) > last.get(k, 0)  # each item in order, once
            last[k] = int(d["SequenceNumber"])
            if r["eventName"] == "REMOVE":
                replay.pop(k, None)
            else:
                replay[k] = d["NewImage"]

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    consumer = threading.Thread(target=lambda: kcl_consume(st, arn, stop, apply))
    consumer.start()
    for t in threads:
        t.join()
    time.sleep(1.5)  # the streams tick follows the last splits
    stop.set()
    consumer.join(timeout=120)
    assert not errors, errors
    shards = shards_of(st, arn)
    children = [s for s in shards if s.get("ParentShardId")]
    assert children, "no partition split"
    by_id = {s["ShardId"]: s for s in shards}
    for c in children:
        parent = by_id[c["ParentShardId"]]
        assert "EndingSequenceNumber" in parent["SequenceNumberRange"]
    assert any(c["ParentShardId"] in first for c in children)
    # ShardFilter CHILD_SHARDS: exactly the children of a shard, with their parent.
    for pid in {c["ParentShardId"] for c in children}:
        got = child_shards(Raw(ep), arn, pid)
        assert got == [c for c in shards if c.get("ParentShardId") == pid]
    items = {}
    for page in ddb.get_paginator("scan").paginate(TableName="split"):
        for item in page["Items"]:
            items[item["pk"]["S"]] = item
    assert replay == items


# PartiQL writes go through the same write funnel: INSERT, UPDATE and DELETE statements
# leave INSERT, MODIFY and REMOVE records.
def test_partiql_records(st, ddb, make_table):
    name, arn = stream_table(make_table, ddb, "NEW_IMAGE")
    ddb.execute_statement(Statement=f"INSERT INTO \"{name}\" VALUE {{'pk': 'q', 'n': 1}}")
    ddb.execute_statement(Statement=f"UPDATE \"{name}\" SET n = 2 WHERE pk = 'q'")
    ddb.execute_statement(Statement=f"DELETE FROM \"{name}\" WHERE pk = 'q'")
    recs = read_all(st, arn)
    assert [r["eventName"] for r in recs] == ["INSERT", "MODIFY", "REMOVE"]
    assert recs[1]["dynamodb"]["NewImage"] == {"pk": {"S": "q"}, "n": {"N": "2"}}


# The dashboard's stream view (GET /_sluice/tables/NAME/stream, issue 18): per shard, the
# records past the furthest GetRecords position are unread and the oldest one's age is the
# lag; a shard nobody read has every record unread.
@pytest.mark.sluice_only
def test_admin_stream_lag(clocked, manual_server):
    ddb, st, advance = clocked
    ep = manual_server.endpoint
    name, arn = clocked_table(ddb, advance)
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}})
    advance(10_000)

    def view():
        status, body = admin(ep, "GET", f"/_sluice/tables/{name}/stream")
        assert status == 200, body
        return body["stream"]["shards"]

    shards = view()
    assert sum(s["unread_records"] for s in shards) == 5
    assert {s["read"] for s in shards} == {False}
    assert max(s["lag_ms"] for s in shards) == 10_000
    records = sum(len(read_shard(st, arn, s["ShardId"])) for s in shards_of(st, arn))
    assert records == 5
    shards = view()
    assert sum(s["unread_records"] for s in shards) == 0
    assert {s["lag_ms"] for s in shards} == {0}
    assert all(s["read"] and s["reads"] >= 1 for s in shards if s["newest_record_ms"])
    advance(2_000)
    ddb.put_item(TableName=name, Item={"pk": {"S": "late"}})
    advance(3_000)
    shards = view()
    assert sum(s["unread_records"] for s in shards) == 1
    assert max(s["lag_ms"] for s in shards) == 3_000
    assert admin(ep, "GET", "/_sluice/tables/nope/stream")[0] == 404


# The dashboard's stream totals (GET /_sluice/tables/NAME/stream, issue 13): the records
# per second over the last minute of the clock (over the stream's life while it is
# younger) and the oldest record kept, with its age, for the stream and per shard.
@pytest.mark.sluice_only
def test_admin_stream_rate_and_oldest(clocked, manual_server):
    ddb, st, advance = clocked
    ep = manual_server.endpoint
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")

    def view():
        status, body = admin(ep, "GET", f"/_sluice/tables/{name}/stream")
        assert status == 200, body
        return body["now_ms"], body["stream"]

    now, s = view()
    assert (s["records_in_window"], s["records_per_second"], s["rate_capped"]) == (0, 0, False)
    assert s["oldest_record_ms"] is None and s["oldest_record_age_ms"] is None
    assert all(sh["oldest_record_ms"] is None for sh in s["shards"])
    for i in range(6):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"a{i}"}})
    t0 = now
    advance(20_000)
    for i in range(4):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"b{i}"}})
    advance(5_000)
    now, s = view()
    assert now - t0 == 25_000
    # 10 records over the stream's 25 s.
    assert (s["rate_window_ms"], s["records_in_window"]) == (25_000, 10)
    assert s["records_per_second"] == pytest.approx(0.4)
    assert (s["oldest_record_ms"], s["oldest_record_age_ms"]) == (t0, 25_000)
    kept = [sh["oldest_record_ms"] for sh in s["shards"] if sh["oldest_record_ms"] is not None]
    assert kept and min(kept) == t0 and all(t0 <= ms <= t0 + 20_000 for ms in kept)
    # 50 s later the last minute holds the 4 later records only.
    advance(50_000)
    now, s = view()
    assert (s["rate_window_ms"], s["records_in_window"]) == (60_000, 4)
    assert s["records_per_second"] == pytest.approx(4 / 60)
    assert s["oldest_record_age_ms"] == 75_000
    # Past the retention every record is trimmed: none kept, none per second.
    advance(24 * 3600 * 1000)
    now, s = view()
    assert (s["records_in_window"], s["records_per_second"]) == (0, 0)
    assert s["oldest_record_ms"] is None and s["oldest_record_age_ms"] is None


# ?window_s=N (the dashboard's time window) sets the rate's span; the stream's life
# still bounds it, and a malformed window is refused as the capacity endpoint's is.
@pytest.mark.sluice_only
def test_admin_stream_rate_window(clocked, manual_server):
    ddb, st, advance = clocked
    ep = manual_server.endpoint
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")

    def view(q):
        status, body = admin(ep, "GET", f"/_sluice/tables/{name}/stream{q}")
        assert status == 200, body
        return body["stream"]

    for i in range(9):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"a{i}"}})
    advance(600_000)
    for i in range(3):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"b{i}"}})
    advance(200_000)
    # 800 s after the first records: the last minute holds none, 15 minutes all 12.
    s = view("")
    assert (s["rate_window_ms"], s["records_in_window"], s["records_per_second"]) == (60_000, 0, 0)
    s = view("?window_s=300")
    assert (s["rate_window_ms"], s["records_in_window"]) == (300_000, 3)
    assert s["records_per_second"] == pytest.approx(0.01)
    s = view("?window_s=900")  # longer than the stream's life (800 s and a bit)
    assert s["records_in_window"] == 12 and 800_000 <= s["rate_window_ms"] < 900_000
    assert s["records_per_second"] == pytest.approx(12_000 / s["rate_window_ms"])
    s = view("?window_s=86400")
    assert s["rate_window_ms"] == view("?window_s=900")["rate_window_ms"]
    for bad in ("0", "86401", "x", ""):
        status, body = admin(ep, "GET", f"/_sluice/tables/{name}/stream?window_s={bad}")
        assert (status, body) == (400, {"error": "window_s must be 1..86400"}), bad


# Past its count budget (10,000 records over the shards) the rate is estimated from the
# newest records, over the span they cover, and says so.
@pytest.mark.sluice_only
def test_admin_stream_rate_capped(clocked, manual_server):
    ddb, st, advance = clocked
    ep = manual_server.endpoint
    name, arn = clocked_table(ddb, advance, "KEYS_ONLY")
    n = 0
    for second in range(4):
        advance(1_000)
        for _ in range(104):  # 2,600 records this second
            reqs = [{"PutRequest": {"Item": {"pk": {"S": f"k{n + j}"}}}} for j in range(25)]
            n += 25
            out = ddb.batch_write_item(RequestItems={name: reqs})
            assert not out["UnprocessedItems"], out
    advance(500)
    status, body = admin(ep, "GET", f"/_sluice/tables/{name}/stream")
    assert status == 200, body
    s = body["stream"]
    assert s["rate_capped"] is True
    # 10,000 of the 10,400 records counted, back to the oldest counted one (written at
    # the first second, 3.5 s ago): the estimate is near the 2,600 a second written.
    assert s["records_in_window"] == 10_000
    assert s["rate_window_ms"] == 3_500
    assert 2_600 <= s["records_per_second"] <= 3_000, s
