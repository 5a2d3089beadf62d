/* Unit tests of net/sigv4: the Authorization header and scope parsers, the
 * signer against the AWS test suite's get-vanilla vector, sign-then-check
 * round trips, each failure of the check in the service's order with its
 * text, the format-only checks of --auth any, the credentials file and the
 * admin access rule. */
#include "harness.h"
#include "base/log.h"
#include "net/sigv4.h"

#include <stdio.h>

#define NOW 1440938160 /* 2015-08-30T12:36:00Z, the test suite's date */

static sl_arena arena;
static sl_sigv4_config cfg;
static char raw[4096];
static sl_http_request req;

/* Parses 'head' (a complete request head) followed by 'body' into req. */
static void parse(const char *head, const char *body) {
  size_t n = (size_t)snprintf(raw, sizeof(raw), "%s%s", head, body);
  size_t head_len = 0;
  SL_ASSERT(sl_http_parse_head(raw, n, &req, &head_len) == SL_HTTP_OK);
  req.raw_body = req.body = sl_str_make(raw + head_len, n - head_len);
}

static sl_err check(sl_failure *f, int64_t now) {
  sl_failure_init(f, &arena);
  return sl_sigv4_check(&cfg, &req, SL_STR("DynamoDB_20120810.ListTables"), now, f);
}

#define CHECK_FAIL(code_, msg)                                                                     \
  do {                                                                                             \
    sl_failure f_;                                                                                 \
    CHECK_INT(check(&f_, NOW), code_);                                                             \
    CHECK_STR(f_.message, msg);                                                                    \
  } while (0)

/* A signed POST / of 'body' for key/secret/token at 'now', built with the
 * signer, into req. */
static const char *extra_header = ""; /* a header line added after signing */

static void signed_post(const char *key, const char *secret, const char *token, const char *region,
                        const char *body, int64_t now) {
  sl_http_header h[] = {
      {SL_STR("Host"), SL_STR("localhost:8000")},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), SL_STR("DynamoDB_20120810.ListTables")},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 3,
      .body = sl_str_c(body),
      .access_key_id = sl_str_c(key),
      .secret = sl_str_c(secret),
      .session_token = sl_str_c(token),
      .region = sl_str_c(region),
      .service = SL_STR("dynamodb"),
      .now_s = now,
  };
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, NULL);
  sl_sigv4_sign(&r, date, &auth);
  static char head[2048];
  snprintf(head, sizeof(head),
           "POST / HTTP/1.1\r\nHost: localhost:8000\r\nContent-Type: application/x-amz-json-1.0\r\n"
           "X-Amz-Target: DynamoDB_20120810.ListTables\r\nX-Amz-Date: %s\r\n%s%s%s%s"
           "Authorization: %.*s\r\nContent-Length: %zu\r\n\r\n",
           date, token ? "X-Amz-Security-Token: " : "", token ? token : "", token ? "\r\n" : "",
           extra_header, (int)auth.len, auth.p, strlen(body));
  sl_buf_free(&auth);
  parse(head, body);
}

static void test_parse_authorization(void) {
  sl_sigv4_auth a;
  sl_sigv4_parse_authorization(SL_STR("AWS4-HMAC-SHA256 Credential=A/B/C/D/E, SignedHeaders=host;"
                                      "x-amz-date, Signature=abc"),
                               &a);
  CHECK_STR(a.algorithm, "AWS4-HMAC-SHA256");
  CHECK_STR(a.credential, "A/B/C/D/E");
  CHECK_STR(a.signed_headers, "host;x-amz-date");
  CHECK_STR(a.signature, "abc");
  CHECK(a.bad_pair.p == NULL);
  /* Commas alone, and an element with no '=' (a space after "Credential="). */
  sl_sigv4_parse_authorization(SL_STR("AWS4-HMAC-SHA256 Credential= k/d/r/s/t,Signature=0"), &a);
  CHECK_STR(a.bad_pair, "k/d/r/s/t");
  CHECK(a.credential.p != NULL && a.credential.len == 0);
  CHECK(a.signed_headers.p == NULL);
  sl_sigv4_parse_authorization(SL_STR(""), &a);
  CHECK_INT(a.algorithm.len, 0);
}

