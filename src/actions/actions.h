/*
 * actions.h — the operations sluice serves, one file each in actions/:
 * src/actions/<func>.c defines sl_action_<func>(sl_req *), which reads the
 * validated request (req->body), checks it in the service's order, runs it
 * through the request services of ops/, and writes the reply into req->w.
 *
 * actions/actions.def lists them, each with its service
 * (actions/services.def); the two drive these prototypes and the dispatch
 * table of server/dispatch.c.
 */
#ifndef SL_ACTIONS_ACTIONS_H
#define SL_ACTIONS_ACTIONS_H

#include "actions/members.h"
#include "actions/exprs.h"
#include "actions/reply.h"
#include "ops/query.h"
#include "ops/scan.h"

/* The services of actions/services.def. */
typedef enum {
#define S(id, prefix, signing, ctype) SL_SVC_##id,
#include "actions/services.def"
#undef S
  SL_SVC__COUNT
} sl_service;

#define X(service, name, func, flags) sl_err sl_action_##func(sl_req *req);
#include "actions/actions.def"
#undef X

/* The request checks of Query and Scan, everything before their core runs,
 * shared with the cost preview (server/explain.h): the typed request, its
 * read options (which 'out' points to) and the ExclusiveStartKey ('esk',
 * which out->start may point to). */
sl_err sl_action_query_parse(sl_req *req, sl_query_in *out, sl_read_exprs *ex, sl_item *esk);
sl_err sl_action_scan_parse(sl_req *req, sl_scan_in *out, sl_read_exprs *ex, sl_item *esk);

#endif
