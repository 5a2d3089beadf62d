/*
 * PutScheduledAction (Application Auto Scaling) — creates or replaces a
 * scheduled change of a target's MinCapacity/MaxCapacity: at(), rate() and
 * cron() schedules in the action's Timezone (ops/autoscaling.h). Pinned by
 * tests/conformance/test_autoscaling.py and test_autoscaling_capacity.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_put_scheduled_action(sl_req *req) {
  sl_as_scheduled_in in = {0};
  sl_err err = sl_in_as_ref(req, &in.ref);
  if (err != SL_OK)
    return err;
  const sl_json *b = req->body;
  in.name = sl_in_str(b, "ScheduledActionName");
  in.schedule = sl_in_str(b, "Schedule");
  in.timezone = sl_in_str(b, "Timezone");
  in.has_start = sl_in_has(b, "StartTime");
  in.start_ms = sl_in_as_time(b, "StartTime");
  in.has_end = sl_in_has(b, "EndTime");
  in.end_ms = sl_in_as_time(b, "EndTime");
  const sl_json *a = sl_in_obj(b, "ScalableTargetAction");
  in.has_action = a != NULL;
  in.has_min = sl_in_has(a, "MinCapacity");
  in.min = sl_in_int(a, "MinCapacity", 0);
  in.has_max = sl_in_has(a, "MaxCapacity");
  in.max = sl_in_int(a, "MaxCapacity", 0);
  if (!in.schedule.p)
    /* sluice's text: the model leaves Schedule optional for updates. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION, "Schedule is required");
  if ((err = sl_as_put_scheduled(req, &in)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
