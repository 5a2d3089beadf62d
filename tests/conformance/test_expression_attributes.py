"""ExpressionAttributeNames and ExpressionAttributeValues, and the lexical rules every
expression shares: names and values that are undefined or unused, empty maps, bad keys,
length limits, reserved words, and the shape of syntax errors.

The vehicle is UpdateItem (it has two expressions) plus GetItem and Query where a rule is
specific to them. Texts are DynamoDB Local's; dynalite test/updateItem.js and test/scan.js
(recorded against the live service) give the same texts for every rule they cover.
"""
import pytest

from conftest import error_of, invalid, new_key

V1 = {":v": {"N": "1"}}


def update(raw, table, expr, names=None, values=None, key=None, **kw):
    body = dict(TableName=table, Key={"pk": {"S": key or new_key()}}, UpdateExpression=expr, **kw)
    if names is not None:
        body["ExpressionAttributeNames"] = names
    if values is not None:
        body["ExpressionAttributeValues"] = values
    return raw.call("UpdateItem", body)


# --- validation: the maps themselves ---------------------------------------------------------

# An empty map is rejected outright, before any expression is looked at.
def test_empty_names_map(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v", names={}, values=V1)
    assert error_of(r) == invalid("ExpressionAttributeNames must not be empty")


# Likewise for an empty values map.
def test_empty_values_map(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v", values={})
    assert error_of(r) == invalid("ExpressionAttributeValues must not be empty")


# A name key must be "#" followed by at least one alphanumeric or underscore character.
@pytest.mark.parametrize("key", ["a", "#", "#a-b", "a#"])
def test_invalid_name_key(raw, hash_table, key):
    r = update(raw, hash_table, "SET a = :v", names={key: "x"}, values=V1)
    assert error_of(r) == invalid(f'ExpressionAttributeNames contains invalid key: Syntax error; key: "{key}"')


# A value key must be ":" followed by at least one alphanumeric or underscore character.
@pytest.mark.parametrize("key", ["v", ":", ":a-b"])
def test_invalid_value_key(raw, hash_table, key):
    r = update(raw, hash_table, "SET a = :v", values={key: {"N": "1"}, ":v": {"N": "1"}})
    assert error_of(r) == invalid(f'ExpressionAttributeValues contains invalid key: Syntax error; key: "{key}"')


# A name may not map to the empty string.
def test_empty_attribute_name(raw, hash_table):
    r = update(raw, hash_table, "SET #a = :v", names={"#a": ""}, values=V1)
    assert error_of(r) == invalid("ExpressionAttributeNames contains invalid value: Empty attribute name for key #a")


# Placeholders are at most 255 characters long, the "#" or ":" included (developer guide,
# service quotas: "the maximum length of any single expression attribute name or expression
# attribute value is 255 bytes").
def test_placeholder_length_limit(raw, hash_table):
    assert update(raw, hash_table, "SET #" + "n" * 254 + " = :" + "v" * 254,
                  names={"#" + "n" * 254: "a"}, values={":" + "v" * 254: {"N": "1"}}).status == 200
    r = update(raw, hash_table, "SET #" + "n" * 255 + " = :v", names={"#" + "n" * 255: "a"}, values=V1)
    assert error_of(r) == invalid("ExpressionAttributeNames contains invalid key: The expression attribute map "
                                  "contains a key that is too long; size of key: 256")
    r = update(raw, hash_table, "SET a = :" + "v" * 255, values={":" + "v" * 255: {"N": "1"}})
    assert error_of(r) == invalid("ExpressionAttributeValues contains invalid key: The expression attribute map "
                                  "contains a key that is too long;")


# An attribute name may be up to 65535 bytes. (DynamoDB Local words the error "Expression
# AttributeNames contains invalid value: Attribute name is too large, must be less than 65536
# bytes for key #a"; the service model also bounds the map values at 65535, so the live text
# may be a model-constraint text instead: only the exception is checked.)
def test_attribute_name_length_limit(raw, hash_table):
    assert update(raw, hash_table, "SET #a = :v", names={"#a": "x" * 65535}, values=V1).status == 200
    r = update(raw, hash_table, "SET #a = :v", names={"#a": "x" * 65536}, values=V1)
    assert r.status == 400 and r.error_type == "ValidationException"


# Values are checked like item values; the text names the placeholder.
BAD_VALUES = [
    ("empty", {}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ("two_types", {"S": "a", "N": "1"}, "Supplied AttributeValue has more than one datatypes set, must contain "
                                        "exactly one of the supported datatypes"),
    ("empty_string_set", {"SS": []}, "One or more parameter values were invalid: An string set  may not be empty"),
    ("empty_number_set", {"NS": []}, "One or more parameter values were invalid: An number set  may not be empty"),
    ("null_false", {"NULL": False}, "One or more parameter values were invalid: Null attribute value types must "
                                    "have the value of true"),
    ("nested_empty", {"L": [{}]}, "Supplied AttributeValue is empty, must contain exactly one of the supported "
                                  "datatypes"),
    ("overflow", {"N": "1e126"}, "Number overflow. Attempting to store a number with magnitude larger than "
                                 "supported range"),
]


# Each invalid value gets the item-value text, prefixed and suffixed with the placeholder.
@pytest.mark.parametrize("value,msg", [c[1:] for c in BAD_VALUES], ids=[c[0] for c in BAD_VALUES])
def test_invalid_value(raw, hash_table, value, msg):
    r = update(raw, hash_table, "SET a = :v", values={":v": value})
    assert error_of(r) == invalid(f"ExpressionAttributeValues contains invalid value: {msg} for key :v")


# A number that does not parse is rejected the same way.
def test_invalid_number_value(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v", values={":v": {"N": "x"}})
    assert r.error_type == "ValidationException"
    assert r.message.startswith("ExpressionAttributeValues contains invalid value: ")
    assert r.message.endswith(" for key :v")


# ddblocal_differs: DynamoDB Local says "A value provided cannot be converted into a number".
# Source: dynalite test/updateItem.js "empty/invalid numbers in ExpressionAttributeValues" (live).
@pytest.mark.ddblocal_differs
def test_invalid_number_value_message(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v", values={":v": {"N": "x"}})
    assert r.message == ("ExpressionAttributeValues contains invalid value: The parameter cannot be converted "
                         "to a numeric value: x for key :v")


# Maps are only allowed together with an expression that could use them.
def test_names_without_expression(raw, hash_table):
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": {"S": new_key()}},
                             "ExpressionAttributeNames": {"#a": "a"}})
    assert error_of(r) == invalid("ExpressionAttributeNames can only be specified when using expressions")
    r = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": {"S": new_key()}},
                             "ExpressionAttributeNames": {"#a": "a"}})
    assert error_of(r) == invalid("ExpressionAttributeNames can only be specified when using expressions")


# The values text names the expressions that are missing, per operation.
def test_values_without_expression(raw, hash_table):
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": {"S": new_key()}},
                             "ExpressionAttributeValues": V1})
    assert error_of(r) == invalid("ExpressionAttributeValues can only be specified when using expressions: "
                                  "ConditionExpression is null")
    r = raw.call("UpdateItem", {"TableName": hash_table, "Key": {"pk": {"S": new_key()}},
                                "ExpressionAttributeValues": V1})
    assert error_of(r) == invalid("ExpressionAttributeValues can only be specified when using expressions: "
                                  "UpdateExpression and ConditionExpression are null")
    r = raw.call("Scan", {"TableName": hash_table, "ExpressionAttributeValues": V1})
    assert error_of(r) == invalid("ExpressionAttributeValues can only be specified when using expressions: "
                                  "FilterExpression is null")


