/* Placeholder while the operation is written (tests/conformance/test_batch_write_item.py). */
#include "api/req.h"

sl_err sl_action_batch_write_item(sl_req *req) {
  return sl_fail(req, SL_E_INTERNAL_SERVER_ERROR, "not implemented yet");
}
