"""The service validates a request whole — parameter combinations, expression syntax,
placeholders — before it looks its table up: a malformed request to a table that does not
exist is a ValidationException, not ResourceNotFoundException (issue 11). One test per kind
of malformed request, each sent to a missing table; the exact texts are pinned by the tests
of each operation.

ddblocal_differs (whole file): DynamoDB Local looks the table up first and answers
ResourceNotFoundException for every case here (measured with its 2026-05-28 release); the
order of the service is issue 11's record of it, which the operations' own tests (GetItem,
PutItem, the batches: values and expressions before the table) already followed.
"""
import pytest

from conftest import N, S, new_key

pytestmark = pytest.mark.ddblocal_differs

MISSING = "no_such_table_" + new_key()[2:10]


def error_type(raw, op, body):
    if op == "BatchGetItem":
        r = raw.call(op, {"RequestItems": {MISSING: body}})
    else:
        r = raw.call(op, dict(TableName=MISSING, **body))
    assert r.status == 400, r
    return r.error_type


# Each malformed request, the operation it is sent to, and its members.
CASES = [
    ("Scan", {"FilterExpression": "a ="}),
    ("Scan", {"ProjectionExpression": "#nope"}),
    ("Scan", {"FilterExpression": "a = :v"}),
    ("Scan", {"FilterExpression": "a = :v", "ExpressionAttributeValues": {":v": N(1), ":w": N(2)}}),
    ("Scan", {"Segment": 1}),
    ("Scan", {"Segment": 2, "TotalSegments": 2}),
    ("Scan", {"Select": "SPECIFIC_ATTRIBUTES"}),
    ("Scan", {"FilterExpression": "a = :v", "ScanFilter": {}, "ExpressionAttributeValues": {":v": N(1)}}),
    ("Query", {}),
    ("Query", {"KeyConditionExpression": "pk = :p", "FilterExpression": "a =",
               "ExpressionAttributeValues": {":p": S("x")}}),
    ("Query", {"KeyConditionExpression": "pk = :p", "Select": "COUNT", "ProjectionExpression": "a",
               "ExpressionAttributeValues": {":p": S("x")}}),
    ("Query", {"KeyConditionExpression": "pk = :p", "Select": "ALL_PROJECTED_ATTRIBUTES",
               "ExpressionAttributeValues": {":p": S("x")}}),
    ("GetItem", {"Key": {"pk": S("k")}, "ProjectionExpression": "a,"}),
    ("BatchGetItem", {"Keys": [{"pk": S("k")}], "ProjectionExpression": "a,,b"}),
    ("BatchGetItem", {"Keys": [{"pk": S("k")}], "ProjectionExpression": "#nope"}),
    ("PutItem", {"Item": {"pk": S("k")}, "ConditionExpression": "attribute_exists("}),
    ("DeleteItem", {"Key": {"pk": S("k")}, "ConditionExpression": "a = :v"}),
    ("UpdateItem", {"Key": {"pk": S("k")}, "UpdateExpression": "SET"}),
]


@pytest.mark.parametrize("op,body", CASES, ids=[f"{op}-{i}" for i, (op, _) in enumerate(CASES)])
def test_malformed_request_to_missing_table_is_validation(raw, op, body):
    assert error_type(raw, op, body) == "ValidationException"


# And a well-formed one is ResourceNotFoundException.
@pytest.mark.parametrize("op,body", [
    ("Scan", {"FilterExpression": "a = :v", "ExpressionAttributeValues": {":v": N(1)}}),
    ("Query", {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("x")}}),
    ("BatchGetItem", {"Keys": [{"pk": S("k")}], "ProjectionExpression": "a, b"}),
])
def test_well_formed_request_to_missing_table(raw, op, body):
    assert error_type(raw, op, body) == "ResourceNotFoundException"


