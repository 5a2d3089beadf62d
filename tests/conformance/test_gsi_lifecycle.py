"""UpdateTable GlobalSecondaryIndexUpdates: creating, updating and deleting global
secondary indexes on an existing table, in DynamoDB's checking order (structure of the
updates, combinations, state, then each action), and the index states that follow.

The texts are the live service's as the ack-api-quirks probes recorded them (facts §10,
table-indexes DDB-TABLE-1xx) and Alternator's test_gsi_updatetable.py. DynamoDB Local
implements GSI creation and deletion but checks little and words things its own way:
those tests are marked ddblocal_differs with the reason.
"""
import time
import uuid

import pytest

from conftest import Server, admin, wait_active

ONE_ONLINE = ("Subscriber limit exceeded: Only 1 online index can be created or deleted "
              "simultaneously per table")


def pt(r, w):
    return {"ReadCapacityUnits": r, "WriteCapacityUnits": w}


def create_action(name, attr, projection="ALL", **kw):
    action = {"IndexName": name, "KeySchema": [{"AttributeName": attr, "KeyType": "HASH"}],
              "Projection": {"ProjectionType": projection}}
    action.update(kw)
    return {"Create": action}


def gsi(desc, name):
    for g in desc.get("GlobalSecondaryIndexes", []):
        if g["IndexName"] == name:
            return g
    return None


def wait_gsi_gone(ddb, table, name, timeout=60):
    t0 = time.time()
    while True:
        d = ddb.describe_table(TableName=table)["Table"]
        if gsi(d, name) is None and d["TableStatus"] == "ACTIVE":
            return d
        if time.time() - t0 > timeout:
            raise TimeoutError(name)
        time.sleep(0.05)


def add_gsi(raw, table, name, attr, type_="S", **kw):
    """UpdateTable creating one GSI; returns the reply."""
    return raw.call("UpdateTable", {
        "TableName": table,
        "AttributeDefinitions": [{"AttributeName": attr, "AttributeType": type_}],
        "GlobalSecondaryIndexUpdates": [create_action(name, attr, **kw)]})


# --- structure of GlobalSecondaryIndexUpdates -------------------------------------------------

# An empty list alone is no change at all (DDB-TABLE-015/359).
def test_empty_updates_alone_is_nothing_to_update(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "GlobalSecondaryIndexUpdates": []})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# AttributeDefinitions alone changes nothing either (DDB-TABLE-162).
def test_attribute_definitions_alone_is_nothing_to_update(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(),
                                 "AttributeDefinitions": [{"AttributeName": "x", "AttributeType": "S"}]})
    assert r.status == 400
    assert r.error_type == "ValidationException"


# ddblocal_differs: DynamoDB Local applies the other change.
# Next to a real change, the empty list itself is refused (DDB-TABLE-359).
@pytest.mark.ddblocal_differs
def test_empty_updates_with_a_change_is_refused(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "GlobalSecondaryIndexUpdates": [],
                                 "DeletionProtectionEnabled": True})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: List of "
                         "GlobalSecondaryIndexUpdates is empty")


# ddblocal_differs: DynamoDB Local says "Update global secondary index action is null".
# An entry must name an action (DDB-TABLE-160).
@pytest.mark.ddblocal_differs
def test_entry_without_action(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(), "GlobalSecondaryIndexUpdates": [{}]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                         "GlobalSecondaryIndexUpdate.Delete must not be null")


# ddblocal_differs: DynamoDB Local accepts the entry and deletes the index.
# One entry carries one action (DDB-TABLE-160).
@pytest.mark.ddblocal_differs
def test_entry_with_two_actions(raw, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Delete": {"IndexName": "gsi1"},
         "Update": {"IndexName": "gsi1", "OnDemandThroughput": {"MaxReadRequestUnits": 10}}}]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("Only one global secondary index action is allowed per "
                         "GlobalSecondaryIndexUpdate object")


