"""Behaviour the capacity engine had but no test pinned (issue 16's list): a provisioned
table's hot key, and the batch rule of CloudWatch for a fully throttled BatchGetItem. On a
private manual-clock sluice; DynamoDB Local ignores capacity, so every test is `capacity`.
"""
import urllib.request

import pytest

from test_capacity_http import PROVISIONED_MSG, create, put

pytestmark = pytest.mark.capacity


def prometheus(client, name, **labels):
    text = urllib.request.urlopen(client.ep + "/metrics", timeout=10).read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


# A hot key on a provisioned table with units to spare: its partition (1,000 WCU/s, 850 ms of
# burst) throttles first, with the provisioned exception and the KeyRange reason (facts §1.2:
# the exception follows the table's mode, the reason the limit).
def test_hot_key_on_provisioned_table(client):
    arn = create(client, "provhot", ProvisionedThroughput={"ReadCapacityUnits": 10000,
                                                          "WriteCapacityUnits": 10000})
    statuses = [put(client, "provhot", "k")[0] for _ in range(1000)]
    assert 400 in statuses
    status, reply = put(client, "provhot", "k")
    assert status == 400
    assert reply["__type"] == ("com.amazonaws.dynamodb.v20120810#"
                               "ProvisionedThroughputExceededException")
    assert reply["message"] == PROVISIONED_MSG
    assert reply["ThrottlingReasons"] == [
        {"reason": "TableWriteKeyRangeThroughputExceeded", "resource": arn}]
    # Other keys, on other partitions of the 10-partition table, still pass.
    assert any(put(client, "provhot", f"other{i}")[0] == 200 for i in range(10))


# A BatchGetItem of ten keys all throttled fails whole: ten ReadThrottleEvents (one per
# key) and one ThrottledRequests (facts §7's batch rule).
def test_fully_throttled_batch_get_counts_ten_events(lean_client):
    create(lean_client, "bgt", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                    "WriteCapacityUnits": 100})
    keys = [{"pk": {"S": f"k{i}"}} for i in range(10)]
    for k in keys:
        assert lean_client.call("PutItem", {"TableName": "bgt", "Item": k})[0] == 200
    # Spend the one read unit of the table's first second.
    assert lean_client.call("GetItem", {"TableName": "bgt", "Key": keys[0],
                                        "ConsistentRead": True})[0] == 200
    status, reply = lean_client.call("BatchGetItem", {
        "RequestItems": {"bgt": {"Keys": keys, "ConsistentRead": True}}})
    assert status == 400, reply
    assert reply["__type"].endswith("#ProvisionedThroughputExceededException")
    assert prometheus(lean_client, "sluice_dynamodb_read_throttle_events_total",
                      table_name="bgt") == 10
    assert prometheus(lean_client, "sluice_dynamodb_throttled_requests_total", table_name="bgt",
                      operation="BatchGetItem") == 1
