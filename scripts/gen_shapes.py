#!/usr/bin/env python3
"""Generate src/server/shapes.gen.c from botocore's models of the APIs served on the one listener.

Usage:  python3 scripts/gen_shapes.py [path/to/botocore/data] > src/server/shapes.gen.c
        (without a path, the models of the botocore installed in this interpreter are used)

The models (MODELS below): DynamoDB 2012-08-10, DynamoDB Streams 2012-08-10 and Application Auto
Scaling 2016-02-06. The output is committed; the build never runs this script. It is
deterministic: the same models give the same bytes (shapes are numbered in a stable depth-first
order from each model's operations sorted by name, the models in MODELS order, so DynamoDB's
shapes keep their indexes whatever the other models hold).

What it emits (types in src/server/shapes.h):
  - every shape reachable from an operation's input: type, min/max, enum values (with the
    message text precomputed), a compiled regex pattern, list member / map key+value shapes,
    the Java type name the service prints in serialization errors;
  - structure members with their wire name, lowerCamel message name and required flag, in
    the order the validator walks them (the model's order unless MEMBER_ORDER says otherwise);
  - the operation table ((target prefix, name) -> input shape), sorted by target prefix, then
    name, for binary search.

Shape names are unique across the models: a shape of a later model whose name an earlier model
already uses is named "<model id>.<name>" (botocore shape names hold no '.'). The validator
prints the part after the last '.' where the service prints a shape name, and the Java type
names use each model's own name and package, so no message changes.

Regex patterns: the models use a handful of Java regexes. They are compiled here into a tiny
program (classes of code-point ranges, groups, counted repetition) that src/server/validate.c
interprets. Anything outside that subset (alternation, backreferences, lookaround, a '^' or
'$' that is not at an end, ...) stops generation with an error, so a new model cannot slip an
unchecked pattern past us, unless PATTERN_EQUIVALENT gives it a checked equivalent inside the
subset. The patterns reachable from inputs in botocore 1.43 are, for DynamoDB:
  [a-zA-Z0-9_.-]+   [0-9]{12}   ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$   [,;:|\\t ]   ^[^\\$]+$
  ([0-9a-f]{16})+   [\\u0020-\\uD7FF\\uE000-\\uFFFD\\uD800\\uDC00-\\uDBFF\\uDFFF\\r\\n\\t]*
  [\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*   \\p{Print}+
for Streams, [a-zA-Z0-9_.-]+ again; for Application Auto Scaling, two of DynamoDB's and
  ^arn:.+:application-autoscaling:.+:[0-9]+:scalable-target\\/[a-zA-Z0-9-]+$
  (?!((^[ ]+.*)|(.*([\\u0000-\\u001f]|[\\u007f-\\u009f]|[:/|])+.*)|(.*[ ]+$))).+   (through its equivalent)
Java semantics kept: String.matches() is a full match; \\w is [a-zA-Z0-9_]; \\p{Print} is
POSIX ASCII [\\x20-\\x7E]; '.' is any code point but \\n \\r \\u0085 \\u2028 \\u2029; a
\\uD8xx\\uDCxx surrogate pair is one supplementary code point.
"""

import gzip
import json
import os
import sys

# ---------------------------------------------------------------------------------------------
# Service facts the model does not carry. Each entry names its evidence.

# Order in which the validator walks a structure's members (listed members first, the rest
# in model order). DynamoDB reports validation errors in a fixed order that is not the
# model's; these orders are the ones dynalite reproduced from the live service
# (architect/dynalite validations/*.js; its test/listTables.js pins the ListTables order
# with an exact message, test/getItem.js the GetItem one). ProvisionedThroughput's
# Write-before-Read is also what the live service returned in 2026 captures
# ("provisionedThroughput.writeCapacityUnits ... ; ...readCapacityUnits").
MEMBER_ORDER = {
    "CreateTableInput": ["AttributeDefinitions", "TableName", "BillingMode",
                         "ProvisionedThroughput", "KeySchema", "LocalSecondaryIndexes",
                         "GlobalSecondaryIndexes"],
    "ProvisionedThroughput": ["WriteCapacityUnits", "ReadCapacityUnits"],
    "ListTablesInput": ["Limit", "ExclusiveStartTableName"],
    "GetItemInput": ["ReturnConsumedCapacity", "AttributesToGet", "TableName", "Key"],
    "PutItemInput": ["ReturnConsumedCapacity", "TableName", "Item"],
    "UpdateTableInput": ["TableName", "ProvisionedThroughput", "GlobalSecondaryIndexUpdates"],
    "CreateGlobalSecondaryIndexAction": ["Projection", "IndexName", "ProvisionedThroughput",
                                         "KeySchema"],
    # dynalite test/createTable.js, nine empty LocalSecondaryIndexes: the ten errors the
    # service lists end with 'localSecondaryIndexes.4.member.keySchema', so each index is
    # walked keySchema, projection, indexName. GlobalSecondaryIndex by analogy.
    "LocalSecondaryIndex": ["KeySchema", "Projection", "IndexName"],
    "GlobalSecondaryIndex": ["KeySchema", "Projection", "IndexName"],
}

