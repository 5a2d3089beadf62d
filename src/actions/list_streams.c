/*
 * ListStreams (DynamoDB Streams) — the streams kept, optionally of one
 * table, ordered by table name and newest first, paginated with Limit
 * (1..100, default 100) and ExclusiveStartStreamArn / LastEvaluatedStreamArn.
 * A disabled stream, or one of a deleted table, is listed until its records
 * have aged out (24 h). Pinned by tests/conformance/test_streams.py; the
 * core is ops/streams.h.
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "ops/streams.h"

sl_err sl_action_list_streams(sl_req *req) {
  sl_list_streams_req in = {.table_name = sl_in_str(req->body, "TableName"),
                            .limit = sl_in_int(req->body, "Limit", 100),
                            .exclusive_start_arn = sl_in_str(req->body, "ExclusiveStartStreamArn")};
  if (in.limit > 100)
    in.limit = 100;
  sl_list_streams_res out;
  sl_err err = sl_list_streams(req, &in, &out);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Streams");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < out.n; i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "StreamArn");
    sl_jw_str(w, sl_streams_arn(req, &out.streams[i]));
    sl_jw_key_c(w, "TableName");
    sl_jw_str(w, out.streams[i].table_name);
    sl_jw_key_c(w, "StreamLabel");
    sl_jw_str(w, out.streams[i].label);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  if (out.more && out.n) {
    sl_jw_key_c(w, "LastEvaluatedStreamArn");
    sl_jw_str(w, sl_streams_arn(req, &out.streams[out.n - 1]));
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
