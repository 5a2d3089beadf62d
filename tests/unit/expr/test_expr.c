/* Unit tests of src/expr: every grammar rule and error of condition, update,
 * projection and key-condition expressions, the request context (names and
 * values), evaluation, updates and projections.
 *
 * The expected messages were observed on DynamoDB Local (127.0.0.1:8001,
 * build 2026-01-16) with PutItem ConditionExpression, UpdateItem,
 * GetItem ProjectionExpression and Query; where the service is known to
 * differ (number texts, the key-schema element name) the comment says so.
 * Trees are compared through sl_expr_print so each assertion reads as the
 * parse it pins.
 */
#include "harness.h"

#include "base/log.h"
#include "base/num.h"
#include "expr/expr.h"

#include <time.h>

static sl_arena A;
static sl_failure F;

static const sl_json *json(const char *text) {
  if (!text)
    return NULL;
  sl_json *j;
  sl_json_error e;
  if (sl_json_parse(&A, text, strlen(text), &j, &e) != 0) {
    fprintf(stderr, "bad test JSON: %s\n", text);
    return NULL;
  }
  return j;
}

static const char *fail_text(void) { return sl_arena_printf(&A, "%.*s", SL_STR_FMT(F.message)).p; }

static bool begin(sl_expr_ctx *cx, const char *names, const char *values) {
  sl_failure_init(&F, &A);
  return sl_expr_ctx_init(cx, &A, &F, json(names), json(values)) == SL_OK;
}

static const char *buf_text(sl_buf *b) {
  sl_buf_putc(b, 0);
  return b->p;
}

/* Condition: the printed tree, or the error message. */
static const char *C(const char *names, const char *values, const char *expr) {
  sl_expr_ctx cx;
  sl_expr *c;
  if (!begin(&cx, names, values))
    return fail_text();
  if (sl_expr_parse_condition(&cx, SL_EXPR_CONDITION, sl_str_c(expr), &c) != SL_OK ||
      sl_expr_ctx_finish(&cx) != SL_OK)
    return fail_text();
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_expr_print(&b, c);
  return buf_text(&b);
}

static const char *U(const char *names, const char *values, const char *expr) {
  sl_expr_ctx cx;
  sl_expr_update *u;
  if (!begin(&cx, names, values))
    return fail_text();
  if (sl_expr_parse_update(&cx, sl_str_c(expr), &u) != SL_OK || sl_expr_ctx_finish(&cx) != SL_OK)
    return fail_text();
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_expr_print_update(&b, u);
  return buf_text(&b);
}

static const char *P(const char *names, const char *expr) {
  sl_expr_ctx cx;
  sl_expr_proj *p;
  if (!begin(&cx, names, NULL))
    return fail_text();
  if (sl_expr_parse_projection(&cx, sl_str_c(expr), &p) != SL_OK ||
      sl_expr_ctx_finish(&cx) != SL_OK)
    return fail_text();
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_expr_print_proj(&b, p);
  return buf_text(&b);
}

static const sl_key_schema KS_HR = {
    .hash = {"pk", 2}, .hash_type = SL_AV_S, .range = {"sk", 2}, .range_type = SL_AV_N};
static const sl_key_schema KS_H = {.hash = {"pk", 2}, .hash_type = SL_AV_S};

static const char *K(const sl_key_schema *ks, const char *names, const char *values,
                     const char *expr) {
  sl_expr_ctx cx;
  sl_expr_keycond k;
  if (!begin(&cx, names, values))
    return fail_text();
  if (sl_expr_parse_key_condition(&cx, sl_str_c(expr), ks, &k) != SL_OK ||
      sl_expr_ctx_finish(&cx) != SL_OK)
    return fail_text();
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_expr_print_keycond(&b, &k, ks);
  return buf_text(&b);
}

static bool item_of(const char *text, sl_item *out) {
  sl_failure f;
  sl_failure_init(&f, &A);
  return sl_item_from_json(&f, &A, json(text), out) == SL_OK;
}

static const char *item_text(const sl_item *it) {
  sl_buf b;
  sl_jw w;
  sl_buf_init(&b, &A);
  sl_jw_init(&w, &b);
  sl_item_write_json(&w, it);
  return buf_text(&b);
}

/* Evaluates a condition on an item ("null": no item): "true", "false" or
 * the error. */
static const char *E(const char *values, const char *expr, const char *item) {
  sl_expr_ctx cx;
  sl_expr *c;
  sl_item it;
  if (!begin(&cx, NULL, values))
    return fail_text();
  if (sl_expr_parse_condition(&cx, SL_EXPR_CONDITION, sl_str_c(expr), &c) != SL_OK)
    return fail_text();
  bool absent = strcmp(item, "null") == 0;
  if (!absent && !item_of(item, &it))
    return "bad item";
  return sl_expr_eval(c, absent ? NULL : &it) ? "true" : "false";
}

/* Applies an update: the new item as JSON, or the error. */
static const char *UP(const char *values, const char *expr, const char *item) {
  sl_expr_ctx cx;
  sl_expr_update *u;
  sl_item it, out;
  if (!begin(&cx, NULL, values))
    return fail_text();
  if (sl_expr_parse_update(&cx, sl_str_c(expr), &u) != SL_OK)
    return fail_text();
  bool absent = strcmp(item, "null") == 0;
  if (!absent && !item_of(item, &it))
    return "bad item";
  if (sl_expr_update_apply(&cx, u, absent ? NULL : &it, &out) != SL_OK)
    return fail_text();
  return item_text(&out);
}

/* An item's canonical JSON. */
static const char *IT(const char *text) {
  sl_item it;
  if (!item_of(text, &it))
    return "bad item";
  return item_text(&it);
}

/* UPDATED_OLD (old = true) or UPDATED_NEW of an update. */
static const char *UR(const char *values, const char *expr, const char *item, bool old) {
  sl_expr_ctx cx;
  sl_expr_update *u;
  sl_item it, out;
  if (!begin(&cx, NULL, values) || sl_expr_parse_update(&cx, sl_str_c(expr), &u) != SL_OK)
    return fail_text();
  if (!item_of(item, &it))
    return "bad item";
  if (sl_expr_update_apply(&cx, u, &it, &out) != SL_OK)
    return fail_text();
  sl_item r = sl_expr_project(&A, &u->paths, old ? &it : &out);
  return item_text(&r);
}

static const char *PR(const char *names, const char *expr, const char *item) {
  sl_expr_ctx cx;
  sl_expr_proj *p;
  sl_item it;
  if (!begin(&cx, names, NULL) || sl_expr_parse_projection(&cx, sl_str_c(expr), &p) != SL_OK)
    return fail_text();
  if (!item_of(item, &it))
    return "bad item";
  sl_item r = sl_expr_project(&A, p, &it);
  return item_text(&r);
}

#define V1 "{\":v\":{\"N\":\"1\"}}"

/* ---- condition grammar ---- */

static void test_condition_grammar(void) {
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v")), "(= a {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a.b[1].c <> :v")), "(<> a.b[1].c {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[ 1 ] < :v")), "(< a[1] {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a . b <= :v")), "(<= a.b {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a\n>\t:v")), "(> a {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a >= :v")), "(>= a {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "(a) = :v")), "(= a {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = (:v)")), "(= a {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, ":v = :v")), "(= {\"N\":\"1\"} {\"N\":\"1\"})");
  /* Precedence: NOT binds tighter than AND, AND tighter than OR. */
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v AND b = :v OR c = :v AND NOT d = :v")),
            "(OR (AND (= a {\"N\":\"1\"}) (= b {\"N\":\"1\"})) (AND (= c {\"N\":\"1\"}) (NOT (= d "
            "{\"N\":\"1\"}))))");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v and (b = :v or c = :v)")),
            "(AND (= a {\"N\":\"1\"}) (OR (= b {\"N\":\"1\"}) (= c {\"N\":\"1\"})))");
  CHECK_STR(sl_str_c(C(NULL, V1, "NOT NOT a = :v")), "(NOT (NOT (= a {\"N\":\"1\"})))");
  CHECK_STR(sl_str_c(C(NULL, V1, "(NOT (a = :v))")), "(NOT (= a {\"N\":\"1\"}))");
  CHECK_STR(sl_str_c(C(NULL, V1, "a BETWEEN :v AND :v")),
            "(BETWEEN a {\"N\":\"1\"} {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a between :v and :v AND b = :v")),
            "(AND (BETWEEN a {\"N\":\"1\"} {\"N\":\"1\"}) (= b {\"N\":\"1\"}))");
  CHECK_STR(sl_str_c(C(NULL, V1, "a IN (:v, b, c.d)")), "(IN a {\"N\":\"1\"} b c.d)");
  CHECK_STR(sl_str_c(C(NULL, V1, "size(a) = :v")), "(= (size a) {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, NULL, "attribute_exists(a) OR attribute_not_exists(b.c)")),
            "(OR (attribute_exists a) (attribute_not_exists b.c))");
  CHECK_STR(sl_str_c(C(NULL, "{\":t\":{\"S\":\"SS\"}}", "attribute_type(a, :t)")),
            "(attribute_type a {\"S\":\"SS\"})");
  CHECK_STR(sl_str_c(C(NULL, "{\":s\":{\"S\":\"x\"}}", "begins_with(a, :s) AND contains(b, :s)")),
            "(AND (begins_with a {\"S\":\"x\"}) (contains b {\"S\":\"x\"}))");
  CHECK_STR(sl_str_c(C(NULL, V1, "contains(:v, a)")), "(contains {\"N\":\"1\"} a)");
  /* Function names are plain names elsewhere. */
  CHECK_STR(sl_str_c(C(NULL, V1, "size = :v")), "(= size {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "contains.size = :v")), "(= contains.size {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C("{\"#a\":\"x.y\",\"#s\":\"status\"}", V1, "#a.#s[2] = :v")),
            "(= `x.y`.status[2] {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[2147483647] = :v")), "(= a[2147483647] {\"N\":\"1\"})");
  CHECK_STR(sl_str_c(C(NULL, V1, "a_b1 = :v")), "(= a_b1 {\"N\":\"1\"})");
}

static void test_condition_syntax_errors(void) {
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = = b")),
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = b\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v AND")),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a =")),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "(a = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \":v\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v)")),
            "Invalid ConditionExpression: Syntax error; token: \")\", near: \":v)\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a b")),
            "Invalid ConditionExpression: Syntax error; token: \"b\", near: \"a b\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, ") a")),
            "Invalid ConditionExpression: Syntax error; token: \")\", near: \") a\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "  ")),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"  \"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = $")),
            "Invalid ConditionExpression: Syntax error; token: \"$\", near: \"= $\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v $")),
            "Invalid ConditionExpression: Syntax error; token: \"$\", near: \":v $\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = #")),
            "Invalid ConditionExpression: Syntax error; token: \"#\", near: \"= #\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = :")),
            "Invalid ConditionExpression: Syntax error; token: \":\", near: \"= :\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a.1 = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"1\", near: \".1 =\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[1.5] = :v")),
            "Invalid ConditionExpression: Syntax error; token: \".\", near: \"1.5\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[-1] = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"-\", near: \"[-1\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[00] = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"0\", near: \"00]\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[01] = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"1\", near: \"01]\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a IN ()")),
            "Invalid ConditionExpression: Syntax error; token: \")\", near: \"()\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a != :v")),
            "Invalid ConditionExpression: Syntax error; token: \"!\", near: \"a !=\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a == :v")),
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"== :v\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a =< :v")),
            "Invalid ConditionExpression: Syntax error; token: \"<\", near: \"=< :v\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v a")),
            "Invalid ConditionExpression: Syntax error; token: \"a\", near: \":v a\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a-b = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"-\", near: \"a-b\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "_a = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"_\", near: \"_a\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "1a = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"1\", near: \"1a\"");
  CHECK_STR(
      sl_str_c(C(NULL, V1, "a\xc3\xa9 = :v")),
      "Invalid ConditionExpression: Syntax error; token: \"\xc3\xa9\", near: \"a\xc3\xa9 =\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v\xc2\xa0")),
            "Invalid ConditionExpression: Syntax error; token: \"\xc2\xa0\", near: \":v\xc2\xa0\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v-1")),
            "Invalid ConditionExpression: Syntax error; token: \"-\", near: \":v-1\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = 'x'")),
            "Invalid ConditionExpression: Syntax error; token: \"'\", near: \"= 'x\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = 1")),
            "Invalid ConditionExpression: Syntax error; token: \"1\", near: \"= 1\"");
  /* AND OR NOT BETWEEN IN SET REMOVE ADD DELETE are keywords in any case. */
  CHECK_STR(sl_str_c(C(NULL, V1, "and = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"and\", near: \"and =\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a.set = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"set\", near: \".set =\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "not = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"not = :v\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v AND b")),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"b\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "a AND b = :v")),
            "Invalid ConditionExpression: Syntax error; token: \"AND\", near: \"a AND b\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "")), "Invalid ConditionExpression: The expression can not be "
                                         "empty;");
}

