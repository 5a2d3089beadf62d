/* Application Auto Scaling for DynamoDB; see autoscaling.h. Pinned by
 * tests/conformance/test_autoscaling.py (the API) and
 * test_autoscaling_capacity.py (the policies on the manual clock).
 *
 * Sources of the texts: "No scalable target registered for service
 * namespace: ..." (ObjectNotFoundException) and "DynamoDB table does not
 * exist: table/T" (ValidationException) are live texts quoted in
 * ansible/ansible#40237, terraform-aws-dynamodb-table#15 and
 * ocadotechnology/hippolyte#7; "Unsupported service namespace, resource type
 * or scalable dimension" in pulumi/pulumi-policy-aws#11; "No scaling policy
 * found for ..." is the text emulators recorded (moto); the activity texts
 * ("Setting write capacity units to 10.", "Successfully set write capacity
 * units to 10. Change successfully fulfilled by dynamodb.", "maximum capacity
 * was set to 10", "monitor alarm <name> in state ALARM triggered policy <P>")
 * are the AWS CLI reference's and the Developer Guide's examples. Texts
 * marked "sluice's text" have no recorded source. */
#include "ops/autoscaling.h"
#include "base/log.h"
#include "cap/cap.h"
#include "cap/scaling.h"
#include "jobs/tables.h"
#include "metrics/metrics.h"
#include "ops/update_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const dim_names[] = {
    "dynamodb:table:ReadCapacityUnits", "dynamodb:table:WriteCapacityUnits",
    "dynamodb:index:ReadCapacityUnits", "dynamodb:index:WriteCapacityUnits"};

const char *sl_scalable_dim_name(sl_scalable_dim d) { return dim_names[d]; }

static bool dim_write(sl_scalable_dim d) {
  return d == SL_DIM_TABLE_WRITE || d == SL_DIM_INDEX_WRITE;
}

/* ---- owned strings and vectors ---- */

static sl_str own(sl_str s) {
  char *p = malloc(s.len + 1);
  SL_ASSERT(p);
  if (s.len)
    memcpy(p, s.p, s.len);
  p[s.len] = 0;
  return sl_str_make(p, s.len);
}

static sl_str ownf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static sl_str ownf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = NULL;
  int n = vasprintf(&p, fmt, ap);
  va_end(ap);
  SL_ASSERT(n >= 0 && p);
  return sl_str_make(p, (size_t)n);
}

static void disown(sl_str *s) {
  free((void *)s->p);
  *s = SL_STR_NULL;
}

static void push(void ***v, size_t *n, size_t *cap, void *e) {
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    *v = realloc(*v, *cap * sizeof(void *));
    SL_ASSERT(*v);
  }
  (*v)[(*n)++] = e;
}

static void remove_at(void **v, size_t *n, size_t i) {
  memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof(void *));
  (*n)--;
}

#define PUSH(as, field, e) push((void ***)&(as)->field, &(as)->n_##field, &(as)->cap_##field, (e))

static void target_free(sl_as_target *t) {
  for (size_t i = 0; i < t->n_tags; i++) {
    disown(&t->tags[i].key);
    disown(&t->tags[i].value);
  }
  free(t->tags);
  disown(&t->resource_id);
  disown(&t->table);
  disown(&t->index);
  disown(&t->arn);
  free(t);
}

static void policy_free(sl_as_policy *p) {
  disown(&p->name);
  disown(&p->arn);
  disown(&p->resource_id);
  disown(&p->table);
  disown(&p->index);
  disown(&p->metric_type);
  disown(&p->resource_label);
  for (int i = 0; i < 4; i++)
    disown(&p->alarms[i]);
  free(p);
}

static void scheduled_free(sl_as_scheduled *s) {
  disown(&s->name);
  disown(&s->arn);
  disown(&s->resource_id);
  disown(&s->table);
  disown(&s->index);
  disown(&s->schedule);
  disown(&s->timezone);
  free(s);
}

static void activity_free(sl_as_activity *a) {
  disown(&a->not_scaled);
  disown(&a->id);
  disown(&a->resource_id);
  disown(&a->description);
  disown(&a->cause);
  disown(&a->status_code);
  disown(&a->status_message);
  free(a);
}

sl_autoscaling *sl_autoscaling_new(void) {
  sl_autoscaling *as = calloc(1, sizeof(*as));
  SL_ASSERT(as);
  return as;
}

void sl_autoscaling_free(sl_autoscaling *as) {
  if (!as)
    return;
  for (size_t i = 0; i < as->n_targets; i++)
    target_free(as->targets[i]);
  for (size_t i = 0; i < as->n_policies; i++)
    policy_free(as->policies[i]);
  for (size_t i = 0; i < as->n_scheduled; i++)
    scheduled_free(as->scheduled[i]);
  for (size_t i = 0; i < as->n_activities; i++)
    activity_free(as->activities[i]);
  free(as->targets);
  free(as->policies);
  free(as->scheduled);
  free(as->activities);
  free(as);
}

/* A version-4-shaped UUID from the server's random bits. */
static sl_str uuid(sl_env *env) {
  uint64_t a = sl_env_random(env), b = sl_env_random(env);
  return ownf("%08x-%04x-4%03x-%04x-%012llx", (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
              (unsigned)a & 0xfff, (unsigned)((b >> 48) & 0x3fff) | 0x8000,
              (unsigned long long)(b & 0xffffffffffffULL));
}

/* ---- the request's identity of a target ---- */

sl_err sl_as_check_namespace(sl_req *req, sl_str ns) {
  if (!sl_str_eq_c(ns, "dynamodb"))
    /* sluice's text: the model's other namespaces are other services. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "sluice serves Application Auto Scaling for the dynamodb service namespace "
                   "only, not %.*s",
                   SL_STR_FMT(ns));
  return SL_OK;
}

static bool valid_name(sl_str s) {
  if (s.len < 3 || s.len > 255)
    return false;
  for (size_t i = 0; i < s.len; i++) {
    char c = s.p[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '.' || c == '-'))
      return false;
  }
  return true;
}

sl_err sl_as_parse_ref(sl_req *req, sl_str ns, sl_str resource_id, sl_str dim, sl_as_ref *out) {
  sl_err err = sl_as_check_namespace(req, ns);
  if (err != SL_OK)
    return err;
  memset(out, 0, sizeof(*out));
  out->resource_id = resource_id;
  bool ok = sl_str_starts_with(resource_id, SL_STR("table/"));
  if (ok) {
    sl_str rest = sl_str_make(resource_id.p + 6, resource_id.len - 6);
    const char *slash = memchr(rest.p, '/', rest.len);
    if (!slash) {
      out->table = rest;
    } else {
      out->table = sl_str_make(rest.p, (size_t)(slash - rest.p));
      sl_str tail = sl_str_make(slash, rest.len - out->table.len);
      ok = sl_str_starts_with(tail, SL_STR("/index/"));
      if (ok)
        out->index = sl_str_make(tail.p + 7, tail.len - 7);
      ok = ok && valid_name(out->index);
    }
    ok = ok && valid_name(out->table);
  }
  int d = -1;
  for (int i = 0; i < 4; i++)
    if (sl_str_eq_c(dim, dim_names[i]))
      d = i;
  if (!dim.p && ok)
    d = out->index.len ? SL_DIM_INDEX_READ : SL_DIM_TABLE_READ; /* a filter without one */
  if (d < 0 || (out->index.len > 0) != (d >= SL_DIM_INDEX_READ))
    ok = false;
  if (!ok)
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "Unsupported service namespace, resource type or scalable dimension");
  out->dim = (sl_scalable_dim)d;
  return SL_OK;
}

