"""TransactWriteItems: serialization, validation, behaviour.

Sources of the texts and shapes checked here:
- the service model (botocore service-2.json): members, constraints, the
  CancellationReasons codes and messages, "Message" with a capital M;
- live observations of the real service recorded by the paritysuite
  dynamodb-conformance project (tests/tier3/error-messages/transactWriteItems.test.ts,
  tests/tier3/validation-ordering/transactions.test.ts, pull requests #67 and #74:
  capacity of conditional, ConditionCheck and replayed transactions, the transactional
  Read/WriteCapacityUnits split);
- the AWS CLI example of transact-write-items (ConsumedCapacity with WriteCapacityUnits);
- DynamoDB Local, where nothing else is on record (marked in the comment).
Where DynamoDB Local answers differently from the real service the test is marked
ddblocal_differs and says how. Throttling is in test_transaction_capacity.py.
"""
import uuid

import pytest

from conftest import admin, call_retrying, new_key, table_arn

CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]"
CCF_MSG = "The conditional request failed"
KEY_MISMATCH = "The provided key element does not match the schema"
EMPTY_KEY = ("One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty string value. Key: pk")
MULTIPLE = "Transaction request cannot include multiple operations on one item"


def tw(raw, items, **kw):
    return raw.call("TransactWriteItems", dict(TransactItems=items, **kw))


def put(table, item, **kw):
    return {"Put": dict(TableName=table, Item=item, **kw)}


def update(table, key, expr, **kw):
    return {"Update": dict(TableName=table, Key=key, UpdateExpression=expr, **kw)}


def delete(table, key, **kw):
    return {"Delete": dict(TableName=table, Key=key, **kw)}


def check(table, key, cond, **kw):
    return {"ConditionCheck": dict(TableName=table, Key=key, ConditionExpression=cond, **kw)}


def k(pk):
    return {"pk": {"S": pk}}


def get(raw, table, key):
    r = raw.call("GetItem", {"TableName": table, "Key": key, "ConsistentRead": True})
    assert r.status == 200, r
    return r.json.get("Item")


def codes(r):
    """The reason codes of a TransactionCanceledException reply."""
    assert r.status == 400, r
    assert r.error_type == "TransactionCanceledException", r
    return [x["Code"] for x in r.json["CancellationReasons"]]


def sized_item(pk, size):
    """An item of exactly `size` bytes: pk (2 + len) plus attribute "b" (1 + len)."""
    return {"pk": {"S": pk}, "b": {"S": "x" * (size - 2 - len(pk) - 1)}}


# --- validation: the model ------------------------------------------------------------------

# TransactItems holds 1 to 100 actions; an empty list is a model-constraint error.
def test_empty_transact_items(raw):
    r = tw(raw, [])
    assert (r.status, r.error_type) == (400, "ValidationException")


# The live service's text (us-east-1 cohort; the model's generic wording elsewhere).
# ddblocal_differs: DynamoDB Local writes "Value [] at 'transactItems' ..." without quotes
# and without the "1 validation error detected: " header.
@pytest.mark.ddblocal_differs
def test_empty_transact_items_message(raw):
    assert tw(raw, []).message == (
        "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1")


# 101 actions: the length constraint, the list not echoed.
# ddblocal_differs: DynamoDB Local says only "Member must have length less than or equal to 100".
# Source: no capture of this service text was found; several public emulators that follow the
# service's texts (a Java, a Python and a Go one, 2025-26) word it "1 validation error detected:
# Value at '<path>' failed to satisfy constraint: Member must have length less than or equal
# to N", in the form the service's 2026 validation framework gives list bounds (BatchGetItem,
# BatchWriteItem captures, test_batch_get_item.py); the older service echoed the list
# ("Value '[com.amazonaws.dynamodb.v20120810.TransactGetItem@10000001, ...]'", moto's 2019
# copy). server/validate.c "REWORD_LIST_MAX".
@pytest.mark.ddblocal_differs
def test_more_than_100_actions(raw, hash_table):
    r = tw(raw, [put(hash_table, k(f"a{i}")) for i in range(101)])
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("1 validation error detected: Value at 'transactItems' failed to satisfy "
                         "constraint: Member must have length less than or equal to 100")