static void test_condition_checks(void) {
  CHECK_STR(sl_str_c(C(NULL, V1, "((a = :v))")),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK_STR(sl_str_c(C(NULL, V1, "(a = :v) AND ((b = :v))")),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK_STR(sl_str_c(C(NULL, V1, "((a)) = :v")),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK_STR(sl_str_c(C(NULL, V1, "NOT ((a = :v))")),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  /* Raised while parsing: before a later syntax error. */
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :v AND ((b = :v)) AND c = = :v")),
            "Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK_STR(sl_str_c(C(NULL, V1, "((a = :v) AND b = :v)")),
            "(AND (= a {\"N\":\"1\"}) (= b {\"N\":\"1\"}))");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[99999999999] = :v")),
            "Invalid ConditionExpression: List index is not within the allowable range; index: "
            "[99999999999]");
  CHECK_STR(sl_str_c(C(NULL, V1, "a[2147483648] = :v")),
            "Invalid ConditionExpression: List index is not within the allowable range; index: "
            "[2147483648]");
  CHECK_STR(
      sl_str_c(C(NULL, V1,
                 "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a1.b1.c1.d1.e1.f1 = :v")),
      "(= a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a1.b1.c1.d1.e1.f1 "
      "{\"N\":\"1\"})");
  CHECK_STR(
      sl_str_c(C(NULL, V1,
                 "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a1.b1.c1.d1.e1.f1.g1 = :v")),
      "Invalid ConditionExpression: The document path has too many nesting levels; nesting "
      "levels: 33");
  /* Operators: at most 300 (NOT, AND, OR, comparisons, functions). */
  {
    sl_buf b;
    sl_buf_init(&b, &A);
    for (int i = 0; i < 299; i++)
      sl_buf_puts(&b, SL_STR("NOT "));
    sl_buf_puts(&b, SL_STR("a = :v"));
    CHECK(strncmp(C(NULL, V1, buf_text(&b)), "(NOT", 4) == 0);
    sl_buf_init(&b, &A);
    for (int i = 0; i < 150; i++)
      sl_buf_puts(&b, SL_STR("a = :v AND "));
    sl_buf_puts(&b, SL_STR("a = :v"));
    CHECK_STR(sl_str_c(C(NULL, V1, buf_text(&b))),
              "Invalid ConditionExpression: The expression contains too many operators; operator "
              "count: 301");
    sl_buf_init(&b, &A);
    sl_buf_puts(&b, SL_STR("a IN (:v"));
    for (int i = 0; i < 99; i++)
      sl_buf_puts(&b, SL_STR(",:v"));
    sl_buf_puts(&b, SL_STR(")"));
    CHECK(strncmp(C(NULL, V1, buf_text(&b)), "(IN a", 5) == 0);
    b.len -= 2; /* the NUL and ")" */
    sl_buf_puts(&b, SL_STR(",:v)"));
    CHECK_STR(sl_str_c(C(NULL, V1, buf_text(&b))),
              "Invalid ConditionExpression: The IN operator is provided with too many operands; "
              "number of operands: 101");
    /* Deep parentheses end in an error, not in a deep recursion. */
    sl_buf_init(&b, &A);
    for (int i = 0; i < 1200; i++)
      sl_buf_putc(&b, '(');
    sl_buf_puts(&b, SL_STR("a = :v"));
    for (int i = 0; i < 1200; i++)
      sl_buf_putc(&b, ')');
    CHECK(strncmp(C(NULL, V1, buf_text(&b)),
                  "Invalid ConditionExpression: Syntax error; token: \"(\"", 52) == 0);
    sl_buf_init(&b, &A);
    for (int i = 0; i < 900; i++)
      sl_buf_putc(&b, '(');
    CHECK_STR(sl_str_c(C(NULL, V1, buf_text(&b))),
              "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"(\"");
    sl_buf_init(&b, &A);
    sl_buf_puts(&b, SL_STR("a = :v"));
    for (int i = 0; i < 5000; i++)
      sl_buf_putc(&b, ' ');
    CHECK_STR(sl_str_c(C(NULL, V1, buf_text(&b))),
              "Invalid ConditionExpression: Expression size has exceeded the maximum allowed "
              "size; expression size: 5006");
  }
  /* Functions. */
  CHECK_STR(sl_str_c(C(NULL, NULL, "foo(a)")),
            "Invalid ConditionExpression: Invalid function name; function: foo");
  CHECK_STR(sl_str_c(C(NULL, NULL, "ATTRIBUTE_EXISTS(a)")),
            "Invalid ConditionExpression: Invalid function name; function: ATTRIBUTE_EXISTS");
  CHECK_STR(sl_str_c(C(NULL, V1, ":v = :v AND foo(a)")),
            "Invalid ConditionExpression: Invalid function name; function: foo");
  CHECK_STR(sl_str_c(C(NULL, NULL, "foo(a) = = b")),
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = b\"");
  CHECK_STR(sl_str_c(C(NULL, NULL, "attribute_exists(a, b)")),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: attribute_exists, number of operands: 2");
  CHECK_STR(sl_str_c(C(NULL, V1, "size(a, a) = :v")),
            "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
            "operator or function: size, number of operands: 2");
  CHECK_STR(sl_str_c(C(NULL, V1, "attribute_exists(:v)")),
            "Invalid ConditionExpression: Operator or function requires a document path; operator "
            "or function: attribute_exists");
  CHECK_STR(sl_str_c(C(NULL, NULL, "attribute_exists(size(a))")),
            "Invalid ConditionExpression: Operator or function requires a document path; operator "
            "or function: attribute_exists");
  CHECK_STR(sl_str_c(C(NULL, NULL, "size(a)")),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: size");
  CHECK_STR(sl_str_c(C(NULL, V1, "attribute_exists(a) = :v")),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: attribute_exists");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = attribute_exists(a)")),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; function: attribute_exists");
  CHECK_STR(sl_str_c(C(NULL, V1, "if_not_exists(a, :v) = :v")),
            "Invalid ConditionExpression: The function is not allowed in a condition expression; "
            "function: if_not_exists");
  CHECK_STR(sl_str_c(C(NULL, V1, "list_append(a, :v) = :v")),
            "Invalid ConditionExpression: The function is not allowed in a condition expression; "
            "function: list_append");
  CHECK_STR(sl_str_c(C(NULL, V1, "size(:v) = :v")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: size, operand type: N");
  CHECK_STR(sl_str_c(C(NULL, V1, "begins_with(a, :v)")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  CHECK_STR(sl_str_c(C(NULL, V1, "begins_with(:v, a)")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  CHECK_STR(sl_str_c(C(NULL, "{\":a\":{\"SS\":[\"x\"]}}", "begins_with(a, :a)")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: SS");
  CHECK_STR(sl_str_c(C(NULL, V1, "attribute_type(a, :v)")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: attribute_type, operand type: N");
  CHECK_STR(sl_str_c(C(NULL, "{\":a\":{\"S\":\"X\"}}", "attribute_type(a, :a)")),
            "Invalid ConditionExpression: Invalid attribute type name found; type: X, valid "
            "types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
  CHECK_STR(sl_str_c(C(NULL, NULL, "attribute_type(a, b)")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: attribute_type, operand type: {BOOL,DICT,BS,INTSET,NULL,S,"
            "DOUBLESET,L,FLOAT,DECIMALSET,NS,M,DECIMAL,HD,SS,N,DOUBLE,HDS,FS,INT,B}");
  /* The first operand must differ from the others (paths only). */
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = a")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [a]");
  CHECK_STR(sl_str_c(C(NULL, V1, "a in (:v, a)")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: IN, first operand: [a]");
  CHECK_STR(sl_str_c(C(NULL, V1, "a between a and :v")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: BETWEEN, first operand: [a]");
  CHECK_STR(sl_str_c(C(NULL, NULL, "attribute_type(a, a)")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: attribute_type, first operand: [a]");
  CHECK_STR(sl_str_c(C(NULL, NULL, "contains(a, a)")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: contains, first operand: [a]");
  CHECK_STR(sl_str_c(C("{\"#a\":\"x\"}", NULL, "#a = #a")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [x]");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a.b[1] = a.b[1]")),
            "Invalid ConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [a, b, [1]]");
  CHECK_STR(sl_str_c(C(NULL, NULL, "size(a) = size(a)")), "(= (size a) (size a))");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a < a.b")), "(< a a.b)");
  /* Constants of the wrong type for an ordering. */
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"BOOL\":true}}", "a < :v")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: BOOL");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"L\":[]}}", "a < :v")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: <, operand type: L");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"SS\":[\"x\"]}}", "a > :v")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: >, operand type: SS");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"M\":{}}}", "a >= :v")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: >=, operand type: M");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"NULL\":true}}", "a = :v")), "(= a {\"NULL\":true})");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"B\":\"AA==\"}}", "a <= :v")), "(<= a {\"B\":\"AA==\"})");
  CHECK_STR(sl_str_c(C(NULL, "{\":a\":{\"N\":\"2\"},\":b\":{\"N\":\"1\"}}", "a BETWEEN :a AND :b")),
            "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater "
            "than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper "
            "bound operand: AttributeValue: {N:1}");
  CHECK_STR(
      sl_str_c(C(NULL, "{\":a\":{\"N\":\"1\"},\":b\":{\"S\":\"x\"}}", "a BETWEEN :a AND :b")),
      "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and "
      "upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: "
      "AttributeValue: {S:x}");
  CHECK_STR(
      sl_str_c(C(NULL, "{\":a\":{\"S\":\"b\"},\":b\":{\"S\":\"a\"}}", "a BETWEEN :a AND :b")),
      "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than "
      "or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: "
      "AttributeValue: {S:a}");
  CHECK_STR(sl_str_c(C(NULL, "{\":a\":{\"BOOL\":true}}", "a BETWEEN :a AND :a")),
            "Invalid ConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: BETWEEN, operand type: BOOL");
  CHECK_STR(
      sl_str_c(C(NULL, "{\":a\":{\"N\":\"10\"},\":b\":{\"N\":\"9.5\"}}", "a BETWEEN :b AND :a")),
      "(BETWEEN a {\"N\":\"9.5\"} {\"N\":\"10\"})");
}

/* ---- names, values, reserved words ---- */

static void test_names_values(void) {
  CHECK_STR(sl_str_c(C(NULL, V1, "status = :v")),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "status");
  CHECK_STR(sl_str_c(C(NULL, V1, "a.Status = :v")),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "Status");
  CHECK_STR(sl_str_c(C(NULL, NULL, "a = true")),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "true");
  /* After syntax errors, before names and values. */
  CHECK_STR(sl_str_c(C(NULL, NULL, "status = = b")),
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = b\"");
  CHECK_STR(sl_str_c(C(NULL, V1, "#q = :v AND status = :x")),
            "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "status");
  CHECK_STR(sl_str_c(C(NULL, V1, "#a = :v")),
            "Invalid ConditionExpression: An expression attribute name used in the document path "
            "is not defined; attribute name: #a");
  CHECK_STR(sl_str_c(C(NULL, V1, "a.#b = :v")),
            "Invalid ConditionExpression: An expression attribute name used in the document path "
            "is not defined; attribute name: #b");
  CHECK_STR(sl_str_c(C(NULL, V1, "a = :x")),
            "Invalid ConditionExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :x");
  CHECK_STR(sl_str_c(C("{\"#1\":\"x\",\"#_\":\"y\"}", V1, "#1 = :v OR #_ = :v")),
            "(OR (= x {\"N\":\"1\"}) (= y {\"N\":\"1\"}))");
  /* Unused keys, in java.util.HashSet order. */
  CHECK_STR(sl_str_c(C("{\"#s\":\"x\",\"#t\":\"y\"}", V1, "#s = :v")),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#t}");
  CHECK_STR(sl_str_c(C("{\"#b\":\"x\",\"#a\":\"y\",\"#c\":\"z\"}", V1, "q = :v")),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#c, #a, #b}");
  CHECK_STR(sl_str_c(C(NULL, "{\":b\":{\"N\":\"1\"},\":a\":{\"N\":\"1\"},\":v\":{\"N\":\"1\"}}",
                       "q = :v")),
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:a, :b}");
  CHECK_STR(sl_str_c(C("{\"#k0\":\"x\",\"#k1\":\"x\",\"#k2\":\"x\",\"#k3\":\"x\",\"#k4\":\"x\","
                       "\"#k5\":\"x\",\"#k6\":\"x\",\"#k7\":\"x\",\"#k8\":\"x\",\"#k9\":\"x\","
                       "\"#k10\":\"x\",\"#k11\":\"x\",\"#k12\":\"x\"}",
                       V1, "#k0 = :v AND #k1 = :v")),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#k2, #k3, "
            "#k4, #k5, #k6, #k7, #k8, #k9, #k10, #k12, #k11}");
  CHECK_STR(sl_str_c(C("{\"#a\":\"a\",\"#b\":\"b\"}", "{\":w\":{\"N\":\"1\"}}", "q = :v")),
            "Invalid ConditionExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :v");
  /* Large maps are indexed: duplicates still keep the last value, and
   * thousands of keys stay fast. */
  CHECK_STR(sl_str_c(C("{\"#a\":\"x\",\"#b\":\"b\",\"#c\":\"c\",\"#d\":\"d\",\"#e\":\"e\",\"#f\":"
                       "\"f\",\"#g\":\"g\",\"#h\":\"h\",\"#i\":\"i\",\"#a\":\"y\"}",
                       V1, "#a = :v AND #b = #c AND #d = #e AND #f = #g AND #h = #i")),
            "(AND (AND (AND (AND (= y {\"N\":\"1\"}) (= b c)) (= d e)) (= f g)) (= h i))");
  {
    sl_buf b;
    sl_buf_init(&b, &A);
    sl_buf_putc(&b, '{');
    for (int i = 0; i < 20000; i++)
      sl_buf_printf(&b, "%s\"#k%d\":\"x\"", i ? "," : "", i);
    sl_buf_putc(&b, '}');
    const char *msg = C(buf_text(&b), V1, "#k123 = :v");
    CHECK(strncmp(msg, "Value provided in ExpressionAttributeNames unused in expressions: keys: {",
                  72) == 0);
    CHECK(strstr(msg, "#k123,") == NULL && strstr(msg, "#k19999") != NULL);
  }
  /* The context's own checks, in the service's order. */
  CHECK_STR(sl_str_c(C("{}", V1, "a = :v")), "ExpressionAttributeNames must not be empty");
  CHECK_STR(sl_str_c(C(NULL, "{}", "a = :v")), "ExpressionAttributeValues must not be empty");
  CHECK_STR(sl_str_c(C("{\"#a\":\"\"}", V1, "#a = :v")),
            "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a");
  CHECK_STR(sl_str_c(C("{\"a\":\"x\"}", V1, "x = :v")),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"");
  CHECK_STR(sl_str_c(C("{\"#\":\"x\"}", V1, "x = :v")),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"#\"");
  CHECK_STR(sl_str_c(C("{\"#a-b\":\"x\"}", V1, "x = :v")),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"#a-b\"");
  CHECK_STR(sl_str_c(C(NULL, "{\"v\":{\"N\":\"1\"}}", "x = :v")),
            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"SS\":[]}}", "x = :v")),
            "ExpressionAttributeValues contains invalid value: One or more parameter values were "
            "invalid: An string set  may not be empty for key :v");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{}}", "x = :v")),
            "ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, "
            "must contain exactly one of the supported datatypes for key :v");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"NULL\":false}}", "x = :v")),
            "ExpressionAttributeValues contains invalid value: One or more parameter values were "
            "invalid: Null attribute value types must have the value of true for key :v");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"M\":{\"\":{\"S\":\"x\"}}}}", "x = :v")),
            "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v");
  CHECK_STR(sl_str_c(C(NULL, "{\":v\":{\"S\":\"\"}}", "x = :v")), "(= x {\"S\":\"\"})");
  /* Order: values' contents, empty maps, name keys, value keys, names. */
  CHECK_STR(sl_str_c(C("{\"#a\":\"\"}", "{\":v\":{}}", "q = = :v")),
            "ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, "
            "must contain exactly one of the supported datatypes for key :v");
  CHECK_STR(sl_str_c(C("{\"#a\":\"\"}", "{}", "q = :v")),
            "ExpressionAttributeValues must not be empty");
  CHECK_STR(sl_str_c(C("{\"y\":\"a\"}", "{\"x\":{\"N\":\"1\"}}", "q = :v")),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"y\"");
  /* Duplicate keys: the last one counts. */
  CHECK_STR(sl_str_c(C("{\"#a\":\"x\",\"#a\":\"y\"}", V1, "#a = :v")), "(= y {\"N\":\"1\"})");
}

/* ---- evaluation ---- */

#define ITEM                                                                                       \
  "{\"pk\":{\"S\":\"c1\"},\"s\":{\"S\":\"h\xc3\xa9llo\"},\"b\":{\"B\":\"AAEC\"},"                  \
  "\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"1\",\"2\"]},\"bs\":{\"BS\":[\"AA==\"]},"        \
  "\"l\":{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"}]},\"m\":{\"M\":{\"x\":{\"N\":\"1\"}}},"               \
  "\"n\":{\"N\":\"5\"},\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true}}"

static const char *EV(const char *v, const char *expr) {
  const char *values = sl_arena_printf(&A, "{\":v\":%s}", v).p;
  return E(values, expr, ITEM);
}

static void test_eval(void) {
  CHECK_STR(sl_str_c(EV("{\"N\":\"5\"}", "size(s) = :v")), "true"); /* UTF-16 units */
  CHECK_STR(sl_str_c(EV("{\"N\":\"3\"}", "size(b) = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"2\"}", "size(ss) = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"2\"}", "size(l) = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "size(m) = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "size(n) = :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "size(n) <> :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "size(t) = :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "size(nope) <> :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"4\"}", "size(s) < :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"S\":\"ll\"}", "contains(s, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"a\"}", "contains(ss, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1.0\"}", "contains(ns, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "contains(l, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"a\"}", "contains(l, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"B\":\"AQ==\"}", "contains(b, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"x\"}", "contains(m, :v)")), "false");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "contains(s, :v)")), "false");
  CHECK_STR(sl_str_c(EV("{\"SS\":[\"a\"]}", "contains(ss, :v)")), "false");
  CHECK_STR(sl_str_c(EV("{\"B\":\"AA==\"}", "contains(bs, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"hello\"}", "contains(:v, s)")), "false");
  CHECK_STR(sl_str_c(EV("{\"S\":\"h\xc3\xa9\"}", "begins_with(s, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"B\":\"AA==\"}", "begins_with(b, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"B\":\"aA==\"}", "begins_with(s, :v)")), "false");
  CHECK_STR(sl_str_c(EV("{\"S\":\"a\"}", "begins_with(l, :v)")), "false");
  CHECK_STR(sl_str_c(EV("{\"N\":\"5.0\"}", "n = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"5\"}", "n <> :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "nope <> :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "nope = :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "NOT nope = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"SS\":[\"b\",\"a\"]}", "ss = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"NS\":[\"2.0\",\"1\"]}", "ns = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"M\":{\"x\":{\"N\":\"1.00\"}}}", "m = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"}]}", "l = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"L\":[{\"N\":\"1\"},{\"S\":\"a\"}]}", "l = :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"S\":\"a\"}", "s BETWEEN :v AND :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"N\":\"5\"}", "n BETWEEN :v AND :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"a\"}", "n > :v")), "false");
  CHECK_STR(sl_str_c(EV("{\"S\":\"Z\"}", "s > :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"B\":\"AA==\"}", "b > :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"10\"}", "n < :v")), "true"); /* numeric, not textual */
  CHECK_STR(sl_str_c(EV("{\"N\":\"-10\"}", "n > :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"5.00\"}", "n IN (:v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"BOOL\":true}", "t = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"NULL\":true}", "z = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"NULL\"}", "attribute_type(z, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"NULL\"}", "attribute_type(nope, :v)")), "false");
  CHECK_STR(sl_str_c(EV("{\"S\":\"NULL\"}", "NOT attribute_type(nope, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"S\":\"x\"}", "NOT contains(nope, :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "NOT (nope BETWEEN :v AND :v)")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "l[1] = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "m.x = :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "l[5] <> :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "m[0] <> :v")), "true");
  CHECK_STR(sl_str_c(EV("{\"N\":\"1\"}", "s.x <> :v")), "true");
  CHECK_STR(sl_str_c(E(NULL, "attribute_not_exists(pk)", ITEM)), "false");
  CHECK_STR(sl_str_c(E(NULL, "attribute_not_exists(pk)", "null")), "true");
  CHECK_STR(sl_str_c(E(NULL, "attribute_exists(m.x) AND attribute_exists(l[1])", ITEM)), "true");
  CHECK_STR(sl_str_c(E(NULL, "attribute_exists(l[2]) OR attribute_exists(m.y)", ITEM)), "false");
  CHECK_STR(sl_str_c(E(V1, "a <> :v", "null")), "true");
}

