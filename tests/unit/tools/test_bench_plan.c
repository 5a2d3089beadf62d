/*
 * test_bench_plan.c — the pure parts of `sluice bench` (tools/bench_plan.h):
 * the schedule's send times and counts, the key distributions, the latency
 * histogram and the AWS configuration read from environment and files (the
 * signature of the bench's requests is pinned in tests/unit/net/test_sign_dynamodb.c).
 */
#include "harness.h"

#include "tools/bench_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool near(double a, double b) { return fabs(a - b) < 1e-9; }

/* Seed 003's windows: 1,000 writes/s then 8,000/s, 10 s each. */
static void test_schedule_steps(void) {
  sl_bench_schedule s;
  char err[256];
  CHECK_INT(sl_bench_schedule_parse("1000@10,8k@10s", &s, err, sizeof(err)), 0);
  CHECK_INT(s.n, 2);
  CHECK_INT(s.n_ops, 90000);
  CHECK(near(s.seconds, 20));
  CHECK_INT(s.w[1].first_op, 10000);
  CHECK(near(s.w[1].start_s, 10));
  CHECK(near(sl_bench_schedule_time(&s, 0), 0));
  CHECK(near(sl_bench_schedule_time(&s, 999), 0.999));
  CHECK(near(sl_bench_schedule_time(&s, 10000), 10));
  CHECK(near(sl_bench_schedule_time(&s, 10001), 10.000125));
  CHECK(near(sl_bench_schedule_time(&s, 89999), 20 - 0.000125));
  CHECK_INT(sl_bench_schedule_window(&s, 9999), 0);
  CHECK_INT(sl_bench_schedule_window(&s, 10000), 1);
}

/* A ramp sends floor(its integral) operations, at the roots of N(t) = k. */
static void test_schedule_ramp(void) {
  sl_bench_schedule s;
  char err[256];
  CHECK_INT(sl_bench_schedule_parse("0-1000@10", &s, err, sizeof(err)), 0);
  CHECK_INT(s.n_ops, 5000);
  /* N(t) = 50 t^2: operation 1250 at 5 s, 4999 just before 10 s. */
  CHECK(near(sl_bench_schedule_time(&s, 1250), 5));
  CHECK(fabs(sl_bench_schedule_time(&s, 4999) - sqrt(4999 / 50.0)) < 1e-9);
  /* Times never go backwards, across a ramp down and a pause too. */
  CHECK_INT(sl_bench_schedule_parse("100-50@2,0@1,0@0.5m", &s, err, sizeof(err)), 0);
  CHECK_INT(s.n_ops, 150 + 0 + 0);
  CHECK(near(s.seconds, 2 + 1 + 30));
  double last = -1;
  bool monotone = true;
  for (uint64_t i = 0; i < s.n_ops; i++) {
    double t = sl_bench_schedule_time(&s, i);
    monotone = monotone && t >= last && t < 2;
    last = t;
  }
  CHECK(monotone);
  CHECK_INT(sl_bench_schedule_parse("2-4@1,3@2", &s, err, sizeof(err)), 0);
  CHECK_INT(s.n_ops, 3 + 6);
  CHECK(near(sl_bench_schedule_time(&s, 3), 1));
}

/* --time-scale S: the same operations at S times the rate in 1/S of the
 * time, window by window. */
static void test_schedule_scale(void) {
  sl_bench_schedule s;
  char err[256];
  CHECK_INT(sl_bench_schedule_parse("4000@1,8000@2.5,0-1000@2", &s, err, sizeof(err)), 0);
  uint64_t n = s.n_ops, n1 = s.w[1].n_ops, f2 = s.w[2].first_op;
  double t_last = sl_bench_schedule_time(&s, n - 1);
  sl_bench_schedule_scale(&s, 0.1);
  CHECK_INT(s.n_ops, n);
  CHECK_INT(s.w[1].n_ops, n1);
  CHECK_INT(s.w[2].first_op, f2);
  CHECK(fabs(s.seconds - 55) < 1e-9);
  CHECK(fabs(s.w[1].from - 800) < 1e-9 && fabs(s.w[1].start_s - 10) < 1e-9);
  CHECK(fabs(s.w[2].to - 100) < 1e-9 && fabs(s.w[2].start_s - 35) < 1e-9);
  CHECK(fabs(sl_bench_schedule_time(&s, n - 1) - t_last * 10) < 1e-6);
  CHECK(fabs(sl_bench_schedule_time(&s, 4000) - 10) < 1e-9);
}

