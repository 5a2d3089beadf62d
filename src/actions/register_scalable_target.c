/*
 * RegisterScalableTarget (Application Auto Scaling) — registers or updates
 * a DynamoDB table's or GSI's read or write capacity as a scalable target.
 * Pinned by tests/conformance/test_autoscaling.py.
 *
 * Request: ServiceNamespace, ResourceId, ScalableDimension (required),
 * MinCapacity, MaxCapacity (required for a new target), SuspendedState,
 * Tags (a new target's only). RoleARN is accepted and not used. The rules are
 * ops/autoscaling.h's; units outside the new bounds are brought within them
 * at once (an activity "minimum capacity was set to N").
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_register_scalable_target(sl_req *req) {
  sl_as_register_in in = {0};
  sl_err err = sl_in_as_ref(req, &in.ref);
  if (err != SL_OK)
    return err;
  const sl_json *b = req->body;
  in.has_min = sl_in_has(b, "MinCapacity");
  in.min = sl_in_int(b, "MinCapacity", 0);
  in.has_max = sl_in_has(b, "MaxCapacity");
  in.max = sl_in_int(b, "MaxCapacity", 0);
  const sl_json *ss = sl_in_obj(b, "SuspendedState");
  in.has_in = sl_in_has(ss, "DynamicScalingInSuspended");
  in.suspend_in = sl_in_bool(ss, "DynamicScalingInSuspended", false);
  in.has_out = sl_in_has(ss, "DynamicScalingOutSuspended");
  in.suspend_out = sl_in_bool(ss, "DynamicScalingOutSuspended", false);
  in.has_scheduled = sl_in_has(ss, "ScheduledScalingSuspended");
  in.suspend_scheduled = sl_in_bool(ss, "ScheduledScalingSuspended", false);
  const sl_json *tags = sl_in_obj(b, "Tags");
  if (tags) {
    sl_tag *v = SL_NEW_ARRAY(req->arena, sl_tag, tags->obj.n ? tags->obj.n : 1);
    for (size_t i = 0; i < tags->obj.n; i++)
      if (!sl_in_member_shadowed(tags, i))
        v[in.n_tags++] = (sl_tag){tags->obj.members[i].key, tags->obj.members[i].value->str};
    in.tags = v;
    in.has_tags = true;
  }
  const sl_as_target *t;
  if ((err = sl_as_register(req, &in, &t)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "ScalableTargetARN");
  sl_jw_str(&req->w, t->arn);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
