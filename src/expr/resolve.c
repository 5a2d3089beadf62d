/*
 * Pass 2 (see expr.h): the semantic checks of each grammar over a parsed
 * tree — reserved words used as names, placeholders replaced through the
 * request context (ctx.c), function names and arity, document-path operands,
 * operand types of constants, BETWEEN bounds, overlapping and conflicting
 * paths — and the checks of key attributes in filters and updates. Every
 * message below was observed on DynamoDB Local unless its comment says
 * otherwise; tests/unit/expr/test_expr.c pins them.
 */
#include "expr/expr_int.h"
#include "base/num.h"

/* ---- paths in messages ---- */

/* "[a, b, [1]]" as the service prints paths in messages. */
static void path_list_put(sl_buf *b, const sl_expr_path *p) {
  sl_buf_putc(b, '[');
  for (uint32_t i = 0; i < p->n; i++) {
    if (i)
      sl_buf_puts(b, SL_STR(", "));
    if (p->e[i].kind == SL_EXPR_ELEM_INDEX)
      sl_buf_printf(b, "[%u]", p->e[i].index);
    else
      sl_buf_puts(b, p->e[i].name);
  }
  sl_buf_putc(b, ']');
}

static sl_str path_list(sl_expr_ctx *cx, const sl_expr_path *p) {
  sl_buf b;
  sl_buf_init(&b, cx->arena);
  path_list_put(&b, p);
  return sl_buf_str(&b);
}

static bool elem_eq(const sl_expr_elem *a, const sl_expr_elem *b) {
  if (a->kind != b->kind)
    return false;
  return a->kind == SL_EXPR_ELEM_INDEX ? a->index == b->index : sl_str_eq(a->name, b->name);
}

static bool path_eq(const sl_expr_path *a, const sl_expr_path *b) {
  if (a->n != b->n)
    return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!elem_eq(&a->e[i], &b->e[i]))
      return false;
  return true;
}

/* Overlap / conflict between any two of 'n' paths (request order). */
static sl_err check_paths(sl_expr_ctx *cx, const sl_expr_path *const *paths, uint32_t n) {
  for (uint32_t j = 1; j < n; j++) {
    for (uint32_t i = 0; i < j; i++) {
      const sl_expr_path *a = paths[i], *b = paths[j];
      uint32_t k = a->n < b->n ? a->n : b->n, t = 0;
      bool conflict = false;
      for (; t < k; t++) {
        const sl_expr_elem *x = &a->e[t], *y = &b->e[t];
        bool xi = x->kind == SL_EXPR_ELEM_INDEX, yi = y->kind == SL_EXPR_ELEM_INDEX;
        if (xi != yi) {
          conflict = true;
          break;
        }
        if (!elem_eq(x, y))
          break;
      }
      if (conflict || t == k) {
        sl_str one = path_list(cx, a), two = path_list(cx, b);
        return sl__expr_fail(cx,
                             "Two document paths %s with each other; must remove or rewrite one "
                             "of these paths; path one: %.*s, path two: %.*s",
                             conflict ? "conflict" : "overlap", SL_STR_FMT(one), SL_STR_FMT(two));
      }
    }
  }
  return SL_OK;
}

/* "{N:2}" — the service's brief form of a constant in BETWEEN messages. A B
 * value shows as Java's ByteBuffer.toString (observed on DynamoDB Local:
 * "{B:java.nio.HeapByteBuffer[pos=0 lim=2 cap=2]}"). */
static void av_brief(sl_buf *b, const sl_av *v) {
  sl_buf_printf(b, "{%s:", sl_av_type_name((sl_av_type)v->type));
  if (v->type == SL_AV_B)
    sl_buf_printf(b, "java.nio.HeapByteBuffer[pos=0 lim=%zu cap=%zu]", v->s.len, v->s.len);
  else
    sl_buf_puts(b, v->s); /* S or N: only these and B reach BETWEEN messages */
  sl_buf_putc(b, '}');
}

/* ---- conditions and update values ---- */

