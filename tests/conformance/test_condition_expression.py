"""ConditionExpression on PutItem, DeleteItem and UpdateItem: grammar, errors, every
comparator and function on every type, paths, precedence, and the failure reply with
ReturnValuesOnConditionCheckFailure.

Most cases evaluate one condition against one stored item (ITEM, written once per module)
by writing the same item again under the condition: 200 means true, a
ConditionalCheckFailedException false. FilterExpression shares this language (see
test_filter_expression.py). Texts are DynamoDB Local's; dynalite test/scan.js and
test/updateItem.js (live texts) agree wherever they cover a rule, except the order of the
type list of attribute_type (compared as a set here).
"""
import pytest

from conftest import B, error_of, L, M, N, new_key, S


ATTRS = {
    "s": S("hello"), "u": S("héllo"), "es": S(""), "n": N(5), "neg": N("-2.5"), "b": B("AQID"),
    "hb": B("gA=="), "t": {"BOOL": True}, "f": {"BOOL": False}, "z": {"NULL": True},
    "l": L(N(1), S("x"), M(c=S("y"))), "m": M(x=N(1), y=M(z=L(N(1), N(2)))),
    "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": ["AQ==", "Ag=="]},
    "el": L(), "em": M(),
}


@pytest.fixture(scope="module")
def stored(raw, hash_table):
    """The key of ITEM, written once for the module."""
    k = new_key()
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), **ATTRS}})
    assert r.status == 200, r
    return k


def cond(raw, table, key, expr, values=None, names=None):
    """Evaluates expr against the stored item: True, False, or the error reply."""
    body = {"TableName": table, "Item": {"pk": S(key), **ATTRS}, "ConditionExpression": expr}
    if values:
        body["ExpressionAttributeValues"] = values
    if names:
        body["ExpressionAttributeNames"] = names
    r = raw.call("PutItem", body)
    if r.status == 200:
        return True
    if r.error_type == "ConditionalCheckFailedException":
        return False
    return r


@pytest.fixture
def check(raw, hash_table, stored):
    return lambda expr, values=None, names=None: cond(raw, hash_table, stored, expr, values, names)


def invalid(msg):
    return 400, "ValidationException", "Invalid ConditionExpression: " + msg


# --- validation: syntax --------------------------------------------------------------------------

# An empty condition has its own text.
def test_empty_expression(check):
    assert error_of(check("")) == invalid("The expression can not be empty;")


# Syntax errors name the token and quote its neighbours (see test_expression_attributes.py).
SYNTAX = [
    ("a", '"<EOF>", near: "a"'),
    ("a =", '"<EOF>", near: "="'),
    ("a = :v AND", '"<EOF>", near: "AND"'),
    ("NOT", '"<EOF>", near: "NOT"'),
    ("(a = :v", '"<EOF>", near: ":v"'),
    ("a = :v)", '")", near: ":v)"'),
    ("a == :v", '"=", near: "== :v"'),
    ("a != :v", '"!", near: "a !="'),
    ("a = :v = :v", '"=", near: ":v = :v"'),
    ("a BETWEEN :v", '"<EOF>", near: ":v"'),
    ("a IN ()", '")", near: "()"'),
    ("a IN :v", '":v", near: "IN :v"'),
    ("l[-1] = :v", '"-", near: "[-1"'),
    ("l[a] = :v", '"a", near: "[a]"'),
    ("l[1.5] = :v", '".", near: "1.5"'),
    ("size(s).b > :v", '".", near: ").b"'),
    ("a + :v = :v", '"+", near: "a + :v"'),
    ("a = :v + :v", '"+", near: ":v + :v"'),
]


# Each malformed condition is a syntax error with the exact token and quote.
@pytest.mark.parametrize("expr,tail", SYNTAX, ids=[c[0] for c in SYNTAX])
def test_syntax_error(check, expr, tail):
    r = check(expr, {":v": N(1)} if ":v" in expr else None)
    assert error_of(r) == invalid("Syntax error; token: " + tail)


