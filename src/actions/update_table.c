/*
 * UpdateTable — changes a table's billing mode, provisioned throughput,
 * on-demand maximums, warm throughput, stream, class or deletion protection,
 * and creates, updates or deletes global secondary indexes.
 * Pinned by tests/conformance/test_update_table.py and test_gsi_lifecycle.py
 * (and the capacity scenarios for the throughput rules).
 *
 * The action refuses what sluice does not support, reads the request into
 * sl_update_table_in and writes the reply; the core (ops/update_table.h)
 * makes the change on a clone of the table, installed only after the catalog
 * record is committed: a rejected update changes nothing.
 */
#include "actions/actions.h"
#include "ops/update_table.h"
#include "actions/describe.h"
#include "base/log.h"

/* GlobalSecondaryIndexUpdates, entry by entry. */
static sl_gsi_updates_in read_gsi_updates(sl_req *req, const sl_json *list) {
  sl_gsi_updates_in in = {false, NULL, 0};
  if (!list)
    return in;
  sl_gsi_update_in *e = SL_NEW_ARRAY(req->arena, sl_gsi_update_in, list->arr.n + 1);
  for (size_t i = 0; i < list->arr.n; i++) {
    const sl_json *o = list->arr.items[i];
    static const struct {
      const char *member;
      sl_gsi_action kind;
    } kinds[] = {{"Create", SL_GSI_CREATE}, {"Update", SL_GSI_UPDATE}, {"Delete", SL_GSI_DELETE}};
    sl_gsi_update_in *u = &e[i];
    memset(u, 0, sizeof(*u));
    const sl_json *a = NULL;
    for (size_t k = 0; k < SL_ARRAY_LEN(kinds); k++) {
      const sl_json *v = sl_in_obj(o, kinds[k].member);
      if (!v)
        continue;
      u->n_actions++;
      if (!a) {
        a = v;
        u->kind = kinds[k].kind;
      }
    }
    if (!a)
      continue;
    u->name = sl_in_str(a, "IndexName");
    u->key = sl_in_key_schema(req->arena, sl_json_get(a, "KeySchema"));
    u->projection = sl_in_projection(req->arena, sl_json_get(a, "Projection"));
    u->pt = sl_in_units(sl_json_get(a, "ProvisionedThroughput"), "ReadCapacityUnits",
                        "WriteCapacityUnits");
    u->od = sl_in_units(sl_json_get(a, "OnDemandThroughput"), "MaxReadRequestUnits",
                        "MaxWriteRequestUnits");
    u->warm =
        sl_in_units(sl_json_get(a, "WarmThroughput"), "ReadUnitsPerSecond", "WriteUnitsPerSecond");
  }
  in.present = true;
  in.e = e;
  in.n = (uint32_t)list->arr.n;
  return in;
}

static void read_request(sl_req *req, sl_update_table_in *in) {
  const sl_json *body = req->body;
  memset(in, 0, sizeof(*in));
  in->table = sl_in_str(body, "TableName");
  in->billing = sl_in_str(body, "BillingMode");
  in->pt = sl_in_units(sl_json_get(body, "ProvisionedThroughput"), "ReadCapacityUnits",
                       "WriteCapacityUnits");
  in->od = sl_in_units(sl_json_get(body, "OnDemandThroughput"), "MaxReadRequestUnits",
                       "MaxWriteRequestUnits");
  in->warm =
      sl_in_units(sl_json_get(body, "WarmThroughput"), "ReadUnitsPerSecond", "WriteUnitsPerSecond");
  in->has_deletion_protection = sl_in_has(body, "DeletionProtectionEnabled");
  in->deletion_protection = sl_in_bool(body, "DeletionProtectionEnabled", false);
  in->table_class = sl_in_str(body, "TableClass");
  const sl_json *ss = sl_in_obj(body, "StreamSpecification");
  if (ss) {
    in->stream.present = true;
    in->stream.enabled = sl_in_bool(ss, "StreamEnabled", false);
    in->stream.view_type = sl_in_str(ss, "StreamViewType");
  }
  in->has_sse = sl_in_has(body, "SSESpecification");
  in->gsi = read_gsi_updates(req, sl_in_arr(body, "GlobalSecondaryIndexUpdates"));
  in->defs = sl_in_attr_defs(req->arena, sl_json_get(body, "AttributeDefinitions"));
}

sl_err sl_action_update_table(sl_req *req) {
  static const sl_unsupported unsupported[] = {
      {"ReplicaUpdates", "global tables"},
      {"MultiRegionConsistency", "global tables"},
      {"GlobalTableWitnessUpdates", "global tables"},
      {"GlobalTableSettingsReplicationMode", "global tables"},
  };
  sl_err err = sl_in_refuse_unsupported(req, req->body, unsupported, SL_ARRAY_LEN(unsupported));
  if (err == SL_OK)
    err = sl_in_refuse_kms(req, req->body);
  if (err != SL_OK)
    return err;
  sl_update_table_in in;
  read_request(req, &in);
  sl_update_table_result res;
  if ((err = sl_update_table(req, &in, &res)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "TableDescription");
  sl_describe_updated_table(req, res.before, res.table);
  sl_jw_obj_end(&req->w);
  sl_table_free(res.before);
  return SL_OK;
}
