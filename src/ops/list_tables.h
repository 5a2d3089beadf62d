/*
 * list_tables.h — ListTables' core: the catalog's table names in order
 * (store/catalog.h keeps them sorted), 'limit' at most after
 * ExclusiveStartTableName (empty: from the first), and the last name of the
 * page when more follow.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_LIST_TABLES_H
#define SL_OPS_LIST_TABLES_H

#include "ops/req.h"

typedef struct {
  sl_str *names; /* arena array */
  uint32_t n;
  sl_str last_evaluated; /* empty when the listing is complete */
} sl_list_tables_result;

void sl_list_tables(sl_req *req, int64_t limit, sl_str start, sl_list_tables_result *out);

#endif