# Each action type's required members are model constraints, named by their path.
# ddblocal_differs: DynamoDB Local accepts an Update without UpdateExpression and words the
# ConditionCheck case without the "1 validation error detected: " header.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("action,path", [
    ({"Update": {"TableName": "tbl", "Key": k("a")}}, "update.updateExpression"),
    ({"ConditionCheck": {"TableName": "tbl", "Key": k("a")}}, "conditionCheck.conditionExpression"),
    ({"Put": {"TableName": "tbl"}}, "put.item"),
    ({"Delete": {"Key": k("a")}}, "delete.tableName"),
], ids=["update", "check", "put", "delete"])
def test_required_members(raw, action, path):
    r = tw(raw, [action])
    assert r.message == (f"1 validation error detected: Value null at 'transactItems.1.member."
                         f"{path}' failed to satisfy constraint: Member must not be null")


# A malformed table name is reported before anything else, with the action's position and
# type in the member path (live service).
# ddblocal_differs: DynamoDB Local answers "Invalid table/index name. ...".
@pytest.mark.ddblocal_differs
def test_bad_table_name_path(raw, hash_table):
    r = tw(raw, [put(hash_table, k(new_key())),
                 update("bad!name", k("a"), "SET a = :a", ExpressionAttributeValues={":a": {"S": "x"}})])
    assert r.message == (
        "1 validation error detected: Value 'bad!name' at 'transactItems.2.member.update."
        "tableName' failed to satisfy constraint: Member must satisfy regular expression "
        "pattern: [a-zA-Z0-9_.-]+")


# An unknown ReturnConsumedCapacity is a model error, reported ahead of a missing table, and
# nothing is written (live service).
# ddblocal_differs: DynamoDB Local accepts any value.
@pytest.mark.ddblocal_differs
def test_bad_return_consumed_capacity(raw, hash_table):
    key = k(new_key())
    r = tw(raw, [put(hash_table, key), put("t_missing_" + uuid.uuid4().hex[:8], k("a"))],
           ReturnConsumedCapacity="BOGUS")
    assert r.message == (
        "1 validation error detected: Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy "
        "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")
    assert get(raw, hash_table, key) is None


# ClientRequestToken is 1 to 36 characters (live us-east-1 text).
# ddblocal_differs: DynamoDB Local leaves the quotes and the header out.
@pytest.mark.ddblocal_differs
def test_client_request_token_too_long(raw, hash_table):
    token = "x" * 37
    r = tw(raw, [put(hash_table, k(new_key()))], ClientRequestToken=token)
    assert r.message == (
        f"1 validation error detected: Value '{token}' at 'clientRequestToken' failed to satisfy "
        f"constraint: Member must have length less than or equal to 36")


# --- validation: actions --------------------------------------------------------------------

# Each element holds exactly one action (texts: DynamoDB Local, and the live us-east-1 text
# for an element with none).
@pytest.mark.parametrize("elem,msg", [
    ({}, "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request"),
    ({"Put": {"TableName": "tbl", "Item": k("a")}, "Delete": {"TableName": "tbl", "Key": k("a")}},
     "TransactItems can only contain one of Check, Put, Update or Delete"),
], ids=["none", "two"])
def test_one_action_per_element(raw, hash_table, elem, msg):
    r = tw(raw, [put(hash_table, k(new_key())), elem])
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", msg)


