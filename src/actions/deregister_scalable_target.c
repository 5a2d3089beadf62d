/*
 * DeregisterScalableTarget (Application Auto Scaling) — removes a scalable
 * target with its scaling policies and scheduled actions; the provisioned
 * units stay as they are. Pinned by tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_deregister_scalable_target(sl_req *req) {
  sl_as_ref ref;
  sl_err err = sl_in_as_ref(req, &ref);
  if (err != SL_OK || (err = sl_as_deregister(req, &ref)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
