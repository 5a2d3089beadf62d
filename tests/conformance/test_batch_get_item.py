"""BatchGetItem: serialization, validation, behaviour.

Real-service texts: dynalite test/batchGetItem.js and validations/batchGetItem.js (recorded
against live DynamoDB); where DynamoDB Local words a text differently the exact-text test is
marked ddblocal_differs. Throttling (UnprocessedKeys under load, all-throttled calls) is in
test_batch_capacity.py.
"""
import re

import boto3
import pytest

from conftest import (CREDS, REGION, Server, _is_sluice_cached, make_client, new_key, table_arn,
                      wait_active)

KEY_MISMATCH = "The provided key element does not match the schema"
DUPLICATES = "Provided list of item keys contains duplicates"
TOO_MANY = "Too many items requested for the BatchGetItem call"

def bget(raw, request_items, **kw):
    return raw.call("BatchGetItem", dict(RequestItems=request_items, **kw))


def keys(*pks):
    return [{"pk": {"S": pk}} for pk in pks]


def sized_item(pk, size):
    """An item of exactly `size` bytes: pk (2 + len) plus attribute "b" (1 + len)."""
    return {"pk": {"S": pk}, "b": {"S": "x" * (size - 2 - len(pk) - 1)}}


def by_table(consumed):
    return sorted(consumed, key=lambda c: c["TableName"])


# --- serialization -------------------------------------------------------------------------

# ConsistentRead of a table entry must be a boolean.
# ddblocal_differs: DynamoDB Local answers HTTP 500 InternalFailure.
# Source: dynalite test/batchGetItem.js "RequestItems.Attr.ConsistentRead is not a boolean".
@pytest.mark.ddblocal_differs
def test_consistent_read_of_wrong_json_type_is_serialization_exception(raw, hash_table):
    r = bget(raw, {hash_table: {"Keys": keys("a"), "ConsistentRead": "yes"}})
    assert r.status == 400
    assert r.error_type == "SerializationException"


# --- validation: the model ------------------------------------------------------------------

@pytest.mark.parametrize("body", [{}, {"RequestItems": {}}, {"RequestItems": {"abc": {"Keys": []}}}],
                         ids=["missing", "empty", "no_keys"])
def test_request_items_and_keys_required(raw, body):
    r = raw.call("BatchGetItem", body)
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "BatchGetItem must have some requests set" and "The
# list of keys in RequestItems for BatchGetItem is required: abc has empty list".
# Source: dynalite test/batchGetItem.js "empty RequestItems", "empty keys" (live texts, the
# older wording, which "missing" keeps). The service reworded the bounds in 2026: no value
# echoed, the path in the request's member names.
# Source for the newer wording: a public conformance suite run against AWS (its BatchGetItem,
# BatchWriteItem and Query message tests, sweeps of 2026-08/09: every region but me-central-1
# had moved by 2026-09-02); validate.c "REWORD_".
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("body,msg", [
    ({}, "1 validation error detected: Value null at 'requestItems' failed to satisfy "
         "constraint: Member must not be null"),
    ({"RequestItems": {}}, "1 validation error detected: Value at 'RequestItems' failed to "
                           "satisfy constraint: Member must have length greater than or equal "
                           "to 1"),
    ({"RequestItems": {"abc": {"Keys": []}}},
     "1 validation error detected: Value at 'RequestItems.abc.member.Keys' failed to "
     "satisfy constraint: Member must have length greater than or equal to 1"),
], ids=["missing", "empty", "no_keys"])
def test_request_items_and_keys_required_message(raw, body, msg):
    assert raw.call("BatchGetItem", body).message == msg


# More than 100 keys for one table breaks the model's list bound.
# ddblocal_differs: DynamoDB Local says "Too many items requested for the BatchGetItem call".
# Source: dynalite test/batchGetItem.js "fetching more than 100 keys" (live text).
@pytest.mark.ddblocal_differs
def test_more_than_100_keys_in_one_table(raw):
    r = bget(raw, {"abc": {"Keys": [{"a": {"S": str(i)}} for i in range(101)]}})
    assert r.error_type == "ValidationException"
    # The 2026 wording (see above): the keys are not echoed.
    assert r.message == ("1 validation error detected: Value at 'RequestItems.abc.member.Keys' "
                         "failed to satisfy constraint: Member must have length less than or "
                         "equal to 100")


