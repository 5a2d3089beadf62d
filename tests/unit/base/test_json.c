/*
 * Unit tests of base/json (json.h): the reader's types, escapes, surrogates,
 * UTF-8 validation, duplicate keys, depth limit and error offsets; every
 * truncation of several documents against a guard page; and the writer's
 * commas, escaping, number formats and parse -> write -> parse round trips.
 */
#include "harness.h"
#include "json_tree.h"
#include "base/json.h"
#include "base/log.h"

#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static sl_arena arena;

/* A copy of the input that ends exactly at an inaccessible page, so reading
 * one byte past the end faults (without ASan too). One region, reused. */
static char *guard_base;
static size_t guard_cap;

static const char *guarded(const char *s, size_t len) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t need = (len + page - 1) / page * page;
  if (need == 0)
    need = page;
  if (need > guard_cap) {
    if (guard_base)
      munmap(guard_base, guard_cap + page);
    guard_base =
        mmap(NULL, need + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (guard_base == MAP_FAILED) {
      perror("mmap");
      exit(2);
    }
    if (mprotect(guard_base + need, page, PROT_NONE) != 0) {
      perror("mprotect");
      exit(2);
    }
    guard_cap = need;
  }
  char *p = guard_base + guard_cap - len;
  if (len)
    memcpy(p, s, len);
  return p;
}

/* Parses 'len' bytes of 's' from a guarded copy. */
static int parse_n(const char *s, size_t len, sl_json **out, sl_json_error *err) {
  err->offset = (size_t)-1;
  err->msg = NULL;
  return sl_json_parse(&arena, guarded(s, len), len, out, err);
}

static sl_json *parse_ok(const char *s) {
  sl_json *v = NULL;
  sl_json_error err;
  int rc = parse_n(s, strlen(s), &v, &err);
  if (rc != 0)
    fprintf(stderr, "  parse of '%s' failed at %zu: %s\n", s, err.offset, err.msg);
  CHECK_INT(rc, 0);
  return rc == 0 ? v : NULL;
}

/* Expects 'len' bytes of 's' to fail; returns the error. */
static sl_json_error parse_bad_n(const char *s, size_t len) {
  sl_json *v = NULL;
  sl_json_error err;
  int rc = parse_n(s, len, &v, &err);
  if (rc == 0)
    fprintf(stderr, "  '%.*s' parsed but should not\n", (int)len, s);
  CHECK_INT(rc, -1);
  if (rc != 0) {
    CHECK(err.msg != NULL);
    CHECK(err.offset <= len);
  }
  return err;
}

static sl_json_error parse_bad(const char *s) { return parse_bad_n(s, strlen(s)); }

/* Each scalar type, with its type name. */
static void test_scalars(void) {
  sl_json *v = parse_ok("null");
  CHECK(v && v->type == SL_JSON_NULL);
  v = parse_ok("true");
  CHECK(v && v->type == SL_JSON_TRUE);
  v = parse_ok(" false ");
  CHECK(v && v->type == SL_JSON_FALSE);
  v = parse_ok("\"abc\"");
  CHECK(v && v->type == SL_JSON_STRING);
  if (v)
    CHECK_STR(v->str, "abc");
  v = parse_ok("\"\"");
  CHECK(v && v->type == SL_JSON_STRING && v->str.len == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_NULL), "null") == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_TRUE), "boolean") == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_FALSE), "boolean") == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_NUMBER), "number") == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_STRING), "string") == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_ARRAY), "array") == 0);
  CHECK(strcmp(sl_json_type_name(SL_JSON_OBJECT), "object") == 0);
}

/* Numbers are kept as their exact source text once they match the grammar. */
static void test_numbers(void) {
  static const char *const ok[] = {
      "0",      "-0",          "1",
      "-1",     "10",          "1234567890123456789012345678901234567890",
      "0.5",    "-0.0",        "12.25",
      "1e5",    "1E5",         "1e+5",
      "1e-5",   "0e0",         "-1.5E-07",
      "1.0e00", "123.456e789", "9"};
  for (size_t i = 0; i < SL_ARRAY_LEN(ok); i++) {
    sl_json *v = parse_ok(ok[i]);
    CHECK(v && v->type == SL_JSON_NUMBER);
    if (v)
      CHECK_STR(v->str, ok[i]);
  }
  /* Inside containers the text ends at the delimiter. */
  sl_json *v = parse_ok("[1,-2.5e3 ,0]");
  CHECK(v && v->arr.n == 3);
  if (v) {
    CHECK_STR(v->arr.items[0]->str, "1");
    CHECK_STR(v->arr.items[1]->str, "-2.5e3");
    CHECK_STR(v->arr.items[2]->str, "0");
  }
}

