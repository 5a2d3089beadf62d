"""The account's provisioned quota over HTTP (capacity-model.md §5, facts §5): 80,000 read and
80,000 write units summed over the provisioned tables and GSIs of the account; CreateTable and
UpdateTable past it are LimitExceededException with the service's text (facts §1.4), and
on-demand tables do not count toward it — until they switch to provisioned. DynamoDB Local
has no quotas: marked `capacity`.
"""
import uuid

import pytest

pytestmark = pytest.mark.capacity


def msg(reserved, requested):
    return ("This request would have caused the WriteCapacityUnits limit to be exceeded for the "
            f"account in us-east-1. Current WriteCapacityUnits reserved by the account: {reserved}. "
            f"Limit: 80000. Requested: {requested}. Refer to the Amazon DynamoDB Developer Guide "
            "for current limits and how to request higher limits.")


def pt(r, w):
    return {"ReadCapacityUnits": r, "WriteCapacityUnits": w}


def create(client, **kw):
    name = "t_" + uuid.uuid4().hex[:12]
    body = {"TableName": name,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
    body.update(kw)
    return name, client.call("CreateTable", body)


def test_account_quota(client):
    c = client
    # 40,000 on one table; 20,000 + a GSI's 19,000 on another: 79,000 reserved.
    assert create(c, ProvisionedThroughput=pt(5, 40000))[1][0] == 200
    b, r = create(c, ProvisionedThroughput=pt(5, 20000), AttributeDefinitions=[
        {"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "gk", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{
        "IndexName": "byg", "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}, "ProvisionedThroughput": pt(5, 19000)}])
    assert r[0] == 200, r
    # On-demand tables do not count: any number of them.
    od = [create(c, BillingMode="PAY_PER_REQUEST") for _ in range(3)]
    assert all(r[0] == 200 for _, r in od)
    status, reply = create(c, ProvisionedThroughput=pt(5, 2000))[1]
    assert status == 400
    assert reply["__type"] == "com.amazonaws.dynamodb.v20120810#LimitExceededException"
    assert reply["message"] == msg(79000, 2000)
    # Exactly to the quota is allowed; one unit more is refused and changes nothing.
    assert create(c, ProvisionedThroughput=pt(5, 1000))[1][0] == 200
    status, reply = c.call("UpdateTable", {"TableName": b, "ProvisionedThroughput": pt(5, 20001)})
    # "Requested" is the table's units after the change, its GSI's included.
    assert status == 400 and reply["message"] == msg(80000, 39001)
    t = c.call("DescribeTable", {"TableName": b})[1]["Table"]
    assert t["ProvisionedThroughput"]["WriteCapacityUnits"] == 20000
    # An on-demand table switching to provisioned starts to count.
    status, reply = c.call("UpdateTable", {"TableName": od[0][0], "BillingMode": "PROVISIONED",
                                           "ProvisionedThroughput": pt(5, 5)})
    assert status == 400 and reply["message"] == msg(80000, 5)
    # DescribeLimits reports the quota.
    limits = c.call("DescribeLimits", {})[1]
    assert limits["AccountMaxWriteCapacityUnits"] == 80000
