/*
 * Pass 3 for conditions and filters (see expr.h "Evaluation semantics"):
 * path lookup, comparisons and functions over one item. Pure and
 * allocation-free: size() results live in a small buffer on the stack.
 */
#include "expr/expr_int.h"
#include "base/num.h"

#include <stdio.h>

const sl_av *sl_expr_path_get(const sl_item *item, const sl_expr_path *path) {
  if (!item || path->n == 0 || path->e[0].kind != SL_EXPR_ELEM_NAME)
    return NULL;
  const sl_av *v = sl_item_get(item, path->e[0].name);
  for (uint32_t i = 1; v && i < path->n; i++) {
    const sl_expr_elem *e = &path->e[i];
    if (e->kind == SL_EXPR_ELEM_INDEX)
      v = v->type == SL_AV_L && e->index < v->n ? &v->list[e->index] : NULL;
    else
      v = sl_av_map_get(v, e->name);
  }
  return v;
}

/* Numeric order of two canonical N texts (base/num.h: plain notation, no
 * leading or trailing zeros, "-" only for negatives), without parsing them:
 * a longer integer part is larger, then digits compare bytewise, and a
 * fraction that is a prefix of the other is smaller. */
static int cmp_canonical(sl_str a, sl_str b) {
  bool na = a.len && a.p[0] == '-', nb = b.len && b.p[0] == '-';
  if (na != nb)
    return na ? -1 : 1;
  if (na) {
    a.p++, a.len--;
    b.p++, b.len--;
  }
  const char *da = memchr(a.p, '.', a.len), *db = memchr(b.p, '.', b.len);
  size_t ia = da ? (size_t)(da - a.p) : a.len, ib = db ? (size_t)(db - b.p) : b.len;
  int c = ia != ib ? (ia < ib ? -1 : 1) : memcmp(a.p, b.p, ia);
  if (c == 0) {
    sl_str fa = da ? sl_str_make(da + 1, a.len - ia - 1) : SL_STR_NULL;
    sl_str fb = db ? sl_str_make(db + 1, b.len - ib - 1) : SL_STR_NULL;
    c = sl_str_cmp(fa, fb);
  }
  c = (c > 0) - (c < 0);
  return na ? -c : c;
}

int sl__expr_cmp_scalar(const sl_av *a, const sl_av *b) {
  if (a->type == SL_AV_N)
    return cmp_canonical(a->s, b->s);
  return sl_str_cmp(a->s, b->s);
}

sl_av sl__expr_num_av(sl_arena *a, const sl_num *n) {
  char buf[SL_NUM_MAX_TEXT];
  size_t len = sl_num_format(n, buf);
  sl_av v = {.type = SL_AV_N};
  v.s = sl_arena_strdup(a, (sl_str){buf, len});
  return v;
}

/* An operand's value: a pointer into the item or the request, or a number
 * computed by size() held in 'tmp'. */
typedef struct {
  const sl_av *v;
  sl_av tmp;
  char buf[24];
} operand;

/* UTF-16 code units of UTF-8 text (Java's String.length). */
static uint64_t utf16_len(sl_str s) {
  uint64_t n = 0;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.p[i];
    if ((c & 0xC0) != 0x80)
      n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

static void eval_operand(const sl_expr_node *n, const sl_item *item, operand *out) {
  out->v = NULL;
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_PATH:
    out->v = sl_expr_path_get(item, &n->path);
    return;
  case SL_EXPR_OP_VALUE:
    out->v = n->value;
    return;
  case SL_EXPR_OP_SIZE: {
    operand x;
    eval_operand(n->args[0], item, &x);
    if (!x.v)
      return;
    uint64_t size;
    switch ((sl_av_type)x.v->type) {
    case SL_AV_S:
      size = utf16_len(x.v->s);
      break;
    case SL_AV_B:
      size = x.v->s.len;
      break;
    case SL_AV_SS:
    case SL_AV_NS:
    case SL_AV_BS:
    case SL_AV_L:
    case SL_AV_M:
      size = x.v->n;
      break;
    default:
      return;
    }
    int len = snprintf(out->buf, sizeof(out->buf), "%llu", (unsigned long long)size);
    out->tmp = (sl_av){.type = SL_AV_N};
    out->tmp.s = (sl_str){out->buf, (size_t)len};
    out->v = &out->tmp;
    return;
  }
  default:
    return;
  }
}

static bool ordered_type(uint8_t t) { return t == SL_AV_S || t == SL_AV_N || t == SL_AV_B; }