# A value placeholder cannot be a map key in a path.
# ddblocal_differs: DynamoDB Local answers "Invalid ConditionExpression: Internal server error".
# Source: dynalite test/scan.js "syntax errors" ('a.:a < b.:b', live).
@pytest.mark.ddblocal_differs
def test_value_as_map_key_is_syntax_error(check):
    r = check("a.:v = :v", {":v": N(1)})
    assert r.error_type == "ValidationException"
    assert r.message.startswith('Invalid ConditionExpression: Syntax error; token: ":v", near: ')


# One pair of parentheses around a condition is fine; a second, redundant pair is rejected.
def test_redundant_parentheses(check):
    assert check("(s = :v)", {":v": S("hello")}) is True
    assert check("s = :v AND (n = :n AND n = :n)", {":v": S("hello"), ":n": N(5)}) is True
    for expr in ("((s = :v))", "s = :v AND ((n = :n))", "s=:v and ((n=:n and n=:n))"):
        values = {":v": S("hello"), ":n": N(5)} if ":n" in expr else {":v": S("hello")}
        assert error_of(check(expr, values)) == invalid("The expression has redundant parentheses;")


# --- validation: functions -----------------------------------------------------------------------

# Unknown and differently cased function names are rejected after parsing.
@pytest.mark.parametrize("fn", ["foo", "ATTRIBUTE_EXISTS", "attRIbute_exIsts", "Size"])
def test_invalid_function_name(check, fn):
    assert error_of(check(f"{fn}(s)")) == invalid(f"Invalid function name; function: {fn}")


# Update functions are known names, but not allowed in a condition.
@pytest.mark.parametrize("expr,fn", [("if_not_exists(n, :v) = :v", "if_not_exists"),
                                     ("list_append(l, :l) = :l", "list_append")])
def test_update_function_in_condition(check, expr, fn):
    r = check(expr, {":v": N(5)} if ":v" in expr else {":l": L()})
    assert error_of(r) == invalid(f"The function is not allowed in a condition expression; function: {fn}")


# Each function checks its number of operands.
@pytest.mark.parametrize("expr,fn,n", [
    ("attribute_exists(s, n)", "attribute_exists", 2),
    ("attribute_not_exists(s, n)", "attribute_not_exists", 2),
    ("attribute_type(s)", "attribute_type", 1),
    ("begins_with(s)", "begins_with", 1),
    ("begins_with(s, :v, :v)", "begins_with", 3),
    ("contains(s)", "contains", 1),
    ("contains(s, :v, :v)", "contains", 3),
    ("size(s, n) > :v", "size", 2),
])
def test_function_operand_count(check, expr, fn, n):
    r = check(expr, {":v": S("x")} if ":v" in expr else None)
    assert error_of(r) == invalid(f"Incorrect number of operands for operator or function; operator or function: "
                                  f"{fn}, number of operands: {n}")


# Boolean functions are conditions, size is a value: each only where its kind belongs.
@pytest.mark.parametrize("expr,fn", [
    ("size(s)", "size"),
    ("attribute_exists(s) = :v", "attribute_exists"),
    ("attribute_not_exists(s) > :v", "attribute_not_exists"),
    ("begins_with(s, :v) = :v", "begins_with"),
    ("contains(s, :v) = :v", "contains"),
    ("size(contains(s, :v)) > :v", "contains"),
    ("s BETWEEN :v AND attribute_exists(n)", "attribute_exists"),
    ("s IN (:v, attribute_exists(n))", "attribute_exists"),
])
def test_function_used_in_wrong_place(check, expr, fn):
    r = check(expr, {":v": S("x")} if ":v" in expr else None)
    assert error_of(r) == invalid(f"The function is not allowed to be used this way in an expression; function: {fn}")