typedef enum {
  W_BOOL,    /* a condition */
  W_OPERAND, /* an operand of a comparison or a condition function */
  W_SET,     /* the value of a SET action */
  W_ARITH,   /* an operand of + or - */
  W_UARG,    /* an argument of if_not_exists */
  W_LARG,    /* an argument of list_append (which may not nest) */
} want;

static bool is_function(uint8_t op) {
  return op >= SL_EXPR_OP_ATTRIBUTE_EXISTS && op <= SL_EXPR_OP_UNKNOWN_FUNCTION;
}

static sl_err bad_operand_type(sl_expr_ctx *cx, const sl_expr_node *n, uint8_t type) {
  return sl__expr_fail(
      cx,
      "Incorrect operand type for operator or function; operator or function: %s, operand "
      "type: %s",
      sl__expr_op_text(n), sl_av_type_name((sl_av_type)type));
}

static bool is_scalar_key_type(uint8_t t) { return t == SL_AV_S || t == SL_AV_N || t == SL_AV_B; }

static sl_err check_distinct(sl_expr_ctx *cx, const sl_expr_node *n) {
  if (n->n < 2 || n->args[0]->op != SL_EXPR_OP_PATH)
    return SL_OK;
  for (uint16_t i = 1; i < n->n; i++) {
    if (n->args[i]->op == SL_EXPR_OP_PATH && path_eq(&n->args[0]->path, &n->args[i]->path)) {
      sl_str first = path_list(cx, &n->args[0]->path);
      return sl__expr_fail(cx,
                           "The first operand must be distinct from the remaining operands for "
                           "this operator or function; operator: %s, first operand: %.*s",
                           sl__expr_op_text(n), SL_STR_FMT(first));
    }
  }
  return SL_OK;
}

/* A BETWEEN bound as the service shows it: numbers as the request wrote them
 * ("{N:9E125}", observed). */
static sl_str between_operand(sl_expr_ctx *cx, const sl_expr_node *n) {
  sl_buf b;
  sl_buf_init(&b, cx->arena);
  const sl_av *v = n->value;
  for (uint32_t i = 0; v->type == SL_AV_N && i < cx->n_values; i++) {
    if (&cx->values[i].v == v && cx->values[i].n_text.len) {
      sl_buf_puts(&b, SL_STR("{N:"));
      sl_buf_puts(&b, cx->values[i].n_text);
      sl_buf_putc(&b, '}');
      return sl_buf_str(&b);
    }
  }
  av_brief(&b, v);
  return sl_buf_str(&b);
}

/* The type an operand is known to have before evaluation: a constant's, or N
 * for size(); 0 when it depends on the item. */
static uint8_t static_type(const sl_expr_node *n) {
  if (n->op == SL_EXPR_OP_VALUE)
    return n->value->type;
  if (n->op == SL_EXPR_OP_SIZE)
    return SL_AV_N;
  return 0;
}

static sl_err resolve_node(sl_expr_ctx *cx, sl_expr_node *n, want w, bool update);

