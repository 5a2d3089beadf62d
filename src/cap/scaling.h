/*
 * scaling.h — the target-tracking policy engine of Application Auto Scaling
 * for DynamoDB: one pure function on the capacity clock. It has no state,
 * no HTTP and no storage: given a policy, the target's bounds, the current
 * provisioned units and the one-minute consumed-capacity datapoints, it
 * returns the scaling decision. ops/autoscaling.h drives it for `sluice
 * serve` (reading the datapoints from metrics/ and applying decisions
 * through UpdateTable's core); `sluice simulate` (tools/simulate.c) drives
 * it the same way on its virtual clock. It lives in cap/, below jobs/ and
 * ops/, so that the offline tools, which link only cap/, store/'s pure
 * files and base/, can call it.
 *
 * The model (../shared/spec/dynamodb-facts.md §12; every number a
 * parameter of cap/params.def, documented in docs/capacity.md):
 *  - a datapoint is the Sum of ConsumedRead/WriteCapacityUnits over one
 *    clock minute; the datapoint of minute m ([m, m+1) minutes) becomes
 *    visible scaling_metric_delay_ms after the minute ends (CloudWatch's
 *    metric delay), and the alarms evaluate each visible datapoint once;
 *  - utilisation of a datapoint = Sum / 60 / provisioned units × 100;
 *  - the high alarm fires when the newest scaling_out_datapoints datapoints
 *    are all above the target ("at least 2 consecutive minutes"); the low
 *    alarm when the newest scaling_in_datapoints are all below the target
 *    less scaling_in_margin_pct percentage points ("20 % or more below the
 *    target for 15 consecutive minutes");
 *  - the new capacity is the newest datapoint's units per second divided by
 *    the target utilisation, rounded up, within [min, max]; a scale-out only
 *    raises and a scale-in only lowers the provisioned units;
 *  - DisableScaleIn: the low alarm never scales in;
 *  - cooldowns (seconds in the API, ms here): no scale-out within
 *    ScaleOutCooldown of the last scale-out; no scale-in within
 *    ScaleInCooldown of the last scale-in nor within ScaleOutCooldown of the
 *    last scale-out; a scale-out during a scale-in cooldown goes ahead (the
 *    model's documentation of ScaleInCooldown). Blocking scale-in during the
 *    scale-out cooldown is sluice's choice (the service documents no rule).
 * With the defaults (2 datapoints, 180 s delay) a step of load at a minute
 * boundary is acted on 2 + 3 = 5 minutes later, the "about five minutes"
 * of seeds 000 and 004.
 *
 * Several target-tracking policies on one scalable target
 * (sl_scaling_combine): "Application Auto Scaling scales based on the
 * policy that provides the largest capacity for both scale in and scale
 * out" (User Guide, target tracking); a scale-in happens only when every
 * policy whose scale-in is enabled is ready to scale in (the rule the EC2
 * Auto Scaling User Guide states for the same alarms; Application Auto
 * Scaling's guide is silent), to the largest of their capacities. The guide
 * asks each policy to use a different metric; a DynamoDB dimension has one
 * predefined metric, and sluice does not refuse a second policy on it (no
 * recorded text of a refusal).
 *
 * Schedules of scheduled actions (sl_schedule_parse, sl_schedule_next), as
 * PutScheduledAction documents them: at(yyyy-mm-ddThh:mm:ss),
 * rate(N minute|minutes|hour|hours|day|days) and cron(Minutes Hours
 * Day-of-month Month Day-of-week Year) with the wildcards of the EventBridge
 * cron reference the User Guide points to: , - * / in every field but
 * Day-of-week (no /); ? in Day-of-month or Day-of-week, exactly one of which
 * must be ?; L (last day of the month; in Day-of-week alone, Saturday; nL the
 * last weekday n of the month), W (nW: the weekday nearest day n within the
 * month; LW the last weekday), n#k (the k-th weekday n; alone in its field);
 * months 1-12 or JAN-DEC, weekdays 1-7 or SUN-SAT (1 = Sunday), years
 * 1970-2199. at() and cron() read the action's Timezone (an IANA name,
 * converted through the C library's tzdata; UTC when empty); rate() counts
 * from StartTime, else from when the action was put. A StartTime: the action
 * runs at that time, then on its recurrence (the User Guide, "Schedule
 * recurring scaling actions"); nothing runs after EndTime. A local time that
 * a daylight-saving change skips runs at the instant mktime(3) maps it to
 * (one hour later); a repeated local time runs once.
 *
 * Threads: any for the engine (pure); the schedule functions set and restore
 * the TZ environment variable around a conversion, so they belong to one
 * thread (the loop thread of `sluice serve`; `sluice simulate`'s only one).
 */