/* ---- update expressions ---- */

/* Numbers compare by value: the canonical-text comparison agrees with
 * base/num on every pair. */
static void test_number_order(void) {
  static const char *const xs[] = {"0",
                                   "1",
                                   "-1",
                                   "10",
                                   "9",
                                   "0.5",
                                   "0.45",
                                   "-0.5",
                                   "-0.45",
                                   "123.456",
                                   "123.45",
                                   "-123.456",
                                   "100",
                                   "99.999",
                                   "1e-130",
                                   "-1e-130",
                                   "9.9999999999999999999999999999999999999E+125",
                                   "-9.9999999999999999999999999999999999999E+125",
                                   "0.1",
                                   "0.01",
                                   "2",
                                   "1.5",
                                   "-2",
                                   "-1.5",
                                   "1000000",
                                   "999999.9999"};
  size_t n = SL_ARRAY_LEN(xs);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++) {
      sl_num a, b;
      sl_num_parse(sl_str_c(xs[i]), &a);
      sl_num_parse(sl_str_c(xs[j]), &b);
      const char *values =
          sl_arena_printf(&A, "{\":a\":{\"N\":\"%s\"},\":b\":{\"N\":\"%s\"}}", xs[i], xs[j]).p;
      const char *want = sl_num_cmp(&a, &b) < 0 ? "true" : "false";
      bad +=
          strcmp(E(values, "x < :b OR (:a < :b AND attribute_not_exists(x))", "null"), want) != 0;
    }
  }
  CHECK_INT(bad, 0);
}