static sl_err check_function(sl_expr_ctx *cx, sl_expr_node *n, want w, bool update) {
  sl_expr_op op = (sl_expr_op)n->op;
  if (op == SL_EXPR_OP_UNKNOWN_FUNCTION)
    return sl__expr_fail(cx, "Invalid function name; function: %.*s", SL_STR_FMT(n->text));
  bool update_fn = op == SL_EXPR_OP_IF_NOT_EXISTS || op == SL_EXPR_OP_LIST_APPEND;
  if (update_fn && !update)
    return sl__expr_fail(cx, "The function is not allowed in a condition expression; function: %s",
                         sl__expr_op_text(n));
  if (!update_fn && update)
    return sl__expr_fail(cx, "The function is not allowed in an update expression; function: %s",
                         sl__expr_op_text(n));
  bool boolean = op != SL_EXPR_OP_SIZE && !update_fn;
  bool misuse = update ? ((w == W_ARITH || w == W_LARG) && op == SL_EXPR_OP_LIST_APPEND)
                       : (boolean != (w == W_BOOL));
  if (misuse)
    return sl__expr_fail(
        cx, "The function is not allowed to be used this way in an expression; function: %s",
        sl__expr_op_text(n));
  uint16_t arity = op == SL_EXPR_OP_ATTRIBUTE_EXISTS || op == SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS ||
                           op == SL_EXPR_OP_SIZE
                       ? 1
                       : 2;
  if (n->n != arity)
    return sl__expr_fail(cx,
                         "Incorrect number of operands for operator or function; operator or "
                         "function: %s, number of operands: %u",
                         sl__expr_op_text(n), n->n);
  sl_err err;
  for (uint16_t i = 0; i < n->n; i++)
    if ((err = resolve_node(cx, n->args[i],
                            !update                        ? W_OPERAND
                            : op == SL_EXPR_OP_LIST_APPEND ? W_LARG
                                                           : W_UARG,
                            update)) != SL_OK)
      return err;
  bool path_first = op == SL_EXPR_OP_ATTRIBUTE_EXISTS || op == SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS ||
                    op == SL_EXPR_OP_ATTRIBUTE_TYPE || op == SL_EXPR_OP_IF_NOT_EXISTS;
  if (path_first && n->args[0]->op != SL_EXPR_OP_PATH)
    return sl__expr_fail(cx,
                         "Operator or function requires a document path; operator or function: %s",
                         sl__expr_op_text(n));
  if (op == SL_EXPR_OP_ATTRIBUTE_TYPE || op == SL_EXPR_OP_BEGINS_WITH ||
      op == SL_EXPR_OP_CONTAINS || op == SL_EXPR_OP_IF_NOT_EXISTS)
    if ((err = check_distinct(cx, n)) != SL_OK)
      return err;
  for (uint16_t i = 0; i < n->n; i++) {
    uint8_t t = static_type(n->args[i]);
    if (!t)
      continue;
    bool ok = true;
    switch (op) {
    case SL_EXPR_OP_BEGINS_WITH:
      ok = t == SL_AV_S || t == SL_AV_B;
      break;
    case SL_EXPR_OP_SIZE:
      ok = t != SL_AV_N && t != SL_AV_BOOL && t != SL_AV_NULL;
      break;
    case SL_EXPR_OP_LIST_APPEND:
      ok = t == SL_AV_L;
      break;
    case SL_EXPR_OP_ATTRIBUTE_TYPE:
      ok = t == SL_AV_S;
      break;
    default:
      break;
    }
    if (!ok)
      return bad_operand_type(cx, n, t);
  }
  if (op == SL_EXPR_OP_ATTRIBUTE_TYPE) {
    const sl_expr_node *t = n->args[1];
    if (t->op != SL_EXPR_OP_VALUE)
      return sl__expr_fail(
          cx, "Incorrect operand type for operator or function; operator or function: "
              "attribute_type, operand type: {BOOL,DICT,BS,INTSET,NULL,S,DOUBLESET,L,FLOAT,"
              "DECIMALSET,NS,M,DECIMAL,HD,SS,N,DOUBLE,HDS,FS,INT,B}");
    static const char *const types[] = {"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"};
    bool valid = false;
    for (size_t i = 0; i < SL_ARRAY_LEN(types); i++)
      valid = valid || sl_str_eq_c(t->value->s, types[i]);
    if (!valid)
      return sl__expr_fail(cx,
                           "Invalid attribute type name found; type: %.*s, valid types: "
                           "{N,BS,L,B,NULL,M,S,SS,NS,BOOL}",
                           SL_STR_FMT(t->value->s));
  }
  return SL_OK;
}

