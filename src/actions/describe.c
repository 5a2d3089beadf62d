/* TableDescription; see describe.h. */
#include "actions/describe.h"
#include "actions/reply.h"
#include "base/log.h"
#include "cap/cap.h"

#include <stdio.h>

static const char *attr_type_name(uint8_t t) { return sl_av_type_name((sl_av_type)t); }

/* Every key attribute in KeySchema order (multi-attribute GSI keys list all
 * their HASH elements, then all their RANGE elements). */
void sl_describe_key_schema(sl_jw *w, const sl_key_schema *k) {
  uint32_t nh = sl_key_n_hash(k), n = nh + sl_key_n_range(k);
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < n; i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "AttributeName");
    sl_jw_str(w, sl_key_part(k, i).name);
    sl_jw_key_c(w, "KeyType");
    sl_jw_str_c(w, i < nh ? "HASH" : "RANGE");
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

void sl_describe_projection(sl_jw *w, const sl_index *x) {
  static const char *const names[] = {"ALL", "KEYS_ONLY", "INCLUDE"};
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ProjectionType");
  sl_jw_str_c(w, names[x->projection]);
  if (x->projection == SL_PROJ_INCLUDE) {
    sl_jw_key_c(w, "NonKeyAttributes");
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < x->n_non_key; i++)
      sl_jw_str(w, x->non_key[i]);
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
}

/* 'shown': the throughput whose units the reply shows, when it is not
 * 'tp' (UpdateTable's reply: the units before the change takes effect). */
static void write_provisioned(sl_jw *w, const sl_throughput *tp, const sl_throughput *shown,
                              int64_t now_ms) {
  if (!shown || shown->billing != SL_BILLING_PROVISIONED)
    shown = tp;
  sl_jw_obj_begin(w);
  if (tp->last_increase_ms) {
    sl_jw_key_c(w, "LastIncreaseDateTime");
    sl_reply_time(w, (int64_t)tp->last_increase_ms);
  }
  if (tp->last_decrease_ms) {
    sl_jw_key_c(w, "LastDecreaseDateTime");
    sl_reply_time(w, (int64_t)tp->last_decrease_ms);
  }
  sl_jw_key_c(w, "NumberOfDecreasesToday");
  sl_jw_int(w, sl_cap_decreases_today(tp, now_ms));
  sl_jw_key_c(w, "ReadCapacityUnits");
  sl_jw_int(w, tp->billing == SL_BILLING_PROVISIONED ? shown->rcu : 0);
  sl_jw_key_c(w, "WriteCapacityUnits");
  sl_jw_int(w, tp->billing == SL_BILLING_PROVISIONED ? shown->wcu : 0);
  sl_jw_obj_end(w);
}

static void write_on_demand(sl_jw *w, const sl_throughput *tp) {
  if (tp->billing != SL_BILLING_PAY_PER_REQUEST || (tp->max_read_ru < 0 && tp->max_write_ru < 0))
    return;
  sl_jw_key_c(w, "OnDemandThroughput");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "MaxReadRequestUnits");
  sl_jw_int(w, tp->max_read_ru);
  sl_jw_key_c(w, "MaxWriteRequestUnits");
  sl_jw_int(w, tp->max_write_ru);
  sl_jw_obj_end(w);
}

/* Warm throughput: what the resource can serve now (spec §6): at least the
 * requested warm values, and at least what its partitions serve. */
static void write_warm(sl_jw *w, const sl_cap_params *p, const sl_throughput *tp,
                       const struct sl_cap_res *res) {
  /* What the partitions serve on demand (12,000 / 4,000 for a new table's
   * four), the most ever provisioned otherwise (facts §4): cap/cap.h
   * sl_cap_warm_current, which UpdateTable's refusal of a decrease reads
   * too. */
  int64_t r, wr;
  sl_cap_warm_current(p, tp, res, &r, &wr);
  sl_jw_key_c(w, "WarmThroughput");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ReadUnitsPerSecond");
  sl_jw_int(w, r);
  sl_jw_key_c(w, "WriteUnitsPerSecond");
  sl_jw_int(w, wr);
  sl_jw_key_c(w, "Status");
  sl_jw_str_c(w, tp->warm_status == SL_STATUS_UPDATING ? "UPDATING" : "ACTIVE");
  sl_jw_obj_end(w);
}

