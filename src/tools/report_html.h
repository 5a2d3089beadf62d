/*
 * report_html.h — the look of the tools' HTML reports, shared: the style
 * sheet and the line chart of `sluice simulate --html` (tools/sim_html.c,
 * where they live), which `sluice bench --html` (tools/bench.c) reuses so
 * both reports read alike. One self-contained page: inline CSS and SVG, no
 * script.
 *
 * Threads: any; the functions only append to the caller's buffer.
 */
#ifndef SL_TOOLS_REPORT_HTML_H
#define SL_TOOLS_REPORT_HTML_H

#include "base/arena.h"

typedef struct {
  const char *name;
  const char *color;
  bool dashed;
  const double *v; /* n_points values */
} sl_report_line;

/* The style sheet (the contents of a <style> element). */
const char *sl_report_html_style(void);

/* Appends 's' escaped for HTML text and attributes. */
void sl_report_html_esc(sl_buf *b, sl_str s);

/* A line chart (a <figure data-chart=KIND>, legend and inline SVG) of
 * n_points values per line spread over span_s seconds. */
void sl_report_html_chart(sl_buf *b, const char *kind, const char *title, const char *unit,
                          double span_s, size_t n_points, const sl_report_line *lines,
                          size_t n_lines);

#endif
