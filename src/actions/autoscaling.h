/*
 * autoscaling.h — what the Application Auto Scaling actions share: reading
 * a request's target identity and paging members, and writing the records
 * of ops/autoscaling.h in the service's shapes (botocore's
 * application-autoscaling 2016-02-06 model; timestamps as epoch seconds,
 * JSON 1.1).
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_AUTOSCALING_H
#define SL_ACTIONS_AUTOSCALING_H

#include "ops/autoscaling.h"

/* ServiceNamespace, ResourceId and ScalableDimension of the body. */
sl_err sl_in_as_ref(sl_req *req, sl_as_ref *out);
/* A timestamp member (epoch seconds) in ms. */
int64_t sl_in_as_time(const sl_json *obj, const char *member);
double sl_in_double(const sl_json *obj, const char *member, double dflt);

/* One page of a Describe listing. sl_in_as_page reads MaxResults (default
 * 50) and NextToken (an offset this server handed out:
 * InvalidNextTokenException for any other token); the action then calls
 * sl_as_page_take for each matching entry, in order (true: write it), and
 * ends with sl_reply_as_next ("NextToken" when entries are left). */
typedef struct {
  size_t start, max; /* the page: matching entries [start, start + max) */
  size_t seen;       /* matching entries counted so far */
  size_t next;       /* the offset after the last entry written */
} sl_as_page;
sl_err sl_in_as_page(sl_req *req, sl_as_page *p);
bool sl_as_page_take(sl_as_page *p);
void sl_reply_as_next(sl_jw *w, const sl_as_page *p);
/* A name filter (ResourceIds, PolicyNames, ScheduledActionNames): absent or
 * empty matches every name. */
bool sl_in_as_listed(const sl_json *names, sl_str name);

void sl_reply_as_target(sl_req *req, const sl_as_target *t);
void sl_reply_as_policy(sl_req *req, const sl_as_policy *p);
void sl_reply_as_alarms(sl_req *req, const sl_as_policy *p);
void sl_reply_as_scheduled(sl_req *req, const sl_as_scheduled *s);
void sl_reply_as_activity(sl_req *req, const sl_as_activity *a);

#endif