# --- control plane -------------------------------------------------------------------------
# The same order in the control-plane operations: each request below is malformed on its own,
# whatever the table, and is sent to a table that does not exist. The texts are the
# service's as the ack-api-quirks catalogue recorded them (DDB-TABLE-442, 2026-10, live
# us-east-1/us-west-2): UpdateTable's rules, RecoveryPeriodInDays when disabling PITR, the
# two restore sources, ListBackups' time range; the catalogue also notes that the model
# constraints fire "BEFORE existence checks".
PT = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
GSI_KEY = [{"AttributeName": "g", "KeyType": "HASH"}]
CONTROL_CASES = [
    ("UpdateTable", {}, "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
     "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, "
     "ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
     "OnDemandThroughput, WarmThroughput or TableClass is required"),
    ("UpdateTable", {"AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}]},
     "At least one of "),
    ("UpdateTable", {"BillingMode": "PAY_PER_REQUEST", "ProvisionedThroughput": PT},
     "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
     "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"),
    ("UpdateTable", {"ProvisionedThroughput": {"ReadCapacityUnits": 10**13, "WriteCapacityUnits": 1}},
     "Given value 10000000000000 for ReadCapacityUnits is out of bounds"),
    ("UpdateTable", {"StreamSpecification": {"StreamEnabled": True}},
     "One or more parameter values were invalid: If stream is being enabled then UpdateViewType "
     "is required"),
    ("UpdateTable", {"StreamSpecification": {"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"}},
     "One or more parameter values were invalid: If stream is being disabled, then UpdateViewType "
     "must not be specified"),
    ("UpdateTable", {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                     "ProvisionedThroughput": PT},
     "One or more parameter values were invalid: You cannot modify stream status while updating "
     "table IOPS"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [{}]},
     "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
     "GlobalSecondaryIndexUpdate.Delete must not be null"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi"},
                                                      "Update": {"IndexName": "gsi",
                                                                 "ProvisionedThroughput": PT}}]},
     "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi", "ProvisionedThroughput": PT}},
        {"Update": {"IndexName": "gsi", "ProvisionedThroughput": PT}}]},
     "One or more parameter values were invalid: Only one global secondary index update per "
     "index is allowed simultaneously. Index: gsi"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi"}}],
                     "ProvisionedThroughput": PT},
     "One or more parameter values were invalid: You cannot create or delete index while "
     "updating table IOPS"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [], "BillingMode": "PAY_PER_REQUEST"},
     "One or more parameter values were invalid: List of GlobalSecondaryIndexUpdates is empty"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [{"Create": {
        "IndexName": "gsi", "KeySchema": GSI_KEY, "Projection": {"ProjectionType": "ALL"}}}]},
     "One or more parameter values were invalid: AttributeDefinitions is not specified for "
     "index: gsi"),
    ("UpdateContinuousBackups", {"PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": False, "RecoveryPeriodInDays": 10}},
     "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time "
     "recovery."),
]


@pytest.mark.parametrize("op,body,message", CONTROL_CASES,
                         ids=[f"{op}-{i}" for i, (op, _, _) in enumerate(CONTROL_CASES)])
def test_malformed_control_request_to_missing_table_is_validation(raw, op, body, message):
    r = raw.call(op, dict(TableName=MISSING, **body))
    assert r.status == 400, r
    assert r.error_type == "ValidationException", r
    assert r.message.startswith(message), r


# RestoreTableToPointInTime names its source exactly once and its time at most once, and
# ListBackups' range must not be inverted: checked before the source table is looked up.
@pytest.mark.parametrize("op,body,message", [
    ("RestoreTableToPointInTime", {"TargetTableName": "target_tbl"},
     "Must provide exactly one of: sourceTableArn, sourceTableName"),
    ("RestoreTableToPointInTime", {"TargetTableName": "target_tbl", "SourceTableName": MISSING,
                                   "SourceTableArn": "arn:aws:dynamodb:us-east-1:000000000000:"
                                                     "table/" + MISSING},
     "Must provide exactly one of: sourceTableArn, sourceTableName"),
    ("RestoreTableToPointInTime", {"TargetTableName": "target_tbl", "SourceTableName": MISSING,
                                   "RestoreDateTime": 1700000000,
                                   "UseLatestRestorableTime": True},
     "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be "
     "specified, but not both"),
    ("ListBackups", {"TableName": MISSING, "TimeRangeLowerBound": 1700000100,
                     "TimeRangeUpperBound": 1700000000},
     "One or more parameter values were invalid: Time range lower bound must be less than or "
     "equal to upper bound"),
    ("ListContributorInsights", {"TableName": MISSING, "NextToken": "garbage"},
     "Invalid NextToken"),
])
def test_restore_and_list_rules_before_lookup(raw, op, body, message):
    r = raw.call(op, body)
    assert r.status == 400, r
    assert r.error_type == "ValidationException", r
    assert r.message == message, r


# A well-formed control-plane request to a missing table is the not-found error.
@pytest.mark.parametrize("op,body,error", [
    ("UpdateTable", {"BillingMode": "PAY_PER_REQUEST"}, "ResourceNotFoundException"),
    ("UpdateTable", {"GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi"}}]},
     "ResourceNotFoundException"),
    ("UpdateContinuousBackups", {"PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": False}}, "TableNotFoundException"),
    ("DeleteTable", {}, "ResourceNotFoundException"),
    ("DescribeTimeToLive", {}, "ResourceNotFoundException"),
])
def test_well_formed_control_request_to_missing_table(raw, op, body, error):
    r = raw.call(op, dict(TableName=MISSING, **body))
    assert r.status == 400, r
    assert r.error_type == error, r
