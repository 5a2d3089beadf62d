"""Application Auto Scaling API (AnyScaleFrontendService, JSON 1.1) for DynamoDB tables and
GSIs, through boto3's `application-autoscaling` client and the AWS CLI: scalable targets,
target-tracking policies, scheduled actions, activities, and the service's exceptions in its
checking order (model validation, the target's identity, then lookups). The policies' behaviour
on the capacity clock is test_autoscaling_capacity.py.

DynamoDB Local serves no Application Auto Scaling (its 2026-05 jar answers every
AnyScaleFrontendService target with com.amazonaws.dynamodb.v20120810#InvalidAction), so the
module is marked ddblocal_differs.
Sources of the texts: ops/autoscaling.c's header (live texts quoted in ansible/ansible#40237,
terraform-aws-dynamodb-table#15, ocadotechnology/hippolyte#7, pulumi/pulumi-policy-aws#11; the
AWS CLI reference's DescribeScalingActivities example); texts marked "sluice's" there have no
recorded source and are only checked for their exception here.
"""
import json
import os
import shutil
import subprocess
import uuid

import boto3
import botocore.config
import pytest

from conftest import CREDS, REGION

pytestmark = pytest.mark.ddblocal_differs

WCU = "dynamodb:table:WriteCapacityUnits"
RCU = "dynamodb:table:ReadCapacityUnits"
AWS = "/usr/bin/aws" if os.path.exists("/usr/bin/aws") else shutil.which("aws")


@pytest.fixture(scope="module")
def aas(endpoint):
    return boto3.client(
        "application-autoscaling", endpoint_url=endpoint, region_name=REGION,
        aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key,
        config=botocore.config.Config(retries={"max_attempts": 1, "mode": "standard"}))


