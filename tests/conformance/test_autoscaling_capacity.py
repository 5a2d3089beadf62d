"""Application Auto Scaling on the manual clock: a step of load scaled out after about five
minutes, a falling load scaled in after the long low window, an oscillating policy spending
the provisioned-decrease budget until a scale-in fails with UpdateTable's
LimitExceededException text (seed 002) and the same load with a scale-in cooldown that stays
within it, DisableScaleIn, the target's bounds, a scheduled action, and a GSI without its own
policy that throttles the table's writes however far the table scales (facts §12,
cap/scaling.h). DynamoDB Local serves no Application Auto Scaling and ignores capacity:
every test here is marked `capacity`.

Load: one PutItem of a new item per step of the clock, sized to the write units wanted for
the step (an item of N x 1,024 - 16 bytes costs N units, facts §2.2). Times are on the manual
clock, which starts at 2026-11-30T12:00:00Z, a minute boundary.
"""
import json
import urllib.request
import uuid

import pytest

pytestmark = pytest.mark.capacity

START = 1796040000  # 2026-11-30T12:00:00Z in epoch seconds
TARGET = "AnyScaleFrontendService."


def pt(r, w):
    return {"ReadCapacityUnits": r, "WriteCapacityUnits": w}


def new_name():
    return "t_" + uuid.uuid4().hex[:12]


def as_call(client, op, body):
    client.conn.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": TARGET + op,
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/"
                         "application-autoscaling/aws4_request, SignedHeaders=host, Signature=0"})
    r = client.conn.getresponse()
    raw = r.read()
    return r.status, json.loads(raw) if raw else None


def ok(status_reply):
    status, reply = status_reply
    assert status == 200, reply
    return reply


def register(client, resource, dim, lo, hi):
    ok(as_call(client, "RegisterScalableTarget", {
        "ServiceNamespace": "dynamodb", "ResourceId": resource,
        "ScalableDimension": dim, "MinCapacity": lo, "MaxCapacity": hi}))


def policy(client, resource, dim, target=70.0, **cfg):
    metric = "DynamoDBWriteCapacityUtilization" if "Write" in dim else "DynamoDBReadCapacityUtilization"
    conf = {"TargetValue": target, "PredefinedMetricSpecification": {"PredefinedMetricType": metric}}
    conf.update(cfg)
    return ok(as_call(client, "PutScalingPolicy", {
        "PolicyName": "p", "ServiceNamespace": "dynamodb", "ResourceId": resource,
        "ScalableDimension": dim, "PolicyType": "TargetTrackingScaling",
        "TargetTrackingScalingPolicyConfiguration": conf}))


def activities(client, resource):
    """Oldest first."""
    reply = ok(as_call(client, "DescribeScalingActivities", {
        "ServiceNamespace": "dynamodb", "ResourceId": resource, "MaxResults": 50}))
    return list(reversed(reply["ScalingActivities"]))


def write_units(client, table):
    t = ok(client.call("DescribeTable", {"TableName": table}))["Table"]
    return t["ProvisionedThroughput"]["WriteCapacityUnits"]


def load(client, table, units_per_s, seconds, step=5, index_key=None):
    """Offers units_per_s write units a second for `seconds`, one PutItem per `step` seconds.
    Returns the number of throttled PutItems."""
    throttled = 0
    per_put = units_per_s * step
    for i in range(0, seconds, step):
        if per_put:
            size = per_put * 1024 - 16
            # A fresh key each time: replacing an item costs the larger of the two sizes.
            it = {"pk": {"S": uuid.uuid4().hex[:8]}, "p": {"S": "x" * (size - 10)}}
            if index_key:
                it["g"] = {"S": index_key}
            status, _ = client.call("PutItem", {"TableName": table, "Item": it})
            throttled += status != 200
        client.advance(step * 1000)
    return throttled


WCU = "dynamodb:table:WriteCapacityUnits"


