/* Tables as plain data: creation, deep copies; see schema.h. */
#include "store/schema.h"
#include "base/log.h"

#include <stdlib.h>

const char *sl_status_name(sl_status s) {
  switch (s) {
  case SL_STATUS_ACTIVE:
    return "ACTIVE";
  case SL_STATUS_CREATING:
    return "CREATING";
  case SL_STATUS_UPDATING:
    return "UPDATING";
  case SL_STATUS_DELETING:
    return "DELETING";
  }
  return "ACTIVE";
}

sl_table *sl_table_new(void) {
  sl_table *t = calloc(1, sizeof(*t));
  if (!t)
    sl_panic("out of memory");
  sl_arena_init(&t->mem);
  t->tp.max_read_ru = t->tp.max_write_ru = -1;
  return t;
}

void sl_table_free(sl_table *t) {
  if (!t)
    return;
  sl_arena_destroy(&t->mem);
  free(t);
}

sl_str sl_table_str(sl_table *t, sl_str s) { return sl_arena_strdup(&t->mem, s); }

void sl_key_schema_add(sl_key_schema *k, bool hash, sl_str name, uint8_t type) {
  SL_ASSERT(k->n_hash + k->n_range < 2 * SL_KEY_MAX_PARTS && (hash ? !k->n_range : k->n_hash));
  k->attrs[k->n_hash + k->n_range] = (sl_key_attr){name, type};
  if (hash && k->n_hash++ == 0) {
    k->hash = name;
    k->hash_type = type;
  } else if (!hash && k->n_range++ == 0) {
    k->range = name;
    k->range_type = type;
  }
}

bool sl_key_schema_uses(const sl_key_schema *k, sl_str name) {
  uint32_t n = sl_key_n_hash(k) + sl_key_n_range(k);
  for (uint32_t i = 0; i < n; i++)
    if (sl_str_eq(sl_key_part(k, i).name, name))
      return true;
  return false;
}

static void copy_key(sl_table *t, sl_key_schema *k) {
  k->hash = sl_table_str(t, k->hash);
  k->range = sl_table_str(t, k->range);
  for (uint32_t i = 0; i < (uint32_t)(k->n_hash + k->n_range); i++)
    k->attrs[i].name = sl_table_str(t, k->attrs[i].name);
}

sl_table *sl_table_clone(const sl_table *src) {
  sl_table *t = sl_table_new();
  sl_arena mem = t->mem;
  *t = *src;
  t->mem = mem;
  t->name = sl_table_str(t, src->name);
  t->arn = sl_table_str(t, src->arn);
  t->restore_backup_arn = sl_table_str(t, src->restore_backup_arn);
  t->restore_source_arn = sl_table_str(t, src->restore_source_arn);
  copy_key(t, &t->key);
  t->defs = SL_NEW_ARRAY(&t->mem, sl_attr_def, src->n_defs + 1);
  for (uint32_t i = 0; i < src->n_defs; i++) {
    t->defs[i] = src->defs[i];
    t->defs[i].name = sl_table_str(t, src->defs[i].name);
  }
  t->indexes = SL_NEW_ARRAY(&t->mem, sl_index, src->n_indexes + 1);
  for (uint32_t i = 0; i < src->n_indexes; i++) {
    sl_index *x = &t->indexes[i];
    *x = src->indexes[i];
    x->name = sl_table_str(t, x->name);
    x->arn = sl_table_str(t, x->arn);
    copy_key(t, &x->key);
    x->non_key = SL_NEW_ARRAY(&t->mem, sl_str, x->n_non_key + 1);
    for (uint32_t j = 0; j < x->n_non_key; j++)
      x->non_key[j] = sl_table_str(t, src->indexes[i].non_key[j]);
  }
  t->tags = SL_NEW_ARRAY(&t->mem, sl_tag, src->n_tags + 1);
  for (uint32_t i = 0; i < src->n_tags; i++) {
    t->tags[i].key = sl_table_str(t, src->tags[i].key);
    t->tags[i].value = sl_table_str(t, src->tags[i].value);
  }
  t->stream_view_type = sl_table_str(t, src->stream_view_type);
  t->stream_label = sl_table_str(t, src->stream_label);
  t->ttl_attr = sl_table_str(t, src->ttl_attr);
  return t;
}

const sl_index *sl_table_index(const sl_table *t, sl_str name) {
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (sl_str_eq(t->indexes[i].name, name))
      return &t->indexes[i];
  return NULL;
}

uint8_t sl_table_attr_type(const sl_table *t, sl_str name) {
  for (uint32_t i = 0; i < t->n_defs; i++)
    if (sl_str_eq(t->defs[i].name, name))
      return t->defs[i].type;
  return 0;
}

bool sl_table_has_lsi(const sl_table *t) {
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (!t->indexes[i].global)
      return true;
  return false;
}
