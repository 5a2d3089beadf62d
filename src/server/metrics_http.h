/*
 * metrics_http.h — the HTTP face of metrics/ (metrics/metrics.h):
 *
 *   GET /metrics                          Prometheus text format 0.0.4
 *   GET /_sluice/metrics?table=T&metric=M[&index=I][&operation=O]
 *       [&period=60][&start=..][&end=..]  CloudWatch-style datapoints
 *   GET /_sluice/events[?table=T][&limit=N]
 *                                         recent throttle events, newest first
 *   GET /_sluice/tables/{name}/insights[?minutes=N]
 *                                         Contributor Insights top keys
 *   POST /_sluice/tables/{name}/insights {"action": "ENABLE"|"DISABLE",
 *        "index": NAME, "mode": "THROTTLED_KEYS"}
 *                                         switch Contributor Insights on or off
 *                                         (the dashboard's button)
 *
 * start and end are ISO 8601 times or epoch milliseconds; end defaults to
 * now, start to end minus an hour (period >= 60) or five minutes (shorter
 * periods, which read the per-second ring). Provisioned capacity gauges are
 * sampled from the catalog when /metrics or /_sluice/metrics is read.
 * Errors are {"error":"..."} with 400 or 404, like the rest of the admin API.
 *
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_METRICS_HTTP_H
#define SL_SERVER_METRICS_HTTP_H

#include "server/app.h"
#include "net/server.h"

/* The admin API's error reply: {"error": msg} with 'status' (this file's
 * endpoints and server/admin.c). */
void sl_admin_error(sl_http_response *resp, int status, const char *msg);

/* The decoded value of query parameter 'name' (form encoding), or an empty
 * slice; *present (may be NULL) says whether it was there at all. */
sl_str sl_admin_query(sl_arena *a, sl_str query, const char *name, bool *present);

/* Answers the request if its path is one of the above (true), else leaves
 * it alone (false). */
bool sl_metrics_http_handle(sl_app *app, sl_http_request *req, sl_http_response *resp);

#endif