static void test_update_grammar(void) {
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v, b = :v")),
            "SET a = {\"N\":\"1\"}, b = {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(U(NULL, V1, "set a=:v remove b, c[1] add d :v")),
            "SET a = {\"N\":\"1\"} REMOVE b, c[1] ADD d {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = b + :v, c = (:v - d)")),
            "SET a = (+ b {\"N\":\"1\"}), c = (- {\"N\":\"1\"} d)");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = if_not_exists(a, :v) + :v")),
            "SET a = (+ (if_not_exists a {\"N\":\"1\"}) {\"N\":\"1\"})");
  CHECK_STR(
      sl_str_c(U(NULL, "{\":l\":{\"L\":[]}}", "SET a = list_append(if_not_exists(a, :l), :l)")),
      "SET a = (list_append (if_not_exists a {\"L\":[]}) {\"L\":[]})");
  CHECK_STR(sl_str_c(U(NULL, "{\":s\":{\"SS\":[\"x\"]}}", "DELETE a :s ADD b :s")),
            "DELETE a {\"SS\":[\"x\"]} ADD b {\"SS\":[\"x\"]}");
  CHECK_STR(sl_str_c(U(NULL, NULL, "REMOVE size")), "REMOVE size");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a[1] = :v, a[2] = :v")),
            "SET a[1] = {\"N\":\"1\"}, a[2] = {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v SET b = :v")),
            "Invalid UpdateExpression: The \"SET\" section can only be used once in an update "
            "expression;");
  CHECK_STR(sl_str_c(U(NULL, V1, "REMOVE a SET b = :v REMOVE c")),
            "Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update "
            "expression;");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v,")),
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \",\"");
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET")),
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"SET\"");
  CHECK_STR(sl_str_c(U(NULL, NULL, "")),
            "Invalid UpdateExpression: The expression can not be empty;");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v + :v + :v")),
            "Invalid UpdateExpression: Syntax error; token: \"+\", near: \":v + :v\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = if_not_exists(b, :v + :v)")),
            "Invalid UpdateExpression: Syntax error; token: \"+\", near: \":v + :v\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v REMOVE")),
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"REMOVE\"");
  CHECK_STR(sl_str_c(U(NULL, NULL, "REMOVE a, ")),
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \", \"");
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET a = b = c")),
            "Invalid UpdateExpression: Syntax error; token: \"=\", near: \"b = c\"");
  CHECK_STR(sl_str_c(U(NULL, NULL, "ADD n n")),
            "Invalid UpdateExpression: Syntax error; token: \"n\", near: \"n n\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "ADD n = :v")),
            "Invalid UpdateExpression: Syntax error; token: \"=\", near: \"n = :v\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET set = :v")),
            "Invalid UpdateExpression: Syntax error; token: \"set\", near: \"SET set =\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v, REMOVE b")),
            "Invalid UpdateExpression: Syntax error; token: \"REMOVE\", near: \", REMOVE b\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v,, b = :v")),
            "Invalid UpdateExpression: Syntax error; token: \",\", near: \",, b\"");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET status = :v")),
            "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: "
            "status");
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET a = if_not_exists(a)")),
            "Invalid UpdateExpression: Incorrect number of operands for operator or function; "
            "operator or function: if_not_exists, number of operands: 1");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = if_not_exists(:v, n)")),
            "Invalid UpdateExpression: Operator or function requires a document path; operator or "
            "function: if_not_exists");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = list_append(l, :v)")),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: list_append, operand type: N");
  CHECK_STR(sl_str_c(U(NULL, "{\":l\":{\"L\":[]}}", "SET a = list_append(l)")),
            "Invalid UpdateExpression: Incorrect number of operands for operator or function; "
            "operator or function: list_append, number of operands: 1");
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET a = size(l)")),
            "Invalid UpdateExpression: The function is not allowed in an update expression; "
            "function: size");
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET a = attribute_exists(l)")),
            "Invalid UpdateExpression: The function is not allowed in an update expression; "
            "function: attribute_exists");
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET a = foo(l)")),
            "Invalid UpdateExpression: Invalid function name; function: foo");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v - list_append(b, :v)")),
            "Invalid UpdateExpression: The function is not allowed to be used this way in an "
            "expression; function: list_append");
  CHECK_STR(sl_str_c(U(NULL, "{\":a\":{\"N\":\"1\"},\":b\":{\"S\":\"x\"}}", "SET a = :a + :b")),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: +, operand type: S");
  CHECK_STR(sl_str_c(U(NULL, "{\":s\":{\"S\":\"x\"}}", "ADD n :s")),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND");
  CHECK_STR(sl_str_c(U(NULL, "{\":s\":{\"L\":[]}}", "ADD n :s")),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND");
  CHECK_STR(sl_str_c(U(NULL, V1, "DELETE ss :v")),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND");
  CHECK_STR(sl_str_c(U(NULL, "{\":s\":{\"S\":\"x\"}}", "DELETE ss :s")),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "DELETE, operand type: STRING, typeSet: ALLOWED_FOR_DELETE_OPERAND");
  /* Overlapping and conflicting paths, in request order. */
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v REMOVE a")),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a], path two: [a]");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a = :v, a.b = :v")),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a], path two: [a, b]");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a.b = :v, a[1] = :v")),
            "Invalid UpdateExpression: Two document paths conflict with each other; must remove or "
            "rewrite one of these paths; path one: [a, b], path two: [a, [1]]");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a[1] = :v, a[1].b = :v")),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a, [1]], path two: [a, [1], b]");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a.b = :v REMOVE a.b.c")),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a, b], path two: [a, b, c]");
  CHECK_STR(sl_str_c(U(NULL, V1, "SET a[1].b = :v, a.c = :v")),
            "Invalid UpdateExpression: Two document paths conflict with each other; must remove or "
            "rewrite one of these paths; path one: [a, [1], b], path two: [a, c]");
  CHECK_STR(sl_str_c(U("{\"#a\":\"a\"}", V1, "SET #a = :v, a.b = :v")),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a], path two: [a, b]");
  CHECK_STR(sl_str_c(U(NULL, V1, "ADD n :v, n :v")),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [n], path two: [n]");
  {
    sl_expr_ctx cx;
    sl_expr_update *u;
    CHECK(begin(&cx, "{\"#p\":\"pk\"}", V1));
    CHECK(sl_expr_parse_update(&cx, SL_STR("SET a = :v, #p.x = :v"), &u) == SL_OK);
    CHECK(sl_expr_update_check_keys(&cx, u, &KS_HR) == SL_E_VALIDATION);
    CHECK_STR(F.message, "One or more parameter values were invalid: Cannot update attribute pk. "
                         "This attribute is part of the key");
    CHECK(begin(&cx, NULL, V1));
    CHECK(sl_expr_parse_update(&cx, SL_STR("ADD sk :v"), &u) == SL_OK);
    CHECK(sl_expr_update_check_keys(&cx, u, &KS_HR) == SL_E_VALIDATION);
    CHECK_STR(F.message, "One or more parameter values were invalid: Cannot update attribute sk. "
                         "This attribute is part of the key");
    CHECK(begin(&cx, NULL, V1));
    CHECK(sl_expr_parse_update(&cx, SL_STR("ADD sk :v"), &u) == SL_OK);
    CHECK(sl_expr_update_check_keys(&cx, u, &KS_H) == SL_OK);
  }
}

#define UI                                                                                         \
  "{\"pk\":{\"S\":\"u1\"},\"n\":{\"N\":\"5\"},\"s\":{\"S\":\"str\"},"                              \
  "\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]},"                                     \
  "\"m\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"L\":[{\"S\":\"a\"}]}}},"                             \
  "\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"1\",\"2\"]}}"

