/*
 * router.h — the one HTTP handler of `sluice serve`: routes each request to
 * the DynamoDB API (POST / with X-Amz-Target), the admin JSON API
 * (/_sluice/...), Prometheus metrics (GET /metrics) or the dashboard
 * (GET /dashboard), and resets the request arena afterwards. GET / is the
 * health check; any other method, or a POST whose body is not JSON by its
 * Content-Type, is the service's 404 <UnknownOperationException/>
 * (server/dispatch.h sl_api_unknown_path).
 *
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_ROUTER_H
#define SL_SERVER_ROUTER_H

#include "server/app.h"
#include "net/server.h"

/* sl_http_handler with ctx = sl_app*. */
void sl_router_handle(void *ctx, sl_http_request *req, sl_http_response *resp);

#endif
