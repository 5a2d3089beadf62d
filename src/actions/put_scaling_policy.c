/*
 * PutScalingPolicy (Application Auto Scaling) — creates or replaces a
 * target-tracking policy on a registered target
 * (DynamoDBRead/WriteCapacityUtilization, ScaleIn/OutCooldown,
 * DisableScaleIn). StepScaling and PredictiveScaling are not DynamoDB's;
 * CustomizedMetricSpecification is refused (README: Not supported).
 * Pinned by tests/conformance/test_autoscaling.py; the policy runs on the
 * capacity clock (ops/autoscaling.h, cap/scaling.h).
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_put_scaling_policy(sl_req *req) {
  sl_as_policy_in in = {0};
  sl_err err = sl_in_as_ref(req, &in.ref);
  if (err != SL_OK)
    return err;
  const sl_json *b = req->body;
  in.name = sl_in_str(b, "PolicyName");
  in.policy_type = sl_in_str(b, "PolicyType");
  const sl_json *c = sl_in_obj(b, "TargetTrackingScalingPolicyConfiguration");
  in.has_config = c != NULL;
  in.target_value = sl_in_double(c, "TargetValue", 0);
  const sl_json *pm = sl_in_obj(c, "PredefinedMetricSpecification");
  in.has_predefined = pm != NULL;
  in.has_customized = sl_in_has(c, "CustomizedMetricSpecification");
  in.metric_type = sl_in_str(pm, "PredefinedMetricType");
  in.resource_label = sl_in_str(pm, "ResourceLabel");
  in.has_in_cooldown = sl_in_has(c, "ScaleInCooldown");
  in.in_cooldown_s = sl_in_int(c, "ScaleInCooldown", 0);
  in.has_out_cooldown = sl_in_has(c, "ScaleOutCooldown");
  in.out_cooldown_s = sl_in_int(c, "ScaleOutCooldown", 0);
  in.has_disable_scale_in = sl_in_has(c, "DisableScaleIn");
  in.disable_scale_in = sl_in_bool(c, "DisableScaleIn", false);
  const sl_as_policy *p;
  if ((err = sl_as_put_policy(req, &in, &p)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "PolicyARN");
  sl_jw_str(&req->w, p->arn);
  sl_reply_as_alarms(req, p);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
