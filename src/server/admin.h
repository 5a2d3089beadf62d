/*
 * admin.h — sluice's own JSON API under /_sluice/ (clock, reset, capacity
 * state of each table, the cost preview of server/explain.h), used by tests,
 * the dashboard and users; Prometheus
 * metrics at /metrics; the dashboard at /dashboard.
 *
 * Replies are JSON; errors are {"error":"<message>"} with 400 or 404.
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_ADMIN_H
#define SL_SERVER_ADMIN_H

#include "server/app.h"
#include "net/server.h"

void sl_admin_handle(sl_app *app, sl_http_request *req, sl_http_response *resp);

#endif
