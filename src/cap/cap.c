/* Temporary engine that admits everything; replaced by the real model. */
#include "cap/cap.h"
#include "base/log.h"

#include <stdlib.h>

struct sl_cap {
  const sl_clock *clock;
};

struct sl_cap_res {
  bool is_index;
  sl_str arn;
  bool on_demand;
};

const char *sl_cap_reason_name(bool index, sl_cap_dir dir, sl_cap_limit limit) {
  static const char *const names[2][2][4] = {
      {{"TableReadMaxOnDemandThroughputExceeded", "TableReadAccountLimitExceeded",
        "TableReadProvisionedThroughputExceeded", "TableReadKeyRangeThroughputExceeded"},
       {"TableWriteMaxOnDemandThroughputExceeded", "TableWriteAccountLimitExceeded",
        "TableWriteProvisionedThroughputExceeded", "TableWriteKeyRangeThroughputExceeded"}},
      {{"IndexReadMaxOnDemandThroughputExceeded", "IndexReadAccountLimitExceeded",
        "IndexReadProvisionedThroughputExceeded", "IndexReadKeyRangeThroughputExceeded"},
       {"IndexWriteMaxOnDemandThroughputExceeded", "IndexWriteAccountLimitExceeded",
        "IndexWriteProvisionedThroughputExceeded", "IndexWriteKeyRangeThroughputExceeded"}}};
  return names[index][dir][limit];
}

sl_cap *sl_cap_new(const sl_cap_params *p, const sl_clock *clock) {
  sl_cap *c = calloc(1, sizeof(*c));
  c->clock = clock;
  return c;
}
void sl_cap_free(sl_cap *c) { free(c); }
const sl_cap_params *sl_cap_params_of(const sl_cap *c) { return NULL; }
bool sl_cap_unlimited(const sl_cap *c) { return true; }

sl_cap_res *sl_cap_res_new(sl_cap *c, const sl_cap_res_init *init) {
  sl_cap_res *r = calloc(1, sizeof(*r));
  r->is_index = init->is_index;
  char *arn = malloc(init->arn.len + 1);
  memcpy(arn, init->arn.p, init->arn.len);
  r->arn = sl_str_make(arn, init->arn.len);
  r->on_demand = init->tp->billing == SL_BILLING_PAY_PER_REQUEST;
  return r;
}
void sl_cap_res_free(sl_cap *c, sl_cap_res *r) {
  if (r) {
    free((char *)r->arn.p);
    free(r);
  }
}
void sl_cap_res_configure(sl_cap *c, sl_cap_res *r, const sl_throughput *tp) {
  r->on_demand = tp->billing == SL_BILLING_PAY_PER_REQUEST;
}
sl_str sl_cap_res_arn(const sl_cap_res *r) { return r->arn; }
bool sl_cap_res_is_index(const sl_cap_res *r) { return r->is_index; }
bool sl_cap_res_on_demand(const sl_cap_res *r) { return r->on_demand; }
void sl_cap_note_bytes(sl_cap *c, sl_cap_res *r, uint64_t hash, sl_str sort, int64_t delta) {}

bool sl_cap_check(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out) {
  memset(out, 0, sizeof(*out));
  out->admitted = true;
  out->first_failed = -1;
  return true;
}
void sl_cap_debit(sl_cap *c, const sl_cap_charge *charges, size_t n) {}
bool sl_cap_admit(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out) {
  return sl_cap_check(c, charges, n, out);
}
