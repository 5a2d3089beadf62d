"""CreateTable: serialization, validation, behaviour.

Real-service texts come from the sources named at each test: dynalite's test suite
(mhart/dynalite test/createTable.js, recorded against live DynamoDB) and the ack-api-quirks
live-probe catalogue of 2026-10 (ACKQ, entries DDB-TABLE-0xx; see spec/dynamodb-facts.md).
"""
import re
import time
import uuid

import pytest

from conftest import REGION, wait_active

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
ARN_RE = re.compile(r"^arn:aws:dynamodb:([a-z0-9-]+):(\d{12}):table/(.+)$")


def body(**kw):
    """A valid on-demand CreateTable request for a fresh name, with kw replacing members
    (a member set to None is removed)."""
    b = {"TableName": "t_" + uuid.uuid4().hex[:12],
         "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
         "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
         "BillingMode": "PAY_PER_REQUEST"}
    b.update(kw)
    return {k: v for k, v in b.items() if v is not None}


def hash_(name):
    return {"AttributeName": name, "KeyType": "HASH"}


def range_(name):
    return {"AttributeName": name, "KeyType": "RANGE"}


def attr(name, t="S"):
    return {"AttributeName": name, "AttributeType": t}


@pytest.fixture
def created(ddb):
    """Names of tables a test creates through raw calls; deleted afterwards."""
    names = []
    yield names
    for n in names:
        try:
            ddb.delete_table(TableName=n)
        except Exception:
            pass


# --- serialization -------------------------------------------------------------------------

# A member of the wrong JSON type is rejected before any validation, with the Coral
# deserializer's text (and capital-M "Message").
# ddblocal_differs: DynamoDB Local type-checks nothing (it answers ValidationException here).
# Source: dynalite test/helpers.js assertType, String case.
@pytest.mark.ddblocal_differs
def test_table_name_of_wrong_json_type_is_serialization_exception(raw):
    r = raw.call("CreateTable", body(TableName=23))
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "NUMBER_VALUE cannot be converted to String"


# --- validation ----------------------------------------------------------------------------

# Each case: request members that make the request invalid, and the real service's message.
INVALID = [
    # The 2026 captures of the live service (nubo-db/dynamodb-conformance, ack-api-quirks)
    # show the model's generic texts here; dynalite's older custom text ("TableName must be
    # at least 3 characters long and at most 255 characters long") is no longer sent.
    ("name_too_short", dict(TableName="ab"),
     "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
     "Member must have length greater than or equal to 3"),
    ("name_too_long", dict(TableName="a" * 256),
     "1 validation error detected: Value '" + "a" * 256 + "' at 'tableName' failed to satisfy "
     "constraint: Member must have length less than or equal to 255"),
    ("name_bad_character", dict(TableName="abc;"),
     "1 validation error detected: Value 'abc;' at 'tableName' failed to satisfy constraint: "
     "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"),
    ("name_missing", dict(TableName=None),
     "The parameter 'TableName' is required but was not present in the request"),
    ("key_schema_missing", dict(KeySchema=None),
     "1 validation error detected: Value null at 'keySchema' failed to satisfy constraint: "
     "Member must not be null"),
    ("key_schema_empty", dict(KeySchema=[]),
     "1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: "
     "Member must have length greater than or equal to 1"),
    ("attribute_definitions_missing", dict(AttributeDefinitions=None),
     "1 validation error detected: Value null at 'attributeDefinitions' failed to satisfy "
     "constraint: Member must not be null"),
    ("hash_key_not_defined", dict(AttributeDefinitions=[attr("other")]),
     "One or more parameter values were invalid: Some index key attributes are not defined in "
     "AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]"),
    ("range_key_not_defined", dict(KeySchema=[hash_("pk"), range_("sk")]),
     "Invalid KeySchema: Some index key attribute have no definition"),
    ("unused_attribute_definition", dict(AttributeDefinitions=[attr("pk"), attr("extra")]),
     "One or more parameter values were invalid: Number of attributes in KeySchema does not "
     "exactly match number of attributes defined in AttributeDefinitions"),
    ("duplicate_attribute_definition", dict(AttributeDefinitions=[attr("pk"), attr("pk")]),
     "Attribute Name is duplicated: pk"),
    ("two_hash_keys", dict(KeySchema=[hash_("pk"), hash_("sk")],
                           AttributeDefinitions=[attr("pk"), attr("sk")]),
     "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"),
    ("range_without_hash", dict(KeySchema=[range_("pk")]),
     "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    ("range_before_hash", dict(KeySchema=[range_("sk"), hash_("pk")],
                               AttributeDefinitions=[attr("pk"), attr("sk")]),
     "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    ("same_name_twice", dict(KeySchema=[hash_("pk"), hash_("pk")],
                             AttributeDefinitions=[attr("pk"), attr("sk")]),
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    ("bad_key_type", dict(KeySchema=[{"AttributeName": "pk", "KeyType": "BOGUS"}]),
     "1 validation error detected: Value 'BOGUS' at 'keySchema.1.member.keyType' failed to "
     "satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]"),
    ("bad_attribute_type", dict(AttributeDefinitions=[attr("pk", "SS")]),
     "1 validation error detected: Value 'SS' at 'attributeDefinitions.1.member.attributeType' "
     "failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"),
    ("provisioned_by_default_needs_throughput", dict(BillingMode=None),
     "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must "
     "both be specified when BillingMode is PROVISIONED"),
    ("provisioned_needs_throughput", dict(BillingMode="PROVISIONED"),
     "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must "
     "both be specified when BillingMode is PROVISIONED"),
    ("zero_read_capacity", dict(BillingMode=None, ProvisionedThroughput={
        "ReadCapacityUnits": 0, "WriteCapacityUnits": 1}),
     "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed "
     "to satisfy constraint: Member must have value greater than or equal to 1"),
    ("write_capacity_missing", dict(BillingMode=None, ProvisionedThroughput={"ReadCapacityUnits": 1}),
     "1 validation error detected: Value null at 'provisionedThroughput.writeCapacityUnits' "
     "failed to satisfy constraint: Member must not be null"),
]