/* Arrays and objects, empty and nested, with every kind of whitespace. */
static void test_containers(void) {
  sl_json *v = parse_ok("[]");
  CHECK(v && v->type == SL_JSON_ARRAY && v->arr.n == 0);
  v = parse_ok("{}");
  CHECK(v && v->type == SL_JSON_OBJECT && v->obj.n == 0);
  v = parse_ok(" \t\r\n{ \"a\" :\n[ 1 , {\"b\":null} ,[ ] ,{ } ] ,\"c\":\"d\"\t}\r\n");
  CHECK(v && v->type == SL_JSON_OBJECT && v->obj.n == 2);
  if (!v)
    return;
  CHECK_STR(v->obj.members[0].key, "a");
  CHECK_STR(v->obj.members[1].key, "c");
  sl_json *a = sl_json_get(v, "a");
  CHECK(a && a->type == SL_JSON_ARRAY && a->arr.n == 4);
  if (a && a->arr.n == 4) {
    CHECK(a->arr.items[0]->type == SL_JSON_NUMBER);
    CHECK(sl_json_get(a->arr.items[1], "b")->type == SL_JSON_NULL);
    CHECK(a->arr.items[2]->type == SL_JSON_ARRAY && a->arr.items[2]->arr.n == 0);
    CHECK(a->arr.items[3]->type == SL_JSON_OBJECT && a->arr.items[3]->obj.n == 0);
  }
  CHECK_STR(sl_json_get(v, "c")->str, "d");
  CHECK(sl_json_get(v, "missing") == NULL);
  CHECK(sl_json_get(NULL, "a") == NULL);
  CHECK(sl_json_get(a, "a") == NULL);
  CHECK(sl_json_get_str(v, SL_STR("c")) == v->obj.members[1].value);
  /* Keys may contain NUL; lookup by slice finds them. */
  v = parse_ok("{\"a\\u0000b\":1}");
  CHECK(v && sl_json_get_str(v, sl_str_make("a\0b", 3)) != NULL);
  CHECK(v && sl_json_get(v, "a") == NULL);
}

/* Containers far larger than the parser's local scratch and first block. */
static void test_large(void) {
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_buf_putc(&b, '[');
  for (int i = 0; i < 5000; i++)
    sl_buf_printf(&b, "%s{\"k%d\":[%d,\"v\",true]}", i ? "," : "", i, i);
  sl_buf_putc(&b, ']');
  sl_json *v = NULL;
  sl_json_error err;
  CHECK_INT(parse_n(b.p, b.len, &v, &err), 0);
  CHECK(v && v->arr.n == 5000);
  if (v && v->arr.n == 5000) {
    sl_json *last = sl_json_get(v->arr.items[4999], "k4999");
    CHECK(last && last->arr.n == 3);
    CHECK_STR(last->arr.items[0]->str, "4999");
    CHECK_STR(json_tree_write(&arena, v), b.p);
  }
  /* Long strings, plain and escaped, bigger than a block. */
  b.len = 0;
  sl_buf_putc(&b, '"');
  for (int i = 0; i < 20000; i++)
    sl_buf_putc(&b, (char)('a' + i % 26));
  sl_buf_append(&b, "\\n\xc3\xa9\"", 5);
  CHECK_INT(parse_n(b.p, b.len, &v, &err), 0);
  CHECK(v && v->str.len == 20003);
  if (v && v->str.len == 20003)
    CHECK(memcmp(v->str.p + 19999, "f\n\xc3\xa9", 4) == 0);
  sl_buf_free(&b);
}

/* Strings without escapes point into the input; with escapes they do not. */
static void test_zero_copy(void) {
  const char *doc = "[\"plain\",\"esc\\n\"]";
  sl_json *v = NULL;
  sl_json_error err;
  CHECK_INT(sl_json_parse(&arena, doc, strlen(doc), &v, &err), 0);
  CHECK(v && v->arr.items[0]->str.p == doc + 2);
  CHECK(v && (v->arr.items[1]->str.p < doc || v->arr.items[1]->str.p >= doc + strlen(doc)));
  if (v)
    CHECK_STR(v->arr.items[1]->str, "esc\n");
}