static bool ref_is(sl_str resource_id, sl_scalable_dim dim, const sl_as_ref *ref) {
  return dim == ref->dim && sl_str_eq(resource_id, ref->resource_id);
}

sl_as_target *sl_as_find_target(sl_autoscaling *as, const sl_as_ref *ref) {
  for (size_t i = 0; i < as->n_targets; i++)
    if (ref_is(as->targets[i]->resource_id, as->targets[i]->dim, ref))
      return as->targets[i];
  return NULL;
}

static sl_err not_registered(sl_req *req, const sl_as_ref *ref) {
  return sl_fail(req, SL_E_AUTOSCALING_OBJECT_NOT_FOUND,
                 "No scalable target registered for service namespace: dynamodb, resource ID: "
                 "%.*s, scalable dimension: %s",
                 SL_STR_FMT(ref->resource_id), dim_names[ref->dim]);
}

/* ---- the resource's provisioned units ---- */

static const sl_index *find_gsi(const sl_table *t, sl_str name) {
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (t->indexes[i].global && sl_str_eq(t->indexes[i].name, name))
      return &t->indexes[i];
  return NULL;
}

/* The provisioned units of the dimension; false when the resource is gone. */
static bool current_units(const sl_table *t, sl_str index, sl_scalable_dim dim, int64_t *out) {
  const sl_throughput *tp = &t->tp;
  if (index.len) {
    const sl_index *x = find_gsi(t, index);
    if (!x)
      return false;
    tp = &x->tp;
  }
  *out = dim_write(dim) ? tp->wcu : tp->rcu;
  return true;
}

/* ---- activities ---- */

static void activity_add(sl_env *env, sl_str table, sl_str resource_id, sl_scalable_dim dim,
                         int64_t at_ms, int64_t capacity, sl_str cause, const sl_failure *failed) {
  sl_autoscaling *as = env->autoscaling;
  const char *rw = dim_write(dim) ? "write" : "read";
  sl_as_activity *a = calloc(1, sizeof(*a));
  SL_ASSERT(a);
  a->id = uuid(env);
  a->resource_id = own(resource_id);
  a->dim = dim;
  a->description = ownf("Setting %s capacity units to %lld.", rw, (long long)capacity);
  a->cause = own(cause);
  a->start_ms = a->end_ms = at_ms;
  const sl_table *t = failed ? NULL : sl_catalog_get(env->catalog, table);
  if (t && t->status == SL_STATUS_UPDATING && (int64_t)t->status_until_ms > at_ms) {
    a->end_ms = (int64_t)t->status_until_ms;
    a->in_progress = true;
  }
  if (!failed) {
    a->status_code = own(SL_STR("Successful"));
    a->status_message = ownf("Successfully set %s capacity units to %lld. Change successfully "
                             "fulfilled by dynamodb.",
                             rw, (long long)capacity);
  } else {
    /* sluice's composition around the service's UpdateTable text. */
    a->status_code = own(SL_STR("Failed"));
    a->status_message = ownf("Failed to set %s capacity units to %lld. Reason: %.*s", rw,
                             (long long)capacity, SL_STR_FMT(failed->message));
  }
  if (as->n_activities == SL_AS_MAX_ACTIVITIES) {
    activity_free(as->activities[0]);
    remove_at((void **)as->activities, &as->n_activities, 0);
  }
  PUSH(as, activities, a);
  as->dirty = true;
}

/* Sets the dimension's provisioned units through UpdateTable's core, at
 * 'at_ms' (<= the clock), and records the activity. Returns true if the
 * change was made. */
static bool set_units(sl_env *env, sl_str table, sl_str index, sl_str resource_id,
                      sl_scalable_dim dim, int64_t capacity, int64_t at_ms, sl_str cause) {
  sl_arena arena;
  sl_arena_init(&arena);
  sl_req req;
  memset(&req, 0, sizeof(req));
  req.env = env;
  req.arena = &arena;
  req.op_name = "UpdateTable";
  req.op_flags = SL_OPF_CONTROL;
  req.now_ms = at_ms;
  sl_failure_init(&req.fail, &arena);
  bool ok = false;
  sl_table *t = sl_catalog_get(env->catalog, table);
  if (!t)
    goto out;
  const sl_throughput *tp = &t->tp;
  if (index.len) {
    const sl_index *x = find_gsi(t, index);
    if (!x)
      goto out;
    tp = &x->tp;
  }
  sl_units_in pt = {
      .present = true, .has_read = true, .has_write = true, .read = tp->rcu, .write = tp->wcu};
  if (dim_write(dim))
    pt.write = capacity;
  else
    pt.read = capacity;
  sl_update_table_in in = {.table = table};
  sl_gsi_update_in gu = {0};
  if (index.len) {
    gu.n_actions = 1;
    gu.kind = SL_GSI_UPDATE;
    gu.name = index;
    gu.pt = pt;
    in.gsi = (sl_gsi_updates_in){.present = true, .e = &gu, .n = 1};
  } else {
    in.pt = pt;
  }
  sl_update_table_result res;
  if (sl_update_table(&req, &in, &res) == SL_OK) {
    sl_table_free(res.before);
    ok = true;
    activity_add(env, table, resource_id, dim, at_ms, capacity, cause, NULL);
  } else {
    activity_add(env, table, resource_id, dim, at_ms, capacity, cause, &req.fail);
  }
out:
  sl_req_end(&req);
  sl_arena_destroy(&arena);
  return ok;
}

/* Brings the units within [min, max] after the bounds changed. */
static void enforce_bounds(sl_env *env, sl_as_target *t, int64_t at_ms) {
  sl_table *tab = sl_catalog_get(env->catalog, t->table);
  int64_t units;
  if (!tab || tab->status != SL_STATUS_ACTIVE || tab->tp.billing != SL_BILLING_PROVISIONED ||
      !current_units(tab, t->index, t->dim, &units))
    return;
  char cause[64];
  if (units < t->min) {
    snprintf(cause, sizeof(cause), "minimum capacity was set to %lld", (long long)t->min);
    set_units(env, t->table, t->index, t->resource_id, t->dim, t->min, at_ms, sl_str_c(cause));
  } else if (units > t->max) {
    snprintf(cause, sizeof(cause), "maximum capacity was set to %lld", (long long)t->max);
    set_units(env, t->table, t->index, t->resource_id, t->dim, t->max, at_ms, sl_str_c(cause));
  }
}

/* ---- tags ---- */

static int find_tag(const sl_as_target *t, sl_str key) {
  for (size_t i = 0; i < t->n_tags; i++)
    if (sl_str_eq(t->tags[i].key, key))
      return (int)i;
  return -1;
}