static void test_schedule_errors(void) {
  sl_bench_schedule s;
  char err[256];
  const char *bad[] = {"", "abc", "100", "100@0", "5-@3", "100@5,", "-5@1", "100@5x", "10@-1"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    err[0] = 0;
    CHECK_INT(sl_bench_schedule_parse(bad[i], &s, err, sizeof(err)), -1);
    CHECK(err[0] != 0);
  }
}

static void test_keys(void) {
  sl_bench_keys k;
  sl_bench_rng r;
  char err[256];
  sl_bench_rng_seed(&r, 7);
  CHECK_INT(sl_bench_keys_init(&k, "sequential", 10, err, sizeof(err)), 0);
  CHECK_INT(sl_bench_keys_pick(&k, &r, 0), 0);
  CHECK_INT(sl_bench_keys_pick(&k, &r, 23), 3);
  sl_bench_keys_free(&k);

  CHECK_INT(sl_bench_keys_init(&k, "uniform", 4, err, sizeof(err)), 0);
  unsigned seen[4] = {0};
  bool in_range = true;
  for (int i = 0; i < 40000; i++) {
    uint64_t v = sl_bench_keys_pick(&k, &r, (uint64_t)i);
    in_range = in_range && v < 4;
    if (v < 4)
      seen[v]++;
  }
  CHECK(in_range);
  for (int i = 0; i < 4; i++)
    CHECK(seen[i] > 9500 && seen[i] < 10500);
  sl_bench_keys_free(&k);

  /* hot:0.3 — key 0 takes 30 % of operations, the rest spread over others. */
  CHECK_INT(sl_bench_keys_init(&k, "hot:0.3", 1000, err, sizeof(err)), 0);
  unsigned hot = 0;
  for (int i = 0; i < 100000; i++)
    hot += sl_bench_keys_pick(&k, &r, 0) == 0;
  CHECK(hot > 29000 && hot < 31000);
  sl_bench_keys_free(&k);

  /* Zipf s = 1 over 100 keys: key 0 has 1 / H(100) = 19.28 % of the mass,
   * key 1 half of that. */
  CHECK_INT(sl_bench_keys_init(&k, "zipf", 100, err, sizeof(err)), 0);
  unsigned z0 = 0, z1 = 0;
  for (int i = 0; i < 200000; i++) {
    uint64_t v = sl_bench_keys_pick(&k, &r, 0);
    z0 += v == 0;
    z1 += v == 1;
  }
  CHECK(fabs(z0 / 200000.0 - 0.19277) < 0.005);
  CHECK(fabs(z1 / 200000.0 - 0.09639) < 0.004);
  sl_bench_keys_free(&k);

  /* The same seed gives the same keys. */
  sl_bench_rng a, b;
  sl_bench_rng_seed(&a, 42);
  sl_bench_rng_seed(&b, 42);
  bool same = true;
  for (int i = 0; i < 100; i++)
    same = same && sl_bench_rng_next(&a) == sl_bench_rng_next(&b);
  CHECK(same);

  const char *bad[] = {"zipf:0", "zipf:x", "hot:0", "hot:1.5", "gauss"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    CHECK_INT(sl_bench_keys_init(&k, bad[i], 10, err, sizeof(err)), -1);
  CHECK_INT(sl_bench_keys_init(&k, "uniform", 0, err, sizeof(err)), -1);
}

static void test_hist(void) {
  /* Every value lands in a bucket whose reported value is at least it and
   * within 3.2 % of it; indexes grow with values. */
  size_t last = 0;
  bool ok = true;
  for (uint64_t v = 0; v < (1ull << 36); v = v < 1000 ? v + 1 : v + v / 97) {
    size_t i = sl_bench_hist_index(v);
    uint64_t back = sl_bench_hist_value(i);
    ok = ok && i >= last && back >= v && (double)(back - v) <= 0.032 * (double)v + 0.5;
    last = i;
  }
  CHECK(ok);
  CHECK_INT(sl_bench_hist_index(63), 63);
  CHECK_INT(sl_bench_hist_value(sl_bench_hist_index(64)), 65);

  static sl_bench_hist h, g;
  for (uint64_t v = 1; v <= 1000; v++)
    sl_bench_hist_add(v <= 500 ? &h : &g, v * 1000);
  sl_bench_hist_merge(&h, &g);
  CHECK_INT(h.n, 1000);
  CHECK_INT(h.max_us, 1000000);
  uint64_t p50 = sl_bench_hist_quantile(&h, 0.5), p99 = sl_bench_hist_quantile(&h, 0.99);
  CHECK(p50 >= 500000 && p50 <= 516000);
  CHECK(p99 >= 990000 && p99 <= 1000000);
  CHECK_INT(sl_bench_hist_quantile(&h, 1), 1000000);
  static sl_bench_hist empty;
  CHECK_INT(sl_bench_hist_quantile(&empty, 0.5), 0);
}

/* A fake environment for the AWS configuration tests. */
static const char *fake_env[16][2];
static const char *env(const char *name) {
  for (size_t i = 0; i < 16 && fake_env[i][0]; i++)
    if (strcmp(fake_env[i][0], name) == 0)
      return fake_env[i][1];
  return NULL;
}
static void set_env(size_t i, const char *name, const char *value) {
  fake_env[i][0] = name;
  fake_env[i][1] = value;
  fake_env[i + 1][0] = NULL;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void test_aws_config(void) {
  char home[] = "/tmp/sluice-bench-home-XXXXXX";
  CHECK(mkdtemp(home) != NULL);
  char dir[128], cred[160], conf[160];
  snprintf(dir, sizeof(dir), "%s/.aws", home);
  mkdir(dir, 0700);
  snprintf(cred, sizeof(cred), "%s/credentials", dir);
  snprintf(conf, sizeof(conf), "%s/config", dir);
  write_file(cred, "# comment\n[default]\naws_access_key_id = AKIDDEFAULT\n"
                   "aws_secret_access_key=secretdefault\n\n[work]\n"
                   "  aws_access_key_id = AKIDWORK  \naws_secret_access_key = secret/work+1\n"
                   "aws_session_token = TOKENWORK\n");
  write_file(conf, "[default]\nregion = eu-west-1\n[profile work]\nregion = ap-south-1\n"
                   "[profile cfgonly]\naws_access_key_id = AKIDCFG\n"
                   "aws_secret_access_key = secretcfg\n");
  sl_bench_aws a;
  char err[256];

  /* The default profile of ~/.aws, region from the config file. */
  set_env(0, "UNUSED", "");
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), 0);
  CHECK(strcmp(a.access_key_id, "AKIDDEFAULT") == 0);
  CHECK(strcmp(a.secret, "secretdefault") == 0);
  CHECK(a.session_token[0] == 0);
  CHECK(strcmp(a.region, "eu-west-1") == 0);

  /* AWS_PROFILE picks a section; its session token and region come along. */
  set_env(0, "AWS_PROFILE", "work");
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), 0);
  CHECK(strcmp(a.access_key_id, "AKIDWORK") == 0);
  CHECK(strcmp(a.secret, "secret/work+1") == 0);
  CHECK(strcmp(a.session_token, "TOKENWORK") == 0);
  CHECK(strcmp(a.region, "ap-south-1") == 0);

  /* Keys may live in the config file's "[profile NAME]" section. */
  set_env(0, "AWS_PROFILE", "cfgonly");
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), 0);
  CHECK(strcmp(a.access_key_id, "AKIDCFG") == 0);
  CHECK(strcmp(a.region, "us-east-1") == 0);

  /* The environment wins over the files; AWS_REGION over AWS_DEFAULT_REGION. */
  set_env(0, "AWS_ACCESS_KEY_ID", "AKIDENV");
  set_env(1, "AWS_SECRET_ACCESS_KEY", "secretenv");
  set_env(2, "AWS_SESSION_TOKEN", "TOKENENV");
  set_env(3, "AWS_DEFAULT_REGION", "us-west-2");
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), 0);
  CHECK(strcmp(a.access_key_id, "AKIDENV") == 0);
  CHECK(strcmp(a.session_token, "TOKENENV") == 0);
  CHECK(strcmp(a.region, "us-west-2") == 0);
  CHECK(strcmp(a.source, "environment") == 0);
  set_env(4, "AWS_REGION", "sa-east-1");
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), 0);
  CHECK(strcmp(a.region, "sa-east-1") == 0);

  /* AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE move the files. */
  char other[200];
  snprintf(other, sizeof(other), "%s/other-creds", home);
  write_file(other, "[default]\naws_access_key_id=AKIDOTHER\naws_secret_access_key=s\n");
  set_env(0, "AWS_SHARED_CREDENTIALS_FILE", other);
  set_env(1, "AWS_CONFIG_FILE", other);
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), 0);
  CHECK(strcmp(a.access_key_id, "AKIDOTHER") == 0);
  CHECK(strcmp(a.region, "us-east-1") == 0);

  /* No credentials anywhere: an error that says where it looked. */
  set_env(0, "AWS_PROFILE", "missing");
  CHECK_INT(sl_bench_aws_load(&a, env, home, err, sizeof(err)), -1);
  CHECK(strstr(err, "AWS_ACCESS_KEY_ID") != NULL);
  CHECK(strstr(err, "'missing'") != NULL);

  unlink(cred);
  unlink(conf);
  unlink(other);
  rmdir(dir);
  rmdir(home);
}

