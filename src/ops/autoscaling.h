/*
 * autoscaling.h — Application Auto Scaling for DynamoDB: the registry of
 * scalable targets, target-tracking policies, scheduled actions and scaling
 * activities, the typed cores of its API (the actions in actions/: one file
 * per operation, register_scalable_target.c ... describe_scheduled_actions.c, read
 * the JSON), and the tick that runs the policies on the capacity clock.
 *
 * Design:
 *  - A scalable target is (resource, dimension): "table/T" or
 *    "table/T/index/I" with dynamodb:{table,index}:{Read,Write}CapacityUnits.
 *    Only the dynamodb namespace is served; the other namespaces of the model
 *    are refused with a message that says so.
 *  - sl_autoscaling_tick (server/app.c, after jobs/) evaluates every policy
 *    once per newly visible one-minute datapoint (cap/scaling.h, the pure
 *    engine, on datapoints read from metrics/ with
 *    sl_metrics_minute_sum), and fires the scheduled actions that are due.
 *    A manual clock moved by an hour is caught up minute by minute, each
 *    evaluation at the instant its datapoint became visible, so a jump and a
 *    real hour give the same activities.
 *  - A decision changes the provisioned units through UpdateTable's core
 *    (ops/update_table.h), so the capacity engine, the metrics and the
 *    decrease budget follow as for a client's UpdateTable. A refused change
 *    (LimitExceededException: the decrease budget) is a Failed activity whose
 *    StatusMessage carries the service's UpdateTable text; the target's
 *    cooldown clock does not move.
 *  - Tables that are not ACTIVE or not PROVISIONED are skipped; targets of a
 *    table or index that no longer exists are dropped with their policies
 *    and scheduled actions, as the service deregisters them.
 *  - Not-scaled activities (DescribeScalingActivities with
 *    IncludeNotScaledActivities): an alarm in ALARM whose policy wants more
 *    than a target already at its MaxCapacity records one, Failed, with
 *    NotScaledReasons [{AlreadyAtMaxCapacity, MaxCapacity, CurrentCapacity}];
 *    a scale-in held at MinCapacity, AlreadyAtMinCapacity with MinCapacity.
 *    One per episode: another only after the target scaled or the reason
 *    changed (the service's rate of them is unpublished; one a minute would
 *    bury the history). The other codes of the model
 *    (AutoScalingAnticipatedFlapping, TargetServicePutResourceAsUnscalable,
 *    AlreadyAtDesiredCapacity) have no counterpart in sluice's engine.
 *  - An activity whose change left the table UPDATING reads InProgress
 *    (no EndTime, no StatusMessage) until the table's UPDATING ends, then
 *    Successful with that instant as its EndTime.
 *  - Texts: the service's where a source records them (named at each
 *    message in autoscaling.c); sluice's own, marked so, where none does.
 *
 * Memory: the registry owns every record and string (malloc); records stay
 * at their address until deleted. With --data-dir it survives a restart
 * (sl_autoscaling_persist below).
 * Ownership: sl_autoscaling_new's caller (server/app.c) frees it with
 * sl_autoscaling_free.
 * Threads: the loop thread.
 */
#ifndef SL_OPS_AUTOSCALING_H
#define SL_OPS_AUTOSCALING_H

#include "cap/scaling.h"
#include "ops/req.h"

typedef enum {
  SL_DIM_TABLE_READ = 0,
  SL_DIM_TABLE_WRITE,
  SL_DIM_INDEX_READ,
  SL_DIM_INDEX_WRITE,
} sl_scalable_dim;

/* "dynamodb:table:ReadCapacityUnits", ... */
const char *sl_scalable_dim_name(sl_scalable_dim d);

/* A scalable target's identity as a request names it. */
typedef struct {
  sl_str resource_id; /* "table/T" or "table/T/index/I" */
  sl_str table, index;
  sl_scalable_dim dim;
} sl_as_ref;

typedef struct {
  sl_str resource_id, table, index, arn; /* owned */
  sl_scalable_dim dim;
  int64_t min, max;
  int64_t created_ms;
  bool suspend_in, suspend_out, suspend_scheduled; /* SuspendedState */
  sl_tag *tags; /* owned, keys and values too; in the order first set */
  size_t n_tags;
  /* policy engine state */
  int64_t last_out_ms, last_in_ms; /* SL_SCALING_NEVER */
  int64_t evaluated_minute;        /* the newest datapoint minute evaluated */
  int not_scaled;                  /* the reason of the last not-scaled activity, 0: none since */
} sl_as_target;

typedef struct {
  sl_str name, arn, resource_id, table, index; /* owned */
  sl_scalable_dim dim;
  double target_value;
  sl_str metric_type;    /* PredefinedMetricType */
  sl_str resource_label; /* ResourceLabel, may be empty */
  bool has_in_cooldown, has_out_cooldown, has_disable_scale_in;
  int64_t in_cooldown_s, out_cooldown_s;
  bool disable_scale_in;
  sl_str alarms[4]; /* AlarmHigh, AlarmLow, ProvisionedCapacityHigh, ProvisionedCapacityLow */
  int64_t created_ms;
} sl_as_policy;

typedef struct {
  sl_str name, arn, resource_id, table, index, schedule, timezone; /* owned */
  sl_scalable_dim dim;
  bool has_min, has_max, has_start, has_end;
  int64_t min, max, start_ms, end_ms;
  int64_t created_ms;
  sl_schedule sched; /* the parsed Schedule (cap/scaling.h) */
  int64_t next_ms;   /* the next firing; INT64_MAX when done */
} sl_as_scheduled;