# Two entries for one index are refused, whatever the actions (DDB-TABLE-160).
def test_two_updates_of_one_index(raw, make_table):
    name = make_table(extra_attrs=[("g", "S")], ProvisionedThroughput=pt(1, 1),
                      GlobalSecondaryIndexes=[
                          {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": pt(1, 1)}])
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(2, 2)}},
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(3, 3)}}]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert "Only one global secondary index update per index is allowed simultaneously" in r.message


# ddblocal_differs: DynamoDB Local answers ResourceInUseException "Index is being created.".
# Two creates in one request: LimitExceededException (DDB-TABLE-159, Alternator).
@pytest.mark.ddblocal_differs
def test_two_creates_in_one_request(raw, make_table):
    r = raw.call("UpdateTable", {
        "TableName": make_table(),
        "AttributeDefinitions": [{"AttributeName": "x", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [create_action("ind1", "x"), create_action("ind2", "x")]})
    assert (r.status, r.error_type, r.message) == (400, "LimitExceededException", ONE_ONLINE)


# ddblocal_differs: DynamoDB Local deletes one and creates the other.
# A create and a delete together: the same limit (DDB-TABLE-159).
@pytest.mark.ddblocal_differs
def test_create_and_delete_in_one_request(raw, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = raw.call("UpdateTable", {
        "TableName": name,
        "AttributeDefinitions": [{"AttributeName": "x", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [create_action("ind2", "x"), {"Delete": {"IndexName": "gsi1"}}]})
    assert (r.status, r.error_type, r.message) == (400, "LimitExceededException", ONE_ONLINE)


# ddblocal_differs: DynamoDB Local applies both.
# A create cannot share the request with a table throughput change (DDB-TABLE-174; the full
# text, with its prefix, is the DDB-TABLE-442 catalogue's).
@pytest.mark.ddblocal_differs
def test_create_with_table_throughput(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = raw.call("UpdateTable", {
        "TableName": name, "ProvisionedThroughput": pt(2, 2),
        "AttributeDefinitions": [{"AttributeName": "x", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [create_action("ind1", "x", ProvisionedThroughput=pt(1, 1))]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: You cannot create or delete "
                         "index while updating table IOPS")


# ddblocal_differs: DynamoDB Local applies both.
# Nor with a deletion protection change (DDB-TABLE-174, DDB-TABLE-442).
@pytest.mark.ddblocal_differs
def test_create_with_deletion_protection(raw, make_table):
    r = raw.call("UpdateTable", {
        "TableName": make_table(), "DeletionProtectionEnabled": True,
        "AttributeDefinitions": [{"AttributeName": "x", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [create_action("ind1", "x")]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: DeletionProtection "
                         "modification must be the only operation in the request")


# --- Create ------------------------------------------------------------------------------------

# The reply already lists the new index, CREATING, with its ARN and the merged definitions.
def test_create_reply(raw, make_table):
    name = make_table()
    r = add_gsi(raw, name, "byx", "x")
    assert r.status == 200, r
    d = r.json["TableDescription"]
    g = gsi(d, "byx")
    assert g["IndexStatus"] == "CREATING"
    assert g["KeySchema"] == [{"AttributeName": "x", "KeyType": "HASH"}]
    assert g["Projection"] == {"ProjectionType": "ALL"}
    assert g["IndexArn"] == d["TableArn"] + "/index/byx"
    assert {"AttributeName": "x", "AttributeType": "S"} in d["AttributeDefinitions"]


# The index becomes ACTIVE and holds exactly the items that define its key with the right
# type: items without it, or with another type, are left out (Alternator test_gsi_backfill).
def test_create_backfills_existing_items(raw, ddb, make_table):
    name = make_table()
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"a{i}"}, "x": {"S": "v"}, "y": {"N": str(i)}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "none"}, "y": {"N": "1"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "num"}, "x": {"N": "7"}})
    assert add_gsi(raw, name, "byx", "x").status == 200
    d = wait_active(ddb, name)
    assert gsi(d, "byx")["IndexStatus"] == "ACTIVE"
    q = ddb.query(TableName=name, IndexName="byx", KeyConditionExpression="x = :v",
                  ExpressionAttributeValues={":v": {"S": "v"}})
    assert sorted(i["pk"]["S"] for i in q["Items"]) == [f"a{i}" for i in range(5)]


# Writes after the creation maintain the new index like any other.
def test_index_follows_later_writes(raw, ddb, make_table):
    name = make_table()
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "x": {"S": "1"}})
    assert add_gsi(raw, name, "byx", "x").status == 200
    wait_active(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}, "x": {"S": "1"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    q = ddb.query(TableName=name, IndexName="byx", KeyConditionExpression="x = :v",
                  ExpressionAttributeValues={":v": {"S": "1"}})
    assert [i["pk"]["S"] for i in q["Items"]] == ["b"]


# ddblocal_differs: DynamoDB Local says "No Attribute Schema Defined".
# A create must define its key attributes, even ones the table knows (Alternator).
@pytest.mark.ddblocal_differs
def test_create_without_attribute_definitions(raw, make_table):
    r = raw.call("UpdateTable", {"TableName": make_table(),
                                 "GlobalSecondaryIndexUpdates": [create_action("byx", "x")]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: AttributeDefinitions is not "
                         "specified for index: byx")


# ddblocal_differs: DynamoDB Local keeps the unused definition.
# Only the new key's definitions are taken; others are ignored (DDB-TABLE-162).
@pytest.mark.ddblocal_differs
def test_create_ignores_unused_definitions(raw, ddb, make_table):
    name = make_table()
    r = raw.call("UpdateTable", {
        "TableName": name,
        "AttributeDefinitions": [{"AttributeName": "x", "AttributeType": "S"},
                                 {"AttributeName": "unused", "AttributeType": "N"}],
        "GlobalSecondaryIndexUpdates": [create_action("byx", "x")]})
    assert r.status == 200, r
    d = wait_active(ddb, name)
    assert {a["AttributeName"] for a in d["AttributeDefinitions"]} == {"pk", "x"}


# A key attribute with no definition anywhere: CreateTable's text.
def test_create_with_undefined_key(raw, make_table):
    r = raw.call("UpdateTable", {
        "TableName": make_table(),
        "AttributeDefinitions": [{"AttributeName": "y", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [create_action("byx", "x")]})
    assert (r.status, r.error_type) == (400, "ValidationException")


# ddblocal_differs: DynamoDB Local accepts the redefinition.
# An attribute keeps its type (Alternator test_gsi_key_type_conflict_on_update).
@pytest.mark.ddblocal_differs
def test_create_redefining_a_key_type(raw, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = add_gsi(raw, name, "gsi2", "g", type_="N")
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message.startswith("One or more parameter values were invalid: Attributes cannot be "
                                "redefined.")
    assert "key{g:S:HASH}" in r.message and "key{g:N:HASH}" in r.message


# An existing name, GSI or LSI, cannot be created again (DDB-TABLE-137, Alternator).
def test_create_existing_name(raw, ddb, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = add_gsi(raw, name, "gsi1", "y")
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert "already exists" in r.message


# ddblocal_differs: DynamoDB Local fails with HTTP 500.
# On a provisioned table a new index needs its throughput (DDB-TABLE-152).
@pytest.mark.ddblocal_differs
def test_create_on_provisioned_table_needs_throughput(raw, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    r = add_gsi(raw, name, "byx", "x")
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: Both ReadCapacityUnits and "
                         "WriteCapacityUnits must be specified for index: byx")


# ddblocal_differs: DynamoDB Local accepts it.
# On an on-demand table it must not have any (CreateTable's text).
@pytest.mark.ddblocal_differs
def test_create_on_on_demand_table_refuses_throughput(raw, make_table):
    r = add_gsi(raw, make_table(), "byx", "x", ProvisionedThroughput=pt(1, 1))
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: ProvisionedThroughput should "
                         "not be specified for index: byx when BillingMode is PAY_PER_REQUEST")


# A provisioned index reports its throughput; on-demand ones report 0/0 (DDB-TABLE-133).
def test_create_provisioned_index_throughput(raw, ddb, make_table):
    name = make_table(ProvisionedThroughput=pt(1, 1))
    assert add_gsi(raw, name, "byx", "x", ProvisionedThroughput=pt(3, 4)).status == 200
    g = gsi(wait_active(ddb, name), "byx")
    assert g["ProvisionedThroughput"]["ReadCapacityUnits"] == 3
    assert g["ProvisionedThroughput"]["WriteCapacityUnits"] == 4


# ddblocal_differs: DynamoDB Local has no per-table index limit here.
# The 21st GSI through UpdateTable is LimitExceededException (DDB-TABLE-169).
@pytest.mark.ddblocal_differs
def test_twenty_first_gsi(raw, make_table):
    attrs = [(f"a{i}", "S") for i in range(20)]
    name = make_table(extra_attrs=attrs, GlobalSecondaryIndexes=[
        {"IndexName": f"g{i:02d}", "KeySchema": [{"AttributeName": f"a{i}", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "KEYS_ONLY"}} for i in range(20)])
    r = add_gsi(raw, name, "g20", "b")
    assert (r.status, r.error_type) == (400, "LimitExceededException")
    assert r.message == ("Subscriber limit exceeded: Number of global secondary indexes exceeds "
                         "per-table limit of 20")


# --- Update ------------------------------------------------------------------------------------

def provisioned_with_gsi(make_table, r=2, w=2):
    return make_table(extra_attrs=[("g", "S")], ProvisionedThroughput=pt(1, 1),
                      GlobalSecondaryIndexes=[
                          {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": pt(r, w)}])


# An index's throughput changes on its own; the table stays as it was.
def test_update_index_throughput(raw, ddb, make_table):
    name = provisioned_with_gsi(make_table)
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(5, 6)}}]})
    assert r.status == 200, r
    d = wait_active(ddb, name)
    tp = gsi(d, "gsi1")["ProvisionedThroughput"]
    assert (tp["ReadCapacityUnits"], tp["WriteCapacityUnits"]) == (5, 6)
    assert d["ProvisionedThroughput"]["ReadCapacityUnits"] == 1


# ddblocal_differs: DynamoDB Local says "Invalid global secondary index name" or accepts.
# Re-sending an index's throughput is an error naming the index (DDB-TABLE-164).
@pytest.mark.ddblocal_differs
def test_update_index_same_throughput(raw, make_table):
    name = provisioned_with_gsi(make_table)
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(2, 2)}}]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == (
        "The provisioned throughput for the index gsi1 will not change. The requested value equals "
        "the current value. Current ReadCapacityUnits provisioned for index gsi1: 2. Requested "
        "ReadCapacityUnits: 2. Current WriteCapacityUnits provisioned for index gsi1: 2. Requested "
        "WriteCapacityUnits: 2. Refer to the Amazon DynamoDB Developer Guide for current limits and "
        "how to request higher limits.")


# ddblocal_differs: DynamoDB Local says "Invalid global secondary index name".
# An unknown index: ResourceNotFoundException naming index and table (DDB-TABLE-161).
@pytest.mark.ddblocal_differs
def test_update_unknown_index(raw, make_table):
    name = provisioned_with_gsi(make_table)
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "ghost", "ProvisionedThroughput": pt(3, 3)}}]})
    assert (r.status, r.error_type) == (400, "ResourceNotFoundException")
    assert r.message == f"Requested resource not found: Index ghost for table {name}"


# ddblocal_differs: DynamoDB Local accepts it.
# On-demand indexes only take OnDemandThroughput and WarmThroughput updates (DDB-TABLE-152).
@pytest.mark.ddblocal_differs
def test_update_on_demand_index_with_throughput(raw, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(3, 3)}}]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: The only Updates for index: "
                         "gsi1 when TableThroughputMode is PAY_PER_REQUEST can be to "
                         "OnDemandThroughput, WarmThroughput")


