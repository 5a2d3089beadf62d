/*
 * statements.h — the request members the three PartiQL actions share
 * (execute_statement.c, batch_execute_statement.c, execute_transaction.c):
 * a statement's Parameters, read into attribute values before any table is
 * looked up.
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_STATEMENTS_H
#define SL_ACTIONS_STATEMENTS_H

#include "ops/req.h"

/* The Parameters member of 'obj' (absent: none), each value checked as an
 * attribute value with the item rules' messages. */
sl_err sl_statements_parameters(sl_req *req, const sl_json *obj, sl_av **out, uint32_t *n_out);

#endif
