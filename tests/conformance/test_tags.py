"""TagResource, UntagResource, ListTagsOfResource on table ARNs.

ddblocal_differs (whole file): DynamoDB Local implements no tagging; every call answers
UnknownOperationException "Tagging is not currently supported in DynamoDB Local."
Sources: AWS API model (facts: BOTO), dynalite test/tagResource.js and validations (live
texts), ACKQ DDB-TABLE-104/-110/-440/-442 (live texts, 2026-10).

On AWS tag writes apply asynchronously (ListTagsOfResource lags 1.3-3 s) and hold a ~1.5 s
per-table write lock, so the tests wait for the expected tag set before the next write.
"""
import time
import uuid

import pytest

pytestmark = pytest.mark.ddblocal_differs


def arn_of(raw, name):
    return raw.call("DescribeTable", {"TableName": name}).json["Table"]["TableArn"]


def tags_of(raw, arn):
    r = raw.call("ListTagsOfResource", {"ResourceArn": arn})
    assert r.status == 200, r
    return {t["Key"]: t["Value"] for t in r.json.get("Tags", [])}


def wait_tags(raw, arn, expected, timeout=30):
    """Polls until the table's tags are exactly expected (tags are eventually consistent)."""
    t0 = time.time()
    while True:
        got = tags_of(raw, arn)
        if got == expected or time.time() - t0 > timeout:
            return got
        time.sleep(0.2)


def tag_list(d):
    return [{"Key": k, "Value": v} for k, v in d.items()]


@pytest.fixture
def arn(raw, make_table):
    return arn_of(raw, make_table())


# --- serialization -------------------------------------------------------------------------

# Tags must be a list of structures. Source: dynalite test/helpers.js assertType (live texts).
def test_tags_of_wrong_json_type_is_serialization_exception(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": "a"})
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "Unexpected field type"


# --- validation ----------------------------------------------------------------------------

# At least one tag must be given. Source: dynalite validations/tagResource.js; ACKQ DDB-TABLE-110.
def test_empty_tags_rejected(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": []})
    assert r.error_type == "ValidationException"
    assert r.message == "Atleast one Tag needs to be provided as Input."


# At least one key must be given to UntagResource. Source: ACKQ DDB-TABLE-442 (live).
def test_empty_tag_keys_rejected(raw, arn):
    r = raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": []})
    assert r.error_type == "ValidationException"
    assert r.message == "Atleast one Tag Key needs to be provided as Input."


# A resource carries at most 50 tags; 51 in one call fail as a whole.
# Source: ACKQ DDB-TABLE-110/-442 (ValidationException, not LimitExceededException).
def test_too_many_tags_rejected(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn,
                                 "Tags": tag_list({f"k{i}": "v" for i in range(51)})})
    assert r.error_type == "ValidationException"
    assert r.message == "Number of Tags exceed the current limit for the provided ResourceArn"
    assert tags_of(raw, arn) == {}


# Not enforced: the service also words a total-size rule, "Tag set size <N> bytes is above max
# size limit of <N> bytes" (TagResource; ACKQ DDB-TABLE-442 catalogue), but no source found
# gives the limit or how the size is counted (the documentation names only the 50 tags, 128 and
# 256 characters), so sluice does not guess one.


# A table still being created cannot be tagged: ResourceInUseException with the UpdateTable
# text. Source: ACKQ DDB-TABLE-444 catalogue ("Table is being created: <TBL>", TagResource among
# its operations). Sluice-only: the creation delay is configured.
@pytest.mark.sluice_only
def test_tag_table_being_created(tmp_path):
    import os
    from conftest import Client, Server, _is_sluice_cached
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    conf = tmp_path / "slow.conf"
    conf.write_text("table_create_delay_ms = 5000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(conf)])
    try:
        c = Client(srv.endpoint)
        name = "t_" + uuid.uuid4().hex[:12]
        arn = c.create_table(name)["TableArn"]
        status, reply = c.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "k", "Value": "v"}]})
        assert status == 400, reply
        assert reply["__type"].endswith("ResourceInUseException"), reply
        assert reply["message"] == ("Attempt to change a resource which is still in use: Table is "
                                    f"being created: {name}")
        c.advance(5000)
        status, reply = c.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "k", "Value": "v"}]})
        assert status == 200, reply
    finally:
        srv.stop()


# The aws: prefix is reserved. Source: ACKQ DDB-TABLE-110 (live text).
def test_aws_prefix_rejected(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "aws:foo", "Value": "x"}]})
    assert r.error_type == "ValidationException"
    assert r.message == "Tag Key cannot be prefixed with aws:, Key: aws:foo"