/* a <op> b for <, <=, >, >=: both defined, same orderable type. */
static bool compare(const sl_av *a, const sl_av *b, sl_expr_op op) {
  if (!a || !b || a->type != b->type || !ordered_type(a->type))
    return false;
  int c = sl__expr_cmp_scalar(a, b);
  switch (op) {
  case SL_EXPR_OP_LT:
    return c < 0;
  case SL_EXPR_OP_LE:
    return c <= 0;
  case SL_EXPR_OP_GT:
    return c > 0;
  case SL_EXPR_OP_GE:
    return c >= 0;
  default:
    return false;
  }
}

static bool contains_bytes(sl_str hay, sl_str needle) {
  if (needle.len == 0)
    return true;
  if (needle.len > hay.len)
    return false;
  return memmem(hay.p, hay.len, needle.p, needle.len) != NULL;
}

static bool set_has(const sl_av *set, sl_str member) {
  for (uint32_t i = 0; i < set->n; i++)
    if (sl_str_eq(set->set[i], member))
      return true;
  return false;
}

static bool eval_contains(const sl_av *a, const sl_av *b) {
  if (!a || !b)
    return false;
  switch ((sl_av_type)a->type) {
  case SL_AV_S:
  case SL_AV_B:
    return b->type == a->type && contains_bytes(a->s, b->s);
  case SL_AV_SS:
    return b->type == SL_AV_S && set_has(a, b->s);
  case SL_AV_NS:
    return b->type == SL_AV_N && set_has(a, b->s); /* canonical text: numeric equality */
  case SL_AV_BS:
    return b->type == SL_AV_B && set_has(a, b->s);
  case SL_AV_L:
    for (uint32_t i = 0; i < a->n; i++)
      if (sl_av_eq(&a->list[i], b))
        return true;
    return false;
  default:
    return false;
  }
}

bool sl_expr_eval(const sl_expr *c, const sl_item *item) {
  if (!c)
    return true;
  operand x, y, z;
  switch ((sl_expr_op)c->op) {
  case SL_EXPR_OP_AND:
    return sl_expr_eval(c->args[0], item) && sl_expr_eval(c->args[1], item);
  case SL_EXPR_OP_OR:
    return sl_expr_eval(c->args[0], item) || sl_expr_eval(c->args[1], item);
  case SL_EXPR_OP_NOT:
    return !sl_expr_eval(c->args[0], item);
  case SL_EXPR_OP_EQ:
  case SL_EXPR_OP_NE: {
    eval_operand(c->args[0], item, &x);
    eval_operand(c->args[1], item, &y);
    bool eq = x.v && y.v && sl_av_eq(x.v, y.v);
    return c->op == SL_EXPR_OP_EQ ? eq : !eq;
  }
  case SL_EXPR_OP_LT:
  case SL_EXPR_OP_LE:
  case SL_EXPR_OP_GT:
  case SL_EXPR_OP_GE:
    eval_operand(c->args[0], item, &x);
    eval_operand(c->args[1], item, &y);
    return compare(x.v, y.v, (sl_expr_op)c->op);
  case SL_EXPR_OP_BETWEEN:
    eval_operand(c->args[0], item, &x);
    eval_operand(c->args[1], item, &y);
    eval_operand(c->args[2], item, &z);
    if (!x.v || !y.v || !z.v || y.v->type != x.v->type || z.v->type != x.v->type)
      return false;
    return compare(x.v, y.v, SL_EXPR_OP_GE) && compare(x.v, z.v, SL_EXPR_OP_LE);
  case SL_EXPR_OP_IN:
    eval_operand(c->args[0], item, &x);
    if (!x.v)
      return false;
    for (uint16_t i = 1; i < c->n; i++) {
      eval_operand(c->args[i], item, &y);
      if (y.v && sl_av_eq(x.v, y.v))
        return true;
    }
    return false;
  case SL_EXPR_OP_ATTRIBUTE_EXISTS:
    return sl_expr_path_get(item, &c->args[0]->path) != NULL;
  case SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS:
    return sl_expr_path_get(item, &c->args[0]->path) == NULL;
  case SL_EXPR_OP_ATTRIBUTE_TYPE:
    eval_operand(c->args[0], item, &x);
    eval_operand(c->args[1], item, &y);
    return x.v && y.v && y.v->type == SL_AV_S &&
           sl_str_eq_c(y.v->s, sl_av_type_name((sl_av_type)x.v->type));
  case SL_EXPR_OP_BEGINS_WITH:
    eval_operand(c->args[0], item, &x);
    eval_operand(c->args[1], item, &y);
    return x.v && y.v && x.v->type == y.v->type && (x.v->type == SL_AV_S || x.v->type == SL_AV_B) &&
           sl_str_starts_with(x.v->s, y.v->s);
  case SL_EXPR_OP_CONTAINS:
    eval_operand(c->args[0], item, &x);
    eval_operand(c->args[1], item, &y);
    return eval_contains(x.v, y.v);
  default:
    return false; /* the resolver lets nothing else reach a condition */
  }
}
