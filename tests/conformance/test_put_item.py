"""PutItem: serialization, validation, behaviour.

Most item tests share the session tables hash_table (pk S) and range_table (pk S, sk N)
and write under fresh keys. Real-service texts: dynalite test/putItem.js and db/index.js
(recorded against live DynamoDB), facts §1.4; where DynamoDB Local words a text
differently the exact-text test is marked ddblocal_differs.
"""
import base64
import uuid

import pytest

from conftest import new_key

B64 = lambda b: base64.b64encode(b).decode()  # noqa: E731


def put(raw, table, item, **kw):
    return raw.call("PutItem", dict(TableName=table, Item=item, **kw))


# --- serialization -------------------------------------------------------------------------

# An AttributeValue member of the wrong JSON type is a SerializationException.
# ddblocal_differs: DynamoDB Local stores the number as a string.
# Source: dynalite test/helpers.js assertType, String case (live texts).
@pytest.mark.ddblocal_differs
def test_string_value_of_wrong_json_type_is_serialization_exception(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": 23}})
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "NUMBER_VALUE cannot be converted to String"


# --- validation: ReturnValues -------------------------------------------------------------

# PutItem only knows the old image: ALL_NEW and the UPDATED_* values are rejected.
@pytest.mark.parametrize("rv", ["ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"])
def test_return_values_other_than_all_old_or_none_rejected(raw, hash_table, rv):
    r = put(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues=rv)
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Return values set to invalid value".
# Source: dynalite test/putItem.js (live text).
@pytest.mark.ddblocal_differs
def test_return_values_all_new_message(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues="ALL_NEW")
    assert r.message == "ReturnValues can only be ALL_OLD or NONE"


# A value outside the enum fails the model constraint first.
# ddblocal_differs: DynamoDB Local says "Return values set to invalid value".
# Source: dynalite test/putItem.js (live; the set is printed in Coral's hash order).
@pytest.mark.ddblocal_differs
def test_return_values_not_in_enum_message(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues="BOGUS")
    assert r.error_type == "ValidationException"
    assert r.message == ("1 validation error detected: Value 'BOGUS' at 'returnValues' failed to "
                         "satisfy constraint: Member must satisfy enum value set: "
                         "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")


# --- validation: attribute values ----------------------------------------------------------

# Each case: one invalid non-key attribute value, and the message DynamoDB Local and the
# real service (dynalite test/putItem.js, facts §1.4) both give.
BAD_VALUES = [
    ("empty_value", {}, "Supplied AttributeValue is empty, must contain exactly one of the "
                        "supported datatypes"),
    ("two_types", {"S": "a", "N": "1"}, "Supplied AttributeValue has more than one datatypes set, "
                                        "must contain exactly one of the supported datatypes"),
    ("null_false", {"NULL": False}, "One or more parameter values were invalid: Null attribute "
                                    "value types must have the value of true"),
    ("number_overflow", {"N": "1e126"}, "Number overflow. Attempting to store a number with "
                                        "magnitude larger than supported range"),
    ("number_underflow", {"N": "1e-131"}, "Number underflow. Attempting to store a number with "
                                          "magnitude smaller than supported range"),
    ("empty_string_set", {"SS": []}, "One or more parameter values were invalid: An string set  "
                                     "may not be empty"),
    ("empty_number_set", {"NS": []}, "One or more parameter values were invalid: An number set  "
                                     "may not be empty"),
    ("empty_binary_set", {"BS": []}, "One or more parameter values were invalid: Binary sets "
                                     "should not be empty"),
    ("duplicate_numbers", {"NS": ["1", "1"]}, "Input collection contains duplicates"),
    ("numerically_equal_numbers", {"NS": ["1", "1.0"]}, "Input collection contains duplicates"),
    ("nested_empty_value", {"L": [{"S": "a"}, {}]}, "Supplied AttributeValue is empty, must "
                                                    "contain exactly one of the supported datatypes"),
]


# Invalid attribute values are rejected with the exact DynamoDB texts.
@pytest.mark.parametrize("value,msg", [c[1:] for c in BAD_VALUES], ids=[c[0] for c in BAD_VALUES])
def test_invalid_attribute_value(raw, hash_table, value, msg):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": value})
    assert r.status == 400, r
    assert r.error_type == "ValidationException"
    assert r.message == msg


BAD_NUMBERS = [
    ("not_a_number", {"N": "abc"}, ": abc"),
    ("empty_number", {"N": ""}, ""),
    ("bad_number_in_set", {"NS": ["1", "x"]}, ": x"),
    ("nested_bad_number", {"M": {"x": {"N": "zz"}}}, ": zz"),
]


# Text that is not a number is a validation error wherever it appears.
@pytest.mark.parametrize("value,suffix", [c[1:] for c in BAD_NUMBERS], ids=[c[0] for c in BAD_NUMBERS])
def test_invalid_number(raw, hash_table, value, suffix):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": value})
    assert r.status == 400, r
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "A value provided cannot be converted into a number".
# The service names the offending text: "The parameter cannot be converted to a numeric value: NaN"
# is reported from live AWS in jovotech/jovo-framework#197 and internetarchive/
# internet-archive-voice-apps#225; dynalite and Alternator's tests record the same text.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("value,suffix", [c[1:] for c in BAD_NUMBERS], ids=[c[0] for c in BAD_NUMBERS])
def test_invalid_number_message(raw, hash_table, value, suffix):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": value})
    assert r.message == "The parameter cannot be converted to a numeric value" + suffix


# Which error wins when one value has two: each datatype's own check comes before the rule
# of exactly one datatype, so two types with a bad number is the number's error, whichever
# member comes first (dynalite validations/index.js validateAttributeValue, whose texts and
# order were taken from the service; DynamoDB Local agrees, with its own number text).
@pytest.mark.parametrize("value", [{"S": "a", "N": "zz"}, {"N": "zz", "S": "a"},
                                   {"BOOL": True, "N": "zz"}, {"S": "a", "NS": ["1", "x"]}],
                         ids=["s_first", "n_first", "bool", "set"])
def test_bad_number_wins_over_two_types(raw, hash_table, value):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": value})
    assert r.status == 400, r
    assert r.error_type == "ValidationException"
    assert "more than one datatypes" not in r.message
    assert "numeric value" in r.message or "number" in r.message


# And NULL: false beside another type is NULL's error.
def test_null_false_wins_over_two_types(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"S": "a", "NULL": False}})
    assert r.status == 400, r
    assert r.message == ("One or more parameter values were invalid: Null attribute value types "
                         "must have the value of true")