# Actions are checked one after the other, values and expressions together, before any table
# is looked up: a malformed condition on the second action wins over a missing table on the
# first, and a too deep item on the first over a malformed condition on the second (live
# service ordering).
def test_expressions_checked_before_tables(raw, hash_table):
    r = tw(raw, [put("t_missing_" + uuid.uuid4().hex[:8], k("a")),
                 check(hash_table, k("b"), "attribute_not_exists(")])
    assert (r.error_type, r.message) == (
        "ValidationException", 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("')
    deep = {"S": "leaf"}
    for _ in range(32):
        deep = {"M": {"n": deep}}
    r = tw(raw, [put(hash_table, {"pk": {"S": "a"}, "d": deep}),
                 check(hash_table, k("b"), "attribute_not_exists(")])
    assert r.message == ("Nesting Levels have exceeded supported limits: Attributes in the item "
                         "have nested levels beyond supported limit")


# An unused expression value fails the whole request, whichever action has it, and nothing is
# written (live service).
def test_unused_value_fails_request(raw, hash_table):
    key = k(new_key())
    r = tw(raw, [put(hash_table, key),
                 check(hash_table, k(new_key()), "attribute_not_exists(pk)",
                       ExpressionAttributeValues={":v": {"S": "x"}})])
    assert (r.error_type, r.message) == (
        "ValidationException", "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}")
    assert get(raw, hash_table, key) is None


# An empty condition is PutItem's error (live service).
def test_empty_condition_expression(raw, hash_table):
    r = tw(raw, [delete(hash_table, k(new_key()), ConditionExpression="")])
    assert r.message == "Invalid ConditionExpression: The expression can not be empty;"


# Members the single-item operations have but a transaction action does not (Expected,
# ReturnValues) are unknown members, ignored.
def test_unknown_action_members_ignored(raw, hash_table):
    key = k(new_key())
    r = tw(raw, [put(hash_table, key, Expected={"pk": {"Exists": True}}, ReturnValues="ALL_OLD")])
    assert r.status == 200, r
    assert get(raw, hash_table, key) == key


# A missing table is ResourceNotFoundException.
def test_missing_table(raw, hash_table):
    r = tw(raw, [put(hash_table, k(new_key())), put("t_missing_" + uuid.uuid4().hex[:8], k("a"))])
    assert (r.status, r.error_type) == (400, "ResourceNotFoundException")


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
@pytest.mark.ddblocal_differs
def test_missing_table_message(raw):
    r = tw(raw, [put("t_missing_" + uuid.uuid4().hex[:8], k("a"))])
    assert r.message == "Requested resource not found"


# An empty key value fails the whole request, whatever the action (live service, DynamoDB
# Local agrees).
@pytest.mark.parametrize("action", ["put", "update", "delete", "check"])
def test_empty_key_value_is_validation_exception(raw, hash_table, action):
    empty = {"pk": {"S": ""}}
    a = {"put": put(hash_table, empty),
         "update": update(hash_table, empty, "SET a = :a", ExpressionAttributeValues={":a": {"S": "x"}}),
         "delete": delete(hash_table, empty),
         "check": check(hash_table, empty, "attribute_exists(pk)")}[action]
    r = tw(raw, [a])
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", EMPTY_KEY)


# A key of the wrong type cancels the transaction with that action's ValidationError.
def test_wrong_key_type_cancels(raw, hash_table):
    r = tw(raw, [put(hash_table, k(new_key())), put(hash_table, {"pk": {"N": "5"}})])
    assert codes(r) == ["None", "ValidationError"]
    assert r.message == CANCELLED.format("None, ValidationError")


# The reasons' texts of the live service: a Put names the key and types (PutItem's text), the
# other actions say the key does not match the schema.
# ddblocal_differs: DynamoDB Local says "One or more parameter values were invalid: Type
# mismatch for key" for all of them.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("action,msg", [
    ("put", "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"),
    ("put_list", "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: L"),
    ("put_missing", "One or more parameter values were invalid: Missing the key pk in the item"),
    ("update", KEY_MISMATCH), ("delete", KEY_MISMATCH), ("check", KEY_MISMATCH),
    ("delete_extra", KEY_MISMATCH),
])
def test_wrong_key_reason_message(raw, hash_table, action, msg):
    bad = {"pk": {"N": "5"}}
    a = {"put": put(hash_table, bad),
         "put_list": put(hash_table, {"pk": {"L": [{"S": "x"}]}}),
         "put_missing": put(hash_table, {"x": {"S": "y"}}),
         "update": update(hash_table, bad, "SET a = :a", ExpressionAttributeValues={":a": {"S": "x"}}),
         "delete": delete(hash_table, bad),
         "check": check(hash_table, bad, "attribute_not_exists(pk)"),
         "delete_extra": delete(hash_table, {"pk": {"S": "a"}, "x": {"S": "b"}})}[action]
    r = tw(raw, [a])
    assert r.json["CancellationReasons"] == [{"Code": "ValidationError", "Message": msg}]