# The path operand of attribute_exists, attribute_not_exists (and attribute_type, begins_with,
# contains when both operands are values) must be a document path.
@pytest.mark.parametrize("expr,fn", [("attribute_exists(:v)", "attribute_exists"),
                                     ("attribute_not_exists(:v)", "attribute_not_exists")])
def test_function_requires_path(check, expr, fn):
    r = check(expr, {":v": S("x")})
    assert error_of(r) == invalid(f"Operator or function requires a document path; operator or function: {fn}")


# A value operand of the wrong type is rejected before the item is read.
@pytest.mark.parametrize("expr,value,fn,t", [
    ("begins_with(s, :v)", N(1), "begins_with", "N"),
    ("begins_with(s, :v)", {"BOOL": True}, "begins_with", "BOOL"),
    ("begins_with(s, :v)", {"SS": ["a"]}, "begins_with", "SS"),
    ("begins_with(:v, s)", L(), "begins_with", "L"),
    ("attribute_type(s, :v)", N(1), "attribute_type", "N"),
    ("attribute_type(s, :v)", {"SS": ["S"]}, "attribute_type", "SS"),
    ("size(:v) > :w", N(1), "size", "N"),
    ("size(:v) > :w", {"BOOL": True}, "size", "BOOL"),
    ("size(:v) > :w", {"NULL": True}, "size", "NULL"),
])
def test_function_operand_type(check, expr, value, fn, t):
    values = {":v": value, ":w": N(0)} if ":w" in expr else {":v": value}
    assert error_of(check(expr, values)) == invalid(f"Incorrect operand type for operator or function; operator "
                                                    f"or function: {fn}, operand type: {t}")


# attribute_type wants one of the ten type names; the text lists them all.
@pytest.mark.parametrize("name", ["x", "s", "STRING", "Ss", ""])
def test_attribute_type_invalid_name(check, name):
    r = check("attribute_type(s, :v)", {":v": S(name)})
    assert r.error_type == "ValidationException"
    prefix = f"Invalid ConditionExpression: Invalid attribute type name found; type: {name}, valid types: {{"
    assert r.message.startswith(prefix) and r.message.endswith("}")
    listed = r.message[len(prefix):-1].split(",")
    assert sorted(listed) == sorted(["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"])


# --- validation: comparisons ---------------------------------------------------------------------

# Ordering comparisons and BETWEEN accept only strings, numbers and binaries from the request.
@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize("value,t", [({"BOOL": True}, "BOOL"), ({"NULL": True}, "NULL"), (L(), "L"), (M(), "M"),
                                     ({"SS": ["a"]}, "SS"), ({"NS": ["1"]}, "NS"), ({"BS": ["AQ=="]}, "BS")],
                         ids=["BOOL", "NULL", "L", "M", "SS", "NS", "BS"])
def test_ordering_operand_type(check, op, value, t):
    assert error_of(check(f"n {op} :v", {":v": value})) == invalid(
        f"Incorrect operand type for operator or function; operator or function: {op}, operand type: {t}")


# BETWEEN checks its bounds' types like the ordering operators.
def test_between_operand_type(check):
    r = check("n BETWEEN :a AND :b", {":a": {"BOOL": True}, ":b": {"BOOL": True}})
    assert error_of(r) == invalid("Incorrect operand type for operator or function; operator or function: "
                                  "BETWEEN, operand type: BOOL")


# Equality and IN accept any type (and compare by value).
def test_equality_accepts_any_type(check):
    assert check("l = :v", {":v": L(N(1), S("x"), M(c=S("y")))}) is True
    assert check("n IN (:a, :b)", {":a": M(), ":b": {"NULL": True}}) is False


