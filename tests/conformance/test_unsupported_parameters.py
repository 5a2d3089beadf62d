"""Parameters of the service's model that sluice cannot honour (global tables, resource
policies, KMS encryption) are refused with a ValidationException naming the parameter,
before the table is looked up: never a 200 that silently ignored them. The settings sluice
does honour next to them (SSESpecification Enabled false, the service's default AWS owned
key) are accepted.

All sluice_only: DynamoDB Local accepts these requests (it ignores the parameters), and on
AWS they succeed; the refusal is sluice's honest answer for what it does not do.
"""
import uuid

import pytest

TABLE = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}
NOT_SUPPORTED = "; see README: Not supported"


def refused(r, text):
    assert r.status == 400, r
    assert r.error_type == "ValidationException"
    assert r.message == "sluice does not support " + text + NOT_SUPPORTED


@pytest.mark.sluice_only
@pytest.mark.parametrize("member,value,what", [
    ("ResourcePolicy", '{"Version":"2012-10-17","Statement":[]}', "resource-based policies"),
    ("GlobalTableSourceArn", "arn:aws:dynamodb:us-west-2:000000000000:table/src",
     "global tables"),
    ("GlobalTableSettingsReplicationMode", "ENABLED", "global tables"),
])
def test_create_table_refuses_unsupported_member(raw, member, value, what):
    name = "unsup_" + uuid.uuid4().hex[:10]
    r = raw.call("CreateTable", dict(TABLE, TableName=name, **{member: value}))
    refused(r, "%s (%s)" % (member, what))
    # Nothing was created.
    assert raw.call("DescribeTable", {"TableName": name}).error_type == \
        "ResourceNotFoundException"


@pytest.mark.sluice_only
def test_create_table_refuses_kms_encryption(raw):
    name = "unsup_" + uuid.uuid4().hex[:10]
    r = raw.call("CreateTable", dict(TABLE, TableName=name,
                                     SSESpecification={"Enabled": True, "SSEType": "KMS"}))
    refused(r, "SSESpecification with Enabled true (server-side encryption with a KMS key)")


def test_create_table_accepts_default_encryption(raw):
    name = "unsup_" + uuid.uuid4().hex[:10]
    r = raw.call("CreateTable", dict(TABLE, TableName=name,
                                     SSESpecification={"Enabled": False}))
    assert r.status == 200, r
    raw.call("DeleteTable", {"TableName": name})


@pytest.mark.sluice_only
@pytest.mark.parametrize("member,value", [
    ("ReplicaUpdates", [{"Create": {"RegionName": "us-west-2"}}]),
    ("MultiRegionConsistency", "STRONG"),
    ("GlobalTableWitnessUpdates", [{"Create": {"RegionName": "us-west-2"}}]),
    ("GlobalTableSettingsReplicationMode", "ENABLED"),
])
def test_update_table_refuses_unsupported_member(raw, make_table, member, value):
    r = raw.call("UpdateTable", {"TableName": make_table(), member: value})
    refused(r, "%s (global tables)" % member)


@pytest.mark.sluice_only
def test_update_table_refuses_kms_encryption(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(),
                                 "SSESpecification": {"Enabled": True}})
    refused(r, "SSESpecification with Enabled true (server-side encryption with a KMS key)")


# The refusal is a validation error: it comes before the table lookup.
@pytest.mark.sluice_only
def test_refusal_comes_before_table_lookup(raw):
    r = raw.call("UpdateTable", {"TableName": "missing_" + uuid.uuid4().hex[:10],
                                 "ReplicaUpdates": [{"Create": {"RegionName": "us-west-2"}}]})
    refused(r, "ReplicaUpdates (global tables)")
