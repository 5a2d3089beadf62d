"""UpdateTimeToLive / DescribeTimeToLive, and expiry on the clock.

Texts and rules: the live service's (ack-api-quirks DDB-TABLE-143..147, facts §10) and
Alternator's test_ttl.py. DynamoDB Local implements both operations without the hourly
limit and never expires items: those tests are marked. Expiry is tested on sluice's manual
clock (sluice_only): items whose TTL attribute is a Number of epoch seconds at or before the
clock are deleted by a sweep within ttl_delete_delay_ms (3 s by default).
"""
import urllib.request

import pytest

from conftest import Raw, Server, admin

CLOCK_START_S = 1796040000  # 2026-11-30T12:00:00Z, the manual servers' start
SPEC = "TimeToLiveSpecification"


def ttl(raw, table, enabled, attr):
    return raw.call("UpdateTimeToLive", {"TableName": table,
                                         SPEC: {"Enabled": enabled, "AttributeName": attr}})


def describe(raw, table):
    r = raw.call("DescribeTimeToLive", {"TableName": table})
    assert r.status == 200, r
    return r.json["TimeToLiveDescription"]


# --- validation --------------------------------------------------------------------------------

# AttributeName is 1..255 characters (the model's constraint).
def test_attribute_name_too_long(raw, make_table):
    r = ttl(raw, make_table(), True, "x" * 256)
    assert (r.status, r.error_type) == (400, "ValidationException")


# Both members of the specification are required (Alternator test_update_ttl_errors).
def test_specification_members_required(raw, make_table):
    name = make_table()
    r = raw.call("UpdateTimeToLive", {"TableName": name, SPEC: {"Enabled": True}})
    assert (r.status, r.error_type) == (400, "ValidationException")
    r = raw.call("UpdateTimeToLive", {"TableName": name, SPEC: {"AttributeName": "e"}})
    assert (r.status, r.error_type) == (400, "ValidationException")


# An unknown table: ResourceNotFoundException, for both operations.
def test_unknown_table(raw):
    for op, body in (("UpdateTimeToLive", {SPEC: {"Enabled": True, "AttributeName": "e"}}),
                     ("DescribeTimeToLive", {})):
        r = raw.call(op, dict(body, TableName="no_such_table_ttl"))
        assert (r.status, r.error_type) == (400, "ResourceNotFoundException")


# ddblocal_differs: DynamoDB Local says "Cannot do operations on a non-existent table".
# The control plane's text names the table (DDB-TABLE-360).
@pytest.mark.ddblocal_differs
def test_unknown_table_message(raw):
    r = raw.call("DescribeTimeToLive", {"TableName": "no_such_table_ttl"})
    assert r.message == "Requested resource not found: Table: no_such_table_ttl not found"


# --- behaviour ---------------------------------------------------------------------------------

# A table starts DISABLED, without AttributeName (Alternator test_describe_ttl_without_ttl).
def test_fresh_table_is_disabled(raw, make_table):
    assert describe(raw, make_table()) == {"TimeToLiveStatus": "DISABLED"}


# Enabling echoes the specification; DescribeTimeToLive then shows ENABLED and the attribute
# at once (DDB-TABLE-145: ENABLING is never seen).
def test_enable(raw, make_table):
    name = make_table()
    r = ttl(raw, name, True, "expires")
    assert r.status == 200, r
    assert r.json == {SPEC: {"Enabled": True, "AttributeName": "expires"}}
    assert describe(raw, name) == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}


# Enabling again is an error, not a no-op (DDB-TABLE-147).
def test_enable_twice(raw, make_table):
    name = make_table()
    assert ttl(raw, name, True, "expires").status == 200
    r = ttl(raw, name, True, "expires")
    assert (r.status, r.error_type, r.message) == (400, "ValidationException",
                                                   "TimeToLive is already enabled")


# Another attribute while enabled: refused; the text names the current one (DDB-TABLE-147).
def test_enable_other_attribute(raw, make_table):
    name = make_table()
    assert ttl(raw, name, True, "expires").status == 200
    r = ttl(raw, name, True, "other")
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message.startswith("TimeToLive is active on a different AttributeName")


# ddblocal_differs: DynamoDB Local's text stops after "AttributeName".
@pytest.mark.ddblocal_differs
def test_enable_other_attribute_message(raw, make_table):
    name = make_table()
    assert ttl(raw, name, True, "expires").status == 200
    r = ttl(raw, name, True, "other")
    assert r.message == ("TimeToLive is active on a different AttributeName: current AttributeName "
                         "is expires")