# Members the service requires although the model no longer says so. CreateTable's
# AttributeDefinitions and KeySchema became optional in the model (GlobalTableSourceArn can
# stand in for them), yet the service answers "Value null at 'attributeDefinitions'" /
# "Value null at 'keySchema' ... Member must not be null" (dynalite test/createTable.js;
# 2026 captures). sluice does not create tables from a source ARN, so they stay required.
REQUIRED_EXTRA = {
    "CreateTableInput": ["AttributeDefinitions", "KeySchema"],
}

# Bounds the service enforces that the model omits. KeySchema: "Value '[...]' at
# 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2"
# (dynalite test/createTable.js; dynamodb-conformance createTable.test.ts, 2026).
# KMSMasterKeyId: "Value '' at 'sSESpecification.kMSMasterKeyId' ... greater than or equal
# to 1" (2026 captures).
BOUNDS_EXTRA = {
    "KeySchema": {"max": 2},
    "KMSMasterKeyId": {"min": 1},
}

# Multi-attribute GSI keys (DynamoDB, November 2025; dynamodb-facts §14): a GSI's KeySchema
# takes up to 4 HASH and 4 RANGE elements, and what is wrong with one is answered by the
# service's own checks (src/ops/schema.c sl_schema_gsi_key: "Key Schema too big ...", "Too
# many partition keys ..."; DynamoDB Local 3.3), while a table's and an LSI's KeySchema keep
# BOUNDS_EXTRA's max of 2. These members get their own copy of the shape, without that bound.
SPLIT_SHAPES = {
    ("GlobalSecondaryIndex", "KeySchema"): "__GlobalSecondaryIndexKeySchema",
    ("CreateGlobalSecondaryIndexAction", "KeySchema"): "__GlobalSecondaryIndexKeySchema",
}

# Order of the values in "Member must satisfy enum value set: [...]". The service prints
# its own order, not the model's; these are the orders seen in its messages (dynalite's
# validations/*.js and tests, and 2026 captures for StreamViewType / ContributorInsightsMode).
ENUM_ORDER = {
    "ScalarAttributeType": ["B", "N", "S"],
    "ProjectionType": ["ALL", "INCLUDE", "KEYS_ONLY"],
    "ReturnValue": ["ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"],
    "ComparisonOperator": ["IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT",
                           "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS"],
    "ConditionalOperator": ["OR", "AND"],
    "StreamViewType": ["OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE"],
    "ContributorInsightsMode": ["THROTTLED_KEYS", "ACCESSED_AND_THROTTLED_KEYS"],
    # ExtendDB's and dynalite's live captures of Query/Scan with Select BOGUS.
    "Select": ["SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"],
}

# Members named TableName whose model shape is TableArn accept a table name or an ARN. The
# service checks a name against the TableName shape (3..255, [a-zA-Z0-9_.-]+) and an ARN
# against TableArn (1..1024): e.g. "Value 'abc;' at 'tableName' ... regular expression
# pattern" and "Value 'aaa...' (256) at 'tableName' ... less than or equal to 255" for
# PutItem (2026 captures), neither of which the TableArn shape alone would produce.
NAME_OR_ARN = ("TableName", "TableArn", "TableName")  # (member name, model shape, name shape)

