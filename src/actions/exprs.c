/* Expression members of requests, compiled; see exprs.h. */
#include "actions/exprs.h"
#include "actions/members.h"
#include "expr/expr.h"

sl_err sl_reads_parse(sl_req *req, bool indexed, sl_reads_kind kind, sl_read_exprs *out) {
  return sl_reads_parse_of(req, req->body, indexed, kind, out);
}

sl_err sl_reads_parse_of(sl_req *req, const sl_json *obj, bool indexed, sl_reads_kind kind,
                         sl_read_exprs *out) {
  memset(out, 0, sizeof(*out));
  const sl_json *body = obj;
  sl_err err;
  sl_expr_request op = kind == SL_READS_QUERY  ? SL_EXPR_OP_QUERY
                       : kind == SL_READS_SCAN ? SL_EXPR_OP_SCAN
                                               : SL_EXPR_OP_GET_ITEM;
  if ((err = sl_expr_check_params(&req->fail, body, op)) != SL_OK)
    return err;
  sl_expr_ctx *cx = SL_NEW(req->arena, sl_expr_ctx);
  out->ctx = cx;
  if ((err = sl_expr_ctx_init(cx, req->arena, &req->fail,
                              sl_json_get(body, "ExpressionAttributeNames"),
                              sl_json_get(body, "ExpressionAttributeValues"))) != SL_OK)
    return err;
  /* Filter, then projection, then (Query) the key condition: DynamoDB
   * Local's order, which the expression module follows. */
  sl_expr *filter = NULL;
  if (kind != SL_READS_GET) {
    if (sl_in_has(body, "FilterExpression")) {
      if ((err = sl_expr_parse_condition(cx, SL_EXPR_FILTER, sl_in_str(body, "FilterExpression"),
                                         &filter)) != SL_OK)
        return err;
    } else {
      const char *legacy = kind == SL_READS_QUERY ? "QueryFilter" : "ScanFilter";
      if ((err = sl_expr_legacy_filter(cx, sl_json_get(body, legacy),
                                       sl_in_str(body, "ConditionalOperator"), legacy, &filter)) !=
          SL_OK)
        return err;
    }
  }
  sl_expr_proj *proj = NULL;
  if (sl_in_has(body, "ProjectionExpression")) {
    if ((err = sl_expr_parse_projection(cx, sl_in_str(body, "ProjectionExpression"), &proj)) !=
        SL_OK)
      return err;
  } else if ((err = sl_expr_legacy_attributes_to_get(cx, sl_json_get(body, "AttributesToGet"),
                                                     &proj)) != SL_OK) {
    return err;
  }
  out->filter = filter;
  out->projection = proj;

  sl_str select = sl_in_str(body, "Select");
  bool has_select = sl_in_has(body, "Select");
  bool legacy_proj = sl_in_has(body, "AttributesToGet");
  if (sl_str_eq_c(select, "COUNT"))
    out->select = SL_SELECT_COUNT;
  else if (sl_str_eq_c(select, "ALL_PROJECTED_ATTRIBUTES"))
    out->select = SL_SELECT_ALL_PROJECTED_ATTRIBUTES;
  else if (sl_str_eq_c(select, "SPECIFIC_ATTRIBUTES") || (!has_select && proj))
    out->select = SL_SELECT_SPECIFIC_ATTRIBUTES;
  else if (!has_select && indexed && kind != SL_READS_GET)
    out->select = SL_SELECT_ALL_PROJECTED_ATTRIBUTES; /* an index's default */
  if (kind != SL_READS_GET) {
    /* Texts captured on the live service (tests/conformance/
     * test_projection_expression.py): Query words the COUNT case as a model
     * validation error, Scan does not. */
    const char *what = legacy_proj ? "AttributesToGet" : "ProjectionExpression";
    if (proj && has_select && out->select == SL_SELECT_COUNT)
      return sl_fail(req, SL_E_VALIDATION,
                     "%sCannot specify the %s when choosing to get only the Count",
                     kind == SL_READS_QUERY ? "1 validation error detected: " : "", what);
    if (proj && has_select && out->select != SL_SELECT_SPECIFIC_ATTRIBUTES)
      return sl_fail(req, SL_E_VALIDATION, "Cannot specify the %s when choosing to get %s", what,
                     out->select == SL_SELECT_ALL_ATTRIBUTES ? "ALL_ATTRIBUTES"
                                                             : "ALL_PROJECTED_ATTRIBUTES");
    /* Query and (in the newer wording) Scan put it in the model-validation
     * envelope (a public conformance suite's Query and Scan message tests,
     * September 2026; tests/conformance/test_projection_expression.py). */
    if (!proj && out->select == SL_SELECT_SPECIFIC_ATTRIBUTES)
      return sl_fail(
          req, SL_E_VALIDATION,
          "1 validation error detected: Must specify the AttributesToGet or ProjectionExpression "
          "when choosing to get SPECIFIC_ATTRIBUTES");
    if (out->select == SL_SELECT_ALL_PROJECTED_ATTRIBUTES && !indexed)
      return sl_fail(req, SL_E_VALIDATION,
                     "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  if (kind != SL_READS_QUERY) {
    if ((err = sl_expr_ctx_finish(cx)) != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_conds_parse(sl_req *req, const sl_json *obj, sl_expr_request op, sl_write_exprs *out) {
  memset(out, 0, sizeof(*out));
  sl_err err = sl_expr_check_params(&req->fail, obj, op);
  if (err != SL_OK)
    return err;
  if ((err = sl_expr_ctx_init(&out->cx, req->arena, &req->fail,
                              sl_json_get(obj, "ExpressionAttributeNames"),
                              sl_json_get(obj, "ExpressionAttributeValues"))) != SL_OK)
    return err;
  if (op == SL_EXPR_OP_UPDATE_ITEM) {
    if (sl_in_has(obj, "UpdateExpression"))
      err = sl_expr_parse_update(&out->cx, sl_in_str(obj, "UpdateExpression"), &out->update);
    else
      err = sl_expr_legacy_attribute_updates(&out->cx, sl_json_get(obj, "AttributeUpdates"),
                                             &out->update);
    if (err != SL_OK)
      return err;
  }
  if (sl_in_has(obj, "ConditionExpression"))
    err = sl_expr_parse_condition(&out->cx, SL_EXPR_CONDITION,
                                  sl_in_str(obj, "ConditionExpression"), &out->cond);
  else
    err = sl_expr_legacy_expected(&out->cx, sl_json_get(obj, "Expected"),
                                  sl_in_str(obj, "ConditionalOperator"), &out->cond);
  if (err != SL_OK)
    return err;
  if ((err = sl_expr_ctx_finish(&out->cx)) != SL_OK)
    return err;
  out->all_old_on_fail =
      sl_str_eq_c(sl_in_str(obj, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD");
  return SL_OK;
}