# A step from nothing to 20 units/s on a 5-unit table: the high alarm needs two minutes
# above the target and sees each minute 3 minutes late, so the first scale-out starts 5
# minutes after the step (seeds 000/004: "about five minutes"), with the alarm as its cause.
def test_step_load_scales_out_after_five_minutes(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5))
    res = "table/" + name
    register(client, res, WCU, 5, 100)
    alarms = policy(client, res, WCU)["Alarms"]
    load(client, name, 20, 295)
    assert activities(client, res) == [] and write_units(client, name) == 5
    load(client, name, 20, 5)
    acts = activities(client, res)
    assert len(acts) == 1
    a = acts[0]
    assert a["StartTime"] == START + 300
    assert a["StatusCode"] == "Successful"
    assert a["Cause"] == f"monitor alarm {alarms[0]['AlarmName']} in state ALARM triggered policy p"
    assert alarms[0]["AlarmName"].startswith(f"TargetTracking-{res}-AlarmHigh-")
    units = write_units(client, name)
    assert units > 5
    assert a["Description"] == f"Setting write capacity units to {units}."
    assert a["StatusMessage"] == (f"Successfully set write capacity units to {units}. "
                                  "Change successfully fulfilled by dynamodb.")
    # Sustained load keeps scaling out until consumption / capacity is under the target.
    load(client, name, 20, 600)
    assert write_units(client, name) == 29  # ceil(20 / 0.7)
    # /metrics (and the dashboard, which reads the same gauges) show the new level.
    text = urllib.request.urlopen(client.ep + "/metrics", timeout=10).read().decode()
    assert any(l.startswith("sluice_dynamodb_provisioned_write_capacity_units{") and
               f'table_name="{name}"' in l and 'global_secondary_index_name' not in l and
               l.endswith(" 29") for l in text.splitlines())


# Scale-in waits for 15 low datapoints (20 points under the target) plus the metric delay,
# and never goes below MinCapacity; DisableScaleIn keeps the capacity.
@pytest.mark.parametrize("disable", [False, True])
def test_falling_load_scales_in_after_the_long_window(client, disable):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 100))
    res = "table/" + name
    register(client, res, WCU, 10, 200)
    policy(client, res, WCU, DisableScaleIn=disable)
    assert write_units(client, name) == 100  # within [10, 200]: unchanged
    load(client, name, 1, 17 * 60 + 55)
    assert write_units(client, name) == 100
    load(client, name, 1, 5)
    acts = activities(client, res)
    if disable:
        assert acts == [] and write_units(client, name) == 100
        return
    assert [a["StartTime"] for a in acts] == [START + 18 * 60]
    assert "-AlarmLow-" in acts[0]["Cause"]
    assert write_units(client, name) == 10  # ceil(1 / 0.7) = 2, raised to MinCapacity


def oscillate(client, name, cycles):
    """Six minutes at 40 units/s, then 19 minutes at 1 unit/s: a scale-out, then a scale-in,
    each cycle (25 minutes)."""
    for _ in range(cycles):
        load(client, name, 40, 6 * 60)
        load(client, name, 1, 19 * 60)


# Seed 002's failure: the policy scales in after every peak, each scale-in a decrease; the
# first four are free, the fifth within an hour of the fourth is refused by UpdateTable, and
# the activity history shows it as Failed with the service's LimitExceededException text.
def test_oscillating_policy_spends_the_decrease_budget(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5))
    res = "table/" + name
    register(client, res, WCU, 5, 1000)
    policy(client, res, WCU)
    oscillate(client, name, 5)
    acts = activities(client, res)
    scale_ins = [a for a in acts if "-AlarmLow-" in a["Cause"]]
    assert [a["StatusCode"] for a in scale_ins][:4] == ["Successful"] * 4
    failed = [a for a in acts if a["StatusCode"] == "Failed"]
    assert failed, acts
    assert failed[0]["StatusMessage"].startswith(
        f"Failed to set write capacity units to 5. Reason: Subscriber limit exceeded: "
        "Provisioned throughput decreases are limited within a given UTC day. After the first 4 "
        "decreases, each subsequent decrease in the same UTC day can be performed at most once "
        "every 3600 seconds. Number of decreases today: 4.")
    t = ok(client.call("DescribeTable", {"TableName": name}))["Table"]
    assert t["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 4
    assert t["ProvisionedThroughput"]["WriteCapacityUnits"] > 5  # stuck high


# The same load with a one-hour scale-in cooldown: at most one decrease an hour, which the
# budget always allows (the fix seed 002 names).
def test_scale_in_cooldown_stays_within_the_budget(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5))
    res = "table/" + name
    register(client, res, WCU, 5, 1000)
    policy(client, res, WCU, ScaleInCooldown=3600)
    oscillate(client, name, 5)
    acts = activities(client, res)
    assert all(a["StatusCode"] == "Successful" for a in acts), acts
    ins = [a["StartTime"] for a in acts if "-AlarmLow-" in a["Cause"]]
    assert len(ins) >= 2
    assert all(b - a >= 3600 for a, b in zip(ins, ins[1:]))


