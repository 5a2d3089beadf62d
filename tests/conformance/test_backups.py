"""On-demand backups and continuous-backup settings: CreateBackup, DescribeBackup,
ListBackups, DeleteBackup, RestoreTableFromBackup (a real copy of the table's definition and
items, indexes rebuilt), DescribeContinuousBackups / UpdateContinuousBackups (the
point-in-time-recovery setting stored and reported with its dates) and
RestoreTableToPointInTime (refused: sluice keeps no history).

ddblocal_differs: DynamoDB Local answers every one of these operations with
UnknownOperationException ("An unknown operation was requested."), so these tests run
against sluice only. Shapes: botocore's model (BackupDetails, BackupDescription,
BackupSummary, ContinuousBackupsDescription); error texts as moto reproduces them
("Table not found: T", "Backup not found: ARN", "Table already exists: T").
"""
import os
import time
import uuid

import pytest

from conftest import Raw, Server, S, N

pytestmark = pytest.mark.ddblocal_differs

H = {"AttributeName": "pk", "KeyType": "HASH"}


def wait_active(raw, name, timeout=30):
    t0 = time.time()
    while True:
        d = raw.call("DescribeTable", {"TableName": name}).json["Table"]
        if d["TableStatus"] == "ACTIVE" and all(
                g.get("IndexStatus") == "ACTIVE" for g in d.get("GlobalSecondaryIndexes", [])):
            return d
        assert time.time() - t0 < timeout, d
        time.sleep(0.05)