/* Every escape of RFC 8259 section 7. */
static void test_escapes(void) {
  sl_json *v = parse_ok("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t end\"");
  if (v)
    CHECK_STR(v->str, "q\" b\\ s/ \b\f\n\r\t end");
  v = parse_ok("\"\\u0041\\u00e9\\u00E9\\u20AC\\uffff\\u0000x\"");
  if (v) {
    CHECK_INT(v->str.len, 13);
    CHECK(memcmp(v->str.p, "A\xc3\xa9\xc3\xa9\xe2\x82\xac\xef\xbf\xbf\0x", 13) == 0);
  }
  /* Raw UTF-8 after an escape is validated and copied. */
  v = parse_ok("\"\\t\xf0\x9f\x98\x80\xc3\xa9\"");
  if (v)
    CHECK_STR(v->str, "\t\xf0\x9f\x98\x80\xc3\xa9");
  static const char *const bad[] = {"\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\U0041\"",
                                    "\"\\'\"", "\"\\a\"",   "\"\\u\"",     "\"\\0\""};
  for (size_t i = 0; i < SL_ARRAY_LEN(bad); i++) {
    sl_json_error e = parse_bad(bad[i]);
    CHECK_INT(e.offset, 1);
  }
}

/* \u surrogate pairs become one code point; lone surrogates become '?' (as
 * Java's UTF-8 encoder writes an unpaired UTF-16 surrogate). */
static void test_surrogates(void) {
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80"},
      {"\"\\ud800\\udc00\"", "\xf0\x90\x80\x80"},
      {"\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf"},
      {"\"\\uD800\"", "?"},
      {"\"\\uDC00\"", "?"},
      {"\"a\\uD800b\"", "a?b"},
      {"\"\\uD800\\u0041\"", "?A"},
      {"\"\\uD800\\n\"", "?\n"},
      {"\"\\uDC00\\uD800\"", "??"},
      {"\"\\uD800\\uD800\\uDC00\"", "?\xf0\x90\x80\x80"},
      {"\"\\uDE00\\uD83D\"", "??"},
  };
  for (size_t i = 0; i < SL_ARRAY_LEN(cases); i++) {
    sl_json *v = parse_ok(cases[i].in);
    if (!v)
      continue;
    CHECK_STR(v->str, cases[i].out);
  }
  /* A high surrogate followed by a malformed escape is still an error. */
  parse_bad("\"\\uD800\\uDC0\"");
  parse_bad("\"\\uD800\\x\"");
}

/* Duplicate keys are all kept; lookups see the last (DynamoDB's behaviour). */
static void test_duplicate_keys(void) {
  sl_json *v = parse_ok("{\"a\":1,\"b\":2,\"a\":3}");
  if (!v)
    return;
  CHECK_INT(v->obj.n, 3);
  CHECK_STR(sl_json_get(v, "a")->str, "3");
  CHECK_STR(v->obj.members[0].value->str, "1");
  CHECK_STR(sl_json_get(v, "b")->str, "2");
  /* The last one wins even when it is a different type. */
  v = parse_ok("{\"x\":{\"y\":1},\"x\":null}");
  CHECK(v && sl_json_get(v, "x")->type == SL_JSON_NULL);
}

static sl_str nested(char open, char close, int depth, const char *inner) {
  sl_buf b;
  sl_buf_init(&b, &arena);
  for (int i = 0; i < depth; i++) {
    if (open == '{')
      sl_buf_append(&b, "{\"k\":", 5);
    else
      sl_buf_putc(&b, open);
  }
  sl_buf_puts(&b, sl_str_c(inner));
  for (int i = 0; i < depth; i++)
    sl_buf_putc(&b, close);
  return sl_buf_str(&b);
}

/* SL_JSON_MAX_DEPTH containers nest; one more is an error, and a very deep
 * document fails without touching the C stack. */
static void test_depth_limit(void) {
  sl_json *v;
  sl_json_error err;
  sl_str s = nested('[', ']', SL_JSON_MAX_DEPTH, "");
  CHECK_INT(parse_n(s.p, s.len, &v, &err), 0);
  s = nested('[', ']', SL_JSON_MAX_DEPTH - 1, "{}");
  CHECK_INT(parse_n(s.p, s.len, &v, &err), 0);
  s = nested('{', '}', SL_JSON_MAX_DEPTH, "1");
  CHECK_INT(parse_n(s.p, s.len, &v, &err), 0);
  s = nested('[', ']', SL_JSON_MAX_DEPTH + 1, "");
  err = parse_bad_n(s.p, s.len);
  CHECK_INT(err.offset, SL_JSON_MAX_DEPTH);
  CHECK(err.msg && strcmp(err.msg, "nesting too deep") == 0);
  s = nested('[', ']', SL_JSON_MAX_DEPTH, "{}");
  err = parse_bad_n(s.p, s.len);
  CHECK_INT(err.offset, SL_JSON_MAX_DEPTH);
  s = nested('{', '}', SL_JSON_MAX_DEPTH + 1, "1");
  parse_bad_n(s.p, s.len);
  s = nested('[', ']', 1000000, "");
  parse_bad_n(s.p, s.len);
  sl_arena_reset(&arena);
}