# The models, in emission order: (id, botocore folder, API version, Java package of its shapes).
# The overrides above name DynamoDB shapes and apply to the first model only; the others use
# their model's member and enum orders (no evidence of another order so far).
# Java packages: DynamoDB's is its __type namespace (facts §1.1). The other two are inferred the
# same way from the namespaces of their own exceptions, as AWS's early generated clients list
# them (aws-sdk-js-v3 before the Smithy renaming: "com.amazonaws.dynamodb.streams.v20120810#
# ExpiredIteratorException", "com.amazonaws.autoscaling.anyscale.frontend#ValidationException";
# see src/base/errors.def); no service message printing one has been seen.
MODELS = [
    ("dynamodb", "dynamodb", "2012-08-10", "com.amazonaws.dynamodb.v20120810."),
    ("dynamodbstreams", "dynamodbstreams", "2012-08-10",
     "com.amazonaws.dynamodb.streams.v20120810."),
    ("application-autoscaling", "application-autoscaling", "2016-02-06",
     "com.amazonaws.autoscaling.anyscale.frontend."),
]
SOURCE_NOTE = ""

# ---------------------------------------------------------------------------------------------


def die(msg):
    sys.stderr.write("gen_shapes.py: %s\n" % msg)
    sys.exit(1)


def load_model(data_dir, folder, version):
    base = os.path.join(data_dir, folder, version)
    for name in ("service-2.json", "service-2.json.gz"):
        path = os.path.join(base, name)
        if os.path.exists(path):
            break
    else:
        die("no service-2.json[.gz] under %s" % base)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def botocore_data_dir():
    import botocore  # noqa: deferred so a path works without botocore
    global SOURCE_NOTE
    SOURCE_NOTE = "botocore %s" % botocore.__version__
    return os.path.join(os.path.dirname(botocore.__file__), "data")


def merge_models(data_dir):
    """Loads MODELS into one shape dictionary with names unique across the models. Returns
    (shapes, ops, descriptions): ops is a list of (model index, target prefix, operation name,
    operation) in visiting order; each shape gets '_model' (its model's index) and '_name' (its
    name in its model)."""
    shapes = {}
    ops = []
    descriptions = []
    for mi, (mid, folder, version, _) in enumerate(MODELS):
        model = load_model(data_dir, folder, version)
        meta = model["metadata"]
        if meta.get("apiVersion") != version or meta.get("protocol") != "json":
            die("%s: expected a JSON-protocol model of version %s" % (mid, version))
        descriptions.append("%s %s" % (mid, version))
        rename = {}
        for name in sorted(model["shapes"]):
            key = name if name not in shapes else "%s.%s" % (mid, name)
            if "." in name or key in shapes or key in rename.values():
                die("%s: cannot give shape %s a unique name" % (mid, name))
            rename[name] = key
        for name, s in model["shapes"].items():
            s = json.loads(json.dumps(s))  # a private copy
            if s["type"] == "structure":
                for m in s["members"].values():
                    m["shape"] = rename[m["shape"]]
            elif s["type"] == "list":
                s["member"]["shape"] = rename[s["member"]["shape"]]
            elif s["type"] == "map":
                s["key"]["shape"] = rename[s["key"]["shape"]]
                s["value"]["shape"] = rename[s["value"]["shape"]]
            s["_model"] = mi
            s["_name"] = name
            shapes[rename[name]] = s
        for opname, op in sorted(model["operations"].items()):
            op = dict(op)
            if "input" in op:
                op["input"] = {"shape": rename[op["input"]["shape"]]}
            ops.append((mi, meta["targetPrefix"], opname, op))
    return shapes, ops, descriptions


# --- regex compiler ---------------------------------------------------------------------------

INF = 0xFFFF

# What Java's '.' does not match (java.util.regex.Pattern, no DOTALL, no UNIX_LINES).
JAVA_LINE_TERMINATORS = [(0x0A, 0x0A), (0x0D, 0x0D), (0x85, 0x85), (0x2028, 0x2029)]

