"""The JSON 1.0 protocol itself: framing, headers, error envelopes, front-end errors.

Real behaviour: facts §1.1 (AWS developer guide Programming.Errors, botocore parsers) and
dynalite index.js / test helpers, whose front-end checks were copied from live DynamoDB in
this order: JSON body parse, X-Amz-Target, Authorization, then the operation.
"""
import zlib

import pytest


def list_tables(raw, **kw):
    return raw.call("ListTables", {}, **kw)


# --- framing and headers -------------------------------------------------------------------

# Every reply carries a request id, and each request gets its own.
def test_request_id_header(raw):
    a = list_tables(raw)
    b = raw.call("DescribeTable", {"TableName": "t_missing_table_for_wire"})
    ids = [r.headers.get("x-amzn-RequestId") for r in (a, b)]
    assert all(ids), ids
    assert ids[0] != ids[1]


# The x-amz-crc32 header is the CRC32 of the body: botocore retries a mismatch. An error reply
# may omit it, but if present it must be right too.
def test_crc32_header_matches_body(raw):
    r = list_tables(raw)
    assert int(r.headers["x-amz-crc32"]) == zlib.crc32(r.raw)
    e = raw.call("DescribeTable", {"TableName": "t_missing_table_for_wire"})
    if e.headers.get("x-amz-crc32") is not None:
        assert int(e.headers["x-amz-crc32"]) == zlib.crc32(e.raw)


# Replies are JSON 1.0, success or error, and Content-Length frames the body.
def test_content_type_and_length(raw):
    for r in (list_tables(raw), raw.call("DescribeTable", {"TableName": "t_missing_table_for_wire"})):
        assert r.headers["Content-Type"] == "application/x-amz-json-1.0"
        assert int(r.headers["Content-Length"]) == len(r.raw)


# A request sent as application/json is answered as application/json.
# ddblocal_differs: DynamoDB Local always answers application/x-amz-json-1.0.
# Source: dynalite test/listTables.js "should return 200 if no params and application/json".
@pytest.mark.ddblocal_differs
def test_application_json_request_answered_as_application_json(raw):
    r = list_tables(raw, headers={"Content-Type": "application/json"})
    assert r.status == 200
    assert r.headers["Content-Type"] == "application/json"


# Unknown members and null members in the body are ignored.
def test_unknown_and_null_members_ignored(raw):
    assert raw.call("ListTables", {"hi": "yo", "stuff": ["things"]}).status == 200
    assert raw.call("ListTables", {"ExclusiveStartTableName": None, "Limit": None}).status == 200


# --- error envelope ------------------------------------------------------------------------

# Error replies are HTTP 400 with "__type" = "<namespace>#<Name>" and a message.
@pytest.mark.parametrize("op,body,type_", [
    ("DescribeTable", {"TableName": "t_missing_table_for_wire"},
     "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"),
    ("DescribeTable", {"TableName": "a;"}, "com.amazon.coral.validate#ValidationException"),
])
def test_error_envelope(raw, op, body, type_):
    r = raw.call(op, body)
    assert r.status == 400
    assert r.json["__type"] == type_
    assert r.message


# DynamoDB's own exceptions and validation errors spell the key "message" in lower case
# (botocore reads either; other clients do not).
# ddblocal_differs: DynamoDB Local writes "Message".
# Source: AWS developer guide Programming.Errors example; BOTO error shapes (facts §1.1);
# dynalite test/helpers.js assertNotFound/assertValidation compare the exact body.
@pytest.mark.ddblocal_differs
def test_error_message_key_is_lower_case(raw):
    r = raw.call("DescribeTable", {"TableName": "t_missing_table_for_wire"})
    assert set(r.json) == {"__type", "message"}
    r = raw.call("DescribeTable", {"TableName": "a;"})
    assert set(r.json) == {"__type", "message"}


# boto3 maps the reply to the modelled exception class.
def test_boto3_maps_error_class(ddb):
    with pytest.raises(ddb.exceptions.ResourceNotFoundException) as e:
        ddb.describe_table(TableName="t_missing_table_for_wire")
    assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert e.value.response["Error"]["Message"]


# --- front-end errors ----------------------------------------------------------------------

# A body that is not JSON is a SerializationException without a message.
# ddblocal_differs: DynamoDB Local answers HTTP 500 InternalFailure.
# Source: dynalite index.js (live envelope); facts §1.1.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("data", ["{not json", "[1,", '{"a":'])
def test_invalid_json_is_serialization_exception(raw, data):
    r = raw.call("ListTables", raw=data)
    assert r.status == 400
    assert r.json == {"__type": "com.amazon.coral.service#SerializationException"}


# An empty body is a SerializationException too.
# ddblocal_differs: DynamoDB Local answers HTTP 500 InternalFailure. Source: dynalite index.js.
@pytest.mark.ddblocal_differs
def test_empty_body_is_serialization_exception(raw):
    r = raw.call("ListTables", raw="")
    assert r.status == 400
    assert r.error_type == "SerializationException"


# Serialization errors of members carry "Message" with a capital M.
# ddblocal_differs: DynamoDB Local does no type checking.
# Source: dynalite test/helpers.js assertSerialization (exact live body).
@pytest.mark.ddblocal_differs
def test_serialization_error_body(raw):
    r = raw.call("DescribeTable", {"TableName": 23})
    assert r.json == {"__type": "com.amazon.coral.service#SerializationException",
                      "Message": "NUMBER_VALUE cannot be converted to String"}


# An operation DynamoDB does not have is UnknownOperationException.
def test_unknown_operation(raw):
    r = raw.call("Bogus", {}, target="DynamoDB_20120810.Bogus")
    assert r.status == 400
    assert r.error_type == "UnknownOperationException"