MAP_KEY_NAME = (r"1 validation error detected: Value '\{.+\}' at 'requestItems' failed to "
                r"satisfy constraint: Map keys must satisfy constraint: \[Member must have length "
                r"less than or equal to 255, Member must have length greater than or equal to 3, "
                r"Member must satisfy regular expression pattern: \[a-zA-Z0-9_.-\]\+\]")


# A table name given as a map key follows the TableName rules (an ARN excepted).
# ddblocal_differs: DynamoDB Local says "Invalid table/index name. Table/index names must be
# between 3 and 255 characters long, ...". Source: dynalite test/batchGetItem.js "short table
# name with keys" (live text).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("name", ["a", "aa;"])
def test_table_name_as_map_key(raw, name):
    r = bget(raw, {name: {"Keys": [{"a": {"S": "a"}}]}})
    assert r.error_type == "ValidationException"
    assert re.fullmatch(MAP_KEY_NAME, r.message or ""), r.message


MAP_KEY_CONSTRAINT = ("at 'requestItems' failed to satisfy constraint: Map keys must satisfy "
                      "constraint: [Member must have length less than or equal to 255, Member must "
                      "have length greater than or equal to 3, Member must satisfy regular "
                      "expression pattern: [a-zA-Z0-9_.-]+]")
ENUM_RCC = ("Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]")


# The 2026 service echoes the RequestItems map as JSON (compact, as sent), never in Java's
# toString form; beside an unknown ReturnConsumedCapacity it is listed first.
# ddblocal_differs: DynamoDB Local says "Invalid table/index name. ..." (see above).
# Source: a public conformance suite's BatchGetItem captures against AWS (us-east-1 and
# eu-west-2, 2026-10-09): "malformed table name: full map-keys constraint message" and "reports
# a malformed table name and an unknown ReturnConsumedCapacity together".
@pytest.mark.ddblocal_differs
def test_table_name_as_map_key_echoes_json(raw):
    items = {"bad!name": {"Keys": [{"pk": {"S": "a"}}]}}
    echo = '{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}'
    r = bget(raw, items)
    assert r.message == f"1 validation error detected: Value '{echo}' {MAP_KEY_CONSTRAINT}", r
    r = bget(raw, items, ReturnConsumedCapacity="BOGUS")
    assert r.message == (f"2 validation errors detected: Value '{echo}' {MAP_KEY_CONSTRAINT}; "
                         f"{ENUM_RCC}"), r


# --- validation: keys (before any table is looked up) ---------------------------------------

# 100 keys in all, however they are spread over tables; the check needs no table.
def test_more_than_100_keys_over_tables(raw):
    r = bget(raw, {"abc": {"Keys": [{"a": {"S": str(i)}} for i in range(100)]},
                   "abd": {"Keys": [{"a": {"S": "100"}}]}})
    assert r.error_type == "ValidationException"
    assert r.message == TOO_MANY


# Exactly 100 keys pass validation: an unknown table is then ResourceNotFound.
def test_exactly_100_keys_reach_table_lookup(raw):
    r = bget(raw, {"abc": {"Keys": [{"a": {"S": str(i)}} for i in range(100)]}})
    assert r.error_type == "ResourceNotFoundException"


# A key asked twice is rejected, even before the table is looked up.
@pytest.mark.parametrize("order", ["k_k_k", "k_k2_k"])
def test_duplicate_keys(raw, hash_table, order):
    k, k2 = new_key(), new_key()
    pks = [k, k, k] if order == "k_k_k" else [k, k2, k]
    for table in (hash_table, "no_such_table_x"):
        r = bget(raw, {table: {"Keys": keys(*pks)}})
        assert r.error_type == "ValidationException"
        assert r.message == DUPLICATES


# Keys are compared as values: 1 and 1.0 are the same number.
# ddblocal_differs: DynamoDB Local returns the item twice. Source: dynalite
# validations/batchGetItem.js compares keys by their normalised values (db.toRangeStr).
@pytest.mark.ddblocal_differs
def test_numerically_equal_keys_are_duplicates(raw, range_table):
    k = new_key()
    r = bget(raw, {range_table: {"Keys": [{"pk": {"S": k}, "sk": {"N": "1"}},
                                          {"pk": {"S": k}, "sk": {"N": "1.0"}}]}})
    assert r.message == DUPLICATES