static void test_update_apply(void) {
  CHECK_STR(sl_str_c(UP(V1, "SET a = :v", "null")), "{\"a\":{\"N\":\"1\"}}");
  CHECK_STR(sl_str_c(UP(NULL, "SET a = n", "{\"n\":{\"N\":\"5\"}}")),
            "{\"a\":{\"N\":\"5\"},\"n\":{\"N\":\"5\"}}");
  CHECK_STR(sl_str_c(UP(NULL, "SET a = b, b = a", "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"2\"}}")),
            "{\"a\":{\"N\":\"2\"},\"b\":{\"N\":\"1\"}}");
  CHECK_STR(sl_str_c(UP(NULL, "SET a = b", UI)),
            "The provided expression refers to an attribute that does not exist in the item");
  CHECK_STR(sl_str_c(UP(V1, "SET n = n + :v", "{\"n\":{\"N\":\"5\"}}")), "{\"n\":{\"N\":\"6\"}}");
  CHECK_STR(sl_str_c(UP(V1, "SET n = n - :v", "{\"n\":{\"N\":\"5\"}}")), "{\"n\":{\"N\":\"4\"}}");
  CHECK_STR(sl_str_c(UP(V1, "SET a = s + :v", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP(V1, "SET a = :v + s", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP(V1, "SET a = nope + :v", UI)),
            "The provided expression refers to an attribute that does not exist in the item");
  CHECK_STR(sl_str_c(UP(V1, "SET n = if_not_exists(n, :v), z = if_not_exists(z, :v)",
                        "{\"n\":{\"N\":\"5\"}}")),
            "{\"n\":{\"N\":\"5\"},\"z\":{\"N\":\"1\"}}");
  CHECK_STR(sl_str_c(UP(V1, "SET c = if_not_exists(c, :v) + :v", "null")), "{\"c\":{\"N\":\"2\"}}");
  CHECK_STR(sl_str_c(UP("{\":l\":{\"L\":[{\"N\":\"9\"}]}}", "SET l = list_append(l, :l)",
                        "{\"l\":{\"L\":[{\"N\":\"1\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"9\"}]}}");
  CHECK_STR(sl_str_c(UP("{\":l\":{\"L\":[{\"N\":\"9\"}]}}", "SET l = list_append(:l, l)",
                        "{\"l\":{\"L\":[{\"N\":\"1\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"9\"},{\"N\":\"1\"}]}}");
  CHECK_STR(sl_str_c(UP("{\":l\":{\"L\":[{\"N\":\"9\"}]}}", "SET a = list_append(z, :l)", UI)),
            "The provided expression refers to an attribute that does not exist in the item");
  CHECK_STR(sl_str_c(UP("{\":l\":{\"L\":[{\"N\":\"9\"}]}}", "SET a = list_append(s, :l)", UI)),
            "An operand in the update expression has an incorrect data type");
  /* Nested paths. */
  CHECK_STR(sl_str_c(UP(V1, "SET m.z = :v", "{\"m\":{\"M\":{\"x\":{\"N\":\"1\"}}}}")),
            "{\"m\":{\"M\":{\"x\":{\"N\":\"1\"},\"z\":{\"N\":\"1\"}}}}");
  CHECK_STR(sl_str_c(UP(V1, "SET m.z.w = :v", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(V1, "SET z.w = :v", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(V1, "SET n[0] = :v", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(V1, "SET m[0] = :v", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(V1, "SET a[1] = :v, a[2] = :v", "null")),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(V1, "SET l[1] = :v", "{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"2\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"}]}}");
  CHECK_STR(sl_str_c(UP("{\":v\":{\"N\":\"1\"},\":w\":{\"N\":\"2\"}}", "SET l[11] = :w, l[10] = :v",
                        "{\"l\":{\"L\":[{\"N\":\"0\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"2\"}]}}");
  CHECK_STR(sl_str_c(UP("{\":w\":{\"N\":\"2\"}}", "SET l[0] = :w REMOVE l[1]",
                        "{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"5\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"2\"},{\"N\":\"5\"}]}}");
  CHECK_STR(
      sl_str_c(UP(NULL, "REMOVE l[0], l[2]",
                  "{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}")),
      "{\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"}]}}");
  CHECK_STR(sl_str_c(UP(NULL, "REMOVE z, m.z, l[5]", UI)), IT(UI));
  CHECK_STR(sl_str_c(UP(NULL, "REMOVE z.w", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(NULL, "REMOVE m.z.w", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(NULL, "REMOVE s.x", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(NULL, "REMOVE m.y[0], m.x",
                        "{\"m\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"L\":[{\"S\":\"a\"}]}}}}")),
            "{\"m\":{\"M\":{\"y\":{\"L\":[]}}}}");
  /* if_not_exists checks its first operand's distinctness, and evaluates its
   * fallback even when unused. */
  CHECK_STR(sl_str_c(U(NULL, NULL, "SET a = if_not_exists(l[1], l[1])")),
            "Invalid UpdateExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: if_not_exists, first operand: [l, "
            "[1]]");
  CHECK_STR(sl_str_c(UP(NULL, "SET a = if_not_exists(n, nope)", UI)),
            "The provided expression refers to an attribute that does not exist in the item");
  /* With several failing actions, the one reported is chosen by the
   * top-level name's HashMap bucket, highest first (observed). */
  CHECK_STR(sl_str_c(UP("{\":ns\":{\"NS\":[\"2\"]},\":bs\":{\"BS\":[\"AA==\"]}}",
                        "ADD l[1] :ns DELETE s.x :bs", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP("{\":ns\":{\"NS\":[\"2\"]},\":bs\":{\"BS\":[\"AA==\"]}}",
                        "ADD ss :ns DELETE s.x :bs", UI)),
            "The document path provided in the update expression is invalid for update");
  CHECK_STR(sl_str_c(UP(V1, "SET a = nope, s = s + :v", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP("{\":l\":{\"L\":[]}}", "SET a = list_append(s, :l), c = nope", UI)),
            "The provided expression refers to an attribute that does not exist in the item");
  /* ADD and DELETE. */
  CHECK_STR(sl_str_c(UP(V1, "ADD n :v", "{\"n\":{\"N\":\"5\"}}")), "{\"n\":{\"N\":\"6\"}}");
  CHECK_STR(sl_str_c(UP(V1, "ADD z :v", "null")), "{\"z\":{\"N\":\"1\"}}");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"SS\":[\"c\",\"0\"]}}", "ADD ss :s",
                        "{\"ss\":{\"SS\":[\"a\",\"b\"]}}")),
            "{\"ss\":{\"SS\":[\"0\",\"a\",\"b\",\"c\"]}}");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"SS\":[\"c\"]}}", "ADD ns :s", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP(V1, "ADD s :v", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP(V1, "ADD m.x :v", "{\"m\":{\"M\":{\"x\":{\"N\":\"1\"}}}}")),
            "{\"m\":{\"M\":{\"x\":{\"N\":\"2\"}}}}");
  CHECK_STR(sl_str_c(UP(V1, "ADD l[0] :v", "{\"l\":{\"L\":[{\"N\":\"1\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"2\"}]}}");
  CHECK_STR(sl_str_c(UP(V1, "ADD l[5] :v", "{\"l\":{\"L\":[{\"N\":\"0\"}]}}")),
            "{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"}]}}");
  CHECK_STR(
      sl_str_c(UP("{\":s\":{\"SS\":[\"a\"]}}", "DELETE ss :s", "{\"ss\":{\"SS\":[\"a\",\"b\"]}}")),
      "{\"ss\":{\"SS\":[\"b\"]}}");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"SS\":[\"a\",\"b\"]}}", "DELETE ss :s",
                        "{\"ss\":{\"SS\":[\"a\",\"b\"]},\"n\":{\"N\":\"5\"}}")),
            "{\"n\":{\"N\":\"5\"}}");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"SS\":[\"a\"]}}", "DELETE z :s", "{\"n\":{\"N\":\"5\"}}")),
            "{\"n\":{\"N\":\"5\"}}");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"NS\":[\"1\"]}}", "DELETE n :s", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"SS\":[\"1\"]}}", "DELETE ns :s", UI)),
            "An operand in the update expression has an incorrect data type");
  CHECK_STR(sl_str_c(UP("{\":s\":{\"NS\":[\"1.0\",\"3\"]}}", "DELETE ns :s",
                        "{\"ns\":{\"NS\":[\"1\",\"2\"]}}")),
            "{\"ns\":{\"NS\":[\"2\"]}}");
}

/* {"M":{"x": ... {"N":"1"} ...}} with n maps. */
static const char *nest(int n) {
  sl_buf b;
  sl_buf_init(&b, &A);
  for (int i = 0; i < n; i++)
    sl_buf_puts(&b, SL_STR("{\"M\":{\"x\":"));
  sl_buf_puts(&b, SL_STR("{\"N\":\"1\"}"));
  for (int i = 0; i < n; i++)
    sl_buf_puts(&b, SL_STR("}}"));
  return buf_text(&b);
}

static void test_update_nesting(void) {
  /* An attribute nests at most 32 levels (its value is level 1); a request
   * value one more (observed on DynamoDB Local). */
  const char *v31 = sl_arena_printf(&A, "{\":v\":%s}", nest(31)).p;
  const char *v32 = sl_arena_printf(&A, "{\":v\":%s}", nest(32)).p;
  const char *v30 = sl_arena_printf(&A, "{\":v\":%s}", nest(30)).p;
  const char *v33 = sl_arena_printf(&A, "{\":v\":%s}", nest(33)).p;
  CHECK(strncmp(UP(v31, "SET a = :v", "null"), "{\"a\":", 5) == 0);
  CHECK_STR(sl_str_c(UP(v32, "SET a = :v", "null")),
            "Nesting Levels have exceeded supported limits");
  CHECK(strncmp(UP(v30, "SET a.b = :v", "{\"a\":{\"M\":{}}}"), "{\"a\":", 5) == 0);
  CHECK_STR(sl_str_c(UP(v31, "SET a.b = :v", "{\"a\":{\"M\":{}}}")),
            "Nesting Levels have exceeded supported limits");
  CHECK_STR(sl_str_c(E(v32, "a = :v", "null")), "false");
  CHECK_STR(
      sl_str_c(E(v33, "a = :v", "null")),
      "ExpressionAttributeValues contains invalid value: Nesting Levels have exceeded supported "
      "limits: Attributes in the item have nested levels beyond supported limit for key :v");
}

static void test_update_numbers(void) {
  /* Exact arithmetic; an inexact result is reported with the overflow text
   * by the service (base/num.h; DynamoDB Local uses its precision text). */
  CHECK_STR(
      sl_str_c(UP("{\":a\":{\"N\":\"1e50\"},\":b\":{\"N\":\"1\"}}", "SET a = :a + :b", "null")),
      "Number overflow. Attempting to store a number with magnitude larger than supported "
      "range");
  CHECK_STR(sl_str_c(UP("{\":a\":{\"N\":\"9e125\"},\":b\":{\"N\":\"9e125\"}}", "SET a = :a + :b",
                        "null")),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
  CHECK_STR(sl_str_c(UP("{\":a\":{\"N\":\"2e-130\"},\":b\":{\"N\":\"1.5e-130\"}}",
                        "SET a = :a - :b", "null")),
            "Number underflow. Attempting to store a number with magnitude smaller than supported "
            "range");
  CHECK_STR(sl_str_c(UP("{\":a\":{\"N\":\"1e50\"}}", "ADD n :a", "{\"n\":{\"N\":\"5\"}}")),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
  CHECK_STR(
      sl_str_c(UP("{\":a\":{\"N\":\"1.5\"},\":b\":{\"N\":\"-1.50\"}}", "SET a = :a + :b", "null")),
      "{\"a\":{\"N\":\"0\"}}");
  CHECK_STR(
      sl_str_c(UP("{\":a\":{\"N\":\"0.1\"},\":b\":{\"N\":\"0.2\"}}", "SET a = :a + :b", "null")),
      "{\"a\":{\"N\":\"0.3\"}}");
  CHECK_STR(sl_str_c(UP("{\":a\":{\"N\":\"99999999999999999999999999999999999999\"},\":b\":{\"N\":"
                        "\"1\"}}",
                        "SET a = :a + :b", "null")),
            "{\"a\":{\"N\":\"100000000000000000000000000000000000000\"}}");
  CHECK_STR(sl_str_c(UP("{\":a\":{\"N\":\"-1\"}}", "ADD n :a", "{\"n\":{\"N\":\"1\"}}")),
            "{\"n\":{\"N\":\"0\"}}");
}

static void test_update_returned(void) {
  /* Alternator's test_update_item_returnvalues_nested, run against AWS. */
  const char *item =
      "{\"p\":{\"S\":\"x\"},\"a\":{\"M\":{\"b\":{\"S\":\"dog\"},\"c\":{\"L\":[{\"N\":"
      "\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}},\"d\":{\"S\":\"cat\"}}";
  const char *vals = "{\":val\":{\"N\":\"8\"},\":val2\":{\"S\":\"yo\"}}";
  CHECK_STR(sl_str_c(UR(vals, "SET a.b = :val2", item, true)),
            "{\"a\":{\"M\":{\"b\":{\"S\":\"dog\"}}}}");
  CHECK_STR(sl_str_c(UR(vals, "SET a.c[1] = :val, a.b = :val2", item, true)),
            "{\"a\":{\"M\":{\"b\":{\"S\":\"dog\"},\"c\":{\"L\":[{\"N\":\"2\"}]}}}}");
  CHECK_STR(sl_str_c(UR(vals, "SET a.c[1] = :val, a.b = :val2", item, false)),
            "{\"a\":{\"M\":{\"b\":{\"S\":\"yo\"},\"c\":{\"L\":[{\"N\":\"8\"}]}}}}");
  CHECK_STR(sl_str_c(UR(NULL, "REMOVE a.c[1], a.c[3]", item, true)),
            "{\"a\":{\"M\":{\"c\":{\"L\":[{\"N\":\"2\"}]}}}}");
  CHECK_STR(sl_str_c(UR(vals, "SET a.x1 = :val", item, true)), "{}");
  CHECK_STR(sl_str_c(UR(vals, "SET a.x2 = :val", item, false)),
            "{\"a\":{\"M\":{\"x2\":{\"N\":\"8\"}}}}");
  CHECK_STR(sl_str_c(UR(vals, "SET a.c[100] = :val", item, false)), "{}");
  CHECK_STR(sl_str_c(UR(NULL, "REMOVE a.c[1]", item, false)),
            "{\"a\":{\"M\":{\"c\":{\"L\":[{\"N\":\"3\"}]}}}}");
  CHECK_STR(sl_str_c(UR(NULL, "REMOVE d", item, false)), "{}");
}

/* ---- projections ---- */

#define PI                                                                                         \
  "{\"pk\":{\"S\":\"p1\"},\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"0\"},{\"M\":{\"c\":{\"N\":\"1\"},"  \
  "\"d\":{\"N\":\"2\"}}},{\"N\":\"2\"}]},\"e\":{\"S\":\"x\"}}},"                                   \
  "\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]},\"s\":{\"S\":\"str\"}}"

static void test_projection(void) {
  CHECK_STR(sl_str_c(P(NULL, "a, b.c[2], #x")),
            "Invalid ProjectionExpression: An expression attribute name used in the document path "
            "is not defined; attribute name: #x");
  CHECK_STR(sl_str_c(P("{\"#x\":\"a b\"}", "a.b[1].c, #x")), "a.b[1].c, `a b`");
  CHECK_STR(sl_str_c(P(NULL, "a, a.b")),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a], path two: [a, b]");
  CHECK_STR(sl_str_c(P(NULL, "a.b, a")),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a, b], path two: [a]");
  CHECK_STR(sl_str_c(P(NULL, "a, a")),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must remove "
            "or rewrite one of these paths; path one: [a], path two: [a]");
  CHECK_STR(sl_str_c(P(NULL, "a[1], a.b")),
            "Invalid ProjectionExpression: Two document paths conflict with each other; must "
            "remove or rewrite one of these paths; path one: [a, [1]], path two: [a, b]");
  CHECK_STR(sl_str_c(P(NULL, "")),
            "Invalid ProjectionExpression: The expression can not be empty;");
  CHECK_STR(sl_str_c(P(NULL, "a,")),
            "Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\"");
  CHECK_STR(sl_str_c(P(NULL, ",a")),
            "Invalid ProjectionExpression: Syntax error; token: \",\", near: \",a\"");
  CHECK_STR(sl_str_c(P(NULL, "size(a)")),
            "Invalid ProjectionExpression: Syntax error; token: \"(\", near: \"size(a\"");
  CHECK_STR(sl_str_c(P(NULL, "a.status")),
            "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: "
            "status");
  CHECK_STR(sl_str_c(P("{\"#x\":\"a\",\"#y\":\"b\"}", "#x")),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#y}");
  CHECK_STR(
      sl_str_c(PR(NULL, "a.b", PI)),
      "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"0\"},{\"M\":{\"c\":{\"N\":\"1\"},\"d\":{\"N\":\"2\"}"
      "}},{\"N\":\"2\"}]}}}}");
  CHECK_STR(sl_str_c(PR(NULL, "a.b[1].c", PI)), "{\"a\":{\"M\":{\"b\":{\"L\":[{\"M\":{\"c\":{\"N\":"
                                                "\"1\"}}}]}}}}");
  CHECK_STR(sl_str_c(PR(NULL, "a.b[1].c, a.e", PI)),
            "{\"a\":{\"M\":{\"b\":{\"L\":[{\"M\":{\"c\":{\"N\":\"1\"}}}]},\"e\":{\"S\":\"x\"}}}}");
  CHECK_STR(sl_str_c(PR(NULL, "l[3], l[1]", PI)), "{\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"}]}}");
  CHECK_STR(sl_str_c(PR(NULL, "l[9]", PI)), "{}");
  CHECK_STR(sl_str_c(PR(NULL, "s[0], l[0][0], nope", PI)), "{}");
  CHECK_STR(sl_str_c(PR(NULL, "s.x", PI)), "{}");
  CHECK_STR(sl_str_c(PR(NULL, "a.b[1].c, a.b[1].d", PI)),
            "{\"a\":{\"M\":{\"b\":{\"L\":[{\"M\":{\"c\":{\"N\":\"1\"},\"d\":{\"N\":\"2\"}}}]}}}}");
  CHECK_STR(sl_str_c(PR(NULL, "s, pk, a.b[0], l[0]", PI)),
            "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"0\"}]}}},\"l\":{\"L\":[{\"N\":\"0\"}]},\"pk\":{"
            "\"S\":\"p1\"},\"s\":{\"S\":\"str\"}}");
}

/* ---- key conditions ---- */

#define KV "{\":v\":{\"S\":\"x\"},\":n\":{\"N\":\"1\"}}"

/* A multi-attribute key (facts §14): (a S, b N) then (x S, y N, z S). */
static sl_key_schema tuple_schema(void) {
  sl_key_schema ks;
  memset(&ks, 0, sizeof(ks));
  sl_key_schema_add(&ks, true, SL_STR("a"), SL_AV_S);
  sl_key_schema_add(&ks, true, SL_STR("b"), SL_AV_N);
  sl_key_schema_add(&ks, false, SL_STR("x"), SL_AV_S);
  sl_key_schema_add(&ks, false, SL_STR("y"), SL_AV_N);
  sl_key_schema_add(&ks, false, SL_STR("z"), SL_AV_S);
  return ks;
}

/* Equality on every partition attribute, sort attributes left to right, only
 * the last one used under a range condition; the texts DynamoDB Local 3.3
 * answers (tests/conformance/test_gsi_multi_key.py pins them end to end). */
static void test_key_condition_tuple(void) {
  sl_key_schema ks = tuple_schema();
  const char *v = "{\":a\":{\"S\":\"A\"},\":b\":{\"N\":\"1\"},\":x\":{\"S\":\"X\"},"
                  "\":y\":{\"N\":\"2\"},\":z\":{\"S\":\"Z\"}}";
  CHECK(sl_key_is_tuple(&ks) && sl_key_n_hash(&ks) == 2 && sl_key_n_range(&ks) == 3);
  CHECK(sl_str_eq_c(ks.hash, "a") && sl_str_eq_c(ks.range, "x"));
  CHECK_STR(
      sl_str_c(K(&ks, NULL, "{\":a\":{\"S\":\"A\"},\":b\":{\"N\":\"1\"}}", "b = :b AND a = :a")),
      "a = {\"S\":\"A\"} AND b = {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&ks, NULL,
                       "{\":a\":{\"S\":\"A\"},\":b\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"},"
                       "\":x\":{\"S\":\"X\"}}",
                       "a = :a AND b = :b AND x = :x AND y > :y")),
            "a = {\"S\":\"A\"} AND b = {\"N\":\"1\"} AND x = {\"S\":\"X\"} AND y > {\"N\":\"2\"}");
  CHECK_STR(
      sl_str_c(K(&ks, NULL, "{\":a\":{\"S\":\"A\"},\":b\":{\"N\":\"1\"},\":x\":{\"S\":\"X\"}}",
                 "a = :a AND b = :b AND begins_with(x, :x)")),
      "a = {\"S\":\"A\"} AND b = {\"N\":\"1\"} AND begins_with(x, {\"S\":\"X\"})");
  CHECK_STR(sl_str_c(K(&ks, NULL, "{\":a\":{\"S\":\"A\"}}", "a = :a")),
            "HASH key attributes b must have equality conditions specified in the query");
  CHECK_STR(sl_str_c(K(&ks, NULL, "{\":b\":{\"N\":\"1\"}}", "b > :b")),
            "HASH key attributes a, b must have equality conditions specified in the query");
  CHECK_STR(sl_str_c(K(&ks, NULL, v, "a = :a AND b = :b AND z = :z AND x = :x AND y < :y")),
            "RANGE key attributes y must have equality conditions specified in the query because "
            "a condition is present on key attribute z");
  CHECK_STR(
      sl_str_c(K(&ks, NULL, "{\":a\":{\"S\":\"A\"},\":b\":{\"N\":\"1\"},\":z\":{\"S\":\"Z\"}}",
                 "a = :a AND b = :b AND z = :z")),
      "RANGE key attributes x, y must have equality conditions specified in the query "
      "because a condition is present on key attribute z");
  CHECK_STR(
      sl_str_c(K(&ks, NULL, "{\":a\":{\"S\":\"A\"},\":b\":{\"N\":\"1\"},\":z\":{\"S\":\"Z\"}}",
                 "a = :a AND b = :b AND q = :z")),
      "Query condition missed key schema element");
  CHECK_STR(
      sl_str_c(K(&ks, NULL, "{\":a\":{\"S\":\"A\"},\":b\":{\"S\":\"1\"}}", "a = :a AND b = :b")),
      "One or more parameter values were invalid: Condition parameter type does not match "
      "schema type");
}