/* 'before': the index in the table's previous version, or NULL. */
static void write_index(sl_jw *w, const sl_cap_params *p, const sl_index *x, const sl_index *before,
                        int status, int64_t now_ms) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "IndexName");
  sl_jw_str(w, x->name);
  sl_jw_key_c(w, "KeySchema");
  sl_describe_key_schema(w, &x->key);
  sl_jw_key_c(w, "Projection");
  sl_describe_projection(w, x);
  if (x->global) {
    sl_jw_key_c(w, "IndexStatus");
    sl_jw_str_c(w, sl_status_name(status >= 0 ? (sl_status)status : (sl_status)x->status));
    /* An index created on a live table says whether its backfill runs yet;
     * one created with the table never has the member (facts §10). */
    if (x->backfilling || (x->online && x->status == SL_STATUS_CREATING)) {
      sl_jw_key_c(w, "Backfilling");
      sl_jw_bool(w, x->backfilling);
    }
    sl_jw_key_c(w, "ProvisionedThroughput");
    write_provisioned(w, &x->tp, before ? &before->tp : NULL, now_ms);
  }
  sl_jw_key_c(w, "IndexSizeBytes");
  sl_jw_uint(w, x->size_bytes);
  sl_jw_key_c(w, "ItemCount");
  sl_jw_uint(w, x->item_count);
  sl_jw_key_c(w, "IndexArn");
  sl_jw_str(w, x->arn);
  if (x->global) {
    write_on_demand(w, &x->tp);
    write_warm(w, p, &x->tp, x->cap);
  }
  sl_jw_obj_end(w);
}

/* BillingModeSummary, for on-demand tables and those that ever were. */
static void write_billing_summary(sl_jw *w, const sl_table *t) {
  if (t->tp.billing != SL_BILLING_PAY_PER_REQUEST && !t->tp.last_ppr_update_ms)
    return;
  sl_jw_key_c(w, "BillingModeSummary");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BillingMode");
  sl_jw_str_c(w, t->tp.billing == SL_BILLING_PAY_PER_REQUEST ? "PAY_PER_REQUEST" : "PROVISIONED");
  sl_jw_key_c(w, "LastUpdateToPayPerRequestDateTime");
  sl_reply_time(w, (int64_t)(t->tp.last_ppr_update_ms ? t->tp.last_ppr_update_ms : t->created_ms));
  sl_jw_obj_end(w);
}

/* TableClassSummary, for tables not of the default class. */
static void write_class_summary(sl_jw *w, const sl_table *t) {
  if (t->table_class != 1)
    return;
  sl_jw_key_c(w, "TableClassSummary");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableClass");
  sl_jw_str_c(w, "STANDARD_INFREQUENT_ACCESS");
  sl_jw_obj_end(w);
}

/* The members every description starts its counters and identity with. */
static void write_size_and_identity(sl_jw *w, const sl_table *t) {
  sl_jw_key_c(w, "TableSizeBytes");
  sl_jw_uint(w, t->size_bytes);
  sl_jw_key_c(w, "ItemCount");
  sl_jw_uint(w, t->item_count);
  sl_jw_key_c(w, "TableArn");
  sl_jw_str(w, t->arn);
  sl_jw_key_c(w, "TableId");
  sl_jw_str_c(w, t->uuid);
}

void sl_describe_deleted_table(sl_req *req, const sl_table *t) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, t->name);
  sl_jw_key_c(w, "TableStatus");
  sl_jw_str_c(w, sl_status_name(SL_STATUS_DELETING));
  sl_jw_key_c(w, "ProvisionedThroughput");
  write_provisioned(w, &t->tp, NULL, req->now_ms);
  write_size_and_identity(w, t);
  write_billing_summary(w, t);
  write_class_summary(w, t);
  sl_jw_key_c(w, "DeletionProtectionEnabled");
  sl_jw_bool(w, t->deletion_protection);
  sl_jw_obj_end(w);
}