typedef struct {
  sl_str id, resource_id, description, cause, status_code, status_message; /* owned */
  sl_scalable_dim dim;
  int64_t start_ms, end_ms;
  /* A Successful change is InProgress until end_ms while its table is
   * UPDATING (table_update_delay_ms); in_progress says it was. */
  bool in_progress;
  /* A not-scaled activity (shown with IncludeNotScaledActivities only):
   * NotScaledReasons' Code, else empty, with its capacities. */
  sl_str not_scaled;
  int64_t ns_min, ns_max, ns_current;
} sl_as_activity;

#define SL_AS_MAX_ACTIVITIES 5000

typedef struct sl_autoscaling {
  sl_as_target **targets;
  size_t n_targets, cap_targets;
  sl_as_policy **policies;
  size_t n_policies, cap_policies;
  sl_as_scheduled **scheduled;
  size_t n_scheduled, cap_scheduled;
  sl_as_activity **activities; /* oldest first; at most SL_AS_MAX_ACTIVITIES */
  size_t n_activities, cap_activities;
  bool dirty;               /* changed since the record was last written */
  int64_t data_from_minute; /* after a restart: the first minute with datapoints */
} sl_autoscaling;

sl_autoscaling *sl_autoscaling_new(void);
void sl_autoscaling_free(sl_autoscaling *as);

/* ServiceNamespace, ResourceId and ScalableDimension of a request, checked
 * together (the namespace served, the resource id's form, the dimension
 * fitting the resource). 'dim' may be empty when 'need_dim' is false (the
 * Describe filters): then out->dim is -1 cast. */
sl_err sl_as_check_namespace(sl_req *req, sl_str ns);
sl_err sl_as_parse_ref(sl_req *req, sl_str ns, sl_str resource_id, sl_str dim, sl_as_ref *out);

/* The registered target of 'ref', or NULL. */
sl_as_target *sl_as_find_target(sl_autoscaling *as, const sl_as_ref *ref);

/* RegisterScalableTarget. */
typedef struct {
  sl_as_ref ref;
  bool has_min, has_max;
  int64_t min, max;
  bool has_in, has_out, has_scheduled; /* SuspendedState members */
  bool suspend_in, suspend_out, suspend_scheduled;
  const sl_tag *tags; /* Tags: only for a new target */
  uint32_t n_tags;
  bool has_tags;
} sl_as_register_in;
sl_err sl_as_register(sl_req *req, const sl_as_register_in *in, const sl_as_target **out);

/* DeregisterScalableTarget: the target and its policies and scheduled
 * actions go. */
sl_err sl_as_deregister(sl_req *req, const sl_as_ref *ref);

/* TagResource, UntagResource, ListTagsForResource: a scalable target by its
 * ARN (ResourceNotFoundException when none has it). Tagging adds or
 * replaces values; at most SL_AS_MAX_TAGS tags on a target (AWS's
 * per-resource limit of user tags), TooManyTagsException beyond. */
#define SL_AS_MAX_TAGS 50
sl_err sl_as_tag(sl_req *req, sl_str arn, const sl_tag *tags, uint32_t n);
sl_err sl_as_untag(sl_req *req, sl_str arn, const sl_str *keys, uint32_t n);
sl_err sl_as_tags_of(sl_req *req, sl_str arn, const sl_as_target **out);

/* PutScalingPolicy (TargetTrackingScaling only). */
typedef struct {
  sl_as_ref ref;
  sl_str name;
  sl_str policy_type; /* empty: the model's default, StepScaling */
  bool has_config;
  bool has_target_value;
  double target_value;
  bool has_predefined, has_customized;
  sl_str metric_type, resource_label;
  bool has_in_cooldown, has_out_cooldown, has_disable_scale_in;
  int64_t in_cooldown_s, out_cooldown_s;
  bool disable_scale_in;
} sl_as_policy_in;
sl_err sl_as_put_policy(sl_req *req, const sl_as_policy_in *in, const sl_as_policy **out);
sl_err sl_as_delete_policy(sl_req *req, const sl_as_ref *ref, sl_str name);

/* PutScheduledAction: at(), rate() and cron() schedules (cap/scaling.h
 * sl_schedule_parse), in the action's Timezone (an IANA name of the
 * system's tzdata; UTC when absent). */
typedef struct {
  sl_as_ref ref;
  sl_str name, schedule, timezone;
  bool has_start, has_end, has_min, has_max, has_action;
  int64_t start_ms, end_ms, min, max;
} sl_as_scheduled_in;
sl_err sl_as_put_scheduled(sl_req *req, const sl_as_scheduled_in *in);
sl_err sl_as_delete_scheduled(sl_req *req, const sl_as_ref *ref, sl_str name);

/* Runs the policies on every datapoint that became visible and the
 * scheduled actions that are due, up to 'now_ms'. */
void sl_autoscaling_tick(sl_env *env, int64_t now_ms);

/* Persistence (a --data-dir server): the whole registry is one JSON record,
 * key "as" of the store's "meta" database, rewritten in its own write
 * transaction after every change (an API call that changed it; a tick that
 * added an activity, fired a scheduled action or dropped a target). The
 * record is written after the change is made in memory; a failed write is
 * logged and retried with the next change. sl_autoscaling_load (server/app.c,
 * after the catalog) reads it back; the policies' alarms then evaluate from
 * the restart on (the datapoints before it lived in memory), like a table's
 * after its creation, and a scheduled action missed while the server was
 * down runs at the first tick, at its own time. In memory: nothing written. */
void sl_autoscaling_persist(sl_env *env);
sl_err sl_autoscaling_load(sl_env *env, sl_failure *f);

#endif
