/* Shared readers and writers of the Application Auto Scaling actions; see
 * autoscaling.h. */
#include "actions/autoscaling.h"
#include "actions/members.h"
#include "actions/reply.h"

#include <stdio.h>
#include <stdlib.h>

sl_err sl_in_as_ref(sl_req *req, sl_as_ref *out) {
  return sl_as_parse_ref(req, sl_in_str(req->body, "ServiceNamespace"),
                         sl_in_str(req->body, "ResourceId"),
                         sl_in_str(req->body, "ScalableDimension"), out);
}

double sl_in_double(const sl_json *obj, const char *member, double dflt) {
  const sl_json *v = sl_json_get(obj, member);
  if (!v || v->type != SL_JSON_NUMBER)
    return dflt;
  char tmp[64];
  size_t n = v->str.len < sizeof(tmp) - 1 ? v->str.len : sizeof(tmp) - 1;
  memcpy(tmp, v->str.p, n);
  tmp[n] = 0;
  return strtod(tmp, NULL);
}

int64_t sl_in_as_time(const sl_json *obj, const char *member) {
  double s = sl_in_double(obj, member, 0);
  if (s > 9.2e15)
    return INT64_MAX;
  if (s < -9.2e15)
    return INT64_MIN;
  return (int64_t)(s * 1000.0);
}

sl_err sl_in_as_page(sl_req *req, sl_as_page *p) {
  memset(p, 0, sizeof(*p));
  p->max = (size_t)sl_in_int(req->body, "MaxResults", 50);
  sl_str tok = sl_in_str(req->body, "NextToken");
  if (!tok.p)
    return SL_OK;
  size_t v = 0;
  bool ok = tok.len > 0 && tok.len < 12;
  for (size_t i = 0; ok && i < tok.len; i++) {
    if (tok.p[i] < '0' || tok.p[i] > '9')
      ok = false;
    else
      v = v * 10 + (size_t)(tok.p[i] - '0');
  }
  if (!ok)
    /* sluice's text. */
    return sl_fail(req, SL_E_AUTOSCALING_INVALID_NEXT_TOKEN, "Invalid NextToken");
  p->start = p->next = v;
  return SL_OK;
}

bool sl_as_page_take(sl_as_page *p) {
  bool take = p->seen >= p->start && p->seen < p->start + p->max;
  p->seen++;
  if (take)
    p->next = p->seen;
  return take;
}

void sl_reply_as_next(sl_jw *w, const sl_as_page *p) {
  if (p->next >= p->seen)
    return;
  char tmp[24];
  snprintf(tmp, sizeof(tmp), "%zu", p->next);
  sl_jw_key_c(w, "NextToken");
  sl_jw_str_c(w, tmp);
}

bool sl_in_as_listed(const sl_json *names, sl_str name) {
  if (!names || names->type != SL_JSON_ARRAY || names->arr.n == 0)
    return true;
  for (size_t i = 0; i < names->arr.n; i++)
    if (names->arr.items[i]->type == SL_JSON_STRING && sl_str_eq(names->arr.items[i]->str, name))
      return true;
  return false;
}

static void key_str(sl_jw *w, const char *k, sl_str v) {
  sl_jw_key_c(w, k);
  sl_jw_str(w, v);
}

static void ident(sl_jw *w, sl_str resource_id, sl_scalable_dim dim) {
  key_str(w, "ServiceNamespace", SL_STR("dynamodb"));
  key_str(w, "ResourceId", resource_id);
  sl_jw_key_c(w, "ScalableDimension");
  sl_jw_str_c(w, sl_scalable_dim_name(dim));
}

void sl_reply_as_target(sl_req *req, const sl_as_target *t) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  ident(w, t->resource_id, t->dim);
  sl_jw_key_c(w, "MinCapacity");
  sl_jw_int(w, t->min);
  sl_jw_key_c(w, "MaxCapacity");
  sl_jw_int(w, t->max);
  sl_jw_key_c(w, "RoleARN");
  char role[256];
  snprintf(role, sizeof(role),
           "arn:aws:iam::%s:role/aws-service-role/dynamodb.application-autoscaling.amazonaws.com/"
           "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable",
           req->env->account_id);
  sl_jw_str_c(w, role);
  sl_jw_key_c(w, "CreationTime");
  sl_reply_time(w, t->created_ms);
  sl_jw_key_c(w, "SuspendedState");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "DynamicScalingInSuspended");
  sl_jw_bool(w, t->suspend_in);
  sl_jw_key_c(w, "DynamicScalingOutSuspended");
  sl_jw_bool(w, t->suspend_out);
  sl_jw_key_c(w, "ScheduledScalingSuspended");
  sl_jw_bool(w, t->suspend_scheduled);
  sl_jw_obj_end(w);
  key_str(w, "ScalableTargetARN", t->arn);
  sl_jw_obj_end(w);
}