# Updating a key attribute is the action's ValidationError (UpdateItem's text).
def test_update_of_key_attribute_cancels(raw, hash_table):
    r = tw(raw, [update(hash_table, k(new_key()), "SET pk = :v",
                        ExpressionAttributeValues={":v": {"S": "x"}})])
    assert r.json["CancellationReasons"] == [{
        "Code": "ValidationError",
        "Message": "One or more parameter values were invalid: Cannot update attribute pk. "
                   "This attribute is part of the key"}]


# Two actions on one item, whatever their types, fail the request ("you cannot both
# ConditionCheck and Update the same item", API reference).
# ddblocal_differs (check): DynamoDB Local finds the pair only when the check's condition
# fails after the update, and otherwise cancels with ConditionalCheckFailed; the live service
# refuses a ConditionCheck and a Put on one item with this ValidationException (moto #7378).
@pytest.mark.parametrize("second", ["put", "delete",
                                    pytest.param("check", marks=pytest.mark.ddblocal_differs)])
def test_two_actions_on_one_item(raw, hash_table, second):
    key = k(new_key())
    a = {"put": put(hash_table, key), "delete": delete(hash_table, key),
         "check": check(hash_table, key, "attribute_not_exists(pk)")}[second]
    r = tw(raw, [update(hash_table, key, "SET a = :a", ExpressionAttributeValues={":a": {"S": "x"}}), a])
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", MULTIPLE)
    assert get(raw, hash_table, key) is None


# One item named once by table name and once by table ARN is still one item.
# ddblocal_differs: DynamoDB Local does not take table ARNs in transactions.
@pytest.mark.ddblocal_differs
def test_same_item_by_name_and_arn(raw, ddb, hash_table):
    key = k(new_key())
    r = tw(raw, [put(table_arn(ddb, hash_table), key), check(hash_table, key, "attribute_not_exists(pk)")])
    assert r.message == MULTIPLE


# The same key in two tables is two items.
def test_same_key_in_two_tables(raw, hash_table, make_table):
    other = make_table()
    key = k(new_key())
    assert tw(raw, [put(hash_table, key), put(other, key)]).status == 200
    assert get(raw, hash_table, key) == key and get(raw, other, key) == key


# A Put item over 400 KB fails the request (PutItem's text).
def test_item_too_large(raw, hash_table):
    r = tw(raw, [put(hash_table, sized_item(new_key(), 400 * 1024 + 1))])
    assert (r.error_type, r.message) == ("ValidationException",
                                         "Item size has exceeded the maximum allowed size")


# The items of a transaction total at most 4 MB (DynamoDB Local's text; the live text is not
# on record): eleven 390 KB puts are refused whole.
def test_aggregate_size_limit(raw, hash_table):
    base = new_key()
    items = [sized_item(f"{base}{i:02d}", 390000) for i in range(11)]
    r = tw(raw, [put(hash_table, it) for it in items])
    assert (r.error_type, r.message) == (
        "ValidationException", f"Transaction payload size cannot exceed 4MB. Payload Size: {11 * 390000}")
    assert get(raw, hash_table, k(f"{base}00")) is None


# --- behaviour ------------------------------------------------------------------------------

# Put, Update and Delete apply together; the reply is an empty object.
def test_put_update_delete(raw, hash_table):
    a, b, c = k(new_key()), k(new_key()), k(new_key())
    raw.call("PutItem", {"TableName": hash_table, "Item": dict(b, v={"S": "before"})})
    raw.call("PutItem", {"TableName": hash_table, "Item": dict(c, v={"S": "gone"})})
    r = tw(raw, [put(hash_table, dict(a, v={"S": "new"})),
                 update(hash_table, b, "SET v = :v", ExpressionAttributeValues={":v": {"S": "after"}}),
                 delete(hash_table, c)])
    assert (r.status, r.json) == (200, {})
    assert get(raw, hash_table, a) == dict(a, v={"S": "new"})
    assert get(raw, hash_table, b) == dict(b, v={"S": "after"})
    assert get(raw, hash_table, c) is None


