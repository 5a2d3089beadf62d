"""AWS CLI smoke test: the official CLI drives a table's life cycle against the endpoint.

Each CLI call costs a second or two of start-up, so this file keeps to a handful of calls.
"""
import json
import os
import shutil
import subprocess
import uuid

import pytest

from conftest import CREDS, REGION, wait_active

AWS = "/usr/bin/aws" if os.path.exists("/usr/bin/aws") else shutil.which("aws")


@pytest.fixture
def aws(endpoint, tmp_path):
    """Runs `aws --endpoint-url <endpoint> --output json dynamodb <args>`; returns
    (exit code, parsed stdout or None, stderr). No user configuration is read."""
    if not AWS:
        pytest.skip("AWS CLI not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(HOME=str(tmp_path), AWS_ACCESS_KEY_ID=CREDS.access_key,
               AWS_SECRET_ACCESS_KEY=CREDS.secret_key, AWS_DEFAULT_REGION=REGION, AWS_PAGER="",
               AWS_CONFIG_FILE=str(tmp_path / "config"),
               AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "credentials"),
               AWS_EC2_METADATA_DISABLED="true", AWS_MAX_ATTEMPTS="1")

    def run(*args):
        p = subprocess.run([AWS, "--endpoint-url", endpoint, "--output", "json", "dynamodb", *args],
                           env=env, capture_output=True, text=True, timeout=60)
        return p.returncode, json.loads(p.stdout) if p.stdout.strip() else None, p.stderr

    return run


# create-table, put-item, get-item, describe-table and delete-table work as a user would type them.
def test_table_life_cycle(aws, ddb):
    name = "t_" + uuid.uuid4().hex[:12]
    rc, out, err = aws("create-table", "--table-name", name,
                       "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                       "--key-schema", "AttributeName=pk,KeyType=HASH",
                       "--billing-mode", "PAY_PER_REQUEST")
    assert rc == 0, err
    try:
        assert out["TableDescription"]["TableName"] == name
        wait_active(ddb, name)
        item = {"pk": {"S": "cli"}, "n": {"N": "1.50"}, "l": {"L": [{"BOOL": True}]}}
        rc, out, err = aws("put-item", "--table-name", name, "--item", json.dumps(item))
        assert rc == 0, err
        rc, out, err = aws("get-item", "--table-name", name, "--consistent-read",
                           "--key", json.dumps({"pk": {"S": "cli"}}))
        assert rc == 0, err
        assert out["Item"] == {**item, "n": {"N": "1.5"}}
        rc, out, err = aws("describe-table", "--table-name", name)
        assert rc == 0, err
        assert out["Table"]["TableName"] == name
        assert out["Table"]["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    finally:
        rc, out, err = aws("delete-table", "--table-name", name)
    assert rc == 0, err
    assert out["TableDescription"]["TableName"] == name


# A service error makes the CLI exit with 254 and print the exception name.
def test_error_exit_code(aws):
    rc, out, err = aws("describe-table", "--table-name", "t_" + uuid.uuid4().hex)
    assert rc == 254
    assert "ResourceNotFoundException" in err


# `aws dynamodbstreams` lists, describes and reads a table's stream as a user would type it.
def test_dynamodbstreams(endpoint, tmp_path, ddb, make_table):
    if not AWS:
        pytest.skip("AWS CLI not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(HOME=str(tmp_path), AWS_ACCESS_KEY_ID=CREDS.access_key,
               AWS_SECRET_ACCESS_KEY=CREDS.secret_key, AWS_DEFAULT_REGION=REGION, AWS_PAGER="",
               AWS_CONFIG_FILE=str(tmp_path / "config"),
               AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "credentials"),
               AWS_EC2_METADATA_DISABLED="true", AWS_MAX_ATTEMPTS="1")

    def run(*args):
        p = subprocess.run([AWS, "--endpoint-url", endpoint, "--output", "json", "dynamodbstreams",
                            *args], env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    name = make_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    ddb.put_item(TableName=name, Item={"pk": {"S": "cli"}})
    arn = run("list-streams", "--table-name", name)["Streams"][0]["StreamArn"]
    recs = []
    for shard in run("describe-stream", "--stream-arn", arn)["StreamDescription"]["Shards"]:
        it = run("get-shard-iterator", "--stream-arn", arn, "--shard-id", shard["ShardId"],
                 "--shard-iterator-type", "TRIM_HORIZON")["ShardIterator"]
        recs += run("get-records", "--shard-iterator", it)["Records"]
        if recs:
            break
    assert [(r["eventName"], r["dynamodb"]["NewImage"]) for r in recs] == \
        [("INSERT", {"pk": {"S": "cli"}})]