# More than 38 significant digits cannot be stored.
def test_number_too_precise_is_validation_exception(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"N": "1" * 39}})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "DynamoDB only supports precision up to 38 digits".
# Source: dynalite test/putItem.js (live text).
@pytest.mark.ddblocal_differs
def test_number_too_precise_message(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"N": "1" * 39}})
    assert r.message == "Attempting to store more than 38 significant digits in a Number"


# Duplicate strings in a set are rejected, the text listing the set.
def test_duplicate_strings_in_set(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"SS": ["a", "a"]}})
    assert r.error_type == "ValidationException"
    assert r.message.startswith("One or more parameter values were invalid: Input collection [a, a] "
                                "contains duplicates")


# The live text ends with a full stop.
# ddblocal_differs: DynamoDB Local omits the final ".".
# Source: dynalite test/putItem.js (live text).
@pytest.mark.ddblocal_differs
def test_duplicate_strings_in_set_message(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"SS": ["a", "a"]}})
    assert r.message == ("One or more parameter values were invalid: Input collection [a, a] "
                         "contains duplicates.")


# Duplicate binaries in a set are rejected (compared as bytes).
def test_duplicate_binaries_in_set(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"BS": ["Yg==", "Yg=="]}})
    assert r.error_type == "ValidationException"
    assert r.message.endswith("of type BS contains duplicates.")