# Disabling a disabled table is an error (DDB-TABLE-146).
def test_disable_when_disabled(raw, make_table):
    r = ttl(raw, make_table(), False, "expires")
    assert (r.status, r.error_type, r.message) == (400, "ValidationException",
                                                   "TimeToLive is already disabled")


# Disabling must name the current attribute (DDB-TABLE-146).
def test_disable_other_attribute(raw, make_table):
    name = make_table()
    assert ttl(raw, name, True, "expires").status == 200
    r = ttl(raw, name, False, "other")
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message.startswith("TimeToLive is active on a different AttributeName")


# ddblocal_differs: DynamoDB Local has no limit on changes.
# A second change within the interval is refused, the content checks coming first
# (DDB-TABLE-143; facts §10: one change per hour).
@pytest.mark.ddblocal_differs
def test_second_change_within_the_hour(raw, make_table):
    name = make_table()
    assert ttl(raw, name, True, "expires").status == 200
    r = ttl(raw, name, False, "expires")
    assert (r.status, r.error_type, r.message) == (
        400, "ValidationException",
        "Time to live has been modified multiple times within a fixed interval")
    assert ttl(raw, name, True, "expires").message == "TimeToLive is already enabled"
    assert describe(raw, name) == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}


# The key attribute may be the TTL attribute (DDB-TABLE-146, Alternator).
def test_key_attribute_as_ttl(raw, make_table):
    name = make_table(hash_key=("pk", "N"))
    assert ttl(raw, name, True, "pk").status == 200
    assert describe(raw, name)["AttributeName"] == "pk"


# --- on the manual clock -----------------------------------------------------------------------

@pytest.fixture
def clock_raw(manual_server):
    return Raw(manual_server.endpoint)


def advance(ep, ms):
    assert admin(ep, "POST", "/_sluice/clock", {"advance_ms": ms})[0] == 200


