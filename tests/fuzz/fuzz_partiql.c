/* libFuzzer target for PartiQL statements (src/partiql: lexer and parser).
 *
 * The input is a statement. A statement that parses must print in the
 * normal form (sl_pql_print_stmt) and count its parameters; one that does
 * not must leave a ValidationException with a message. Nesting is bounded
 * (SL_PQL_MAX_DEPTH), so no input recurses without limit.
 */
#include "partiql/partiql.h"

#include <stdlib.h>

#define REQUIRE(cond)                                                                              \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      abort();                                                                                     \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_pql_stmt *st = NULL;
  sl_str text = sl_str_make((const char *)data, size);
  if (sl_pql_parse(&a, &f, text, &st) == SL_OK) {
    REQUIRE(st && st->kind <= SL_PQL_EXISTS && st->table.len > 0);
    sl_buf b;
    sl_buf_init(&b, &a);
    sl_pql_print_stmt(&b, st);
    REQUIRE(b.len > 0);
  } else {
    REQUIRE(f.code == SL_E_VALIDATION && f.message.len > 0);
  }
  sl_arena_destroy(&a);
  return 0;
}