# ddblocal_differs: DynamoDB Local says "...Input collection of type BS contains duplicates."
# Source: dynalite test/putItem.js (live text; note the missing space before "of").
@pytest.mark.ddblocal_differs
def test_duplicate_binaries_in_set_message(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}, "a": {"BS": ["Yg==", "Yg=="]}})
    assert r.message == ("One or more parameter values were invalid: Input collection "
                         "[Yg==, Yg==]of type BS contains duplicates.")


# Attribute values are checked before the table is looked up.
# ddblocal_differs: DynamoDB Local looks up the table first (ResourceNotFoundException).
# Source: dynalite validations run before the action (index.js), as copied from live behaviour;
# ACKQ DDB-TABLE-442 (request validation fires before existence checks).
@pytest.mark.ddblocal_differs
def test_values_validated_before_table_lookup(raw):
    r = put(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}, "a": {}})
    assert r.error_type == "ValidationException"


# --- validation: keys ----------------------------------------------------------------------

# The item must contain every key attribute.
def test_missing_hash_key(raw, hash_table):
    r = put(raw, hash_table, {"other": {"S": "a"}})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "One of the required keys was not given a value".
# Source: dynalite test/putItem.js and db/index.js validateItem (live text).
@pytest.mark.ddblocal_differs
def test_missing_key_message(raw, hash_table, range_table):
    r = put(raw, hash_table, {"other": {"S": "a"}})
    assert r.message == "One or more parameter values were invalid: Missing the key pk in the item"
    r = put(raw, range_table, {"pk": {"S": "a"}})
    assert r.message == "One or more parameter values were invalid: Missing the key sk in the item"


# A key attribute of the wrong scalar type is a type mismatch.
@pytest.mark.parametrize("value", [{"N": "1"}, {"B": "YQ=="}])
def test_key_type_mismatch(raw, hash_table, value):
    r = put(raw, hash_table, {"pk": value})
    assert r.error_type == "ValidationException"
    assert r.message.startswith("One or more parameter values were invalid: Type mismatch for key")


# The text names the key and both types, also for a set where a scalar is expected.
# ddblocal_differs: DynamoDB Local stops after "Type mismatch for key", and says "Invalid
# attribute value type" for a set. Source: dynalite test/putItem.js and db/index.js
# validateItem (live texts).
@pytest.mark.ddblocal_differs
def test_key_type_mismatch_message(raw, hash_table, range_table):
    prefix = "One or more parameter values were invalid: Type mismatch for key "
    assert put(raw, hash_table, {"pk": {"N": "1"}}).message == prefix + "pk expected: S actual: N"
    assert put(raw, hash_table, {"pk": {"SS": ["a"]}}).message == prefix + "pk expected: S actual: SS"
    r = put(raw, range_table, {"pk": {"S": "a"}, "sk": {"S": "1"}})
    assert r.message == prefix + "sk expected: N actual: S"


# Key attributes cannot be empty strings (non-key attributes can).
def test_empty_string_key(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": ""}})
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values are not valid. The AttributeValue for a key "
                         "attribute cannot contain an empty string value. Key: pk")


# Key attributes cannot be empty binaries either.
def test_empty_binary_key(raw, make_table):
    name = make_table(hash_key=("bk", "B"))
    r = put(raw, name, {"bk": {"B": ""}})
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values are not valid. The AttributeValue for a key "
                         "attribute cannot contain an empty binary value. Key: bk")