# --- validation: undefined and unused placeholders ---------------------------------------------

# A placeholder the expression uses must be defined.
def test_undefined_name(raw, hash_table):
    r = update(raw, hash_table, "SET #a = :v", values=V1)
    assert error_of(r) == invalid("Invalid UpdateExpression: An expression attribute name used in the document "
                                  "path is not defined; attribute name: #a")
    r = update(raw, hash_table, "SET #a = :v", names={"#b": "x"}, values=V1)
    assert r.message.endswith("attribute name: #a")


# Likewise for values.
def test_undefined_value(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v")
    assert error_of(r) == invalid("Invalid UpdateExpression: An expression attribute value used in expression is "
                                  "not defined; attribute value: :v")


# A defined placeholder that no expression of the request uses is an error.
def test_unused_name(raw, hash_table):
    r = update(raw, hash_table, "SET #a = :v", names={"#a": "a", "#b": "b"}, values=V1)
    assert error_of(r) == invalid("Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}")


# Likewise for values.
def test_unused_value(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v", values={":v": {"N": "1"}, ":w": {"N": "2"}})
    assert error_of(r) == invalid("Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}")


# All unused keys are listed (in no defined order).
def test_several_unused_names(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v", names={"#b": "b", "#c": "c"}, values=V1)
    assert r.message in ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#b, #c}",
                         "Value provided in ExpressionAttributeNames unused in expressions: keys: {#c, #b}")


# A placeholder counts as used if any expression of the request uses it, and may be used
# by several of them.
def test_placeholders_shared_between_expressions(raw, hash_table):
    k = new_key()
    assert update(raw, hash_table, "SET #a = :v", names={"#a": "a"}, values=V1, key=k).status == 200
    r = update(raw, hash_table, "SET b = :w", ConditionExpression="#a = :v", names={"#a": "a"},
               values={":v": {"N": "1"}, ":w": {"N": "2"}}, key=k)
    assert r.status == 200, r
    r = update(raw, hash_table, "SET #a = :v", ConditionExpression="#a = :v", names={"#a": "a"}, values=V1, key=k)
    assert r.status == 200, r


# Names used in a ProjectionExpression and values used in a FilterExpression count too.
def test_placeholders_in_query_expressions(raw, range_table):
    r = raw.call("Query", {"TableName": range_table, "KeyConditionExpression": "#p = :p",
                           "FilterExpression": "#x = :x", "ProjectionExpression": "#y",
                           "ExpressionAttributeNames": {"#p": "pk", "#x": "x", "#y": "y"},
                           "ExpressionAttributeValues": {":p": {"S": new_key()}, ":x": {"N": "1"}}})
    assert r.status == 200, r
    r = raw.call("Query", {"TableName": range_table, "KeyConditionExpression": "pk = :p",
                           "ProjectionExpression": "#y", "ExpressionAttributeNames": {"#y": "y", "#z": "z"},
                           "ExpressionAttributeValues": {":p": {"S": new_key()}}})
    assert error_of(r) == invalid("Value provided in ExpressionAttributeNames unused in expressions: keys: {#z}")


# --- behaviour: names ----------------------------------------------------------------------------

# A name placeholder stands for the whole attribute name: dots and brackets in it are literal.
def test_name_with_dots_is_one_attribute(raw, ddb, hash_table):
    k = new_key()
    assert update(raw, hash_table, "SET #a = :v", names={"#a": "a.b[0]"}, values=V1, key=k).status == 200
    item = ddb.get_item(TableName=hash_table, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]
    assert item == {"pk": {"S": k}, "a.b[0]": {"N": "1"}}


# Any character may appear in a name reached through a placeholder, and placeholders may
# start with a digit or underscore, unlike plain names.
def test_placeholder_spellings(raw, ddb, hash_table):
    k = new_key()
    silly = "3 any character!.#=:[]"
    for ph in ("#Alpha_1", "#123", "#_"):
        assert update(raw, hash_table, f"SET {ph} = :v", names={ph: silly}, values=V1, key=k).status == 200
    for ph in (":Alpha_1", ":123", ":_"):
        assert update(raw, hash_table, f"SET a = {ph}", values={ph: {"N": "2"}}, key=k).status == 200
    item = ddb.get_item(TableName=hash_table, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]
    assert item[silly] == {"N": "1"} and item["a"] == {"N": "2"}


# Attribute names are case-sensitive.
def test_names_are_case_sensitive(raw, ddb, hash_table):
    k = new_key()
    assert update(raw, hash_table, "SET abc = :v, ABC = :w", values={":v": {"N": "1"}, ":w": {"N": "2"}},
                  key=k).status == 200
    item = ddb.get_item(TableName=hash_table, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]
    assert item["abc"] == {"N": "1"} and item["ABC"] == {"N": "2"}


# --- reserved words ------------------------------------------------------------------------------

# A reserved word cannot be used as a plain name in any expression; the text repeats the word
# as written. A placeholder is the way round it.
RESERVED = ["name", "STATUS", "Date", "user", "key", "value", "year", "count", "comment", "data",
            "timestamp", "type", "ttl", "items", "abOrt", "zone", "level", "region", "state", "values",
            "true", "null", "views"]


# Each reserved word, in any case, is rejected with the word as written.
@pytest.mark.parametrize("word", RESERVED)
def test_reserved_word_rejected(raw, hash_table, word):
    r = update(raw, hash_table, f"SET {word} = :v", values=V1)
    assert error_of(r) == invalid(f"Invalid UpdateExpression: Attribute name is a reserved keyword; "
                                  f"reserved keyword: {word}")


# The same check runs in every expression kind, also inside nested paths.
def test_reserved_word_in_each_expression(raw, hash_table, range_table):
    r = update(raw, hash_table, "SET a = :v", ConditionExpression="attribute_exists(a.data)", values=V1)
    assert error_of(r) == invalid("Invalid ConditionExpression: Attribute name is a reserved keyword; "
                                  "reserved keyword: data")
    r = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": {"S": new_key()}},
                             "ProjectionExpression": "a, Name"})
    assert error_of(r) == invalid("Invalid ProjectionExpression: Attribute name is a reserved keyword; "
                                  "reserved keyword: Name")
    r = raw.call("Scan", {"TableName": hash_table, "FilterExpression": ":v < abOrT", "ExpressionAttributeValues": V1})
    assert error_of(r) == invalid("Invalid FilterExpression: Attribute name is a reserved keyword; "
                                  "reserved keyword: abOrT")
    r = raw.call("Query", {"TableName": range_table, "KeyConditionExpression": "pk = :v AND key = :w",
                           "ExpressionAttributeValues": {":v": {"S": "a"}, ":w": {"N": "1"}}})
    assert error_of(r) == invalid("Invalid KeyConditionExpression: Attribute name is a reserved keyword; "
                                  "reserved keyword: key")