# Keys are at most 128 characters and values 256. Source: ACKQ DDB-TABLE-110/-442 (live texts).
def test_tag_key_and_value_length_limits(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "k" * 129, "Value": "x"}]})
    assert r.error_type == "ValidationException"
    assert r.message == "The Tag Key provided is invalid, Key: " + "k" * 129
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "k", "Value": "v" * 257}]})
    assert r.error_type == "ValidationException"
    assert r.message == "The Tag Value provided is invalid, Value: " + "v" * 257


# A string that is not an ARN is a validation error, not "not found".
# Keys and values hold Unicode letters, digits, spaces and _ . : / = + - @ only; '#' in a
# key is refused (ACKQ DDB-TABLE-110, live; the pattern is the tagging API's
# ^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$). Lengths count characters, not bytes.
@pytest.mark.parametrize("key,value,message", [
    ("a#b", "x", "The Tag Key provided is invalid, Key: a#b"),
    ("->>;-)", "ok", "The Tag Key provided is invalid, Key: ->>;-)"),
    ("ok", "#!%^&", "The Tag Value provided is invalid, Value: #!%^&"),
    ("tab\tkey", "x", "The Tag Key provided is invalid, Key: tab\tkey"),
])
def test_tag_characters_rejected(raw, arn, key, value, message):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": key, "Value": value}]})
    assert (r.error_type, r.message) == ("ValidationException", message)
    assert tags_of(raw, arn) == {}


def test_tag_allowed_characters_accepted(raw, arn):
    tags = {"Env name_1.2:x/y=z+w-v@q": "a b_c.d:e/f=g+h-i@j", "ключ": "значение" * 30,
            " ": ""}
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": tag_list(tags)})
    assert r.status == 200, r
    assert wait_tags(raw, arn, tags) == tags


# A key given twice in one request is refused and nothing is applied.
# Source: ACKQ evidence table/tags/validation-upsert-limits (live text, 2026-10).
def test_duplicate_keys_in_one_request_rejected(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": [
        {"Key": "ok", "Value": "1"}, {"Key": "dup", "Value": "1"}, {"Key": "dup", "Value": "2"}]})
    assert (r.error_type, r.message) == (
        "ValidationException", "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup")
    assert tags_of(raw, arn) == {}


# UntagResource checks its keys the same way, and at most 50 of them.
# Source: ACKQ evidence table/tags/validation-upsert-limits (live: a 129-character key, 51
# keys); '#' by the TagResource rule.
def test_untag_key_rules(raw, arn):
    r = raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": ["k" * 129]})
    assert (r.error_type, r.message) == (
        "ValidationException", "The Tag Key provided is invalid, Key: " + "k" * 129)
    r = raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": ["a#b"]})
    assert (r.error_type, r.message) == (
        "ValidationException", "The Tag Key provided is invalid, Key: a#b")
    r = raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": [f"k{i}" for i in range(51)]})
    assert (r.error_type, r.message) == (
        "ValidationException", "Number of Tags exceed the current limit for the provided ResourceArn")


# The tag rules are checked before the table is looked up.
def test_tag_rules_before_table_lookup(raw):
    missing = "arn:aws:dynamodb:us-east-1:000000000000:table/missing_" + uuid.uuid4().hex[:8]
    r = raw.call("TagResource", {"ResourceArn": missing, "Tags": [{"Key": "a#b", "Value": "x"}]})
    assert r.message == "The Tag Key provided is invalid, Key: a#b"
    r = raw.call("UntagResource", {"ResourceArn": missing, "TagKeys": ["a#b"]})
    assert r.message == "The Tag Key provided is invalid, Key: a#b"


@pytest.mark.parametrize("op,body", [("TagResource", {"Tags": [{"Key": "a", "Value": "b"}]}),
                                     ("UntagResource", {"TagKeys": ["a"]}),
                                     ("ListTagsOfResource", {})])
def test_malformed_arn_rejected(raw, op, body):
    r = raw.call(op, {"ResourceArn": "not-an-arn", **body})
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values were invalid: ARNs must start with "
                         "'arn:': not-an-arn")


# Which ARNs can be tagged: only tables (and, on AWS, streams). An index ARN, a backup ARN,
# another region's ARN are ValidationExceptions; another service's or account's ARN is
# AccessDeniedException. All are decided from the ARN alone, before any table lookup, so a
# missing table does not change the answer. Texts: ACKQ DDB-TABLE-442 and DDB-BACKUP-013
# (live, 2026-10); the error classes: ExtendDB pull request 227 (verified against DynamoDB).
ARN_CASES = [
    ("/index/gsi", "ValidationException",
     "One or more parameter values were invalid: Invalid resource arn provided, only table or "
     "stream is accepted. Provided resource arn: {arn}"),
    ("/backup/01700000000000-0a1b2c3d", "ValidationException",
     "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: "
     "{arn}"),
]


