/*
 * DeleteScalingPolicy (Application Auto Scaling) — removes a policy (and
 * its alarms). Pinned by tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_delete_scaling_policy(sl_req *req) {
  sl_as_ref ref;
  sl_err err = sl_in_as_ref(req, &ref);
  if (err != SL_OK ||
      (err = sl_as_delete_policy(req, &ref, sl_in_str(req->body, "PolicyName"))) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
