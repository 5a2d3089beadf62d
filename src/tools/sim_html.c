/*
 * The HTML report of `sluice simulate` (sl_sim_write_html, simulate.h): one
 * self-contained page — inline CSS and SVG, no script, no external
 * resource — that a user reads without a manual: the diagnosis first, then
 * per resource offered vs accepted units, throttles stacked by
 * ThrottlingReason (AWS's names), partitions over time and each partition
 * against its own limit; the clients' attempts per request and the latency
 * backoff added; the hottest keys; the bill with its price table.
 * tests/browser/simulate_report.test.mjs opens it in headless Chromium.
 */
#include "tools/sim_int.h"
#include "tools/report_html.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHART_W 880
#define CHART_H 220
#define PAD_L 64
#define PAD_R 16
#define PAD_T 26
#define PAD_B 34
#define MAX_POINTS 440

static void esc(sl_buf *b, sl_str s) {
  for (size_t i = 0; i < s.len; i++) {
    char c = s.p[i];
    if (c == '<')
      sl_buf_puts(b, SL_STR("&lt;"));
    else if (c == '>')
      sl_buf_puts(b, SL_STR("&gt;"));
    else if (c == '&')
      sl_buf_puts(b, SL_STR("&amp;"));
    else if (c == '"')
      sl_buf_puts(b, SL_STR("&quot;"));
    else
      sl_buf_putc(b, c);
  }
}

static void escc(sl_buf *b, const char *s) { esc(b, sl_str_c(s)); }

/* A round axis maximum at or above 'v'. */
static double nice_max(double v) {
  if (v <= 0)
    return 1;
  double e = pow(10, floor(log10(v))), f = v / e;
  double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return n * e;
}

static void fmt_axis(sl_buf *b, double v) {
  if (v >= 1e6)
    sl_buf_printf(b, "%gM", v / 1e6);
  else if (v >= 1e4)
    sl_buf_printf(b, "%gk", v / 1e3);
  else
    sl_buf_printf(b, "%g", v);
}

typedef struct {
  const char *name;
  const char *color;
  bool dashed;
  double *v; /* MAX_POINTS values, already bucketed */
} line;

typedef struct {
  size_t n;      /* points */
  double span_s; /* seconds the chart covers */
} frame;

/* Buckets a per-step series to at most MAX_POINTS means ('scale' applied). */
static size_t bucket(const sl_sim *m, double *out, size_t n_steps, double scale, const int64_t *i64,
                     const uint32_t *u32, const uint16_t *u16, const double *dbl) {
  size_t n = n_steps < MAX_POINTS ? n_steps : MAX_POINTS;
  for (size_t k = 0; k < n; k++) {
    size_t a = k * n_steps / n, z = (k + 1) * n_steps / n;
    double sum = 0;
    for (size_t i = a; i < z; i++)
      sum += i64 ? (double)i64[i] : u32 ? (double)u32[i] : u16 ? (double)u16[i] : dbl[i];
    out[k] = z > a ? sum / (double)(z - a) * scale : 0;
  }
  (void)m;
  return n;
}

static void axes(sl_buf *b, const frame *f, double ymax, const char *unit) {
  double pw = CHART_W - PAD_L - PAD_R, ph = CHART_H - PAD_T - PAD_B;
  for (int i = 0; i <= 4; i++) {
    double y = PAD_T + ph - ph * i / 4;
    sl_buf_printf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", PAD_L, y,
                  CHART_W - PAD_R, y);
    sl_buf_printf(b, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", PAD_L - 6,
                  y + 4);
    fmt_axis(b, ymax * i / 4);
    sl_buf_puts(b, SL_STR("</text>"));
  }
  bool minutes = f->span_s >= 600;
  double unit_s = minutes ? 60 : 1, span = f->span_s / unit_s;
  double step = nice_max(span / 8);
  for (double t = 0; t <= span + 1e-9; t += step) {
    double x = PAD_L + pw * t / span;
    sl_buf_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>", x,
                  CHART_H - PAD_B + 16, t);
  }
  sl_buf_printf(b,
                "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">time (%s)</text>"
                "<text class=\"axis\" x=\"4\" y=\"%d\">%s</text>",
                CHART_W - PAD_R, CHART_H - 2, minutes ? "minutes" : "seconds", 12, unit);
}