# Every malformed CreateTable is a 400 ValidationException and creates nothing.
@pytest.mark.parametrize("members,_msg", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_request_is_validation_exception(raw, created, members, _msg):
    b = body(**members)
    if "TableName" in b:
        created.append(b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.status == 400, r
    assert r.error_type == "ValidationException"
    if re.fullmatch(r"[a-zA-Z0-9_.-]{3,255}", b.get("TableName", "")):
        assert raw.call("DescribeTable", {"TableName": b["TableName"]}).error_type == \
            "ResourceNotFoundException"


# The exact texts clients and tools match on.
# ddblocal_differs: DynamoDB Local words every one of these differently (e.g. "No defined key
# schema.  A key schema containing at least a hash key must be defined for all tables",
# "Hash Key not specified in Attribute Definitions.  Type unknown.", "Too many hash keys
# specified.  All Dynamo DB tables must have exactly one hash key").
# Sources: dynalite test/createTable.js (names, key schema order, enums, same name);
# ACKQ DDB-TABLE-042 (missing/empty key schema, undefined/unused/duplicate definitions,
# two HASH, RANGE only), DDB-TABLE-024 and -038 (throughput).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("members,msg", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_request_message(raw, members, msg):
    r = raw.call("CreateTable", body(**members))
    assert r.error_type == "ValidationException"
    assert r.message == msg


# On-demand tables take no ProvisionedThroughput at all.
# ddblocal_differs: DynamoDB Local accepts the request and ignores the throughput.
# Source: ACKQ DDB-TABLE-038 (live text).
@pytest.mark.ddblocal_differs
def test_throughput_with_pay_per_request_is_rejected(raw, created):
    b = body(ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    created.append(b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values were invalid: Neither ReadCapacityUnits "
                         "nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")


# An unknown BillingMode fails the model's enum constraint (the set's order is Coral's
# hash order, so only its members are checked).
# ddblocal_differs: DynamoDB Local answers HTTP 500 InternalFailure.
# Source: facts §1.4 model-constraint form; ACKQ DDB-TABLE-442 (enum sets are validated first).
@pytest.mark.ddblocal_differs
def test_invalid_billing_mode_is_enum_violation(raw):
    r = raw.call("CreateTable", body(BillingMode="BOGUS"))
    assert r.status == 400
    assert r.error_type == "ValidationException"
    prefix = ("1 validation error detected: Value 'BOGUS' at 'billingMode' failed to satisfy "
              "constraint: Member must satisfy enum value set: [")
    assert r.message.startswith(prefix)
    assert sorted(r.message[len(prefix):].rstrip("]").split(", ")) == ["PAY_PER_REQUEST", "PROVISIONED"]


# --- behaviour -----------------------------------------------------------------------------

# The response describes the new on-demand table with the values clients read back.
def test_on_demand_response_describes_table(raw, created):
    b = body()
    created.append(b["TableName"])
    before = time.time()
    r = raw.call("CreateTable", b)
    assert r.status == 200, r
    d = r.json["TableDescription"]
    assert d["TableName"] == b["TableName"]
    assert d["KeySchema"] == b["KeySchema"]
    assert d["AttributeDefinitions"] == b["AttributeDefinitions"]
    assert d["TableStatus"] in ("CREATING", "ACTIVE")
    assert before - 300 < d["CreationDateTime"] < time.time() + 300
    assert d["ItemCount"] == 0 and d["TableSizeBytes"] == 0
    pt = d["ProvisionedThroughput"]
    assert (pt["ReadCapacityUnits"], pt["WriteCapacityUnits"], pt["NumberOfDecreasesToday"]) == (0, 0, 0)
    assert d["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert d["DeletionProtectionEnabled"] is False
    m = ARN_RE.match(d["TableArn"])
    assert m and m.group(3) == b["TableName"]


# The whole on-demand response, key for key, as AWS sends it: CREATING, a TableId, no
# LastIncrease/LastDecreaseDateTime yet, the region of the request in the ARN.
# BillingModeSummary may omit LastUpdateToPayPerRequestDateTime and WarmThroughput may be
# absent here: AWS adds both only in DescribeTable (ACKQ DDB-TABLE-033).
# ddblocal_differs: DynamoDB Local answers ACTIVE, has no TableId, adds zero timestamps to
# ProvisionedThroughput and puts region "ddblocal" in the ARN.
# Sources: live describe-table outputs (facts §4 warm throughput), dynalite test/createTable.js
# (CREATING, TableId UUID, NumberOfDecreasesToday only), ACKQ DDB-TABLE-028/-033.
@pytest.mark.ddblocal_differs
def test_on_demand_response_exact_shape(raw, created):
    b = body()
    created.append(b["TableName"])
    d = raw.call("CreateTable", b).json["TableDescription"]
    required = {"AttributeDefinitions", "TableName", "KeySchema", "TableStatus", "CreationDateTime",
                "ProvisionedThroughput", "TableSizeBytes", "ItemCount", "TableArn", "TableId",
                "BillingModeSummary", "DeletionProtectionEnabled"}
    assert required <= set(d) <= required | {"WarmThroughput"}
    assert d["TableStatus"] == "CREATING"
    assert UUID_RE.match(d["TableId"])
    assert d["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                                          "WriteCapacityUnits": 0}
    assert set(d["BillingModeSummary"]) <= {"BillingMode", "LastUpdateToPayPerRequestDateTime"}
    assert d["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert ARN_RE.match(d["TableArn"]).group(1) == REGION


# A provisioned table reports its capacities and, never having been on-demand, no
# BillingModeSummary (ACKQ DDB-TABLE-025).
def test_provisioned_response_reports_capacities(raw, created):
    b = body(BillingMode=None, ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 3})
    created.append(b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.status == 200, r
    d = r.json["TableDescription"]
    pt = d["ProvisionedThroughput"]
    assert (pt["ReadCapacityUnits"], pt["WriteCapacityUnits"], pt["NumberOfDecreasesToday"]) == (2, 3, 0)
    assert "BillingModeSummary" not in d


# Explicit PROVISIONED with throughput is the same as the default mode.
def test_explicit_provisioned_mode(raw, created):
    b = body(BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                               "WriteCapacityUnits": 1})
    created.append(b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.status == 200, r
    assert r.json["TableDescription"]["ProvisionedThroughput"]["ReadCapacityUnits"] == 1


# A hash+range table keeps the key order of the request, and AttributeDefinitions are echoed
# in the order they were sent (ACKQ DDB-TABLE-042).
def test_hash_and_range_key_schema_echoed(raw, created):
    b = body(KeySchema=[hash_("pk"), range_("sk")], AttributeDefinitions=[attr("sk", "N"), attr("pk", "B")])
    created.append(b["TableName"])
    d = raw.call("CreateTable", b).json["TableDescription"]
    assert d["KeySchema"] == [hash_("pk"), range_("sk")]
    assert d["AttributeDefinitions"] == [attr("sk", "N"), attr("pk", "B")]


# Names of exactly 3 and 255 characters, using every allowed character class, are valid
# (an earlier run may have left the 3-character one behind: "already exists" proves it valid too).
def test_name_length_and_charset_boundaries(raw, created):
    for name in ("-" + uuid.uuid4().hex[:2], ("Z_9-." + uuid.uuid4().hex * 8)[:255]):
        r = raw.call("CreateTable", body(TableName=name))
        if r.status == 200:
            created.append(name)
            assert r.json["TableDescription"]["TableName"] == name
        else:
            assert r.error_type == "ResourceInUseException", r


# The table becomes ACTIVE and DescribeTable then agrees with the create response.
def test_table_becomes_active(raw, ddb, created):
    b = body()
    created.append(b["TableName"])
    d = raw.call("CreateTable", b).json["TableDescription"]
    wait_active(ddb, b["TableName"])
    t = raw.call("DescribeTable", {"TableName": b["TableName"]}).json["Table"]
    assert t["TableStatus"] == "ACTIVE"
    for k in ("TableArn", "CreationDateTime", "KeySchema", "AttributeDefinitions"):
        assert t[k] == d[k]


# Creating a name that exists fails, whatever the other parameters say.
def test_duplicate_table_is_resource_in_use(raw, ddb, created):
    b = body()
    created.append(b["TableName"])
    raw.call("CreateTable", b)
    wait_active(ddb, b["TableName"])
    r = raw.call("CreateTable", body(TableName=b["TableName"], BillingMode=None,
                                     ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                            "WriteCapacityUnits": 1}))
    assert r.status == 400
    assert r.error_type == "ResourceInUseException"


# ddblocal_differs: DynamoDB Local says "Cannot create preexisting table".
# Source: ACKQ DDB-TABLE-005/-010 (live, ACTIVE table); boto users matching the same text.
@pytest.mark.ddblocal_differs
def test_duplicate_table_message(raw, ddb, created):
    b = body()
    created.append(b["TableName"])
    raw.call("CreateTable", b)
    wait_active(ddb, b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.message == "Table already exists: " + b["TableName"]


# Table names are case-sensitive: "Tbl" and "tbl" are two tables.
# ddblocal_differs: DynamoDB Local fails the second create with HTTP 500.
# Source: ACKQ DDB-TABLE-010 (upper-cased name created a distinct table).
@pytest.mark.ddblocal_differs
def test_names_are_case_sensitive(raw, created):
    lower = "t_" + uuid.uuid4().hex[:12]
    upper = lower.upper()
    created.extend([lower, upper])
    assert raw.call("CreateTable", body(TableName=lower)).status == 200
    r = raw.call("CreateTable", body(TableName=upper))
    assert r.status == 200, r


# Tags given at creation are on the table once it is ACTIVE.
# ddblocal_differs: DynamoDB Local accepts Tags but has no tagging API to read them back.
# Source: ACKQ DDB-TABLE-110 ("tags given to CreateTable are visible the moment the table is ACTIVE").
@pytest.mark.ddblocal_differs
def test_tags_on_create(raw, ddb, created):
    b = body(Tags=[{"Key": "team", "Value": "storage"}, {"Key": "env", "Value": ""}])
    created.append(b["TableName"])
    arn = raw.call("CreateTable", b).json["TableDescription"]["TableArn"]
    wait_active(ddb, b["TableName"])
    tags = raw.call("ListTagsOfResource", {"ResourceArn": arn}).json["Tags"]
    assert sorted(tags, key=lambda t: t["Key"]) == [{"Key": "env", "Value": ""},
                                                     {"Key": "team", "Value": "storage"}]


# An invalid tag fails the whole CreateTable: nothing is created.
# ddblocal_differs: DynamoDB Local ignores tags and creates the table.
# Source: ACKQ DDB-TABLE-110 (live text; DescribeTable afterwards -> ResourceNotFoundException).
@pytest.mark.ddblocal_differs
def test_invalid_tag_on_create_creates_nothing(raw, created):
    b = body(Tags=[{"Key": "aws:foo", "Value": "x"}])
    created.append(b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message == "Tag Key cannot be prefixed with aws:, Key: aws:foo"
    assert raw.call("DescribeTable", {"TableName": b["TableName"]}).error_type == "ResourceNotFoundException"


# An empty Tags list is accepted at creation (TagResource refuses one).
# Source: ACKQ DDB-TABLE-110 (live: CreateTable Tags=[] -> 200).
def test_empty_tags_on_create_accepted(raw, created):
    b = body(Tags=[])
    created.append(b["TableName"])
    r = raw.call("CreateTable", b)
    assert r.status == 200, r
