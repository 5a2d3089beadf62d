/*
 * exprs.h — the expression members of a request, compiled (src/expr/) into
 * the typed expressions the cores take: the read side (ops/reads.h: Select,
 * ProjectionExpression / AttributesToGet, FilterExpression / QueryFilter /
 * ScanFilter) and the write side (ops/conds.h: ConditionExpression /
 * Expected, UpdateExpression / AttributeUpdates), with their
 * ExpressionAttributeNames/Values, in the service's check order and before
 * the table is looked up.
 *
 * Threads: the loop thread.
 */
#ifndef SL_ACTIONS_EXPRS_H
#define SL_ACTIONS_EXPRS_H

#include "ops/conds.h"
#include "ops/reads.h"

/* Parses Select, projection and filter members (expression or legacy) and
 * checks their combinations, before the table is looked up (the service
 * validates a request whole before it looks for its table): 'indexed' says
 * whether the request names an index (IndexName present). */
sl_err sl_reads_parse(sl_req *req, bool indexed, sl_reads_kind kind, sl_read_exprs *out);
/* The same for the members of another object (a BatchGetItem table entry, a
 * TransactGetItems Get). */
sl_err sl_reads_parse_of(sl_req *req, const sl_json *obj, bool indexed, sl_reads_kind kind,
                         sl_read_exprs *out);
/* Parses the members of 'obj' (the request body, or a transaction action):
 * parameter mixing, names and values, the update (when 'op' is
 * SL_EXPR_OP_UPDATE_ITEM), the condition, unused names/values. */
sl_err sl_conds_parse(sl_req *req, const sl_json *obj, sl_expr_request op, sl_write_exprs *out);

#endif
