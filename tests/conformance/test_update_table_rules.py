"""UpdateTable: which changes may share a request, and what a change meets while the table or
an index is still UPDATING from an earlier one (ResourceInUseException, one text per cause).

Sources: the ack-api-quirks live-probe catalogue (ACKQ, a public GitHub file dated
2026-10-09, us-east-1 and us-west-2): DDB-TABLE-433 and DDB-TABLE-382 (every pair of
table-level members sent together on idle tables), DDB-TABLE-174 (a GSI Create beside them),
DDB-TABLE-444 (the ResourceInUseException texts), DDB-TABLE-369 and -370 (what a billing
switch or throughput change refuses and admits while UPDATING).

DynamoDB Local applies none of the combination rules (checked against its 2026-01-16 jar: DP +
TableClass, Warm + BillingMode, ODT + Warm are all 200) and its table changes are instant, so
the first group is marked ddblocal_differs and the UPDATING group needs sluice's manual clock.
"""
import os
import uuid

import pytest

INVALID = "One or more parameter values were invalid: "
IN_USE = "Attempt to change a resource which is still in use: "

PT = {"ProvisionedThroughput": {"ReadCapacityUnits": 6, "WriteCapacityUnits": 6}}
STREAM = {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}}
DP = {"DeletionProtectionEnabled": True}
SSE = {"SSESpecification": {"Enabled": False}}
CLASS = {"TableClass": "STANDARD_INFREQUENT_ACCESS"}
WARM = {"WarmThroughput": {"ReadUnitsPerSecond": 15000}}
ODT = {"OnDemandThroughput": {"MaxReadRequestUnits": 100}}
PROV = {"BillingMode": "PROVISIONED"}
PPR = {"BillingMode": "PAY_PER_REQUEST"}

MSG_SSE = INVALID + "Server-Side Encryption modification must be the only operation in the request"
MSG_CLASS = INVALID + "TableClass modification must be the only operation in the request"
MSG_DP = INVALID + "DeletionProtection modification must be the only operation in the request"
MSG_WARM = INVALID + "WarmThroughput must be the only operation in the request"
MSG_ODT = INVALID + "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request"


def combined(*parts):
    body = {}
    for p in parts:
        body.update(p)
    return body


# --- one kind of change per request ---------------------------------------------------------

# Each pair, both members valid on their own, is refused synchronously and nothing applies.
# The exclusive members name themselves in the order SSE > TableClass > DeletionProtection >
# (OnDemandThroughput) > WarmThroughput (ACKQ DDB-TABLE-433: "DP+SSE names SSE, DP+CLASS names
# TableClass, WARM+DP names DP"; DDB-TABLE-382: ODT + Stream / Warm name ODT; DDB-TABLE-156:
# DP + BillingMode names DP). ODT + ProvisionedThroughput follows the ODT text's own rule
# ("can only be combined with BillingMode"): inferred, that pair is not in the captures.
# ddblocal_differs: DynamoDB Local accepts all of these.
PAIRS = [
    ("dp+pt", (DP, PT), MSG_DP),
    ("dp+stream", (DP, STREAM), MSG_DP),
    ("dp+billing", (DP, PROV), MSG_DP),
    ("dp+odt", (DP, ODT), MSG_DP),
    ("dp+warm", (DP, WARM), MSG_DP),
    ("sse+dp", (SSE, DP), MSG_SSE),
    ("sse+pt", (SSE, PT), MSG_SSE),
    ("sse+class", (SSE, CLASS), MSG_SSE),
    ("sse+warm", (SSE, WARM), MSG_SSE),
    ("class+dp", (CLASS, DP), MSG_CLASS),
    ("class+pt", (CLASS, PT), MSG_CLASS),
    ("class+stream", (CLASS, STREAM), MSG_CLASS),
    ("class+warm", (CLASS, WARM), MSG_CLASS),
    ("warm+pt", (WARM, PT), MSG_WARM),
    ("warm+stream", (WARM, STREAM), MSG_WARM),
    ("warm+billing", (WARM, PROV), MSG_WARM),
    ("odt+stream", (ODT, STREAM), MSG_ODT),
    ("odt+warm", (ODT, WARM), MSG_ODT),
    ("odt+pt", (ODT, PT), MSG_ODT),
]