static void test_key_condition(void) {
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, "{\":v\":{\"S\":\"x\"}}", "pk = :v")), "pk = {\"S\":\"x\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND sk = :n")),
            "pk = {\"S\":\"x\"} AND sk = {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "sk = :n AND pk = :v")),
            "pk = {\"S\":\"x\"} AND sk = {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND :n < sk")),
            "pk = {\"S\":\"x\"} AND sk > {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "(pk = :v) AND (sk <= :n)")),
            "pk = {\"S\":\"x\"} AND sk <= {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "(:v = pk AND sk BETWEEN :n AND :n)")),
            "pk = {\"S\":\"x\"} AND sk BETWEEN {\"N\":\"1\"} AND {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, "{\"#p\":\"pk\"}", KV, "#p = :v AND sk >= :n")),
            "pk = {\"S\":\"x\"} AND sk >= {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND begins_with(sk, :n)")),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, "{\":v\":{\"S\":\"x\"},\":s\":{\"S\":\"a\"}}",
                       "pk = :v AND begins_with(sk, :s)")),
            "One or more parameter values were invalid: Condition parameter type does not match "
            "schema type");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, "{\":v\":{\"N\":\"1\"}}", "pk = :v")),
            "One or more parameter values were invalid: Condition parameter type does not match "
            "schema type");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, "{\":n\":{\"N\":\"1\"}}", "sk = :n")),
            "Query condition missed key schema element: pk");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND x = :n")),
            "Query condition missed key schema element: sk");
  CHECK_STR(sl_str_c(K(&KS_H, NULL, KV, "pk = :v AND sk = :n")),
            "Query key condition not supported");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk < :v")), "Query key condition not supported");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk BETWEEN :v AND :v")),
            "Query key condition not supported");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "begins_with(pk, :v)")),
            "Query key condition not supported");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk <> :v")),
            "Invalid operator used in KeyConditionExpression: <>");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v OR sk = :n")),
            "Invalid operator used in KeyConditionExpression: OR");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "NOT pk = :v")),
            "Invalid operator used in KeyConditionExpression: NOT");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk IN (:v)")),
            "Invalid operator used in KeyConditionExpression: IN");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND attribute_exists(sk)")),
            "Invalid operator used in KeyConditionExpression: attribute_exists");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND contains(sk, :n)")),
            "Invalid operator used in KeyConditionExpression: contains");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND size(sk) = :n")),
            "KeyConditionExpressions cannot contain nested operations");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND sk = :n AND sk = :n")),
            "KeyConditionExpressions must only contain one condition per key");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND pk = :v")),
            "KeyConditionExpressions must only contain one condition per key");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, NULL, "pk = pk")),
            "Invalid KeyConditionExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [pk]");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, NULL, "pk = sk")),
            "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
            "condition");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, ":v < :n")),
            "Invalid condition in KeyConditionExpression: No key attribute specified");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, ":n BETWEEN sk AND :n")),
            "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key "
            "attribute as its first operand");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "begins_with(:v, :v)")),
            "Invalid condition in KeyConditionExpression: begins_with operator must have the key "
            "attribute as its first operand");
  /* Nested paths first (the partition key's first), then operators. */
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, ":v <= pk AND sk[0] >= pk.a")),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
            "allowed: Key: pk");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk <> :v AND sk.x = :n")),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
            "allowed: Key: sk");
  /* The partition key's type, then its operator, then emptiness, then the
   * other attribute. */
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, ":n >= pk AND :v = x")),
            "One or more parameter values were invalid: Condition parameter type does not match "
            "schema type");
  CHECK_STR(
      sl_str_c(K(&KS_HR, NULL, "{\":e\":{\"S\":\"\"},\":k\":{\"N\":\"5\"}}", ":e < pk AND :k > x")),
      "Query key condition not supported");
  CHECK_STR(
      sl_str_c(K(&KS_HR, NULL, "{\":e\":{\"S\":\"\"},\":k\":{\"N\":\"5\"}}", ":e = pk AND x = :k")),
      "One or more parameter values are not valid. The AttributeValue for a key attribute "
      "cannot contain an empty string value. Key: pk");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk.a = :v")),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
            "allowed: Key: pk");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk[0] = :v")),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
            "allowed: Key: pk");
  CHECK_STR(
      sl_str_c(K(&KS_HR, NULL, "{\":v\":{\"S\":\"x\"},\":a\":{\"N\":\"2\"},\":b\":{\"N\":\"1\"}}",
                 "pk = :v AND sk BETWEEN :a AND :b")),
      "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
      "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, "
      "upper bound operand: AttributeValue: {N:1}");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, "{\":v\":{\"S\":\"x\"},\":n\":{\"NULL\":true}}",
                       "pk = :v AND sk > :n")),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: >, operand type: NULL");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "status = :v")),
            "Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved "
            "keyword: status");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, KV, "pk = :v AND sk")),
            "Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\", near: \"sk\"");
  CHECK_STR(sl_str_c(K(&KS_HR, NULL, NULL, "")),
            "Invalid KeyConditionExpression: The expression can not be empty;");
  {
    sl_expr_ctx cx;
    sl_expr *c;
    CHECK(begin(&cx, NULL, V1));
    CHECK(sl_expr_parse_condition(&cx, SL_EXPR_FILTER, SL_STR("a = :v OR pk = :v"), &c) == SL_OK);
    CHECK(sl_expr_filter_check_keys(&cx, c, &KS_HR) == SL_E_VALIDATION);
    CHECK_STR(F.message, "Filter Expression can only contain non-primary key attributes: Primary "
                         "key attribute: pk");
    CHECK(begin(&cx, NULL, V1));
    CHECK(sl_expr_parse_condition(&cx, SL_EXPR_FILTER, SL_STR("a = = :v"), &c) != SL_OK);
    CHECK_STR(F.message, "Invalid FilterExpression: Syntax error; token: \"=\", near: \"= = :v\"");
  }
}