@pytest.fixture
def table(make_table):
    """A provisioned table (5/5) with a provisioned GSI 'byg' (5/5)."""
    return make_table(
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        extra_attrs=[("g", "S")],
        GlobalSecondaryIndexes=[{
            "IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}])


def target(name, dim=WCU, **kw):
    args = dict(ServiceNamespace="dynamodb", ResourceId="table/" + name, ScalableDimension=dim)
    args.update(kw)
    return args


def tt_config(metric="DynamoDBWriteCapacityUtilization", **kw):
    c = {"TargetValue": 70.0, "PredefinedMetricSpecification": {"PredefinedMetricType": metric}}
    c.update(kw)
    return c


def error(exc_info):
    e = exc_info.value.response["Error"]
    return e["Code"], e["Message"]


def raw_call(raw, op, body):
    return raw.call(op, body, target="AnyScaleFrontendService." + op,
                    headers={"Content-Type": "application/x-amz-json-1.1"})


# --- the wire ------------------------------------------------------------------------------

# The service answers in JSON 1.1 with its own exception namespace and a capital "Message"
# (botocore's model; errors.def).
def test_error_envelope(raw, table):
    r = raw_call(raw, "DeregisterScalableTarget", target(table))
    assert r.status == 400
    assert r.json["__type"] == "com.amazonaws.autoscaling.anyscale.frontend#ObjectNotFoundException"
    assert "Message" in r.json and "message" not in r.json
    assert r.headers["Content-Type"] == "application/x-amz-json-1.1"


# The model's constraints come first, with the Coral texts (serviceNamespace is an enum).
def test_model_validation(aas):
    with pytest.raises(aas.exceptions.ValidationException) as e:
        aas.describe_scalable_targets(ServiceNamespace="bogus")
    assert error(e)[1].startswith(
        "1 validation error detected: Value 'bogus' at 'serviceNamespace' failed to satisfy "
        "constraint: Member must satisfy enum value set: [")


# --- RegisterScalableTarget ----------------------------------------------------------------

# A table's and a GSI's dimensions register; DescribeScalableTargets lists them with the
# service-linked role and the bounds; registering again updates the bounds.
# (The target's ARN, 2023, is read raw: Debian's botocore predates it.)
def test_register_and_describe(aas, raw, table):
    r = raw_call(raw, "RegisterScalableTarget", target(table, MinCapacity=5, MaxCapacity=50))
    assert r.status == 200, r
    assert r.json["ScalableTargetARN"].startswith(
        "arn:aws:application-autoscaling:us-east-1:000000000000:scalable-target/")
    aas.register_scalable_target(**target(table + "/index/byg", "dynamodb:index:ReadCapacityUnits"),
                                 MinCapacity=5, MaxCapacity=20)
    got = aas.describe_scalable_targets(ServiceNamespace="dynamodb",
                                        ResourceIds=["table/" + table])["ScalableTargets"]
    assert [(t["ResourceId"], t["ScalableDimension"], t["MinCapacity"], t["MaxCapacity"])
            for t in got] == [("table/" + table, WCU, 5, 50)]
    assert got[0]["RoleARN"].endswith(
        ":role/aws-service-role/dynamodb.application-autoscaling.amazonaws.com/"
        "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable")
    assert got[0]["SuspendedState"] == {"DynamicScalingInSuspended": False,
                                        "DynamicScalingOutSuspended": False,
                                        "ScheduledScalingSuspended": False}
    aas.register_scalable_target(**target(table), MaxCapacity=80,
                                 SuspendedState={"DynamicScalingInSuspended": True})
    got = aas.describe_scalable_targets(ServiceNamespace="dynamodb", ScalableDimension=WCU,
                                        ResourceIds=["table/" + table])["ScalableTargets"]
    assert (got[0]["MinCapacity"], got[0]["MaxCapacity"]) == (5, 80)
    assert got[0]["SuspendedState"]["DynamicScalingInSuspended"] is True
    both = aas.describe_scalable_targets(
        ServiceNamespace="dynamodb",
        ResourceIds=["table/" + table, "table/" + table + "/index/byg"])["ScalableTargets"]
    assert len(both) == 2


# A minimum above the current units raises them at once: an activity with the service's
# description and cause, and the table's ProvisionedThroughput follows.
def test_register_raises_units_to_the_minimum(aas, ddb, table):
    aas.register_scalable_target(**target(table, RCU), MinCapacity=12, MaxCapacity=50)
    assert ddb.describe_table(TableName=table)["Table"]["ProvisionedThroughput"][
        "ReadCapacityUnits"] == 12
    acts = aas.describe_scaling_activities(ServiceNamespace="dynamodb",
                                           ResourceId="table/" + table)["ScalingActivities"]
    assert len(acts) == 1
    a = acts[0]
    assert (a["ScalableDimension"], a["Description"], a["Cause"], a["StatusCode"]) == (
        RCU, "Setting read capacity units to 12.", "minimum capacity was set to 12", "Successful")
    assert a["StatusMessage"] == ("Successfully set read capacity units to 12. Change successfully "
                                  "fulfilled by dynamodb.")


# The target must exist in DynamoDB; its id must have the table/T[/index/I] form matching the
# dimension; a new target needs both bounds.
def test_register_errors(aas, table):
    with pytest.raises(aas.exceptions.ValidationException) as e:
        aas.register_scalable_target(**target("nope_" + uuid.uuid4().hex[:8]), MinCapacity=1,
                                     MaxCapacity=2)
    assert error(e)[1].startswith("DynamoDB table does not exist: table/nope_")
    for rid, dim in (("dynamo/" + table, WCU), ("table/" + table, "dynamodb:index:ReadCapacityUnits"),
                     ("table/" + table + "/index/byg", WCU), ("table/" + table + "/x/y", WCU)):
        with pytest.raises(aas.exceptions.ValidationException) as e:
            aas.register_scalable_target(ServiceNamespace="dynamodb", ResourceId=rid,
                                         ScalableDimension=dim, MinCapacity=1, MaxCapacity=2)
        assert error(e)[1] == "Unsupported service namespace, resource type or scalable dimension"
    with pytest.raises(aas.exceptions.ValidationException):
        aas.register_scalable_target(**target(table + "/index/nope",
                                              "dynamodb:index:WriteCapacityUnits"),
                                     MinCapacity=1, MaxCapacity=2)
    with pytest.raises(aas.exceptions.ValidationException):
        aas.register_scalable_target(**target(table), MinCapacity=1)
    # The service's text (hashicorp/terraform-provider-aws#8777).
    with pytest.raises(aas.exceptions.ValidationException) as e:
        aas.register_scalable_target(**target(table), MinCapacity=10, MaxCapacity=5)
    assert error(e)[1] == "Maximum capacity cannot be less than minimum capacity"
    # Another namespace of the model is another service: refused with a message.
    with pytest.raises(aas.exceptions.ValidationException) as e:
        aas.register_scalable_target(ServiceNamespace="ecs", ResourceId="service/c/s",
                                     ScalableDimension="ecs:service:DesiredCount", MinCapacity=1,
                                     MaxCapacity=2)
    assert "dynamodb" in error(e)[1]
    assert aas.describe_scalable_targets(ServiceNamespace="dynamodb",
                                         ResourceIds=["table/" + table])["ScalableTargets"] == []


# --- DeregisterScalableTarget --------------------------------------------------------------

# Deregistering removes the target with its policies; a second time it is not found, with the
# service's text.
def test_deregister(aas, table):
    aas.register_scalable_target(**target(table), MinCapacity=5, MaxCapacity=50)
    aas.put_scaling_policy(PolicyName="p", PolicyType="TargetTrackingScaling", **target(table),
                           TargetTrackingScalingPolicyConfiguration=tt_config())
    aas.deregister_scalable_target(**target(table))
    assert aas.describe_scaling_policies(ServiceNamespace="dynamodb",
                                         ResourceId="table/" + table)["ScalingPolicies"] == []
    with pytest.raises(aas.exceptions.ObjectNotFoundException) as e:
        aas.deregister_scalable_target(**target(table))
    assert error(e)[1] == (f"No scalable target registered for service namespace: dynamodb, "
                           f"resource ID: table/{table}, scalable dimension: {WCU}")


# --- PutScalingPolicy, DescribeScalingPolicies, DeleteScalingPolicy ------------------------

# A target-tracking policy: its ARN and four CloudWatch alarms; described with its
# configuration; put again it is replaced, not duplicated.
def test_put_describe_delete_policy(aas, table):
    aas.register_scalable_target(**target(table), MinCapacity=5, MaxCapacity=50)
    r = aas.put_scaling_policy(
        PolicyName="wpol", PolicyType="TargetTrackingScaling", **target(table),
        TargetTrackingScalingPolicyConfiguration=tt_config(ScaleInCooldown=60,
                                                           ScaleOutCooldown=30))
    assert r["PolicyARN"].startswith("arn:aws:autoscaling:us-east-1:")
    assert r["PolicyARN"].endswith(f":resource/dynamodb/table/{table}:policyName/wpol")
    names = [a["AlarmName"] for a in r["Alarms"]]
    assert [n.split("-")[-6] for n in names] == [
        "AlarmHigh", "AlarmLow", "ProvisionedCapacityHigh", "ProvisionedCapacityLow"]
    assert all(n.startswith(f"TargetTracking-table/{table}-") for n in names)
    got = aas.describe_scaling_policies(ServiceNamespace="dynamodb",
                                        ResourceId="table/" + table)["ScalingPolicies"]
    assert len(got) == 1
    p = got[0]
    assert (p["PolicyName"], p["PolicyType"], p["ScalableDimension"]) == (
        "wpol", "TargetTrackingScaling", WCU)
    assert p["TargetTrackingScalingPolicyConfiguration"] == tt_config(ScaleInCooldown=60,
                                                                     ScaleOutCooldown=30)
    aas.put_scaling_policy(PolicyName="wpol", PolicyType="TargetTrackingScaling", **target(table),
                           TargetTrackingScalingPolicyConfiguration=tt_config(
                               TargetValue=50.0, DisableScaleIn=True))
    got = aas.describe_scaling_policies(ServiceNamespace="dynamodb", PolicyNames=["wpol"],
                                        ResourceId="table/" + table)["ScalingPolicies"]
    assert len(got) == 1
    assert got[0]["TargetTrackingScalingPolicyConfiguration"] == tt_config(
        TargetValue=50.0, DisableScaleIn=True)
    assert got[0]["PolicyARN"] == r["PolicyARN"]
    aas.delete_scaling_policy(PolicyName="wpol", **target(table))
    with pytest.raises(aas.exceptions.ObjectNotFoundException) as e:
        aas.delete_scaling_policy(PolicyName="wpol", **target(table))
    assert error(e)[1] == (f"No scaling policy found for service namespace: dynamodb, resource "
                           f"ID: table/{table}, scalable dimension: {WCU}, policy name: wpol")


# A policy needs a registered target (the text Terraform users see), the metric of its
# dimension, and the target-tracking type (StepScaling is not DynamoDB's).
def test_policy_errors(aas, table):
    with pytest.raises(aas.exceptions.ObjectNotFoundException) as e:
        aas.put_scaling_policy(PolicyName="p", PolicyType="TargetTrackingScaling",
                               **target(table), TargetTrackingScalingPolicyConfiguration=tt_config())
    assert error(e)[1] == (f"No scalable target registered for service namespace: dynamodb, "
                           f"resource ID: table/{table}, scalable dimension: {WCU}")
    aas.register_scalable_target(**target(table), MinCapacity=5, MaxCapacity=50)
    with pytest.raises(aas.exceptions.ValidationException):
        aas.put_scaling_policy(PolicyName="p", PolicyType="TargetTrackingScaling", **target(table),
                               TargetTrackingScalingPolicyConfiguration=tt_config(
                                   "DynamoDBReadCapacityUtilization"))
    with pytest.raises(aas.exceptions.ValidationException):
        aas.put_scaling_policy(PolicyName="p", **target(table),
                               StepScalingPolicyConfiguration={"AdjustmentType": "ChangeInCapacity"})
    with pytest.raises(aas.exceptions.ValidationException):
        aas.put_scaling_policy(PolicyName="p", PolicyType="TargetTrackingScaling", **target(table))
    assert aas.describe_scaling_policies(ServiceNamespace="dynamodb",
                                         ResourceId="table/" + table)["ScalingPolicies"] == []


# A target-tracking policy on a CustomizedMetricSpecification (a CloudWatch metric of the
# user's) is refused whole with a ValidationException that names what sluice does not support
# (it has no CloudWatch to read the metric from; README "Not supported"), with or without a
# PredefinedMetricSpecification beside it, and stores nothing. The text is sluice's.
@pytest.mark.sluice_only
def test_customized_metric_refused(aas, table):
    aas.register_scalable_target(**target(table), MinCapacity=5, MaxCapacity=50)
    customized = {"MetricName": "ConsumedWriteCapacityUnits", "Namespace": "AWS/DynamoDB",
                  "Dimensions": [{"Name": "TableName", "Value": table}],
                  "Statistic": "Sum", "Unit": "Count"}
    configs = [{"TargetValue": 70.0, "CustomizedMetricSpecification": customized},
               dict(tt_config(), CustomizedMetricSpecification=customized)]
    for config in configs:
        with pytest.raises(aas.exceptions.ValidationException) as e:
            aas.put_scaling_policy(PolicyName="custom", PolicyType="TargetTrackingScaling",
                                   **target(table), TargetTrackingScalingPolicyConfiguration=config)
        assert error(e) == ("ValidationException",
                            "sluice supports PredefinedMetricSpecification only: "
                            "CustomizedMetricSpecification is not supported (README: Not "
                            "supported)")
    assert aas.describe_scaling_policies(ServiceNamespace="dynamodb",
                                         ResourceId="table/" + table)["ScalingPolicies"] == []


# --- scheduled actions ---------------------------------------------------------------------

def test_scheduled_actions(aas, table):
    aas.register_scalable_target(**target(table), MinCapacity=5, MaxCapacity=50)
    aas.put_scheduled_action(ScheduledActionName="nightly", Schedule="rate(1 day)", **target(table),
                             ScalableTargetAction={"MinCapacity": 5, "MaxCapacity": 10})
    aas.put_scheduled_action(ScheduledActionName="once", Schedule="at(2030-01-01T00:00:00)",
                             **target(table), ScalableTargetAction={"MinCapacity": 20})
    got = aas.describe_scheduled_actions(ServiceNamespace="dynamodb",
                                         ResourceId="table/" + table)["ScheduledActions"]
    assert [(a["ScheduledActionName"], a["Schedule"], a["ScalableTargetAction"]) for a in got] == [
        ("nightly", "rate(1 day)", {"MinCapacity": 5, "MaxCapacity": 10}),
        ("once", "at(2030-01-01T00:00:00)", {"MinCapacity": 20})]
    assert got[0]["ScheduledActionARN"].endswith(
        f":resource/dynamodb/table/{table}:scheduledActionName/nightly")
    got = aas.describe_scheduled_actions(ServiceNamespace="dynamodb",
                                         ScheduledActionNames=["once"])["ScheduledActions"]
    assert [a["ScheduledActionName"] for a in got] == ["once"]
    aas.delete_scheduled_action(ScheduledActionName="once", **target(table))
    with pytest.raises(aas.exceptions.ObjectNotFoundException):
        aas.delete_scheduled_action(ScheduledActionName="once", **target(table))
    with pytest.raises(aas.exceptions.ValidationException):
        aas.put_scheduled_action(ScheduledActionName="bad", Schedule="every day", **target(table),
                                 ScalableTargetAction={"MinCapacity": 5})
    # cron(), six fields, in a time zone of the IANA database; Timezone shown back.
    aas.put_scheduled_action(ScheduledActionName="c", Schedule="cron(0 8 ? * MON-FRI *)",
                             Timezone="Europe/Berlin", **target(table),
                             ScalableTargetAction={"MinCapacity": 5})
    got = aas.describe_scheduled_actions(ServiceNamespace="dynamodb",
                                         ScheduledActionNames=["c"])["ScheduledActions"]
    assert (got[0]["Schedule"], got[0]["Timezone"]) == ("cron(0 8 ? * MON-FRI *)", "Europe/Berlin")
    for bad in ("cron(0 8 * * *)", "cron(0 8 * * MON *)", "cron(0 8 ? * ? *)", "cron(61 8 * * ? *)",
                "rate(1 minutes)", "at(2030-02-30T00:00:00)"):
        with pytest.raises(aas.exceptions.ValidationException) as e:
            aas.put_scheduled_action(ScheduledActionName="bad", Schedule=bad, **target(table),
                                     ScalableTargetAction={"MinCapacity": 5})
        assert bad in error(e)[1]
    # The service's text (aws-cloudformation/community-registry-extensions#255).
    with pytest.raises(aas.exceptions.ValidationException) as e:
        aas.put_scheduled_action(ScheduledActionName="bad", Schedule="rate(1 hour)",
                                 **target(table), ScalableTargetAction={})
    assert error(e)[1] == ("At least one of minimum capacity and maximum capacity should be "
                           "provided")
    with pytest.raises(aas.exceptions.ValidationException) as e:
        aas.put_scheduled_action(ScheduledActionName="bad", Schedule="cron(0 8 * * ? *)",
                                 Timezone="Mars/Olympus_Mons", **target(table),
                                 ScalableTargetAction={"MinCapacity": 5})
    assert "Mars/Olympus_Mons" in error(e)[1]
    with pytest.raises(aas.exceptions.ObjectNotFoundException):
        aas.put_scheduled_action(ScheduledActionName="x", Schedule="rate(1 hour)",
                                 **target(table, RCU), ScalableTargetAction={"MinCapacity": 5})


# --- paging --------------------------------------------------------------------------------

# MaxResults pages the lists; NextToken continues; a token this server did not hand out is
# InvalidNextTokenException.
def test_paging(aas, make_table):
    names = [make_table(ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
             for _ in range(3)]
    for n in names:
        aas.register_scalable_target(**target(n), MinCapacity=5, MaxCapacity=6)
    ids = ["table/" + n for n in names]
    p1 = aas.describe_scalable_targets(ServiceNamespace="dynamodb", ResourceIds=ids, MaxResults=2)
    assert len(p1["ScalableTargets"]) == 2 and "NextToken" in p1
    p2 = aas.describe_scalable_targets(ServiceNamespace="dynamodb", ResourceIds=ids,
                                       MaxResults=2, NextToken=p1["NextToken"])
    assert len(p2["ScalableTargets"]) == 1 and "NextToken" not in p2
    with pytest.raises(aas.exceptions.InvalidNextTokenException):
        aas.describe_scalable_targets(ServiceNamespace="dynamodb", NextToken="garbage")


# --- the AWS CLI ---------------------------------------------------------------------------

# `aws application-autoscaling --endpoint-url` registers, puts a policy and describes, as the
# Developer Guide's walkthrough types it.
def test_cli(endpoint, table, tmp_path):
    if not AWS:
        pytest.skip("AWS CLI not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(HOME=str(tmp_path), AWS_ACCESS_KEY_ID=CREDS.access_key,
               AWS_SECRET_ACCESS_KEY=CREDS.secret_key, AWS_DEFAULT_REGION=REGION, AWS_PAGER="",
               AWS_CONFIG_FILE=str(tmp_path / "config"),
               AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "credentials"),
               AWS_EC2_METADATA_DISABLED="true", AWS_MAX_ATTEMPTS="1")

    def run(*args):
        p = subprocess.run([AWS, "--endpoint-url", endpoint, "--output", "json",
                            "application-autoscaling", *args],
                           env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout) if p.stdout.strip() else None

    common = ["--service-namespace", "dynamodb", "--resource-id", "table/" + table,
              "--scalable-dimension", WCU]
    run("register-scalable-target", *common, "--min-capacity", "5", "--max-capacity", "10")
    conf = tmp_path / "policy.json"
    conf.write_text(json.dumps(tt_config(ScaleOutCooldown=60, ScaleInCooldown=60)))
    out = run("put-scaling-policy", *common, "--policy-name", "MyScalingPolicy",
              "--policy-type", "TargetTrackingScaling",
              "--target-tracking-scaling-policy-configuration", "file://" + str(conf))
    assert out["PolicyARN"].endswith("policyName/MyScalingPolicy")
    out = run("describe-scaling-policies", "--service-namespace", "dynamodb",
              "--resource-id", "table/" + table)
    assert out["ScalingPolicies"][0]["PolicyName"] == "MyScalingPolicy"


# --- TagResource, UntagResource, ListTagsForResource ------------------------------------------

# Tags of a scalable target by its ARN (raw calls: Debian's botocore 1.29 predates the three
# operations): set at registration, added or replaced by TagResource, removed by UntagResource
# (an absent key is no error); tagging an existing target through RegisterScalableTarget is
# refused with the service's text; an unknown ARN is ResourceNotFoundException; more than 50
# tags TooManyTagsException.
def test_tags(aas, raw, table):
    r = raw_call(raw, "RegisterScalableTarget",
                 target(table, MinCapacity=1, MaxCapacity=10, Tags={"env": "prod"}))
    assert r.status == 200, r.json
    arn = r.json["ScalableTargetARN"]
    assert raw_call(raw, "ListTagsForResource", {"ResourceARN": arn}).json == {
        "Tags": {"env": "prod"}}
    assert raw_call(raw, "TagResource", {"ResourceARN": arn, "Tags": {
        "env": "test", "team": "a"}}).json == {}
    assert raw_call(raw, "ListTagsForResource", {"ResourceARN": arn}).json["Tags"] == {
        "env": "test", "team": "a"}
    assert raw_call(raw, "UntagResource", {"ResourceARN": arn,
                                            "TagKeys": ["env", "nope"]}).status == 200
    assert raw_call(raw, "ListTagsForResource", {"ResourceARN": arn}).json["Tags"] == {"team": "a"}
    r = raw_call(raw, "RegisterScalableTarget", target(table, Tags={"x": "y"}))
    assert r.status == 400 and r.error_type == "ValidationException"
    assert r.json["Message"] == (
        "The scalable target that you tried to tag already exists. To update tags on an "
        "existing scalable target, use the TagResource API.")
    assert raw_call(raw, "RegisterScalableTarget", target(table, MaxCapacity=20)).status == 200
    r = raw_call(raw, "TagResource", {"ResourceARN": arn,
                                      "Tags": {f"k{i}": "v" for i in range(50)}})
    assert r.status == 400 and r.error_type == "TooManyTagsException"
    assert raw_call(raw, "ListTagsForResource", {"ResourceARN": arn}).json["Tags"] == {"team": "a"}
    gone = arn[:-4] + "0000" if not arn.endswith("0000") else arn[:-4] + "1111"
    for op, body in (("ListTagsForResource", {}), ("TagResource", {"Tags": {"a": "b"}}),
                     ("UntagResource", {"TagKeys": ["a"]})):
        r = raw_call(raw, op, {"ResourceARN": gone, **body})
        assert r.status == 400 and r.error_type == "ResourceNotFoundException", (op, r.json)
    # The model's pattern comes first.
    r = raw_call(raw, "ListTagsForResource", {"ResourceARN": "arn:aws:dynamodb:x"})
    assert r.status == 400 and r.error_type == "ValidationException"