# Patterns outside the subset, each with an equivalent one inside it. The message still prints
# the model's pattern; main() checks each equivalence on every string of up to four code points
# drawn from the characters that matter (PATTERN_PROBE), with Python's re standing in for Java's.
#   Application Auto Scaling ScheduledActionName: a lookahead forbids a leading space, any C0/C1
#   control or ':' '/' '|', and a trailing space; '.+' forbids line terminators. The same set:
#   one allowed character that is not a space, then optionally more allowed characters ending in
#   one that is not a space.
_SAN_FORBIDDEN = "\\x00-\\x1F\\x7F-\\x9F:/|\\u2028\\u2029"
PATTERN_EQUIVALENT = {
    "(?!((^[ ]+.*)|(.*([\\u0000-\\u001f]|[\\u007f-\\u009f]|[:/|])+.*)|(.*[ ]+$))).+":
        "[^ %s]([^%s]*[^ %s])?" % (_SAN_FORBIDDEN, _SAN_FORBIDDEN, _SAN_FORBIDDEN),
}
PATTERN_PROBE = "a \t\n\r\x00\x1f\x7f\x85\x9f\xa0:/|\u2028\u2029\u00e9\U0001F600"


def java_to_python_regex(src):
    """The Java pattern as a Python one for re.fullmatch: '.' without the line terminators,
    '$' at the very end only."""
    out = []
    i = 0
    in_class = False
    while i < len(src):
        c = src[i]
        if c == "\\":
            out.append(src[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
        elif c == ".":
            out.append("[^\\n\\r\\x85\\u2028\\u2029]")
        elif c == "$":
            out.append("\\Z")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def check_pattern_equivalents():
    import itertools
    import re
    for java, subset in PATTERN_EQUIVALENT.items():
        a = re.compile(java_to_python_regex(java))
        b = re.compile(java_to_python_regex(subset))
        for n in range(5):
            for t in itertools.product(PATTERN_PROBE, repeat=n):
                s = "".join(t)
                if bool(a.fullmatch(s)) != bool(b.fullmatch(s)):
                    die("PATTERN_EQUIVALENT: %r and %r differ on %r" % (java, subset, s))


class Regex:
    """Parses the supported Java regex subset into items: ('class', ranges, neg, min, max) or
    ('group', items, min, max)."""

    def __init__(self, src):
        self.src = src
        self.i = 0

    def fail(self, why):
        die("unsupported regex %r at %d: %s" % (self.src, self.i, why))

    def peek(self):
        return self.src[self.i] if self.i < len(self.src) else None

    def parse(self):
        s = self.src
        if s.startswith("^"):
            self.i = 1
        end = len(s)
        if s.endswith("$") and not s.endswith("\\$"):
            end -= 1
        self.end = end
        items = self.seq(top=True)
        if self.i != end:
            self.fail("trailing input")
        return items

    def seq(self, top):
        items = []
        while self.i < self.end:
            c = self.peek()
            if c == ")":
                if top:
                    self.fail("unbalanced ')'")
                break
            if c in "|":
                self.fail("alternation")
            if c in "^$":
                self.fail("anchor inside the pattern")
            if c == "(":
                self.i += 1
                if self.peek() == "?":
                    self.fail("special group")
                if not top:
                    self.fail("nested group (the matcher bounds one level of group iterations)")
                inner = self.seq(top=False)
                if self.peek() != ")":
                    self.fail("unclosed group")
                self.i += 1
                atom = ["group", inner]
            elif c == "[":
                atom = ["class"] + list(self.cls())
            elif c == ".":
                # Java's '.' (without DOTALL): any code point but a line terminator.
                self.i += 1
                atom = ["class", list(JAVA_LINE_TERMINATORS), 1]
            elif c in "*+?{":
                self.fail("quantifier without atom")
            else:
                atom = ["class"] + list(self.escape_or_char(in_class=False))
            lo, hi = self.quant()
            items.append(atom + [lo, hi])
        return items

    def quant(self):
        c = self.peek()
        if c == "*":
            self.i += 1
            lo, hi = 0, INF
        elif c == "+":
            self.i += 1
            lo, hi = 1, INF
        elif c == "?":
            self.i += 1
            lo, hi = 0, 1
        elif c == "{":
            j = self.src.index("}", self.i)
            body = self.src[self.i + 1:j]
            self.i = j + 1
            if "," in body:
                a, b = body.split(",", 1)
                lo, hi = int(a), (int(b) if b else INF)
            else:
                lo = hi = int(body)
        else:
            return 1, 1
        if self.peek() in ("?", "+"):
            self.fail("lazy/possessive quantifier")
        return lo, hi

    def code_point(self):
        """One escaped or literal code point (joins a \\uD8xx\\uDCxx pair)."""
        s = self.src
        if s[self.i] != "\\":
            cp = ord(s[self.i])
            self.i += 1
            return cp
        e = s[self.i + 1]
        if e == "u":
            cp = int(s[self.i + 2:self.i + 6], 16)
            self.i += 6
            if 0xD800 <= cp <= 0xDBFF and s[self.i:self.i + 2] == "\\u":
                lo = int(s[self.i + 2:self.i + 6], 16)
                if 0xDC00 <= lo <= 0xDFFF:
                    self.i += 6
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
            return cp
        if e == "x":
            cp = int(s[self.i + 2:self.i + 4], 16)
            self.i += 4
            return cp
        simple = {"t": 9, "n": 10, "r": 13, "f": 12}
        if e in simple:
            self.i += 2
            return simple[e]
        if e.isalnum():
            self.fail("escape \\%s" % e)
        self.i += 2
        return ord(e)

    def named_class(self):
        """\\w, \\d, \\p{Print}: returns ranges or None if not at one."""
        s = self.src
        if s[self.i] != "\\":
            return None
        e = s[self.i + 1]
        if e == "w":
            self.i += 2
            return [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
        if e == "d":
            self.i += 2
            return [(0x30, 0x39)]
        if s.startswith("\\p{Print}", self.i):
            self.i += len("\\p{Print}")
            return [(0x20, 0x7E)]
        if e in "pPWDsSbB":
            self.fail("class escape \\%s" % e)
        return None

    def escape_or_char(self, in_class):
        named = self.named_class()
        if named is not None:
            return named, 0
        cp = self.code_point()
        return [(cp, cp)], 0

    def cls(self):
        self.i += 1  # '['
        neg = 0
        if self.peek() == "^":
            neg = 1
            self.i += 1
        ranges = []
        first = True
        while True:
            c = self.peek()
            if c is None:
                self.fail("unclosed class")
            if c == "]" and not first:
                self.i += 1
                break
            if c == "[" or self.src.startswith("&&", self.i):
                self.fail("nested class / intersection")
            first = False
            named = self.named_class()
            if named is not None:
                ranges += named
                continue
            lo = self.code_point()
            if self.peek() == "-" and self.src[self.i + 1] != "]":
                self.i += 1
                hi = self.code_point()
                if hi < lo:
                    self.fail("bad range")
                ranges.append((lo, hi))
            else:
                ranges.append((lo, lo))
        return merge(ranges), neg


def ascii_bitmap(ranges, neg):
    """Which of the code points 0..127 the class matches, as two 64-bit words."""
    bits = 0
    for cp in range(128):
        inside = any(lo <= cp <= hi for lo, hi in ranges)
        if inside != bool(neg):
            bits |= 1 << cp
    return bits & 0xFFFFFFFFFFFFFFFF, bits >> 64


def merge(ranges):
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


# --- model walk -------------------------------------------------------------------------------

SCALAR_JAVA = {
    "string": "class java.lang.String",
    "boolean": "class java.lang.Boolean",
    "integer": "class java.lang.Integer",
    "long": "class java.lang.Long",
    "double": "class java.lang.Double",
    "timestamp": "class java.util.Date",
    "blob": "class java.nio.ByteBuffer",
}
TYPE_ENUM = {
    "structure": "SL_SHAPE_STRUCT", "list": "SL_SHAPE_LIST", "map": "SL_SHAPE_MAP",
    "string": "SL_SHAPE_STRING", "blob": "SL_SHAPE_BLOB", "boolean": "SL_SHAPE_BOOL",
    "integer": "SL_SHAPE_INT", "long": "SL_SHAPE_LONG", "double": "SL_SHAPE_DOUBLE",
    "timestamp": "SL_SHAPE_TIMESTAMP",
}


def lower_first(s):
    return s[:1].lower() + s[1:]


def java_type(shapes, name):
    """The type name the service prints in 'Unrecognized collection type ...'."""
    s = shapes[name]
    t = s["type"]
    if t == "structure":
        return "class " + MODELS[s.get("_model", 0)][3] + s.get("_name", name)
    if t == "list":
        return "java.util.List<%s>" % bare(java_type(shapes, s["member"]["shape"]))
    if t == "map":
        return "java.util.Map<%s, %s>" % (bare(java_type(shapes, s["key"]["shape"])),
                                           bare(java_type(shapes, s["value"]["shape"])))
    return SCALAR_JAVA[t]


def bare(j):
    return j[6:] if j.startswith("class ") else j


def c_str(s):
    b = s.encode("utf-8")
    out = []
    for ch in b:
        c = chr(ch)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= ch < 0x7F:
            out.append(c)
        else:
            out.append("\\%03o" % ch)
    return '{"%s", %d}' % ("".join(out), len(b))


def member_hash(name):
    """Must equal sl__shape_member_hash() in src/server/shapes.h."""
    b = name.encode("utf-8")
    return (b[0] * 31 + b[-1] * 7 + len(b)) & 0xFFFF


def check_attribute_value(shapes):
    """src/server/validate.c has a fast path for AttributeValue that assumes exactly this
    structure; stop if the model moves away from it."""
    want = {"S": "string", "N": "string", "B": "blob", "SS": ("list", "string"),
            "NS": ("list", "string"), "BS": ("list", "blob"), "M": ("map", "AttributeValue"),
            "L": ("list", "AttributeValue"), "NULL": "boolean", "BOOL": "boolean"}
    av = shapes["AttributeValue"]
    if sorted(av["members"]) != sorted(want) or av.get("required"):
        die("AttributeValue members changed; update the fast path in src/server/validate.c")
    for mname, kind in want.items():
        sh = shapes[av["members"][mname]["shape"]]
        if isinstance(kind, str):
            ok = sh["type"] == kind and not any(k in sh for k in ("min", "max", "pattern", "enum"))
        elif kind[0] == "list":
            el = sh["member"]["shape"]
            ok = (sh["type"] == "list" and not any(k in sh for k in ("min", "max")) and
                  (el == kind[1] or (shapes[el]["type"] == kind[1] and
                                     not any(k in shapes[el] for k in ("min", "max", "pattern", "enum")))))
        else:
            key = shapes[sh["key"]["shape"]]
            ok = (sh["type"] == "map" and sh["value"]["shape"] == kind[1] and
                  not any(k in sh for k in ("min", "max")) and
                  key == {"type": "string", "max": 65535} or
                  (sh["type"] == "map" and sh["value"]["shape"] == kind[1] and
                   key.get("max") == 65535 and "min" not in key and "pattern" not in key))
        if not ok:
            die("AttributeValue.%s changed; update the fast path in src/server/validate.c" % mname)


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else botocore_data_dir()
    shapes, ops, descriptions = merge_models(data_dir)
    check_pattern_equivalents()
    for (sname, mname), copy in SPLIT_SHAPES.items():
        m = shapes[sname]["members"].get(mname)
        if m is None:
            die("SPLIT_SHAPES: %s has no member %s" % (sname, mname))
        if copy not in shapes:
            shapes[copy] = json.loads(json.dumps(shapes[m["shape"]]))
        m["shape"] = copy

    order = []  # shape names in emission order
    index = {}

    def visit(name):
        if name in index:
            return
        s = shapes[name]
        if s["type"] not in TYPE_ENUM:
            die("shape %s has unsupported type %s" % (name, s["type"]))
        index[name] = len(order)
        order.append(name)
        if s["type"] == "structure":
            for mname, m in s["members"].items():
                visit(m["shape"])
                if mname == NAME_OR_ARN[0] and m["shape"] == NAME_OR_ARN[1]:
                    visit(NAME_OR_ARN[2])
        elif s["type"] == "list":
            visit(s["member"]["shape"])
        elif s["type"] == "map":
            visit(s["key"]["shape"])
            visit(s["value"]["shape"])

    # Model by model, so that a model's shapes keep their indexes when a later one changes.
    empty_input = "__EmptyInput"
    for mi in range(len(MODELS)):
        model_ops = [op for m, _, _, op in ops if m == mi]
        for op in model_ops:
            if "input" in op:
                visit(op["input"]["shape"])
        if any("input" not in op for op in model_ops) and empty_input not in shapes:
            shapes[empty_input] = {"type": "structure", "members": {}}
            visit(empty_input)

    for sname, names in (list(MEMBER_ORDER.items()) + list(ENUM_ORDER.items()) +
                         list(REQUIRED_EXTRA.items()) + list(BOUNDS_EXTRA.items())):
        if sname not in index:
            die("override for %s, which is not an input shape any more" % sname)
    for sname, names in list(MEMBER_ORDER.items()) + list(REQUIRED_EXTRA.items()):
        for n in names:
            if n not in shapes[sname]["members"]:
                die("MEMBER_ORDER: %s has no member %s" % (sname, n))
    for sname, vals in ENUM_ORDER.items():
        if sorted(vals) != sorted(shapes[sname].get("enum", [])):
            die("ENUM_ORDER: %s enum changed: %s" % (sname, shapes[sname].get("enum")))

    members = []
    enums = []
    hash_slots = []  # per structure: open-addressing table of walk position + 1, 0 = empty
    re_items = []
    re_ranges = []
    regexes = []  # (source, first, n)
    regex_index = {}
    rows = []

    def emit_items(items):
        """Appends items (children first for groups) and returns (first, n) of this level."""
        level = []
        for it in items:
            if it[0] == "class":
                _, ranges, neg, lo, hi = it
                first = len(re_ranges)
                re_ranges.extend(ranges)
                level.append(("SL_RE_NCLASS" if neg else "SL_RE_CLASS", lo, hi, first, len(ranges),
                              ascii_bitmap(ranges, neg)))
            else:
                _, inner, lo, hi = it
                f, n = emit_items(inner)
                level.append(("SL_RE_GROUP", lo, hi, f, n, (0, 0)))
        first = len(re_items)
        re_items.extend(level)
        return first, len(level)

    for name, extra in BOUNDS_EXTRA.items():
        for k, v in extra.items():
            if k in shapes[name]:
                die("BOUNDS_EXTRA: %s now has %s in the model" % (name, k))
            shapes[name][k] = v

    for name in order:
        s = shapes[name]
        t = s["type"]
        flags = []
        lo = s.get("min", 0)
        hi = s.get("max", 0)
        if "min" in s:
            flags.append("SL_SHAPE_HAS_MIN")
        if "max" in s:
            flags.append("SL_SHAPE_HAS_MAX")
        for v in (lo, hi):
            if v != int(v):
                die("shape %s has a non-integral bound" % name)
        a = b = 0
        model_a = 0
        req_mask = 0
        hash_first = hash_bits = 0
        pattern = 0
        enum_msg = ""
        if t == "structure":
            mem = s["members"]
            names = list(MEMBER_ORDER.get(name, [])) + [n for n in mem if n not in MEMBER_ORDER.get(name, [])]
            a = len(members)
            b = len(names)
            required = set(s.get("required", [])) | set(REQUIRED_EXTRA.get(name, []))
            if len(names) > 64:
                die("structure %s has more than 64 members (the validator keeps a 64-bit mask)"
                    % name)
            for pos, mname in enumerate(names):
                if mname in required:
                    req_mask |= 1 << pos
                m = mem[mname]
                shape = index[m["shape"]]
                alt = 0
                if mname == NAME_OR_ARN[0] and m["shape"] == NAME_OR_ARN[1]:
                    alt = shape + 1
                    shape = index[NAME_OR_ARN[2]]
                members.append((mname, lower_first(mname), shape, alt, mname in required))
            # A small hash table from member name to walk position (member_pos() in
            # src/server/validate.c computes the same hash).
            hash_bits = 1
            while (1 << hash_bits) < 2 * max(1, len(names)):
                hash_bits += 1
            table = [0] * (1 << hash_bits)
            for pos, mname in enumerate(names):
                slot = member_hash(mname) & ((1 << hash_bits) - 1)
                while table[slot]:
                    slot = (slot + 1) & ((1 << hash_bits) - 1)
                table[slot] = pos + 1
            hash_first = len(hash_slots)
            hash_slots.extend(table)
            model_a = a
            if names != list(mem):
                # Serialization errors follow the model's order (dynalite test/listTables.js:
                # ExclusiveStartTableName's type error wins over Limit's), so reordered
                # structures also get their members in model order.
                model_a = len(members)
                for mname in mem:
                    members.append(members[a + names.index(mname)])
        elif t == "list":
            a = index[s["member"]["shape"]]
        elif t == "map":
            a = index[s["key"]["shape"]]
            b = index[s["value"]["shape"]]
        elif t == "string":
            if "enum" in s:
                vals = ENUM_ORDER.get(name, s["enum"])
                a = len(enums)
                b = len(vals)
                enums.extend(vals)
                enum_msg = "Member must satisfy enum value set: [%s]" % ", ".join(vals)
            if "pattern" in s:
                src = s["pattern"]
                if src not in regex_index:
                    f, n = emit_items(Regex(PATTERN_EQUIVALENT.get(src, src)).parse())
                    regex_index[src] = len(regexes) + 1
                    regexes.append((src, f, n))
                pattern = regex_index[src]
        if "min" in s or "max" in s or "pattern" in s or "enum" in s:
            flags.append("SL_SHAPE_CONSTRAINED")
        if name == "AttributeValue":
            check_attribute_value(shapes)
            flags.append("SL_SHAPE_ATTRIBUTE_VALUE")
        if t in ("list", "map") and any(shapes[x]["type"] in ("list", "map") for x in
                                        ([s["member"]["shape"]] if t == "list" else [s["value"]["shape"]])):
            flags.append("SL_SHAPE_PARAMETERIZED")
        rows.append((name, java_type(shapes, name), TYPE_ENUM[t], flags or ["0"], lo, hi, a, b,
                     model_a, req_mask, hash_first, hash_bits, pattern, enum_msg))

    if len(order) > 0xFFFE or len(members) > 0xFFFF or len(re_items) > 0xFFFF:
        die("tables too large for 16-bit indexes")

    w = sys.stdout.write
    w("/* GENERATED by scripts/gen_shapes.py from botocore's models %s\n"
      " * (%s). Do not edit; rerun the script. Types: src/server/shapes.h. */\n"
      % (", ".join(descriptions), SOURCE_NOTE or "models read from " + data_dir))
    w('#include "server/shapes.h"\n\n')

    w("const sl_re_range sl_re_ranges[] = {\n")
    for lo, hi in re_ranges:
        w("    {0x%X, 0x%X},\n" % (lo, hi))
    w("};\n\n")
    w("const sl_re_item sl_re_items[] = {\n")
    for kind, lo, hi, f, n, (b0, b1) in re_items:
        w("    {%s, %d, %s, %d, %d, {0x%XULL, 0x%XULL}},\n"
          % (kind, lo, "SL_RE_INF" if hi == INF else hi, f, n, b0, b1))
    w("};\n\n")
    w("const sl_re sl_res[] = {\n    {{NULL, 0}, 0, 0},\n")
    for src, f, n in regexes:
        w("    {%s, %d, %d},\n" % (c_str(src), f, n))
    w("};\n\n")

    w("const sl_str sl_shape_enums[] = {\n")
    for v in enums:
        w("    %s,\n" % c_str(v))
    w("};\n\n")

    w("const uint8_t sl_shape_member_hash[] = {")
    for i, v in enumerate(hash_slots):
        w("%s%d," % ("\n    " if i % 24 == 0 else " ", v))
    w("\n};\n\n")
    w("const sl_shape_member sl_shape_members[] = {\n")
    for wire, msg, shape, alt, req in members:
        w("    {%s, %s, %d, %d, %d},\n" % (c_str(wire), c_str(msg), shape, alt, 1 if req else 0))
    w("};\n\n")

    w("const sl_shape sl_shapes[] = {\n")
    for i, (name, java, t, flags, lo, hi, a, b, model_a, req_mask, hash_first, hash_bits,
            pattern, enum_msg) in enumerate(rows):
        w("    /* %d */ {%s, %s, %s, %s, %s, %d, %d, %d, %d, %d, %d, %dLL, %dLL, 0x%XULL},\n"
          % (i, c_str(name), c_str(java), c_str(enum_msg), t, "|".join(flags),
             a, b, model_a, hash_first, hash_bits, pattern, lo, hi, req_mask))
    w("};\n")
    w("const size_t sl_shapes_n = %d;\n\n" % len(rows))

    # Sorted by (target prefix, name), bytewise like sl_str_cmp (all ASCII).
    w("const sl_shape_op sl_shape_ops[] = {\n")
    for _, prefix, opname, op in sorted(ops, key=lambda o: (o[1].encode(), o[2].encode())):
        shape = index[op["input"]["shape"]] if "input" in op else index[empty_input]
        w("    {%s, %s, %d},\n" % (c_str(prefix), c_str(opname), shape))
    w("};\n")
    w("const size_t sl_shape_ops_n = %d;\n" % len(ops))


if __name__ == "__main__":
    main()