@pytest.mark.parametrize("op,body", [("TagResource", {"Tags": [{"Key": "a", "Value": "b"}]}),
                                     ("UntagResource", {"TagKeys": ["a"]}),
                                     ("ListTagsOfResource", {})])
@pytest.mark.parametrize("suffix,error,message", ARN_CASES, ids=["index", "backup"])
def test_untaggable_arns(raw, arn, op, body, suffix, error, message):
    for table_arn in (arn, arn + "_missing"):
        bad = table_arn + suffix
        r = raw.call(op, {"ResourceArn": bad, **body})
        assert r.status == 400, r
        assert r.error_type == error, r
        assert r.message == message.format(arn=bad), r


@pytest.mark.parametrize("bad,error", [
    ("arn:aws:dynamodb:eu-west-3:000000000000:table/t_other_region", "ValidationException"),
    ("arn:aws:dynamodb:us-east-1:111122223333:table/t_other_account", "AccessDeniedException"),
    ("arn:aws:s3:::some-bucket", "AccessDeniedException"),
])
def test_foreign_arns(raw, bad, error):
    r = raw.call("ListTagsOfResource", {"ResourceArn": bad})
    assert r.status == 400, r
    assert r.error_type == error, r
    if error == "ValidationException":
        assert r.message == f"Invalid TableArn: Invalid ResourceArn provided as input {bad}"


# The ARN of a table that does not exist is ResourceNotFoundException naming the ARN.
# Sources disagree on one word: dynalite test/tagResource.js recorded "...: ResourcArn: <arn>
# not found" (sic), ACKQ DDB-TABLE-104 quotes "...: ResourceArn: ... not found"; both ends
# are checked.
@pytest.mark.parametrize("op,body", [("TagResource", {"Tags": [{"Key": "a", "Value": "b"}]}),
                                     ("UntagResource", {"TagKeys": ["a"]}),
                                     ("ListTagsOfResource", {})])
def test_unknown_table_arn_is_resource_not_found(raw, arn, op, body):
    missing = arn.rsplit("/", 1)[0] + "/t_" + uuid.uuid4().hex
    r = raw.call(op, {"ResourceArn": missing, **body})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"
    assert r.message.startswith("Requested resource not found: Resourc")
    assert r.message.endswith(f"Arn: {missing} not found")


# --- behaviour -----------------------------------------------------------------------------

# A new table has no tags.
def test_new_table_has_no_tags(raw, arn):
    assert tags_of(raw, arn) == {}


# Tags added are listed; tagging an existing key replaces its value; untagging removes keys
# (absent keys are ignored).
def test_tag_untag_list(raw, arn):
    r = raw.call("TagResource", {"ResourceArn": arn, "Tags": tag_list({"a": "1", "b": "", "c": "3"})})
    assert r.status == 200, r
    assert r.json in ({}, None)
    assert wait_tags(raw, arn, {"a": "1", "b": "", "c": "3"}) == {"a": "1", "b": "", "c": "3"}
    assert raw.call("TagResource", {"ResourceArn": arn, "Tags": tag_list({"a": "9"})}).status == 200
    assert wait_tags(raw, arn, {"a": "9", "b": "", "c": "3"}) == {"a": "9", "b": "", "c": "3"}
    r = raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": ["b", "nope"]})
    assert r.status == 200, r
    assert wait_tags(raw, arn, {"a": "9", "c": "3"}) == {"a": "9", "c": "3"}


# Up to 50 tags fit on one table.
def test_fifty_tags_allowed(raw, arn):
    tags = {f"k{i:02}": str(i) for i in range(50)}
    assert raw.call("TagResource", {"ResourceArn": arn, "Tags": tag_list(tags)}).status == 200
    assert wait_tags(raw, arn, tags) == tags


# The boto3 calls work end to end (the shapes clients parse).
def test_boto3_round_trip(ddb, raw, arn):
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "team", "Value": "storage"}])
    assert wait_tags(raw, arn, {"team": "storage"}) == {"team": "storage"}
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "team", "Value": "storage"}]
    ddb.untag_resource(ResourceArn=arn, TagKeys=["team"])
    assert wait_tags(raw, arn, {}) == {}


# ListTagsOfResource answers in one page: the model has NextToken, but the service team says
# the API does not paginate, a resource holding at most 50 tags (aws/aws-sdk issue 583,
# 2024-07-31). All 50 come back, with no NextToken.
def test_list_tags_is_one_page(raw, arn):
    tags = {f"k{i:02d}": f"v{i}" for i in range(50)}
    assert raw.call("TagResource", {"ResourceArn": arn, "Tags": tag_list(tags)}).status == 200
    assert wait_tags(raw, arn, tags) == tags
    r = raw.call("ListTagsOfResource", {"ResourceArn": arn})
    assert r.status == 200, r
    assert len(r.json["Tags"]) == 50
    assert "NextToken" not in r.json