# MaxCapacity caps a scale-out, and a high alarm at the maximum is a not-scaled activity
# (IncludeNotScaledActivities); RegisterScalableTarget with a new minimum raises the units at
# once ("minimum capacity was set to N").
def test_bounds(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5))
    res = "table/" + name
    register(client, res, WCU, 5, 12)
    policy(client, res, WCU)
    load(client, name, 40, 12 * 60)
    assert write_units(client, name) == 12
    # The alarm stays high at the maximum: a not-scaled activity, shown only on request.
    plain = activities(client, res)
    assert all("NotScaledReasons" not in a for a in plain)
    every = list(reversed(ok(as_call(client, "DescribeScalingActivities", {
        "ServiceNamespace": "dynamodb", "ResourceId": res,
        "IncludeNotScaledActivities": True}))["ScalingActivities"]))
    held = [a for a in every if "NotScaledReasons" in a]
    assert len(every) == len(plain) + 1 and len(held) == 1, every
    assert held[0]["StatusCode"] == "Failed"
    assert held[0]["Description"] == "Attempting to scale due to alarm triggering"
    assert held[0]["StatusMessage"].startswith("Failed to set write capacity units to ")
    assert held[0]["NotScaledReasons"] == [
        {"Code": "AlreadyAtMaxCapacity", "MaxCapacity": 12, "CurrentCapacity": 12}]
    assert held[0]["StartTime"] > plain[-1]["StartTime"]
    register(client, res, WCU, 50, 60)
    assert write_units(client, name) == 50
    assert activities(client, res)[-1]["Cause"] == "minimum capacity was set to 50"


# A scheduled action changes the bounds at its time, and the units follow.
def test_scheduled_action_at(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5))
    res = "table/" + name
    register(client, res, WCU, 5, 100)
    ok(as_call(client, "PutScheduledAction", {
        "ServiceNamespace": "dynamodb", "ResourceId": res, "ScalableDimension": WCU,
        "ScheduledActionName": "morning", "Schedule": "at(2026-11-30T12:10:00)",
        "ScalableTargetAction": {"MinCapacity": 40, "MaxCapacity": 100}}))
    client.advance(599 * 1000)
    assert write_units(client, name) == 5
    client.advance(1000)
    assert write_units(client, name) == 40
    a = activities(client, res)[-1]
    assert a["StartTime"] == START + 600 and a["Cause"] == "minimum capacity was set to 40"
    t = ok(as_call(client, "DescribeScalableTargets", {"ServiceNamespace": "dynamodb"}))
    mine = [x for x in t["ScalableTargets"] if x["ResourceId"] == res]
    assert mine[0]["MinCapacity"] == 40


# cron() in a time zone: 09:00 on weekdays in New York is 14:00 UTC in winter. The clock
# starts on Monday 2026-11-30 at 12:00 UTC; the first firing is that day at 14:00 UTC, the
# next Tuesday's; a StartTime still ahead runs the action then, and nothing runs after the
# EndTime.
def test_scheduled_action_cron_in_a_time_zone(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5))
    res = "table/" + name
    register(client, res, WCU, 5, 100)
    ok(as_call(client, "PutScheduledAction", {
        "ServiceNamespace": "dynamodb", "ResourceId": res, "ScalableDimension": WCU,
        "ScheduledActionName": "open", "Schedule": "cron(0 9 ? * MON-FRI *)",
        "Timezone": "America/New_York", "ScalableTargetAction": {"MinCapacity": 30}}))
    ok(as_call(client, "PutScheduledAction", {
        "ServiceNamespace": "dynamodb", "ResourceId": res, "ScalableDimension": WCU,
        "ScheduledActionName": "close", "Schedule": "cron(0 17 ? * MON-FRI *)",
        "Timezone": "America/New_York", "ScalableTargetAction": {"MinCapacity": 5, "MaxCapacity": 10},
        "StartTime": START + 3600, "EndTime": START + 86400 + 22 * 3600}))
    # StartTime 13:00 UTC: "close" runs then (the units are at the minimum already: no change).
    client.advance(2 * 3600 * 1000 - 1000)
    assert write_units(client, name) == 5
    client.advance(1000)  # 14:00 UTC, 09:00 in New York
    assert write_units(client, name) == 30
    a = activities(client, res)[-1]
    assert a["StartTime"] == START + 2 * 3600 and a["Cause"] == "minimum capacity was set to 30"
    client.advance(8 * 3600 * 1000)  # 22:00 UTC, 17:00 in New York: "close"
    assert write_units(client, name) == 10
    assert activities(client, res)[-1]["StartTime"] == START + 10 * 3600
    client.advance(16 * 3600 * 1000)  # Tuesday 14:00 UTC: "open" again
    assert write_units(client, name) == 30
    client.advance(8 * 3600 * 1000)  # Tuesday 22:00 UTC: the EndTime, "close" a last time
    assert write_units(client, name) == 10
    client.advance(24 * 3600 * 1000)  # Wednesday: "open" at 14:00, no more "close"
    assert write_units(client, name) == 30
    got = ok(as_call(client, "DescribeScheduledActions", {"ServiceNamespace": "dynamodb",
                                                           "ResourceId": res}))["ScheduledActions"]
    assert {a["ScheduledActionName"]: a["Timezone"] for a in got} == {
        "open": "America/New_York", "close": "America/New_York"}