# A hash key may be 2048 bytes and a range key 1024 bytes, not one byte more.
def test_key_size_limits(raw, hash_table, make_table):
    assert put(raw, hash_table, {"pk": {"S": "é" * 1024}}).status == 200
    r = put(raw, hash_table, {"pk": {"S": "é" * 1024 + "a"}})
    assert r.error_type == "ValidationException"
    rt = make_table(range_key=("sk", "S"))
    assert put(raw, rt, {"pk": {"S": "a"}, "sk": {"S": "a" * 1024}}).status == 200
    r = put(raw, rt, {"pk": {"S": "a"}, "sk": {"S": "a" * 1025}})
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Hash primary key values must be under 2048 bytes, and
# range primary key values must be under 1024 bytes" for both.
# Source: dynalite db/index.js checkKeySize (live texts; "of2048" without a space is real).
@pytest.mark.ddblocal_differs
def test_key_size_messages(raw, hash_table, make_table):
    r = put(raw, hash_table, {"pk": {"S": "a" * 2049}})
    assert r.message == ("One or more parameter values were invalid: Size of hashkey has exceeded "
                         "the maximum size limit of2048 bytes")
    rt = make_table(range_key=("sk", "S"))
    r = put(raw, rt, {"pk": {"S": "a"}, "sk": {"S": "a" * 1025}})
    assert r.message == ("One or more parameter values were invalid: Aggregated size of all range "
                         "keys has exceeded the size limit of 1024 bytes")


# An item may be 400 KB (409600 bytes: names plus values), not one byte more.
def test_item_size_limit(raw, hash_table):
    k = "k" * 40  # item = "pk"(2) + key(40) + "x"(1) + value
    assert put(raw, hash_table, {"pk": {"S": k}, "x": {"S": "v" * (409600 - 43)}}).status == 200
    r = put(raw, hash_table, {"pk": {"S": k}, "x": {"S": "v" * (409601 - 43)}})
    assert r.status == 400
    assert r.error_type == "ValidationException"
    assert r.message == "Item size has exceeded the maximum allowed size"


# --- behaviour -----------------------------------------------------------------------------

# Writing to an unknown table is ResourceNotFoundException.
def test_unknown_table_is_resource_not_found(raw):
    r = put(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}})
    assert r.status == 400
    assert r.error_type == "ResourceNotFoundException"


# The data-plane not-found text does not name the table.
# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# Source: facts §1.4; dynalite db/index.js getTable (live).
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    assert put(raw, "t_" + uuid.uuid4().hex, {"pk": {"S": "a"}}).message == "Requested resource not found"


# A successful put returns an empty object by default (ReturnValues NONE).
def test_default_response_is_empty(raw, hash_table):
    r = put(raw, hash_table, {"pk": {"S": new_key()}})
    assert r.status == 200
    assert r.json == {}
    r = put(raw, hash_table, {"pk": {"S": new_key()}}, ReturnValues="NONE")
    assert r.json == {}


# ALL_OLD returns the replaced item, and nothing when there was none.
def test_return_values_all_old(ddb, hash_table):
    k = {"pk": {"S": new_key()}}
    r = ddb.put_item(TableName=hash_table, Item={**k, "v": {"N": "1"}}, ReturnValues="ALL_OLD")
    assert "Attributes" not in r
    r = ddb.put_item(TableName=hash_table, Item={**k, "w": {"S": "x"}}, ReturnValues="ALL_OLD")
    assert r["Attributes"] == {**k, "v": {"N": "1"}}


# A put replaces the whole item: attributes of the old item are not merged in.
def test_put_replaces_whole_item(ddb, hash_table):
    k = {"pk": {"S": new_key()}}
    ddb.put_item(TableName=hash_table, Item={**k, "a": {"S": "1"}, "b": {"S": "2"}})
    ddb.put_item(TableName=hash_table, Item={**k, "c": {"S": "3"}})
    assert ddb.get_item(TableName=hash_table, Key=k, ConsistentRead=True)["Item"] == {**k, "c": {"S": "3"}}


def sets_sorted(v):
    """v with the members of every set sorted (set order is not defined)."""
    (t, x), = v.items()
    if t in ("SS", "NS", "BS"):
        return {t: sorted(x)}
    if t == "L":
        return {t: [sets_sorted(e) for e in x]}
    if t == "M":
        return {t: {k: sets_sorted(e) for k, e in x.items()}}
    return v


