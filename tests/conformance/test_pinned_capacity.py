"""Behaviour the capacity engine had but no test pinned (issue 16's list): a provisioned
table's hot key, the batch rule of CloudWatch for a fully throttled BatchGetItem, -1 removing
an on-demand maximum, and a table-and-GSI decrease refused whole. On a private manual-clock
sluice; DynamoDB Local ignores capacity, so every test is `capacity`.
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


# OnDemandThroughput -1 removes a configured maximum (facts §6): the writes the maximum
# throttled pass at once, and DescribeTable reports -1.
def test_minus_one_removes_on_demand_maximum(client):
    create(client, "capped1", OnDemandThroughput={"MaxReadRequestUnits": 100,
                                                 "MaxWriteRequestUnits": 5})
    for i in range(5):
        assert put(client, "capped1", f"k{i}")[0] == 200
    status, reply = put(client, "capped1", "k5")
    assert status == 400
    assert reply["throttlingReasons"][0]["reason"] == "TableWriteMaxOnDemandThroughputExceeded"
    status, reply = client.call("UpdateTable", {"TableName": "capped1", "OnDemandThroughput": {
        "MaxWriteRequestUnits": -1}})
    assert status == 200, reply
    assert all(put(client, "capped1", f"m{i}")[0] == 200 for i in range(20))
    t = client.call("DescribeTable", {"TableName": "capped1"})[1]["Table"]
    assert t["OnDemandThroughput"]["MaxWriteRequestUnits"] == -1
    assert t["OnDemandThroughput"]["MaxReadRequestUnits"] == 100


# One UpdateTable that decreases the table and a GSI is refused whole when the GSI's
# decrease budget is spent (spec §5): the table keeps its units and its own budget.
def test_table_and_index_decrease_rejected_whole(client):
    pt = lambda r, w: {"ReadCapacityUnits": r, "WriteCapacityUnits": w}
    create(client, "both", ProvisionedThroughput=pt(100, 100),
           AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "g", "AttributeType": "S"}],
           GlobalSecondaryIndexes=[{
               "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
               "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": pt(100, 100)}])
    for units in (90, 80, 70, 60):
        status, reply = client.call("UpdateTable", {"TableName": "both", "GlobalSecondaryIndexUpdates": [
            {"Update": {"IndexName": "byg", "ProvisionedThroughput": pt(units, units)}}]})
        assert status == 200, reply
    status, reply = client.call("UpdateTable", {
        "TableName": "both", "ProvisionedThroughput": pt(50, 50),
        "GlobalSecondaryIndexUpdates": [
            {"Update": {"IndexName": "byg", "ProvisionedThroughput": pt(50, 50)}}]})
    assert status == 400, reply
    assert reply["__type"].endswith("#LimitExceededException")
    t = client.call("DescribeTable", {"TableName": "both"})[1]["Table"]
    assert t["ProvisionedThroughput"]["ReadCapacityUnits"] == 100
    assert t["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 0
    assert t["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"] == 60