# Two target-tracking policies on one target: the one that wants more capacity scales out
# (largest capacity wins); a scale-in needs every policy with scale-in enabled, so a 90 %
# policy alone never brings the table below what the 50 % one wants.
def test_several_policies_on_one_target(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 30))
    res = "table/" + name
    register(client, res, WCU, 5, 1000)
    policy(client, res, WCU, target=90.0)
    conf = {"TargetValue": 50.0, "PredefinedMetricSpecification": {
        "PredefinedMetricType": "DynamoDBWriteCapacityUtilization"}}
    ok(as_call(client, "PutScalingPolicy", {
        "PolicyName": "p50", "ServiceNamespace": "dynamodb", "ResourceId": res,
        "ScalableDimension": WCU, "PolicyType": "TargetTrackingScaling",
        "TargetTrackingScalingPolicyConfiguration": conf}))
    load(client, name, 40, 6 * 60)
    # 40 units/s on 30 (the burst covers the excess) is above both targets: 90 % wants 45
    # units, 50 % wants 80.
    assert write_units(client, name) == 80
    out = [a for a in activities(client, res) if "triggered policy" in a["Cause"]]
    assert out[0]["Cause"].endswith("triggered policy p50")
    # 10 units/s on 80 is 12.5 %: below both low thresholds (70 % and 30 %); the scale-in
    # goes to the larger of 12 and 20.
    load(client, name, 10, 22 * 60)
    assert write_units(client, name) == 20


