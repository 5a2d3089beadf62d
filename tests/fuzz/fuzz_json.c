/*
 * libFuzzer target for base/json (json.h).
 *
 * Every input is parsed. A failure must carry a message and an offset inside
 * the input. A success is written back with sl_jw_value and parsed again from
 * an exact-size heap copy (so ASan sees any read past the end); the second
 * tree must equal the first, and writing it must give the same bytes.
 * The first 8 bytes, taken as a double, also exercise sl_jw_double: its
 * output must be a JSON number that reads back as the same double.
 *
 *   make build-fuzz/fuzz_json
 *   build-fuzz/fuzz_json -max_total_time=600 -timeout=5 \
 *       /tmp/fuzz-json-corpus tests/fuzz/corpus/json
 */
#include "base/json.h"
#include "base/log.h"
#include "../unit/json_tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sl_arena arena;
static bool arena_ready;

/* Nesting depth (a scalar is 0). Recursion is bounded by SL_JSON_MAX_DEPTH. */
static int tree_depth(const sl_json *v) {
  int d = 0;
  if (v->type == SL_JSON_ARRAY)
    for (size_t i = 0; i < v->arr.n; i++) {
      int c = tree_depth(v->arr.items[i]);
      d = c > d ? c : d;
    }
  else if (v->type == SL_JSON_OBJECT)
    for (size_t i = 0; i < v->obj.n; i++) {
      int c = tree_depth(v->obj.members[i].value);
      d = c > d ? c : d;
    }
  else
    return 0;
  return d + 1;
}

static void check_double(const uint8_t *data) {
  double d;
  memcpy(&d, data, sizeof(d));
  if (!isfinite(d))
    return;
  sl_buf b;
  sl_buf_init(&b, &arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_double(&w, d);
  sl_json *v;
  sl_json_error err;
  SL_ASSERT(sl_json_parse(&arena, b.p, b.len, &v, &err) == 0);
  SL_ASSERT(v->type == SL_JSON_NUMBER);
  char tmp[64];
  SL_ASSERT(b.len < sizeof(tmp));
  memcpy(tmp, b.p, b.len);
  tmp[b.len] = 0;
  SL_ASSERT(strtod(tmp, NULL) == d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!arena_ready) {
    sl_arena_init(&arena);
    arena_ready = true;
  }
  sl_arena_reset(&arena);
  if (size >= 8)
    check_double(data);

  sl_json *v = NULL;
  sl_json_error err = {0, NULL};
  if (sl_json_parse(&arena, (const char *)data, size, &v, &err) != 0) {
    SL_ASSERT(err.msg != NULL && err.offset <= size);
    return 0;
  }
  SL_ASSERT(v != NULL);
  /* The writer nests at most SL_JW_MAX_DEPTH deep; the reader allows more. */
  if (tree_depth(v) > SL_JW_MAX_DEPTH)
    return 0;

  sl_str out = json_tree_write(&arena, v);
  char *copy = malloc(out.len ? out.len : 1);
  SL_ASSERT(copy != NULL);
  if (out.len)
    memcpy(copy, out.p, out.len);
  sl_json *v2 = NULL;
  if (sl_json_parse(&arena, copy, out.len, &v2, &err) != 0) {
    fprintf(stderr, "re-parse failed at %zu: %s\n%.*s\n", err.offset, err.msg, SL_STR_FMT(out));
    abort();
  }
  SL_ASSERT(json_tree_eq(v, v2));
  sl_str again = json_tree_write(&arena, v2);
  SL_ASSERT(sl_str_eq(out, again));
  free(copy);
  return 0;
}