/* Documents RFC 8259 rejects, with where and why. */
static void test_invalid(void) {
  static const struct {
    const char *doc;
    size_t offset;
    const char *msg;
  } cases[] = {
      {"", 0, "unexpected end of input"},
      {"   ", 3, "unexpected end of input"},
      {"1 2", 2, "unexpected data after the value"},
      {"{} x", 3, "unexpected data after the value"},
      {"[]]", 2, "unexpected data after the value"},
      {"nullx", 4, "unexpected data after the value"},
      {"01", 0, "leading zero in number"},
      {"-01", 1, "leading zero in number"},
      {"[00]", 1, "leading zero in number"},
      {"1.", 2, "unexpected end of input"},
      {"1.e5", 2, "expected a digit after the decimal point"},
      {"[1.]", 3, "expected a digit after the decimal point"},
      {".5", 0, "expected a value"},
      {"+1", 0, "expected a value"},
      {"-", 1, "unexpected end of input"},
      {"-a", 1, "invalid number"},
      {"1e", 2, "unexpected end of input"},
      {"1e+", 3, "unexpected end of input"},
      {"[1e]", 3, "expected a digit in the exponent"},
      {"0x10", 1, "unexpected data after the value"},
      {"NaN", 0, "expected a value"},
      {"Infinity", 0, "expected a value"},
      {"tru", 3, "unexpected end of input"},
      {"trUe", 0, "invalid literal"},
      {"nul", 3, "unexpected end of input"},
      {"fals", 4, "unexpected end of input"},
      {"True", 0, "expected a value"},
      {"\"a\tb\"", 2, "control character in string"},
      {"\"a\nb\"", 2, "control character in string"},
      {"\"\\n\x01\"", 3, "control character in string"},
      {"\"\x1f\"", 1, "control character in string"},
      {"\"abc", 4, "unexpected end of input"},
      {"\"abc\\", 5, "unexpected end of input"},
      {"\"abc\\\"", 6, "unexpected end of input"},
      {"'a'", 0, "expected a value"},
      {"[", 1, "unexpected end of input"},
      {"[1", 2, "unexpected end of input"},
      {"[1,", 3, "unexpected end of input"},
      {"[1,]", 3, "expected a value"},
      {"[,1]", 1, "expected a value"},
      {"[1 2]", 3, "expected ',' or ']'"},
      {"[1:2]", 2, "expected ',' or ']'"},
      {"{", 1, "unexpected end of input"},
      {"{\"a\"", 4, "unexpected end of input"},
      {"{\"a\":", 5, "unexpected end of input"},
      {"{\"a\":1", 6, "unexpected end of input"},
      {"{\"a\":1,", 7, "unexpected end of input"},
      {"{\"a\":1,}", 7, "expected a string key"},
      {"{,}", 1, "expected a string key"},
      {"{a:1}", 1, "expected a string key"},
      {"{\"a\" 1}", 5, "expected ':'"},
      {"{\"a\":1 \"b\":2}", 7, "expected ',' or '}'"},
      {"{\"a\":1]", 6, "expected ',' or '}'"},
      {"[1}", 2, "expected ',' or ']'"},
      {"{1:2}", 1, "expected a string key"},
      {"\xef\xbb\xbf{}", 0, "expected a value"}, /* a byte-order mark is not JSON */
      {"[1]\x00", 3, "unexpected data after the value"},
      {"\x0c{}", 0, "expected a value"}, /* form feed is not JSON whitespace */
  };
  for (size_t i = 0; i < SL_ARRAY_LEN(cases); i++) {
    size_t len = strlen(cases[i].doc);
    if (i == SL_ARRAY_LEN(cases) - 2)
      len = 4; /* the one with the NUL */
    sl_json_error e = parse_bad_n(cases[i].doc, len);
    if (e.offset != cases[i].offset || !e.msg || strcmp(e.msg, cases[i].msg) != 0) {
      fprintf(stderr, "  case %zu '%s': got %zu '%s', want %zu '%s'\n", i, cases[i].doc, e.offset,
              e.msg ? e.msg : "(null)", cases[i].offset, cases[i].msg);
      CHECK(0);
    }
  }
  /* An empty slice may have a NULL pointer (str.h). */
  sl_json *v;
  sl_json_error e;
  CHECK_INT(sl_json_parse(&arena, NULL, 0, &v, &e), -1);
  CHECK_INT(e.offset, 0);
  /* A NULL error pointer is allowed. */
  CHECK_INT(sl_json_parse(&arena, "[", 1, &v, NULL), -1);
}