# One table named by its name and by its ARN is still one table.
# ddblocal_differs: DynamoDB Local compares keys per RequestItems entry and returns the item
# twice. The rule is that an item is asked once per request (API reference: "Provided list of
# item keys contains duplicates").
@pytest.mark.ddblocal_differs
def test_same_item_under_name_and_arn(raw, ddb, hash_table):
    k = new_key()
    r = bget(raw, {hash_table: {"Keys": keys(k)}, table_arn(ddb, hash_table): {"Keys": keys(k)}})
    assert r.message == DUPLICATES


# Key values are checked before the table is looked up.
def test_values_checked_before_table_lookup(raw):
    r = bget(raw, {"no_such_table_x": {"Keys": [{"a": {"NULL": False}}]}})
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values were invalid: Null attribute value types "
                         "must have the value of true")


# AttributesToGet may not name an attribute twice (checked before the table).
def test_attributes_to_get_duplicates(raw):
    r = bget(raw, {"no_such_table_x": {"Keys": keys("a"), "AttributesToGet": ["x", "y", "x"]}})
    assert r.error_type == "ValidationException"
    assert r.message == "One or more parameter values were invalid: Duplicate value in attribute name: x"


# Expression and legacy projection members do not mix, and names need an expression; both
# are checked before the table.
@pytest.mark.parametrize("entry,msg", [
    ({"AttributesToGet": ["x"], "ProjectionExpression": "x"},
     "Can not use both expression and non-expression parameters in the same request: "
     "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"),
    ({"ExpressionAttributeNames": {"#x": "x"}},
     "ExpressionAttributeNames can only be specified when using expressions"),
], ids=["mixed", "names_without_expression"])
def test_projection_parameters(raw, entry, msg):
    r = bget(raw, {"no_such_table_x": dict(Keys=keys("a"), **entry)})
    assert r.error_type == "ValidationException"
    assert r.message == msg


# --- validation: tables and key schemas -----------------------------------------------------

def test_unknown_table_is_resource_not_found(raw, hash_table):
    r = bget(raw, {hash_table: {"Keys": keys("a")}, "no_such_table_x": {"Keys": keys("a")}})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: dynalite test/batchGetItem.js "table does not exist" (live text); facts §1.4.
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    assert bget(raw, {"no_such_table_x": {"Keys": keys("a")}}).message == \
        "Requested resource not found"


BAD_KEYS = [
    ("other_attribute", "hash", {"b": {"S": "a"}}),
    ("extra_attribute", "hash", {"pk": {"S": "a"}, "b": {"S": "a"}}),
    ("wrong_type", "hash", {"pk": {"N": "1"}}),
    ("set_type", "hash", {"pk": {"SS": ["a"]}}),
    ("missing_range_key", "range", {"pk": {"S": "a"}}),
]


@pytest.fixture
def tables(hash_table, range_table):
    return {"hash": hash_table, "range": range_table}


@pytest.mark.parametrize("which,key", [c[1:] for c in BAD_KEYS], ids=[c[0] for c in BAD_KEYS])
def test_key_not_matching_schema(raw, tables, which, key):
    r = bget(raw, {tables[which]: {"Keys": [key]}})
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "The number of conditions on the keys is invalid",
# "...Type mismatch for key", or for an empty key "The list of keys in RequestItems for
# BatchGetItem may not contain null or empty values: <table> has one or more empty keys".
# Source: dynalite test/batchGetItem.js "key has incorrect attributes", "key is empty and
# table does exist" and the others (live texts).
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("which,key", [c[1:] for c in BAD_KEYS] + [("hash", {})],
                         ids=[c[0] for c in BAD_KEYS] + ["empty_key"])
def test_key_not_matching_schema_message(raw, tables, which, key):
    assert bget(raw, {tables[which]: {"Keys": [key]}}).message == KEY_MISMATCH


# An undefined name in a table's ProjectionExpression is reported like GetItem's.
def test_projection_with_undefined_name(raw, hash_table):
    r = bget(raw, {hash_table: {"Keys": keys("a"), "ProjectionExpression": "#x"}})
    assert r.error_type == "ValidationException"
    assert r.message == ("Invalid ProjectionExpression: An expression attribute name used in the "
                         "document path is not defined; attribute name: #x")


def test_projection_with_unused_name(raw, hash_table):
    r = bget(raw, {hash_table: {"Keys": keys("a"), "ProjectionExpression": "x",
                                "ExpressionAttributeNames": {"#y": "y"}}})
    assert r.error_type == "ValidationException"
    assert r.message == "Value provided in ExpressionAttributeNames unused in expressions: keys: {#y}"


