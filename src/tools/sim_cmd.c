/*
 * `sluice simulate`'s command: reads the scenarios, runs the engine
 * (simulate.c) and writes the report (sim_report.c: text, JSON, CSV;
 * sim_html.c: HTML), so that the engine never calls its report writers.
 */
#include "tools/sim_int.h"
#include "tools/tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char simulate_usage[] =
    "usage: sluice simulate [flags] SCENARIO.json\n"
    "       sluice simulate --compare A.json B.json [flags]\n"
    "\n"
    "Plays the scenario's workload against its table design on the capacity\n"
    "engine, offline and deterministically (docs/simulate.md: the format).\n"
    "\n"
    "  --json         the whole report as JSON (every series) on stdout\n"
    "  --csv          the per-step series as CSV on stdout\n"
    "  --html         a self-contained HTML report with charts\n"
    "  --out FILE     write the report (text, or --json / --csv / --html) to FILE\n"
    "  --seed N       override the scenarios' seed\n"
    "  --check        only read and check the scenario\n"
    "  --compare      two scenarios (two designs) in one report\n";

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "sluice simulate: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n\n%s", simulate_usage);
  return 2;
}

/* Reads, checks and sets up one scenario; NULL (a message printed) on error. */
static sl_sim *load(sl_arena *a, const char *path, sl_scenario *sc, bool have_seed,
                    unsigned long long seed) {
  FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!fp) {
    fprintf(stderr, "sluice simulate: cannot read '%s': %s\n", path, strerror(errno));
    return NULL;
  }
  sl_buf in;
  sl_buf_init(&in, a);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
    sl_buf_append(&in, chunk, n);
  if (fp != stdin)
    fclose(fp);
  char err[1024];
  if (!sl_scenario_parse(a, in.p ? in.p : "", in.len, sc, err, sizeof(err))) {
    fprintf(stderr, "sluice simulate: %s: %s\n", path, err);
    return NULL;
  }
  if (have_seed)
    sc->seed = seed;
  sl_sim *sim = sl_sim_new(sc, err, sizeof(err));
  if (!sim)
    fprintf(stderr, "sluice simulate: %s: %s\n", path, err);
  return sim;
}

int sl_tool_simulate(int argc, char **argv) {
  const char *paths[2] = {NULL, NULL}, *out_path = NULL;
  int n_paths = 0;
  bool json = false, csv = false, html = false, check = false, compare = false;
  bool have_seed = false;
  unsigned long long seed = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(simulate_usage, stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--csv") == 0) {
      csv = true;
    } else if (strcmp(a, "--html") == 0) {
      html = true;
    } else if (strcmp(a, "--check") == 0) {
      check = true;
    } else if (strcmp(a, "--compare") == 0) {
      compare = true;
    } else if (strcmp(a, "--out") == 0 || strcmp(a, "--seed") == 0) {
      if (i + 1 >= argc)
        return usage("%s needs a value", a);
      if (strcmp(a, "--out") == 0) {
        out_path = argv[++i];
      } else {
        char *end;
        seed = strtoull(argv[++i], &end, 10);
        if (*end || !*argv[i])
          return usage("invalid seed '%s'", argv[i]);
        have_seed = true;
      }
    } else if (strncmp(a, "--", 2) == 0) {
      return usage("unknown flag '%s'", a);
    } else if (n_paths == 2) {
      return usage("too many scenario files ('%s')", a);
    } else {
      paths[n_paths++] = a;
    }
  }
  if (!n_paths)
    return usage("no scenario file%s", "");
  if (n_paths != (compare ? 2 : 1))
    return usage("%s", compare ? "--compare takes two scenario files"
                               : "one scenario at a time (--compare for two)");
  if (json + csv + html > 1)
    return usage("%s", "--json, --csv and --html exclude each other");
  if (compare && csv)
    return usage("%s", "--compare writes text, --json or --html");
  int rc = 1;
  sl_arena a;
  sl_arena_init(&a);
  sl_buf out;
  sl_buf_init(&out, NULL);
  sl_scenario sc[2];
  sl_sim *sim[2] = {NULL, NULL};
  for (int i = 0; i < n_paths; i++)
    if (!(sim[i] = load(&a, paths[i], &sc[i], have_seed, seed)))
      goto out;
  if (check) {
    for (int i = 0; i < n_paths; i++)
      printf("%s: ok\n", paths[i]);
    rc = 0;
    goto out;
  }
  for (int i = 0; i < n_paths; i++)
    sl_sim_run(sim[i]);
  if (compare) {
    if (html) {
      sl_sim_write_html_compare(sim[0], sim[1], &out);
    } else if (json) {
      sl_buf_puts(&out, SL_STR("{\"a\":"));
      sl_sim_write_json(sim[0], &out);
      sl_buf_puts(&out, SL_STR(",\"b\":"));
      sl_sim_write_json(sim[1], &out);
      sl_buf_puts(&out, SL_STR("}\n"));
    } else {
      for (int i = 0; i < 2; i++) {
        sl_buf_printf(&out, "%s== %c: %s\n", i ? "\n" : "", 'A' + i, paths[i]);
        sl_sim_write_text(sim[i], &out);
      }
    }
  } else if (json) {
    sl_sim_write_json(sim[0], &out);
  } else if (csv) {
    sl_sim_write_csv(sim[0], &out);
  } else if (html) {
    sl_sim_write_html(sim[0], &out);
  } else {
    sl_sim_write_text(sim[0], &out);
  }
  FILE *of = out_path ? fopen(out_path, "wb") : stdout;
  if (!of) {
    fprintf(stderr, "sluice simulate: cannot write '%s': %s\n", out_path, strerror(errno));
    goto out;
  }
  fwrite(out.p, 1, out.len, of);
  if (of != stdout)
    fclose(of);
  rc = 0;
out:
  for (int i = 0; i < 2; i++)
    sl_sim_free(sim[i]);
  sl_buf_free(&out);
  sl_arena_destroy(&a);
  return rc;
}
