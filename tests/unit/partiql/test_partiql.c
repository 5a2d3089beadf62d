/* Unit tests of src/partiql's lexer and parser: every statement form, literal
 * and operator read into the AST (compared through sl_pql_print_stmt, so each
 * assertion reads as the parse it pins), and the errors of malformed
 * statements with the service's texts (DynamoDB Local 2026-05-28; the
 * conformance tests test_execute_statement.py check them end to end).
 * The planner needs tables and runs in the conformance suite.
 */
#include "harness.h"

#include "base/log.h"
#include "partiql/partiql.h"

static sl_arena A;
static sl_failure F;

/* The normal form of a statement's parse, or "ERR: <message>". */
static const char *parsed(const char *text) {
  sl_failure_init(&F, &A);
  sl_pql_stmt *st;
  if (sl_pql_parse(&A, &F, sl_str_c(text), &st) != SL_OK)
    return sl_arena_printf(&A, "ERR: %.*s", SL_STR_FMT(F.message)).p;
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_pql_print_stmt(&b, st);
  return sl_arena_printf(&A, "%.*s", SL_STR_FMT(sl_buf_str(&b))).p;
}

#define PARSES(text, expect) CHECK_STR(sl_str_c(parsed(text)), expect)
#define MALFORMED(text)                                                                            \
  CHECK_STR(sl_str_c(parsed(text)), "ERR: Statement wasn't well formed, can't be "                 \
                                    "processed: " text)

static void test_select(void) {
  PARSES("SELECT * FROM t", "SELECT * t");
  PARSES("select * from \"My Table\".\"idx\"", "SELECT * My Table.idx");
  PARSES("SELECT a, b.c, d[2].e, \"x y\", m['k'] FROM t", "SELECT a, b.c, d[2].e, `x y`, m.k t");
  PARSES("SELECT * FROM t WHERE pk = 'a'", "SELECT * t WHERE (= pk {\"S\":\"a\"})");
  PARSES("SELECT * FROM t WHERE pk = 'a' AND sk >= 1 ORDER BY sk DESC",
         "SELECT * t WHERE (AND (= pk {\"S\":\"a\"}) (>= sk {\"N\":\"1\"})) ORDER BY sk DESC");
  PARSES("SELECT * FROM t WHERE a = 1 OR b = 2 AND NOT c = 3",
         "SELECT * t WHERE (OR (= a {\"N\":\"1\"}) (AND (= b {\"N\":\"2\"}) (NOT (= c "
         "{\"N\":\"3\"}))))");
  PARSES(
      "SELECT * FROM t WHERE (a = 1 OR b = 2) AND c <> 3",
      "SELECT * t WHERE (AND (OR (= a {\"N\":\"1\"}) (= b {\"N\":\"2\"})) (<> c {\"N\":\"3\"}))");
  PARSES("SELECT * FROM t WHERE a != 1", "SELECT * t WHERE (<> a {\"N\":\"1\"})");
  PARSES("SELECT * FROM t WHERE a BETWEEN 1 AND 2",
         "SELECT * t WHERE (BETWEEN a {\"N\":\"1\"} {\"N\":\"2\"})");
  PARSES("SELECT * FROM t WHERE a NOT BETWEEN 1 AND 2",
         "SELECT * t WHERE (NOT (BETWEEN a {\"N\":\"1\"} {\"N\":\"2\"}))");
  PARSES("SELECT * FROM t WHERE a IN [1, 'x'] AND b IN (?, ?)",
         "SELECT * t WHERE (AND (IN a {\"N\":\"1\"} {\"S\":\"x\"}) (IN b ?1 ?2))");
  PARSES("SELECT * FROM t WHERE a IS MISSING AND b IS NOT MISSING",
         "SELECT * t WHERE (AND (MISSING a) (NOT_MISSING b))");
  PARSES(
      "SELECT * FROM t WHERE begins_with(a, 'x') AND contains(b, 1) AND "
      "attribute_type(c, 'S') AND size(d) > 2",
      "SELECT * t WHERE (AND (AND (AND (begins_with a {\"S\":\"x\"}) (contains b {\"N\":\"1\"})) "
      "(attribute_type c {\"S\":\"S\"})) (> (size d) {\"N\":\"2\"}))");
  PARSES("SELECT * FROM t WHERE pk = 'a';", "SELECT * t WHERE (= pk {\"S\":\"a\"})");
  PARSES("SELECT * FROM t -- a comment\n WHERE /* another */ a = 1",
         "SELECT * t WHERE (= a {\"N\":\"1\"})");
}