@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("case,parts,message", PAIRS, ids=[p[0] for p in PAIRS])
def test_exclusive_members_refuse_company(raw, ddb, make_table, case, parts, message):
    name = make_table(ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    before = ddb.describe_table(TableName=name)["Table"]
    r = raw.call("UpdateTable", combined({"TableName": name}, *parts))
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", message), r
    after = ddb.describe_table(TableName=name)["Table"]
    assert after["TableStatus"] == "ACTIVE"
    assert after.get("DeletionProtectionEnabled") == before.get("DeletionProtectionEnabled")
    assert "StreamSpecification" not in after


# The rules need only the request: a missing table gets the ValidationException too (the
# service validates before it looks the table up, test_validation_order.py).
@pytest.mark.ddblocal_differs
def test_exclusive_rule_comes_before_the_table_lookup(raw):
    r = raw.call("UpdateTable", combined({"TableName": "t_missing_" + uuid.uuid4().hex[:8]},
                                         DP, WARM))
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", MSG_DP), r


# A GSI Create beside WarmThroughput keeps its own text (ACKQ DDB-TABLE-174), beside
# DeletionProtection the DP text (same finding); a GSI Delete beside WarmThroughput gets the
# WarmThroughput rule (DDB-TABLE-433 "WARM+*").
@pytest.mark.ddblocal_differs
def test_gsi_create_or_delete_beside_exclusive_members(raw, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[{
        "IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    create = {"AttributeDefinitions": [{"AttributeName": "h", "AttributeType": "S"}],
              "GlobalSecondaryIndexUpdates": [{"Create": {
                  "IndexName": "gsi2", "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}],
                  "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}
    delete = {"GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]}
    cases = [
        (combined(create, WARM), INVALID + "Create global secondary index cannot be specified "
                                           "when updating WarmThroughput"),
        (combined(create, DP), MSG_DP),
        (combined(create, CLASS), MSG_CLASS),
        (combined(create, SSE), MSG_SSE),
        (combined(delete, WARM), MSG_WARM),
        (combined(delete, DP), MSG_DP),
    ]
    for body, message in cases:
        r = raw.call("UpdateTable", combined({"TableName": name}, body))
        assert (r.status, r.error_type, r.message) == (400, "ValidationException", message), \
            (body, r)


# An on-demand maximum on a PROVISIONED table is refused (live, ACKQ DDB-TABLE-059: "One or more
# parameter values were invalid: MaxReadRequestUnits for OnDemandThroughput cannot be specified
# when the table BillingMode is PROVISIONED"); naming MaxWriteRequestUnits when only it is sent
# follows the GSI text's pattern (the catalogue DDB-TABLE-442 lists the Write variant too).
# ddblocal_differs: DynamoDB Local accepts it.
@pytest.mark.ddblocal_differs
def test_on_demand_maximum_on_provisioned_table(raw, make_table):
    name = make_table(ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    for od, which in (({"MaxReadRequestUnits": 100}, "Read"),
                      ({"MaxWriteRequestUnits": 100}, "Write")):
        r = raw.call("UpdateTable", {"TableName": name, "OnDemandThroughput": od})
        assert (r.status, r.error_type, r.message) == (
            400, "ValidationException",
            INVALID + f"Max{which}RequestUnits for OnDemandThroughput cannot be specified when the "
            "table BillingMode is PROVISIONED"), r


# The pairs the service accepts: BillingMode=PAY_PER_REQUEST with a stream change or with
# OnDemandThroughput (ACKQ DDB-TABLE-433: "The only accepted pairs"; DDB-TABLE-382).
# ddblocal_differs: DynamoDB Local answers the second pair with HTTP 500 InternalFailure.
# (DescribeTable is read raw: botocore 1.26 predates OnDemandThroughput.)
@pytest.mark.ddblocal_differs
def test_billing_switch_combines_with_stream_and_on_demand_maximum(raw, ddb, make_table):
    from conftest import wait_active
    a = make_table(ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    r = raw.call("UpdateTable", combined({"TableName": a}, PPR, STREAM))
    assert r.status == 200, r
    d = wait_active(ddb, a, timeout=600)
    assert d["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert d["StreamSpecification"]["StreamEnabled"] is True
    b = make_table(ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    r = raw.call("UpdateTable", combined({"TableName": b}, PPR, ODT))
    assert r.status == 200, r
    wait_active(ddb, b, timeout=600)
    d = raw.call("DescribeTable", {"TableName": b}).json["Table"]
    assert d["OnDemandThroughput"]["MaxReadRequestUnits"] == 100


# --- while UPDATING ---------------------------------------------------------------------------

DELAY_MS = 5000


@pytest.fixture
def slow(tmp_path):
    """A private manual-clock sluice whose table changes stay UPDATING for 5 s."""
    from conftest import Client, Server, _is_sluice_cached
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    conf = tmp_path / "slow.conf"
    conf.write_text(f"table_update_delay_ms = {DELAY_MS}\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(conf)])
    yield Client(srv.endpoint)
    srv.stop()


def provisioned(c, **kw):
    name = "t_" + uuid.uuid4().hex[:12]
    c.create_table(name, ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                   **kw)
    return name


def update(c, name, *parts):
    return c.call("UpdateTable", combined({"TableName": name}, *parts))


def in_use(reply, message):
    status, body = reply
    assert status == 400, body
    assert body["__type"].endswith("ResourceInUseException"), body
    assert body["message"] == message, body


PT2 = {"ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 7}}


# During a throughput change a second throughput change or a billing switch is refused with the
# IOPS text, a stream change with its own text, DeleteTable with "in the process of being
# updated"; DeletionProtection and WarmThroughput changes are admitted (ACKQ DDB-TABLE-370 and
# -369, live); once ACTIVE the same change is accepted. Sluice-only: the delay is configured.
@pytest.mark.sluice_only
def test_throughput_change_in_progress(slow):
    c = slow
    name = provisioned(c)
    assert update(c, name, PT)[0] == 200
    iops = IN_USE + f"Table IOPS are currently being updated. Table: {name}"
    in_use(update(c, name, PT2), iops)
    in_use(update(c, name, PPR), iops)
    in_use(update(c, name, STREAM),
           IN_USE + f"Can't enable or disable stream while table IOPS are being updated. Table: {name}")
    in_use(c.call("DeleteTable", {"TableName": name}),
           IN_USE + f"Table: {name} is in the process of being updated.")
    status, reply = update(c, name, DP)
    assert status == 200, reply
    # The admitted change does not end the throughput change sooner or later than due.
    c.advance(DELAY_MS - 1)
    in_use(update(c, name, PT2), iops)
    c.advance(1)
    status, reply = c.call("DescribeTable", {"TableName": name})
    assert reply["Table"]["TableStatus"] == "ACTIVE", reply
    assert update(c, name, PT2)[0] == 200


# A billing switch refuses an OnDemandThroughput change with its own text (ACKQ DDB-TABLE-369:
# "OnDemandThroughput cannot be updated while BillingMode update is in progress").
@pytest.mark.sluice_only
def test_billing_switch_in_progress(slow):
    c = slow
    name = provisioned(c)
    assert update(c, name, PPR)[0] == 200
    in_use(update(c, name, ODT),
           IN_USE + "OnDemandThroughput cannot be updated while BillingMode update is in progress")
    in_use(update(c, name, PROV, PT2),
           IN_USE + f"Table IOPS are currently being updated. Table: {name}")


# A stream change in progress: a throughput change and a second stream change get the stream
# texts, naming the stream's label and the operation (ACKQ DDB-TABLE-444 catalogue).
@pytest.mark.sluice_only
def test_stream_change_in_progress(slow):
    c = slow
    name = provisioned(c)
    status, reply = update(c, name, STREAM)
    assert status == 200, reply
    label = reply["TableDescription"]["LatestStreamLabel"]
    in_use(update(c, name, PT2),
           IN_USE + f"Can't change table IOPS when stream status is being updated. Table: {name} "
           f"Stream: {label} Operation: ENABLE")
    in_use(update(c, name, {"StreamSpecification": {"StreamEnabled": False}}),
           IN_USE + f"A stream status change is currently in progress. Table: {name} "
           f"Stream: {label} Operation: ENABLE")


# A table-class change in progress refuses a second one (ACKQ DDB-TABLE-444 catalogue: "Can't
# update table class when a table class update is in progress. Table: <TBL>
# TableClassUpdateInProgress: <CLASS>").
@pytest.mark.sluice_only
def test_table_class_change_in_progress(slow):
    c = slow
    name = provisioned(c)
    assert update(c, name, CLASS)[0] == 200
    in_use(update(c, name, {"TableClass": "STANDARD"}),
           IN_USE + f"Can't update table class when a table class update is in progress. "
           f"Table: {name} TableClassUpdateInProgress: STANDARD_INFREQUENT_ACCESS")


# Sluice keeps a table UPDATING after a deletion-protection change, which the service does not
# (ACKQ DDB-TABLE-370: dp_toggle answered with TableStatus ACTIVE): that UPDATING holds back
# neither a second change nor a DeleteTable (the Terraform order: disable protection, delete).
@pytest.mark.sluice_only
def test_deletion_protection_change_holds_nothing_back(slow):
    c = slow
    name = provisioned(c)
    assert update(c, name, DP)[0] == 200
    assert update(c, name, {"DeletionProtectionEnabled": False})[0] == 200
    status, reply = c.call("DeleteTable", {"TableName": name})
    assert status == 200, reply


# A second GSI Update while the first keeps the index UPDATING is refused (ACKQ DDB-TABLE-444
# catalogue "Index is being updated. Table: <TBL> Index: <IDX>"; seen live for a second GSI
# OnDemandThroughput update in flight); once the index is ACTIVE it is accepted.
@pytest.mark.sluice_only
def test_second_gsi_update_while_index_updating(slow):
    c = slow
    name = provisioned(c, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                {"AttributeName": "g", "AttributeType": "S"}],
                       GlobalSecondaryIndexes=[{
                           "IndexName": "gsi1",
                           "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "KEYS_ONLY"},
                           "ProvisionedThroughput": {"ReadCapacityUnits": 5,
                                                     "WriteCapacityUnits": 5}}])

    def gsi(r, w):
        return {"GlobalSecondaryIndexUpdates": [{"Update": {
            "IndexName": "gsi1",
            "ProvisionedThroughput": {"ReadCapacityUnits": r, "WriteCapacityUnits": w}}}]}

    status, reply = update(c, name, gsi(6, 6))
    assert status == 200, reply
    assert reply["TableDescription"]["GlobalSecondaryIndexes"][0]["IndexStatus"] == "UPDATING"
    in_use(update(c, name, gsi(7, 7)), IN_USE + f"Index is being updated. Table: {name} Index: gsi1")
    c.advance(DELAY_MS)
    status, reply = update(c, name, gsi(7, 7))
    assert status == 200, reply


# While a GSI added by UpdateTable is allocating its resources, a table throughput change and a
# stream change are refused, naming the index (ACKQ DDB-TABLE-444 catalogue: "Can't change table
# IOPS when an index is being created. Table: <TBL> Indexes: [<IDX>]", also "Can't change stream
# status when an index is being created"; the stream text's Table/Indexes tail is the IOPS
# text's, by analogy). Sluice-only: the allocation delay is configured.
@pytest.mark.sluice_only
def test_table_changes_while_index_is_created(tmp_path):
    from conftest import Client, Server, _is_sluice_cached
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    conf = tmp_path / "slow.conf"
    conf.write_text("index_create_delay_ms = 5000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(conf)])
    try:
        c = Client(srv.endpoint)
        name = provisioned(c)
        status, reply = update(c, name, {
            "AttributeDefinitions": [{"AttributeName": "g", "AttributeType": "S"}],
            "GlobalSecondaryIndexUpdates": [{"Create": {
                "IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
                "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}}]})
        assert status == 200, reply
        in_use(update(c, name, PT2), IN_USE + "Can't change table IOPS when an index is being "
               f"created. Table: {name} Indexes: [gsi1]")
        in_use(update(c, name, STREAM), IN_USE + "Can't change stream status when an index is "
               f"being created. Table: {name} Indexes: [gsi1]")
    finally:
        srv.stop()


# What a table is UPDATING for is in its catalog record: after a restart (same clock start) a
# second stream change still gets the stream text.
@pytest.mark.sluice_only
def test_update_cause_survives_a_restart(tmp_path):
    from conftest import Client, Server, _is_sluice_cached
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    conf = tmp_path / "slow.conf"
    conf.write_text(f"table_update_delay_ms = {DELAY_MS}\n")
    data = tmp_path / "data"
    data.mkdir()
    args = ["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--config", str(conf),
            "--data-dir", str(data)]
    srv = Server(args)
    try:
        c = Client(srv.endpoint)
        name = provisioned(c)
        status, reply = update(c, name, STREAM)
        assert status == 200, reply
        label = reply["TableDescription"]["LatestStreamLabel"]
    finally:
        srv.stop()
    srv = Server(args)
    try:
        c = Client(srv.endpoint)
        in_use(update(c, name, {"StreamSpecification": {"StreamEnabled": False}}),
               IN_USE + f"A stream status change is currently in progress. Table: {name} "
               f"Stream: {label} Operation: ENABLE")
        c.advance(DELAY_MS)
        status, reply = update(c, name, {"StreamSpecification": {"StreamEnabled": False}})
        assert status == 200, reply
    finally:
        srv.stop()