/* Valid UTF-8 at each length and boundary passes through; every kind of
 * invalid sequence is rejected at its first byte, in both string paths. */
static void test_utf8(void) {
  static const char *const ok[] = {
      "\xc2\x80",     "\xdf\xbf",         "\xe0\xa0\x80",     "\xed\x9f\xbf",     "\xee\x80\x80",
      "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf3\xbf\xbf\xbf", "\xe2\x82\xac",
      "\x7f",
  };
  for (size_t i = 0; i < SL_ARRAY_LEN(ok); i++) {
    for (int escaped = 0; escaped < 2; escaped++) {
      char doc[32];
      snprintf(doc, sizeof(doc), "\"%sx%s\"", escaped ? "\\n" : "", ok[i]);
      sl_json *v = parse_ok(doc);
      if (v) {
        CHECK_INT(v->str.len, strlen(ok[i]) + 1 + (size_t)escaped);
        CHECK(memcmp(v->str.p + 1 + escaped, ok[i], strlen(ok[i])) == 0);
      }
    }
  }
  static const struct {
    const char *seq;
    const char *msg;
  } bad[] = {
      {"\x80", "invalid UTF-8: unexpected continuation byte"},
      {"\xbf", "invalid UTF-8: unexpected continuation byte"},
      {"\xc0\x80", "invalid UTF-8: overlong encoding"},
      {"\xc1\xbf", "invalid UTF-8: overlong encoding"},
      {"\xe0\x80\x80", "invalid UTF-8: overlong encoding"},
      {"\xe0\x9f\xbf", "invalid UTF-8: overlong encoding"},
      {"\xf0\x80\x80\x80", "invalid UTF-8: overlong encoding"},
      {"\xf0\x8f\xbf\xbf", "invalid UTF-8: overlong encoding"},
      {"\xed\xa0\x80", "invalid UTF-8: encoded surrogate"},
      {"\xed\xbf\xbf", "invalid UTF-8: encoded surrogate"},
      {"\xf4\x90\x80\x80", "invalid UTF-8: code point above U+10FFFF"},
      {"\xf5\x80\x80\x80", "invalid UTF-8: code point above U+10FFFF"},
      {"\xf7\xbf\xbf\xbf", "invalid UTF-8: code point above U+10FFFF"},
      {"\xf8\x88\x80\x80\x80", "invalid UTF-8: invalid byte"},
      {"\xfe", "invalid UTF-8: invalid byte"},
      {"\xff", "invalid UTF-8: invalid byte"},
      {"\xc3", "invalid UTF-8: truncated sequence"},
      {"\xc3\x41", "invalid UTF-8: truncated sequence"},
      {"\xe2\x82", "invalid UTF-8: truncated sequence"},
      {"\xe2\x41\x82", "invalid UTF-8: truncated sequence"},
      {"\xf0\x9f\x98", "invalid UTF-8: truncated sequence"},
      {"\xf0\x9f\x98\xc3\xa9", "invalid UTF-8: truncated sequence"},
      {"\xc3\xc3\xa9", "invalid UTF-8: truncated sequence"},
  };
  for (size_t i = 0; i < SL_ARRAY_LEN(bad); i++) {
    for (int escaped = 0; escaped < 2; escaped++) {
      char doc[32];
      snprintf(doc, sizeof(doc), "[\"%sab%s\"]", escaped ? "\\t" : "", bad[i].seq);
      sl_json_error e = parse_bad(doc);
      size_t at = (size_t)(4 + 2 * escaped);
      if (e.offset != at || !e.msg || strcmp(e.msg, bad[i].msg) != 0) {
        fprintf(stderr, "  utf8 case %zu escaped=%d: got %zu '%s', want %zu '%s'\n", i, escaped,
                e.offset, e.msg ? e.msg : "(null)", at, bad[i].msg);
        CHECK(0);
      }
    }
  }
  /* A sequence cut by the end of input. */
  sl_json_error e = parse_bad("\"\xe2\x82");
  CHECK_INT(e.offset, 3);
  /* Non-ASCII outside a string. */
  e = parse_bad("[\xc3\xa9]");
  CHECK_INT(e.offset, 1);
}