static void svg_open(sl_buf *b, const char *label) {
  sl_buf_printf(b,
                "<svg role=\"img\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"xMidYMid meet\" "
                "aria-label=\"",
                CHART_W, CHART_H);
  escc(b, label);
  sl_buf_puts(b, SL_STR("\">"));
}

static void legend(sl_buf *b, const char *const *names, const char *const *colors, size_t n) {
  sl_buf_puts(b, SL_STR("<div class=\"legend\">"));
  for (size_t i = 0; i < n; i++) {
    sl_buf_printf(b, "<span><i style=\"background:%s\"></i>", colors[i]);
    escc(b, names[i]);
    sl_buf_puts(b, SL_STR("</span>"));
  }
  sl_buf_puts(b, SL_STR("</div>"));
}

static void chart_lines(sl_buf *b, const char *kind, const char *title, const char *unit,
                        const frame *f, const line *lines, size_t n_lines) {
  double ymax = 0;
  for (size_t l = 0; l < n_lines; l++)
    for (size_t i = 0; i < f->n; i++)
      ymax = lines[l].v[i] > ymax ? lines[l].v[i] : ymax;
  ymax = nice_max(ymax * 1.05);
  sl_buf_printf(b, "<figure class=\"chart\" data-chart=\"%s\"><figcaption>", kind);
  escc(b, title);
  sl_buf_puts(b, SL_STR("</figcaption>"));
  const char *names[8] = {0}, *colors[8] = {0};
  for (size_t l = 0; l < n_lines && l < 8; l++) {
    names[l] = lines[l].name;
    colors[l] = lines[l].color;
  }
  legend(b, names, colors, n_lines < 8 ? n_lines : 8);
  svg_open(b, title);
  axes(b, f, ymax, unit);
  double pw = CHART_W - PAD_L - PAD_R, ph = CHART_H - PAD_T - PAD_B;
  for (size_t l = 0; l < n_lines; l++) {
    sl_buf_printf(b, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s d=\"",
                  lines[l].color, lines[l].dashed ? " stroke-dasharray=\"6 4\"" : "");
    for (size_t i = 0; i < f->n; i++) {
      double x = PAD_L + pw * ((double)i + 0.5) / (double)f->n;
      double y = PAD_T + ph - ph * lines[l].v[i] / ymax;
      sl_buf_printf(b, "%c%.1f %.1f", i ? 'L' : 'M', x, y);
    }
    sl_buf_puts(b, SL_STR("\"/>"));
  }
  sl_buf_puts(b, SL_STR("</svg></figure>\n"));
}

static const char *const limit_colors[4] = {"#9467bd", "#8c564b", "#ff7f0e", "#d62728"};

/* Throttled events per second, stacked by ThrottlingReason. */
static void chart_throttles(sl_buf *b, sl_sim *m, res_state *r, int dir, const frame *f) {
  double step_s = (double)m->s->step_us / 1e6;
  static double v[4][MAX_POINTS];
  const char *names[4], *colors[4];
  size_t n_used = 0;
  int used[4];
  for (int l = 0; l < 4; l++) {
    if (!r->d[dir].total_throttled[l])
      continue;
    bucket(m, v[n_used], m->n_steps, 1 / step_s, NULL, r->d[dir].throttled[l], NULL, NULL);
    names[n_used] = sl_cap_reason_name(r->is_index, (sl_cap_dir)dir, (sl_cap_limit)l);
    colors[n_used] = limit_colors[l];
    used[n_used++] = l;
  }
  double ymax = 0;
  for (size_t i = 0; i < f->n; i++) {
    double s = 0;
    for (size_t k = 0; k < n_used; k++)
      s += v[k][i];
    ymax = s > ymax ? s : ymax;
  }
  ymax = nice_max(ymax * 1.05);
  char title[160];
  snprintf(title, sizeof(title), "Throttled %s per second, stacked by ThrottlingReason",
           dir ? "writes" : "reads");
  sl_buf_puts(b, SL_STR("<figure class=\"chart\" data-chart=\"throttles\"><figcaption>"));
  escc(b, title);
  sl_buf_puts(b, SL_STR("</figcaption>"));
  legend(b, names, colors, n_used);
  svg_open(b, title);
  axes(b, f, ymax, "throttled events/s");
  double pw = CHART_W - PAD_L - PAD_R, ph = CHART_H - PAD_T - PAD_B;
  double bw = pw / (double)f->n;
  for (size_t i = 0; i < f->n; i++) {
    double base = 0;
    for (size_t k = 0; k < n_used; k++) {
      if (v[k][i] <= 0)
        continue;
      double h = ph * v[k][i] / ymax;
      sl_buf_printf(b,
                    "<rect class=\"bar\" data-reason=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
                    "height=\"%.1f\" fill=\"%s\"/>",
                    sl_cap_reason_name(r->is_index, (sl_cap_dir)dir, (sl_cap_limit)used[k]),
                    PAD_L + bw * (double)i, PAD_T + ph - base - h, bw > 1.2 ? bw - 0.2 : bw, h,
                    colors[k]);
      base += h;
    }
  }
  sl_buf_puts(b, SL_STR("</svg></figure>\n"));
}