static void test_literals(void) {
  PARSES("SELECT * FROM t WHERE a = 'it''s'", "SELECT * t WHERE (= a {\"S\":\"it's\"})");
  PARSES("SELECT * FROM t WHERE \"a\"\"b\" = 1", "SELECT * t WHERE (= `a\"b` {\"N\":\"1\"})");
  PARSES("SELECT * FROM t WHERE a = -1.50", "SELECT * t WHERE (= a {\"N\":\"-1.5\"})");
  PARSES("SELECT * FROM t WHERE a = 1e3", "SELECT * t WHERE (= a {\"N\":\"1000\"})");
  PARSES("SELECT * FROM t WHERE a = TRUE AND b = false AND c = NULL",
         "SELECT * t WHERE (AND (AND (= a {\"BOOL\":true}) (= b {\"BOOL\":false})) (= c "
         "{\"NULL\":true}))");
  PARSES("INSERT INTO t VALUE {'pk': 'a', 'l': [1, [2]], 'm': {'k': ?}, 's': <<'x', 'y'>>}",
         "INSERT t VALUE (MAP pk:{\"S\":\"a\"} l:(LIST {\"N\":\"1\"} (LIST {\"N\":\"2\"})) m:(MAP "
         "k:?1) s:(BAG {\"S\":\"x\"} {\"S\":\"y\"}))");
  PARSES("INSERT INTO t VALUE ?", "INSERT t VALUE ?1");
}

static void test_writes(void) {
  PARSES("UPDATE t SET a = 1, b = a + 2 SET c = list_append(c, [1]) REMOVE d, e.f WHERE pk = 'x'",
         "UPDATE t SET a = {\"N\":\"1\"} SET b = (+ a {\"N\":\"2\"}) SET c = (list_append c (LIST "
         "{\"N\":\"1\"})) REMOVE d REMOVE e.f WHERE (= pk {\"S\":\"x\"})");
  PARSES("UPDATE t SET s = set_add(s, <<1>>) WHERE pk = 'x' RETURNING MODIFIED NEW *",
         "UPDATE t SET s = (set_add s (BAG {\"N\":\"1\"})) WHERE (= pk {\"S\":\"x\"}) RETURNING "
         "MODIFIED NEW *");
  PARSES("UPDATE t SET a = a - 1 WHERE pk = 'x' RETURNING ALL OLD *",
         "UPDATE t SET a = (- a {\"N\":\"1\"}) WHERE (= pk {\"S\":\"x\"}) RETURNING ALL OLD *");
  PARSES("DELETE FROM t WHERE pk = 'x' RETURNING ALL OLD *",
         "DELETE t WHERE (= pk {\"S\":\"x\"}) RETURNING ALL OLD *");
  PARSES("EXISTS(SELECT * FROM t WHERE pk = 'x')", "EXISTS * t WHERE (= pk {\"S\":\"x\"})");
  /* A call without arguments parses (the planner refuses it); found by fuzz_partiql. */
  PARSES("UPDATE t SET a = if_not_exists() WHERE pk = 'x'",
         "UPDATE t SET a = (if_not_exists) WHERE (= pk {\"S\":\"x\"})");
}