/* Adds or replaces; the caller checked the count. */
static void set_tags(sl_as_target *t, const sl_tag *tags, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    int i = find_tag(t, tags[k].key);
    if (i >= 0) {
      disown(&t->tags[i].value);
      t->tags[i].value = own(tags[k].value);
      continue;
    }
    t->tags = realloc(t->tags, (t->n_tags + 1) * sizeof(sl_tag));
    SL_ASSERT(t->tags);
    t->tags[t->n_tags++] = (sl_tag){own(tags[k].key), own(tags[k].value)};
  }
}

static sl_as_target *target_by_arn(sl_req *req, sl_str arn) {
  sl_autoscaling *as = req->env->autoscaling;
  for (size_t i = 0; i < as->n_targets; i++)
    if (sl_str_eq(as->targets[i]->arn, arn))
      return as->targets[i];
  /* sluice's text. */
  sl_fail(req, SL_E_AUTOSCALING_RESOURCE_NOT_FOUND, "No scalable target found for ARN %.*s",
          SL_STR_FMT(arn));
  return NULL;
}

sl_err sl_as_tag(sl_req *req, sl_str arn, const sl_tag *tags, uint32_t n) {
  sl_as_target *t = target_by_arn(req, arn);
  if (!t)
    return req->fail.code;
  size_t after = t->n_tags;
  for (uint32_t k = 0; k < n; k++) {
    bool seen = find_tag(t, tags[k].key) >= 0;
    for (uint32_t j = 0; j < k && !seen; j++)
      seen = sl_str_eq(tags[j].key, tags[k].key);
    after += !seen;
  }
  if (after > SL_AS_MAX_TAGS)
    /* sluice's text. */
    return sl_fail(req, SL_E_AUTOSCALING_TOO_MANY_TAGS,
                   "A scalable target can have at most %d tags", SL_AS_MAX_TAGS);
  set_tags(t, tags, n);
  req->env->autoscaling->dirty = true;
  sl_autoscaling_persist(req->env);
  return SL_OK;
}

sl_err sl_as_untag(sl_req *req, sl_str arn, const sl_str *keys, uint32_t n) {
  sl_as_target *t = target_by_arn(req, arn);
  if (!t)
    return req->fail.code;
  for (uint32_t k = 0; k < n; k++) {
    int i = find_tag(t, keys[k]);
    if (i < 0)
      continue;
    disown(&t->tags[i].key);
    disown(&t->tags[i].value);
    memmove(&t->tags[i], &t->tags[i + 1], (t->n_tags - (size_t)i - 1) * sizeof(sl_tag));
    t->n_tags--;
  }
  req->env->autoscaling->dirty = true;
  sl_autoscaling_persist(req->env);
  return SL_OK;
}

sl_err sl_as_tags_of(sl_req *req, sl_str arn, const sl_as_target **out) {
  *out = target_by_arn(req, arn);
  return *out ? SL_OK : req->fail.code;
}

/* ---- RegisterScalableTarget, DeregisterScalableTarget ---- */

sl_err sl_as_register(sl_req *req, const sl_as_register_in *in, const sl_as_target **out) {
  sl_autoscaling *as = req->env->autoscaling;
  const sl_as_ref *ref = &in->ref;
  sl_as_target *t = sl_as_find_target(as, ref);
  int64_t min = in->has_min ? in->min : t ? t->min : 0;
  int64_t max = in->has_max ? in->max : t ? t->max : 0;
  if (t && in->has_tags)
    /* The service's text (terraform-aws-modules/terraform-aws-rds-aurora#420). */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "The scalable target that you tried to tag already exists. To update tags on "
                   "an existing scalable target, use the TagResource API.");
  if (in->has_tags && in->n_tags > SL_AS_MAX_TAGS)
    /* sluice's text. */
    return sl_fail(req, SL_E_AUTOSCALING_TOO_MANY_TAGS,
                   "A scalable target can have at most %d tags", SL_AS_MAX_TAGS);
  if (!t && (!in->has_min || !in->has_max))
    /* sluice's text (the model: "required if you are registering a new
     * scalable target"). */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "MinCapacity and MaxCapacity are required when registering a new scalable "
                   "target");
  if (min > max)
    /* The service's text (hashicorp/terraform-provider-aws#8777). */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "Maximum capacity cannot be less than minimum capacity");
  if (min < 1)
    /* sluice's text: DynamoDB capacity is at least 1 unit. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "MinCapacity for dynamodb must be at least 1, got %lld", (long long)min);
  const sl_table *tab = sl_catalog_get(req->env->catalog, ref->table);
  if (!tab)
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION, "DynamoDB table does not exist: table/%.*s",
                   SL_STR_FMT(ref->table));
  if (ref->index.len && !find_gsi(tab, ref->index))
    /* sluice's text, after the table's. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION, "DynamoDB index does not exist: %.*s",
                   SL_STR_FMT(ref->resource_id));
  if (!t) {
    t = calloc(1, sizeof(*t));
    SL_ASSERT(t);
    t->resource_id = own(ref->resource_id);
    t->table = own(ref->table);
    t->index = own(ref->index);
    t->dim = ref->dim;
    t->created_ms = req->now_ms;
    uint64_t a = sl_env_random(req->env), b = sl_env_random(req->env);
    t->arn =
        ownf("arn:aws:application-autoscaling:%s:%s:scalable-target/%016llx%016llx",
             req->env->region, req->env->account_id, (unsigned long long)a, (unsigned long long)b);
    t->last_out_ms = t->last_in_ms = SL_SCALING_NEVER;
    set_tags(t, in->tags, in->n_tags);
    t->evaluated_minute = sl_scaling_newest_minute(
        &(sl_scaling_params){.metric_delay_ms =
                                 sl_cap_params_of(req->env->cap)->scaling_metric_delay_ms},
        req->now_ms);
    PUSH(as, targets, t);
  }
  t->min = min;
  t->max = max;
  if (in->has_in)
    t->suspend_in = in->suspend_in;
  if (in->has_out)
    t->suspend_out = in->suspend_out;
  if (in->has_scheduled)
    t->suspend_scheduled = in->suspend_scheduled;
  enforce_bounds(req->env, t, req->now_ms);
  as->dirty = true;
  sl_autoscaling_persist(req->env);
  *out = t;
  return SL_OK;
}

static void drop_target_children(sl_autoscaling *as, sl_str resource_id, sl_scalable_dim dim) {
  for (size_t i = as->n_policies; i-- > 0;)
    if (as->policies[i]->dim == dim && sl_str_eq(as->policies[i]->resource_id, resource_id)) {
      policy_free(as->policies[i]);
      remove_at((void **)as->policies, &as->n_policies, i);
    }
  for (size_t i = as->n_scheduled; i-- > 0;)
    if (as->scheduled[i]->dim == dim && sl_str_eq(as->scheduled[i]->resource_id, resource_id)) {
      scheduled_free(as->scheduled[i]);
      remove_at((void **)as->scheduled, &as->n_scheduled, i);
    }
}

static void drop_target(sl_autoscaling *as, size_t i) {
  sl_as_target *t = as->targets[i];
  drop_target_children(as, t->resource_id, t->dim);
  target_free(t);
  remove_at((void **)as->targets, &as->n_targets, i);
  as->dirty = true;
}

sl_err sl_as_deregister(sl_req *req, const sl_as_ref *ref) {
  sl_autoscaling *as = req->env->autoscaling;
  for (size_t i = 0; i < as->n_targets; i++)
    if (ref_is(as->targets[i]->resource_id, as->targets[i]->dim, ref)) {
      drop_target(as, i);
      sl_autoscaling_persist(req->env);
      return SL_OK;
    }
  return not_registered(req, ref);
}

/* ---- PutScalingPolicy, DeleteScalingPolicy ---- */

