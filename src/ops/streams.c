/* The DynamoDB Streams API's cores; see streams.h. Pinned by
 * tests/conformance/test_streams.py. */
#include "ops/streams.h"
#include "cap/cap.h"
#include "metrics/metrics.h"

#include <string.h>

#define RECORDS_MAX_BYTES (1024 * 1024) /* GetRecords: at most 1 MB (facts §11) */

sl_str sl_streams_arn(sl_req *req, const sl_stream *st) {
  return sl_arena_printf(req->arena, "arn:aws:dynamodb:%s:%s:table/%.*s/stream/%.*s",
                         req->env->region, req->env->account_id, SL_STR_FMT(st->table_name),
                         SL_STR_FMT(st->label));
}

/* The stream an ARN names, or ResourceNotFoundException. */
static sl_err find_stream(sl_req *req, sl_txn *txn, sl_str arn, sl_stream *out) {
  sl_str prefix = sl_arena_printf(req->arena, "arn:aws:dynamodb:%s:%s:table/", req->env->region,
                                  req->env->account_id);
  if (sl_str_starts_with(arn, prefix)) {
    sl_str rest = sl_str_make(arn.p + prefix.len, arn.len - prefix.len);
    static const char sep[] = "/stream/";
    for (size_t i = 0; i + sizeof(sep) - 1 <= rest.len; i++) {
      if (memcmp(rest.p + i, sep, sizeof(sep) - 1) != 0)
        continue;
      sl_str name = sl_str_make(rest.p, i);
      sl_str label = sl_str_make(rest.p + i + sizeof(sep) - 1, rest.len - i - (sizeof(sep) - 1));
      if (sl_streams_get(txn, req->arena, name, label, out))
        return SL_OK;
      break;
    }
  }
  return sl_fail(req, SL_E_STREAMS_RESOURCE_NOT_FOUND,
                 "Requested resource not found: Stream: %.*s not found", SL_STR_FMT(arn));
}

/* The request's snapshot for reading shards: their index up to date first
 * (streams/streams.h, "the index"). */
static sl_err shards_snapshot(sl_req *req, sl_txn **out) {
  sl_err err = sl_streams_index(req->env->streams, &req->fail);
  return err == SL_OK ? sl_req_snapshot(req, out) : err;
}

sl_err sl_list_streams(sl_req *req, const sl_list_streams_req *in, sl_list_streams_res *out) {
  sl_txn *txn;
  sl_err err = sl_req_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  sl_stream *v;
  size_t n, i = 0;
  sl_streams_list(txn, req->arena, in->table_name, &v, &n);
  if (in->exclusive_start_arn.len) {
    /* After the named stream; from the start when it is not (or no longer)
     * kept, as a table scan of the service's index would. */
    for (size_t j = 0; j < n; j++)
      if (sl_str_eq(sl_streams_arn(req, &v[j]), in->exclusive_start_arn)) {
        i = j + 1;
        break;
      }
  }
  size_t k = n - i < (size_t)in->limit ? n - i : (size_t)in->limit;
  out->streams = v + i;
  out->n = k;
  out->more = i + k < n;
  return SL_OK;
}

/* A stream is ENABLING while the table is being created with it, or is
 * UPDATING from the UpdateTable that enabled it, and DISABLING while the
 * table is UPDATING from the UpdateTable that disabled it, then DISABLED:
 * the service's states, for as long as the table's status says (under
 * --delays realistic a drawn time, jobs/env.h). A stream whose table was
 * deleted, or replaced, is DISABLING for table_update_delay_ms
 * (cap/params.def) after the DeleteTable. */
static const char *stream_status(sl_req *req, const sl_stream *st) {
  sl_table *t = sl_catalog_get(req->env->catalog, st->table_name);
  bool own = t && t->id == st->table_id && sl_str_eq(t->stream_label, st->label);
  bool changing = own && t->status == SL_STATUS_UPDATING && (t->update_cause & SL_UPDATE_STREAM);
  if (!st->enabled) {
    if (own)
      return changing ? "DISABLING" : "DISABLED";
    int64_t delay = sl_cap_params_of(req->env->cap)->table_update_delay_ms;
    return req->now_ms < (int64_t)st->disabled_ms + delay ? "DISABLING" : "DISABLED";
  }
  if (own && (t->status == SL_STATUS_CREATING || changing))
    return "ENABLING";
  return "ENABLED";
}

