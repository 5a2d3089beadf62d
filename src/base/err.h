/*
 * err.h — sl_err, the one error type, and how a failure carries its message.
 *
 * Design: errors are data (STYLE.md). Every exception sluice can send, for
 * any API on the listener, is one row of errors.def; sl_err is its enum,
 * SL_OK (0) means success. Each row names the API whose model declares it
 * (sl_err_service: "DYNAMODB", "STREAMS", "AUTOSCALING", or "ANY" for the
 * Coral front end's own exceptions), so an API's errors can be listed. A
 * function that can fail for a client-visible reason returns sl_err and, when
 * it fails, fills an sl_failure through sl_failf(): the code, the message
 * (formatted into the request arena) and optionally a typed detail for the
 * error body (ThrottlingReasons, CancellationReasons, Item): a kind and a
 * pointer, both defined by the layer that fails (ops/req.h sl_fail_detail)
 * and rendered by the one error writer (server/dispatch.c, through
 * actions/reply.h), so that no layer below the actions writes JSON.
 *
 * Layers above base use the sl_fail(req, code, fmt, ...) macro of ops/req.h;
 * layers below api (store, cap) take an sl_failure pointer.
 *
 * Invariants: once a failure is set, the first one wins: later sl_failf calls
 * on the same sl_failure keep the first code and message (the error DynamoDB
 * reports is the first check that failed).
 */
#ifndef SL_BASE_ERR_H
#define SL_BASE_ERR_H

#include "base/arena.h"

typedef enum {
#define X(code, service, type, status, key) code,
#include "base/errors.def"
#undef X
  SL_E__COUNT
} sl_err;

typedef struct {
  sl_arena *arena; /* where the message and extras live */
  sl_err code;
  bool has_message; /* false: the body has no message member at all */
  sl_str message;
  int detail_kind;    /* 0: none; else the failing layer's kind of 'detail' */
  const void *detail; /* in 'arena' */
} sl_failure;

void sl_failure_init(sl_failure *f, sl_arena *arena);

/* Records the failure (unless one is already recorded) and returns 'code'.
 * fmt may be NULL for an exception that carries no message. */
sl_err sl_failf(sl_failure *f, sl_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The exception table. */
const char *sl_err_type(sl_err code);
/* The short name botocore reads: the text after '#' ("ValidationException"). */
const char *sl_err_name(sl_err code);
int sl_err_status(sl_err code);
const char *sl_err_message_key(sl_err code);
/* The API whose model declares the exception, as errors.def spells its id
 * ("DYNAMODB", "STREAMS", "AUTOSCALING"), or "ANY" for the Coral front end's
 * exceptions that every API answers. */
const char *sl_err_service(sl_err code);

#endif