/* Each partition's consumption over the last minute against its own limit. */
static void chart_partitions_load(sl_buf *b, sl_sim *m, res_state *r, int dir) {
  size_t n = sl_cap_res_partitions(r->res);
  size_t shown = n < 64 ? n : 64;
  double cons[64], lim[64];
  bool hot[64];
  double ymax = 0;
  for (size_t i = 0; i < shown; i++) {
    sl_cap_partition_info p;
    sl_cap_res_partition(m->cap, r->res, i, &p);
    cons[i] = (double)p.consumed_minute_mu[dir] / 1000 / 60;
    lim[i] = (double)p.rate_mu[dir] / 1000;
    hot[i] = p.hot;
    ymax = cons[i] > ymax ? cons[i] : ymax;
    ymax = lim[i] > ymax ? lim[i] : ymax;
  }
  ymax = nice_max(ymax * 1.05);
  char title[200];
  snprintf(title, sizeof(title),
           "Each partition's %s at the end (mean of the last minute, %s/s) against its own "
           "limit%s",
           dir ? "writes" : "reads", sl__sim_unit_name(r, dir),
           n > shown ? " (the first 64 partitions)" : "");
  sl_buf_puts(b, SL_STR("<figure class=\"chart\" data-chart=\"partition-load\"><figcaption>"));
  escc(b, title);
  sl_buf_puts(b, SL_STR("</figcaption>"));
  static const char *const names[3] = {"consumed", "hot partition", "partition limit"};
  static const char *const colors[3] = {"#1f77b4", "#d62728", "#222"};
  legend(b, names, colors, 3);
  svg_open(b, title);
  double pw = CHART_W - PAD_L - PAD_R, ph = CHART_H - PAD_T - PAD_B;
  for (int i = 0; i <= 4; i++) {
    double y = PAD_T + ph - ph * i / 4;
    sl_buf_printf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", PAD_L, y,
                  CHART_W - PAD_R, y);
    sl_buf_printf(b, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", PAD_L - 6,
                  y + 4);
    fmt_axis(b, ymax * i / 4);
    sl_buf_puts(b, SL_STR("</text>"));
  }
  double bw = pw / (double)(shown ? shown : 1);
  for (size_t i = 0; i < shown; i++) {
    double x = PAD_L + bw * (double)i;
    double h = ph * cons[i] / ymax;
    sl_buf_printf(b,
                  "<rect class=\"bar\" data-hot=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                  "height=\"%.1f\" fill=\"%s\"><title>partition %zu: %.0f of %.0f %s/s%s</title>"
                  "</rect>",
                  hot[i] ? "true" : "false", x + bw * 0.15, PAD_T + ph - h, bw * 0.7, h,
                  hot[i] ? "#d62728" : "#1f77b4", i, cons[i], lim[i], sl__sim_unit_name(r, dir),
                  hot[i] ? " (hot)" : "");
    double ly = PAD_T + ph - ph * lim[i] / ymax;
    sl_buf_printf(b,
                  "<line class=\"limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#222\" stroke-width=\"2\"/>",
                  x + bw * 0.05, ly, x + bw * 0.95, ly);
    if (shown <= 32)
      sl_buf_printf(b,
                    "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%zu%s</text>",
                    x + bw / 2, CHART_H - PAD_B + 16, i, hot[i] ? " hot" : "");
  }
  sl_buf_printf(b,
                "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">partition</text>"
                "<text class=\"axis\" x=\"4\" y=\"%d\">%s/s</text>",
                CHART_W - PAD_R, CHART_H - 2, 12, sl__sim_unit_name(r, dir));
  sl_buf_puts(b, SL_STR("</svg></figure>\n"));
}

