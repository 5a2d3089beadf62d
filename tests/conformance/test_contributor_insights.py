"""UpdateContributorInsights, DescribeContributorInsights, ListContributorInsights
(facts §8; src/actions/*_contributor_insights.c).

DynamoDB Local does not implement these operations: it answers every one of them
with UnknownOperationException ("An unknown operation was requested."), checked
against DynamoDB Local 2026-01-16 at http://127.0.0.1:8001. So every test of the
operations' behaviour is marked ddblocal_differs and runs against sluice only;
test_dynamodb_local_does_not_know_them pins Local's answer when the suite targets it.

What comes from where: shapes and enums from the service model (botocore); the
ENABLING / DISABLING answer of UpdateContributorInsights, the rule name layout
DynamoDBContributorInsights-<KIND>-<table>-<epoch ms> and the rule order PKC, SKC, PKT,
SKT from the AWS CLI examples; the rules' meaning from the developer guide
(contributorinsights_HowItWorks). Inferences, not captures: THROTTLED_KEYS creates
only PKT/SKT; ListContributorInsights lists only enabled resources; the
ResourceNotFoundException text for an unknown index.
"""
import uuid

import pytest

from conftest import wait_gone

differs = pytest.mark.ddblocal_differs


def ci_table(make_table, sort=False, gsi=None, lsi=False):
    """A table (on-demand) with hash key pk, optionally sk (N), a GSI on g
    (with sort key gs when gsi == 'sorted') and an LSI."""
    kw = {}
    extra = []
    if gsi:
        schema = [{"AttributeName": "g", "KeyType": "HASH"}]
        extra.append(("g", "S"))
        if gsi == "sorted":
            schema.append({"AttributeName": "gs", "KeyType": "RANGE"})
            extra.append(("gs", "S"))
        kw["GlobalSecondaryIndexes"] = [{"IndexName": "byg", "KeySchema": schema,
                                         "Projection": {"ProjectionType": "ALL"}}]
    if lsi:
        extra.append(("l", "S"))
        kw["LocalSecondaryIndexes"] = [{"IndexName": "byl", "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}]
    return make_table(range_key=("sk", "N") if sort or lsi else None, extra_attrs=extra, **kw)


def rules(kinds, table, ts):
    return [f"DynamoDBContributorInsights-{k}-{table}-{ts}" for k in kinds]


def created_ms(desc):
    return int(desc["ContributorInsightsRuleList"][0].rsplit("-", 1)[1])




# ENABLE answers with the transitional status and the mode (default
# ACCESSED_AND_THROTTLED_KEYS); sluice is ENABLED at once, with the two partition-key
# rules of a hash-only table, named after the table and the creation time in ms.
@differs
def test_enable_table(raw, make_table):
    name = ci_table(make_table)
    r = raw.call("UpdateContributorInsights", {"TableName": name,
                                               "ContributorInsightsAction": "ENABLE"})
    assert r.status == 200, r
    assert r.json == {"TableName": name, "ContributorInsightsStatus": "ENABLING",
                      "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"}
    d = raw.call("DescribeContributorInsights", {"TableName": name}).json
    ts = created_ms(d)
    assert d["ContributorInsightsRuleList"] == rules(["PKC", "PKT"], name, ts)
    assert d["ContributorInsightsStatus"] == "ENABLED"
    assert d["ContributorInsightsMode"] == "ACCESSED_AND_THROTTLED_KEYS"
    assert d["TableName"] == name and "IndexName" not in d
    # LastUpdateDateTime is epoch seconds (with milliseconds), at or after creation.
    assert isinstance(d["LastUpdateDateTime"], float)
    assert d["LastUpdateDateTime"] * 1000 >= ts - 1
    assert set(d) == {"TableName", "ContributorInsightsRuleList", "ContributorInsightsStatus",
                      "LastUpdateDateTime", "ContributorInsightsMode"}


# A sort key adds the partition+sort key rules, in the AWS CLI example's order.
@differs
def test_enable_table_with_sort_key(raw, make_table):
    name = ci_table(make_table, sort=True)
    raw.call("UpdateContributorInsights", {"TableName": name, "ContributorInsightsAction": "ENABLE"})
    d = raw.call("DescribeContributorInsights", {"TableName": name}).json
    assert d["ContributorInsightsRuleList"] == rules(["PKC", "SKC", "PKT", "SKT"], name,
                                                     created_ms(d))


# THROTTLED_KEYS mode: only the most-throttled rules exist.
@differs
def test_throttled_keys_mode(raw, make_table):
    name = ci_table(make_table, sort=True)
    r = raw.call("UpdateContributorInsights", {"TableName": name,
                                               "ContributorInsightsAction": "ENABLE",
                                               "ContributorInsightsMode": "THROTTLED_KEYS"})
    assert r.json["ContributorInsightsMode"] == "THROTTLED_KEYS"
    d = raw.call("DescribeContributorInsights", {"TableName": name}).json
    assert d["ContributorInsightsMode"] == "THROTTLED_KEYS"
    assert d["ContributorInsightsRuleList"] == rules(["PKT", "SKT"], name, created_ms(d))
    # Switching the mode of an enabled table keeps its creation time.
    raw.call("UpdateContributorInsights", {"TableName": name, "ContributorInsightsAction": "ENABLE",
                                           "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"})
    d2 = raw.call("DescribeContributorInsights", {"TableName": name}).json
    assert d2["ContributorInsightsRuleList"] == rules(["PKC", "SKC", "PKT", "SKT"], name,
                                                      created_ms(d))


# A GSI has its own state: IndexName is echoed, its key schema decides the sort-key
# rules, and the table stays DISABLED.
@differs
def test_enable_gsi(raw, make_table):
    name = ci_table(make_table, gsi="sorted")
    r = raw.call("UpdateContributorInsights", {"TableName": name, "IndexName": "byg",
                                               "ContributorInsightsAction": "ENABLE"})
    assert r.json == {"TableName": name, "IndexName": "byg",
                      "ContributorInsightsStatus": "ENABLING",
                      "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"}
    d = raw.call("DescribeContributorInsights", {"TableName": name, "IndexName": "byg"}).json
    assert d["IndexName"] == "byg" and d["ContributorInsightsStatus"] == "ENABLED"
    assert d["ContributorInsightsRuleList"] == rules(["PKC", "SKC", "PKT", "SKT"], name,
                                                     created_ms(d))
    t = raw.call("DescribeContributorInsights", {"TableName": name}).json
    assert t == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}


# DISABLE answers DISABLING; then DISABLED with the time of the change and no rules.
@differs
def test_disable(raw, make_table):
    name = ci_table(make_table)
    raw.call("UpdateContributorInsights", {"TableName": name, "ContributorInsightsAction": "ENABLE"})
    r = raw.call("UpdateContributorInsights", {"TableName": name,
                                               "ContributorInsightsAction": "DISABLE"})
    assert r.status == 200
    assert r.json == {"TableName": name, "ContributorInsightsStatus": "DISABLING"}
    d = raw.call("DescribeContributorInsights", {"TableName": name}).json
    assert d["ContributorInsightsStatus"] == "DISABLED"
    assert "ContributorInsightsRuleList" not in d and "ContributorInsightsMode" not in d
    assert isinstance(d["LastUpdateDateTime"], float)


# A table that never had Contributor Insights: only its name and DISABLED.
@differs
def test_describe_never_enabled(raw, make_table):
    name = ci_table(make_table)
    r = raw.call("DescribeContributorInsights", {"TableName": name})
    assert r.status == 200
    assert r.json == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}