void sl_reply_as_alarms(sl_req *req, const sl_as_policy *p) {
  sl_jw *w = &req->w;
  sl_jw_key_c(w, "Alarms");
  sl_jw_arr_begin(w);
  for (int i = 0; i < 4; i++) {
    sl_jw_obj_begin(w);
    key_str(w, "AlarmName", p->alarms[i]);
    sl_jw_key_c(w, "AlarmARN");
    sl_str arn = sl_arena_printf(req->arena, "arn:aws:cloudwatch:%s:%s:alarm:%.*s",
                                 req->env->region, req->env->account_id, SL_STR_FMT(p->alarms[i]));
    sl_jw_str(w, arn);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

void sl_reply_as_policy(sl_req *req, const sl_as_policy *p) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  key_str(w, "PolicyARN", p->arn);
  key_str(w, "PolicyName", p->name);
  ident(w, p->resource_id, p->dim);
  key_str(w, "PolicyType", SL_STR("TargetTrackingScaling"));
  sl_jw_key_c(w, "TargetTrackingScalingPolicyConfiguration");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TargetValue");
  sl_jw_double(w, p->target_value);
  sl_jw_key_c(w, "PredefinedMetricSpecification");
  sl_jw_obj_begin(w);
  key_str(w, "PredefinedMetricType", p->metric_type);
  if (p->resource_label.len)
    key_str(w, "ResourceLabel", p->resource_label);
  sl_jw_obj_end(w);
  if (p->has_out_cooldown) {
    sl_jw_key_c(w, "ScaleOutCooldown");
    sl_jw_int(w, p->out_cooldown_s);
  }
  if (p->has_in_cooldown) {
    sl_jw_key_c(w, "ScaleInCooldown");
    sl_jw_int(w, p->in_cooldown_s);
  }
  if (p->has_disable_scale_in) {
    sl_jw_key_c(w, "DisableScaleIn");
    sl_jw_bool(w, p->disable_scale_in);
  }
  sl_jw_obj_end(w);
  sl_reply_as_alarms(req, p);
  sl_jw_key_c(w, "CreationTime");
  sl_reply_time(w, p->created_ms);
  sl_jw_obj_end(w);
}

void sl_reply_as_scheduled(sl_req *req, const sl_as_scheduled *s) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  key_str(w, "ScheduledActionName", s->name);
  key_str(w, "ScheduledActionARN", s->arn);
  key_str(w, "ServiceNamespace", SL_STR("dynamodb"));
  key_str(w, "Schedule", s->schedule);
  if (s->timezone.len)
    key_str(w, "Timezone", s->timezone);
  key_str(w, "ResourceId", s->resource_id);
  sl_jw_key_c(w, "ScalableDimension");
  sl_jw_str_c(w, sl_scalable_dim_name(s->dim));
  if (s->has_start) {
    sl_jw_key_c(w, "StartTime");
    sl_reply_time(w, s->start_ms);
  }
  if (s->has_end) {
    sl_jw_key_c(w, "EndTime");
    sl_reply_time(w, s->end_ms);
  }
  sl_jw_key_c(w, "ScalableTargetAction");
  sl_jw_obj_begin(w);
  if (s->has_min) {
    sl_jw_key_c(w, "MinCapacity");
    sl_jw_int(w, s->min);
  }
  if (s->has_max) {
    sl_jw_key_c(w, "MaxCapacity");
    sl_jw_int(w, s->max);
  }
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "CreationTime");
  sl_reply_time(w, s->created_ms);
  sl_jw_obj_end(w);
}

void sl_reply_as_activity(sl_req *req, const sl_as_activity *a) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  key_str(w, "ActivityId", a->id);
  ident(w, a->resource_id, a->dim);
  key_str(w, "Description", a->description);
  key_str(w, "Cause", a->cause);
  sl_jw_key_c(w, "StartTime");
  sl_reply_time(w, a->start_ms);
  if (a->in_progress && req->now_ms < a->end_ms) {
    /* The table is still UPDATING (ops/autoscaling.h). */
    key_str(w, "StatusCode", SL_STR("InProgress"));
    sl_jw_obj_end(w);
    return;
  }
  sl_jw_key_c(w, "EndTime");
  sl_reply_time(w, a->end_ms);
  key_str(w, "StatusCode", a->status_code);
  key_str(w, "StatusMessage", a->status_message);
  if (a->not_scaled.len) {
    sl_jw_key_c(w, "NotScaledReasons");
    sl_jw_arr_begin(w);
    sl_jw_obj_begin(w);
    key_str(w, "Code", a->not_scaled);
    bool at_max = sl_str_eq_c(a->not_scaled, "AlreadyAtMaxCapacity");
    sl_jw_key_c(w, at_max ? "MaxCapacity" : "MinCapacity");
    sl_jw_int(w, at_max ? a->ns_max : a->ns_min);
    sl_jw_key_c(w, "CurrentCapacity");
    sl_jw_int(w, a->ns_current);
    sl_jw_obj_end(w);
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
}