/* Replies: ok with units, unprocessed and the next page's key; throttles by
 * exception (either spelling of the reasons member, a cancelled
 * transaction with a ThrottlingError); other exceptions and non-JSON
 * bodies are errors. */
static void test_reply_classify(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_bench_reply r;
#define CLASSIFY(status, body, up) sl_bench_reply_classify(&a, status, SL_STR(body), "t", up, &r)
  CLASSIFY(200, "{\"ConsumedCapacity\":{\"TableName\":\"t\",\"CapacityUnits\":2.5}}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_OK && r.units == 2.5 && !r.last_key && !r.type.len);
  CLASSIFY(200,
           "{\"UnprocessedItems\":{\"t\":[{},{}],\"u\":[{}]},\"ConsumedCapacity\":[{"
           "\"CapacityUnits\":3},{\"CapacityUnits\":1}]}",
           SL_BENCH_UNPROCESSED_ITEMS);
  CHECK(r.outcome == SL_BENCH_REPLY_OK && r.units == 4 && r.unprocessed == 2);
  CLASSIFY(200, "{\"UnprocessedKeys\":{\"t\":{\"Keys\":[{},{},{}]}}}", SL_BENCH_UNPROCESSED_KEYS);
  CHECK(r.unprocessed == 3);
  CLASSIFY(200, "{\"Items\":[],\"LastEvaluatedKey\":{\"pk\":{\"S\":\"a\"}}}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.last_key != NULL && r.last_key->type == SL_JSON_OBJECT);
  CLASSIFY(200, "not json", SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_OK && r.units == 0);
  CLASSIFY(400,
           "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ThrottlingException\","
           "\"throttlingReasons\":[{\"reason\":\"TableWriteKeyRangeThroughputExceeded\"}]}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_THROTTLED && r.n_reasons == 1);
  CHECK_STR(r.type, "ThrottlingException");
  CHECK_STR(r.reasons[0], "TableWriteKeyRangeThroughputExceeded");
  CLASSIFY(400,
           "{\"__type\":\"x#ProvisionedThroughputExceededException\",\"ThrottlingReasons\":["
           "{\"reason\":\"A\"},{\"reason\":7},{\"reason\":\"B\"}]}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_THROTTLED && r.n_reasons == 2);
  CHECK_STR(r.reasons[1], "B");
  CLASSIFY(400, "{\"__type\":\"a#b#ThrottlingException\"}", SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_THROTTLED); /* the name after the last '#' */
  CHECK_STR(r.type, "ThrottlingException");
  CLASSIFY(400, "{\"__type\":\"RequestLimitExceeded\"}", SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_THROTTLED);
  CLASSIFY(400,
           "{\"__type\":\"x#TransactionCanceledException\",\"CancellationReasons\":[{\"Code\":"
           "\"None\"},{\"Code\":\"ThrottlingError\"}]}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_THROTTLED);
  CLASSIFY(400,
           "{\"__type\":\"x#TransactionCanceledException\",\"CancellationReasons\":[{\"Code\":"
           "\"ConditionalCheckFailed\"}]}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_ERROR);
  CHECK_STR(r.type, "TransactionCanceledException");
  CLASSIFY(400, "{\"__type\":\"com.amazon.coral.validate#ValidationException\"}",
           SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_ERROR);
  CHECK_STR(r.type, "ValidationException");
  CLASSIFY(502, "<html>", SL_BENCH_UNPROCESSED_NONE);
  CHECK(r.outcome == SL_BENCH_REPLY_ERROR && r.type.len == 0);
#undef CLASSIFY
  sl_arena_destroy(&a);
}

int main(void) {
  RUN(test_schedule_steps);
  RUN(test_schedule_ramp);
  RUN(test_schedule_scale);
  RUN(test_schedule_errors);
  RUN(test_keys);
  RUN(test_hist);
  RUN(test_aws_config);
  RUN(test_reply_classify);
  return DONE();
}