# ddblocal_differs: DynamoDB Local ignores OnDemandThroughput.
# An on-demand index's maximums change and are reported (DDB-TABLE-135).
@pytest.mark.ddblocal_differs
def test_update_index_on_demand_maximums(raw, ddb, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Update": {"IndexName": "gsi1", "OnDemandThroughput": {
            "MaxReadRequestUnits": 50, "MaxWriteRequestUnits": 40}}}]})
    assert r.status == 200, r
    wait_active(ddb, name)
    # Raw: older botocore models drop OnDemandThroughput from the parsed reply.
    g = gsi(raw.call("DescribeTable", {"TableName": name}).json["Table"], "gsi1")
    assert g["OnDemandThroughput"] == {"MaxReadRequestUnits": 50, "MaxWriteRequestUnits": 40}


# ddblocal_differs: DynamoDB Local switches without index throughput.
# Switching to PROVISIONED needs every index's throughput in the same request (DDB-TABLE-152).
@pytest.mark.ddblocal_differs
def test_switch_to_provisioned_needs_index_throughput(raw, ddb, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    r = raw.call("UpdateTable", {"TableName": name, "BillingMode": "PROVISIONED",
                                 "ProvisionedThroughput": pt(5, 5)})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == ("One or more parameter values were invalid: ProvisionedThroughput must be "
                         "specified for index: gsi1")
    r = raw.call("UpdateTable", {"TableName": name, "BillingMode": "PROVISIONED",
                                 "ProvisionedThroughput": pt(5, 5), "GlobalSecondaryIndexUpdates": [
                                     {"Update": {"IndexName": "gsi1", "ProvisionedThroughput": pt(3, 3)}}]})
    assert r.status == 200, r
    tp = gsi(wait_active(ddb, name), "gsi1")["ProvisionedThroughput"]
    assert (tp["ReadCapacityUnits"], tp["WriteCapacityUnits"]) == (3, 3)


# --- Delete ------------------------------------------------------------------------------------

# The reply shows the index DELETING; then it is gone, with the definition only it used
# (DDB-TABLE-149/151), and its key attribute is free to take any type again (Alternator).
def test_delete_index(raw, ddb, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "g": {"S": "x"}})
    r = raw.call("UpdateTable", {"TableName": name,
                                 "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]})
    assert r.status == 200, r
    assert gsi(r.json["TableDescription"], "gsi1")["IndexStatus"] == "DELETING"
    d = wait_gsi_gone(ddb, name, "gsi1")
    assert "GlobalSecondaryIndexes" not in d
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}, "g": {"N": "7"}})
    with pytest.raises(ddb.exceptions.ClientError) as e:
        ddb.query(TableName=name, IndexName="gsi1", KeyConditionExpression="g = :v",
                  ExpressionAttributeValues={":v": {"S": "x"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"


# ddblocal_differs: DynamoDB Local keeps the definition.
# The definition only the deleted index used goes with it (DDB-TABLE-151).
@pytest.mark.ddblocal_differs
def test_delete_prunes_definitions(raw, ddb, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    raw.call("UpdateTable", {"TableName": name,
                             "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]})
    d = wait_gsi_gone(ddb, name, "gsi1")
    assert d["AttributeDefinitions"] == [{"AttributeName": "pk", "AttributeType": "S"}]


# An index deleted can be created again under its name (Alternator test_gsi_creates_and_deletes).
def test_recreate_after_delete(raw, ddb, make_table):
    name = make_table()
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "x": {"S": "1"}, "y": {"S": "2"}})
    assert add_gsi(raw, name, "gsi1", "x").status == 200
    wait_active(ddb, name)
    assert raw.call("UpdateTable", {"TableName": name, "GlobalSecondaryIndexUpdates": [
        {"Delete": {"IndexName": "gsi1"}}]}).status == 200
    wait_gsi_gone(ddb, name, "gsi1")
    assert add_gsi(raw, name, "gsi1", "y").status == 200
    wait_active(ddb, name)
    q = ddb.query(TableName=name, IndexName="gsi1", KeyConditionExpression="y = :v",
                  ExpressionAttributeValues={":v": {"S": "2"}})
    assert [i["pk"]["S"] for i in q["Items"]] == ["a"]


# Deleting an unknown index: ResourceNotFoundException (Alternator; text DDB-TABLE-161).
def test_delete_unknown_index(raw, make_table):
    name = make_table()
    r = raw.call("UpdateTable", {"TableName": name,
                                 "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "ghost"}}]})
    assert (r.status, r.error_type) == (400, "ResourceNotFoundException")


# ddblocal_differs: DynamoDB Local says "Requested resource not found".
@pytest.mark.ddblocal_differs
def test_delete_unknown_index_message(raw, make_table):
    name = make_table()
    r = raw.call("UpdateTable", {"TableName": name,
                                 "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "ghost"}}]})
    assert r.message == f"Requested resource not found: Index ghost for table {name}"


# ddblocal_differs: DynamoDB Local answers ResourceNotFoundException.
# An LSI cannot be deleted through GlobalSecondaryIndexUpdates (DDB-TABLE-137).
@pytest.mark.ddblocal_differs
def test_delete_local_index(raw, make_table):
    name = make_table(range_key=("sk", "S"), extra_attrs=[("l", "S")], LocalSecondaryIndexes=[
        {"IndexName": "lsi1", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                            {"AttributeName": "l", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    r = raw.call("UpdateTable", {"TableName": name,
                                 "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "lsi1"}}]})
    assert (r.status, r.error_type) == (400, "ValidationException")
    assert r.message == "Cannot delete an index that is not a GlobalSecondaryIndex: lsi1"


# Deletion protection protects the table, not its indexes (DDB-TABLE-166).
def test_delete_index_of_protected_table(raw, ddb, make_table):
    name = make_table(extra_attrs=[("g", "S")], GlobalSecondaryIndexes=[
        {"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}])
    # Raw: older botocore models lack DeletionProtectionEnabled.
    assert raw.call("UpdateTable", {"TableName": name, "DeletionProtectionEnabled": True}).status == 200
    wait_active(ddb, name)
    try:
        r = raw.call("UpdateTable", {"TableName": name,
                                     "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]})
        assert r.status == 200, r
        wait_gsi_gone(ddb, name, "gsi1")
    finally:
        raw.call("UpdateTable", {"TableName": name, "DeletionProtectionEnabled": False})
        wait_active(ddb, name)


# --- states on a slow clock (sluice's own delays) ---------------------------------------------

@pytest.fixture
def slow_server(tmp_path):
    """A private sluice whose index work takes time on a manual clock."""
    cfg = tmp_path / "slow.conf"
    cfg.write_text("index_create_delay_ms = 30000\ntable_update_delay_ms = 5000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--config", str(cfg)])
    yield srv
    srv.stop()


def advance(ep, ms):
    assert admin(ep, "POST", "/_sluice/clock", {"advance_ms": ms})[0] == 200


# While an index is created a second create waits its turn; once allocated (Backfilling) it
# may be deleted, not before (DDB-TABLE-149/159). Sluice-only: the delays are configured.
@pytest.mark.sluice_only
def test_one_online_index_at_a_time(slow_server):
    from conftest import Raw
    ep = slow_server.endpoint
    raw = Raw(ep)
    name = "t_" + uuid.uuid4().hex[:12]
    assert raw.call("CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}).status == 200
    raw.call("PutItem", {"TableName": name, "Item": {"pk": {"S": "a"}, "x": {"S": "1"}}})
    r = add_gsi(raw, name, "gsi1", "x")
    assert r.status == 200, r
    g = gsi(r.json["TableDescription"], "gsi1")
    assert g["IndexStatus"] == "CREATING" and g["Backfilling"] is False  # allocating
    assert r.json["TableDescription"]["TableStatus"] == "UPDATING"
    # A second index: one online index at a time.
    r = add_gsi(raw, name, "gsi2", "y")
    assert (r.status, r.error_type, r.message) == (400, "LimitExceededException", ONE_ONLINE)
    # Deleting it during resource allocation: not yet.
    r = raw.call("UpdateTable", {"TableName": name,
                                 "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]})
    assert (r.status, r.error_type) == (400, "ResourceInUseException")
    assert r.message == (f"Attempt to change a resource which is still in use: Index creation is in "
                         f"resource allocation phase. Retry deletion during backfilling phase or "
                         f"when the index is active. Table: {name} Index: gsi1")
    # The table's throughput cannot change meanwhile (on-demand: its maximums).
    r = raw.call("UpdateTable", {"TableName": name,
                                 "OnDemandThroughput": {"MaxReadRequestUnits": 100}})
    assert (r.status, r.error_type) == (400, "ResourceInUseException")
    assert r.message == ("Attempt to change a resource which is still in use: OnDemandThroughput "
                         "cannot be updated while index creation is in progress for indexes: [gsi1]")
    advance(ep, 30000)
    d = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert d["TableStatus"] == "ACTIVE"
    # Allocated: deletable (the backfill of one item is long done, so it may be ACTIVE).
    r = raw.call("UpdateTable", {"TableName": name,
                                 "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]})
    assert r.status == 200, r
    assert gsi(r.json["TableDescription"], "gsi1")["IndexStatus"] == "DELETING"
    # While it is deleting: another create waits, and the index cannot be touched.
    r = add_gsi(raw, name, "gsi2", "y")
    assert (r.status, r.error_type, r.message) == (400, "LimitExceededException", ONE_ONLINE)
    r = add_gsi(raw, name, "gsi1", "y")
    assert (r.status, r.error_type) == (400, "ResourceInUseException")
    assert r.message == (f"Attempt to change a resource which is still in use: Index is being "
                         f"deleted. Table: {name} Index: gsi1")
    advance(ep, 5000)
    d = raw.call("DescribeTable", {"TableName": name}).json["Table"]
    assert "GlobalSecondaryIndexes" not in d
    assert add_gsi(raw, name, "gsi2", "y").status == 200


# A backfill survives a restart: its cursor is committed with each step (backfill.h).
@pytest.mark.sluice_only
def test_backfill_resumes_after_restart(tmp_path):
    from conftest import Raw
    data = tmp_path / "data"
    # The index starts with one second of capacity (its default is a full 300 s, which
    # would index the 40 items at once): the backfill must still be running at the restart.
    conf = tmp_path / "lean.conf"
    conf.write_text("initial_burst_ms = 1000\n")
    args = ["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--data-dir", str(data),
            "--config", str(conf)]
    srv = Server(args)
    try:
        raw = Raw(srv.endpoint)
        assert raw.call("CreateTable", {
            "TableName": "resume", "ProvisionedThroughput": pt(100, 100),
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}).status == 200
        for i in range(40):
            assert raw.call("PutItem", {"TableName": "resume", "Item": {
                "pk": {"S": f"k{i:03d}"}, "x": {"S": "v"}, "pad": {"S": "p" * 900}}}).status == 200
        # 2 WCU: two entries a second after the first second's burst.
        assert add_gsi(raw, "resume", "byx", "x", ProvisionedThroughput=pt(1, 2)).status == 200
        advance(srv.endpoint, 3000)
        g = gsi(raw.call("DescribeTable", {"TableName": "resume"}).json["Table"], "byx")
        assert g["IndexStatus"] == "CREATING" and g["Backfilling"] is True
    finally:
        srv.stop()
    srv = Server(args)
    try:
        raw = Raw(srv.endpoint)
        advance(srv.endpoint, 60000)
        raw.call("DescribeTable", {"TableName": "resume"})
        g = gsi(raw.call("DescribeTable", {"TableName": "resume"}).json["Table"], "byx")
        assert g["IndexStatus"] == "ACTIVE"
        assert g["ItemCount"] == 40
    finally:
        srv.stop()