# BETWEEN needs bounds of one type, the lower not above the upper; the text prints both.
def test_between_bounds(check):
    r = check("n BETWEEN :a AND :b", {":a": N(2), ":b": N(1)})
    assert error_of(r) == invalid("The BETWEEN operator requires upper bound to be greater than or equal to lower "
                                  "bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: "
                                  "AttributeValue: {N:1}")
    r = check("n BETWEEN :a AND :b", {":a": N(2), ":b": S("1")})
    assert error_of(r) == invalid("The BETWEEN operator requires same data type for lower and upper bounds; lower "
                                  "bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {S:1}")
    assert check("n BETWEEN :a AND :a", {":a": N(5)}) is True


# IN takes at most 100 operands.
def test_in_operand_limit(check):
    values = {f":v{i}": N(i) for i in range(101)}
    assert check("n IN (" + ", ".join(list(values)[:100]) + ")", dict(list(values.items())[:100])) is True
    r = check("n IN (" + ", ".join(values) + ")", values)
    assert error_of(r) == invalid("The IN operator is provided with too many operands; number of operands: 101")


# An operator whose first operand reappears among the others is rejected (names resolved).
@pytest.mark.parametrize("expr,op,path", [
    ("s < s", "<", "[s]"),
    ("s = #s", "=", "[s]"),
    ("s <> s", "<>", "[s]"),
    ("n IN (:v, n)", "IN", "[n]"),
    ("contains(s, s)", "contains", "[s]"),
    ("begins_with(m.y, m.y)", "begins_with", "[m, y]"),
    ("attribute_type(l[1], l[1])", "attribute_type", "[l, [1]]"),
    ("s = s AND n = :v", "=", "[s]"),
])
def test_operands_must_be_distinct(check, expr, op, path):
    r = check(expr, {":v": N(1)} if ":v" in expr else None, {"#s": "s"} if "#s" in expr else None)
    assert error_of(r) == invalid(f"The first operand must be distinct from the remaining operands for this "
                                  f"operator or function; operator: {op}, first operand: {path}")


# Two different values may be compared, even equal ones.
def test_two_values_may_be_compared(check):
    assert check(":a = :a", {":a": N(1)}) is True
    assert check(":a < :a", {":a": N(1)}) is False
    assert check(":a < :b", {":a": N(1), ":b": S("x")}) is False


# --- validation: paths ---------------------------------------------------------------------------

# List indexes are bounded; the text repeats the index.
def test_list_index_out_of_range(check):
    r = check("l[99999999999] = :v", {":v": N(1)})
    assert error_of(r) == invalid("List index is not within the allowable range; index: [99999999999]")


# Paths nest at most 32 levels below the attribute.
def test_nesting_levels(check):
    r = check("attribute_exists(m" + ".a" * 32 + ")")
    assert error_of(r) == invalid("The document path has too many nesting levels; nesting levels: 33")


# Expected and ConditionExpression cannot be combined.
def test_with_expected(raw, hash_table):
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(new_key())},
                             "ConditionExpression": "attribute_not_exists(pk)",
                             "Expected": {"a": {"Exists": False}}})
    assert error_of(r) == (400, "ValidationException", "Can not use both expression and non-expression parameters "
                           "in the same request: Non-expression parameters: {Expected} Expression parameters: "
                           "{ConditionExpression}")


# --- behaviour: comparisons ----------------------------------------------------------------------