static void row_num(sl_buf *b, double v) {
  sl_buf_puts(b, SL_STR("<td class=\"n\">"));
  sl__sim_fmt_num(b, v);
  sl_buf_puts(b, SL_STR("</td>"));
}

static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1b1b1b;"
    "margin:0;background:#f6f7f9}main{max-width:960px;margin:0 auto;padding:16px 24px 40px}"
    "h1{font-size:1.5em;margin:.4em 0 .1em}h2{font-size:1.2em;margin:1.4em 0 .4em}"
    "h3{font-size:1.05em;margin:1em 0 .3em}p.meta{color:#555;margin:0 0 1em}"
    "section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:4px 16px 12px;"
    "margin:14px 0}section.diagnosis{border-left:5px solid #d62728}"
    "section.diagnosis.ok{border-left-color:#2ca02c}section.diagnosis li{margin:.4em 0}"
    "table{border-collapse:collapse;width:100%;font-size:.92em}td code{overflow-wrap:anywhere}"
    "th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #eceef1;vertical-align:top}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "figure.chart{margin:10px 0 6px}figcaption{font-weight:600;font-size:.95em}"
    "figure.chart svg{width:100%;height:auto;display:block}"
    ".legend{font-size:.85em;color:#333;margin:2px 0}.legend span{margin-right:14px;"
    "white-space:nowrap}.legend i{display:inline-block;width:12px;height:12px;"
    "margin-right:4px;vertical-align:-1px;border-radius:2px}"
    "line.grid{stroke:#e3e6ea;stroke-width:1}text.tick{font-size:11px;fill:#555}"
    "text.axis{font-size:11px;fill:#333;font-weight:600}code{font-size:.92em}"
    ".reason{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;"
    "overflow-wrap:anywhere}div.scroll{overflow-x:auto}"
    "@media (max-width:900px){body{font-size:14px}main{padding:8px 10px 30px}"
    "section{padding:4px 10px 10px}th,td{padding:3px 4px}}"
    "footer{color:#555;font-size:.88em}main.compare{max-width:1840px}"
    ".designs{display:grid;grid-template-columns:minmax(0,1fr);gap:0 20px}"
    "@media (min-width:1400px){.designs{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}"
    ".design>h1{font-size:1.25em}section.comparison table{table-layout:fixed}"
    "section.comparison tr>:first-child{width:150px}";

static void page_open(sl_buf *b, sl_str title, bool compare) {
  sl_buf_puts(b, SL_STR("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                        "'none'; style-src 'unsafe-inline'\"><title>sluice simulate: "));
  esc(b, title);
  sl_buf_printf(b, "</title><style>%s</style></head><body><main%s>\n", style,
                compare ? " class=\"compare\"" : "");
}

/* Everything about one run, from its meta line to its bill; 'id' prefixes
 * the element ids (two reports share a page in a comparison). */