# Every type, nested maps and lists, empty strings/binaries/lists/maps outside keys, unicode
# and binary bytes all come back exactly as written.
def test_round_trip_every_type(raw, hash_table):
    k = new_key()
    item = {
        "pk": {"S": k},
        "s": {"S": "héllo ☃ \u0000 end"}, "es": {"S": ""},
        "n": {"N": "-12.5"}, "b": {"B": B64(bytes(range(256)))}, "eb": {"B": ""},
        "t": {"BOOL": True}, "f": {"BOOL": False}, "z": {"NULL": True},
        "ss": {"SS": ["x", "y", "é"]}, "ns": {"NS": ["1", "-2.5", "300"]},
        "bs": {"BS": [B64(b"\x00\x01"), B64(b"\xff")]},
        "l": {"L": [{"S": "a"}, {"N": "1"}, {"L": []}, {"M": {}}, {"NULL": True},
                    {"L": [{"M": {"deep": {"L": [{"BOOL": False}]}}}]}]},
        "m": {"M": {"a": {"S": "b"}, "inner": {"M": {"x": {"SS": ["q"]}}}}},
        "el": {"L": []}, "em": {"M": {}},
        "ü mlaut name": {"S": "v"},
    }
    assert put(raw, hash_table, item).status == 200
    got = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": {"S": k}},
                               "ConsistentRead": True}).json["Item"]
    assert {a: sets_sorted(v) for a, v in got.items()} == {a: sets_sorted(v) for a, v in item.items()}


# Numbers are stored by value: they come back without leading or trailing zeros, without
# exponent and with "-0" as "0".
@pytest.mark.parametrize("sent,back", [
    ("0012.3400", "12.34"), ("1e3", "1000"), ("1.5E-2", "0.015"), ("-0", "0"),
    ("100", "100"), ("-007", "-7"), ("1.23E+5", "123000")])
def test_numbers_come_back_canonical(ddb, hash_table, sent, back):
    k = {"pk": {"S": new_key()}}
    ddb.put_item(TableName=hash_table, Item={**k, "n": {"N": sent}})
    assert ddb.get_item(TableName=hash_table, Key=k, ConsistentRead=True)["Item"]["n"] == {"N": back}


# A numeric key is matched by value: "1.0" and "1" address the same item.
def test_numeric_key_matched_by_value(ddb, range_table):
    pk = {"S": new_key()}
    ddb.put_item(TableName=range_table, Item={"pk": pk, "sk": {"N": "1.0"}, "v": {"S": "a"}})
    ddb.put_item(TableName=range_table, Item={"pk": pk, "sk": {"N": "1"}, "v": {"S": "b"}})
    got = ddb.get_item(TableName=range_table, Key={"pk": pk, "sk": {"N": "01.00"}}, ConsistentRead=True)
    assert got["Item"] == {"pk": pk, "sk": {"N": "1"}, "v": {"S": "b"}}


# The table's ARN is accepted as TableName.
def test_table_arn_accepted(raw, ddb, hash_table):
    arn = raw.call("DescribeTable", {"TableName": hash_table}).json["Table"]["TableArn"]
    k = {"pk": {"S": new_key()}}
    r = put(raw, arn, k)
    assert r.status == 200, r
    assert ddb.get_item(TableName=hash_table, Key=k, ConsistentRead=True)["Item"] == k


# An index key present in an item must have the index's type; an item without it is
# simply absent from the (sparse) index. Source: dynalite test/putItem.js (live text).
# ddblocal_differs: DynamoDB Local stops after "Type mismatch for Index Key".
@pytest.mark.ddblocal_differs
def test_index_key_type_mismatch(raw, make_table):
    name = make_table(range_key=("sk", "S"), extra_attrs=[("g", "S")],
                      GlobalSecondaryIndexes=[{"IndexName": "byg",
                                               "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                               "Projection": {"ProjectionType": "ALL"}}])
    r = put(raw, name, {"pk": {"S": "a"}, "sk": {"S": "1"}, "g": {"N": "1"}})
    assert r.error_type == "ValidationException"
    assert r.message == ("One or more parameter values were invalid: Type mismatch for Index Key g "
                         "Expected: S Actual: N IndexName: byg")
    assert put(raw, name, {"pk": {"S": "a"}, "sk": {"S": "1"}}).status == 200
