-- wrk script: PutItem of ~1 KB items with fresh keys (bench/run.sh).
-- CLOCK_EVERY and STOP_AFTER: the manual-clock batches of bench/batch.lua.
local pad = string.rep("x", 960)
local n = 0
local batch = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "batch.lua")
local ddb = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ddb.lua")
-- PUT_PREFIX: another key prefix ("k" by default), so that successive runs add items
-- instead of overwriting those of the run before (bench/tail.py).
local prefix = os.getenv("PUT_PREFIX") or "k"
-- PUT_TABLE: the table written ("bench"; "benchs" has a stream, bench/run.py's putstream).
local table_name = os.getenv("PUT_TABLE") or "bench"
setup = ddb.setup
function init(args)
  ddb.init("PutItem")
end
function request()
  local clock = batch.clock_request()
  if clock then
    return clock
  end
  n = n + 1
  local body = '{"TableName":"' .. table_name .. '","Item":{"pk":{"S":"' .. prefix .. id .. '-' .. n ..
    '"},"n":{"N":"' .. n .. '"},"pad":{"S":"' .. pad .. '"}}}'
  return wrk.format(nil, "/", nil, body)
end
batch.install()
