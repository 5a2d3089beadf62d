/* Request routing; see router.h. */
#include "server/router.h"
#include "server/admin.h"
#include "server/dashboard.h"
#include "server/dispatch.h"
#include "actions/describe.h"
#include "net/sigv4.h"

/* A POST whose body is not in one of the JSON media types the SDKs send
 * (application/x-amz-json-1.0 or 1.1, application/json; parameters and case
 * ignored) has no operation either: the service answers it like a PUT
 * (dynalite test/connection.js, "should return 404 if body but no
 * content-type" / "incorrect content-type", recorded against the service). */
static bool json_body(const sl_http_request *req) {
  if (req->body.len == 0)
    return true;
  sl_str v = sl_http_header_get(req, "content-type");
  const char *semi = v.len ? memchr(v.p, ';', v.len) : NULL;
  if (semi)
    v.len = (size_t)(semi - v.p);
  while (v.len && (v.p[v.len - 1] == ' ' || v.p[v.len - 1] == '\t'))
    v.len--;
  return sl_str_eq_nocase(v, SL_STR("application/x-amz-json-1.0")) ||
         sl_str_eq_nocase(v, SL_STR("application/x-amz-json-1.1")) ||
         sl_str_eq_nocase(v, SL_STR("application/json"));
}

void sl_router_handle(void *ctx, sl_http_request *req, sl_http_response *resp) {
  sl_app *app = ctx;
  sl_app_tick(app);
  /* net-wire hook: the admin API, /metrics and the dashboard under --auth
   * sigv4 or --admin-token (net/sigv4.h); a refusal is already in resp. */
  bool admin = sl_admin_dashboard_path(req->path) || sl_str_eq_c(req->path, "/metrics") ||
               sl_str_starts_with(req->path, SL_STR("/_sluice/"));
  if (admin && !sl_sigv4_admin_check(app->cfg.auth, req, resp)) {
    /* Refused. */
  } else if (sl_admin_dashboard_path(req->path)) {
    sl_admin_dashboard_handle(req, resp);
  } else if (sl_str_starts_with(req->path, SL_STR("/_sluice/")) ||
             sl_str_eq_c(req->path, "/metrics")) {
    sl_admin_handle(app, req, resp);
  } else if (sl_str_eq_c(req->method, "GET") && sl_str_eq_c(req->path, "/")) {
    /* The service answers a health check on GET /. */
    resp->status = 200;
    resp->content_type = SL_STR("text/plain");
    resp->body.len = 0;
    /* Naming the host the client used, as the service does. */
    sl_str host = sl_http_header_get(req, "host");
    if (host.len)
      sl_buf_printf(&resp->body, "healthy: %.*s ", SL_STR_FMT(host));
    else
      sl_buf_printf(&resp->body, "healthy: dynamodb.%s.amazonaws.com ", app->cfg.region);
  } else if (!sl_str_eq_c(req->method, "POST") || !json_body(req)) {
    sl_api_unknown_path(app, resp);
  } else {
    sl_api_handle(app, req, resp);
  }
  /* Group commit: an answer that may have seen a commit not yet synced
   * waits for the next sync (app.h sl_app_sync_begin). */
  resp->hold = sl_store_dirty(app->env.store);
  sl_arena_reset(&app->arena);
}