sl_err sl_describe_stream(sl_req *req, const sl_describe_stream_req *in,
                          sl_describe_stream_res *out) {
  if (in->filter && in->exclusive_start_shard_id.len)
    return sl_fail(req, SL_E_VALIDATION,
                   "ShardFilter and ExclusiveStartShardId both should not be specified in the "
                   "request.");
  sl_txn *txn;
  sl_err err = shards_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  memset(out, 0, sizeof(*out));
  if ((err = find_stream(req, txn, in->arn, &out->stream)) != SL_OK)
    return err;
  out->status = stream_status(req, &out->stream);
  sl_stream_shard *all, *v;
  size_t n_all, n, i = 0;
  sl_streams_shards(txn, req->arena, &out->stream, &all, &n_all);
  v = all;
  n = n_all;
  if (in->filter) {
    /* The children of one shard, in shard order. */
    int64_t parent = -1;
    for (size_t j = 0; j < n_all; j++)
      if (in->child_of.len && sl_str_eq_c(in->child_of, all[j].id))
        parent = all[j].no;
    v = SL_NEW_ARRAY(req->arena, sl_stream_shard, n_all ? n_all : 1);
    n = 0;
    for (size_t j = 0; j < n_all; j++)
      if (parent >= 0 && all[j].parent == parent)
        v[n++] = all[j];
  }
  if (in->exclusive_start_shard_id.len) {
    for (size_t j = 0; j < n; j++)
      if (sl_str_eq_c(in->exclusive_start_shard_id, v[j].id)) {
        i = j + 1;
        break;
      }
  }
  size_t k = n - i < (size_t)in->limit ? n - i : (size_t)in->limit;
  out->shards = v + i;
  out->n = k;
  out->more = i + k < n;
  out->first = SL_NEW_ARRAY(req->arena, uint64_t, k ? k : 1);
  out->last = SL_NEW_ARRAY(req->arena, uint64_t, k ? k : 1);
  out->closed = SL_NEW_ARRAY(req->arena, bool, k ? k : 1);
  out->parent_id = SL_NEW_ARRAY(req->arena, const char *, k ? k : 1);
  for (size_t j = 0; j < k; j++) {
    const sl_stream_shard *sh = &out->shards[j];
    uint64_t first, last;
    bool any = sl_streams_shard_bounds(txn, &out->stream, sh, &first, &last);
    uint64_t floor = sh->trim_seq > sh->start_seq ? sh->trim_seq : sh->start_seq;
    out->first[j] = any ? first : floor;
    out->closed[j] = sh->closed_ms != 0;
    out->last[j] = sh->end_seq;
    for (size_t p = 0; sh->parent >= 0 && p < n_all; p++)
      if (all[p].no == (uint32_t)sh->parent)
        out->parent_id[j] = all[p].id;
  }
  return SL_OK;
}

/* No live capture of the service's texts for these was found (AWS docs,
 * aws-sdk and KCL issues, localstack, moto, Alternator and other peers
 * searched; the only live Streams-adjacent texts are Kinesis', "Iterator
 * expired. The iterator was created at time ..." and "StartingSequenceNumber
 * ... used in GetShardIterator on shard ... is invalid"), so these are
 * DynamoDB Local's (2026-01-16 jar, observed): a missing or malformed
 * SequenceNumber, and one outside the shard's range (below its first number,
 * past a closed shard's last). */
static sl_err invalid_seq(sl_req *req) {
  return sl_fail(req, SL_E_VALIDATION,
                 "One or more parameter values were invalid: Invalid SequenceNumber");
}

static sl_err seq_out_of_range(sl_req *req) {
  return sl_fail(req, SL_E_VALIDATION, "Invalid SequenceNumber for the shard");
}

/* A number of digits only: one too large for sluice to have written is out
 * of every shard's range rather than malformed. */
static bool all_digits(sl_str s) {
  for (size_t i = 0; i < s.len; i++)
    if (s.p[i] < '0' || s.p[i] > '9')
      return false;
  return s.len > 0;
}

static sl_err trimmed(sl_req *req) {
  return sl_fail(req, SL_E_STREAMS_TRIMMED_DATA_ACCESS,
                 "The data you are trying to access has been trimmed.");
}

