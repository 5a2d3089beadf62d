"""`--latency aws` (server/dispatch.c aws_pace_ms): data-plane answers leave after the
service's measured in-region latency (seed 003: writes p50 4-5 ms, reads 2-4 ms, unchanged by
throttling), so a sequential client runs at the pace it would against the service. Only lower
bounds are asserted: the machine may be slower, never faster. sluice's own flag: sluice_only.
"""
import subprocess
import time

import boto3
import botocore.config
import pytest

from conftest import CREDS, REGION, Server, admin, sluice_bin

pytestmark = pytest.mark.sluice_only


def client(ep):
    return boto3.client(
        "dynamodb", endpoint_url=ep, region_name=REGION, aws_access_key_id=CREDS.access_key,
        aws_secret_access_key=CREDS.secret_key,
        config=botocore.config.Config(retries={"total_max_attempts": 1, "mode": "standard"}))


def timed(fn):
    t0 = time.monotonic()
    try:
        fn()
    except Exception:  # a throttle is paced as well
        pass
    return time.monotonic() - t0


# Each write waits at least 4 ms and each read at least 2 ms, throttled or not.
def test_latency_aws_paces_reads_and_writes():
    srv = Server(["--latency", "aws", "--seed", "3"])
    try:
        ddb = client(srv.endpoint)
        ddb.create_table(TableName="paced", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        writes = [timed(lambda: ddb.put_item(TableName="paced", Item={"pk": {"S": f"k{i}"}}))
                  for i in range(15)]
        reads = [timed(lambda: ddb.get_item(TableName="paced", Key={"pk": {"S": "k1"}}))
                 for _ in range(15)]
        assert min(writes) >= 0.004, writes
        assert min(reads) >= 0.002, reads
        # A throttled write is paced like any other (seed 003: "with or without throttling").
        admin(srv.endpoint, "POST", "/_sluice/faults",
              {"operation": "PutItem", "count": 5,
               "reason": "TableWriteProvisionedThroughputExceeded"})
        throttled = [timed(lambda: ddb.put_item(TableName="paced", Item={"pk": {"S": "t"}}))
                     for _ in range(5)]
        assert min(throttled) >= 0.004, throttled
        rules = admin(srv.endpoint, "GET", "/_sluice/faults")[1]["rules"]
        assert rules[0]["hits"] == 5
    finally:
        srv.stop()


# Only aws and off are accepted.
def test_latency_flag_values():
    binary = sluice_bin()
    p = subprocess.run([binary, "serve", "--port", "0", "--latency", "fast"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode != 0 and "invalid --latency 'fast'" in p.stderr