static void report_body(sl_sim *m, sl_buf *b, const char *id) {
  const sl_scenario *s = m->s;
  double step_s = (double)s->step_us / 1e6;
  frame f = {m->n_steps < MAX_POINTS ? m->n_steps : MAX_POINTS, (double)s->duration_us / 1e6};
  sl_buf_printf(b,
                "<p class=\"meta\">sluice simulate — seed %llu, %g s of simulated time in "
                "steps of %g s, simulated in %.2f s (the capacity engine of the sluice server, "
                "offline). Units: RCU/WCU for provisioned tables, RRU/WRU for on-demand "
                "ones.</p>\n",
                (unsigned long long)s->seed, (double)s->duration_us / 1e6, step_s, m->wall_s);
  if (s->aggregate) {
    sl_buf_puts(b, SL_STR("<p class=\"meta\">"));
    sl__sim_aggregate_note(m, b);
    sl_buf_puts(b, SL_STR("</p>\n"));
  }
  /* diagnosis */
  sl_buf db;
  sl_buf_init(&db, NULL);
  sl_str lines[64];
  size_t nl;
  sl__sim_diagnose(m, &db, &nl, lines, 64);
  bool ok = nl == 1 && sl_str_starts_with(lines[0], SL_STR("No throttling"));
  sl_buf_printf(b,
                "<section class=\"diagnosis%s\"><h2>Diagnosis: which limit, when, why, and "
                "what fixes it</h2><ul>",
                ok ? " ok" : "");
  for (size_t i = 0; i < nl; i++) {
    sl_buf_puts(b, SL_STR("<li>"));
    esc(b, lines[i]);
    sl_buf_puts(b, SL_STR("</li>"));
  }
  sl_buf_puts(b, SL_STR("</ul></section>\n"));
  sl_buf_free(&db);
  /* summary */
  sl_buf_puts(b, SL_STR("<section class=\"summary\"><h2>Resources</h2><div "
                        "class=\"scroll\"><table><tr><th>resource"
                        "</th><th>mode</th><th class=\"n\">partitions</th><th>direction</th>"
                        "<th class=\"n\">offered units</th><th class=\"n\">accepted units</th>"
                        "<th class=\"n\">throttled</th><th class=\"n\">first throttle</th>"
                        "<th>ThrottlingReasons</th></tr>"));
  for (uint32_t ri = 0; ri < m->n_res; ri++) {
    res_state *r = &m->res[ri];
    for (int dir = 0; dir < 2; dir++) {
      dir_series *d = &r->d[dir];
      if (!d->total_offered_mu && !sl__sim_throttles(d))
        continue;
      sl_buf_puts(b, SL_STR("<tr><td>"));
      escc(b, r->label.p);
      sl_buf_printf(b, "</td><td>%s</td>", sl__sim_on_demand(r) ? "on-demand" : "provisioned");
      row_num(b, (double)sl_cap_res_partitions(r->res));
      sl_buf_printf(b, "<td>%s (%s)</td>", dir ? "writes" : "reads", sl__sim_unit_name(r, dir));
      row_num(b, (double)d->total_offered_mu / 1000);
      row_num(b, (double)d->total_accepted_mu / 1000);
      row_num(b, (double)sl__sim_throttles(d));
      if (d->first_throttle_us >= 0)
        sl_buf_printf(b, "<td class=\"n\">%.2f s</td><td>", (double)d->first_throttle_us / 1e6);
      else
        sl_buf_puts(b, SL_STR("<td class=\"n\">—</td><td>"));
      for (int l = 0; l < 4; l++)
        if (d->total_throttled[l])
          sl_buf_printf(b, "<div class=\"reason\">%s</div>",
                        sl_cap_reason_name(r->is_index, (sl_cap_dir)dir, (sl_cap_limit)l));
      sl_buf_puts(b, SL_STR("</td></tr>"));
    }
  }
  sl_buf_puts(b, SL_STR("</table></div></section>\n"));
  /* per resource */
  static double offered[MAX_POINTS], accepted[MAX_POINTS], prov[MAX_POINTS], parts[MAX_POINTS];
  for (uint32_t ri = 0; ri < m->n_res; ri++) {
    res_state *r = &m->res[ri];
    if (!r->d[0].total_offered_mu && !r->d[1].total_offered_mu)
      continue;
    sl_buf_printf(b, "<section class=\"resource\" id=\"%sresource-%u\"><h2>", id, ri);
    escc(b, r->label.p);
    sl_buf_printf(b, " (%s)</h2>", sl__sim_on_demand(r) ? "on-demand" : "provisioned");
    for (int dir = 0; dir < 2; dir++) {
      dir_series *d = &r->d[dir];
      if (!d->total_offered_mu)
        continue;
      const char *u = sl__sim_unit_name(r, dir);
      bucket(m, offered, m->n_steps, 1 / step_s / 1000, d->offered_mu, NULL, NULL, NULL);
      bucket(m, accepted, m->n_steps, 1 / step_s / 1000, d->accepted_mu, NULL, NULL, NULL);
      line ls[3] = {{"offered", "#8c8c8c", true, offered},
                    {"accepted", "#1f77b4", false, accepted}};
      size_t n = 2;
      if (!sl__sim_on_demand(r)) {
        bucket(m, prov, m->n_steps, 1, d->provisioned, NULL, NULL, NULL);
        ls[n++] = (line){"provisioned", "#2ca02c", true, prov};
      }
      char title[160], unit[32];
      snprintf(title, sizeof(title), "%s: offered vs accepted, %s per second",
               dir ? "Writes" : "Reads", u);
      snprintf(unit, sizeof(unit), "%s/s", u);
      chart_lines(b, "traffic", title, unit, &f, ls, n);
      if (sl__sim_throttles(d))
        chart_throttles(b, m, r, dir, &f);
      chart_partitions_load(b, m, r, dir);
    }
    bucket(m, parts, m->n_steps, 1, NULL, NULL, r->partitions, NULL);
    line pl[1] = {{"partitions", "#444", false, parts}};
    char title[160];
    snprintf(title, sizeof(title),
             "Partitions over time (%u added: splits for heat or size, or more "
             "capacity)",
             r->parts_added);
    chart_lines(b, "partitions", title, "partitions", &f, pl, 1);
    sl_buf_puts(b, SL_STR("</section>\n"));
  }
  /* clients */
  sl_buf_puts(b, SL_STR("<section class=\"workloads\"><h2>Clients: retries and the latency "
                        "they add</h2><div "
                        "class=\"scroll\"><table><tr><th>workload</th><th>operation</th><th>retry "
                        "policy</th><th class=\"n\">requests</th><th class=\"n\">attempts</th>"
                        "<th class=\"n\">attempts per request</th><th class=\"n\">succeeded</th>"
                        "<th class=\"n\">failed</th><th class=\"n\">added latency mean / p99 / "
                        "max</th></tr>"));
  for (uint32_t i = 0; i < s->n_workloads; i++) {
    wl_state *w = &m->wl[i];
    sl_buf_puts(b, SL_STR("<tr><td>"));
    esc(b, w->w->name);
    sl_buf_printf(b, "</td><td>%s</td><td>%s</td>", sl_sim_op_name((sl_sim_op)w->w->op),
                  sl_sim_retry_name((sl_sim_retry)w->w->client.retry));
    row_num(b, (double)w->requests);
    row_num(b, (double)w->attempts);
    sl_buf_printf(b, "<td class=\"n\">%.2f</td>",
                  w->requests ? (double)w->attempts / (double)w->requests : 0);
    row_num(b, (double)w->succeeded);
    row_num(b, (double)w->failed);
    uint64_t done = w->succeeded + w->failed;
    sl_buf_printf(b, "<td class=\"n\">%.0f / %.0f / %.0f ms</td></tr>",
                  done ? w->lat_sum_ms / (double)done : 0, sl__sim_latency_quantile(w, 0.99),
                  (double)w->lat_max_us / 1000);
  }
  sl_buf_puts(b, SL_STR("</table></div>"));
  static double req[MAX_POINTS], att[MAX_POINTS];
  for (uint32_t i = 0; i < s->n_workloads; i++) {
    wl_state *w = &m->wl[i];
    if (w->attempts <= w->requests && w->w->client.retry == SL_RETRY_NONE)
      continue;
    bucket(m, req, m->n_steps, 1 / step_s, NULL, w->s_requests, NULL, NULL);
    bucket(m, att, m->n_steps, 1 / step_s, NULL, w->s_attempts, NULL, NULL);
    line ls[2] = {{"requests the application made", "#8c8c8c", true, req},
                  {"attempts sent (with retries)", "#d62728", false, att}};
    char title[200];
    snprintf(title, sizeof(title), "%.*s: requests vs attempts per second (retry amplification)",
             (int)(w->w->name.len > 80 ? 80 : w->w->name.len), w->w->name.p);
    chart_lines(b, "retries", title, "per second", &f, ls, 2);
  }
  sl_buf_puts(b, SL_STR("</section>\n"));
  /* hottest keys */
  sl__sim_hot_key hk[TOP_KEYS];
  size_t nk = sl__sim_hottest_keys(m, hk);
  if (nk) {
    sl_buf_puts(b, SL_STR("<section class=\"keys\"><h2>Hottest partition keys</h2><div "
                          "class=\"scroll\"><table><tr>"
                          "<th>key</th><th>workload</th><th class=\"n\">requests</th>"
                          "<th class=\"n\">throttled</th></tr>"));
    for (size_t i = 0; i < nk; i++) {
      char kb[96];
      sl_buf_puts(b, SL_STR("<tr><td><code>"));
      esc(b, sl__sim_key_text(&m->wl[hk[i].wl].w->keys, hk[i].idx, kb));
      sl_buf_puts(b, SL_STR("</code></td><td>"));
      esc(b, m->wl[hk[i].wl].w->name);
      sl_buf_puts(b, SL_STR("</td>"));
      row_num(b, hk[i].requests);
      row_num(b, hk[i].throttled);
      sl_buf_puts(b, SL_STR("</tr>"));
    }
    sl_buf_puts(b, SL_STR("</table></div></section>\n"));
  }
  /* control plane: actions and auto-scaling activities */
  if (m->n_cp) {
    sl_buf_puts(b, SL_STR("<section class=\"control\"><h2>Control plane: UpdateTable actions and "
                          "auto-scaling activities</h2><div class=\"scroll\"><table><tr>"
                          "<th class=\"n\">time (s)</th><th>resource</th><th>change</th>"
                          "<th>status</th></tr>"));
    for (size_t i = 0, shown = 0; i < m->n_cp; i++) {
      const cp_event *e = &m->cp[i];
      if (e->ok && shown >= 200)
        continue;
      shown++;
      sl_buf_printf(b, "<tr><td class=\"n\">%.1f</td><td>", (double)e->at_us / 1e6);
      escc(b, m->res[e->res].label.p);
      sl_buf_puts(b, SL_STR("</td><td>"));
      escc(b, e->what);
      sl_buf_printf(b, "</td><td>%s", e->ok ? "Successful" : "<strong>Failed</strong>: ");
      if (e->error)
        escc(b, e->error);
      sl_buf_puts(b, SL_STR("</td></tr>"));
    }
    sl_buf_puts(b, SL_STR("</table></div></section>\n"));
  }
  /* cost */
  sl_buf_puts(
      b,
      SL_STR(
          "<section class=\"cost\"><h2>Cost</h2><div class=\"scroll\"><table><tr><th>resource</th>"
          "<th class=\"n\">read request units</th><th class=\"n\">write request "
          "units</th><th class=\"n\">RCU-hours</th><th class=\"n\">WCU-hours</th>"
          "<th class=\"n\">dollars</th></tr>"));
  double total = 0;
  for (uint32_t ri = 0; ri < m->n_res; ri++) {
    res_state *r = &m->res[ri];
    sl__sim_cost c = sl__sim_cost_of(m, r);
    total += c.dollars;
    sl_buf_puts(b, SL_STR("<tr><td>"));
    escc(b, r->label.p);
    sl_buf_puts(b, SL_STR("</td>"));
    row_num(b, c.read_units);
    row_num(b, c.write_units);
    sl_buf_printf(b,
                  "<td class=\"n\">%.2f</td><td class=\"n\">%.2f</td><td class=\"n\">$%.3f"
                  "</td></tr>",
                  c.rcu_hours, c.wcu_hours, c.dollars);
  }
  sl_buf_printf(b, "<tr><th colspan=\"5\">total</th><th class=\"n\">$%.3f</th></tr></table></div>",
                total);
  sl_buf_puts(b, SL_STR("<p>Prices of "));
  esc(b, s->prices.date);
  sl_buf_printf(b,
                " (us-east-1): $%g per million write request units, $%g per million read "
                "request units (on-demand; only accepted requests are billed), $%g per WCU-hour "
                "and $%g per RCU-hour (provisioned). On-demand prices were halved on 1 November "
                "2024; <code>\"prices\": \"before-2024-11-01\"</code> gives the earlier ones.</p>"
                "</section>\n",
                s->prices.write_per_million, s->prices.read_per_million, s->prices.wcu_hour,
                s->prices.rcu_hour);
}

