/*
 * sluice — the command line: a table of subcommands (serve, bench, explain,
 * size, simulate, streams, version, help).
 *
 * `sluice serve` parses its flags into an sl_app_config, opens the app
 * (storage, catalog, clock, capacity engine) and runs the HTTP server until
 * SIGINT/SIGTERM. Its first line on stdout is "listening on http://HOST:PORT"
 * (tests start it with --port 0 and read the port from there).
 */
#include "tools/explain.h"
#include "server/app.h"
#include "tools/streams_tail.h"
#include "server/router.h"
#include "streams/streams.h"
#include "base/log.h"
#include "cap/cap.h"
#include "net/server.h"
#include "net/sigv4.h"
#include "tools/bench.h"
#include "tools/tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define SLUICE_VERSION "0.1.0"

static const char serve_usage[] =
    "usage: sluice serve [flags]\n"
    "\n"
    "  --bind ADDR          listen address (default 127.0.0.1)\n"
    "  --port N             listen port (default 8000; 0 picks a free one)\n"
    "  --data-dir DIR       persistent storage in DIR (default: in memory)\n"
    "  --map-size SIZE      storage address space (default 64 GiB); SIZE is bytes,\n"
    "                       or a number with K, M or G (KiB, MiB, GiB)\n"
    "  --pretouch SIZE      in memory: make the first SIZE of the storage present\n"
    "                       before listening (like a JVM's AlwaysPreTouch), so a\n"
    "                       growing table takes no first-touch page faults (default\n"
    "                       0; the start takes longer, the memory is resident)\n"
    "  --max-connections N  connections served at once (default 16384); one more\n"
    "                       is answered 503 ServiceUnavailableException and closed\n"
    "  --profile NAME       capacity profile: aws (default) | unlimited\n"
    "  --config FILE        capacity parameters, one 'name = value' per line\n"
    "  --readers-per-shard N  DynamoDB Streams readers polling one shard at once\n"
    "                       before the next is refused LimitExceededException\n"
    "                       (1 to 4; default 2, the service's documented limit)\n"
    "  --shard-rollover S   seconds after which an open DynamoDB Streams shard is\n"
    "                       closed and followed by a child (default 14400: 4 h)\n"
    "  --clock MODE         real (default) | manual\n"
    "  --clock-start TIME   manual clock start, ISO 8601 (default: now)\n"
    "  --time-scale N       run the clock N times faster than real time (above 0,\n"
    "                       at most 1000000)\n"
    "  --latency aws|off    answer data-plane requests at the service's in-region\n"
    "                       pace: writes 4-5 ms, reads 2-4 ms, seeded (default off)\n"
    "  --delays MODE        instant (default: the *_delay_ms parameters, 0: tables,\n"
    "                       indexes and warm throughput ACTIVE at once) |\n"
    "                       realistic (each transition takes a time drawn from\n"
    "                       the service's measured range, seeded: CreateTable\n"
    "                       7-22 s; the realistic_* parameters)\n"
    "  --faults FILE        fault-injection rules loaded at start (README: the\n"
    "                       JSON of POST /_sluice/faults)\n"
    "  --seed N             seed of every random choice of the fault rules,\n"
    "                       --latency aws and --delays realistic\n"
    "                       (default 1, printed at start); when given, request\n"
    "                       ids and the uuids of new ARNs follow it too\n"
    "  --region NAME        region in ARNs (default us-east-1)\n"
    "  --account-id ID      account in ARNs (default 000000000000)\n"
    "  --log-level LEVEL    debug | info (default) | warn | error\n"
    "  --cors-origin ORIGIN origin allowed by CORS; repeatable or a comma list\n"
    "                       (default *: any)\n"
    "  --auth MODE          any (default: the Authorization header's format is\n"
    "                       checked, any key and signature pass) | sigv4 (AWS\n"
    "                       Signature V4 verified against --credentials)\n"
    "  --credentials FILE   keys for --auth sigv4: one 'ACCESS_KEY_ID SECRET\n"
    "                       [SESSION_TOKEN]' per line, '#' starts a comment\n"
    "  --admin-token TOKEN  the admin API, /metrics and the dashboard need\n"
    "                       'Authorization: Bearer TOKEN' (or open\n"
    "                       /dashboard?token=TOKEN); without it, under --auth\n"
    "                       sigv4 they answer only on a loopback --bind\n";