# A passing ConditionCheck lets the other actions apply and leaves its item as it was.
def test_condition_check_passes(raw, hash_table):
    checked, written = k(new_key()), k(new_key())
    raw.call("PutItem", {"TableName": hash_table, "Item": dict(checked, s={"S": "active"})})
    r = tw(raw, [check(hash_table, checked, "#s = :v", ExpressionAttributeNames={"#s": "s"},
                       ExpressionAttributeValues={":v": {"S": "active"}}),
                 put(hash_table, written)])
    assert r.status == 200, r
    assert get(raw, hash_table, written) == written
    assert get(raw, hash_table, checked) == dict(checked, s={"S": "active"})


# A transaction of ConditionChecks alone is valid.
def test_condition_check_only(raw, hash_table):
    key = k(new_key())
    assert tw(raw, [check(hash_table, key, "attribute_not_exists(pk)")]).status == 200


# A failed condition cancels everything: the exception, its message listing every action's
# code in request order, "None" without a Message, the failed one with "The conditional
# request failed" (live service: no trailing dot), nothing written.
def test_condition_failure_wire_shape(raw, hash_table):
    fresh, taken = k(new_key()), k(new_key())
    raw.call("PutItem", {"TableName": hash_table, "Item": dict(taken, v={"N": "1"})})
    r = tw(raw, [put(hash_table, fresh, ConditionExpression="attribute_not_exists(pk)"),
                 put(hash_table, dict(taken, v={"N": "2"}), ConditionExpression="attribute_not_exists(pk)")])
    assert r.status == 400
    assert r.json["__type"] == "com.amazonaws.dynamodb.v20120810#TransactionCanceledException"
    assert r.json["Message"] == CANCELLED.format("None, ConditionalCheckFailed")
    assert "message" not in r.json
    assert r.json["CancellationReasons"] == [{"Code": "None"},
                                             {"Code": "ConditionalCheckFailed", "Message": CCF_MSG}]
    assert get(raw, hash_table, fresh) is None
    assert get(raw, hash_table, taken) == dict(taken, v={"N": "1"})


# Every failing action is reported, not only the first.
def test_two_conditions_fail(raw, hash_table):
    a, b = k(new_key()), k(new_key())
    for key in (a, b):
        raw.call("PutItem", {"TableName": hash_table, "Item": key})
    r = tw(raw, [put(hash_table, a, ConditionExpression="attribute_not_exists(pk)"),
                 delete(hash_table, b, ConditionExpression="attribute_not_exists(pk)")])
    assert r.message == CANCELLED.format("ConditionalCheckFailed, ConditionalCheckFailed")


# ReturnValuesOnConditionCheckFailure ALL_OLD puts the item in the action's reason; on a
# missing item there is nothing to return. A ConditionCheck's text ends with a dot, the other
# actions' not (DynamoDB Local; the live service's Put text has no dot).
def test_all_old_on_condition_failure(raw, hash_table):
    taken, missing = k(new_key()), k(new_key())
    raw.call("PutItem", {"TableName": hash_table, "Item": dict(taken, v={"S": "old"})})
    r = tw(raw, [check(hash_table, taken, "attribute_not_exists(pk)",
                       ReturnValuesOnConditionCheckFailure="ALL_OLD"),
                 update(hash_table, missing, "SET v = :v", ConditionExpression="attribute_exists(pk)",
                        ExpressionAttributeValues={":v": {"S": "x"}},
                        ReturnValuesOnConditionCheckFailure="ALL_OLD")])
    reasons = r.json["CancellationReasons"]
    assert reasons[0] == {"Item": dict(taken, v={"S": "old"}), "Code": "ConditionalCheckFailed",
                          "Message": CCF_MSG + "."}
    assert reasons[1] == {"Code": "ConditionalCheckFailed", "Message": CCF_MSG}
    assert get(raw, hash_table, missing) is None


# An Update is an upsert: with attribute_not_exists it creates the item; with
# attribute_exists on a missing item it cancels and creates nothing.
def test_update_upsert_and_no_ghost(raw, hash_table):
    made, ghost = k(new_key()), k(new_key())
    r = tw(raw, [update(hash_table, made, "SET s = :s", ConditionExpression="attribute_not_exists(pk)",
                        ExpressionAttributeValues={":s": {"S": "created"}})])
    assert r.status == 200, r
    assert get(raw, hash_table, made) == dict(made, s={"S": "created"})
    r = tw(raw, [update(hash_table, ghost, "ADD n :one", ConditionExpression="attribute_exists(pk)",
                        ExpressionAttributeValues={":one": {"N": "1"}})])
    assert codes(r) == ["ConditionalCheckFailed"]
    assert get(raw, hash_table, ghost) is None