/* ---- legacy parameters ---- */

#define LI                                                                                         \
  "{\"a\":{\"N\":\"1\"},\"s\":{\"S\":\"abc\"},\"ss\":{\"SS\":[\"x\",\"y\"]},"                      \
  "\"l\":{\"L\":[{\"S\":\"x\"}]}}"

/* Expected (+ ConditionalOperator) evaluated on LI. */
static const char *LE(const char *expected, const char *op) {
  sl_expr_ctx cx;
  sl_expr *c;
  sl_item it;
  if (!begin(&cx, NULL, NULL))
    return fail_text();
  if (sl_expr_legacy_expected(&cx, json(expected), op ? sl_str_c(op) : SL_STR_NULL, &c) != SL_OK)
    return fail_text();
  if (!item_of(LI, &it))
    return "bad item";
  return sl_expr_eval(c, &it) ? "true" : "false";
}

static const char *LEP(const char *expected) {
  sl_expr_ctx cx;
  sl_expr *c;
  if (!begin(&cx, NULL, NULL) ||
      sl_expr_legacy_expected(&cx, json(expected), SL_STR_NULL, &c) != SL_OK)
    return fail_text();
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_expr_print(&b, c);
  return buf_text(&b);
}

static const char *LU(const char *updates, const char *item) {
  sl_expr_ctx cx;
  sl_expr_update *u;
  sl_item it, out;
  if (!begin(&cx, NULL, NULL) || sl_expr_legacy_attribute_updates(&cx, json(updates), &u) != SL_OK)
    return fail_text();
  if (!item_of(item, &it))
    return "bad item";
  if (sl_expr_update_apply(&cx, u, &it, &out) != SL_OK)
    return fail_text();
  return item_text(&out);
}

static const char *LK(const sl_key_schema *ks, const char *conds) {
  sl_expr_ctx cx;
  sl_expr_keycond k;
  if (!begin(&cx, NULL, NULL) || sl_expr_legacy_key_conditions(&cx, json(conds), ks, &k) != SL_OK)
    return fail_text();
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_expr_print_keycond(&b, &k, ks);
  return buf_text(&b);
}

static const char *CP(const char *body, sl_expr_request op) {
  sl_failure_init(&F, &A);
  return sl_expr_check_params(&F, json(body), op) == SL_OK ? "ok" : fail_text();
}

#define EQ1 "{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"1\"}]}"

