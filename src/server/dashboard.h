/*
 * dashboard.h — the live dashboard at GET /dashboard: serves the embedded
 * assets of server/assets.h (index.html at /dashboard and /dashboard/, the
 * others at /dashboard/<file>). The page itself is static; it polls the
 * admin JSON API (/_sluice/...) from the browser about once a second.
 *
 * Replies: 200 with the asset's Content-Type, a strong ETag and
 * "Cache-Control: no-cache" (revalidate: a new binary may carry new assets);
 * 304 when If-None-Match names the current ETag; 404 (text) for an unknown
 * file; 405 for a method other than GET or HEAD. Every reply sets a
 * Content-Security-Policy that allows only this origin (no inline script, no
 * external fonts, scripts or connections) and X-Content-Type-Options.
 *
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_DASHBOARD_H
#define SL_SERVER_DASHBOARD_H

#include "net/server.h"

/* True if 'req->path' is /dashboard or under /dashboard/ (then the caller
 * passes it to sl_admin_dashboard_handle). */
bool sl_admin_dashboard_path(sl_str path);

void sl_admin_dashboard_handle(sl_http_request *req, sl_http_response *resp);

#endif
