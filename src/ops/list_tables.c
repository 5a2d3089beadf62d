/* ListTables' core; see list_tables.h. Pinned by tests/conformance/test_list_tables.py. */
#include "ops/list_tables.h"

void sl_list_tables(sl_req *req, int64_t limit, sl_str start, sl_list_tables_result *out) {
  sl_catalog *cat = req->env->catalog;
  size_t i = start.len ? sl_catalog_upper_bound(cat, start) : 0;
  size_t n = sl_catalog_count(cat);
  size_t room = limit > 0 && (size_t)limit < n ? (size_t)limit : n;
  memset(out, 0, sizeof(*out));
  out->names = SL_NEW_ARRAY(req->arena, sl_str, room + 1);
  for (; i < n && out->n < limit; i++)
    out->names[out->n++] = sl_catalog_at(cat, i)->name;
  if (i < n && out->n)
    out->last_evaluated = out->names[out->n - 1];
}