# A reserved word reached through a placeholder is fine.
def test_reserved_word_through_placeholder(raw, ddb, hash_table):
    k = new_key()
    assert update(raw, hash_table, "SET #n = :v", names={"#n": "name"}, values=V1, key=k).status == 200
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]["name"] == {"N": "1"}


# Function names and many common words are not reserved.
@pytest.mark.parametrize("word", ["size", "id", "email", "score", "expires", "contains", "begins_with",
                                  "if_not_exists", "list_append", "attribute_exists"])
def test_not_reserved(raw, hash_table, word):
    assert update(raw, hash_table, f"SET {word} = :v", values=V1).status == 200


# The keywords of the expression grammar are not names at all: using one is a syntax error.
@pytest.mark.parametrize("word", ["between", "and", "not", "in", "or", "set", "remove", "add", "delete"])
def test_grammar_keyword_is_syntax_error(raw, hash_table, word):
    r = update(raw, hash_table, f"SET {word} = :v", values=V1)
    assert error_of(r) == invalid(f'Invalid UpdateExpression: Syntax error; token: "{word}", near: "SET {word} ="')


# --- syntax errors -------------------------------------------------------------------------------

# A syntax error names the offending token and quotes the source from the start of the token
# before it to the end of the token after it; at the end of the text the token is "<EOF>"
# and the quote runs to the end, trailing blanks included.
SYNTAX = [
    ("SET", '"<EOF>", near: "SET"'),
    ("SET a", '"<EOF>", near: "a"'),
    ("SET a =", '"<EOF>", near: "="'),
    ("   ", '"<EOF>", near: "   "'),
    ("HELLO b = :v", '"HELLO", near: "HELLO b"'),
    ("SET a = :v + :v + :v", '"+", near: ":v + :v"'),
    ("SET _a = :v", '"_", near: "SET _a"'),
    ("SET a = _f(b)", '"_", near: "= _f"'),
    ("SET a[:v] = :v", '":v", near: "[:v]"'),
    ("SET :v = :v", '":v", near: "SET :v ="'),
    ("SET a = :v, ", '"<EOF>", near: ", "'),
    ("SET a = :v REMOVE", '"<EOF>", near: "REMOVE"'),
    ("SET a = b * :v", '"*", near: "b * :v"'),
    ('SET a = "x"', '""", near: "= "x"'),  # the quote is not escaped
]


