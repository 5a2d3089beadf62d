/* Unit tests of admin/dashboard and the generated admin/assets.gen.c: which
 * paths are the dashboard's, the embedded files and their Content-Types,
 * ETag revalidation (304), and the replies for unknown files and methods.
 * The page's behaviour in a browser is tests/browser/dashboard.test.mjs. */
#include "harness.h"
#include "server/assets.h"
#include "server/dashboard.h"

static sl_str header(const sl_http_response *r, const char *name) {
  for (size_t i = 0; i < r->n_headers; i++)
    if (sl_str_eq_c(r->headers[i].name, name))
      return r->headers[i].value;
  return SL_STR_NULL;
}

/* Runs one request through the handler; 'inm' is an If-None-Match value or
 * NULL. The response's body buffer is the caller's to free. */
static void serve(const char *method, const char *path, const char *inm, sl_http_response *resp) {
  sl_http_request req;
  memset(&req, 0, sizeof(req));
  req.method = sl_str_c(method);
  req.path = sl_str_c(path);
  req.target = req.path;
  if (inm) {
    req.headers[0] = (sl_http_header){SL_STR("If-None-Match"), sl_str_c(inm)};
    req.n_headers = 1;
  }
  sl_buf body = resp->body;
  memset(resp, 0, sizeof(*resp));
  resp->body = body;
  resp->body.len = 0;
  resp->status = 200;
  sl_admin_dashboard_handle(&req, resp);
}

/* /dashboard and what is under /dashboard/ belong to the dashboard; a path
 * that only starts with the same letters does not. */
static void test_paths(void) {
  CHECK(sl_admin_dashboard_path(SL_STR("/dashboard")));
  CHECK(sl_admin_dashboard_path(SL_STR("/dashboard/")));
  CHECK(sl_admin_dashboard_path(SL_STR("/dashboard/dashboard.js")));
  CHECK(!sl_admin_dashboard_path(SL_STR("/dashboards")));
  CHECK(!sl_admin_dashboard_path(SL_STR("/dash")));
  CHECK(!sl_admin_dashboard_path(SL_STR("/")));
  CHECK(!sl_admin_dashboard_path(SL_STR("/_sluice/dashboard")));
}

/* The three assets are embedded with their types and a quoted ETag. */
static void test_assets(void) {
  const char *names[] = {"index.html", "dashboard.js", "dashboard.css"};
  const char *types[] = {"text/html; charset=utf-8", "text/javascript; charset=utf-8",
                         "text/css; charset=utf-8"};
  for (int i = 0; i < 3; i++) {
    const sl_admin_asset *a = sl_admin_asset_find(sl_str_c(names[i]));
    CHECK(a != NULL);
    if (!a)
      continue;
    CHECK_STR(a->content_type, types[i]);
    CHECK(a->body.len > 100);
    CHECK(a->etag.len == 18 && a->etag.p[0] == '"' && a->etag.p[17] == '"');
  }
  CHECK(sl_admin_asset_find(SL_STR("missing.js")) == NULL);
  CHECK(sl_admin_asset_find(SL_STR("INDEX.HTML")) == NULL);
  CHECK(sl_admin_asset_find(SL_STR("")) == NULL);
}

/* GET /dashboard and /dashboard/ are the page; files by name; the embedded
 * bytes are served whole with the security headers. */
static void test_get(void) {
  sl_http_response resp;
  memset(&resp, 0, sizeof(resp));
  sl_buf_init(&resp.body, NULL);
  const sl_admin_asset *index = sl_admin_asset_find(SL_STR("index.html"));
  const char *page_paths[] = {"/dashboard", "/dashboard/", "/dashboard/index.html"};
  for (int i = 0; i < 3; i++) {
    serve("GET", page_paths[i], NULL, &resp);
    CHECK_INT(resp.status, 200);
    CHECK_STR(resp.content_type, "text/html; charset=utf-8");
    CHECK(resp.body.len == index->body.len &&
          memcmp(resp.body.p, index->body.p, index->body.len) == 0);
    CHECK(sl_str_eq(header(&resp, "ETag"), index->etag));
    CHECK_STR(header(&resp, "Cache-Control"), "no-cache");
    CHECK_STR(header(&resp, "X-Content-Type-Options"), "nosniff");
    CHECK(sl_str_starts_with(header(&resp, "Content-Security-Policy"),
                             SL_STR("default-src 'none'; script-src 'self'")));
  }
  serve("GET", "/dashboard/dashboard.css", NULL, &resp);
  CHECK_INT(resp.status, 200);
  CHECK_STR(resp.content_type, "text/css; charset=utf-8");
  serve("HEAD", "/dashboard/dashboard.js", NULL, &resp);
  CHECK_INT(resp.status, 200);
  CHECK_STR(resp.content_type, "text/javascript; charset=utf-8");
  sl_buf_free(&resp.body);
}

/* If-None-Match with the current ETag (alone, or in a list) is a 304 with no
 * body; a stale one gets the file. */
static void test_revalidate(void) {
  sl_http_response resp;
  memset(&resp, 0, sizeof(resp));
  sl_buf_init(&resp.body, NULL);
  const sl_admin_asset *js = sl_admin_asset_find(SL_STR("dashboard.js"));
  char etag[64], list[96];
  snprintf(etag, sizeof(etag), "%.*s", (int)js->etag.len, js->etag.p);
  snprintf(list, sizeof(list), "\"0000000000000000\", %s", etag);
  serve("GET", "/dashboard/dashboard.js", etag, &resp);
  CHECK_INT(resp.status, 304);
  CHECK_INT(resp.body.len, 0);
  serve("GET", "/dashboard/dashboard.js", list, &resp);
  CHECK_INT(resp.status, 304);
  serve("GET", "/dashboard/dashboard.js", "\"0000000000000000\"", &resp);
  CHECK_INT(resp.status, 200);
  CHECK_INT(resp.body.len, js->body.len);
  sl_buf_free(&resp.body);
}

/* Unknown files are 404 (no path walking: names are looked up, never opened);
 * other methods are 405 with Allow. */
static void test_errors(void) {
  sl_http_response resp;
  memset(&resp, 0, sizeof(resp));
  sl_buf_init(&resp.body, NULL);
  const char *missing[] = {"/dashboard/nope.js", "/dashboard/../_sluice/tables",
                           "/dashboard//index.html", "/dashboard/index.html/"};
  for (int i = 0; i < 4; i++) {
    serve("GET", missing[i], NULL, &resp);
    CHECK_INT(resp.status, 404);
    CHECK_STR(resp.content_type, "text/plain; charset=utf-8");
  }
  serve("POST", "/dashboard", NULL, &resp);
  CHECK_INT(resp.status, 405);
  CHECK_STR(header(&resp, "Allow"), "GET, HEAD");
  sl_buf_free(&resp.body);
}

int main(void) {
  RUN(test_paths);
  RUN(test_assets);
  RUN(test_get);
  RUN(test_revalidate);
  RUN(test_errors);
  return DONE();
}