typedef struct {
  sl_app *app;
  sl_server *srv;
} serve_ctx;

static void tick(void *ctx) {
  serve_ctx *sv = ctx;
  sl_app_tick(sv->app);
  /* Background commits (TTL, backfill) that no answer waits for: synced
   * like the answered ones, off the loop thread. */
  if (sl_store_dirty(sv->app->env.store))
    sl_server_sync_soon(sv->srv);
}

/* SIZE of --map-size and --pretouch: bytes, or a number with a K, M or G
 * suffix (powers of 1024); false when it is not one, or overflows. */
static bool parse_size(const char *v, uint64_t *out) {
  char *end;
  if (*v < '0' || *v > '9')
    return false;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10;
  else if (*end == 'M' || *end == 'm')
    shift = 20;
  else if (*end == 'G' || *end == 'g')
    shift = 30;
  if (errno || (shift && *++end) || (!shift && *end) || (shift && n > (UINT64_MAX >> shift)))
    return false;
  *out = (uint64_t)n << shift;
  return true;
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "sluice serve: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n\n%s", serve_usage);
  return 2;
}

static int cmd_serve(int argc, char **argv) {
  sl_app_config cfg;
  sl_app_config_default(&cfg);
  const char *bind = "127.0.0.1";
  int port = 8000;
  size_t max_connections = 0;
  static char cors[4096]; /* the --cors-origin values, joined by commas */
  size_t cors_len = 0;
  const char *auth_mode = "any", *credentials = NULL, *admin_token = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(serve_usage, stdout);
      sl_cap_params p;
      sl_cap_params_default(&p, "aws");
      sl_buf b;
      sl_buf_init(&b, NULL);
      sl_cap_params_describe(&p, &b);
      printf("\ncapacity parameters (--config FILE: 'name = value' lines; defaults of the aws "
             "profile):\n%.*s",
             (int)b.len, b.p);
      sl_buf_free(&b);
      return 0;
    }
    if (strncmp(a, "--", 2) != 0)
      return usage_error("unexpected argument '%s'", a);
    if (!v)
      return usage_error("flag %s needs a value", a);
    i++;
    if (strcmp(a, "--bind") == 0) {
      bind = v;
    } else if (strcmp(a, "--port") == 0) {
      char *end;
      long p = strtol(v, &end, 10);
      if (*end || p < 0 || p > 65535)
        return usage_error("invalid port '%s'", v);
      port = (int)p;
    } else if (strcmp(a, "--max-connections") == 0) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || n < 1 || n > 1000000)
        return usage_error("invalid connection limit '%s' (1 to 1000000)", v);
      max_connections = (size_t)n;
    } else if (strcmp(a, "--readers-per-shard") == 0) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || n < 1 || n > SL_STREAMS_READERS_MAX)
        return usage_error("invalid readers per shard '%s' (1 to 4)", v);
      cfg.readers_per_shard = (uint32_t)n;
    } else if (strcmp(a, "--shard-rollover") == 0) {
      char *end;
      long long n = strtoll(v, &end, 10);
      if (*end || n < 1 || n > 30LL * 86400)
        return usage_error("invalid shard rollover '%s' (1 to 2592000 seconds)", v);
      cfg.shard_rollover_ms = n * 1000;
    } else if (strcmp(a, "--data-dir") == 0) {
      cfg.data_dir = v;
    } else if (strcmp(a, "--map-size") == 0) {
      if (!parse_size(v, &cfg.map_size) || cfg.map_size == 0)
        return usage_error("invalid map size '%s' (bytes, or a number with K, M or G)", v);
    } else if (strcmp(a, "--pretouch") == 0) {
      if (!parse_size(v, &cfg.pretouch))
        return usage_error("invalid pretouch size '%s' (bytes, or a number with K, M or G)", v);
    } else if (strcmp(a, "--profile") == 0) {
      if (strcmp(v, "aws") != 0 && strcmp(v, "unlimited") != 0)
        return usage_error("unknown profile '%s' (aws or unlimited)", v);
      cfg.profile = v;
    } else if (strcmp(a, "--config") == 0) {
      cfg.config_file = v;
    } else if (strcmp(a, "--clock") == 0) {
      if (strcmp(v, "real") == 0)
        cfg.clock_mode = SL_CLOCK_REAL;
      else if (strcmp(v, "manual") == 0)
        cfg.clock_mode = SL_CLOCK_MANUAL;
      else
        return usage_error("unknown clock '%s' (real or manual)", v);
    } else if (strcmp(a, "--clock-start") == 0) {
      int64_t ms;
      if (!sl_time_parse_iso(sl_str_c(v), &ms))
        return usage_error("invalid time '%s' (ISO 8601, e.g. 2026-11-30T12:00:00Z)", v);
      cfg.clock_start_ms = ms;
    } else if (strcmp(a, "--time-scale") == 0) {
      char *end;
      double s = strtod(v, &end);
      /* A number above 0, at most sluice bench's limit ("nan", "inf" and
       * "2x" are not). */
      if (end == v || *end || !(s > 0) || s > 1e6)
        return usage_error("invalid time scale '%s' (a number above 0, at most 1000000)", v);
      cfg.time_scale = s;
      if (cfg.clock_mode == SL_CLOCK_REAL)
        cfg.clock_mode = SL_CLOCK_SCALED;
    } else if (strcmp(a, "--latency") == 0) {
      if (strcmp(v, "aws") != 0 && strcmp(v, "off") != 0)
        return usage_error("invalid --latency '%s' (aws or off)", v);
      cfg.latency_aws = strcmp(v, "aws") == 0;
    } else if (strcmp(a, "--delays") == 0) {
      if (strcmp(v, "instant") != 0 && strcmp(v, "realistic") != 0)
        return usage_error("invalid --delays '%s' (instant or realistic)", v);
      cfg.delays_realistic = strcmp(v, "realistic") == 0;
    } else if (strcmp(a, "--faults") == 0) {
      cfg.faults_file = v;
    } else if (strcmp(a, "--seed") == 0) {
      char *end;
      unsigned long long seed = strtoull(v, &end, 10);
      if (!*v || *end)
        return usage_error("invalid seed '%s' (a non-negative integer)", v);
      cfg.seed = seed;
      cfg.seed_given = true;
    } else if (strcmp(a, "--region") == 0) {
      cfg.region = v;
    } else if (strcmp(a, "--account-id") == 0) {
      cfg.account_id = v;
    } else if (strcmp(a, "--cors-origin") == 0) {
      size_t n = strlen(v);
      if (cors_len + n + 2 > sizeof(cors))
        return usage_error("too many --cors-origin values (from '%s')", v);
      if (cors_len)
        cors[cors_len++] = ',';
      memcpy(cors + cors_len, v, n + 1);
      cors_len += n;
    } else if (strcmp(a, "--auth") == 0) {
      if (strcmp(v, "any") != 0 && strcmp(v, "sigv4") != 0)
        return usage_error("unknown auth mode '%s' (any or sigv4)", v);
      auth_mode = v;
    } else if (strcmp(a, "--credentials") == 0) {
      credentials = v;
    } else if (strcmp(a, "--admin-token") == 0) {
      if (!*v)
        return usage_error("empty admin token%s", "");
      admin_token = v;
    } else if (strcmp(a, "--log-level") == 0) {
      sl_log_level = strcmp(v, "debug") == 0   ? SL_LOG_DEBUG
                     : strcmp(v, "warn") == 0  ? SL_LOG_WARN
                     : strcmp(v, "error") == 0 ? SL_LOG_ERROR
                                               : SL_LOG_INFO;
    } else {
      return usage_error("unknown flag '%s'", a);
    }
  }
  if (cfg.clock_mode == SL_CLOCK_SCALED && cfg.time_scale == 1.0)
    cfg.clock_mode = SL_CLOCK_REAL;
  if (strcmp(auth_mode, "sigv4") == 0 && !credentials)
    return usage_error("--auth sigv4 needs --credentials FILE%s", "");
  if (cfg.pretouch && cfg.data_dir)
    return usage_error("--pretouch is for in-memory storage; with --data-dir the data is "
                       "the file's%s",
                       "");

  sl_sigv4_config auth;
  sl_sigv4_config_init(&auth);
  auth.mode = strcmp(auth_mode, "sigv4") == 0 ? SL_AUTH_SIGV4 : SL_AUTH_ANY;
  auth.region = cfg.region;
  auth.loopback = sl_sigv4_is_loopback(bind);
  if (admin_token)
    sl_sigv4_set_admin_token(&auth, admin_token);
  if (credentials) {
    char err[256];
    if (sl_sigv4_load_credentials(&auth, credentials, err, sizeof(err)) != 0) {
      fprintf(stderr, "sluice: %s\n", err);
      sl_sigv4_config_free(&auth);
      return 1;
    }
  }
  cfg.auth = &auth;

  sl_app app;
  sl_arena tmp;
  sl_arena_init(&tmp);
  sl_failure f;
  sl_failure_init(&f, &tmp);
  if (sl_app_open(&app, &cfg, &f) != SL_OK) {
    fprintf(stderr, "sluice: %.*s\n", SL_STR_FMT(f.message));
    sl_arena_destroy(&tmp);
    sl_sigv4_config_free(&auth);
    return 1;
  }
  sl_server_config sc;
  sl_server_config_default(&sc);
  sc.bind = bind;
  sc.port = port;
  if (max_connections)
    sc.max_connections = max_connections;
  sc.handle_signals = true;
  sc.cors_origins = cors_len ? cors : NULL;
  uv_loop_t *loop = uv_default_loop();
  sl_server *srv = sl_server_create(loop, &sc, sl_router_handle, &app);
  if (!srv) {
    sl_app_close(&app);
    sl_arena_destroy(&tmp);
    sl_sigv4_config_free(&auth);
    return 1;
  }
  serve_ctx sv = {&app, srv};
  sl_server_every(srv, SL_APP_TICK_MS, tick, &sv);
  if (sl_store_durable(app.env.store))
    sl_server_set_barrier(
        srv, &(sl_server_barrier){sl_app_sync_begin, sl_app_sync_run, sl_app_sync_end, &app});
  printf("listening on http://%s:%d\n", bind, sl_server_port(srv));
  printf("seed %llu\n", (unsigned long long)cfg.seed);
  fflush(stdout);
  int rc = sl_server_run(srv);
  sl_server_destroy(srv);
  sl_app_close(&app);
  sl_arena_destroy(&tmp);
  sl_sigv4_config_free(&auth);
  uv_loop_close(loop);
  return rc;
}