sl_err sl_get_shard_iterator(sl_req *req, const sl_get_shard_iterator_req *in, sl_str *iterator) {
  bool by_seq = in->type == SL_ITER_AT_SEQUENCE_NUMBER || in->type == SL_ITER_AFTER_SEQUENCE_NUMBER;
  uint64_t seq = 0;
  bool too_large = false;
  if (by_seq && !sl_streams_seq_parse(in->sequence_number, &seq)) {
    if (!all_digits(in->sequence_number))
      return invalid_seq(req);
    too_large = true;
  }
  sl_txn *txn;
  sl_err err = shards_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  sl_stream st;
  sl_stream_shard sh;
  if ((err = find_stream(req, txn, in->arn, &st)) != SL_OK)
    return err;
  if (!sl_streams_shard(txn, req->arena, &st, in->shard_id, &sh))
    return sl_fail(req, SL_E_STREAMS_RESOURCE_NOT_FOUND, "Shard does not exist");
  uint64_t floor = sh.trim_seq > sh.start_seq ? sh.trim_seq : sh.start_seq;
  uint64_t end = sh.closed_ms ? sh.end_seq + 1 : sl_streams_next_seq(req->env->streams);
  sl_stream_iter it = {.stream_id = st.id,
                       .shard = sh.no,
                       .issued_ms = req->now_ms,
                       .reader = sl_streams_new_reader(req->env->streams)};
  switch (in->type) {
  case SL_ITER_TRIM_HORIZON:
    it.pos = floor;
    break;
  case SL_ITER_LATEST:
    it.pos = end;
    break;
  case SL_ITER_AT_SEQUENCE_NUMBER:
  case SL_ITER_AFTER_SEQUENCE_NUMBER:
    /* DynamoDB Local takes a number past an open shard's last record (and
     * reads nothing before it); sluice's numbers are shared by every shard,
     * so records written later could have lower ones, and sluice refuses it
     * as it refuses one past a closed shard's end (test_streams.py,
     * test_sequence_number_out_of_range). */
    if (too_large || seq < sh.start_seq || seq >= end)
      return seq_out_of_range(req);
    if (seq < sh.trim_seq)
      return trimmed(req);
    it.pos = in->type == SL_ITER_AT_SEQUENCE_NUMBER ? seq : seq + 1;
    break;
  }
  *iterator = sl_streams_iter_format(req->arena, &it);
  return SL_OK;
}

sl_err sl_get_records(sl_req *req, const sl_get_records_req *in, sl_get_records_res *out) {
  memset(out, 0, sizeof(*out));
  if (in->limit > 1000)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Limit should "
                   "be less than or equal to 1000");
  sl_stream_iter it;
  if (!sl_streams_iter_parse(in->iterator, &it))
    return sl_fail(req, SL_E_VALIDATION, "Invalid ShardIterator");
  sl_txn *txn;
  sl_err err = shards_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  if (!sl_streams_get_by_id(txn, req->arena, it.stream_id, &out->stream))
    return sl_fail(req, SL_E_STREAMS_RESOURCE_NOT_FOUND, "Requested resource not found");
  /* An empty message, as DynamoDB Local answers (no live text found; see
   * invalid_seq above). */
  if (req->now_ms - it.issued_ms > sl_streams_params_of(req->env->streams)->iterator_ttl_ms)
    return sl_fail(req, SL_E_STREAMS_EXPIRED_ITERATOR, "%s", "");
  sl_stream_shard *v, *sh = NULL;
  size_t n;
  sl_streams_shards(txn, req->arena, &out->stream, &v, &n);
  for (size_t i = 0; i < n; i++)
    if (v[i].no == it.shard)
      sh = &v[i];
  /* A shard past retention is gone with its records. */
  if (!sh || it.pos < sh->trim_seq)
    return trimmed(req);
  if (!sl_streams_reader_admit(req->env->streams, &it, req->now_ms))
    return sl_fail(req, SL_E_STREAMS_LIMIT_EXCEEDED, "Rate exceeded");
  uint64_t next;
  /* The stream's table while it lives: memory mode's after images
   * (streams.h), and the metrics under its name. */
  sl_table *t = sl_catalog_get(req->env->catalog, out->stream.table_name);
  if (t && t->id != out->stream.table_id)
    t = NULL;
  sl_streams_read(txn, req->arena, &out->stream, out->stream.enabled ? t : NULL, sh, it.pos,
                  (size_t)in->limit, RECORDS_MAX_BYTES, &out->records, &out->n, &next);
  /* How far readers got, for the dashboard's lag (streams.h). */
  sl_streams_note_read(req->env->streams, it.stream_id, it.shard, next, req->now_ms);
  /* Metrics under the table's name (its request latency too, through
   * req->table), while the table lives. */
  if (t) {
    int64_t bytes = 0;
    for (size_t i = 0; i < out->n; i++)
      bytes += out->records[i].size_bytes;
    req->table = t;
    if (req->env->metrics)
      sl_metrics_stream_read(req->env->metrics, t->name, (int64_t)out->n, bytes);
  }
  if (sh->closed_ms) {
    /* A closed shard read to its end gives no next iterator. */
    uint64_t first, last;
    if (!sl_streams_shard_bounds(txn, &out->stream, sh, &first, &last) || next > last)
      return SL_OK;
  }
  sl_stream_iter ni = it;
  ni.pos = next;
  ni.issued_ms = req->now_ms;
  ni.chained = true;
  out->next_iterator = sl_streams_iter_format(req->arena, &ni);
  return SL_OK;
}