static void page_close(sl_buf *b) {
  sl_buf_puts(b,
              SL_STR("<footer><p>How to read this: a partition serves at most 3,000 read and "
                     "1,000 write units per second; a ThrottlingReason names the resource type "
                     "(Table or Index), the direction and the limit: "
                     "<span class=\"reason\">KeyRangeThroughputExceeded</span> (a partition), "
                     "<span class=\"reason\">ProvisionedThroughputExceeded</span> (provisioned "
                     "capacity and its burst), <span class=\"reason\">MaxOnDemandThroughputExceeded"
                     "</span> (a configured on-demand maximum), <span class=\"reason\">"
                     "AccountLimitExceeded</span> (the per-table quota). Produced by "
                     "<code>sluice simulate --html</code>; <code>--json</code> has every series."
                     "</p></footer></main></body></html>\n"));
}

void sl_sim_write_html(sl_sim *m, sl_buf *b) {
  page_open(b, m->s->name, false);
  sl_buf_puts(b, SL_STR("<h1>"));
  esc(b, m->s->name);
  sl_buf_puts(b, SL_STR("</h1>"));
  report_body(m, b, "");
  page_close(b);
}

static void compare_row(sl_buf *b, const char *what, sl_sim *const *m, int kind) {
  sl_buf_printf(b, "<tr><th>%s</th>", what);
  for (int i = 0; i < 2; i++) {
    double offered = 0, accepted = 0, throttled = 0, dollars = 0, amp = 0;
    for (uint32_t r = 0; r < m[i]->n_res; r++)
      for (int d = 0; d < 2; d++) {
        offered += (double)m[i]->res[r].d[d].total_offered_mu / 1000;
        accepted += (double)m[i]->res[r].d[d].total_accepted_mu / 1000;
        throttled += (double)sl__sim_throttles(&m[i]->res[r].d[d]);
      }
    for (uint32_t r = 0; r < m[i]->n_res; r++)
      dollars += sl__sim_cost_of(m[i], &m[i]->res[r]).dollars;
    uint64_t req = 0, att = 0;
    for (uint32_t w = 0; w < m[i]->s->n_workloads; w++) {
      req += m[i]->wl[w].requests;
      att += m[i]->wl[w].attempts;
    }
    amp = req ? (double)att / (double)req : 0;
    if (kind == 0) {
      row_num(b, offered);
    } else if (kind == 1) {
      row_num(b, accepted);
    } else if (kind == 2) {
      row_num(b, throttled);
    } else if (kind == 3) {
      sl_buf_printf(b, "<td class=\"n\">%.2f</td>", amp);
    } else if (kind == 4) {
      sl_buf_printf(b, "<td class=\"n\">$%.3f</td>", dollars);
    } else {
      sl_buf db;
      sl_buf_init(&db, NULL);
      sl_str lines[64];
      size_t nl;
      sl__sim_diagnose(m[i], &db, &nl, lines, 64);
      sl_buf_puts(b, SL_STR("<td>"));
      esc(b, lines[0]);
      sl_buf_puts(b, SL_STR("</td>"));
      sl_buf_free(&db);
    }
  }
  sl_buf_puts(b, SL_STR("</tr>"));
}