def new_table(raw, name, **kw):
    body = {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
    body.update(kw)
    r = raw.call("CreateTable", body)
    assert r.status == 200, r


def alive(raw, table, keys):
    out = []
    for k in keys:
        r = raw.call("GetItem", {"TableName": table, "Key": {"pk": {"S": k}}})
        if "Item" in r.json:
            out.append(k)
    return out


def metric(ep, name, table):
    with urllib.request.urlopen(ep + "/metrics", timeout=10) as r:
        text = r.read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and f'table_name="{table}"' in line and \
                "global_secondary_index_name" not in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


# After an hour of clock the setting may change again; disabled, the attribute is gone
# from the description (DDB-TABLE-144).
@pytest.mark.sluice_only
def test_change_after_the_interval(manual_server, clock_raw):
    raw = clock_raw
    new_table(raw, "ttl_interval")
    assert ttl(raw, "ttl_interval", True, "expires").status == 200
    advance(manual_server.endpoint, 3599_000)
    assert ttl(raw, "ttl_interval", False, "expires").status == 400
    advance(manual_server.endpoint, 1000)
    r = ttl(raw, "ttl_interval", False, "expires")
    assert r.status == 200, r
    assert r.json == {SPEC: {"Enabled": False, "AttributeName": "expires"}}
    assert describe(raw, "ttl_interval") == {"TimeToLiveStatus": "DISABLED"}
    assert ttl(raw, "ttl_interval", True, "expires").status == 400


# Expiry (Alternator test_ttl_expiration, on a clock): a Number of epoch seconds in the past
# expires, whatever its spelling; a future time, a string, or a time more than five years
# old does not. Deletion happens within the sweep delay, not before the time.
@pytest.mark.sluice_only
def test_expiry(manual_server, clock_raw):
    raw, ep = clock_raw, manual_server.endpoint
    now = CLOCK_START_S
    new_table(raw, "ttl_expiry")
    items = {
        "past": {"N": str(now - 60)},
        "exponent": {"N": f"{(now - 60) // 10}e1"},
        "fraction": {"N": f"{now - 60}.25"},
        "soon": {"N": str(now + 60)},
        "later": {"N": str(now + 3600)},
        "string": {"S": str(now - 60)},
        "ancient": {"N": "162777600"},
    }
    # One item exists before TTL is enabled: existing items are swept too.
    raw.call("PutItem", {"TableName": "ttl_expiry", "Item": {"pk": {"S": "past"}, "e": items["past"]}})
    assert ttl(raw, "ttl_expiry", True, "e").status == 200
    for k, v in items.items():
        if k != "past":
            assert raw.call("PutItem", {"TableName": "ttl_expiry",
                                        "Item": {"pk": {"S": k}, "e": v}}).status == 200
    raw.call("PutItem", {"TableName": "ttl_expiry", "Item": {"pk": {"S": "none"}}})
    keys = list(items) + ["none"]
    advance(ep, 3000)
    assert alive(raw, "ttl_expiry", keys) == ["soon", "later", "string", "ancient", "none"]
    advance(ep, 30_000)
    assert alive(raw, "ttl_expiry", keys) == ["soon", "later", "string", "ancient", "none"]
    advance(ep, 33_000)
    assert alive(raw, "ttl_expiry", keys) == ["later", "string", "ancient", "none"]
    assert metric(ep, "sluice_dynamodb_time_to_live_deleted_items", "ttl_expiry") == 4
    d = raw.call("DescribeTable", {"TableName": "ttl_expiry"}).json["Table"]
    assert d["ItemCount"] == 4


# An expired item leaves its indexes too, and its deletion consumes no capacity
# (Alternator test_ttl_expiration_gsi_lsi; developer guide: TTL deletes are free).
@pytest.mark.sluice_only
def test_expiry_maintains_indexes(manual_server, clock_raw):
    raw, ep = clock_raw, manual_server.endpoint
    now = CLOCK_START_S
    new_table(raw, "ttl_indexes",
              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                    {"AttributeName": "sk", "AttributeType": "S"},
                                    {"AttributeName": "g", "AttributeType": "S"},
                                    {"AttributeName": "l", "AttributeType": "S"}],
              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                         {"AttributeName": "sk", "KeyType": "RANGE"}],
              GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [
                  {"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}],
              LocalSecondaryIndexes=[{"IndexName": "lsi", "KeySchema": [
                  {"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
                  "Projection": {"ProjectionType": "ALL"}}])
    assert ttl(raw, "ttl_indexes", True, "e").status == 200
    for i, e in enumerate((now + 10, now + 100000)):
        assert raw.call("PutItem", {"TableName": "ttl_indexes", "Item": {
            "pk": {"S": "p"}, "sk": {"S": str(i)}, "g": {"S": "g"}, "l": {"S": str(i)},
            "e": {"N": str(e)}}}).status == 200
    consumed = metric(ep, "sluice_dynamodb_consumed_write_capacity_units", "ttl_indexes")
    advance(ep, 20_000)
    raw.call("DescribeTable", {"TableName": "ttl_indexes"})  # one more tick
    q = raw.call("Query", {"TableName": "ttl_indexes", "IndexName": "gsi",
                           "KeyConditionExpression": "g = :g",
                           "ExpressionAttributeValues": {":g": {"S": "g"}}})
    assert [i["sk"]["S"] for i in q.json["Items"]] == ["1"]
    q = raw.call("Query", {"TableName": "ttl_indexes", "IndexName": "lsi",
                           "KeyConditionExpression": "pk = :p",
                           "ExpressionAttributeValues": {":p": {"S": "p"}}})
    assert [i["sk"]["S"] for i in q.json["Items"]] == ["1"]
    d = raw.call("DescribeTable", {"TableName": "ttl_indexes"}).json["Table"]
    assert d["ItemCount"] == 1
    assert d["GlobalSecondaryIndexes"][0]["ItemCount"] == 1
    assert d["LocalSecondaryIndexes"][0]["ItemCount"] == 1
    assert metric(ep, "sluice_dynamodb_consumed_write_capacity_units", "ttl_indexes") == consumed


# Disabling stops expiry.
@pytest.mark.sluice_only
def test_disabled_ttl_does_not_expire(tmp_path):
    cfg = tmp_path / "ttl.conf"
    cfg.write_text("ttl_update_interval_ms = 0\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--config", str(cfg)])
    try:
        raw = Raw(srv.endpoint)
        new_table(raw, "ttl_off")
        assert ttl(raw, "ttl_off", True, "e").status == 200
        assert ttl(raw, "ttl_off", False, "e").status == 200
        raw.call("PutItem", {"TableName": "ttl_off", "Item": {
            "pk": {"S": "a"}, "e": {"N": str(CLOCK_START_S - 60)}}})
        advance(srv.endpoint, 60_000)
        assert alive(raw, "ttl_off", ["a"]) == ["a"]
    finally:
        srv.stop()