COMPARISONS = [
    # equality by value on every type; sets ignore order, numbers ignore notation
    ("s = :v", S("hello"), True), ("s = :v", S("Hello"), False), ("es = :v", S(""), True),
    ("n = :v", N("5.00"), True), ("n = :v", N("0.5e1"), True), ("b = :v", B("AQID"), True),
    ("t = :v", {"BOOL": True}, True), ("f = :v", {"BOOL": True}, False), ("z = :v", {"NULL": True}, True),
    ("ss = :v", {"SS": ["b", "a"]}, True), ("ns = :v", {"NS": ["2.0", "1"]}, True),
    ("bs = :v", {"BS": ["Ag==", "AQ=="]}, True), ("ss = :v", {"SS": ["a"]}, False),
    ("l = :v", L(N(1), S("x"), M(c=S("y"))), True), ("l = :v", L(S("x"), N(1), M(c=S("y"))), False),
    ("m = :v", M(y=M(z=L(N(1), N(2))), x=N("1.0")), True), ("em = :v", M(), True), ("el = :v", L(), True),
    # a type mismatch is simply unequal
    ("n = :v", S("5"), False), ("n <> :v", S("5"), True), ("s <> :v", S("hello"), False),
    ("ss = :v", L(S("a"), S("b")), False),
    # absent attributes equal nothing, and differ from everything
    ("zz = :v", {"NULL": True}, False), ("zz <> :v", {"NULL": True}, True), ("zz <> :v", N(1), True),
    # numbers order by value
    ("n > :v", N("4.99999999999999999999"), True), ("n < :v", N("5.0000000000000000001"), True),
    ("neg < :v", N("-2"), True), ("neg > :v", N("-1e2"), True), ("n >= :v", N(5), True), ("n <= :v", N(4), False),
    # strings by UTF-8 bytes
    ("s > :v", S("Z"), True), ("s < :v", S("hellp"), True), ("s < :v", S("hello "), True),
    ("s >= :v", S("hello"), True), ("u > :v", S("hz"), True),
    # binaries by unsigned bytes
    ("hb > :v", B("fw=="), True), ("b < :v", B("AQIDAA=="), True), ("b <= :v", B("AQID"), True),
    # ordering across types is false either way, never an error
    ("n < :v", S("x"), False), ("n > :v", S("x"), False), ("s > :v", N(1), False), ("b > :v", S("a"), False),
    ("t < :v", N(1), False), ("l > :v", N(1), False), ("zz < :v", N(1), False),
]


# Each comparator on each type, mismatches included (see COMPARISONS).
@pytest.mark.parametrize("expr,value,want", COMPARISONS,
                         ids=[f"{e.replace(':v', str(list(v.values())[0]))}" for e, v, _ in COMPARISONS])
def test_comparison(check, expr, value, want):
    assert check(expr, {":v": value}) is want


# BETWEEN is inclusive and, like the ordering operators, false across types.
@pytest.mark.parametrize("expr,lo,hi,want", [
    ("n BETWEEN :a AND :b", N(5), N(6), True), ("n BETWEEN :a AND :b", N(1), N(5), True),
    ("n BETWEEN :a AND :b", N(6), N(7), False), ("s BETWEEN :a AND :b", S("a"), S("z"), True),
    ("n BETWEEN :a AND :b", S("a"), S("z"), False), ("b BETWEEN :a AND :b", B("AQ=="), B("Ag=="), True),
    ("zz BETWEEN :a AND :b", N(1), N(9), False),
])
def test_between(check, expr, lo, hi, want):
    assert check(expr, {":a": lo, ":b": hi}) is want


# IN is true when any operand equals the path; operands may be of different types or paths.
def test_in(check):
    assert check("s IN (:a, :b)", {":a": S("x"), ":b": S("hello")}) is True
    assert check("s IN (:a, :b)", {":a": N(5), ":b": L()}) is False
    assert check("n IN (s, :a)", {":a": N(5)}) is True
    assert check("size(s) IN (:a)", {":a": N(5)}) is True


# Two paths can be compared with each other.
def test_path_against_path(check):
    assert check("m.x < n") is True
    assert check("l[0] = m.x") is True
    assert check("s = u") is False


# --- behaviour: functions ------------------------------------------------------------------------