static sl_err resolve_node(sl_expr_ctx *cx, sl_expr_node *n, want w, bool update) {
  sl_err err;
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_PATH:
    return sl__expr_resolve_path(cx, &n->path);
  case SL_EXPR_OP_VALUE:
    return sl__expr_resolve_value(cx, n);
  case SL_EXPR_OP_AND:
  case SL_EXPR_OP_OR:
  case SL_EXPR_OP_NOT:
    for (uint16_t i = 0; i < n->n; i++)
      if ((err = resolve_node(cx, n->args[i], W_BOOL, update)) != SL_OK)
        return err;
    return SL_OK;
  case SL_EXPR_OP_EQ:
  case SL_EXPR_OP_NE:
  case SL_EXPR_OP_LT:
  case SL_EXPR_OP_LE:
  case SL_EXPR_OP_GT:
  case SL_EXPR_OP_GE:
  case SL_EXPR_OP_BETWEEN:
  case SL_EXPR_OP_IN: {
    for (uint16_t i = 0; i < n->n; i++)
      if ((err = resolve_node(cx, n->args[i], W_OPERAND, update)) != SL_OK)
        return err;
    bool ordered = n->op != SL_EXPR_OP_EQ && n->op != SL_EXPR_OP_NE && n->op != SL_EXPR_OP_IN;
    if (ordered)
      for (uint16_t i = 0; i < n->n; i++)
        if (static_type(n->args[i]) && !is_scalar_key_type(static_type(n->args[i])))
          return bad_operand_type(cx, n, static_type(n->args[i]));
    if ((err = check_distinct(cx, n)) != SL_OK)
      return err;
    if (n->op == SL_EXPR_OP_BETWEEN && n->args[1]->op == SL_EXPR_OP_VALUE &&
        n->args[2]->op == SL_EXPR_OP_VALUE) {
      const sl_av *lo = n->args[1]->value, *hi = n->args[2]->value;
      if (lo->type != hi->type) {
        sl_str l = between_operand(cx, n->args[1]), h = between_operand(cx, n->args[2]);
        return sl__expr_fail(cx,
                             "The BETWEEN operator requires same data type for lower and upper "
                             "bounds; lower bound operand: AttributeValue: %.*s, upper bound "
                             "operand: AttributeValue: %.*s",
                             SL_STR_FMT(l), SL_STR_FMT(h));
      }
      if (sl__expr_cmp_scalar(lo, hi) > 0) {
        sl_str l = between_operand(cx, n->args[1]), h = between_operand(cx, n->args[2]);
        return sl__expr_fail(cx,
                             "The BETWEEN operator requires upper bound to be greater than or "
                             "equal to lower bound; lower bound operand: AttributeValue: %.*s, "
                             "upper bound operand: AttributeValue: %.*s",
                             SL_STR_FMT(l), SL_STR_FMT(h));
      }
    }
    return SL_OK;
  }
  case SL_EXPR_OP_PLUS:
  case SL_EXPR_OP_MINUS:
    for (uint16_t i = 0; i < n->n; i++) {
      if ((err = resolve_node(cx, n->args[i], W_ARITH, update)) != SL_OK)
        return err;
      if (n->args[i]->op == SL_EXPR_OP_VALUE && n->args[i]->value->type != SL_AV_N)
        return bad_operand_type(cx, n, n->args[i]->value->type);
    }
    return SL_OK;
  default:
    if (is_function(n->op))
      return check_function(cx, n, w, update);
    return SL_OK;
  }
}

static sl_err check_reserved(sl_expr_ctx *cx, const sl__expr_parsed *pr) {
  if (pr->reserved.len)
    return sl__expr_fail(cx, "Attribute name is a reserved keyword; reserved keyword: %.*s",
                         SL_STR_FMT(pr->reserved));
  return SL_OK;
}

/* ---- the three grammars ---- */

sl_err sl__expr_resolve_condition(sl_expr_ctx *cx, const sl__expr_parsed *pr, sl_expr *c) {
  sl_err err = check_reserved(cx, pr);
  if (err == SL_OK)
    err = resolve_node(cx, c, W_BOOL, false);
  return err;
}

