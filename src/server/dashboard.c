/* The dashboard's static files; see dashboard.h. */
#include "server/dashboard.h"
#include "server/assets.h"

#include <string.h>

/* The page draws its charts as inline SVG and sets element styles from
 * script (CSSOM, which style-src does not restrict); nothing else is needed. */
static const char csp[] = "default-src 'none'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                          "form-action 'none'; frame-ancestors 'none'";

static void add_header(sl_http_response *resp, sl_str name, sl_str value) {
  if (resp->n_headers < SL_HTTP_MAX_RESP_HEADERS)
    resp->headers[resp->n_headers++] = (sl_http_header){name, value};
}

static void text_reply(sl_http_response *resp, int status, sl_str text) {
  resp->status = status;
  resp->content_type = SL_STR("text/plain; charset=utf-8");
  resp->body.len = 0;
  sl_buf_puts(&resp->body, text);
}

bool sl_admin_dashboard_path(sl_str path) {
  sl_str root = SL_STR("/dashboard");
  return sl_str_eq(path, root) ||
         (sl_str_starts_with(path, root) && path.len > root.len && path.p[root.len] == '/');
}

void sl_admin_dashboard_handle(sl_http_request *req, sl_http_response *resp) {
  sl_str root = SL_STR("/dashboard");
  sl_str name = sl_str_make(req->path.p + root.len, req->path.len - root.len);
  if (name.len > 0) {
    name.p++;
    name.len--;
  }
  if (name.len == 0)
    name = SL_STR("index.html");
  add_header(resp, SL_STR("Content-Security-Policy"), SL_STR(csp));
  add_header(resp, SL_STR("X-Content-Type-Options"), SL_STR("nosniff"));
  if (!sl_str_eq_c(req->method, "GET") && !sl_str_eq_c(req->method, "HEAD")) {
    add_header(resp, SL_STR("Allow"), SL_STR("GET, HEAD"));
    text_reply(resp, 405, SL_STR("method not allowed: use GET\n"));
    return;
  }
  const sl_admin_asset *a = sl_admin_asset_find(name);
  if (!a) {
    text_reply(resp, 404, SL_STR("no such dashboard file\n"));
    return;
  }
  add_header(resp, SL_STR("ETag"), a->etag);
  add_header(resp, SL_STR("Cache-Control"), SL_STR("no-cache"));
  resp->content_type = a->content_type;
  resp->body.len = 0;
  sl_str inm = sl_http_header_get(req, "If-None-Match");
  if (inm.len && memmem(inm.p, inm.len, a->etag.p, a->etag.len)) {
    resp->status = 304;
    return;
  }
  resp->status = 200;
  sl_buf_puts(&resp->body, a->body);
}
