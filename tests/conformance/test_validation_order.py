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