sl_err sl__expr_resolve_update(sl_expr_ctx *cx, const sl__expr_parsed *pr, sl_expr_update *u) {
  sl_err err;
  if ((err = check_reserved(cx, pr)) != SL_OK)
    return err;
  for (uint32_t i = 0; i < u->n; i++) {
    sl_expr_action *a = &u->acts[i];
    if ((err = sl__expr_resolve_path(cx, &a->path)) != SL_OK)
      return err;
    if (!a->value)
      continue;
    if ((err = resolve_node(cx, a->value, W_SET, true)) != SL_OK)
      return err;
    if (a->kind == SL_EXPR_ADD || a->kind == SL_EXPR_DELETE) {
      uint8_t t = a->value->value->type;
      bool is_set = t == SL_AV_SS || t == SL_AV_NS || t == SL_AV_BS;
      if (!is_set && (a->kind == SL_EXPR_DELETE || t != SL_AV_N)) {
        static const char *const long_names[] = {
            [SL_AV_S] = "STRING",     [SL_AV_N] = "NUMBER",  [SL_AV_B] = "BINARY",
            [SL_AV_BOOL] = "BOOLEAN", [SL_AV_NULL] = "NULL", [SL_AV_L] = "LIST",
            [SL_AV_M] = "MAP"};
        bool add = a->kind == SL_EXPR_ADD;
        return sl__expr_fail(cx,
                             "Incorrect operand type for operator or function; operator: %s, "
                             "operand type: %s, typeSet: %s",
                             add ? "ADD" : "DELETE", long_names[t],
                             add ? "ALLOWED_FOR_ADD_OPERAND" : "ALLOWED_FOR_DELETE_OPERAND");
      }
    }
  }
  const sl_expr_path **paths = SL_NEW_ARRAY(cx->arena, const sl_expr_path *, u->n);
  u->paths.n = u->n;
  u->paths.paths = SL_NEW_ARRAY(cx->arena, sl_expr_path, u->n);
  for (uint32_t i = 0; i < u->n; i++) {
    paths[i] = &u->acts[i].path;
    u->paths.paths[i] = u->acts[i].path;
  }
  if ((err = check_paths(cx, paths, u->n)) != SL_OK)
    return err;
  return SL_OK;
}

sl_err sl__expr_resolve_projection(sl_expr_ctx *cx, const sl__expr_parsed *pr, sl_expr_proj *p) {
  sl_err err;
  if ((err = check_reserved(cx, pr)) != SL_OK)
    return err;
  const sl_expr_path **paths = SL_NEW_ARRAY(cx->arena, const sl_expr_path *, p->n);
  for (uint32_t i = 0; i < p->n; i++) {
    if ((err = sl__expr_resolve_path(cx, &p->paths[i])) != SL_OK)
      return err;
    paths[i] = &p->paths[i];
  }
  if ((err = check_paths(cx, paths, p->n)) != SL_OK)
    return err;
  return SL_OK;
}

/* ---- key attributes ---- */

static bool is_key_name(const sl_key_schema *ks, sl_str name) {
  return sl_key_schema_uses(ks, name);
}

static sl_err filter_keys(sl_expr_ctx *cx, const sl_expr_node *n, const sl_key_schema *ks) {
  if (n->op == SL_EXPR_OP_PATH) {
    if (n->path.n && n->path.e[0].kind == SL_EXPR_ELEM_NAME && is_key_name(ks, n->path.e[0].name))
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "%s can only contain non-primary key attributes: Primary key attribute: %.*s",
                      cx->filter_name ? cx->filter_name : "Filter Expression",
                      SL_STR_FMT(n->path.e[0].name));
    return SL_OK;
  }
  if (n->op == SL_EXPR_OP_VALUE)
    return SL_OK;
  for (uint16_t i = 0; i < n->n; i++) {
    sl_err err = filter_keys(cx, n->args[i], ks);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_expr_filter_check_keys(sl_expr_ctx *cx, const sl_expr *filter, const sl_key_schema *ks) {
  return filter ? filter_keys(cx, filter, ks) : SL_OK;
}

sl_err sl_expr_update_check_keys(sl_expr_ctx *cx, const sl_expr_update *u,
                                 const sl_key_schema *ks) {
  for (uint32_t i = 0; u && i < u->n; i++) {
    const sl_expr_path *p = &u->acts[i].path;
    if (p->n && is_key_name(ks, p->e[0].name))
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "One or more parameter values were invalid: Cannot update attribute %.*s. "
                      "This attribute is part of the key",
                      SL_STR_FMT(p->e[0].name));
  }
  return SL_OK;
}
