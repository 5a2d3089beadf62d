/* The DynamoDB protocol endpoint; see api.h. */
#include "server/dispatch.h"
#include "actions/actions.h"
#include "ops/tables.h"
#include "server/validate.h"
#include "server/faults.h"
#include "base/crc32.h"
#include "base/rng.h"
#include "cap/cap.h"
#include "base/log.h"
#include "net/sigv4.h"

#include <stdio.h>

typedef sl_err (*action_fn)(sl_req *);

static const struct {
  sl_service service;
  const char *name;
  action_fn fn;
  int flags;
} ops[] = {
#define X(service, name, func, flags) {SL_SVC_##service, #name, sl_action_##func, flags},
#include "actions/actions.def"
#undef X
};

static const struct {
  const char *prefix; /* X-Amz-Target before the '.' */
} services[] = {
#define S(id, prefix, signing, ctype) {prefix},
#include "actions/services.def"
#undef S
};

/* The operation an X-Amz-Target names: "<service prefix>.<Operation>". */
static int find_op(sl_str target) {
  const char *dot = memchr(target.p, '.', target.len);
  if (!dot)
    return -1;
  sl_str prefix = sl_str_make(target.p, (size_t)(dot - target.p));
  sl_str name = sl_str_make(dot + 1, target.len - prefix.len - 1);
  for (size_t i = 0; i < SL_ARRAY_LEN(ops); i++)
    if (sl_str_eq_c(name, ops[i].name) && sl_str_eq_c(prefix, services[ops[i].service].prefix))
      return (int)i;
  return -1;
}

/* True if 'target' names an operation of one of the served services' models
 * that sluice does not serve (find_op found none). */
static bool known_unserved(sl_str target) {
  const char *dot = memchr(target.p, '.', target.len);
  if (!dot || dot + 1 == target.p + target.len)
    return false;
  sl_str prefix = sl_str_make(target.p, (size_t)(dot - target.p));
  sl_str name = sl_str_make(dot + 1, target.len - prefix.len - 1);
  for (size_t i = 0; i < SL_ARRAY_LEN(services); i++)
    if (sl_str_eq_c(prefix, services[i].prefix))
      return sl_api_op_known(prefix, name);
  return false;
}

/* 52 characters of [A-Z0-9], like the service's request ids: 5 random bits
 * a character (32 of the 36 symbols), no division. */
static void make_request_id(sl_env *env, char out[56]) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  uint64_t r = 0;
  for (int i = 0; i < 52; i++) {
    if (i % 12 == 0)
      r = sl_env_random(env);
    out[i] = alphabet[r & 31];
    r >>= 5;
  }
  out[52] = 0;
}

static size_t format_u32(uint32_t v, char *out) {
  char tmp[12];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; i++)
    out[i] = tmp[n - 1 - i];
  out[n] = 0;
  return n;
}

void sl_api_finish(sl_http_response *resp, const char *request_id, int status) {
  resp->status = status;
  if (resp->content_type.len == 0)
    resp->content_type = SL_STR("application/x-amz-json-1.0");
  uint32_t crc = sl_crc32(0, resp->body.p, resp->body.len);
  /* The header values must outlive this call: keep them in static storage
   * owned by this (single) loop thread until the server serialises them. */
  static char crc_text[16];
  static char id_text[56];
  size_t crc_len = format_u32((uint32_t)crc, crc_text);
  memcpy(id_text, request_id, 53);
  resp->headers[resp->n_headers++] =
      (sl_http_header){SL_STR("x-amzn-RequestId"), sl_str_make(id_text, 52)};
  resp->headers[resp->n_headers++] =
      (sl_http_header){SL_STR("x-amz-crc32"), sl_str_make(crc_text, crc_len)};
}

void sl_api_unknown_path(sl_app *app, sl_http_response *resp) {
  char id[56];
  make_request_id(&app->env, id);
  resp->content_type = SL_STR("application/x-amz-json-1.0");
  resp->body.len = 0;
  sl_buf_puts(&resp->body, SL_STR("<UnknownOperationException/>\n"));
  sl_api_finish(resp, id, 404);
}

void sl_api_write_error(sl_http_response *resp, const sl_failure *f) {
  sl_jw w;
  resp->body.len = 0;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "__type");
  sl_jw_str_c(&w, sl_err_type(f->code));
  if (f->has_message) {
    sl_jw_key_c(&w, sl_err_message_key(f->code));
    sl_jw_str(&w, f->message);
  }
  sl_reply_error_detail(&w, f);
  sl_jw_obj_end(&w);
}

static void reply_error(sl_app *app, sl_http_response *resp, const sl_failure *f,
                        const char *request_id) {
  sl_api_write_error(resp, f);
  sl_api_finish(resp, request_id, sl_err_status(f->code));
}

/* --latency aws: the service's in-region latency, measured by seed 003
 * (p50 of writes 4-5 ms, of reads 2-4 ms, unchanged by throttling): each
 * data-plane answer, error or not, waits a whole number of ms drawn
 * uniformly from that range (libuv timers count ms), from a generator seeded
 * by --seed. Control-plane operations are not paced (no measurement). */