# --- streams -------------------------------------------------------------------------------

@pytest.fixture
def stream_arns(raw, make_table):
    """(table ARN, stream ARN) of a new table with a stream."""
    name = make_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    t = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    return t["TableArn"], t["LatestStreamArn"]


# A stream is tagged on its own ARN, and its tags are its own: it does not inherit its table's,
# and tagging it leaves the table's alone.
# Source: developer guide, "Using attribute-based access control with DynamoDB Streams"
# ("Stream resources do not inherit tags from their parent table, and you can manage tags on
# streams independently. You can add up to 50 tags for each DynamoDB stream.") and its
# streams-abac examples (aws dynamodb tag-resource --resource-arn $STREAM_ARN).
def test_stream_has_tags_of_its_own(raw, ddb, stream_arns):
    table, stream = stream_arns
    assert raw.call("TagResource", {"ResourceArn": table,
                                    "Tags": tag_list({"owner": "table"})}).status == 200
    assert wait_tags(raw, table, {"owner": "table"}) == {"owner": "table"}
    assert tags_of(raw, stream) == {}
    r = raw.call("TagResource", {"ResourceArn": stream, "Tags": tag_list({"Team": "Analytics",
                                                                         "env": "dev"})})
    assert r.status == 200, r
    assert wait_tags(raw, stream, {"Team": "Analytics", "env": "dev"}) == {"Team": "Analytics",
                                                                        "env": "dev"}
    assert tags_of(raw, table) == {"owner": "table"}
    ddb.tag_resource(ResourceArn=stream, Tags=[{"Key": "env", "Value": "prod"}])
    assert wait_tags(raw, stream, {"Team": "Analytics", "env": "prod"}) == {"Team": "Analytics",
                                                                         "env": "prod"}
    ddb.untag_resource(ResourceArn=stream, TagKeys=["Team", "nope"])
    assert wait_tags(raw, stream, {"env": "prod"}) == {"env": "prod"}
    assert ddb.list_tags_of_resource(ResourceArn=stream)["Tags"] == [{"Key": "env",
                                                                     "Value": "prod"}]
    assert tags_of(raw, table) == {"owner": "table"}


# The 50-tag limit holds per stream (same source).
def test_stream_tag_limit(raw, stream_arns):
    _, stream = stream_arns
    tags = {f"k{i:02}": str(i) for i in range(50)}
    assert raw.call("TagResource", {"ResourceArn": stream, "Tags": tag_list(tags)}).status == 200
    assert wait_tags(raw, stream, tags) == tags
    r = raw.call("TagResource", {"ResourceArn": stream, "Tags": tag_list({"one": "more"})})
    assert (r.status, r.error_type) == (400, "ValidationException"), r
    assert r.message == "Number of Tags exceed the current limit for the provided ResourceArn"
    assert tags_of(raw, stream) == tags


# A stream ARN that names no stream (a label the table never had, or a table without one) is
# ResourceNotFoundException naming the ARN, as for tables (the table's text, inferred for
# streams: no capture).
@pytest.mark.parametrize("op,body", [("TagResource", {"Tags": [{"Key": "a", "Value": "b"}]}),
                                     ("UntagResource", {"TagKeys": ["a"]}),
                                     ("ListTagsOfResource", {})])
def test_unknown_stream_arn_is_resource_not_found(raw, stream_arns, arn, op, body):
    table, stream = stream_arns
    for missing in (table + "/stream/2020-01-01T00:00:00.000", arn + "/stream/" +
                    stream.rsplit("/", 1)[1]):
        r = raw.call(op, {"ResourceArn": missing, **body})
        assert (r.status, r.error_type) == (400, "ResourceNotFoundException"), r
        assert r.message.endswith(f"Arn: {missing} not found")


# A stream's tags are durable with --data-dir, like its records (streams/streams.h, key 'T').
@pytest.mark.sluice_only
def test_stream_tags_survive_a_restart(tmp_path):
    from conftest import Raw, Server
    data = tmp_path / "data"
    data.mkdir()
    srv = Server(["--data-dir", str(data)])
    try:
        raw = Raw(srv.endpoint)
        assert raw.call("CreateTable", {
            "TableName": "tagged", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}}).status == 200
        stream = raw.call("DescribeTable", {"TableName": "tagged"}).json["Table"]["LatestStreamArn"]
        assert raw.call("TagResource", {"ResourceArn": stream,
                                        "Tags": tag_list({"team": "streams"})}).status == 200
    finally:
        srv.stop()
    srv = Server(["--data-dir", str(data)])
    try:
        assert tags_of(Raw(srv.endpoint), stream) == {"team": "streams"}
    finally:
        srv.stop()
