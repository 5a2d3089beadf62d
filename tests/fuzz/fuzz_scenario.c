/*
 * libFuzzer target for the scenario reader of `sluice simulate`
 * (tools/scenario.h) and the simulator's set-up (tools/simulate.h).
 *
 * Every input is read as a scenario. A refusal must carry a message naming
 * a member or the JSON error; an accepted scenario builds a sim (capacity
 * parameters, resources, workloads), and one small enough to run at once
 * (at most 20,000 offered requests) runs, and its JSON and HTML reports are
 * written.
 *
 *   make build-fuzz/fuzz_scenario
 *   build-fuzz/fuzz_scenario -max_total_time=600 -timeout=5 \
 *       /tmp/fuzz-scenario-corpus tests/fuzz/corpus/scenario
 */
#include "tools/scenario.h"
#include "tools/simulate.h"
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_arena a;
  sl_arena_init(&a);
  /* An exact-size heap copy, so ASan sees any read past the end. */
  char *text = malloc(size ? size : 1);
  memcpy(text, data, size);
  sl_scenario s;
  char err[1024];
  err[0] = 0;
  if (!sl_scenario_parse(&a, text, size, &s, err, sizeof(err))) {
    SL_ASSERT(err[0] != 0);
  } else {
    double offered = 0;
    for (uint32_t i = 0; i < s.n_workloads; i++)
      for (uint32_t k = 0; k < s.workloads[i].n_phases; k++) {
        const sl_sim_phase *p = &s.workloads[i].phases[k];
        offered += (p->rate_from + p->rate_to) / 2 * (double)p->duration_us / 1e6;
      }
    sl_sim *sim = sl_sim_new(&s, err, sizeof(err));
    if (!sim) {
      SL_ASSERT(err[0] != 0);
    } else {
      if (offered <= 20000 && s.duration_us <= 3600LL * 1000000) {
        sl_sim_run(sim);
        sl_buf out;
        sl_buf_init(&out, NULL);
        sl_sim_write_json(sim, &out);
        sl_sim_write_html(sim, &out);
        sl_sim_write_text(sim, &out);
        sl_buf_free(&out);
      }
      sl_sim_free(sim);
    }
  }
  free(text);
  sl_arena_destroy(&a);
  return 0;
}
