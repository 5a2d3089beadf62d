/*
 * DescribeScalingPolicies (Application Auto Scaling) — the policies of the
 * namespace, filtered by PolicyNames, ResourceId and ScalableDimension, in
 * creation order, paged. Pinned by tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

static bool named(const sl_json *names, sl_str name) {
  if (!names || names->type != SL_JSON_ARRAY || names->arr.n == 0)
    return true;
  for (size_t i = 0; i < names->arr.n; i++)
    if (names->arr.items[i]->type == SL_JSON_STRING && sl_str_eq(names->arr.items[i]->str, name))
      return true;
  return false;
}

sl_err sl_action_describe_scaling_policies(sl_req *req) {
  sl_err err = sl_as_check_namespace(req, sl_in_str(req->body, "ServiceNamespace"));
  if (err != SL_OK)
    return err;
  sl_str rid = sl_in_str(req->body, "ResourceId");
  sl_str dim = sl_in_str(req->body, "ScalableDimension");
  const sl_json *names = sl_in_arr(req->body, "PolicyNames");
  size_t start, max;
  if ((err = sl_in_as_page(req, &start, &max)) != SL_OK)
    return err;
  sl_autoscaling *as = req->env->autoscaling;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ScalingPolicies");
  sl_jw_arr_begin(w);
  size_t seen = 0, next = start;
  for (size_t i = 0; i < as->n_policies; i++) {
    const sl_as_policy *p = as->policies[i];
    if ((rid.p && !sl_str_eq(rid, p->resource_id)) ||
        (dim.p && !sl_str_eq_c(dim, sl_scalable_dim_name(p->dim))) || !named(names, p->name))
      continue;
    if (seen >= start && seen < start + max) {
      sl_reply_as_policy(req, p);
      next = seen + 1;
    }
    seen++;
  }
  sl_jw_arr_end(w);
  sl_reply_as_next(w, next, seen);
  sl_jw_obj_end(w);
  return SL_OK;
}
