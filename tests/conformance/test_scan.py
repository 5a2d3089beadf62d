"""Scan: validation, full and paged scans, parallel scan (Segment/TotalSegments), Limit,
Select, ConsistentRead and the 1 MB page limit.

Each module table here is created for this file only, so a Scan sees exactly the items the
tests wrote. Filters are in test_filter_expression.py, projections in
test_projection_expression.py, capacity in test_query_scan_capacity.py. Sources for the real
service: dynalite test/scan.js (live texts), the Scan API reference; where DynamoDB Local
differs the test is marked ddblocal_differs.
"""
import uuid

import pytest

from conftest import call_retrying, error_of, invalid, N, S


ITEMS = 40


@pytest.fixture(scope="module")
def table(raw, module_table):
    """A hash-key table holding exactly ITEMS items, pk "item0".."item39", n = index."""
    name = module_table()
    for i in range(ITEMS):
        r = raw.call("PutItem", {"TableName": name, "Item": {"pk": S(f"item{i}"), "n": N(i), "pad": S("p" * i)}})
        assert r.status == 200, r
    return name


ALL = {f"item{i}" for i in range(ITEMS)}


def scan(raw, table, **kw):
    return raw.call("Scan", {"TableName": table, **kw})


def keys(r):
    assert r.status == 200, r
    return [i["pk"]["S"] for i in r.json["Items"]]


def scan_all(raw, table, **kw):
    """Every page of a Scan; returns (keys in order, number of pages, last reply)."""
    got, start, n = [], kw.pop("ExclusiveStartKey", None), 0
    while True:
        extra = {"ExclusiveStartKey": start} if start else {}
        r = scan(raw, table, **kw, **extra)
        got += keys(r)
        n += 1
        start = r.json.get("LastEvaluatedKey")
        if not start:
            return got, n, r
        assert n < 1000


# --- validation: segments ------------------------------------------------------------------------

SEGMENT_CASES = [
    ("segment_without_total", {"Segment": 0},
     "The TotalSegments parameter is required but was not present in the request when Segment parameter is "
     "present"),
    ("total_without_segment", {"TotalSegments": 2},
     "The Segment parameter is required but was not present in the request when parameter TotalSegments is "
     "present"),
    ("segment_not_below_total", {"Segment": 2, "TotalSegments": 2},
     "The Segment parameter is zero-based and must be less than parameter TotalSegments"),
    ("negative_segment", {"Segment": -1, "TotalSegments": 2},
     "1 validation error detected: Value at 'Segment' failed to satisfy constraint: Member must have value "
     "greater than or equal to 0"),
    ("zero_total", {"Segment": 0, "TotalSegments": 0},
     "1 validation error detected: Value at 'TotalSegments' failed to satisfy constraint: Member must have "
     "value greater than or equal to 1"),
    ("total_too_large", {"Segment": 0, "TotalSegments": 1000001},
     "1 validation error detected: Value at 'TotalSegments' failed to satisfy constraint: Member must "
     "have value less than or equal to 1000000"),
]


# Segment and TotalSegments come together, 0 <= Segment < TotalSegments <= 1,000,000.
@pytest.mark.parametrize("args,msg", [c[1:] for c in SEGMENT_CASES], ids=[c[0] for c in SEGMENT_CASES])
def test_invalid_segments(raw, table, args, msg):
    r = scan(raw, table, **args)
    assert r.status == 400 and r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "If segment is specified, total segment must also be
# specified", "If total segments is specified, a particular segment must also be specified for
# this request", and words the range checks as model constraints with other bounds ("Member
# must have value less than or equal to 1" for Segment 2 of 2).
# Source: dynalite test/scan.js "missing TotalSegments", "missing Segment", "Segment more than
# TotalSegments", "incorrect attributes" (live texts, the older wording). The service rewords
# Scan's parameter checks since September 2026 (a public conformance suite's Scan message
# tests, run against AWS: eu-west-2 and three other regions by the 2026-09-26 sweep, the rest
# following): Segment >= TotalSegments without its ": Segment: 5 is not less than
# TotalSegments: 5" tail, a negative Segment "Value at 'Segment'" with no value echoed; the
# same form for TotalSegments is inferred (no capture). validate.c "REWORD_SCAN".
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("args,msg", [c[1:] for c in SEGMENT_CASES], ids=[c[0] for c in SEGMENT_CASES])
def test_invalid_segments_message(raw, table, args, msg):
    assert scan(raw, table, **args).message == msg


# The extremes of the range are accepted.
def test_segment_extremes(raw, table):
    assert scan(raw, table, Segment=999999, TotalSegments=1000000).status == 200
    got, _, _ = scan_all(raw, table, Segment=0, TotalSegments=1)
    assert set(got) == ALL