# An update that cannot apply to the stored item cancels the transaction with that action's
# ValidationError and UpdateItem's text (the model's list of ValidationError messages).
# ddblocal_differs: DynamoDB Local fails the whole request with a ValidationException.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("expr,msg", [
    ("SET v = v + :n", "An operand in the update expression has an incorrect data type"),
    ("SET w = nope + :n", "The provided expression refers to an attribute that does not exist in the item"),
], ids=["type", "missing"])
def test_update_runtime_error_cancels(raw, hash_table, expr, msg):
    other, key = k(new_key()), k(new_key())
    raw.call("PutItem", {"TableName": hash_table, "Item": dict(key, v={"S": "text"})})
    r = tw(raw, [put(hash_table, other), update(hash_table, key, expr, ExpressionAttributeValues={":n": {"N": "1"}})])
    assert r.json["CancellationReasons"] == [{"Code": "None"}, {"Code": "ValidationError", "Message": msg}]
    assert get(raw, hash_table, other) is None


# An update growing the item past 400 KB is the action's ValidationError.
def test_update_too_large_cancels(raw, hash_table):
    key = k(new_key())
    call_retrying(raw, "PutItem", {"TableName": hash_table, "Item": sized_item(key["pk"]["S"], 300000)})
    r = tw(raw, [update(hash_table, key, "SET e = :e", ExpressionAttributeValues={":e": {"S": "y" * 200000}})])
    assert r.json["CancellationReasons"] == [{
        "Code": "ValidationError", "Message": "Item size to update has exceeded the maximum allowed size"}]


# Actions over several tables (one with a sort key) apply together.
def test_cross_table(raw, hash_table, range_table):
    a = k(new_key())
    b = {"pk": {"S": new_key()}, "sk": {"N": "7"}}
    assert tw(raw, [put(hash_table, a), put(range_table, dict(b, v={"S": "x"}))]).status == 200
    assert get(raw, hash_table, a) == a
    assert get(raw, range_table, b) == dict(b, v={"S": "x"})


# A table may be named by its ARN.
# ddblocal_differs: DynamoDB Local answers ResourceNotFoundException.
@pytest.mark.ddblocal_differs
def test_table_arn(raw, ddb, hash_table):
    key = k(new_key())
    assert tw(raw, [put(table_arn(ddb, hash_table), key)]).status == 200
    assert get(raw, hash_table, key) == key


# --- ClientRequestToken ---------------------------------------------------------------------

def counter_tx(table, key, token, n="1", **kw):
    return dict(TransactItems=[update(table, key, "ADD n :one", ExpressionAttributeValues={":one": {"N": n}})],
                ClientRequestToken=token, **kw)


# The same request with the same token is applied once; the repeats succeed.
def test_token_replay_applies_once(raw, hash_table):
    key, token = k(new_key()), uuid.uuid4().hex
    for _ in range(3):
        r = raw.call("TransactWriteItems", counter_tx(hash_table, key, token))
        assert (r.status, r.json) == (200, {})
    assert get(raw, hash_table, key) == dict(key, n={"N": "1"})


# ReturnConsumedCapacity may differ between the calls: it is not part of the request's
# identity.
def test_token_replay_other_return_consumed_capacity(raw, hash_table):
    key, token = k(new_key()), uuid.uuid4().hex
    assert raw.call("TransactWriteItems", counter_tx(hash_table, key, token)).status == 200
    r = raw.call("TransactWriteItems", counter_tx(hash_table, key, token, ReturnConsumedCapacity="TOTAL"))
    assert r.status == 200 and "ConsumedCapacity" in r.json
    assert get(raw, hash_table, key) == dict(key, n={"N": "1"})