def make_source(raw, name, n=5):
    """A table keyed by pk with a GSI on g (multi-attribute: g, h) and n items."""
    r = raw.call("CreateTable", {
        "TableName": name, "KeySchema": [H],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "g", "AttributeType": "S"},
                                 {"AttributeName": "h", "AttributeType": "N"}],
        "BillingMode": "PAY_PER_REQUEST",
        "GlobalSecondaryIndexes": [{"IndexName": "byg", "KeySchema": [
            {"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "h", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}]})
    assert r.status == 200, r
    wait_active(raw, name)
    for i in range(n):
        assert raw.call("PutItem", {"TableName": name, "Item": {
            "pk": S("p%d" % i), "g": S("G"), "h": N(i % 2), "v": S("x" * 100)}}).status == 200


@pytest.fixture
def names(raw):
    made = []

    def new():
        made.append("bk_" + uuid.uuid4().hex[:10])
        return made[-1]
    yield new
    for n in made:
        raw.call("DeleteTable", {"TableName": n})


def scan_pks(raw, name, **kw):
    r = raw.call("Scan", {"TableName": name, **kw})
    assert r.status == 200, r
    return sorted(i["pk"]["S"] for i in r.json["Items"])


# CreateBackup answers BackupDetails (AVAILABLE, USER, an ARN under the table's); the backup
# is the table as it was: later writes do not change it, and a restore brings back exactly
# its items, queryable through the rebuilt index.
def test_backup_and_restore(raw, names):
    src = names()
    make_source(raw, src)
    r = raw.call("CreateBackup", {"TableName": src, "BackupName": "nightly"})
    assert r.status == 200, r
    d = r.json["BackupDetails"]
    assert d["BackupName"] == "nightly" and d["BackupStatus"] == "AVAILABLE"
    assert d["BackupType"] == "USER" and d["BackupSizeBytes"] > 500
    arn = d["BackupArn"]
    assert arn.startswith("arn:aws:dynamodb:us-east-1:000000000000:table/%s/backup/" % src)
    assert isinstance(d["BackupCreationDateTime"], (int, float))
    # Changes after the backup are not in it.
    raw.call("DeleteItem", {"TableName": src, "Key": {"pk": S("p0")}})
    raw.call("PutItem", {"TableName": src, "Item": {"pk": S("new"), "g": S("G"), "h": N(0)}})
    dst = names()
    r = raw.call("RestoreTableFromBackup", {"TargetTableName": dst, "BackupArn": arn})
    assert r.status == 200, r
    td = r.json["TableDescription"]
    assert td["TableName"] == dst and td["TableStatus"] == "CREATING"
    src_arn = raw.call("DescribeTable", {"TableName": src}).json["Table"]["TableArn"]
    rs = td["RestoreSummary"]
    assert rs["SourceBackupArn"] == arn and rs["SourceTableArn"] == src_arn
    assert rs["RestoreInProgress"] is False and isinstance(rs["RestoreDateTime"], (int, float))
    assert td["GlobalSecondaryIndexes"][0]["KeySchema"] == [
        {"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "h", "KeyType": "HASH"}]
    d = wait_active(raw, dst)
    assert d["ItemCount"] == 5 and d["RestoreSummary"] == rs
    assert d["TableId"] != raw.call("DescribeTable", {"TableName": src}).json["Table"]["TableId"]
    assert scan_pks(raw, dst) == ["p0", "p1", "p2", "p3", "p4"]
    r = raw.call("Query", {"TableName": dst, "IndexName": "byg",
                           "KeyConditionExpression": "g = :g AND h = :h",
                           "ExpressionAttributeValues": {":g": S("G"), ":h": N(1)}})
    assert sorted(i["pk"]["S"] for i in r.json["Items"]) == ["p1", "p3"]
    # The restored table is an ordinary table.
    assert raw.call("PutItem", {"TableName": dst, "Item": {"pk": S("z")}}).status == 200
    # The backup outlives its table.
    assert raw.call("DeleteTable", {"TableName": src}).status == 200
    r = raw.call("DescribeBackup", {"BackupArn": arn})
    assert r.status == 200 and r.json["BackupDescription"]["SourceTableDetails"]["TableName"] == src


# DescribeBackup: the details, the source table's key schema, throughput, counts, and its
# indexes.
def test_describe_backup(raw, names):
    src = names()
    make_source(raw, src, n=3)
    arn = raw.call("CreateBackup", {"TableName": src, "BackupName": "first"}).json[
        "BackupDetails"]["BackupArn"]
    r = raw.call("DescribeBackup", {"BackupArn": arn})
    assert r.status == 200, r
    bd = r.json["BackupDescription"]
    assert bd["BackupDetails"]["BackupArn"] == arn
    st = bd["SourceTableDetails"]
    assert st["TableName"] == src and st["KeySchema"] == [H]
    assert st["ItemCount"] == 3 and st["BillingMode"] == "PAY_PER_REQUEST"
    assert st["ProvisionedThroughput"] == {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}
    (g,) = bd["SourceTableFeatureDetails"]["GlobalSecondaryIndexes"]
    assert g["IndexName"] == "byg" and g["Projection"] == {"ProjectionType": "ALL"}


# ListBackups: creation order, filtered by table (name or ARN) and time, paged by Limit and
# ExclusiveStartBackupArn; DeleteBackup answers the description with BackupStatus DELETED
# and the backup is gone.
def test_list_and_delete(raw, names):
    a, b = names(), names()
    make_source(raw, a, n=1)
    make_source(raw, b, n=1)
    arns = [raw.call("CreateBackup", {"TableName": t, "BackupName": "name%d" % i}).json[
        "BackupDetails"]["BackupArn"] for i, t in enumerate([a, b, a])]
    r = raw.call("ListBackups", {"TableName": a})
    assert [s["BackupArn"] for s in r.json["BackupSummaries"]] == [arns[0], arns[2]]
    s = r.json["BackupSummaries"][0]
    assert s["TableName"] == a and s["BackupName"] == "name0" and s["BackupStatus"] == "AVAILABLE"
    arn_a = raw.call("DescribeTable", {"TableName": a}).json["Table"]["TableArn"]
    assert len(raw.call("ListBackups", {"TableName": arn_a}).json["BackupSummaries"]) == 2
    mine = [x for x in raw.call("ListBackups", {}).json["BackupSummaries"]
            if x["BackupArn"] in arns]
    assert [x["BackupArn"] for x in mine] == arns
    r = raw.call("ListBackups", {"TableName": a, "Limit": 1})
    assert [x["BackupArn"] for x in r.json["BackupSummaries"]] == [arns[0]]
    assert r.json["LastEvaluatedBackupArn"] == arns[0]
    r = raw.call("ListBackups", {"TableName": a, "ExclusiveStartBackupArn": arns[0]})
    assert [x["BackupArn"] for x in r.json["BackupSummaries"]] == [arns[2]]
    assert "LastEvaluatedBackupArn" not in r.json
    assert raw.call("ListBackups", {"TableName": a, "TimeRangeUpperBound": 1000}).json[
        "BackupSummaries"] == []
    assert raw.call("ListBackups", {"TableName": a, "BackupType": "SYSTEM"}).json[
        "BackupSummaries"] == []
    r = raw.call("DeleteBackup", {"BackupArn": arns[0]})
    assert r.status == 200, r
    assert r.json["BackupDescription"]["BackupDetails"]["BackupStatus"] == "DELETED"
    r = raw.call("DescribeBackup", {"BackupArn": arns[0]})
    assert (r.error_type, r.message) == ("BackupNotFoundException",
                                         "Backup not found: " + arns[0])
    assert [x["BackupArn"] for x in raw.call("ListBackups", {"TableName": a}).json[
        "BackupSummaries"]] == [arns[2]]
    for arn in arns[1:]:
        assert raw.call("DeleteBackup", {"BackupArn": arn}).status == 200


# The errors: a missing table, a missing backup, an existing restore target.
def test_errors(raw, names):
    r = raw.call("CreateBackup", {"TableName": "no_such_table", "BackupName": "bkp"})
    assert (r.status, r.error_type, r.message) == (400, "TableNotFoundException",
                                                   "Table not found: no_such_table")
    bogus = "arn:aws:dynamodb:us-east-1:000000000000:table/x/backup/01700000000000-0000abcd"
    for op in ("DescribeBackup", "DeleteBackup"):
        r = raw.call(op, {"BackupArn": bogus})
        assert (r.error_type, r.message) == ("BackupNotFoundException", "Backup not found: " + bogus)
    r = raw.call("RestoreTableFromBackup", {"TargetTableName": "restored", "BackupArn": bogus})
    assert r.error_type == "BackupNotFoundException"
    src = names()
    make_source(raw, src, n=1)
    arn = raw.call("CreateBackup", {"TableName": src, "BackupName": "bkp"}).json[
        "BackupDetails"]["BackupArn"]
    r = raw.call("RestoreTableFromBackup", {"TargetTableName": src, "BackupArn": arn})
    assert (r.error_type, r.message) == ("TableAlreadyExistsException",
                                         "Table already exists: " + src)
    # The model's checks come first.
    r = raw.call("CreateBackup", {"TableName": src})
    assert r.error_type == "ValidationException" and "backupName" in r.message
    raw.call("DeleteBackup", {"BackupArn": arn})


# Point-in-time recovery: DISABLED until turned on; then ENABLED with the recovery period and
# the restorable window; turning it off again; every reply is ContinuousBackupsDescription.
def test_continuous_backups(raw, names):
    t = names()
    make_source(raw, t, n=0)
    r = raw.call("DescribeContinuousBackups", {"TableName": t})
    assert r.status == 200, r
    assert r.json == {"ContinuousBackupsDescription": {
        "ContinuousBackupsStatus": "ENABLED",
        "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}}
    before = time.time()
    r = raw.call("UpdateContinuousBackups", {"TableName": t, "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": True}})
    assert r.status == 200, r
    p = r.json["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert p["PointInTimeRecoveryStatus"] == "ENABLED" and p["RecoveryPeriodInDays"] == 35
    assert before - 1 <= p["EarliestRestorableDateTime"] <= time.time() + 1
    assert p["LatestRestorableDateTime"] >= p["EarliestRestorableDateTime"]
    r = raw.call("UpdateContinuousBackups", {"TableName": t, "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 7}})
    p = r.json["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert p["RecoveryPeriodInDays"] == 7
    assert raw.call("DescribeContinuousBackups", {"TableName": t}).json == r.json
    r = raw.call("UpdateContinuousBackups", {"TableName": t, "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": False}})
    assert r.json["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"] == {
        "PointInTimeRecoveryStatus": "DISABLED"}
    r = raw.call("DescribeContinuousBackups", {"TableName": "no_such_table"})
    assert (r.error_type, r.message) == ("TableNotFoundException", "Table not found: no_such_table")
    r = raw.call("UpdateContinuousBackups", {"TableName": t, "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 36}})
    assert r.error_type == "ValidationException"


# RestoreTableToPointInTime is refused with a message saying why; a missing source table is
# TableNotFoundException.
def test_restore_to_point_in_time_is_refused(raw, names):
    t = names()
    make_source(raw, t, n=0)
    target = names()
    r = raw.call("RestoreTableToPointInTime", {"SourceTableName": t, "TargetTableName": target,
                                               "UseLatestRestorableTime": True})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert "does not restore tables to a point in time" in r.message
    assert raw.call("DescribeTable", {"TableName": target}).error_type == \
        "ResourceNotFoundException"
    r = raw.call("RestoreTableToPointInTime", {"SourceTableName": "no_such_table",
                                               "TargetTableName": target,
                                               "UseLatestRestorableTime": True})
    assert r.error_type == "TableNotFoundException"


# With --data-dir, backups and the point-in-time setting survive a restart, and a restore
# after it still brings the items back.
def test_durable(tmp_path):
    data = str(tmp_path / "data")
    os.mkdir(data)
    srv = Server(["--data-dir", data])
    try:
        raw = Raw(srv.endpoint)
        make_source(raw, "durable_src", n=4)
        arn = raw.call("CreateBackup", {"TableName": "durable_src", "BackupName": "bkp"}).json[
            "BackupDetails"]["BackupArn"]
        raw.call("UpdateContinuousBackups", {"TableName": "durable_src",
                                             "PointInTimeRecoverySpecification": {
                                                 "PointInTimeRecoveryEnabled": True}})
    finally:
        srv.stop()
    srv = Server(["--data-dir", data])
    try:
        raw = Raw(srv.endpoint)
        assert [b["BackupArn"] for b in raw.call("ListBackups", {}).json["BackupSummaries"]] == [arn]
        p = raw.call("DescribeContinuousBackups", {"TableName": "durable_src"}).json[
            "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
        assert p["PointInTimeRecoveryStatus"] == "ENABLED"
        r = raw.call("RestoreTableFromBackup", {"TargetTableName": "durable_dst", "BackupArn": arn})
        assert r.status == 200, r
        wait_active(raw, "durable_dst")
        assert scan_pks(raw, "durable_dst") == ["p0", "p1", "p2", "p3"]
    finally:
        srv.stop()


# --- RestoreTableFromBackup's overrides ------------------------------------------------------
# Texts: the ack-api-quirks catalogue (DDB-TABLE-442, live, 2026-10); the members: botocore's
# model. The overrides apply to the new table; the items are all restored.

BYG_KEY = [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "h", "KeyType": "HASH"}]
PT = {"ReadCapacityUnits": 7, "WriteCapacityUnits": 3}


@pytest.fixture
def backup(raw, names):
    src = names()
    make_source(raw, src, n=4)
    arn = raw.call("CreateBackup", {"TableName": src, "BackupName": "bkp"}).json[
        "BackupDetails"]["BackupArn"]
    yield arn
    raw.call("DeleteBackup", {"BackupArn": arn})


def restore(raw, name, arn, **overrides):
    return raw.call("RestoreTableFromBackup", {"TargetTableName": name, "BackupArn": arn,
                                               **overrides})


# A switch to PROVISIONED with the table's and the GSI's units: the new table has them, and
# the index is rebuilt and queryable.
def test_restore_billing_and_throughput_overrides(raw, names, backup):
    name = names()
    r = restore(raw, name, backup, BillingModeOverride="PROVISIONED",
                ProvisionedThroughputOverride=PT,
                GlobalSecondaryIndexOverride=[{"IndexName": "byg", "KeySchema": BYG_KEY,
                                               "Projection": {"ProjectionType": "ALL"},
                                               "ProvisionedThroughput": {"ReadCapacityUnits": 2,
                                                                         "WriteCapacityUnits": 1}}])
    assert r.status == 200, r
    d = wait_active(raw, name)
    assert d.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED") == "PROVISIONED"
    assert (d["ProvisionedThroughput"]["ReadCapacityUnits"],
            d["ProvisionedThroughput"]["WriteCapacityUnits"]) == (7, 3)
    g = d["GlobalSecondaryIndexes"][0]
    assert g["IndexName"] == "byg"
    assert (g["ProvisionedThroughput"]["ReadCapacityUnits"],
            g["ProvisionedThroughput"]["WriteCapacityUnits"]) == (2, 1)
    assert scan_pks(raw, name) == ["p0", "p1", "p2", "p3"]
    r = raw.call("Query", {"TableName": name, "IndexName": "byg",
                           "KeyConditionExpression": "g = :g AND h = :h",
                           "ExpressionAttributeValues": {":g": S("G"), ":h": N(1)}})
    assert r.status == 200, r
    assert sorted(i["pk"]["S"] for i in r.json["Items"]) == ["p1", "p3"]


# An empty GlobalSecondaryIndexOverride restores no GSI, and the definitions only it used go.
def test_restore_without_indexes(raw, names, backup):
    name = names()
    assert restore(raw, name, backup, GlobalSecondaryIndexOverride=[]).status == 200
    d = wait_active(raw, name)
    assert "GlobalSecondaryIndexes" not in d
    assert [a["AttributeName"] for a in d["AttributeDefinitions"]] == ["pk"]
    assert scan_pks(raw, name) == ["p0", "p1", "p2", "p3"]


# OnDemandThroughputOverride on an on-demand restore sets the table's maximums.
def test_restore_on_demand_maximums(raw, names, backup):
    name = names()
    r = restore(raw, name, backup, OnDemandThroughputOverride={"MaxReadRequestUnits": 50,
                                                               "MaxWriteRequestUnits": 20})
    assert r.status == 200, r
    d = wait_active(raw, name)
    assert d["OnDemandThroughput"] == {"MaxReadRequestUnits": 50, "MaxWriteRequestUnits": 20}


# SSESpecificationOverride without a KMS key is accepted; with one it is refused, naming it.
def test_restore_sse_override(raw, names, backup):
    assert restore(raw, names(), backup, SSESpecificationOverride={"Enabled": False}).status == 200
    r = restore(raw, names(), backup, SSESpecificationOverride={"Enabled": True, "SSEType": "KMS"})
    assert r.error_type == "ValidationException"
    assert "SSESpecificationOverride" in r.message


@pytest.mark.parametrize("overrides,message", [
    ({"BillingModeOverride": "PAY_PER_REQUEST", "ProvisionedThroughputOverride": PT},
     "Invalid Request: Cannot override ProvisionedThroughput if BillingMode is overridden to "
     "PAY_PER_REQUEST"),
    ({"BillingModeOverride": "PROVISIONED"},
     "Invalid Request: Must override ProvisionedThroughput if BillingMode is overridden to "
     "PROVISIONED"),
    ({"ProvisionedThroughputOverride": PT},
     "Invalid Request: Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED"),
    ({"BillingModeOverride": "PROVISIONED", "ProvisionedThroughputOverride": PT},
     "Invalid Request: Must specify provisioned throughput for index byg"),
    ({"BillingModeOverride": "PROVISIONED", "ProvisionedThroughputOverride": PT,
      "OnDemandThroughputOverride": {"MaxReadRequestUnits": 5}},
     "Invalid Request: Cannot override MaxReadRequestUnits for OnDemandThroughput unless "
     "BillingModeOverride is PAY_PER_REQUEST"),
    ({"GlobalSecondaryIndexOverride": [{"IndexName": "nope", "KeySchema": BYG_KEY,
                                        "Projection": {"ProjectionType": "ALL"}}]},
     "Invalid Request: Index nope does not match a secondary index that existed in the source "
     "table and cannot be created during the restore operation"),
    ({"GlobalSecondaryIndexOverride": [{"IndexName": "byg", "KeySchema": BYG_KEY[:1],
                                        "Projection": {"ProjectionType": "ALL"}}]},
     "Invalid Request: Index byg does not match a secondary index that existed in the source "
     "table and cannot be created during the restore operation"),
], ids=["ppr_with_units", "provisioned_without_units", "units_on_demand", "gsi_units_missing",
        "on_demand_max_provisioned", "unknown_index", "other_key"])
def test_restore_override_errors(raw, names, backup, overrides, message):
    name = names()
    r = restore(raw, name, backup, **overrides)
    assert (r.status, r.error_type, r.message) == (400, "ValidationException", message), r
    # Nothing is left behind.
    assert raw.call("DescribeTable", {"TableName": name}).error_type == "ResourceNotFoundException"


# LocalSecondaryIndexOverride keeps the LSIs it names: an empty list drops them.
def test_restore_lsi_override(raw, names):
    src, keep, drop = names(), names(), names()
    r = raw.call("CreateTable", {
        "TableName": src, "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [H, {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"},
                                 {"AttributeName": "l", "AttributeType": "S"}],
        "LocalSecondaryIndexes": [{"IndexName": "byl", "KeySchema": [
            H, {"AttributeName": "l", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]})
    assert r.status == 200, r
    wait_active(raw, src)
    raw.call("PutItem", {"TableName": src, "Item": {"pk": S("a"), "sk": S("1"), "l": S("x")}})
    arn = raw.call("CreateBackup", {"TableName": src, "BackupName": "bkp"}).json[
        "BackupDetails"]["BackupArn"]
    lsi = [{"IndexName": "byl", "KeySchema": [H, {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}]
    assert restore(raw, keep, arn, LocalSecondaryIndexOverride=lsi).status == 200
    assert [x["IndexName"] for x in wait_active(raw, keep)["LocalSecondaryIndexes"]] == ["byl"]
    assert restore(raw, drop, arn, LocalSecondaryIndexOverride=[]).status == 200
    d = wait_active(raw, drop)
    assert "LocalSecondaryIndexes" not in d
    assert sorted(a["AttributeName"] for a in d["AttributeDefinitions"]) == ["pk", "sk"]
    raw.call("DeleteBackup", {"BackupArn": arn})