# A LastEvaluatedKey only resumes the segment it came from.
def test_exclusive_start_key_of_other_segment(raw, table):
    r = scan(raw, table, Segment=1, TotalSegments=4, Limit=1)
    esk = r.json["LastEvaluatedKey"]
    r = scan(raw, table, Segment=0, TotalSegments=4, ExclusiveStartKey=esk)
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Exclusive start key must lie within the segment".
# Source: dynalite test/scan.js "ExclusiveStartKey is from different segment" (live text).
@pytest.mark.ddblocal_differs
def test_exclusive_start_key_of_other_segment_message(raw, table):
    esk = scan(raw, table, Segment=1, TotalSegments=4, Limit=1).json["LastEvaluatedKey"]
    r = scan(raw, table, Segment=0, TotalSegments=4, ExclusiveStartKey=esk)
    assert r.message == ("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                         "ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: 0")


# --- validation: other parameters ----------------------------------------------------------------

# A start key must match the key schema.
@pytest.mark.parametrize("esk", [{"pk": N(1)}, {"pk": S("a"), "x": S("b")}, {"x": S("a")}],
                         ids=["wrong_type", "extra_attribute", "other_attribute"])
def test_exclusive_start_key_invalid(raw, table, esk):
    assert scan(raw, table, ExclusiveStartKey=esk).error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Type mismatch for attribute to update", "Exclusive
# Start Key must have same size as table's key schema", "The provided starting key is invalid".
# Source: dynalite test/scan.js "ExclusiveStartKey does not match schema" recorded the older
# ": The provided key element does not match the schema" tail, which the newer wording drops,
# as Query's always did (the conformance suite above, September 2026, "malformed
# ExclusiveStartKey").
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("esk", [{"pk": N(1)}, {"pk": S("a"), "x": S("b")}, {"x": S("a")}],
                         ids=["wrong_type", "extra_attribute", "other_attribute"])
def test_exclusive_start_key_invalid_message(raw, table, esk):
    assert scan(raw, table, ExclusiveStartKey=esk).message == "The provided starting key is invalid"


# Limit is at least 1, as in Query.
def test_limit_zero(raw, table):
    assert scan(raw, table, Limit=0).error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local says "Limit must be greater than or equal to 1".
# Source: the conformance suite above (Scan "Limit of 0", September 2026: "the new cohort stops
# echoing the value and names the member as `Limit`, where the old one answers `Value '0' at
# 'limit'`"); validate.c "REWORD_SCAN".
@pytest.mark.ddblocal_differs
def test_limit_zero_message(raw, table):
    assert scan(raw, table, Limit=0).message == (
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must "
        "have value greater than or equal to 1")


# SPECIFIC_ATTRIBUTES without a projection: the sentence in the model-validation envelope.
# ddblocal_differs: DynamoDB Local gives the bare sentence (the service's older Scan wording).
# Source: the conformance suite above (Scan "Select SPECIFIC_ATTRIBUTES without
# ProjectionExpression", September 2026: "the new cohort wraps the same sentence in the
# `1 validation error detected: ` envelope").
@pytest.mark.ddblocal_differs
def test_specific_attributes_without_projection_message(raw, table):
    r = scan(raw, table, Select="SPECIFIC_ATTRIBUTES")
    assert error_of(r) == (400, "ValidationException",
                           "1 validation error detected: Must specify the AttributesToGet or "
                           "ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")


# ALL_PROJECTED_ATTRIBUTES needs an index, as in Query.
def test_all_projected_attributes_without_index(raw, table):
    r = scan(raw, table, Select="ALL_PROJECTED_ATTRIBUTES")
    assert error_of(r) == invalid("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")


# An unknown table is ResourceNotFoundException.
def test_unknown_table(raw):
    assert scan(raw, "t_" + uuid.uuid4().hex).error_type == "ResourceNotFoundException"


# --- behaviour -----------------------------------------------------------------------------------

# A Scan of a small table returns every item once, whole, in one page.
def test_full_scan(raw, table):
    r = scan(raw, table)
    assert set(r.json) == {"Items", "Count", "ScannedCount"}
    got = keys(r)
    assert sorted(got) == sorted(ALL) and len(got) == ITEMS
    assert r.json["Count"] == r.json["ScannedCount"] == ITEMS
    assert {"pk": S("item7"), "n": N(7), "pad": S("p" * 7)} in r.json["Items"]


# Select COUNT returns only the counts.
def test_count(raw, table):
    assert scan(raw, table, Select="COUNT").json == {"Count": ITEMS, "ScannedCount": ITEMS}


# Scans with either consistency see everything.
def test_consistent_read(raw, table):
    assert sorted(keys(scan(raw, table, ConsistentRead=True))) == sorted(ALL)


# Paging with Limit visits every item exactly once; each page holds at most Limit items, and
# the order is stable: the pages concatenate to the unpaged order.
@pytest.mark.parametrize("limit", [1, 3, 7, 39, 41, 100])
def test_paging_with_limit(raw, table, limit):
    got, npages, _ = scan_all(raw, table, Limit=limit)
    assert got == keys(scan(raw, table))
    assert npages >= -(-ITEMS // limit)


# At Limit == the item count a LastEvaluatedKey may or may not follow (Scan API reference:
# it "does not necessarily mean that there is more data"); if it does, the next page is empty
# and final. DynamoDB Local returns one.
def test_limit_exactly_at_end(raw, table):
    r = scan(raw, table, Limit=ITEMS)
    assert sorted(keys(r)) == sorted(ALL)
    if "LastEvaluatedKey" in r.json:
        r2 = scan(raw, table, Limit=ITEMS, ExclusiveStartKey=r.json["LastEvaluatedKey"])
        assert r2.json == {"Items": [], "Count": 0, "ScannedCount": 0}


# A Scan can resume from a LastEvaluatedKey of a different Limit.
def test_resume_with_other_limit(raw, table):
    r = scan(raw, table, Limit=10)
    rest, _, _ = scan_all(raw, table, ExclusiveStartKey=r.json["LastEvaluatedKey"], Limit=7)
    assert keys(r) + rest == keys(scan(raw, table))


# Parallel scan: the segments split the table, every item in exactly one segment, for any
# TotalSegments (more segments than items included).
@pytest.mark.parametrize("total", [1, 2, 3, 4, 7, 16, 50])
def test_parallel_scan_covers_every_item_once(raw, table, total):
    seen = []
    for seg in range(total):
        got, _, _ = scan_all(raw, table, Segment=seg, TotalSegments=total)
        seen += got
    assert sorted(seen) == sorted(ALL)


# Segments page on their own, with Limit, and stay within the segment.
def test_parallel_scan_paging(raw, table):
    seen = []
    for seg in range(4):
        whole = keys(scan(raw, table, Segment=seg, TotalSegments=4))
        paged, _, _ = scan_all(raw, table, Segment=seg, TotalSegments=4, Limit=3)
        assert paged == whole
        seen += paged
    assert sorted(seen) == sorted(ALL)


# A segment of 2 is the union of segments 2k and 2k+1 of 4: segments are ranges of one
# hash order, halved when TotalSegments doubles.
def test_segments_are_nested_ranges(raw, table):
    for seg in range(2):
        half = set(keys(scan(raw, table, Segment=seg, TotalSegments=2)))
        quarters = set(keys(scan(raw, table, Segment=2 * seg, TotalSegments=4))) | \
            set(keys(scan(raw, table, Segment=2 * seg + 1, TotalSegments=4)))
        assert half == quarters


# Counts and filters work per segment and add up.
def test_parallel_scan_counts(raw, table):
    total = sum(scan(raw, table, Segment=s, TotalSegments=3, Select="COUNT").json["Count"] for s in range(3))
    assert total == ITEMS
    matched = sum(scan(raw, table, Segment=s, TotalSegments=3, Select="COUNT", FilterExpression="n < :v",
                       ExpressionAttributeValues={":v": N(10)}).json["Count"] for s in range(3))
    assert matched == 10


# In a table with a sort key, the items of one partition come together, in sort-key order.
def test_partition_items_together_in_order(raw, module_table):
    name = module_table(range_key=("sk", "N"))
    for p in range(5):
        for s in (3, 1, 2, 0):
            raw.call("PutItem", {"TableName": name, "Item": {"pk": S(f"p{p}"), "sk": N(s)}})
    r = scan(raw, name)
    order = [(i["pk"]["S"], int(i["sk"]["N"])) for i in r.json["Items"]]
    for p in range(5):
        mine = [i for i, (pk, _) in enumerate(order) if pk == f"p{p}"]
        assert mine == list(range(mine[0], mine[0] + 4))
        assert [order[i][1] for i in mine] == [0, 1, 2, 3]
    got, _, _ = scan_all(raw, name, Limit=3)
    assert got == [pk for pk, _ in order]


# --- behaviour: the 1 MB page ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def big(raw, module_table):
    """A table of 12 items of ~100 KB."""
    name = module_table()
    for i in range(12):
        r = call_retrying(raw, "PutItem", {"TableName": name, "Item": {"pk": S(f"big{i}"), "x": S("a" * 100000)}})
        assert r.status == 200, r
    return name


# A Scan page stops once it has read 1 MB (after 10 or 11 of these items), with a
# LastEvaluatedKey; the next page returns the rest.
def test_one_megabyte_page(raw, big):
    r = scan(raw, big, Select="COUNT")
    n = r.json["Count"]
    assert n in (10, 11) and r.json["ScannedCount"] == n and "LastEvaluatedKey" in r.json
    got, npages, _ = scan_all(raw, big)
    assert sorted(got) == sorted(f"big{i}" for i in range(12)) and npages == 2


# The page limit counts items read before the filter.
# ddblocal_differs: DynamoDB Local measures the page after the filter when Items are returned.
# Source: Scan API reference ("A single Scan operation reads up to the maximum number of items
# set (if using the Limit parameter) or a maximum of 1 MB of data and then apply any filtering
# to the results using FilterExpression"); facts §2.2.
@pytest.mark.ddblocal_differs
def test_one_megabyte_page_before_filter(raw, big):
    n = scan(raw, big, Select="COUNT").json["Count"]
    r = scan(raw, big, FilterExpression="x = :z", ExpressionAttributeValues={":z": S("no")})
    assert r.json["Items"] == [] and r.json["ScannedCount"] == n and "LastEvaluatedKey" in r.json