static int find_policy(sl_autoscaling *as, const sl_as_ref *ref, sl_str name) {
  for (size_t i = 0; i < as->n_policies; i++)
    if (ref_is(as->policies[i]->resource_id, as->policies[i]->dim, ref) &&
        sl_str_eq(as->policies[i]->name, name))
      return (int)i;
  return -1;
}

sl_err sl_as_put_policy(sl_req *req, const sl_as_policy_in *in, const sl_as_policy **out) {
  sl_autoscaling *as = req->env->autoscaling;
  const sl_as_ref *ref = &in->ref;
  sl_str type = in->policy_type.len ? in->policy_type : SL_STR("StepScaling");
  /* The model: StepScaling and PredictiveScaling are "not supported for
   * DynamoDB"; the texts are sluice's. */
  if (!sl_str_eq_c(type, "TargetTrackingScaling"))
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "%.*s policies are not supported for the dynamodb service namespace; use "
                   "PolicyType TargetTrackingScaling",
                   SL_STR_FMT(type));
  if (!in->has_config)
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "TargetTrackingScalingPolicyConfiguration is required for a "
                   "TargetTrackingScaling policy");
  if (in->has_customized)
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "sluice supports PredefinedMetricSpecification only: "
                   "CustomizedMetricSpecification is not supported (README: Not supported)");
  if (!in->has_predefined)
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "A PredefinedMetricSpecification or CustomizedMetricSpecification is required");
  const char *want =
      dim_write(ref->dim) ? "DynamoDBWriteCapacityUtilization" : "DynamoDBReadCapacityUtilization";
  if (!sl_str_eq_c(in->metric_type, want))
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "Predefined metric type %.*s cannot be used with scalable dimension %s; use %s",
                   SL_STR_FMT(in->metric_type), dim_names[ref->dim], want);
  if (!sl_as_find_target(as, ref))
    return not_registered(req, ref);
  int at = find_policy(as, ref, in->name);
  sl_as_policy *p;
  if (at >= 0) {
    p = as->policies[at];
    disown(&p->metric_type);
    disown(&p->resource_label);
  } else {
    p = calloc(1, sizeof(*p));
    SL_ASSERT(p);
    p->name = own(in->name);
    p->resource_id = own(ref->resource_id);
    p->table = own(ref->table);
    p->index = own(ref->index);
    p->dim = ref->dim;
    p->created_ms = req->now_ms;
    sl_str id = uuid(req->env);
    p->arn = ownf("arn:aws:autoscaling:%s:%s:scalingPolicy:%.*s:resource/dynamodb/%.*s:policyName/"
                  "%.*s",
                  req->env->region, req->env->account_id, SL_STR_FMT(id),
                  SL_STR_FMT(ref->resource_id), SL_STR_FMT(in->name));
    disown(&id);
    static const char *const kinds[4] = {"AlarmHigh", "AlarmLow", "ProvisionedCapacityHigh",
                                         "ProvisionedCapacityLow"};
    for (int i = 0; i < 4; i++) {
      sl_str u = uuid(req->env);
      p->alarms[i] = ownf("TargetTracking-%.*s-%s-%.*s", SL_STR_FMT(ref->resource_id), kinds[i],
                          SL_STR_FMT(u));
      disown(&u);
    }
    PUSH(as, policies, p);
  }
  p->target_value = in->target_value;
  p->metric_type = own(in->metric_type);
  p->resource_label = own(in->resource_label);
  p->has_in_cooldown = in->has_in_cooldown;
  p->in_cooldown_s = in->in_cooldown_s;
  p->has_out_cooldown = in->has_out_cooldown;
  p->out_cooldown_s = in->out_cooldown_s;
  p->has_disable_scale_in = in->has_disable_scale_in;
  p->disable_scale_in = in->disable_scale_in;
  as->dirty = true;
  sl_autoscaling_persist(req->env);
  *out = p;
  return SL_OK;
}

sl_err sl_as_delete_policy(sl_req *req, const sl_as_ref *ref, sl_str name) {
  sl_autoscaling *as = req->env->autoscaling;
  int at = find_policy(as, ref, name);
  if (at < 0)
    return sl_fail(req, SL_E_AUTOSCALING_OBJECT_NOT_FOUND,
                   "No scaling policy found for service namespace: dynamodb, resource ID: %.*s, "
                   "scalable dimension: %s, policy name: %.*s",
                   SL_STR_FMT(ref->resource_id), dim_names[ref->dim], SL_STR_FMT(name));
  policy_free(as->policies[at]);
  remove_at((void **)as->policies, &as->n_policies, (size_t)at);
  as->dirty = true;
  sl_autoscaling_persist(req->env);
  return SL_OK;
}

/* ---- PutScheduledAction, DeleteScheduledAction ---- */

static int find_scheduled(sl_autoscaling *as, const sl_as_ref *ref, sl_str name) {
  for (size_t i = 0; i < as->n_scheduled; i++)
    if (ref_is(as->scheduled[i]->resource_id, as->scheduled[i]->dim, ref) &&
        sl_str_eq(as->scheduled[i]->name, name))
      return (int)i;
  return -1;
}

static void schedule_next(sl_as_scheduled *s, int64_t from_ms) {
  sl_schedule_ctx c = {.sched = &s->sched,
                       .tz = s->timezone.p ? s->timezone.p : "",
                       .has_start = s->has_start,
                       .has_end = s->has_end,
                       .start_ms = s->start_ms,
                       .end_ms = s->end_ms,
                       .put_ms = s->created_ms};
  s->next_ms = sl_schedule_next(&c, from_ms);
}