# --- behaviour ------------------------------------------------------------------------------

# Every table gets an entry in Responses, empty when none of its keys exist.
def test_empty_responses_when_keys_do_not_exist(raw, hash_table, range_table):
    r = bget(raw, {hash_table: {"Keys": keys(new_key())},
                   range_table: {"Keys": [{"pk": {"S": new_key()}, "sk": {"N": "1"}}]}})
    assert r.status == 200
    assert r.json == {"Responses": {hash_table: [], range_table: []}, "UnprocessedKeys": {}}


# Only existing items come back, whole.
def test_only_existing_items_returned(raw, ddb, hash_table):
    a, c = new_key(), new_key()
    item_a = {"pk": {"S": a}, "n": {"N": "1"}}
    item_c = {"pk": {"S": c}, "l": {"L": [{"S": "x"}, {"BOOL": True}]}}
    ddb.put_item(TableName=hash_table, Item=item_a)
    ddb.put_item(TableName=hash_table, Item=item_c)
    r = bget(raw, {hash_table: {"Keys": keys(a, new_key(), c, new_key()), "ConsistentRead": True}})
    got = r.json["Responses"][hash_table]
    assert len(got) == 2
    assert item_a in got and item_c in got
    assert r.json["UnprocessedKeys"] == {}


# A table's ProjectionExpression (with names) applies to its items; an item holding none of
# the projected attributes comes back empty.
def test_projection_expression(raw, ddb, hash_table):
    a, b = new_key(), new_key()
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": a}, "x": {"S": "1"}, "y": {"S": "2"},
                                             "m": {"M": {"p": {"N": "1"}, "q": {"N": "2"}}}})
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": b}})
    r = bget(raw, {hash_table: {"Keys": keys(a, b), "ProjectionExpression": "#x, m.q",
                                "ExpressionAttributeNames": {"#x": "x"}}})
    got = r.json["Responses"][hash_table]
    assert len(got) == 2
    assert {"x": {"S": "1"}, "m": {"M": {"q": {"N": "2"}}}} in got
    assert {} in got


# Legacy AttributesToGet projects top-level attributes.
# Source: dynalite test/batchGetItem.js "only requested attributes of items that do exist".
def test_attributes_to_get(raw, ddb, hash_table):
    a, b = new_key(), new_key()
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": a}, "b": {"N": "1"}, "c": {"S": "c"}})
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": b}})
    r = bget(raw, {hash_table: {"Keys": keys(a, b), "AttributesToGet": ["b", "c"]}})
    got = r.json["Responses"][hash_table]
    assert len(got) == 2
    assert {"b": {"N": "1"}, "c": {"S": "c"}} in got
    assert {} in got


# A table named by its ARN is read like by its name.
def test_table_arn_accepted(raw, ddb, hash_table):
    k = new_key()
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": k}})
    r = bget(raw, {table_arn(ddb, hash_table): {"Keys": keys(k)}})
    assert r.status == 200
    assert list(r.json["Responses"].values()) == [[{"pk": {"S": k}}]]


# Each item is priced on its own, rounded up to 4 KB, half when eventually consistent
# (facts §2.2: 1.5 KB + 6.5 KB is 3 RCU, not 2); ConsumedCapacity has one entry per table;
# ConsistentRead is per table.
# Source: dynalite test/batchGetItem.js "ConsumedCapacity from each specified table".
def test_consumed_capacity_rounded_per_item(raw, ddb, make_table):
    t1, t2 = make_table(), make_table()
    for pk, size in (("a", 4096), ("b", 4097), ("c", 10)):
        ddb.put_item(TableName=t1, Item=sized_item(pk, size))
        ddb.put_item(TableName=t2, Item=sized_item(pk, size))
    r = bget(raw, {t1: {"Keys": keys("a", "b", "c")},
                   t2: {"Keys": keys("a", "b", "c"), "ConsistentRead": True}},
             ReturnConsumedCapacity="TOTAL")
    assert by_table(r.json["ConsumedCapacity"]) == by_table([
        {"TableName": t1, "CapacityUnits": 0.5 + 1.0 + 0.5},
        {"TableName": t2, "CapacityUnits": 1.0 + 2.0 + 1.0}])
    r = bget(raw, {t1: {"Keys": keys("b")}}, ReturnConsumedCapacity="INDEXES")
    assert r.json["ConsumedCapacity"] == [
        {"TableName": t1, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}]