static void test_legacy(void) {
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Value\":{\"N\":\"1\"}}}", NULL)), "true");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Value\":{\"N\":\"2\"}}}", NULL)), "false");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Exists\":false}}", NULL)), "false");
  CHECK_STR(sl_str_c(LE("{\"z\":{\"Exists\":false}}", NULL)), "true");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Exists\":true,\"Value\":{\"N\":\"1\"}}}", NULL)), "true");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Exists\":true}}", NULL)),
            "One or more parameter values were invalid: Value must be provided when Exists is true "
            "for Attribute: a");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Exists\":false,\"Value\":{\"N\":\"1\"}}}", NULL)),
            "One or more parameter values were invalid: Value cannot be used when Exists is false "
            "for Attribute: a");
  CHECK_STR(sl_str_c(LE("{\"a\":{}}", NULL)),
            "One or more parameter values were invalid: Value must be provided when Exists is null "
            "for Attribute: a");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"EQ\"}}", NULL)),
            "One or more parameter values were invalid: Value or AttributeValueList must be used "
            "with ComparisonOperator: EQ for Attribute: a");
  CHECK_STR(sl_str_c(LE("{\"a\":" EQ1 "}", NULL)), "true");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":"
                        "\"1\"},{\"N\":\"2\"}]}}",
                        NULL)),
            "One or more parameter values were invalid: Invalid number of argument(s) for the EQ "
            "ComparisonOperator");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":"
                        "\"1\"}],\"Value\":{\"N\":\"1\"}}}",
                        NULL)),
            "One or more parameter values were invalid: Value and AttributeValueList cannot be "
            "used together for Attribute: a");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"NULL\",\"Exists\":true}}", NULL)),
            "One or more parameter values were invalid: Exists and ComparisonOperator cannot be "
            "used together for Attribute: a");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"NULL\",\"Value\":{\"N\":\"1\"}}}", NULL)),
            "One or more parameter values were invalid: Invalid number of argument(s) for the NULL "
            "ComparisonOperator");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"NULL\"}}", NULL)), "false");
  CHECK_STR(sl_str_c(LE("{\"z\":{\"ComparisonOperator\":\"NULL\"}}", NULL)), "true");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"NOT_NULL\"}}", NULL)), "true");
  CHECK_STR(sl_str_c(LE("{\"z\":{\"ComparisonOperator\":\"NE\",\"Value\":{\"N\":\"1\"}}}", NULL)),
            "true");
  CHECK_STR(
      sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"LT\",\"Value\":{\"SS\":[\"x\"]}}}", NULL)),
      "One or more parameter values were invalid: ComparisonOperator LT is not valid for SS "
      "AttributeValue type");
  CHECK_STR(sl_str_c(LE("{\"s\":{\"ComparisonOperator\":\"LT\",\"Value\":{\"N\":\"2\"}}}", NULL)),
            "false");
  CHECK_STR(
      sl_str_c(LE("{\"l\":{\"ComparisonOperator\":\"CONTAINS\",\"Value\":{\"S\":\"x\"}}}", NULL)),
      "true");
  CHECK_STR(
      sl_str_c(LE("{\"s\":{\"ComparisonOperator\":\"CONTAINS\",\"Value\":{\"L\":[]}}}", NULL)),
      "One or more parameter values were invalid: ComparisonOperator CONTAINS is not valid "
      "for L AttributeValue type");
  /* NOT_CONTAINS is false on a missing attribute, true on another type. */
  CHECK_STR(sl_str_c(LE("{\"z\":{\"ComparisonOperator\":\"NOT_CONTAINS\",\"Value\":{\"S\":\"x\"}}}",
                        NULL)),
            "false");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"NOT_CONTAINS\",\"Value\":{\"S\":\"x\"}}}",
                        NULL)),
            "true");
  CHECK_STR(sl_str_c(LE("{\"s\":{\"ComparisonOperator\":\"BEGINS_WITH\",\"Value\":{\"N\":\"1\"}}}",
                        NULL)),
            "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not "
            "valid for N AttributeValue type");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"IN\",\"AttributeValueList\":[{\"N\":"
                        "\"3\"},{\"N\":\"1\"}]}}",
                        NULL)),
            "true");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"IN\",\"AttributeValueList\":[{\"N\":"
                        "\"1\"},{\"S\":\"x\"}]}}",
                        NULL)),
            "One or more parameter values were invalid: AttributeValues inside AttributeValueList "
            "must be of same type");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"BETWEEN\",\"AttributeValueList\":[{"
                        "\"N\":\"2\"},{\"N\":\"0\"}]}}",
                        NULL)),
            "The BETWEEN condition was provided a range where the lower bound is greater than the "
            "upper bound");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"FOO\",\"Value\":{\"N\":\"1\"}}}", NULL)),
            "Comparison type does not exist in DynamoDB");
  /* Value types one by one: IN [N, NS] fails on NS, IN [N, B, NS] on B;
   * CONTAINS takes BOOL and NULL (never contained). */
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"IN\",\"AttributeValueList\":[{\"N\":"
                        "\"1\"},{\"NS\":[\"1\"]},{\"N\":\"2\"}]}}",
                        NULL)),
            "One or more parameter values were invalid: ComparisonOperator IN is not valid for NS "
            "AttributeValue type");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"IN\",\"AttributeValueList\":[{\"N\":"
                        "\"1\"},{\"B\":\"AA==\"},{\"NS\":[\"1\"]}]}}",
                        NULL)),
            "One or more parameter values were invalid: AttributeValues inside AttributeValueList "
            "must be of same type");
  CHECK_STR(
      sl_str_c(
          LE("{\"l\":{\"ComparisonOperator\":\"NOT_CONTAINS\",\"Value\":{\"BOOL\":true}}}", NULL)),
      "true");
  /* The element count comes after the elements' own checks. */
  CHECK_STR(
      sl_str_c(LE("{\"a\":{\"ComparisonOperator\":\"GT\",\"Value\":{\"BOOL\":true}}}", "AND")),
      "One or more parameter values were invalid: ComparisonOperator GT is not valid for BOOL "
      "AttributeValue type");
  CHECK_STR(
      sl_str_c(LE("{\"a\":{\"Value\":{\"N\":\"1\"}},\"s\":{\"Value\":{\"S\":\"zzz\"}}}", "OR")),
      "true");
  CHECK_STR(
      sl_str_c(LE("{\"a\":{\"Value\":{\"N\":\"1\"}},\"s\":{\"Value\":{\"S\":\"zzz\"}}}", NULL)),
      "false");
  CHECK_STR(sl_str_c(LE("{\"a\":{\"Value\":{\"N\":\"1\"}}}", "OR")),
            "ConditionalOperator can only be used when Filter or Expected has two or more "
            "elements");
  CHECK_STR(sl_str_c(LE(NULL, "OR")),
            "ConditionalOperator cannot be used without Filter or Expected");
  CHECK_STR(sl_str_c(LE("{\"\":{\"Value\":{\"N\":\"1\"}}}", NULL)), "Empty attribute name");
  CHECK_STR(sl_str_c(LEP("{\"a.b\":{\"Value\":{\"N\":\"1\"}},\"c\":{\"ComparisonOperator\":\"NOT_"
                         "CONTAINS\",\"Value\":{\"S\":\"x\"}}}")),
            "(AND (= `a.b` {\"N\":\"1\"}) (AND (attribute_exists c) (NOT (contains c "
            "{\"S\":\"x\"}))))");
  /* AttributeUpdates. */
  CHECK_STR(sl_str_c(LU("{\"a\":{\"Value\":{\"N\":\"2\"}},\"s\":{\"Action\":\"DELETE\"}}", LI)),
            "{\"a\":{\"N\":\"2\"},\"l\":{\"L\":[{\"S\":\"x\"}]},\"ss\":{\"SS\":[\"x\",\"y\"]}}");
  CHECK_STR(sl_str_c(LU("{\"a\":{\"Action\":\"PUT\"}}", LI)),
            "One or more parameter values were invalid: Only DELETE action is allowed when no "
            "attribute value is specified");
  CHECK_STR(sl_str_c(LU("{\"a\":{\"Action\":\"DELETE\",\"Value\":{\"N\":\"1\"}}}", LI)),
            "One or more parameter values were invalid: DELETE action with value is not supported "
            "for the type N");
  CHECK_STR(sl_str_c(LU("{\"s\":{\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"x\"]}}}", LI)),
            "Type mismatch for attribute to update");
  CHECK_STR(sl_str_c(LU("{\"a\":{\"Action\":\"ADD\",\"Value\":{\"SS\":[\"q\"]}}}", LI)),
            "Type mismatch for attribute to update");
  /* Entry errors surface in turn while applying: an earlier type mismatch
   * wins. */
  CHECK_STR(sl_str_c(LU("{\"a\":{\"Action\":\"ADD\",\"Value\":{\"SS\":[\"q\"]}},\"s\":{\"Action\":"
                        "\"PUT\"}}",
                        LI)),
            "Type mismatch for attribute to update");
  CHECK_STR(sl_str_c(LU("{\"s\":{\"Action\":\"ADD\",\"Value\":{\"S\":\"x\"}}}", LI)),
            "One or more parameter values were invalid: ADD action is not supported for the type "
            "S");
  CHECK_STR(sl_str_c(LU("{\"a\":{\"Action\":\"ADD\",\"Value\":{\"BOOL\":true}}}", LI)),
            "One or more parameter values were invalid: ADD action is not supported for the type "
            "BOOL");
  CHECK_STR(
      sl_str_c(LU("{\"l\":{\"Action\":\"ADD\",\"Value\":{\"L\":[{\"N\":\"2\"}]}},\"z\":{"
                  "\"Action\":\"ADD\",\"Value\":{\"L\":[]}},\"ss\":{\"Action\":\"ADD\","
                  "\"Value\":{\"SS\":[\"q\"]}},\"a\":{\"Action\":\"ADD\",\"Value\":{\"N\":"
                  "\"2\"}}}",
                  LI)),
      "{\"a\":{\"N\":\"3\"},\"l\":{\"L\":[{\"S\":\"x\"},{\"N\":\"2\"}]},\"s\":{\"S\":\"abc\"},"
      "\"ss\":{\"SS\":[\"q\",\"x\",\"y\"]},\"z\":{\"L\":[]}}");
  CHECK_STR(sl_str_c(LU("{\"ss\":{\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"x\",\"y\"]}},\"zz\":{"
                        "\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"x\"]}}}",
                        LI)),
            "{\"a\":{\"N\":\"1\"},\"l\":{\"L\":[{\"S\":\"x\"}]},\"s\":{\"S\":\"abc\"}}");
  /* KeyConditions. */
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{"
                                "\"S\":\"x\"}]},\"sk\":" EQ1 "}")),
            "pk = {\"S\":\"x\"} AND sk = {\"N\":\"1\"}");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"sk\":" EQ1 "}")),
            "Query condition missed key schema element: pk");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{}")), "Conditions can be of length 1 or 2 only");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"a\":" EQ1 ",\"b\":" EQ1 ",\"c\":" EQ1 "}")),
            "Conditions can be of length 1 or 2 only");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"pk\":{\"ComparisonOperator\":\"LT\",\"AttributeValueList\":[{"
                                "\"S\":\"x\"}]}}")),
            "Query key condition not supported");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{"
                                "\"S\":\"x\"}]},\"sk\":{\"ComparisonOperator\":\"IN\","
                                "\"AttributeValueList\":[{\"N\":\"1\"}]}}")),
            "Attempted conditional constraint is not an indexable operation");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{"
                                "\"S\":\"x\"}]},\"sk\":{\"ComparisonOperator\":\"NULL\"}}")),
            "Attempted conditional constraint is not an indexable operation");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{"
                                "\"S\":\"\"}]}}")),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: pk");
  CHECK_STR(sl_str_c(LK(&KS_HR, "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{"
                                "\"S\":\"x\"}]},\"sk\":{\"ComparisonOperator\":\"BETWEEN\","
                                "\"AttributeValueList\":[{\"N\":\"1\"},{\"N\":\"3\"}]}}")),
            "pk = {\"S\":\"x\"} AND sk BETWEEN {\"N\":\"1\"} AND {\"N\":\"3\"}");
  /* QueryFilter on a key attribute. */
  {
    sl_expr_ctx cx;
    sl_expr *c;
    CHECK(begin(&cx, NULL, NULL));
    CHECK(sl_expr_legacy_filter(&cx, json("{\"sk\":" EQ1 "}"), SL_STR_NULL, "QueryFilter", &c) ==
          SL_OK);
    CHECK(sl_expr_filter_check_keys(&cx, c, &KS_HR) == SL_E_VALIDATION);
    CHECK_STR(F.message, "QueryFilter can only contain non-primary key attributes: Primary key "
                         "attribute: sk");
  }
  /* AttributesToGet. */
  {
    sl_expr_ctx cx;
    sl_expr_proj *p;
    CHECK(begin(&cx, NULL, NULL));
    CHECK(sl_expr_legacy_attributes_to_get(&cx, json("[\"a\",\"a\"]"), &p) == SL_E_VALIDATION);
    CHECK_STR(F.message,
              "One or more parameter values were invalid: Duplicate value in attribute name: a");
    CHECK(begin(&cx, NULL, NULL));
    CHECK(sl_expr_legacy_attributes_to_get(&cx, json("[\"a.b\",\"s\"]"), &p) == SL_OK);
    sl_item it;
    CHECK(item_of("{\"a.b\":{\"N\":\"1\"},\"a\":{\"M\":{\"b\":{\"N\":\"2\"}}},\"s\":{\"S\":\"x\"}}",
                  &it));
    sl_item r = sl_expr_project(&A, p, &it);
    CHECK_STR(sl_str_c(item_text(&r)), "{\"a.b\":{\"N\":\"1\"},\"s\":{\"S\":\"x\"}}");
  }
  /* Mixing legacy and expression parameters. */
  CHECK_STR(sl_str_c(CP("{\"Expected\":{},\"ConditionExpression\":\"a\"}", SL_EXPR_OP_PUT_ITEM)),
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}");
  CHECK_STR(sl_str_c(CP("{\"Expected\":{},\"AttributeUpdates\":{},\"ConditionExpression\":\"a\","
                        "\"UpdateExpression\":\"b\"}",
                        SL_EXPR_OP_UPDATE_ITEM)),
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: "
            "{UpdateExpression, ConditionExpression}");
  CHECK_STR(sl_str_c(CP("{\"KeyConditions\":{},\"QueryFilter\":{},\"ConditionalOperator\":\"OR\","
                        "\"AttributesToGet\":[],\"KeyConditionExpression\":\"a\","
                        "\"FilterExpression\":\"b\",\"ProjectionExpression\":\"c\"}",
                        SL_EXPR_OP_QUERY)),
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {AttributesToGet, QueryFilter, ConditionalOperator, "
            "KeyConditions} Expression parameters: {ProjectionExpression, FilterExpression, "
            "KeyConditionExpression}");
  CHECK_STR(sl_str_c(CP("{\"KeyConditions\":{},\"FilterExpression\":\"b\"}", SL_EXPR_OP_QUERY)),
            "ok");
  CHECK_STR(sl_str_c(CP("{\"AttributesToGet\":[],\"ScanFilter\":{},\"ProjectionExpression\":\"c\"}",
                        SL_EXPR_OP_SCAN)),
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {AttributesToGet, ScanFilter} Expression parameters: "
            "{ProjectionExpression}");
  CHECK_STR(sl_str_c(CP("{\"ExpressionAttributeNames\":{}}", SL_EXPR_OP_SCAN)),
            "ExpressionAttributeNames can only be specified when using expressions");
  CHECK_STR(sl_str_c(CP("{\"ExpressionAttributeValues\":{}}", SL_EXPR_OP_PUT_ITEM)),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "ConditionExpression is null");
  CHECK_STR(sl_str_c(CP("{\"AttributeUpdates\":{},\"ExpressionAttributeValues\":{}}",
                        SL_EXPR_OP_UPDATE_ITEM)),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "UpdateExpression and ConditionExpression are null");
  CHECK_STR(sl_str_c(CP("{\"ProjectionExpression\":\"a\",\"ExpressionAttributeValues\":{}}",
                        SL_EXPR_OP_QUERY)),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "FilterExpression and KeyConditionExpression are null");
  CHECK_STR(sl_str_c(CP("{\"ExpressionAttributeValues\":{}}", SL_EXPR_OP_SCAN)),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "FilterExpression is null");
  CHECK_STR(sl_str_c(CP("{\"ExpressionAttributeValues\":{}}", SL_EXPR_OP_GET_ITEM)), "ok");
}

/* ---- performance ---- */

static void test_speed(void) {
  /* A typical PutItem condition: context, parse, resolve, unused check and
   * evaluation, arena only. The best of 20 rounds (the machine is shared). */
  const sl_json *names = json("{\"#v\":\"version\"}");
  const sl_json *values = json("{\":v\":{\"N\":\"42\"}}");
  sl_item it;
  CHECK(item_of("{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"41\"}}", &it));
  sl_arena a;
  sl_arena_init(&a);
  bool all = true;
  double best = 1e18;
  for (int round = 0; round < 20; round++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < 10000; i++) {
      sl_failure f;
      sl_expr_ctx cx;
      sl_expr *c;
      sl_failure_init(&f, &a);
      if (sl_expr_ctx_init(&cx, &a, &f, names, values) != SL_OK ||
          sl_expr_parse_condition(&cx, SL_EXPR_CONDITION,
                                  SL_STR("attribute_not_exists(pk) OR #v < :v"), &c) != SL_OK ||
          sl_expr_ctx_finish(&cx) != SL_OK)
        all = false;
      else
        all = all && sl_expr_eval(c, &it);
      sl_arena_reset(&a);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 10000;
    best = ns < best ? ns : best;
  }
  CHECK(all);
  fprintf(stderr, "expr: parse+resolve+eval of a typical condition: %.0f ns (best of 20 rounds)\n",
          best);
  sl_arena_destroy(&a);
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_condition_grammar);
  RUN(test_condition_syntax_errors);
  RUN(test_condition_checks);
  RUN(test_names_values);
  RUN(test_eval);
  RUN(test_number_order);
  RUN(test_update_grammar);
  RUN(test_update_apply);
  RUN(test_update_numbers);
  RUN(test_update_nesting);
  RUN(test_update_returned);
  RUN(test_projection);
  RUN(test_key_condition);
  RUN(test_key_condition_tuple);
  RUN(test_legacy);
  RUN(test_speed);
  sl_arena_destroy(&A);
  return DONE();
}