FUNCTIONS = [
    ("attribute_exists(s)", None, True), ("attribute_exists(zz)", None, False),
    ("attribute_exists(z)", None, True), ("attribute_exists(pk)", None, True),
    ("attribute_exists(m.y.z[1])", None, True), ("attribute_exists(m.y.z[2])", None, False),
    ("attribute_exists(l[2].c)", None, True), ("attribute_exists(s.x)", None, False),
    ("attribute_exists(s[0])", None, False), ("attribute_not_exists(zz)", None, True),
    ("attribute_not_exists(l[5])", None, True), ("attribute_not_exists(s)", None, False),
    ("attribute_type(s, :v)", S("S"), True), ("attribute_type(n, :v)", S("N"), True),
    ("attribute_type(b, :v)", S("B"), True), ("attribute_type(t, :v)", S("BOOL"), True),
    ("attribute_type(z, :v)", S("NULL"), True), ("attribute_type(l, :v)", S("L"), True),
    ("attribute_type(m, :v)", S("M"), True), ("attribute_type(ss, :v)", S("SS"), True),
    ("attribute_type(ns, :v)", S("NS"), True), ("attribute_type(bs, :v)", S("BS"), True),
    ("attribute_type(ss, :v)", S("L"), False), ("attribute_type(zz, :v)", S("S"), False),
    ("attribute_type(m.y.z, :v)", S("L"), True),
    ("begins_with(s, :v)", S("he"), True), ("begins_with(s, :v)", S("hello"), True),
    ("begins_with(s, :v)", S("hello world"), False), ("begins_with(s, :v)", S(""), True),
    ("begins_with(b, :v)", B("AQ=="), True), ("begins_with(b, :v)", B("Ag=="), False),
    ("begins_with(n, :v)", S("5"), False), ("begins_with(s, :v)", B("aA=="), False),
    ("begins_with(zz, :v)", S("a"), False),
    ("contains(s, :v)", S("ell"), True), ("contains(s, :v)", S(""), True), ("contains(s, :v)", S("x"), False),
    ("contains(b, :v)", B("Ag=="), True), ("contains(ss, :v)", S("a"), True), ("contains(ss, :v)", S("c"), False),
    ("contains(ns, :v)", N("2.0"), True), ("contains(ns, :v)", S("2"), False),
    ("contains(bs, :v)", B("AQ=="), True), ("contains(l, :v)", S("x"), True), ("contains(l, :v)", N(1), True),
    ("contains(l, :v)", M(c=S("y")), True), ("contains(l, :v)", S("y"), False),
    ("contains(n, :v)", N(5), False), ("contains(s, :v)", {"SS": ["hello"]}, False),
    ("contains(m, :v)", S("x"), False), ("contains(zz, :v)", S("x"), False),
]


# Each function on each type, absent attributes included (see FUNCTIONS).
@pytest.mark.parametrize("expr,value,want", FUNCTIONS, ids=[f"{e}={v}" for e, v, _ in FUNCTIONS])
def test_function(check, expr, value, want):
    assert check(expr, {":v": value} if value else None) is want


# The first operand of contains and begins_with may be a value, the second a path.
def test_value_first_operand(check):
    assert check("contains(:v, s)", {":v": S("say hello world")}) is True
    assert check("begins_with(:v, s)", {":v": S("hello world")}) is True


# size counts string characters, binary bytes, list and map elements and set members; it
# is undefined (comparisons false) for numbers, booleans, nulls and absent attributes.
@pytest.mark.parametrize("path,size", [("s", 5), ("u", 5), ("es", 0), ("b", 3), ("l", 3), ("m", 2), ("ss", 2),
                                       ("ns", 2), ("bs", 2), ("el", 0), ("em", 0), ("m.y.z", 2)])
def test_size(check, path, size):
    assert check(f"size({path}) = :v", {":v": N(size)}) is True
    assert check(f"size({path}) = :v", {":v": N(size + 1)}) is False


# size() of a number, boolean, null or absent path makes every comparison false.
@pytest.mark.parametrize("path", ["n", "t", "z", "zz", "s.x"])
def test_size_undefined(check, path):
    assert check(f"size({path}) >= :v", {":v": N(0)}) is False
    assert check(f"size({path}) < :v", {":v": N(0)}) is False
    assert check(f"NOT size({path}) = :v", {":v": N(1)}) is True