static const char *const round_docs[] = {
    "{\"TableName\":\"Music\",\"Item\":{\"Artist\":{\"S\":\"No One You Know\"},\"SongTitle\":"
    "{\"S\":\"Call Me Today\"},\"Year\":{\"N\":\"2015\"},\"Tags\":{\"L\":[{\"S\":\"a\"},{\"N\":"
    "\"-1.5e-3\"},{\"BOOL\":true},{\"NULL\":true}]},\"Info\":{\"M\":{\"x\":{\"SS\":[\"p\",\"q\"]}}}"
    "}"
    ",\"ReturnValues\":\"ALL_OLD\"}",
    "[null,true,false,0,-0.5,1E+10,\"\",\"a\\\"b\\\\c\\n\\u0001\\u001F\",[],{},[[[]]]]",
    "\"\\uD83D\\uDE00 caf\xc3\xa9 \\u00e9 \\/ \\uDC00\"",
    "{\"dup\":1,\"dup\":{\"dup\":[1,2]},\"\":\"\",\"a\\u0000b\":null}",
    "[\"\xf4\x8f\xbf\xbf\",\"\\b\\f\\r\\t\\u007f\x7f\"]",
};

/* Every proper prefix of several documents fails cleanly, and no parse reads
 * past the end of its input (the copy ends at a guard page; ASan checks too). */
static void test_truncation(void) {
  int prefixes = 0;
  for (size_t d = 0; d < SL_ARRAY_LEN(round_docs); d++) {
    const char *doc = round_docs[d];
    size_t len = strlen(doc);
    sl_json *v;
    sl_json_error err;
    CHECK_INT(parse_n(doc, len, &v, &err), 0);
    for (size_t n = 0; n < len; n++) {
      err = parse_bad_n(doc, n);
      prefixes++;
    }
    sl_arena_reset(&arena);
  }
  CHECK(prefixes > 400);
}

/* parse -> write -> parse gives the same tree, and the writer is compact. */
static void test_round_trip(void) {
  for (size_t d = 0; d < SL_ARRAY_LEN(round_docs); d++) {
    /* Parsed in place: the guarded copy is reused, and zero-copy strings of
     * the first tree must stay valid while the second is parsed. */
    sl_json *v = NULL, *w = NULL;
    sl_json_error err;
    CHECK_INT(sl_json_parse(&arena, round_docs[d], strlen(round_docs[d]), &v, &err), 0);
    if (!v)
      continue;
    sl_str out = json_tree_write(&arena, v);
    CHECK_INT(sl_json_parse(&arena, out.p, out.len, &w, &err), 0);
    CHECK(w && json_tree_eq(v, w));
    /* Writing the re-parsed tree gives the same bytes. */
    if (w) {
      sl_str again = json_tree_write(&arena, w);
      CHECK(sl_str_eq(out, again));
    }
  }
  sl_json *v = parse_ok(" { \"a\" : [ 1 , 2 ] , \"b\" : { } , \"c\" : \"\\u0041\\t\" } ");
  if (v)
    CHECK_STR(json_tree_write(&arena, v), "{\"a\":[1,2],\"b\":{},\"c\":\"A\\t\"}");
  v = parse_ok("\"\\uD83D\\uDE00\\u00e9\\/\"");
  if (v)
    CHECK_STR(json_tree_write(&arena, v), "\"\xf0\x9f\x98\x80\xc3\xa9/\"");
}

/* The writer's commas, keys and scalars. */
static void test_writer(void) {
  sl_buf b;
  sl_buf_init(&b, &arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "a");
  sl_jw_int(&w, -42);
  sl_jw_key(&w, SL_STR("b"));
  sl_jw_arr_begin(&w);
  sl_jw_uint(&w, 0);
  sl_jw_bool(&w, true);
  sl_jw_bool(&w, false);
  sl_jw_null(&w);
  sl_jw_str_c(&w, "x");
  sl_jw_number_raw(&w, SL_STR("1.50"));
  sl_jw_raw(&w, SL_STR("{\"r\":[]}"));
  sl_jw_obj_begin(&w);
  sl_jw_obj_end(&w);
  sl_jw_arr_begin(&w);
  sl_jw_arr_end(&w);
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "c");
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "d");
  sl_jw_double(&w, 0.5);
  sl_jw_obj_end(&w);
  sl_jw_key_c(&w, "min");
  sl_jw_int(&w, INT64_MIN);
  sl_jw_key_c(&w, "max");
  sl_jw_uint(&w, UINT64_MAX);
  sl_jw_obj_end(&w);
  CHECK_STR(sl_buf_str(&b), "{\"a\":-42,\"b\":[0,true,false,null,\"x\",1.50,{\"r\":[]},{},[]],"
                            "\"c\":{\"d\":0.5},\"min\":-9223372036854775808,"
                            "\"max\":18446744073709551615}");
  CHECK_INT(w.depth, 0);
  sl_json *v;
  sl_json_error err;
  CHECK_INT(sl_json_parse(&arena, b.p, b.len, &v, &err), 0);
}

