/* `sluice streams tail`; see streams_tail.h. */
#include "tools/streams_tail.h"
#include "base/json.h"
#include "net/client.h"
#include "net/sigv4.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SHARDS 4096
#define REDESCRIBE_MS 5000

typedef struct {
  char *id;
  char *parent; /* NULL: none */
  char *iterator;
  char *last_seq; /* the last record printed (expired iterators resume after it) */
  bool started, done;
} shard;

typedef struct {
  sl_client client;
  const char *host_header;
  const char *region;
  const char *key, *secret, *token;
  sl_arena arena; /* per call */
  shard shards[MAX_SHARDS];
  size_t n;
  const char *arn;
  bool from_trim_horizon;
  long count; /* records left to print; < 0: no limit */
} tail;

static void usage(void) {
  fprintf(stderr, "usage: sluice streams tail TABLE [--endpoint URL] [--region R] [--from latest|"
                  "trim-horizon]\n"
                  "                                 [--interval-ms N] [--count N]\n"
                  "Prints TABLE's stream records as JSON lines as they arrive (default endpoint\n"
                  "http://127.0.0.1:8000, from LATEST).\n");
}

static char *dup_str(sl_str s) {
  char *p = malloc(s.len + 1);
  if (!p)
    abort();
  if (s.len)
    memcpy(p, s.p, s.len);
  p[s.len] = 0;
  return p;
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* One signed call; the reply parsed into the call arena. Returns 0, or 1
 * after printing the error (*type_out gets the exception's short name when
 * the service answered with one). */
static int call(tail *t, const char *target, const char *body, sl_json **out,
                const char **type_out) {
  sl_arena_reset(&t->arena);
  *type_out = NULL;
  sl_http_header h[4] = {{SL_STR("Host"), sl_str_c(t->host_header)},
                         {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
                         {SL_STR("X-Amz-Target"), sl_str_c(target)}};
  sl_sigv4_request r = {.method = SL_STR("POST"),
                        .path = SL_STR("/"),
                        .headers = h,
                        .n_headers = 3,
                        .body = sl_str_c(body),
                        .access_key_id = sl_str_c(t->key),
                        .secret = sl_str_c(t->secret),
                        .session_token = sl_str_c(t->token),
                        .region = sl_str_c(t->region),
                        .service = SL_STR("dynamodb"),
                        .now_s = (int64_t)time(NULL)};
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, &t->arena);
  sl_sigv4_sign(&r, date, &auth);
  sl_http_header send[6] = {h[1],
                            h[2],
                            {SL_STR("X-Amz-Date"), sl_str_make(date, 16)},
                            {SL_STR("Authorization"), sl_buf_str(&auth)}};
  size_t n_send = 4;
  if (t->token[0])
    send[n_send++] = (sl_http_header){SL_STR("X-Amz-Security-Token"), sl_str_c(t->token)};
  sl_client_response resp;
  sl_client_response_init(&resp);
  int rc = sl_client_request(&t->client, SL_STR("POST"), SL_STR("/"), send, n_send, sl_str_c(body),
                             true, &resp);
  if (rc != 0) {
    fprintf(stderr, "sluice streams tail: %s:%d: %s\n", t->client.host, t->client.port,
            strerror(-rc));
    sl_client_response_free(&resp);
    return 1;
  }
  sl_str b = sl_arena_strdup(&t->arena, sl_buf_str(&resp.body));
  int status = resp.status;
  sl_client_response_free(&resp);
  sl_json_error je;
  if (sl_json_parse(&t->arena, b.p, b.len, out, &je) != 0 || (*out)->type != SL_JSON_OBJECT) {
    fprintf(stderr, "sluice streams tail: %s: HTTP %d, not a JSON reply\n", target, status);
    return 1;
  }
  if (status != 200) {
    sl_json *ty = sl_json_get(*out, "__type");
    sl_json *msg = sl_json_get(*out, "message");
    if (!msg)
      msg = sl_json_get(*out, "Message");
    sl_str type = ty && ty->type == SL_JSON_STRING ? ty->str : SL_STR("");
    const char *hash = memchr(type.p, '#', type.len);
    if (hash)
      type = sl_str_make(hash + 1, type.len - (size_t)(hash + 1 - type.p));
    *type_out = sl_arena_strdup(&t->arena, type).p;
    fprintf(stderr, "sluice streams tail: %s: %.*s: %.*s\n", target, SL_STR_FMT(type),
            msg && msg->type == SL_JSON_STRING ? (int)msg->str.len : 0,
            msg && msg->type == SL_JSON_STRING ? msg->str.p : "");
    return 1;
  }
  return 0;
}

/* A JSON string literal of 's' in the call arena. */
static const char *quoted(tail *t, sl_str s) {
  sl_buf b;
  sl_buf_init(&b, &t->arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_str(&w, s);
  sl_buf_putc(&b, 0);
  return b.p;
}

static shard *find(tail *t, sl_str id) {
  for (size_t i = 0; i < t->n; i++)
    if (sl_str_eq_c(id, t->shards[i].id))
      return &t->shards[i];
  return NULL;
}

/* Reads the shard list (every page); new shards join 'shards'. *disabled:
 * the stream's status is DISABLED. */
static int describe(tail *t, bool first, bool *disabled) {
  char *start = NULL;
  for (;;) {
    char body[2048];
    sl_arena_reset(&t->arena);
    if (start)
      snprintf(body, sizeof(body), "{\"StreamArn\":%s,\"ExclusiveStartShardId\":%s}",
               quoted(t, sl_str_c(t->arn)), quoted(t, sl_str_c(start)));
    else
      snprintf(body, sizeof(body), "{\"StreamArn\":%s}", quoted(t, sl_str_c(t->arn)));
    free(start);
    start = NULL;
    sl_json *r;
    const char *type;
    if (call(t, "DynamoDBStreams_20120810.DescribeStream", body, &r, &type) != 0)
      return 1;
    sl_json *d = sl_json_get(r, "StreamDescription");
    sl_json *status = sl_json_get(d, "StreamStatus");
    *disabled = status && status->type == SL_JSON_STRING && sl_str_eq_c(status->str, "DISABLED");
    sl_json *list = sl_json_get(d, "Shards");
    for (size_t i = 0; list && list->type == SL_JSON_ARRAY && i < list->arr.n; i++) {
      sl_json *s = list->arr.items[i];
      sl_json *id = sl_json_get(s, "ShardId"), *parent = sl_json_get(s, "ParentShardId");
      if (!id || id->type != SL_JSON_STRING || find(t, id->str) || t->n == MAX_SHARDS)
        continue;
      shard *sh = &t->shards[t->n++];
      memset(sh, 0, sizeof(*sh));
      sh->id = dup_str(id->str);
      if (parent && parent->type == SL_JSON_STRING)
        sh->parent = dup_str(parent->str);
      sl_json *range = sl_json_get(s, "SequenceNumberRange");
      bool closed = sl_json_get(range, "EndingSequenceNumber") != NULL;
      /* From LATEST, shards closed before the start are history. */
      if (first && closed && !t->from_trim_horizon)
        sh->done = true;
      sh->started = !first; /* marks "TRIM_HORIZON" for later shards, below */
    }
    sl_json *last = sl_json_get(d, "LastEvaluatedShardId");
    if (!last || last->type != SL_JSON_STRING)
      return 0;
    start = dup_str(last->str);
  }
}

static int get_iterator(tail *t, shard *sh, const char *kind, const char *seq) {
  char body[4096];
  sl_arena_reset(&t->arena);
  const char *arn = quoted(t, sl_str_c(t->arn)), *id = quoted(t, sl_str_c(sh->id));
  if (seq)
    snprintf(body, sizeof(body),
             "{\"StreamArn\":%s,\"ShardId\":%s,\"ShardIteratorType\":\"%s\","
             "\"SequenceNumber\":\"%s\"}",
             arn, id, kind, seq);
  else
    snprintf(body, sizeof(body), "{\"StreamArn\":%s,\"ShardId\":%s,\"ShardIteratorType\":\"%s\"}",
             arn, id, kind);
  sl_json *r;
  const char *type;
  if (call(t, "DynamoDBStreams_20120810.GetShardIterator", body, &r, &type) != 0)
    return 1;
  sl_json *it = sl_json_get(r, "ShardIterator");
  free(sh->iterator);
  sh->iterator = it && it->type == SL_JSON_STRING ? dup_str(it->str) : NULL;
  if (!sh->iterator)
    sh->done = true;
  return 0;
}

/* One GetRecords of a started shard; *n_out records printed. */
static int poll_shard(tail *t, shard *sh, long *n_out) {
  char *body = malloc(strlen(sh->iterator) + 64);
  if (!body)
    abort();
  sl_arena_reset(&t->arena);
  sprintf(body, "{\"ShardIterator\":%s}", quoted(t, sl_str_c(sh->iterator)));
  sl_json *r;
  const char *type;
  int rc = call(t, "DynamoDBStreams_20120810.GetRecords", body, &r, &type);
  free(body);
  if (rc != 0) {
    if (type && strcmp(type, "ExpiredIteratorException") == 0)
      return sh->last_seq ? get_iterator(t, sh, "AFTER_SEQUENCE_NUMBER", sh->last_seq)
                          : get_iterator(t, sh, "TRIM_HORIZON", NULL);
    if (type && strcmp(type, "LimitExceededException") == 0) {
      *n_out = 0; /* too many readers of the shard: the same iterator, at the next poll */
      return 0;
    }
    return 1;
  }
  sl_json *recs = sl_json_get(r, "Records");
  long n = 0;
  sl_buf out;
  sl_buf_init(&out, &t->arena);
  for (size_t i = 0; recs && recs->type == SL_JSON_ARRAY && i < recs->arr.n && t->count != 0; i++) {
    sl_jw w;
    out.len = 0;
    sl_jw_init(&w, &out);
    sl_jw_value(&w, recs->arr.items[i]);
    sl_buf_putc(&out, '\n');
    fwrite(out.p, 1, out.len, stdout);
    n++;
    if (t->count > 0)
      t->count--;
    sl_json *seq = sl_json_get(sl_json_get(recs->arr.items[i], "dynamodb"), "SequenceNumber");
    if (seq && seq->type == SL_JSON_STRING) {
      free(sh->last_seq);
      sh->last_seq = dup_str(seq->str);
    }
  }
  fflush(stdout);
  sl_json *next = sl_json_get(r, "NextShardIterator");
  free(sh->iterator);
  sh->iterator = next && next->type == SL_JSON_STRING ? dup_str(next->str) : NULL;
  if (!sh->iterator)
    sh->done = true;
  *n_out = n;
  return 0;
}

static int run(tail *t, const char *table, long interval_ms) {
  char body[1024];
  sl_json *r;
  const char *type;
  snprintf(body, sizeof(body), "{\"TableName\":%s}", quoted(t, sl_str_c(table)));
  if (call(t, "DynamoDB_20120810.DescribeTable", body, &r, &type) != 0)
    return 1;
  sl_json *arn = sl_json_get(sl_json_get(r, "Table"), "LatestStreamArn");
  if (!arn || arn->type != SL_JSON_STRING) {
    fprintf(stderr, "sluice streams tail: table %s has no stream\n", table);
    return 1;
  }
  t->arn = dup_str(arn->str);
  bool disabled = false;
  if (describe(t, true, &disabled) != 0)
    return 1;
  struct timespec last;
  clock_gettime(CLOCK_MONOTONIC, &last);
  bool announced = false;
  while (t->count != 0) {
    long printed = 0;
    bool ended = false, all_done = true;
    for (size_t i = 0; i < t->n && t->count != 0; i++) {
      shard *sh = &t->shards[i];
      if (sh->done)
        continue;
      all_done = false;
      if (!sh->iterator) {
        shard *p = sh->parent ? find(t, sl_str_c(sh->parent)) : NULL;
        if (p && !p->done)
          continue; /* the parent first */
        const char *kind = sh->started || t->from_trim_horizon ? "TRIM_HORIZON" : "LATEST";
        if (get_iterator(t, sh, kind, NULL) != 0)
          return 1;
        sh->started = true;
        if (!sh->iterator)
          continue;
      }
      long n = 0;
      if (poll_shard(t, sh, &n) != 0)
        return 1;
      printed += n;
      ended |= sh->done;
    }
    if (!announced) {
      /* Every shard open at start now has its iterator: what is written from
       * here on will be printed (tests wait for this line). */
      fprintf(stderr, "sluice streams tail: following %s\n", t->arn);
      announced = true;
    }
    if (t->count == 0)
      break;
    if (all_done && disabled)
      return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long since = (now.tv_sec - last.tv_sec) * 1000 + (now.tv_nsec - last.tv_nsec) / 1000000;
    if (ended || all_done || since >= REDESCRIBE_MS) {
      if (describe(t, false, &disabled) != 0)
        return 1;
      last = now;
    }
    if (printed == 0)
      sleep_ms(interval_ms);
  }
  return 0;
}

static const char *env_or(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return v && v[0] ? v : dflt;
}

int sl_tool_streams(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[0], "tail") != 0) {
    usage();
    return 2;
  }
  const char *table = argv[1];
  const char *endpoint = "http://127.0.0.1:8000";
  const char *region = env_or("AWS_REGION", env_or("AWS_DEFAULT_REGION", "us-east-1"));
  long interval_ms = 250, count = -1;
  bool trim_horizon = false;
  for (int i = 2; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--endpoint") == 0 && v)
      endpoint = v;
    else if (strcmp(argv[i], "--region") == 0 && v)
      region = v;
    else if (strcmp(argv[i], "--from") == 0 && v &&
             (strcmp(v, "latest") == 0 || strcmp(v, "trim-horizon") == 0))
      trim_horizon = strcmp(v, "trim-horizon") == 0;
    else if (strcmp(argv[i], "--interval-ms") == 0 && v && atol(v) > 0)
      interval_ms = atol(v);
    else if (strcmp(argv[i], "--count") == 0 && v && atol(v) > 0)
      count = atol(v);
    else {
      usage();
      return 2;
    }
    i++;
  }
  static tail t; /* MAX_SHARDS entries: not on the stack */
  memset(&t, 0, sizeof(t));
  char host[256];
  int port;
  if (sl_client_parse_url(endpoint, host, sizeof(host), &port) != 0) {
    fprintf(stderr, "sluice streams tail: --endpoint must be http://HOST[:PORT]\n");
    return 2;
  }
  char host_header[300];
  snprintf(host_header, sizeof(host_header), "%s:%d", host, port);
  sl_client_init(&t.client, host, port, 30000);
  sl_arena_init(&t.arena);
  t.host_header = host_header;
  t.region = region;
  t.key = env_or("AWS_ACCESS_KEY_ID", "local");
  t.secret = env_or("AWS_SECRET_ACCESS_KEY", "local");
  t.token = env_or("AWS_SESSION_TOKEN", "");
  t.from_trim_horizon = trim_horizon;
  t.count = count;
  int rc = run(&t, table, interval_ms);
  for (size_t i = 0; i < t.n; i++) {
    free(t.shards[i].id);
    free(t.shards[i].parent);
    free(t.shards[i].iterator);
    free(t.shards[i].last_seq);
  }
  free((char *)t.arn);
  sl_arena_destroy(&t.arena);
  sl_client_close(&t.client);
  return rc;
}