#ifndef SL_CAP_SCALING_H
#define SL_CAP_SCALING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The alarms' parameters (cap/params.def scaling_*). */
typedef struct {
  int64_t out_datapoints;  /* scaling_out_datapoints (2) */
  int64_t in_datapoints;   /* scaling_in_datapoints (15) */
  int64_t in_margin_pct;   /* scaling_in_margin_pct (20) */
  int64_t metric_delay_ms; /* scaling_metric_delay_ms (180000) */
} sl_scaling_params;

/* One target-tracking policy on its scalable target. */
typedef struct {
  double target_pct; /* TargetValue (utilisation percent) */
  int64_t scale_out_cooldown_ms, scale_in_cooldown_ms;
  bool disable_scale_in;
  int64_t min, max; /* the scalable target's MinCapacity, MaxCapacity */
} sl_scaling_policy;

#define SL_SCALING_NEVER INT64_MIN

/* What the engine sees. 'units' holds the consumed units (Sum) of the 'n'
 * newest visible minutes, oldest first; a minute without requests is 0. */
typedef struct {
  int64_t provisioned;
  const double *units;
  uint32_t n;
  int64_t now_ms;
  int64_t last_out_ms, last_in_ms; /* SL_SCALING_NEVER: none yet */
} sl_scaling_state;

typedef enum { SL_SCALING_HOLD = 0, SL_SCALING_OUT, SL_SCALING_IN } sl_scaling_kind;

typedef struct {
  sl_scaling_kind kind;
  int64_t capacity;       /* the new provisioned units (OUT, IN) */
  int64_t wanted;         /* consumption / target before [min, max] (all kinds) */
  bool alarm_high;        /* the high alarm is in ALARM (even if held by a cooldown) */
  bool alarm_low;         /* the low alarm is in ALARM */
  double utilization_pct; /* of the newest datapoint */
} sl_scaling_decision;

/* The newest minute (epoch ms / 60000) whose datapoint is visible at
 * 'now_ms'. */
int64_t sl_scaling_newest_minute(const sl_scaling_params *p, int64_t now_ms);

/* How many datapoints sl_scaling_evaluate looks at (the longer alarm). */
uint32_t sl_scaling_window(const sl_scaling_params *p);

sl_scaling_decision sl_scaling_evaluate(const sl_scaling_params *p, const sl_scaling_policy *pol,
                                        const sl_scaling_state *s);

/* Several policies' decisions on the same state (see above). */
sl_scaling_decision sl_scaling_combine(const sl_scaling_decision *d, const sl_scaling_policy *pols,
                                       uint32_t n, uint32_t *by);

/* ---- schedules ---- */

typedef enum { SL_SCHED_AT = 1, SL_SCHED_RATE, SL_SCHED_CRON } sl_sched_kind;

typedef struct {
  uint64_t minutes; /* bit m: minute m (0-59) */
  uint32_t hours;   /* bit h (0-23) */
  uint32_t dom;     /* bit d (1-31) */
  uint16_t months;  /* bit m (1-12) */
  uint8_t dow;      /* bit d (1-7, 1 = Sunday) */
  bool dom_any, dow_any;
  bool dom_last;            /* L */
  bool dom_last_weekday;    /* LW */
  int dom_nearest;          /* nW: n, else 0 */
  int dow_last;             /* nL: n, else 0 */
  int dow_nth_day, dow_nth; /* n#k */
  uint64_t years[4];        /* bit y - 1970 (1970-2199) */
} sl_cron;

typedef struct {
  sl_sched_kind kind;
  int at_civil[6]; /* at(): year, month, day, hour, minute, second (local) */
  int64_t rate_ms;
  sl_cron cron;
} sl_schedule;

/* Parses a Schedule; on failure writes a message (without the schedule
 * itself) to 'err' and returns false. */
bool sl_schedule_parse(const char *s, size_t len, sl_schedule *out, char *err, size_t errlen);

/* True if 'tz' names a time zone of the system's tzdata (or is empty). */
bool sl_timezone_valid(const char *tz, size_t len);

typedef struct {
  const sl_schedule *sched;
  const char *tz; /* NUL-terminated; "" = UTC */
  bool has_start, has_end;
  int64_t start_ms, end_ms;
  int64_t put_ms; /* when the action was put (rate() without StartTime) */
} sl_schedule_ctx;

/* The first firing at or after 'from_ms', or INT64_MAX when none remains. */
int64_t sl_schedule_next(const sl_schedule_ctx *c, int64_t from_ms);

#endif