static void test_errors(void) {
  MALFORMED("");
  MALFORMED("SELEC * FROM t");
  MALFORMED("SELECT * FROM");
  MALFORMED("SELECT * FROM t WHERE");
  MALFORMED("SELECT * FROM t WHERE a =");
  MALFORMED("SELECT * FROM t WHERE a");
  MALFORMED("SELECT * FROM t WHERE a = 'x");
  MALFORMED("SELECT * FROM t WHERE a = 1; SELECT 1");
  MALFORMED("SELECT * FROM t WHERE a IN []");
  MALFORMED("SELECT * FROM t WHERE a = 1.2.3");
  MALFORMED("SELECT * FROM t WHERE a[x] = 1");
  MALFORMED("SELECT * FROM t WHERE a = `ion`");
  MALFORMED("UPDATE t WHERE pk = 'a'");
  MALFORMED("INSERT INTO t VALUE 1");
  MALFORMED("INSERT INTO t VALUE {a: 1}");
  MALFORMED("DELETE t WHERE pk = 'a'");
  MALFORMED("SELECT * FROM t WHERE /* unterminated");
  /* An empty table or index name (found by fuzz_partiql), a third component. */
  CHECK_STR(sl_str_c(parsed("SELECT * FROM \"\"")),
            "ERR: Path component cannot be an empty string");
  CHECK_STR(sl_str_c(parsed("SELECT * FROM \"t\".\"\"")),
            "ERR: Path component cannot be an empty string");
  CHECK_STR(sl_str_c(parsed("SELECT * FROM t.i.x")),
            "ERR: A path may contain at most 2 components in the FROM clause");
  CHECK_STR(sl_str_c(parsed("SELECT * FROM t WHERE nope(a)")), "ERR: Unrecognized function: nope");
  CHECK_STR(sl_str_c(parsed("INSERT INTO \"gsi_t\" VALUE {'pk': 'c', 's': <<>>}")),
            "ERR: Empty bags are not supported at 1:44:2");
  CHECK_STR(sl_str_c(parsed("INSERT INTO t VALUE\n {'s': <<>>}")),
            "ERR: Empty bags are not supported at 2:8:2");
  CHECK_STR(sl_str_c(parsed("UPDATE t SET a = 1 WHERE pk = 'a' RETURNING ALL NEW a")),
            "ERR: Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
  CHECK_STR(sl_str_c(parsed("INSERT INTO t VALUE {'pk': 'a'} RETURNING ALL OLD *")),
            "ERR: RETURNING is not supported in INSERT");
  CHECK_STR(sl_str_c(parsed("DELETE FROM t WHERE pk = 'a' RETURNING MODIFIED NEW *")),
            "ERR: Invalid returning clause: RETURNING MODIFIED NEW *. Only RETURNING ALL OLD * is "
            "allowed in DELETE statements.");
  /* Nesting deeper than SL_PQL_MAX_DEPTH is refused, not recursed into. */
  char deep[1024];
  size_t n = (size_t)snprintf(deep, sizeof deep, "SELECT * FROM t WHERE ");
  for (int i = 0; i < 200; i++)
    deep[n++] = '(';
  memcpy(deep + n, "a = 1", 6);
  CHECK(strncmp(parsed(deep), "ERR: Statement wasn't well formed", 33) == 0);
  n = (size_t)snprintf(deep, sizeof deep, "INSERT INTO t VALUE ");
  for (int i = 0; i < 200; i++)
    deep[n++] = '[';
  deep[n] = 0;
  CHECK(strncmp(parsed(deep), "ERR: Statement wasn't well formed", 33) == 0);
}

/* Parameters are counted in statement order. */
static void test_parameters(void) {
  sl_failure_init(&F, &A);
  sl_pql_stmt *st;
  CHECK(sl_pql_parse(&A, &F, SL_STR("UPDATE t SET a = ? WHERE pk = ? AND b IN [?, ?]"), &st) ==
        SL_OK);
  CHECK_INT(st->n_params, 4);
  CHECK(sl_pql_parse(&A, &F, SL_STR("SELECT * FROM t"), &st) == SL_OK);
  CHECK_INT(st->n_params, 0);
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_select);
  RUN(test_literals);
  RUN(test_writes);
  RUN(test_errors);
  RUN(test_parameters);
  sl_arena_destroy(&A);
  return DONE();
}