# A key with no item still costs the minimum: 0.5 eventually consistent, 1 consistent.
# ddblocal_differs: DynamoDB Local charges nothing for it.
# Source: dynalite test/batchGetItem.js (live: a missing key in testHashNTable costs 0.5 /
# 1); facts §2.2 ("Missing item still costs 1 (SC) / 0.5 (EC)").
@pytest.mark.ddblocal_differs
def test_consumed_capacity_of_missing_items(raw, make_table):
    t1, t2 = make_table(), make_table()
    r = bget(raw, {t1: {"Keys": keys("a", "b")}, t2: {"Keys": keys("a"), "ConsistentRead": True}},
             ReturnConsumedCapacity="TOTAL")
    assert by_table(r.json["ConsumedCapacity"]) == by_table([
        {"TableName": t1, "CapacityUnits": 1.0}, {"TableName": t2, "CapacityUnits": 1.0}])


# ConsumedCapacity names a table as the request did: by ARN when given an ARN.
# ddblocal_differs: DynamoDB Local reports the name. Source: facts §2.3.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_names_table_as_requested(raw, ddb, make_table):
    t1 = make_table()
    arn = table_arn(ddb, t1)
    r = bget(raw, {arn: {"Keys": keys("a")}}, ReturnConsumedCapacity="TOTAL")
    assert r.json["ConsumedCapacity"] == [{"TableName": arn, "CapacityUnits": 0.5}]


# boto3's resource API reads a batch over two tables.
def test_boto3_resource_batch_get(endpoint, ddb, make_table):
    t1, t2 = make_table(), make_table()
    res = boto3.resource("dynamodb", endpoint_url=endpoint, region_name=REGION,
                         aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key)
    res.Table(t1).put_item(Item={"pk": "a", "n": 1})
    res.Table(t2).put_item(Item={"pk": "b", "s": {"x"}})
    got = res.batch_get_item(RequestItems={t1: {"Keys": [{"pk": "a"}, {"pk": "z"}]},
                                           t2: {"Keys": [{"pk": "b"}]}})
    assert got["Responses"] == {t1: [{"pk": "a", "n": 1}], t2: [{"pk": "b", "s": {"x"}}]}
    assert got["UnprocessedKeys"] == {}


# --- the 16 MB limit ------------------------------------------------------------------------

@pytest.fixture
def roomy(endpoint):
    """A client for an endpoint that accepts many large writes quickly: DynamoDB Local as is,
    or a private sluice with the `unlimited` capacity profile (the shared one would throttle
    16 MB of writes, as DynamoDB does)."""
    if not _is_sluice_cached(endpoint):
        yield make_client(endpoint)
        return
    srv = Server(["--profile", "unlimited"])
    yield make_client(srv.endpoint)
    srv.stop()


# A call reads at most 16 MiB of items, counted in their stored sizes and whatever the
# projection; the keys beyond come back in UnprocessedKeys (with the table's other members)
# and are not charged. 64 items of 262,144 bytes fit exactly; at 262,145 bytes only 63 do.
# Source: measured on DynamoDB Local (the API reference words it "16 MB").
@pytest.mark.parametrize("size,fit", [(262144, 64), (262145, 63)])
def test_16_mib_limit(roomy, size, fit):
    name = "t_big_" + new_key()[2:14]
    roomy.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    try:
        wait_active(roomy, name)
        pks = [f"{i:02}" for i in range(70)]
        for pk in pks:
            roomy.put_item(TableName=name, Item=sized_item(pk, size))
        r = roomy.batch_get_item(
            RequestItems={name: {"Keys": keys(*pks), "ProjectionExpression": "pk",
                                 "ConsistentRead": False}},
            ReturnConsumedCapacity="TOTAL")
        got = [i["pk"]["S"] for i in r["Responses"][name]]
        left = r["UnprocessedKeys"][name]
        assert len(got) == fit
        assert sorted(got + [k["pk"]["S"] for k in left["Keys"]]) == pks
        assert left["ProjectionExpression"] == "pk" and left["ConsistentRead"] is False
        units = -(-size // 4096) * 0.5 * fit
        assert r["ConsumedCapacity"] == [{"TableName": name, "CapacityUnits": units}]
    finally:
        roomy.delete_table(TableName=name)