# size of a value and size in other positions.
def test_size_positions(check):
    assert check("size(:v) = :w", {":v": S("ab"), ":w": N(2)}) is True
    assert check("size(l) < size(s)") is True
    assert check("n BETWEEN size(s) AND :a", {":a": N(9)}) is True
    assert check("size(l) BETWEEN :a AND :b", {":a": N(3), ":b": N(3)}) is True


# --- behaviour: paths ----------------------------------------------------------------------------

# Paths follow map keys and list indexes; a step into the wrong kind of value, past the end
# of a list or to an absent key makes the condition false.
@pytest.mark.parametrize("expr,value,want", [
    ("m.x = :v", N(1), True), ("m.y.z[1] = :v", N(2), True), ("l[2].c = :v", S("y"), True),
    ("l[1] = :v", S("x"), True), ("l[3] = :v", S("x"), False), ("m.x.y = :v", N(1), False),
    ("s[0] = :v", S("h"), False), ("m[0] = :v", N(1), False), ("l.c = :v", S("y"), False),
    ("zz.a[1].b = :v", N(1), False), ("#a.#b = :v", N(1), True), ("#dot = :v", N(1), False),
])
def test_paths(check, expr, value, want):
    names = {k: v for k, v in {"#a": "m", "#b": "x", "#dot": "m.x"}.items() if k in expr}
    assert check(expr, {":v": value}, names or None) is want


# --- behaviour: logic ----------------------------------------------------------------------------

T, F = "attribute_exists(s)", "attribute_exists(zz)"


# NOT binds tighter than AND, AND tighter than OR; parentheses group.
@pytest.mark.parametrize("expr,want", [
    (f"{T} OR {F} AND {F}", True),
    (f"({T} OR {F}) AND {F}", False),
    (f"{F} AND {F} OR {T}", True),
    (f"{F} AND ({F} OR {T})", False),
    (f"NOT {F} AND {F}", False),
    (f"NOT ({F} AND {F})", True),
    (f"NOT {T} OR {T}", True),
    (f"NOT ({T} OR {T})", False),
    (f"NOT NOT {T}", True),
    (f"NOT NOT NOT {T}", False),
    (f"{T} AND NOT {F} AND {T}", True),
    (f"{F} OR {F} OR {F} OR {T}", True),
    (f"{T} AND {T} AND {T} AND {F}", False),
])
def test_precedence(check, expr, want):
    assert check(expr) is want


# NOT of a comparison that is false because of a type mismatch or absence is true.
def test_not_of_undefined_comparison(check):
    assert check("NOT n < :v", {":v": S("x")}) is True
    assert check("NOT zz = :v", {":v": N(1)}) is True
    assert check("NOT begins_with(n, :v)", {":v": S("5")}) is True


# Keywords are case-insensitive: AND/and, BETWEEN/between, NOT/not, IN/in.
def test_keywords_case_insensitive(check):
    assert check("n between :a and :b aNd not s in (:c)", {":a": N(1), ":b": N(9), ":c": S("x")}) is True


# --- behaviour: on each write operation ----------------------------------------------------------

# Against an absent item, existence tests behave as for an empty item.
def test_absent_item(raw, hash_table):
    k = new_key()
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k)},
                             "ConditionExpression": "attribute_not_exists(pk)"})
    assert r.status == 200
    r = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k)},
                             "ConditionExpression": "attribute_not_exists(pk)"})
    assert r.error_type == "ConditionalCheckFailedException"
    for expr, values in [("attribute_exists(pk)", None), ("a = :v", {":v": N(1)}), ("NOT a <> :v", {":v": N(1)})]:
        body = {"TableName": hash_table, "Key": {"pk": S(new_key())}, "ConditionExpression": expr}
        if values:
            body["ExpressionAttributeValues"] = values
        assert raw.call("DeleteItem", body).error_type == "ConditionalCheckFailedException"