void sl_sim_write_html_compare(sl_sim *a, sl_sim *b2, sl_buf *b) {
  sl_sim *m[2] = {a, b2};
  page_open(b, SL_STR("comparison"), true);
  sl_buf_puts(b, SL_STR("<h1>Two designs compared</h1><section class=\"comparison\"><h2>Side by "
                        "side</h2><div class=\"scroll\"><table><tr><th></th>"));
  for (int i = 0; i < 2; i++) {
    sl_buf_printf(b, "<th>%c: ", 'A' + i);
    esc(b, m[i]->s->name);
    sl_buf_puts(b, SL_STR("</th>"));
  }
  sl_buf_puts(b, SL_STR("</tr>"));
  compare_row(b, "offered units", m, 0);
  compare_row(b, "accepted units", m, 1);
  compare_row(b, "throttled events", m, 2);
  compare_row(b, "attempts per request", m, 3);
  compare_row(b, "cost", m, 4);
  compare_row(b, "first finding", m, 5);
  sl_buf_puts(b, SL_STR("</table></div></section><div class=\"designs\">"));
  for (int i = 0; i < 2; i++) {
    sl_buf_printf(b, "<div class=\"design\" id=\"design-%c\"><h1>%c: ", 'a' + i, 'A' + i);
    esc(b, m[i]->s->name);
    sl_buf_puts(b, SL_STR("</h1>"));
    report_body(m[i], b, i ? "b-" : "a-");
    sl_buf_puts(b, SL_STR("</div>"));
  }
  sl_buf_puts(b, SL_STR("</div>"));
  page_close(b);
}

/* ---- shared with sluice bench's report (tools/report_html.h) ---- */

const char *sl_report_html_style(void) { return style; }

void sl_report_html_esc(sl_buf *b, sl_str s) { esc(b, s); }

void sl_report_html_chart(sl_buf *b, const char *kind, const char *title, const char *unit,
                          double span_s, size_t n_points, const sl_report_line *lines,
                          size_t n_lines) {
  line ls[8];
  size_t n = n_lines < 8 ? n_lines : 8;
  if (n == 0)
    return;
  for (size_t i = 0; i < n; i++)
    ls[i] = (line){lines[i].name, lines[i].color, lines[i].dashed, (double *)(uintptr_t)lines[i].v};
  frame f = {n_points, span_s};
  chart_lines(b, kind, title, unit, &f, ls, n);
}
