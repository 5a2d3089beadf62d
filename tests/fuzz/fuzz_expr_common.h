/*
 * fuzz_expr_common.h — what the four expression fuzz targets share
 * (fuzz_expr_condition.c, fuzz_expr_update.c, fuzz_expr_projection.c,
 * fuzz_expr_keycond.c): a request context with names and values of every
 * type, a rich item to evaluate against, and invariant checks on items
 * (canonical order, sizes). Any violation aborts.
 */
#ifndef SL_FUZZ_EXPR_COMMON_H
#define SL_FUZZ_EXPR_COMMON_H

#include "expr/expr.h"

#include <stdlib.h>

#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      abort();                                                                                     \
  } while (0)

static const char fz_names[] =
    "{\"#a\":\"a\",\"#b\":\"b.c\",\"#n\":\"n\",\"#l\":\"l\",\"#m\":\"m\",\"#s\":\"s\","
    "\"#pk\":\"pk\",\"#sk\":\"sk\",\"#x\":\"x\",\"#status\":\"status\"}";
static const char fz_values[] =
    "{\":s\":{\"S\":\"ab\"},\":n\":{\"N\":\"1\"},\":k\":{\"N\":\"2.5\"},\":e\":{\"S\":\"\"},"
    "\":l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]},\":m\":{\"M\":{\"x\":{\"N\":\"1\"}}},"
    "\":ss\":{\"SS\":[\"a\",\"b\"]},\":ns\":{\"NS\":[\"1\",\"2\"]},\":bs\":{\"BS\":[\"AA==\"]},"
    "\":b\":{\"B\":\"AAE=\"},\":t\":{\"BOOL\":true},\":z\":{\"NULL\":true},"
    "\":big\":{\"N\":\"9.9999999999999999999999999999999999999E+125\"},"
    "\":tiny\":{\"N\":\"-1E-130\"},\":ty\":{\"S\":\"SS\"},\":p\":{\"S\":\"pk1\"}}";
static const char fz_item[] =
    "{\"pk\":{\"S\":\"pk1\"},\"sk\":{\"N\":\"3\"},\"a\":{\"N\":\"5\"},\"b.c\":{\"S\":\"abc\"},"
    "\"n\":{\"N\":\"-12.5\"},\"s\":{\"S\":\"h\xc3\xa9llo\"},\"x\":{\"B\":\"AAEC\"},"
    "\"l\":{\"L\":[{\"N\":\"1\"},{\"L\":[{\"S\":\"x\"},{\"M\":{\"a\":{\"N\":\"1\"}}}]},"
    "{\"SS\":[\"a\"]}]},"
    "\"m\":{\"M\":{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"}]}}},\"x\":{\"N\":\"1\"},"
    "\"l\":{\"L\":[]}}},\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"-1\",\"2\"]},"
    "\"bs\":{\"BS\":[\"AA==\"]},\"t\":{\"BOOL\":false},\"z\":{\"NULL\":true}}";

typedef struct {
  sl_arena a;
  sl_failure f;
  sl_expr_ctx cx;
  sl_item item;
} fz_state;

static const sl_json *fz_json(sl_arena *a, const char *text) {
  sl_json *j;
  sl_json_error e;
  REQUIRE(sl_json_parse(a, text, strlen(text), &j, &e) == 0);
  return j;
}

/* A fresh context and item in a fresh arena for each input. */
static void fz_begin(fz_state *st) {
  sl_arena_init(&st->a);
  sl_failure_init(&st->f, &st->a);
  REQUIRE(sl_expr_ctx_init(&st->cx, &st->a, &st->f, fz_json(&st->a, fz_names),
                           fz_json(&st->a, fz_values)) == SL_OK);
  sl_failure tmp;
  sl_failure_init(&tmp, &st->a);
  REQUIRE(sl_item_from_json(&tmp, &st->a, fz_json(&st->a, fz_item), &st->item) == SL_OK);
}

static void fz_end(fz_state *st) { sl_arena_destroy(&st->a); }

/* A failure must carry a message. */
static void fz_failed(const fz_state *st) {
  REQUIRE(st->f.code == SL_E_VALIDATION && st->f.has_message && st->f.message.len > 0);
}

static void fz_check_value(const sl_av *v, int depth) {
  REQUIRE(depth <= 64);
  switch ((sl_av_type)v->type) {
  case SL_AV_SS:
  case SL_AV_NS:
  case SL_AV_BS:
    REQUIRE(v->n > 0);
    for (uint32_t i = 1; i < v->n; i++)
      REQUIRE(sl_str_cmp(v->set[i - 1], v->set[i]) < 0);
    break;
  case SL_AV_L:
    for (uint32_t i = 0; i < v->n; i++)
      fz_check_value(&v->list[i], depth + 1);
    break;
  case SL_AV_M:
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        REQUIRE(sl_str_cmp(v->map[i - 1].name, v->map[i].name) < 0);
      fz_check_value(&v->map[i].v, depth + 1);
    }
    break;
  case SL_AV_NONE:
    abort();
  default:
    break;
  }
}

/* Items built by the expression code must be canonical and encodable. */
static void fz_check_item(sl_arena *a, const sl_item *it) {
  for (uint32_t i = 0; i < it->n; i++) {
    if (i)
      REQUIRE(sl_str_cmp(it->attrs[i - 1].name, it->attrs[i].name) < 0);
    fz_check_value(&it->attrs[i].v, 0);
  }
  sl_buf b;
  sl_buf_init(&b, a);
  sl_item_encode(&b, it);
  sl_item back;
  REQUIRE(sl_item_decode(a, b.p, b.len, &back, NULL));
  REQUIRE(back.n == it->n);
  (void)sl_item_size(it);
}

#endif
