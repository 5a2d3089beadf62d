-- wrk script: PutItem of ~1 KB items with fresh keys (bench/run.sh).
-- CLOCK_EVERY=K: after every K writes, one POST /_sluice/clock {"advance_ms":1000} (a
-- server on --clock manual; bench/stream_cost.py --steady): K writes per second of its clock.
-- STOP_AFTER=N: the thread stops once N writes have been answered (the clock requests not
-- counted), so that two batches are the same size, and creates the file STOP_FILE.
local pad = string.rep("x", 960)
local n = 0
local clock_every = tonumber(os.getenv("CLOCK_EVERY") or "0")
local stop_after = tonumber(os.getenv("STOP_AFTER") or "0")
local since_tick, answered = 0, 0
local thread_id = 0
-- PUT_PREFIX: another key prefix ("k" by default), so that successive runs add items
-- instead of overwriting those of the run before (bench/tail.py).
local prefix = os.getenv("PUT_PREFIX") or "k"
-- PUT_TABLE: the table written ("bench"; "benchs" has a stream, bench/run.py's putstream).
local table_name = os.getenv("PUT_TABLE") or "bench"
function setup(thread)
  thread:set("id", thread_id)
  thread_id = thread_id + 1
end
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810.PutItem"
  wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
  wrk.headers["X-Amz-Date"] = "20261130T000000Z"
end
function request()
  if clock_every > 0 and since_tick >= clock_every then
    since_tick = 0
    return wrk.format("POST", "/_sluice/clock", nil, '{"advance_ms":1000}')
  end
  since_tick = since_tick + 1
  n = n + 1
  local body = '{"TableName":"' .. table_name .. '","Item":{"pk":{"S":"' .. prefix .. id .. '-' .. n ..
    '"},"n":{"N":"' .. n .. '"},"pad":{"S":"' .. pad .. '"}}}'
  return wrk.format(nil, "/", nil, body)
end
-- Only then a response() (wrk reads every answer's body when there is one).
if clock_every > 0 or stop_after > 0 then
  function response(status, headers, body)
    if clock_every > 0 and body:find('"now_ms"', 1, true) then
      return -- the clock's answer
    end
    answered = answered + 1
    if stop_after > 0 and answered == stop_after then
      wrk.thread:stop()
      -- wrk itself waits out -d: STOP_FILE tells the caller to end it now (SIGINT).
      local f = os.getenv("STOP_FILE") and io.open(os.getenv("STOP_FILE"), "w")
      if f then
        f:close()
      end
    end
  end
end