# TableName may be the table's ARN; replies name the table.
@differs
def test_table_arn(raw, ddb, make_table):
    name = ci_table(make_table)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    r = raw.call("UpdateContributorInsights", {"TableName": arn,
                                               "ContributorInsightsAction": "ENABLE"})
    assert r.status == 200 and r.json["TableName"] == name
    assert raw.call("DescribeContributorInsights",
                    {"TableName": arn}).json["ContributorInsightsStatus"] == "ENABLED"


# Unknown tables and indexes are ResourceNotFoundException; an LSI has no
# Contributor Insights of its own.
@differs
def test_not_found(raw, make_table):
    missing = "t_" + uuid.uuid4().hex[:12]
    for op, body in (("UpdateContributorInsights", {"ContributorInsightsAction": "ENABLE"}),
                     ("DescribeContributorInsights", {})):
        r = raw.call(op, dict(body, TableName=missing))
        assert r.status == 400
        assert r.error_type == "ResourceNotFoundException"
        assert r.message == f"Requested resource not found: Table: {missing} not found"
    name = ci_table(make_table, lsi=True)
    for index in ("nosuchindex", "byl"):
        r = raw.call("DescribeContributorInsights", {"TableName": name, "IndexName": index})
        assert r.error_type == "ResourceNotFoundException", r
        assert r.message == f"Requested resource not found: Index: {index} not found"
    r = raw.call("ListContributorInsights", {"TableName": missing})
    assert r.error_type == "ResourceNotFoundException"