static uint32_t aws_pace_ms(sl_app *app, const sl_req *req) {
  if (!app->cfg.latency_aws || !(req->op_flags & (SL_OPF_READ | SL_OPF_WRITE)))
    return 0;
  uint64_t r = sl_rng_next(&app->pace_rng) >> 33;
  return (req->op_flags & SL_OPF_WRITE) ? 4 + (uint32_t)(r % 2) : 2 + (uint32_t)(r % 3);
}

void sl_api_handle(sl_app *app, sl_http_request *hreq, sl_http_response *hresp) {
  sl_req req;
  memset(&req, 0, sizeof(req));
  req.env = &app->env;
  req.arena = &app->arena;
  sl_failure_init(&req.fail, req.arena);
  make_request_id(&app->env, req.request_id);
  sl_req_metrics_begin(&req);
  app->requests++;
  /* The reply echoes the request's JSON media type (net/http.h). */
  hresp->content_type = sl_http_json_content_type(hreq);

  /* 1. The body must be JSON (an empty body is checked after the target). */
  sl_json *body = NULL;
  if (hreq->body.len > 0) {
    sl_json_error jerr;
    if (sl_json_parse(req.arena, hreq->body.p, hreq->body.len, &body, &jerr) != 0) {
      sl_failf(&req.fail, SL_E_SERIALIZATION, NULL);
      goto error;
    }
  }
  /* 2. The target names an operation. */
  sl_str target = sl_http_header_get(hreq, "x-amz-target");
  int op = find_op(target);
  if (op < 0) {
    /* An operation of a served service's model (DynamoDB, Streams, Application
     * Auto Scaling) that sluice does not serve is named (the service's envelope
     * carries no message for a target it does not know at all). */
    if (known_unserved(target)) {
      const char *dot = memchr(target.p, '.', target.len);
      sl_str name = sl_str_make(dot + 1, target.len - (size_t)(dot + 1 - target.p));
      sl_info("unsupported operation %.*s", SL_STR_FMT(name));
      sl_failf(&req.fail, SL_E_UNKNOWN_OPERATION,
               "sluice does not support the %.*s operation (see README: Not supported)",
               SL_STR_FMT(name));
    } else {
      sl_failf(&req.fail, SL_E_UNKNOWN_OPERATION, NULL);
    }
    goto error;
  }
  req.host = sl_http_header_get(hreq, "host");
  req.op_name = ops[op].name;
  req.op_flags = (unsigned)ops[op].flags;
  /* 3. The request is signed (net/sigv4.h; under --auth any, its format only). */
  if (sl_sigv4_check(app->cfg.auth, hreq, target, 0, &req.fail) != SL_OK)
    goto error;
  /* 4. The body is an object that validates against the model. */
  if (!body || body->type != SL_JSON_OBJECT) {
    sl_failf(&req.fail, SL_E_SERIALIZATION, NULL);
    goto error;
  }
  req.body = body;
  if (sl_api_validate(&req.fail, sl_str_c(services[ops[op].service].prefix), sl_str_c(ops[op].name),
                      body) != SL_OK) {
    /* TagResource and UntagResource check their tags with their own texts
     * before the model's constraints (live texts, tests/conformance/
     * test_tags.py). */
    bool ddb = ops[op].service == SL_SVC_DYNAMODB;
    bool tag = ddb && strcmp(req.op_name, "TagResource") == 0;
    if ((tag || (ddb && strcmp(req.op_name, "UntagResource") == 0)) &&
        req.fail.code == SL_E_VALIDATION) {
      sl_failure tag_fail;
      sl_failure_init(&tag_fail, req.arena);
      if ((tag ? sl_in_check_tags(&tag_fail, sl_json_get(body, "Tags"))
               : sl_in_check_tag_keys(&tag_fail, sl_json_get(body, "TagKeys"))) != SL_OK)
        req.fail = tag_fail;
    }
    goto error;
  }

  req.now_ms = sl_clock_now_ms(&app->clock);
  /* The control plane has its own request rate (capacity-model.md §7): the
   * un-modelled Coral availability throttle. */
  if ((ops[op].flags & SL_OPF_CONTROL) && !sl_cap_control_admit(app->env.cap)) {
    sl_failf(&req.fail, SL_E_THROTTLING, "Rate exceeded");
    goto error;
  }
  /* Injected faults (server/faults.h) answer instead of the operation. */
  sl_fault_effect effect;
  bool answered = sl_faults_apply(app->faults, &req, &effect);
  hresp->delay_ms = effect.delay_ms;
  if (effect.reset) {
    hresp->reset = true;
    sl_req_end(&req);
    sl_req_metrics_end(&req);
    return;
  }
  if (answered)
    goto error;
  /* Actions write the success body straight into the response buffer; an
   * error discards it. */
  hresp->body.len = 0;
  sl_jw_init(&req.w, &hresp->body);
  if (ops[op].fn(&req) != SL_OK) {
    SL_ASSERT(req.fail.code != SL_OK);
    goto error;
  }
  SL_ASSERT(req.fail.code == SL_OK);
  hresp->delay_ms += aws_pace_ms(app, &req);
  sl_api_finish(hresp, req.request_id, 200);
  sl_req_end(&req);
  sl_req_metrics_end(&req);
  return;
error:
  hresp->delay_ms += aws_pace_ms(app, &req);
  reply_error(app, hresp, &req.fail, req.request_id);
  sl_req_end(&req);
  sl_req_metrics_end(&req);
}