static int cmd_version(int argc, char **argv) {
  (void)argc;
  (void)argv;
  puts("sluice " SLUICE_VERSION);
  return 0;
}

static int cmd_help(int argc, char **argv);

/* The subcommands. The tools of DESIGN.md live in src/tools/ (tools/tools.h,
 * tools/bench.h, tools/explain.h, tools/streams_tail.h). */
static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} commands[] = {
    {"serve", cmd_serve, "run the DynamoDB-compatible server (sluice serve --help)"},
    {"bench", sl_tool_bench, "open-loop load generator against an endpoint (sluice bench --help)"},
    {"explain", sl_tool_explain, "the cost preview of a PartiQL SELECT (sluice explain --help)"},
    {"size", sl_tool_size, "item size and the read/write units it costs (sluice size --help)"},
    {"simulate", sl_tool_simulate,
     "play a workload against a table design offline (sluice simulate --help)"},
    {"streams", sl_tool_streams,
     "streams tail TABLE: print a table's stream records as they arrive"},
    {"version", cmd_version, "print the version"},
    {"help", cmd_help, "list the commands"},
};

static void list_commands(FILE *out) {
  fprintf(out, "usage: sluice <command> [flags]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

static int cmd_help(int argc, char **argv) {
  (void)argc;
  (void)argv;
  list_commands(stdout);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2) {
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
      if (strcmp(argv[1], commands[i].name) == 0)
        return commands[i].run(argc - 2, argv + 2);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
      return cmd_help(0, NULL);
    fprintf(stderr, "sluice: unknown command '%s'\n\n", argv[1]);
  }
  list_commands(stderr);
  return 2;
}