sl_err sl_as_put_scheduled(sl_req *req, const sl_as_scheduled_in *in) {
  sl_autoscaling *as = req->env->autoscaling;
  const sl_as_ref *ref = &in->ref;
  sl_schedule sched;
  char why[200];
  if (!sl_schedule_parse(in->schedule.p, in->schedule.len, &sched, why, sizeof(why)))
    /* sluice's text. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION, "Invalid schedule %.*s: %s",
                   SL_STR_FMT(in->schedule), why);
  if (!sl_timezone_valid(in->timezone.p, in->timezone.len))
    /* sluice's text. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "Invalid Timezone %.*s: not a time zone of the IANA database",
                   SL_STR_FMT(in->timezone));
  if (in->has_start && in->has_end && in->start_ms > in->end_ms)
    /* sluice's text. */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION, "StartTime cannot be later than EndTime");
  if (!in->has_min && !in->has_max)
    /* The service's text (aws-cloudformation/community-registry-extensions#255). */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "At least one of minimum capacity and maximum capacity should be provided");
  if (in->has_min && in->has_max && in->min > in->max)
    /* The service's text (hashicorp/terraform-provider-aws#8777). */
    return sl_fail(req, SL_E_AUTOSCALING_VALIDATION,
                   "Maximum capacity cannot be less than minimum capacity");
  if (!sl_as_find_target(as, ref))
    return not_registered(req, ref);
  int at = find_scheduled(as, ref, in->name);
  sl_as_scheduled *s;
  if (at >= 0) {
    s = as->scheduled[at];
    disown(&s->schedule);
    disown(&s->timezone);
  } else {
    s = calloc(1, sizeof(*s));
    SL_ASSERT(s);
    s->name = own(in->name);
    s->resource_id = own(ref->resource_id);
    s->table = own(ref->table);
    s->index = own(ref->index);
    s->dim = ref->dim;
    sl_str id = uuid(req->env);
    s->arn = ownf("arn:aws:autoscaling:%s:%s:scheduledAction:%.*s:resource/dynamodb/%.*s:"
                  "scheduledActionName/%.*s",
                  req->env->region, req->env->account_id, SL_STR_FMT(id),
                  SL_STR_FMT(ref->resource_id), SL_STR_FMT(in->name));
    disown(&id);
    PUSH(as, scheduled, s);
  }
  s->created_ms = req->now_ms;
  s->schedule = own(in->schedule);
  s->timezone = own(in->timezone);
  s->has_min = in->has_min;
  s->min = in->min;
  s->has_max = in->has_max;
  s->max = in->max;
  s->has_start = in->has_start;
  s->start_ms = in->start_ms;
  s->has_end = in->has_end;
  s->end_ms = in->end_ms;
  s->sched = sched;
  schedule_next(s, req->now_ms);
  as->dirty = true;
  sl_autoscaling_persist(req->env);
  return SL_OK;
}

sl_err sl_as_delete_scheduled(sl_req *req, const sl_as_ref *ref, sl_str name) {
  sl_autoscaling *as = req->env->autoscaling;
  int at = find_scheduled(as, ref, name);
  if (at < 0)
    /* sluice's text, after DeleteScalingPolicy's. */
    return sl_fail(req, SL_E_AUTOSCALING_OBJECT_NOT_FOUND,
                   "No scheduled action found for service namespace: dynamodb, resource ID: %.*s, "
                   "scalable dimension: %s, scheduled action name: %.*s",
                   SL_STR_FMT(ref->resource_id), dim_names[ref->dim], SL_STR_FMT(name));
  scheduled_free(as->scheduled[at]);
  remove_at((void **)as->scheduled, &as->n_scheduled, (size_t)at);
  as->dirty = true;
  sl_autoscaling_persist(req->env);
  return SL_OK;
}

/* ---- the tick ---- */

static sl_scaling_params engine_params(const sl_env *env) {
  const sl_cap_params *cp = sl_cap_params_of(env->cap);
  return (sl_scaling_params){.out_datapoints = cp->scaling_out_datapoints,
                             .in_datapoints = cp->scaling_in_datapoints,
                             .in_margin_pct = cp->scaling_in_margin_pct,
                             .metric_delay_ms = cp->scaling_metric_delay_ms};
}

/* A policy in ALARM that the target's bounds hold (autoscaling.h). The
 * codes and members are the model's; Description and StatusMessage are
 * sluice's text (no recorded capture of a not-scaled activity was found). */
static void not_scaled(sl_env *env, sl_as_target *t, int64_t units, const sl_scaling_decision *ds,
                       const sl_scaling_policy *pols, const sl_as_policy *const *who, uint32_t n,
                       int64_t at_ms) {
  int reason = 0;
  const sl_as_policy *by = NULL;
  int64_t wanted = 0;
  for (uint32_t i = 0; i < n && !reason; i++)
    if (ds[i].alarm_high && ds[i].wanted > units && units >= t->max && !t->suspend_out) {
      reason = 1;
      by = who[i];
      wanted = ds[i].wanted;
    }
  uint32_t voters = 0, low = 0;
  const sl_as_policy *low_by = NULL;
  for (uint32_t i = 0; i < n && !reason; i++) {
    if (pols[i].disable_scale_in)
      continue;
    voters++;
    if (ds[i].alarm_low && ds[i].wanted < units && units <= t->min) {
      low++;
      if (!low_by || ds[i].wanted > wanted)
        low_by = who[i], wanted = ds[i].wanted;
    }
  }
  if (!reason && voters && low == voters && !t->suspend_in) {
    reason = 2;
    by = low_by;
  }
  if (!reason) {
    bool any_alarm = false;
    for (uint32_t i = 0; i < n; i++)
      any_alarm |= ds[i].alarm_high || ds[i].alarm_low;
    if (!any_alarm)
      t->not_scaled = 0;
    return;
  }
  if (t->not_scaled == reason)
    return;
  t->not_scaled = reason;
  sl_autoscaling *as = env->autoscaling;
  const char *rw = dim_write(t->dim) ? "write" : "read";
  sl_as_activity *a = calloc(1, sizeof(*a));
  SL_ASSERT(a);
  a->id = uuid(env);
  a->resource_id = own(t->resource_id);
  a->dim = t->dim;
  a->description = own(SL_STR("Attempting to scale due to alarm triggering"));
  a->cause = ownf("monitor alarm %.*s in state ALARM triggered policy %.*s",
                  SL_STR_FMT(by->alarms[reason == 1 ? 0 : 1]), SL_STR_FMT(by->name));
  a->start_ms = a->end_ms = at_ms;
  a->status_code = own(SL_STR("Failed"));
  a->status_message = ownf("Failed to set %s capacity units to %lld", rw, (long long)wanted);
  a->not_scaled =
      own(reason == 1 ? SL_STR("AlreadyAtMaxCapacity") : SL_STR("AlreadyAtMinCapacity"));
  a->ns_min = t->min;
  a->ns_max = t->max;
  a->ns_current = units;
  if (as->n_activities == SL_AS_MAX_ACTIVITIES) {
    activity_free(as->activities[0]);
    remove_at((void **)as->activities, &as->n_activities, 0);
  }
  PUSH(as, activities, a);
  as->dirty = true;
}

/* Evaluates the target's policies on the datapoint of 'minute', at the
 * instant it became visible. */