# The model's checks come first, with the service's validation wording.
@differs
def test_validation(raw):
    r = raw.call("UpdateContributorInsights", {"TableName": "abc",
                                               "ContributorInsightsAction": "TOGGLE"})
    assert r.error_type == "ValidationException"
    assert r.message == ("1 validation error detected: Value 'TOGGLE' at "
                         "'contributorInsightsAction' failed to satisfy constraint: Member must "
                         "satisfy enum value set: [ENABLE, DISABLE]")
    r = raw.call("UpdateContributorInsights", {"TableName": "abc"})
    assert r.error_type == "ValidationException"
    assert "'contributorInsightsAction' failed to satisfy constraint: Member must not be null" \
        in r.message
    r = raw.call("UpdateContributorInsights", {"TableName": "abc",
                                               "ContributorInsightsAction": "ENABLE",
                                               "ContributorInsightsMode": "ALL"})
    assert r.error_type == "ValidationException"
    assert "Member must satisfy enum value set: [THROTTLED_KEYS, ACCESSED_AND_THROTTLED_KEYS]" \
        in r.message
    r = raw.call("DescribeContributorInsights", {})
    assert r.error_type == "ValidationException"
    assert "'tableName' failed to satisfy constraint: Member must not be null" in r.message
    r = raw.call("ListContributorInsights", {"MaxResults": 101})
    assert r.error_type == "ValidationException"
    assert r.message == ("1 validation error detected: Value '101' at 'maxResults' failed to "
                         "satisfy constraint: Member must have value less than or equal to 100")


# ListContributorInsights: the enabled table and GSI of one table, table first.
@differs
def test_list_one_table(raw, make_table):
    name = ci_table(make_table, gsi="plain")
    assert raw.call("ListContributorInsights", {"TableName": name}).json == {
        "ContributorInsightsSummaries": []}
    raw.call("UpdateContributorInsights", {"TableName": name, "IndexName": "byg",
                                           "ContributorInsightsAction": "ENABLE",
                                           "ContributorInsightsMode": "THROTTLED_KEYS"})
    raw.call("UpdateContributorInsights", {"TableName": name, "ContributorInsightsAction": "ENABLE"})
    r = raw.call("ListContributorInsights", {"TableName": name})
    assert r.status == 200
    assert r.json == {"ContributorInsightsSummaries": [
        {"TableName": name, "ContributorInsightsStatus": "ENABLED",
         "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"},
        {"TableName": name, "IndexName": "byg", "ContributorInsightsStatus": "ENABLED",
         "ContributorInsightsMode": "THROTTLED_KEYS"}]}


# Pages of MaxResults entries joined by NextToken give the whole list, each entry
# once, tables in name order.
@differs
def test_list_pages(raw, make_table):
    prefix = "ci_" + uuid.uuid4().hex[:8]
    names = [make_table(name=f"{prefix}_{i}") for i in range(3)]
    for n in names:
        raw.call("UpdateContributorInsights", {"TableName": n, "ContributorInsightsAction": "ENABLE"})
    seen, token, pages = [], None, 0
    while True:
        body = {"MaxResults": 1}
        if token:
            body["NextToken"] = token
        r = raw.call("ListContributorInsights", body)
        assert r.status == 200, r
        assert len(r.json["ContributorInsightsSummaries"]) <= 1
        seen += [s["TableName"] for s in r.json["ContributorInsightsSummaries"]]
        pages += 1
        token = r.json.get("NextToken")
        if not token:
            break
        assert pages < 10000
    mine = [s for s in seen if s.startswith(prefix)]
    assert mine == names
    assert len(seen) == len(set(seen))


# A dropped table takes its Contributor Insights state with it: a new table of the
# same name starts DISABLED.
@differs
def test_recreated_table_starts_disabled(raw, ddb, make_table):
    name = ci_table(make_table)
    raw.call("UpdateContributorInsights", {"TableName": name, "ContributorInsightsAction": "ENABLE"})
    ddb.delete_table(TableName=name)
    wait_gone(ddb, name)
    make_table(name=name)
    d = raw.call("DescribeContributorInsights", {"TableName": name}).json
    assert d == {"TableName": name, "ContributorInsightsStatus": "DISABLED"}


# The SDK reads the replies (LastUpdateDateTime as a datetime).
@differs
def test_boto3_round_trip(ddb, make_table):
    name = ci_table(make_table)
    r = ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
    assert r["ContributorInsightsStatus"] == "ENABLING"
    d = ddb.describe_contributor_insights(TableName=name)
    assert d["ContributorInsightsStatus"] == "ENABLED"
    assert d["LastUpdateDateTime"].year >= 2026
    listed = ddb.list_contributor_insights(TableName=name)["ContributorInsightsSummaries"]
    assert listed == [{"TableName": name, "ContributorInsightsStatus": "ENABLED"}] or \
        listed[0]["TableName"] == name