/* 'before': the table's previous version whose provisioned units the reply
 * shows, or NULL. */
static void describe(sl_req *req, const sl_table *t, int status, const sl_table *before) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "AttributeDefinitions");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < t->n_defs; i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "AttributeName");
    sl_jw_str(w, t->defs[i].name);
    sl_jw_key_c(w, "AttributeType");
    sl_jw_str_c(w, attr_type_name(t->defs[i].type));
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, t->name);
  sl_jw_key_c(w, "KeySchema");
  sl_describe_key_schema(w, &t->key);
  sl_jw_key_c(w, "TableStatus");
  sl_jw_str_c(w, sl_status_name(status >= 0 ? (sl_status)status : (sl_status)t->status));
  sl_jw_key_c(w, "CreationDateTime");
  sl_reply_time(w, (int64_t)t->created_ms);
  sl_jw_key_c(w, "ProvisionedThroughput");
  write_provisioned(w, &t->tp, before ? &before->tp : NULL, req->now_ms);
  write_size_and_identity(w, t);
  write_billing_summary(w, t);
  for (int global = 0; global < 2; global++) {
    bool any = false;
    for (uint32_t i = 0; i < t->n_indexes; i++) {
      const sl_index *x = &t->indexes[i];
      if (x->global != global)
        continue;
      if (!any) {
        sl_jw_key_c(w, global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
        sl_jw_arr_begin(w);
        any = true;
      }
      write_index(w, sl_cap_params_of(req->env->cap), x,
                  before ? sl_table_index(before, x->name) : NULL,
                  status == SL_STATUS_CREATING && global ? SL_STATUS_CREATING : -1, req->now_ms);
    }
    if (any)
      sl_jw_arr_end(w);
  }
  if (t->stream_enabled) {
    sl_jw_key_c(w, "StreamSpecification");
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "StreamEnabled");
    sl_jw_bool(w, true);
    sl_jw_key_c(w, "StreamViewType");
    sl_jw_str(w, t->stream_view_type);
    sl_jw_obj_end(w);
  }
  /* The latest stream stays named after it is disabled, without a
   * StreamSpecification (DynamoDB Local; tests/conformance/test_streams.py). */
  if (t->stream_label.len) {
    sl_jw_key_c(w, "LatestStreamLabel");
    sl_jw_str(w, t->stream_label);
    sl_jw_key_c(w, "LatestStreamArn");
    sl_jw_str(w, sl_arena_printf(req->arena, "%.*s/stream/%.*s", SL_STR_FMT(t->arn),
                                 SL_STR_FMT(t->stream_label)));
  }
  if (t->restore_backup_arn.len) {
    /* A table restored from a backup (ops/backups.h); the restore is done
     * when the reply is written. */
    sl_jw_key_c(w, "RestoreSummary");
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "SourceBackupArn");
    sl_jw_str(w, t->restore_backup_arn);
    sl_jw_key_c(w, "SourceTableArn");
    sl_jw_str(w, t->restore_source_arn);
    sl_jw_key_c(w, "RestoreDateTime");
    sl_reply_time(w, (int64_t)t->restore_ms);
    sl_jw_key_c(w, "RestoreInProgress");
    sl_jw_bool(w, false);
    sl_jw_obj_end(w);
  }
  write_class_summary(w, t);
  sl_jw_key_c(w, "DeletionProtectionEnabled");
  sl_jw_bool(w, t->deletion_protection);
  write_on_demand(w, &t->tp);
  write_warm(w, sl_cap_params_of(req->env->cap), &t->tp, t->cap);
  sl_jw_obj_end(w);
}

void sl_describe_table(sl_req *req, const sl_table *t, int status) {
  describe(req, t, status, NULL);
}

void sl_describe_updated_table(sl_req *req, const sl_table *old, const sl_table *t) {
  describe(req, t, -1, old);
}