static void test_parse_scope(void) {
  sl_sigv4_scope s;
  CHECK(sl_sigv4_parse_scope(SL_STR("AKID/20150830/us-east-1/dynamodb/aws4_request"), &s));
  CHECK_STR(s.key_id, "AKID");
  CHECK_STR(s.date, "20150830");
  CHECK_STR(s.region, "us-east-1");
  CHECK_STR(s.service, "dynamodb");
  CHECK_STR(s.terminator, "aws4_request");
  /* Trailing slashes are ignored; four or six elements are not five. */
  CHECK(sl_sigv4_parse_scope(SL_STR("a/b/c/d/e//"), &s));
  CHECK(!sl_sigv4_parse_scope(SL_STR("a/b/c/d"), &s));
  CHECK(!sl_sigv4_parse_scope(SL_STR("a/b/c/d/e/f"), &s));
  CHECK(!sl_sigv4_parse_scope(SL_STR(""), &s));
  CHECK(sl_sigv4_parse_scope(SL_STR("////x"), &s));
  CHECK_INT(s.key_id.len, 0);
}

/* The AWS SigV4 test suite's get-vanilla case (botocore signs it the same). */
static void test_sign_vector(void) {
  sl_http_header h[] = {{SL_STR("Host"), SL_STR("example.amazonaws.com")}};
  sl_sigv4_request r = {
      .method = SL_STR("GET"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 1,
      .access_key_id = SL_STR("AKIDEXAMPLE"),
      .secret = SL_STR("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
      .region = SL_STR("us-east-1"),
      .service = SL_STR("service"),
      .now_s = NOW,
  };
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, NULL);
  sl_sigv4_sign(&r, date, &auth);
  CHECK_MEM(date, 16, "20150830T123600Z");
  CHECK_STR(sl_buf_str(&auth),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  sl_buf_free(&auth);
}

static void setup_keys(void) {
  sl_sigv4_config_free(&cfg);
  sl_sigv4_config_init(&cfg);
  cfg.mode = SL_AUTH_SIGV4;
  char err[128];
  const char text[] = "# keys\n\nAKID secret\n  ASIA  s2\ttok  \r\n";
  CHECK_INT(sl_sigv4_parse_credentials(&cfg, text, sizeof(text) - 1, err, sizeof(err)), 0);
  CHECK_INT(cfg.n_keys, 2);
}

static void test_round_trip(void) {
  setup_keys();
  sl_failure f;
  signed_post("AKID", "secret", NULL, "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW), SL_OK);
  /* Twice: the second uses the cached signing key. */
  CHECK_INT(check(&f, NOW + 60), SL_OK);
  /* A changed body. */
  signed_post("AKID", "secret", NULL, "us-east-1", "{}", NOW);
  raw[strlen(raw) - 1] = ']';
  req.raw_body.p = raw + strlen(raw) - 2;
  CHECK_FAIL(SL_E_INVALID_SIGNATURE,
             "The request signature we calculated does not match the signature you provided. "
             "Check your AWS Secret Access Key and signing method. Consult the service "
             "documentation for details.");
  signed_post("AKID", "wrong", NULL, "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW), SL_E_INVALID_SIGNATURE);
  signed_post("NOPE", "secret", NULL, "us-east-1", "{}", NOW);
  CHECK_FAIL(SL_E_UNRECOGNIZED_CLIENT, "The security token included in the request is invalid.");
  /* Session tokens: the right one, a wrong one, none. */
  signed_post("ASIA", "s2", "tok", "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW), SL_OK);
  signed_post("ASIA", "s2", "other", "us-east-1", "{}", NOW);
  CHECK_FAIL(SL_E_UNRECOGNIZED_CLIENT, "The security token included in the request is invalid");
  signed_post("ASIA", "s2", NULL, "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW), SL_E_UNRECOGNIZED_CLIENT);
  signed_post("AKID", "secret", "tok", "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW), SL_E_UNRECOGNIZED_CLIENT);
  /* Another region: named in the text, with its trailing space. */
  signed_post("AKID", "secret", NULL, "eu-west-1", "{}", NOW);
  CHECK_FAIL(SL_E_INVALID_SIGNATURE,
             "Credential should be scoped to a valid region, not 'eu-west-1'. ");
}

/* A signature over one body does not pass with another, whatever
 * X-Amz-Content-Sha256 claims (the hash is computed from the bytes). */
static void test_content_sha256_not_trusted(void) {
  setup_keys();
  sl_failure f;
  /* SHA-256 of "{}". */
  extra_header = "X-Amz-Content-Sha256: "
                 "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a\r\n";
  signed_post("AKID", "secret", NULL, "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW), SL_OK);
  raw[strlen(raw) - 1] = ']';
  CHECK_INT(check(&f, NOW), SL_E_INVALID_SIGNATURE);
  extra_header = "";
}

static void test_skew(void) {
  setup_keys();
  sl_failure f;
  signed_post("AKID", "secret", NULL, "us-east-1", "{}", NOW);
  CHECK_INT(check(&f, NOW + 15 * 60), SL_OK);
  CHECK_INT(check(&f, NOW + 15 * 60 + 1), SL_E_INVALID_SIGNATURE);
  CHECK_STR(f.message, "Signature expired: 20150830T123600Z is now earlier than 20150830T123601Z "
                       "(20150830T125101Z - 15 min.)");
  CHECK_INT(check(&f, NOW - 15 * 60), SL_OK);
  CHECK_INT(check(&f, NOW - 15 * 60 - 1), SL_E_INVALID_SIGNATURE);
  CHECK_STR(f.message, "Signature not yet current: 20150830T123600Z is still later than "
                       "20150830T123559Z (20150830T122059Z + 15 min.)");
}

#define AUTH_OK                                                                                    \
  "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20150830/us-east-1/dynamodb/aws4_request, "     \
  "SignedHeaders=host;x-amz-date, Signature=0\r\n"

/* The checks before the signature, in the service's order. */
static void test_failures_in_order(void) {
  setup_keys();
  parse("POST / HTTP/1.1\r\nHost: h\r\n\r\n", "");
  CHECK_FAIL(SL_E_MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
  parse("POST / HTTP/1.1\r\nHost: h\r\nAuthorization: Basic x\r\n\r\n", "");
  CHECK_FAIL(SL_E_MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
  parse("POST / HTTP/1.1\r\nHost: h\r\nAuthorization: AWS4-HMAC-SHA256 Signature=1\r\n\r\n", "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE,
             "Authorization header requires 'Credential' parameter. Authorization header requires "
             "'SignedHeaders' parameter. Authorization header requires existence of either a "
             "'X-Amz-Date' or a 'Date' header. Authorization=AWS4-HMAC-SHA256 Signature=1");
  parse("POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Date: 2015\r\n" AUTH_OK "\r\n", "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE, "Date must be in ISO-8601 'basic format'. Got '2015'. See "
                                        "http://en.wikipedia.org/wiki/ISO_8601");
  parse("POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Date: 20150830T123600Z\r\n"
        "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20150830/us-east-1/dynamodb/"
        "aws4_request, SignedHeaders=x-amz-date, Signature=0\r\n\r\n",
        "");
  CHECK_FAIL(SL_E_INVALID_SIGNATURE, "'Host' must be a 'SignedHeader' in the AWS Authorization.");
  parse(
      "POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Date: 20150830T123600Z\r\n"
      "Authorization: AWS4-HMAC-SHA25 Credential=a/b/c/d, SignedHeaders=host, Signature=0\r\n\r\n",
      "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE,
             "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for now). ");
  parse(
      "POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Date: 20150830T123600Z\r\n"
      "Authorization: AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host, Signature=0\r\n\r\n",
      "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE, "Credential must have exactly 5 slash-delimited elements, "
                                        "e.g. keyid/date/region/service/term, got 'a/b/c/d'");
  parse("POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Date: 20150830T123600Z\r\n"
        "Authorization: AWS4-HMAC-SHA256 Credential=a/b/c/d/e, SignedHeaders=host, Signature=0\r\n"
        "\r\n",
        "");
  CHECK_FAIL(SL_E_INVALID_SIGNATURE,
             "Credential should be scoped to a valid region, not 'c'. Credential should be scoped "
             "to correct service: 'dynamodb'. Credential should be scoped with a valid terminator: "
             "'aws4_request', not 'e'. Date in Credential scope does not match YYYYMMDD from "
             "ISO-8601 version of date from HTTP: 'b' != '20150830', from '20150830T123600Z'. ");
  /* The Date header (IMF-fixdate) stands in for X-Amz-Date. */
  parse("POST / HTTP/1.1\r\nHost: h\r\nDate: Sun, 30 Aug 2015 12:36:00 GMT\r\n"
        "Authorization: AWS4-HMAC-SHA256 Credential=NOPE/20150830/us-east-1/dynamodb/aws4_request,"
        " SignedHeaders=host;date, Signature=0\r\n\r\n",
        "");
  CHECK_FAIL(SL_E_UNRECOGNIZED_CLIENT, "The security token included in the request is invalid.");
  /* A presigned URL with parameters missing. */
  parse("POST /?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20150830T123600Z HTTP/1.1\r\n"
        "Host: h\r\n\r\n",
        "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE,
             "AWS query-string parameters must include 'X-Amz-Credential'. AWS query-string "
             "parameters must include 'X-Amz-Signature'. AWS query-string parameters must include "
             "'X-Amz-SignedHeaders'. Re-examine the query-string parameters.");
  parse("POST /?X-Amz-Algorithm=AWS4-HMAC-SHA256 HTTP/1.1\r\nHost: h\r\n" AUTH_OK "\r\n", "");
  CHECK_INT(check(&(sl_failure){0}, NOW), SL_E_INVALID_SIGNATURE);
  /* Empty query names and values go through the canonical query as empty
   * components (the fuzzer's case: no arithmetic on an unallocated buffer). */
  parse("POST /?a=&=b&&c HTTP/1.1\r\nHost: h\r\nX-Amz-Date: 20150830T123600Z\r\n" AUTH_OK "\r\n",
        "");
  CHECK_INT(check(&(sl_failure){0}, NOW), SL_E_INVALID_SIGNATURE);
}

/* --auth any: only the format; any key, date and signature pass. */
static void test_any_mode(void) {
  sl_sigv4_config_free(&cfg);
  sl_sigv4_config_init(&cfg);
  sl_failure f;
  parse("POST / HTTP/1.1\r\nHost: h\r\n" AUTH_OK "\r\n", "");
  CHECK_INT(check(&f, NOW), SL_OK);
  parse("POST / HTTP/1.1\r\nHost: h\r\nAuthorization: AWS4-HMAC-SHA256 Credential=k/d/r/s/t, "
        "SignedHeaders=, Signature=0\r\n\r\n",
        "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE,
             "Authorization header requires 'SignedHeaders' parameter. "
             "Authorization=AWS4-HMAC-SHA256 Credential=k/d/r/s/t, SignedHeaders=, Signature=0");
  parse("POST / HTTP/1.1\r\nHost: h\r\nAuthorization: AWS4-HMAC-SHA256 Credential=k/d/r, "
        "SignedHeaders=host, Signature=0\r\n\r\n",
        "");
  CHECK_INT(check(&f, NOW), SL_E_INCOMPLETE_SIGNATURE);
  parse("POST / HTTP/1.1\r\nHost: h\r\nAuthorization: AWS4-HMAC-SHA256 Credential= k/d/r/s/t, "
        "SignedHeaders=host, Signature=0\r\n\r\n",
        "");
  CHECK_FAIL(SL_E_INCOMPLETE_SIGNATURE,
             "'k/d/r/s/t' not a valid key=value pair (missing equal-sign) in Authorization header: "
             "'AWS4-HMAC-SHA256 Credential= k/d/r/s/t, SignedHeaders=host, Signature=0'.");
  /* A NULL config is --auth any. */
  parse("POST / HTTP/1.1\r\nHost: h\r\n" AUTH_OK "\r\n", "");
  sl_failure_init(&f, &arena);
  CHECK_INT(sl_sigv4_check(NULL, &req, SL_STR("DynamoDB_20120810.GetItem"), NOW, &f), SL_OK);
}

static void test_services(void) {
  CHECK_STR(sl_sigv4_service_for_target(SL_STR("DynamoDB_20120810.GetItem")), "dynamodb");
  CHECK_STR(sl_sigv4_service_for_target(SL_STR("DynamoDBStreams_20120810.GetRecords")), "dynamodb");
  CHECK_STR(sl_sigv4_service_for_target(SL_STR("AnyScaleFrontendService.DescribeScalingPolicies")),
            "application-autoscaling");
  CHECK(sl_sigv4_service_for_target(SL_STR("Other.X")).p == NULL);
}

static void test_credentials_file_errors(void) {
  sl_sigv4_config c;
  sl_sigv4_config_init(&c);
  char err[128];
  CHECK_INT(sl_sigv4_parse_credentials(&c, "ok s\nlonely\n", 12, err, sizeof(err)), -1);
  CHECK(strstr(err, "line 2") != NULL);
  CHECK_INT(sl_sigv4_parse_credentials(&c, "a b c d", 7, err, sizeof(err)), -1);
  /* A NUL inside a field (found by fuzz_sigv4) is refused, not cut short. */
  size_t before = c.n_keys;
  CHECK_INT(sl_sigv4_parse_credentials(&c, "key \0secret", 11, err, sizeof(err)), -1);
  CHECK(strstr(err, "field 2") != NULL);
  CHECK_INT(c.n_keys, before);
  CHECK_INT(sl_sigv4_load_credentials(&c, "/nonexistent/creds", err, sizeof(err)), -1);
  sl_sigv4_config_free(&c);
  CHECK(sl_sigv4_is_loopback("127.0.0.1") && sl_sigv4_is_loopback("::1"));
  CHECK(!sl_sigv4_is_loopback("0.0.0.0") && !sl_sigv4_is_loopback("10.1.2.3"));
}

static bool admin(const sl_sigv4_config *c, const char *head, sl_http_response *resp) {
  parse(head, "");
  resp->n_headers = 0;
  resp->status = 200;
  resp->body.len = 0;
  return sl_sigv4_admin_check(c, &req, resp);
}

static void test_admin(void) {
  sl_sigv4_config c;
  sl_sigv4_config_init(&c);
  sl_http_response resp;
  memset(&resp, 0, sizeof(resp));
  sl_buf_init(&resp.body, NULL);
  CHECK(admin(&c, "GET /_sluice/clock HTTP/1.1\r\n\r\n", &resp));
  c.mode = SL_AUTH_SIGV4;
  CHECK(admin(&c, "GET /_sluice/clock HTTP/1.1\r\n\r\n", &resp));
  c.loopback = false;
  CHECK(!admin(&c, "GET /_sluice/clock HTTP/1.1\r\n\r\n", &resp));
  CHECK_INT(resp.status, 403);
  sl_sigv4_set_admin_token(&c, "s3cret");
  CHECK(!admin(&c, "GET /metrics HTTP/1.1\r\n\r\n", &resp));
  CHECK(admin(&c, "GET /metrics HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n\r\n", &resp));
  CHECK(!admin(&c, "GET /metrics HTTP/1.1\r\nAuthorization: Bearer s3cre\r\n\r\n", &resp));
  CHECK(admin(&c, "GET /metrics HTTP/1.1\r\nCookie: a=b; sluice_admin=s3cret\r\n\r\n", &resp));
  CHECK(!admin(&c, "GET /metrics?token=s3cret HTTP/1.1\r\n\r\n", &resp));
  CHECK(admin(&c, "GET /dashboard?token=s3cret HTTP/1.1\r\n\r\n", &resp));
  CHECK_INT(resp.n_headers, 1);
  CHECK_STR(resp.headers[0].value, "sluice_admin=s3cret; Path=/; HttpOnly; SameSite=Strict");
  sl_buf_free(&resp.body);
  sl_sigv4_config_free(&c);
}

int main(void) {
  sl_arena_init(&arena);
  sl_sigv4_config_init(&cfg);
  RUN(test_parse_authorization);
  RUN(test_parse_scope);
  RUN(test_sign_vector);
  RUN(test_round_trip);
  RUN(test_skew);
  RUN(test_content_sha256_not_trusted);
  RUN(test_failures_in_order);
  RUN(test_any_mode);
  RUN(test_services);
  RUN(test_credentials_file_errors);
  RUN(test_admin);
  sl_sigv4_config_free(&cfg);
  sl_arena_destroy(&arena);
  return DONE();
}