/* Only '"', '\\' and controls are escaped; controls use the short forms where
 * JSON has them and \u00XX otherwise; everything else passes through. */
static void test_escaping(void) {
  sl_buf b;
  sl_buf_init(&b, &arena);
  char all[32];
  for (int i = 0; i < 32; i++)
    all[i] = (char)i;
  sl_json_escape(&b, sl_str_make(all, 32));
  CHECK_STR(sl_buf_str(&b),
            "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n"
            "\\u000B\\f\\r\\u000E\\u000F\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015"
            "\\u0016\\u0017\\u0018\\u0019\\u001A\\u001B\\u001C\\u001D\\u001E\\u001F");
  b.len = 0;
  sl_json_escape(&b, SL_STR("a\"b\\c/d\x7f\xc3\xa9\xf0\x9f\x98\x80 "));
  CHECK_STR(sl_buf_str(&b), "a\\\"b\\\\c/d\x7f\xc3\xa9\xf0\x9f\x98\x80 ");
  b.len = 0;
  sl_json_escape(&b, SL_STR(""));
  sl_json_escape(&b, SL_STR_NULL);
  CHECK_INT(b.len, 0);
  /* Every escaped control character reads back as itself. */
  sl_buf o;
  sl_buf_init(&o, &arena);
  sl_jw w;
  sl_jw_init(&w, &o);
  sl_jw_str(&w, sl_str_make(all, 32));
  sl_json *v = NULL;
  sl_json_error err;
  CHECK_INT(sl_json_parse(&arena, o.p, o.len, &v, &err), 0);
  CHECK(v && v->str.len == 32 && memcmp(v->str.p, all, 32) == 0);
}

static sl_str dbl(double d) {
  sl_buf b;
  sl_buf_init(&b, &arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_double(&w, d);
  return sl_buf_str(&b);
}

/* Doubles as the service writes them (Java's Double.toString): integral values
 * with ".0", the shortest digits that read back, E notation outside
 * [1e-3, 1e7). Every output parses as JSON and reads back exactly. */
static void test_double(void) {
  static const struct {
    double v;
    const char *text;
  } cases[] = {
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.0, "1.0"},
      {-2.0, "-2.0"},
      {0.5, "0.5"},
      {12.25, "12.25"},
      {0.1, "0.1"},
      {0.3, "0.3"},
      {1.1, "1.1"},
      {123456.789, "123456.789"},
      {1000000.0, "1000000.0"},
      {9999999.0, "9999999.0"},
      {1e7, "1.0E7"},
      {4e7, "4.0E7"},
      {1.5e10, "1.5E10"},
      {0.001, "0.001"},
      {0.0015, "0.0015"},
      {0.0005, "5.0E-4"},
      {1.5e-5, "1.5E-5"},
      {1e300, "1.0E300"},
      {5e-324, "5.0E-324"}, /* shortest; Java writes 4.9E-324 here */
      {0.1 + 0.2, "0.30000000000000004"},
      {1.0 / 3.0, "0.3333333333333333"},
      {2.0 / 3.0, "0.6666666666666666"},
      {100.0 / 3.0, "33.333333333333336"},
      {1.7976931348623157e308, "1.7976931348623157E308"},
      {2.2250738585072014e-308, "2.2250738585072014E-308"},
  };
  for (size_t i = 0; i < SL_ARRAY_LEN(cases); i++) {
    sl_str s = dbl(cases[i].v);
    if (!sl_str_eq_c(s, cases[i].text)) {
      fprintf(stderr, "  double case %zu: got '%.*s', want '%s'\n", i, SL_STR_FMT(s),
              cases[i].text);
      CHECK(0);
    }
  }
  /* Read-back over many values, including fractions of capacity units. */
  srand(7);
  for (int i = 0; i < 20000; i++) {
    double d;
    if (i < 2000)
      d = i * 0.5;
    else if (i < 4000)
      d = (i - 2000) / 100.0;
    else {
      uint64_t bits = ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
      memcpy(&d, &bits, sizeof(d));
      if (!isfinite(d))
        continue;
    }
    sl_str s = dbl(d);
    sl_json *v;
    sl_json_error err;
    CHECK_INT(sl_json_parse(&arena, s.p, s.len, &v, &err), 0);
    char tmp[64];
    snprintf(tmp, sizeof(tmp), "%.*s", SL_STR_FMT(s));
    if (strtod(tmp, NULL) != d) {
      fprintf(stderr, "  %.17g wrote '%s'\n", d, tmp);
      CHECK(0);
    }
    if (i % 1000 == 0)
      sl_arena_reset(&arena);
  }
  /* The shortest form: integral multiples of 0.5 up to 1000 need no more
   * than "NNN.5". */
  CHECK_STR(dbl(999.5), "999.5");
}