# A different request with a used token is IdempotentParameterMismatchException (capital-M
# Message, model) and changes nothing.
def test_token_mismatch(raw, hash_table):
    key, token = k(new_key()), uuid.uuid4().hex
    assert raw.call("TransactWriteItems", counter_tx(hash_table, key, token)).status == 200
    r = raw.call("TransactWriteItems", counter_tx(hash_table, key, token, n="2"))
    assert (r.status, r.error_type) == (400, "IdempotentParameterMismatchException")
    assert r.json["__type"] == "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException"
    assert "Message" in r.json
    assert get(raw, hash_table, key) == dict(key, n={"N": "1"})


# A token whose first request failed is not used up: the retry executes (AWS: "If it failed
# the first time, DynamoDB will apply the writes in the request").
def test_token_after_failure_executes(raw, hash_table):
    key, token = k(new_key()), uuid.uuid4().hex
    body = dict(TransactItems=[put(hash_table, dict(key, v={"S": "x"}), ConditionExpression="attribute_exists(pk)")],
                ClientRequestToken=token)
    assert codes(raw.call("TransactWriteItems", body)) == ["ConditionalCheckFailed"]
    raw.call("PutItem", {"TableName": hash_table, "Item": key})
    assert raw.call("TransactWriteItems", body).status == 200
    assert get(raw, hash_table, key) == dict(key, v={"S": "x"})