static void evaluate(sl_env *env, const sl_scaling_params *sp, sl_as_target *t, int64_t minute,
                     int64_t at_ms) {
  sl_autoscaling *as = env->autoscaling;
  sl_table *tab = sl_catalog_get(env->catalog, t->table);
  int64_t units;
  if (!tab || tab->status != SL_STATUS_ACTIVE || tab->tp.billing != SL_BILLING_PROVISIONED ||
      !current_units(tab, t->index, t->dim, &units))
    return;
  enum { MAX_WINDOW = 240 };
  double dp[MAX_WINDOW];
  uint32_t n = sl_scaling_window(sp);
  if (n > MAX_WINDOW)
    n = MAX_WINDOW;
  sl_metric metric = dim_write(t->dim) ? SL_M_CONSUMED_WRITE : SL_M_CONSUMED_READ;
  /* No datapoints exist before the table did: the alarms lack data. */
  int64_t first = (int64_t)tab->created_ms / 60000;
  if (first < as->data_from_minute)
    first = as->data_from_minute;
  if (minute < first)
    return;
  if ((uint64_t)(minute - first + 1) < n)
    n = (uint32_t)(minute - first + 1);
  for (uint32_t i = 0; i < n; i++)
    dp[i] = sl_metrics_minute_sum(env->metrics, metric, t->table, t->index,
                                  minute - (int64_t)(n - 1 - i));
  sl_scaling_state st = {.provisioned = units,
                         .units = dp,
                         .n = n,
                         .now_ms = at_ms,
                         .last_out_ms = t->last_out_ms,
                         .last_in_ms = t->last_in_ms};
  /* Several policies: cap/scaling.h sl_scaling_combine. */
  enum { MAX_POLICIES = 64 };
  sl_scaling_policy pols[MAX_POLICIES];
  sl_scaling_decision ds[MAX_POLICIES];
  const sl_as_policy *who[MAX_POLICIES];
  uint32_t np = 0;
  for (size_t i = 0; i < as->n_policies && np < MAX_POLICIES; i++) {
    const sl_as_policy *p = as->policies[i];
    if (p->dim != t->dim || !sl_str_eq(p->resource_id, t->resource_id))
      continue;
    pols[np] = (sl_scaling_policy){.target_pct = p->target_value,
                                   .scale_out_cooldown_ms = p->out_cooldown_s * 1000,
                                   .scale_in_cooldown_ms = p->in_cooldown_s * 1000,
                                   .disable_scale_in = p->disable_scale_in,
                                   .min = t->min,
                                   .max = t->max};
    ds[np] = sl_scaling_evaluate(sp, &pols[np], &st);
    who[np++] = p;
  }
  uint32_t at;
  sl_scaling_decision d = sl_scaling_combine(ds, pols, np, &at);
  if (d.kind == SL_SCALING_HOLD) {
    not_scaled(env, t, units, ds, pols, who, np, at_ms);
    return;
  }
  if ((d.kind == SL_SCALING_OUT && t->suspend_out) || (d.kind == SL_SCALING_IN && t->suspend_in))
    return;
  t->not_scaled = 0;
  const sl_as_policy *by = who[at];
  int64_t capacity = d.capacity;
  bool up = d.kind == SL_SCALING_OUT;
  char cause[700];
  snprintf(cause, sizeof(cause), "monitor alarm %.*s in state ALARM triggered policy %.*s",
           SL_STR_FMT(by->alarms[up ? 0 : 1]), SL_STR_FMT(by->name));
  if (set_units(env, t->table, t->index, t->resource_id, t->dim, capacity, at_ms,
                sl_str_c(cause))) {
    if (up)
      t->last_out_ms = at_ms;
    else
      t->last_in_ms = at_ms;
  }
}

static void fire_scheduled(sl_env *env, sl_as_scheduled *s) {
  sl_as_ref ref = {
      .resource_id = s->resource_id, .table = s->table, .index = s->index, .dim = s->dim};
  sl_as_target *t = sl_as_find_target(env->autoscaling, &ref);
  int64_t at = s->next_ms;
  schedule_next(s, at + 1);
  env->autoscaling->dirty = true;
  if (!t || t->suspend_scheduled)
    return;
  if (s->has_min)
    t->min = s->min;
  if (s->has_max)
    t->max = s->max;
  if (t->min > t->max) {
    if (s->has_min)
      t->max = t->min;
    else
      t->min = t->max;
  }
  enforce_bounds(env, t, at);
}

/* Targets whose table or index is gone go with their policies and actions. */
static void drop_orphans(sl_env *env) {
  sl_autoscaling *as = env->autoscaling;
  for (size_t i = as->n_targets; i-- > 0;) {
    sl_as_target *t = as->targets[i];
    const sl_table *tab = sl_catalog_get(env->catalog, t->table);
    if (!tab || (t->index.len && !find_gsi(tab, t->index)))
      drop_target(as, i);
  }
}

void sl_autoscaling_tick(sl_env *env, int64_t now_ms) {
  sl_autoscaling *as = env->autoscaling;
  if (!as || (as->n_targets == 0 && as->n_scheduled == 0)) {
    sl_autoscaling_persist(env);
    return;
  }
  drop_orphans(env);
  sl_scaling_params sp = engine_params(env);
  int64_t newest = sl_scaling_newest_minute(&sp, now_ms);
  /* Due scheduled actions and policy evaluations, in time order: each
   * evaluation at the instant its datapoint became visible. */
  for (;;) {
    int64_t next_eval = INT64_MAX;
    for (size_t i = 0; i < as->n_targets; i++)
      if (as->targets[i]->evaluated_minute < newest) {
        int64_t m = as->targets[i]->evaluated_minute + 1;
        /* After a long gap only the last day is worth evaluating. */
        if (newest - m > 1440)
          m = newest - 1440, as->targets[i]->evaluated_minute = m - 1;
        int64_t at = (m + 1) * 60000 + sp.metric_delay_ms;
        if (at < next_eval)
          next_eval = at;
      }
    int64_t next_sched = INT64_MAX;
    sl_as_scheduled *due = NULL;
    for (size_t i = 0; i < as->n_scheduled; i++)
      if (as->scheduled[i]->next_ms <= now_ms && as->scheduled[i]->next_ms < next_sched)
        next_sched = as->scheduled[i]->next_ms, due = as->scheduled[i];
    if (next_eval == INT64_MAX && !due) {
      sl_autoscaling_persist(env);
      break;
    }
    /* A change made earlier in this catch-up has taken effect by now (a
     * table UPDATING for table_update_delay_ms). */
    sl_tables_advance(env, due && next_sched <= next_eval ? next_sched : next_eval);
    if (due && next_sched <= next_eval) {
      fire_scheduled(env, due);
      continue;
    }
    for (size_t i = 0; i < as->n_targets; i++) {
      sl_as_target *t = as->targets[i];
      int64_t m = t->evaluated_minute + 1;
      if (t->evaluated_minute < newest && (m + 1) * 60000 + sp.metric_delay_ms == next_eval) {
        t->evaluated_minute = m;
        evaluate(env, &sp, t, m, next_eval);
      }
    }
  }
}

/* ---- persistence ---- */

#include "base/json.h"
#include "store/store.h"

#define AS_KEY "as"

static void jw_kstr(sl_jw *w, const char *k, sl_str v) {
  sl_jw_key_c(w, k);
  sl_jw_str(w, v);
}

static void jw_kint(sl_jw *w, const char *k, int64_t v) {
  sl_jw_key_c(w, k);
  sl_jw_int(w, v);
}

static void jw_kbool(sl_jw *w, const char *k, bool v) {
  sl_jw_key_c(w, k);
  sl_jw_bool(w, v);
}