# Each malformed update is a syntax error with the exact token and quote.
@pytest.mark.parametrize("expr,tail", SYNTAX, ids=[c[0] for c in SYNTAX])
def test_update_syntax_error(raw, hash_table, expr, tail):
    r = update(raw, hash_table, expr, values=V1 if ":v" in expr else None)
    assert error_of(r) == invalid("Invalid UpdateExpression: Syntax error; token: " + tail)


# An empty expression has its own text; one of blanks is a syntax error (above).
def test_empty_expression(raw, hash_table):
    r = update(raw, hash_table, "")
    assert error_of(r) == invalid("Invalid UpdateExpression: The expression can not be empty;")


# Expressions are at most 4 KB; the condition text also gives the size.
def test_expression_size_limit(raw, hash_table):
    r = update(raw, hash_table, "SET a = :v" + " " * 4100, values=V1)
    assert error_of(r) == invalid("Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;")
    r = update(raw, hash_table, "SET a = :v", ConditionExpression="attribute_not_exists(b)" + " " * 4100, values=V1)
    assert error_of(r) == invalid("Invalid ConditionExpression: Expression size has exceeded the maximum allowed "
                                  "size; expression size: 4123")


# Keywords are case-insensitive; whitespace between tokens is free.
def test_keywords_case_insensitive_and_whitespace(raw, ddb, hash_table):
    k = new_key()
    r = update(raw, hash_table, "  sEt   a=:v  ReMoVe b ", ConditionExpression="NoT attribute_exists(c)AnD(a<>:v)",
               values=V1, key=k)
    assert r.status == 200, r
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": k}}, ConsistentRead=True)["Item"]["a"] == {"N": "1"}