# An operation DynamoDB has and sluice does not serve is named in the message, so that a user
# sees what is missing (the README lists them); a target DynamoDB does not know keeps the
# service's envelope, without a message.
@pytest.mark.sluice_only
def test_unsupported_operation_is_named(raw):
    r = raw.call("DescribeGlobalTable", {"GlobalTableName": "global"})
    assert r.status == 400
    assert r.json == {"__type": "com.amazon.coral.service#UnknownOperationException",
                      "message": "sluice does not support the DescribeGlobalTable operation "
                                 "(see README: Not supported)"}
    r = raw.call("Bogus", {}, target="DynamoDB_20120810.Bogus")
    assert r.json == {"__type": "com.amazon.coral.service#UnknownOperationException"}
    # So is one of Application Auto Scaling's, on the same listener.
    r = raw.call("GetPredictiveScalingForecast", {}, target="AnyScaleFrontendService.GetPredictiveScalingForecast")
    assert r.status == 400
    assert r.json == {"__type": "com.amazon.coral.service#UnknownOperationException",
                      "message": "sluice does not support the GetPredictiveScalingForecast "
                                 "operation (see README: Not supported)"}
    r = raw.call("Bogus", {}, target="AnyScaleFrontendService.Bogus")
    assert r.json == {"__type": "com.amazon.coral.service#UnknownOperationException"}


# GET / is the service's health check, naming the host the client used (issue 11's record
# of the service; not checked against DynamoDB Local, hence sluice_only).
@pytest.mark.sluice_only
def test_health_check_names_the_host(endpoint):
    import urllib.request
    with urllib.request.urlopen(endpoint + "/", timeout=10) as r:
        assert r.status == 200
        assert r.read().decode() == "healthy: " + endpoint.split("//", 1)[1] + " "


# A method other than POST (and GET /, the health check) has no operation: 404 with the body
# "<UnknownOperationException/>\n", a request id and the body's CRC, on any path.
# ddblocal_differs: DynamoDB Local answers 400 MissingAuthenticationToken (checked against 3.3.0).
# Source: dynalite test/connection.js "should return 404 if a PUT" / "a DELETE" (recorded
# against the service: 29 bytes, x-amz-crc32 3552371480, a 52-character x-amzn-RequestId).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("method,path", [("PUT", "/"), ("DELETE", "/"), ("GET", "/nope"),
                                         ("PATCH", "/x/y")])
def test_no_operation_is_404(endpoint, method, path):
    no_operation(endpoint, method, path)


def no_operation(endpoint, method, path, data=None, headers=None):
    import urllib.error
    import urllib.request
    req = urllib.request.Request(endpoint + path, method=method, data=data, headers=headers or {})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 404
    assert e.value.read() == b"<UnknownOperationException/>\n"
    assert e.value.headers["x-amz-crc32"] == "3552371480"
    assert len(e.value.headers["x-amzn-RequestId"]) == 52


# So is a POST whose body is not JSON by its Content-Type (none, or another media type); the
# JSON types the SDKs send are served (test_wire_http.py).
# ddblocal_differs: DynamoDB Local answers 400 MissingAuthenticationToken.
# Source: dynalite test/connection.js "should return 404 if body but no content-type" and
# "if body but incorrect content-type" (recorded against the service).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("content_type", [None, "whatever", "text/plain"])
def test_post_without_json_media_type_is_404(endpoint, content_type):
    hdrs = {"X-Amz-Target": "DynamoDB_20120810.ListTables",
            "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                             "aws4_request, SignedHeaders=host, Signature=0"}
    if content_type:
        hdrs["Content-Type"] = content_type
    else:
        hdrs["Content-Type"] = ""  # urllib would send application/x-www-form-urlencoded
    no_operation(endpoint, "POST", "/", data=b"hi", headers=hdrs)


# The front end, not DynamoDB, answers it, and so does any malformed target.
# ddblocal_differs: DynamoDB Local uses the com.amazonaws.dynamodb.v20120810 namespace and
# answers HTTP 500 InternalFailure for targets without the DynamoDB_20120810 prefix.
# Source: dynalite index.js (live envelope, no message).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("target", ["DynamoDB_20120810.Bogus", "Bogus.ListTables", "ListTables",
                                    "DynamoDB_20120810.", ""])
def test_unknown_operation_envelope(raw, target):
    r = raw.call("ListTables", {}, target=target)
    assert r.status == 400
    assert r.json["__type"] == "com.amazon.coral.service#UnknownOperationException"


# A request without an Authorization header is rejected and not executed.
def test_missing_authorization_rejected(raw):
    r = raw.call("ListTables", {}, sign=False)
    assert r.status == 400
    assert "TableNames" not in (r.json or {})


# ddblocal_differs: DynamoDB Local answers "...#MissingAuthenticationToken" with "Request must
# contain either a valid (registered) AWS access key ID or X.509 certificate.".
# Source: dynalite index.js (live text); facts §1.1.
@pytest.mark.ddblocal_differs
def test_missing_authorization_envelope(raw):
    r = raw.call("ListTables", {}, sign=False)
    assert r.json["__type"] == "com.amazon.coral.service#MissingAuthenticationTokenException"
    assert r.message == "Request is missing Authentication Token"


# The body is parsed, and the target checked, before authentication.
# ddblocal_differs: DynamoDB Local checks authentication first.
# Source: dynalite index.js (order of the front-end checks, copied from live).
@pytest.mark.ddblocal_differs
def test_front_end_check_order(raw):
    r = raw.call("ListTables", raw="{not json", sign=False)
    assert r.error_type == "SerializationException"
    r = raw.call("ListTables", {}, target="DynamoDB_20120810.Bogus", sign=False)
    assert r.error_type == "UnknownOperationException"
