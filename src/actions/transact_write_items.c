/* Placeholder while the operation is written (tests/conformance/test_transact_write_items.py). */
#include "api/req.h"

sl_err sl_action_transact_write_items(sl_req *req) {
  return sl_fail(req, SL_E_INTERNAL_SERVER_ERROR, "not implemented yet");
}