# Each GSI is its own scalable target: with a policy on the table only, the table scales out
# but the under-provisioned index keeps throttling the table's writes with the index's
# reason; a policy on the index scales it too.
def test_gsi_without_its_own_policy_throttles_table_writes(client):
    name = new_name()
    client.create_table(name, ProvisionedThroughput=pt(5, 5),
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "g", "AttributeType": "S"}],
                        GlobalSecondaryIndexes=[{
                            "IndexName": "byg",
                            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "ALL"},
                            "ProvisionedThroughput": pt(5, 5)}])
    res = "table/" + name
    register(client, res, WCU, 5, 1000)
    policy(client, res, WCU)
    load(client, name, 20, 15 * 60, index_key="a")
    assert write_units(client, name) > 5
    t = ok(client.call("DescribeTable", {"TableName": name}))["Table"]
    assert t["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["WriteCapacityUnits"] == 5
    it = {"pk": {"S": "z"}, "g": {"S": "a"}, "p": {"S": "x" * (100 * 1024)}}
    status, reply = client.call("PutItem", {"TableName": name, "Item": it})
    assert status == 400
    assert reply["ThrottlingReasons"][0]["reason"] == "IndexWriteProvisionedThroughputExceeded"
    # The index's own target and policy scale it out.
    ires = res + "/index/byg"
    register(client, ires, "dynamodb:index:WriteCapacityUnits", 5, 1000)
    policy(client, ires, "dynamodb:index:WriteCapacityUnits")
    load(client, name, 20, 15 * 60, index_key="a")
    t = ok(client.call("DescribeTable", {"TableName": name}))["Table"]
    g = t["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["WriteCapacityUnits"]
    assert g > 5
    assert activities(client, ires)[0]["ScalableDimension"] == "dynamodb:index:WriteCapacityUnits"


# While the change leaves the table UPDATING (table_update_delay_ms, here 60 s), its activity
# is InProgress, with no EndTime nor StatusMessage; once the table is ACTIVE again it reads
# Successful, ended when the UPDATING did.
def test_activity_in_progress_while_the_table_is_updating(tmp_path):
    from conftest import Client, Server
    path = tmp_path / "slow.conf"
    path.write_text("table_update_delay_ms = 60000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(path)])
    try:
        client = Client(srv.endpoint)
        name = new_name()
        client.create_table(name, ProvisionedThroughput=pt(5, 5))
        res = "table/" + name
        register(client, res, WCU, 5, 100)
        policy(client, res, WCU)
        load(client, name, 20, 300)
        acts = activities(client, res)
        assert len(acts) == 1
        a = acts[0]
        assert a["StatusCode"] == "InProgress" and "EndTime" not in a, a
        assert "StatusMessage" not in a
        status = ok(client.call("DescribeTable", {"TableName": name}))["Table"]["TableStatus"]
        assert status == "UPDATING"
        client.advance(60000)
        a = activities(client, res)[0]
        assert a["StatusCode"] == "Successful"
        assert a["EndTime"] == a["StartTime"] + 60
        assert a["StatusMessage"].startswith("Successfully set write capacity units to ")
    finally:
        srv.stop()


# With --data-dir, the registry survives a restart: targets (bounds, ARN, tags), policies
# (ARN, alarms), scheduled actions and the activity history read back the same; the policy
# and the schedule keep working on the new run; a deregistration is remembered too.
def test_registry_survives_a_restart(tmp_path):
    from conftest import Client, Server
    data = tmp_path / "data"
    data.mkdir()

    def start(at):
        return Server(["--clock", "manual", "--clock-start", at, "--data-dir", str(data)])

    def describe(client, res):
        q = {"ServiceNamespace": "dynamodb", "ResourceId": res}
        return (ok(as_call(client, "DescribeScalableTargets",
                           {"ServiceNamespace": "dynamodb", "ResourceIds": [res]}))["ScalableTargets"],
                ok(as_call(client, "DescribeScalingPolicies", q))["ScalingPolicies"],
                ok(as_call(client, "DescribeScheduledActions", q))["ScheduledActions"],
                activities(client, res))

    name = new_name()
    res = "table/" + name
    srv = start("2026-11-30T12:00:00Z")
    try:
        client = Client(srv.endpoint)
        client.create_table(name, ProvisionedThroughput=pt(5, 5))
        ok(as_call(client, "RegisterScalableTarget", {
            "ServiceNamespace": "dynamodb", "ResourceId": res, "ScalableDimension": WCU,
            "MinCapacity": 5, "MaxCapacity": 100, "Tags": {"team": "a"}}))
        policy(client, res, WCU, ScaleInCooldown=600)
        ok(as_call(client, "PutScheduledAction", {
            "ServiceNamespace": "dynamodb", "ResourceId": res, "ScalableDimension": WCU,
            "ScheduledActionName": "open", "Schedule": "cron(0 14 * * ? *)",
            "Timezone": "Europe/Berlin", "ScalableTargetAction": {"MinCapacity": 60}}))
        load(client, name, 20, 6 * 60)
        before = describe(client, res)
        assert len(before[3]) == 1 and before[3][0]["StatusCode"] == "Successful"
        arn = before[0][0]["ScalableTargetARN"]
    finally:
        srv.stop()
    # 13:00 UTC, 14:00 in Berlin: the cron action is due at once on the new run.
    srv = start("2026-11-30T12:59:00Z")
    try:
        client = Client(srv.endpoint)
        assert describe(client, res) == before
        tags = ok(as_call(client, "ListTagsForResource", {"ResourceARN": arn}))["Tags"]
        assert tags == {"team": "a"}
        client.advance(60 * 1000)
        assert write_units(client, name) == 60
        assert activities(client, res)[-1]["Cause"] == "minimum capacity was set to 60"
        # The policy runs on this run's datapoints: 60 units/s on 60 (the burst covers the
        # excess) scales out to 60 / 0.7.
        load(client, name, 60, 6 * 60)
        assert write_units(client, name) == 86
        ok(as_call(client, "DeregisterScalableTarget", {
            "ServiceNamespace": "dynamodb", "ResourceId": res, "ScalableDimension": WCU}))
    finally:
        srv.stop()
    srv = start("2026-11-30T14:00:00Z")
    try:
        client = Client(srv.endpoint)
        t, p, s, a = describe(client, res)
        assert (t, p, s) == ([], [], [])
        assert len(a) >= 3  # the history stays (the service keeps six weeks)
    finally:
        srv.stop()