# The token is remembered for 10 minutes of the clock, then the same request executes again.
@pytest.mark.sluice_only
def test_token_window_on_manual_clock(manual_server):
    from conftest import Raw
    raw = Raw(manual_server.endpoint)
    ep = manual_server.endpoint
    raw.call("CreateTable", {"TableName": "tok", "BillingMode": "PAY_PER_REQUEST",
                             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
    key = k("c")
    body = counter_tx("tok", key, "token-1")
    assert raw.call("TransactWriteItems", body).status == 200
    admin(ep, "POST", "/_sluice/clock", {"advance_ms": 599 * 1000})
    assert raw.call("TransactWriteItems", body).status == 200
    assert get(raw, "tok", key) == dict(key, n={"N": "1"})
    admin(ep, "POST", "/_sluice/clock", {"advance_ms": 2 * 1000})
    assert raw.call("TransactWriteItems", body).status == 200
    assert get(raw, "tok", key) == dict(key, n={"N": "2"})
    # The mismatch check ends with the window too.
    assert raw.call("TransactWriteItems", counter_tx("tok", key, "token-1", n="5")).error_type == \
        "IdempotentParameterMismatchException"
    admin(ep, "POST", "/_sluice/clock", {"advance_ms": 601 * 1000})
    assert raw.call("TransactWriteItems", counter_tx("tok", key, "token-1", n="5")).status == 200
    assert get(raw, "tok", key) == dict(key, n={"N": "7"})


# --- ConsumedCapacity -----------------------------------------------------------------------

# A transactional write costs twice a write: each 1 KB put 2 units, summed per table, with
# the WriteCapacityUnits split of transactional operations (AWS CLI example; live
# observation, paritysuite #57/#74).
# ddblocal_differs: DynamoDB Local reports 2.0 for the two puts and no WriteCapacityUnits.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_total(raw, hash_table):
    r = tw(raw, [put(hash_table, k(new_key())), put(hash_table, sized_item(new_key(), 1500))],
           ReturnConsumedCapacity="TOTAL")
    assert r.json == {"ConsumedCapacity": [
        {"TableName": hash_table, "CapacityUnits": 6.0, "WriteCapacityUnits": 6.0}]}


# One entry per table, in the order of first use (the model: "ordered according to the
# ordering of the TransactItems"); INDEXES adds the Table detail with the split.
# ddblocal_differs: DynamoDB Local orders its entries otherwise and leaves the split out.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_indexes_per_table(raw, hash_table, range_table):
    r = tw(raw, [put(range_table, {"pk": {"S": new_key()}, "sk": {"N": "1"}}),
                 put(hash_table, k(new_key())),
                 put(range_table, {"pk": {"S": new_key()}, "sk": {"N": "2"}})],
           ReturnConsumedCapacity="INDEXES")
    assert r.json["ConsumedCapacity"] == [
        {"TableName": range_table, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0,
         "Table": {"WriteCapacityUnits": 4.0, "CapacityUnits": 4.0}},
        {"TableName": hash_table, "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0,
         "Table": {"WriteCapacityUnits": 2.0, "CapacityUnits": 2.0}}]


# A ConditionCheck is billed as a write: 2 units for an item under 1 KB, and a conditional
# write costs no more than an unconditional one (live observation, paritysuite #67).
# ddblocal_differs: no WriteCapacityUnits split in DynamoDB Local.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_condition_check(raw, hash_table):
    key = k(new_key())
    raw.call("PutItem", {"TableName": hash_table, "Item": key})
    r = tw(raw, [check(hash_table, key, "attribute_exists(pk)"),
                 put(hash_table, k(new_key()), ConditionExpression="attribute_not_exists(pk)")],
           ReturnConsumedCapacity="TOTAL")
    assert r.json["ConsumedCapacity"] == [
        {"TableName": hash_table, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}]


# A replay reads the item again and reports read units: a 1.5 KB item costs 4 write units
# the first time and 2 read units (a transactional read, 4 KB rounding) on the replay (live
# observation, paritysuite #74; DG: "Subsequent TransactWriteItems calls with the same client
# token return the number of read capacity units consumed in reading the item").
# ddblocal_differs: DynamoDB Local repeats the first call's figures.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_replay_is_read(raw, hash_table):
    item, token = sized_item(new_key(), 1500), uuid.uuid4().hex
    body = dict(TransactItems=[put(hash_table, item)], ClientRequestToken=token,
                ReturnConsumedCapacity="TOTAL")
    r = raw.call("TransactWriteItems", body)
    assert r.json["ConsumedCapacity"] == [
        {"TableName": hash_table, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}]
    r = raw.call("TransactWriteItems", body)
    assert r.json["ConsumedCapacity"] == [
        {"TableName": hash_table, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]


# The entry of a table named by its ARN carries the ARN.
# ddblocal_differs: no WriteCapacityUnits split in DynamoDB Local.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_arn_name(raw, ddb, hash_table):
    arn = table_arn(ddb, hash_table)
    r = tw(raw, [put(arn, k(new_key()))], ReturnConsumedCapacity="TOTAL")
    assert r.json["ConsumedCapacity"] == [{"TableName": arn, "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}]


# GSI writes are charged to the index, doubled, and listed under INDEXES.
# ddblocal_differs: DynamoDB Local reports no index capacity for transactions.
@pytest.mark.ddblocal_differs
def test_consumed_capacity_gsi(raw, make_table):
    t = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[{
        "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}])
    r = tw(raw, [put(t, dict(k(new_key()), g={"S": "x"}))], ReturnConsumedCapacity="INDEXES")
    assert r.json["ConsumedCapacity"] == [{
        "TableName": t, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0,
        "Table": {"WriteCapacityUnits": 2.0, "CapacityUnits": 2.0},
        "GlobalSecondaryIndexes": {"byg": {"WriteCapacityUnits": 2.0, "CapacityUnits": 2.0}}}]


# --- ItemCollectionMetrics ------------------------------------------------------------------

# On a table with an LSI, ReturnItemCollectionMetrics SIZE lists the collection of each item
# written, per table (the AWS CLI example's shape).
# ddblocal_differs: DynamoDB Local returns no ItemCollectionMetrics from transactions.
@pytest.mark.ddblocal_differs
def test_item_collection_metrics(raw, make_table):
    t = make_table(range_key=("sk", "N"), extra_attrs=[("l", "S")], LocalSecondaryIndexes=[{
        "IndexName": "byl", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                          {"AttributeName": "l", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"}}])
    pk = new_key()
    r = tw(raw, [put(t, {"pk": {"S": pk}, "sk": {"N": "1"}, "l": {"S": "a"}}),
                 check(t, {"pk": {"S": pk}, "sk": {"N": "2"}}, "attribute_not_exists(pk)")],
           ReturnItemCollectionMetrics="SIZE")
    assert r.status == 200, r
    assert r.json["ItemCollectionMetrics"] == {t: [
        {"ItemCollectionKey": {"pk": {"S": pk}}, "SizeEstimateRangeGB": [0.0, 1.0]}]}