static void registry_write(const sl_autoscaling *as, sl_jw *w) {
  sl_jw_obj_begin(w);
  jw_kint(w, "v", 1);
  sl_jw_key_c(w, "targets");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < as->n_targets; i++) {
    const sl_as_target *t = as->targets[i];
    sl_jw_obj_begin(w);
    jw_kstr(w, "resource", t->resource_id);
    jw_kint(w, "dim", t->dim);
    jw_kstr(w, "arn", t->arn);
    jw_kint(w, "min", t->min);
    jw_kint(w, "max", t->max);
    jw_kint(w, "created_ms", t->created_ms);
    jw_kbool(w, "suspend_in", t->suspend_in);
    jw_kbool(w, "suspend_out", t->suspend_out);
    jw_kbool(w, "suspend_scheduled", t->suspend_scheduled);
    jw_kint(w, "last_out_ms", t->last_out_ms);
    jw_kint(w, "last_in_ms", t->last_in_ms);
    sl_jw_key_c(w, "tags");
    sl_jw_arr_begin(w);
    for (size_t k = 0; k < t->n_tags; k++) {
      sl_jw_arr_begin(w);
      sl_jw_str(w, t->tags[k].key);
      sl_jw_str(w, t->tags[k].value);
      sl_jw_arr_end(w);
    }
    sl_jw_arr_end(w);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "policies");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < as->n_policies; i++) {
    const sl_as_policy *p = as->policies[i];
    sl_jw_obj_begin(w);
    jw_kstr(w, "name", p->name);
    jw_kstr(w, "arn", p->arn);
    jw_kstr(w, "resource", p->resource_id);
    jw_kint(w, "dim", p->dim);
    sl_jw_key_c(w, "target_value");
    sl_jw_double(w, p->target_value);
    jw_kstr(w, "metric_type", p->metric_type);
    jw_kstr(w, "resource_label", p->resource_label);
    jw_kbool(w, "has_in_cooldown", p->has_in_cooldown);
    jw_kint(w, "in_cooldown_s", p->in_cooldown_s);
    jw_kbool(w, "has_out_cooldown", p->has_out_cooldown);
    jw_kint(w, "out_cooldown_s", p->out_cooldown_s);
    jw_kbool(w, "has_disable_scale_in", p->has_disable_scale_in);
    jw_kbool(w, "disable_scale_in", p->disable_scale_in);
    sl_jw_key_c(w, "alarms");
    sl_jw_arr_begin(w);
    for (int k = 0; k < 4; k++)
      sl_jw_str(w, p->alarms[k]);
    sl_jw_arr_end(w);
    jw_kint(w, "created_ms", p->created_ms);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "scheduled");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < as->n_scheduled; i++) {
    const sl_as_scheduled *s = as->scheduled[i];
    sl_jw_obj_begin(w);
    jw_kstr(w, "name", s->name);
    jw_kstr(w, "arn", s->arn);
    jw_kstr(w, "resource", s->resource_id);
    jw_kint(w, "dim", s->dim);
    jw_kstr(w, "schedule", s->schedule);
    jw_kstr(w, "timezone", s->timezone);
    jw_kbool(w, "has_min", s->has_min);
    jw_kint(w, "min", s->min);
    jw_kbool(w, "has_max", s->has_max);
    jw_kint(w, "max", s->max);
    jw_kbool(w, "has_start", s->has_start);
    jw_kint(w, "start_ms", s->start_ms);
    jw_kbool(w, "has_end", s->has_end);
    jw_kint(w, "end_ms", s->end_ms);
    jw_kint(w, "created_ms", s->created_ms);
    jw_kint(w, "next_ms", s->next_ms);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "activities");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < as->n_activities; i++) {
    const sl_as_activity *a = as->activities[i];
    sl_jw_obj_begin(w);
    jw_kstr(w, "id", a->id);
    jw_kstr(w, "resource", a->resource_id);
    jw_kint(w, "dim", a->dim);
    jw_kstr(w, "description", a->description);
    jw_kstr(w, "cause", a->cause);
    jw_kstr(w, "status_code", a->status_code);
    jw_kstr(w, "status_message", a->status_message);
    jw_kint(w, "start_ms", a->start_ms);
    jw_kint(w, "end_ms", a->end_ms);
    jw_kbool(w, "in_progress", a->in_progress);
    if (a->not_scaled.len) {
      jw_kstr(w, "not_scaled", a->not_scaled);
      jw_kint(w, "ns_min", a->ns_min);
      jw_kint(w, "ns_max", a->ns_max);
      jw_kint(w, "ns_current", a->ns_current);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

void sl_autoscaling_persist(sl_env *env) {
  sl_autoscaling *as = env->autoscaling;
  if (!as || !as->dirty || !env->store || !sl_store_durable(env->store))
    return;
  sl_arena arena;
  sl_arena_init(&arena);
  sl_failure f;
  sl_failure_init(&f, &arena);
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_jw w;
  sl_jw_init(&w, &b);
  registry_write(as, &w);
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, true, &f, &txn);
  if (err == SL_OK) {
    err = sl_store_put(txn, SL_DB_META, SL_STR(AS_KEY), sl_buf_str(&b), &f);
    if (err == SL_OK)
      err = sl_store_commit(txn, &f);
    else
      sl_store_abort(txn);
  }
  if (err == SL_OK)
    as->dirty = false;
  else
    sl_error("Application Auto Scaling registry not saved: %.*s", SL_STR_FMT(f.message));
  sl_buf_free(&b);
  sl_arena_destroy(&arena);
}

/* ---- reading the record back ---- */

static sl_str j_str(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  return v && v->type == SL_JSON_STRING ? own(v->str) : own(SL_STR(""));
}

static int64_t j_int(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  if (!v || v->type != SL_JSON_NUMBER || v->str.len >= 32)
    return 0;
  char b[32];
  memcpy(b, v->str.p, v->str.len);
  b[v->str.len] = 0;
  return strtoll(b, NULL, 10);
}

static double j_double(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  if (!v || v->type != SL_JSON_NUMBER || v->str.len >= 64)
    return 0;
  char b[64];
  memcpy(b, v->str.p, v->str.len);
  b[v->str.len] = 0;
  return strtod(b, NULL);
}

static bool j_bool(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  return v && v->type == SL_JSON_TRUE;
}

static const sl_json *j_arr(const sl_json *o, const char *k) {
  const sl_json *v = sl_json_get(o, k);
  return v && v->type == SL_JSON_ARRAY ? v : NULL;
}

static sl_scalable_dim j_dim(const sl_json *o) {
  int64_t d = j_int(o, "dim");
  return d >= 0 && d <= SL_DIM_INDEX_WRITE ? (sl_scalable_dim)d : SL_DIM_TABLE_READ;
}

/* "table/T" or "table/T/index/I" into owned table and index names. */
static void split_resource(sl_str rid, sl_str *table, sl_str *index) {
  sl_str rest = rid.len > 6 ? sl_str_make(rid.p + 6, rid.len - 6) : SL_STR("");
  const char *slash = rest.len ? memchr(rest.p, '/', rest.len) : NULL;
  if (!slash) {
    *table = own(rest);
    *index = own(SL_STR(""));
    return;
  }
  size_t tl = (size_t)(slash - rest.p);
  *table = own(sl_str_make(rest.p, tl));
  size_t skip = tl + 7; /* "/index/" */
  *index = own(rest.len > skip ? sl_str_make(rest.p + skip, rest.len - skip) : SL_STR(""));
}

static void registry_read(sl_autoscaling *as, const sl_json *doc) {
  const sl_json *arr;
  if ((arr = j_arr(doc, "targets")))
    for (size_t i = 0; i < arr->arr.n; i++) {
      const sl_json *o = arr->arr.items[i];
      sl_as_target *t = calloc(1, sizeof(*t));
      SL_ASSERT(t);
      t->resource_id = j_str(o, "resource");
      split_resource(t->resource_id, &t->table, &t->index);
      t->dim = j_dim(o);
      t->arn = j_str(o, "arn");
      t->min = j_int(o, "min");
      t->max = j_int(o, "max");
      t->created_ms = j_int(o, "created_ms");
      t->suspend_in = j_bool(o, "suspend_in");
      t->suspend_out = j_bool(o, "suspend_out");
      t->suspend_scheduled = j_bool(o, "suspend_scheduled");
      t->last_out_ms = j_int(o, "last_out_ms");
      t->last_in_ms = j_int(o, "last_in_ms");
      const sl_json *tags = j_arr(o, "tags");
      for (size_t k = 0; tags && k < tags->arr.n; k++) {
        const sl_json *kv = tags->arr.items[k];
        if (kv->type != SL_JSON_ARRAY || kv->arr.n != 2 ||
            kv->arr.items[0]->type != SL_JSON_STRING || kv->arr.items[1]->type != SL_JSON_STRING)
          continue;
        sl_tag tg = {kv->arr.items[0]->str, kv->arr.items[1]->str};
        set_tags(t, &tg, 1);
      }
      PUSH(as, targets, t);
    }
  if ((arr = j_arr(doc, "policies")))
    for (size_t i = 0; i < arr->arr.n; i++) {
      const sl_json *o = arr->arr.items[i];
      sl_as_policy *p = calloc(1, sizeof(*p));
      SL_ASSERT(p);
      p->name = j_str(o, "name");
      p->arn = j_str(o, "arn");
      p->resource_id = j_str(o, "resource");
      split_resource(p->resource_id, &p->table, &p->index);
      p->dim = j_dim(o);
      p->target_value = j_double(o, "target_value");
      p->metric_type = j_str(o, "metric_type");
      p->resource_label = j_str(o, "resource_label");
      p->has_in_cooldown = j_bool(o, "has_in_cooldown");
      p->in_cooldown_s = j_int(o, "in_cooldown_s");
      p->has_out_cooldown = j_bool(o, "has_out_cooldown");
      p->out_cooldown_s = j_int(o, "out_cooldown_s");
      p->has_disable_scale_in = j_bool(o, "has_disable_scale_in");
      p->disable_scale_in = j_bool(o, "disable_scale_in");
      const sl_json *al = j_arr(o, "alarms");
      for (int k = 0; k < 4; k++)
        p->alarms[k] = al && (size_t)k < al->arr.n && al->arr.items[k]->type == SL_JSON_STRING
                           ? own(al->arr.items[k]->str)
                           : own(SL_STR(""));
      p->created_ms = j_int(o, "created_ms");
      PUSH(as, policies, p);
    }
  if ((arr = j_arr(doc, "scheduled")))
    for (size_t i = 0; i < arr->arr.n; i++) {
      const sl_json *o = arr->arr.items[i];
      sl_as_scheduled *s = calloc(1, sizeof(*s));
      SL_ASSERT(s);
      s->name = j_str(o, "name");
      s->arn = j_str(o, "arn");
      s->resource_id = j_str(o, "resource");
      split_resource(s->resource_id, &s->table, &s->index);
      s->dim = j_dim(o);
      s->schedule = j_str(o, "schedule");
      s->timezone = j_str(o, "timezone");
      s->has_min = j_bool(o, "has_min");
      s->min = j_int(o, "min");
      s->has_max = j_bool(o, "has_max");
      s->max = j_int(o, "max");
      s->has_start = j_bool(o, "has_start");
      s->start_ms = j_int(o, "start_ms");
      s->has_end = j_bool(o, "has_end");
      s->end_ms = j_int(o, "end_ms");
      s->created_ms = j_int(o, "created_ms");
      s->next_ms = j_int(o, "next_ms");
      char why[200];
      if (!sl_schedule_parse(s->schedule.p, s->schedule.len, &s->sched, why, sizeof(why)))
        s->next_ms = INT64_MAX; /* written by this module, so parsed before */
      PUSH(as, scheduled, s);
    }
  if ((arr = j_arr(doc, "activities")))
    for (size_t i = 0; i < arr->arr.n && i < SL_AS_MAX_ACTIVITIES; i++) {
      const sl_json *o = arr->arr.items[i];
      sl_as_activity *a = calloc(1, sizeof(*a));
      SL_ASSERT(a);
      a->id = j_str(o, "id");
      a->resource_id = j_str(o, "resource");
      a->dim = j_dim(o);
      a->description = j_str(o, "description");
      a->cause = j_str(o, "cause");
      a->status_code = j_str(o, "status_code");
      a->status_message = j_str(o, "status_message");
      a->start_ms = j_int(o, "start_ms");
      a->end_ms = j_int(o, "end_ms");
      a->in_progress = j_bool(o, "in_progress");
      if (sl_json_get(o, "not_scaled")) {
        a->not_scaled = j_str(o, "not_scaled");
        a->ns_min = j_int(o, "ns_min");
        a->ns_max = j_int(o, "ns_max");
        a->ns_current = j_int(o, "ns_current");
      }
      PUSH(as, activities, a);
    }
}

sl_err sl_autoscaling_load(sl_env *env, sl_failure *f) {
  sl_autoscaling *as = env->autoscaling;
  int64_t now = sl_clock_now_ms(env->clock);
  sl_scaling_params sp = engine_params(env);
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, false, f, &txn);
  if (err != SL_OK)
    return err;
  sl_str val;
  if (sl_store_get(txn, SL_DB_META, SL_STR(AS_KEY), &val)) {
    as->data_from_minute = sl_scaling_newest_minute(&sp, now) + 1;
    sl_arena arena;
    sl_arena_init(&arena);
    char *copy = sl_arena_alloc(&arena, val.len + 1);
    memcpy(copy, val.p, val.len);
    sl_json *doc;
    sl_json_error jerr;
    if (sl_json_parse(&arena, copy, val.len, &doc, &jerr) == 0 && doc->type == SL_JSON_OBJECT &&
        j_int(doc, "v") == 1)
      registry_read(as, doc);
    else
      err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR,
                     "the Application Auto Scaling record of the data directory is unreadable");
    sl_arena_destroy(&arena);
  }
  sl_store_abort(txn);
  /* The datapoints before this start are gone (metrics live in memory): the
   * alarms evaluate from now on, as after a table's creation. */
  int64_t newest = sl_scaling_newest_minute(&sp, now);
  for (size_t i = 0; i < as->n_targets; i++)
    as->targets[i]->evaluated_minute = newest;
  return err;
}