# Every conditional write fails with the same exception and text, and changes nothing.
def test_failure_reply_on_each_operation(raw, hash_table):
    k = new_key()
    item = {"pk": S(k), "a": S("x")}
    assert raw.call("PutItem", {"TableName": hash_table, "Item": item}).status == 200
    bad = {"ConditionExpression": "a = :w", "ExpressionAttributeValues": {":w": S("nope")}}
    for op, body in [("PutItem", {"Item": {"pk": S(k), "a": S("y")}}), ("DeleteItem", {"Key": {"pk": S(k)}})]:
        r = raw.call(op, {"TableName": hash_table, **body, **bad})
        assert error_of(r) == (400, "ConditionalCheckFailedException", "The conditional request failed")
        assert r.headers.get("Content-Type", "").startswith("application/x-amz-json-1.0")
    got = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": S(k)}, "ConsistentRead": True}).json["Item"]
    assert got == item


# A passing condition lets each operation through.
def test_passing_condition_on_each_operation(raw, hash_table):
    k = new_key()
    good = {"ConditionExpression": "attribute_not_exists(a) OR a = :w", "ExpressionAttributeValues": {":w": S("x")}}
    assert raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": S(k), "a": S("x")}, **good}).status == 200
    r = raw.call("UpdateItem", {"TableName": hash_table, "Key": {"pk": S(k)}, "UpdateExpression": "SET b = :w", **good})
    assert r.status == 200
    r = raw.call("DeleteItem", {"TableName": hash_table, "Key": {"pk": S(k)}, "ReturnValues": "ALL_OLD", **good})
    assert r.json["Attributes"] == {"pk": S(k), "a": S("x"), "b": S("x")}


# ReturnValuesOnConditionCheckFailure ALL_OLD adds the current item to the failure reply of
# PutItem and DeleteItem too; it is absent when the item is.
@pytest.mark.parametrize("op", ["PutItem", "DeleteItem"])
def test_return_values_on_condition_check_failure(raw, hash_table, op):
    k = new_key()
    item = {"pk": S(k), "a": S("x"), "n": N(1)}
    assert raw.call("PutItem", {"TableName": hash_table, "Item": item}).status == 200
    body = {"Item": {"pk": S(k)}} if op == "PutItem" else {"Key": {"pk": S(k)}}
    bad = {"ConditionExpression": "a = :w", "ExpressionAttributeValues": {":w": S("nope")}}
    r = raw.call(op, {"TableName": hash_table, **body, **bad, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert r.error_type == "ConditionalCheckFailedException"
    assert r.json["Item"] == item
    r = raw.call(op, {"TableName": hash_table, **body, **bad})
    assert r.error_type == "ConditionalCheckFailedException" and "Item" not in r.json
    other = {"Item": {"pk": S(new_key())}} if op == "PutItem" else {"Key": {"pk": S(new_key())}}
    r = raw.call(op, {"TableName": hash_table, **other, **bad, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert r.error_type == "ConditionalCheckFailedException" and "Item" not in r.json


# A condition on the range-key table sees both key attributes.
def test_condition_on_range_table(raw, range_table):
    pk = S(new_key())
    assert raw.call("PutItem", {"TableName": range_table, "Item": {"pk": pk, "sk": N(1)}}).status == 200
    r = raw.call("PutItem", {"TableName": range_table, "Item": {"pk": pk, "sk": N(1), "a": N(1)},
                             "ConditionExpression": "sk = :v AND attribute_exists(pk)",
                             "ExpressionAttributeValues": {":v": N(1)}})
    assert r.status == 200
    r = raw.call("PutItem", {"TableName": range_table, "Item": {"pk": pk, "sk": N(2)},
                             "ConditionExpression": "attribute_exists(sk)"})
    assert r.error_type == "ConditionalCheckFailedException"