/* sl_jw_value takes its comma from the streaming writer around it. */
static void test_writer_value(void) {
  sl_json *a = NULL, *b = NULL;
  sl_json_error err;
  CHECK_INT(sl_json_parse(&arena, "{\"x\": [1, \"y\"]}", 15, &a, &err), 0);
  CHECK_INT(sl_json_parse(&arena, " [ ] ", 5, &b, &err), 0);
  if (!a || !b)
    return;
  sl_buf buf;
  sl_buf_init(&buf, &arena);
  sl_jw w;
  sl_jw_init(&w, &buf);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "list");
  sl_jw_arr_begin(&w);
  sl_jw_value(&w, a);
  sl_jw_value(&w, b);
  sl_jw_null(&w);
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "tree");
  sl_jw_value(&w, a);
  sl_jw_key_c(&w, "n");
  sl_jw_int(&w, 7);
  sl_jw_obj_end(&w);
  CHECK_STR(sl_buf_str(&buf),
            "{\"list\":[{\"x\":[1,\"y\"]},[],null],\"tree\":{\"x\":[1,\"y\"]},\"n\":7}");
  /* The streaming writer nests SL_JW_MAX_DEPTH containers. */
  buf.len = 0;
  sl_jw_init(&w, &buf);
  for (int i = 0; i < SL_JW_MAX_DEPTH; i++)
    sl_jw_arr_begin(&w);
  for (int i = 0; i < SL_JW_MAX_DEPTH; i++)
    sl_jw_arr_end(&w);
  CHECK_INT(buf.len, 2 * SL_JW_MAX_DEPTH);
  /* So does sl_jw_value. */
  sl_str deep = nested('[', ']', SL_JW_MAX_DEPTH, "1");
  sl_json *v = NULL;
  CHECK_INT(sl_json_parse(&arena, deep.p, deep.len, &v, &err), 0);
  if (v)
    CHECK(sl_str_eq(json_tree_write(&arena, v), deep));
}

/* Objects with more members than the parser's first scratch, nested, so the
 * scratch grows while outer members wait on it. */
static void test_wide_objects(void) {
  sl_buf b;
  sl_buf_init(&b, &arena);
  sl_buf_puts(&b, SL_STR("{\"outer\":1,\"inner\":{"));
  for (int i = 0; i < 300; i++)
    sl_buf_printf(&b, "%s\"k%d\":{\"v\":[%d]}", i ? "," : "", i % 150, i);
  sl_buf_puts(&b, SL_STR("},\"after\":true,\"outer\":2}"));
  sl_json *v = NULL;
  sl_json_error err;
  CHECK_INT(sl_json_parse(&arena, b.p, b.len, &v, &err), 0);
  if (!v)
    return;
  CHECK_INT(v->obj.n, 4);
  CHECK_STR(sl_json_get(v, "outer")->str, "2");
  sl_json *inner = sl_json_get(v, "inner");
  CHECK(inner && inner->obj.n == 300);
  /* k7 appears at i = 7 and i = 157: the last wins. */
  sl_json *k7 = sl_json_get(inner, "k7");
  CHECK(k7 && sl_str_eq_c(sl_json_get(k7, "v")->arr.items[0]->str, "157"));
  CHECK(sl_json_get(v, "after")->type == SL_JSON_TRUE);
  CHECK(sl_str_eq(json_tree_write(&arena, v), sl_buf_str(&b)));
}

int main(void) {
  sl_arena_init(&arena);
  RUN(test_scalars);
  RUN(test_numbers);
  RUN(test_containers);
  RUN(test_large);
  RUN(test_zero_copy);
  RUN(test_escapes);
  RUN(test_surrogates);
  RUN(test_duplicate_keys);
  RUN(test_depth_limit);
  RUN(test_invalid);
  RUN(test_utf8);
  RUN(test_truncation);
  RUN(test_round_trip);
  RUN(test_writer);
  RUN(test_writer_value);
  RUN(test_wide_objects);
  RUN(test_escaping);
  RUN(test_double);
  sl_arena_destroy(&arena);
  return DONE();
}
