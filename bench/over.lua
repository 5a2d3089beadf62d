-- wrk script: writes over existing ~1 KB items (bench/stream_cost.py --workloads).
-- OVER_OP=put: PutItem of a whole new ~1 KB item over an existing key.
-- OVER_OP=update: UpdateItem SET of one number attribute of an existing item.
-- The keys k0..k(OVER_KEYS-1) are taken in turn; stream_cost.py writes them all first,
-- so that every write replaces an item (a MODIFY record with a stream).
-- CLOCK_EVERY=K: after every K writes, one POST /_sluice/clock {"advance_ms":1000} (a
-- server on --clock manual; bench/stream_cost.py --steady): K writes per second of its clock.
-- STOP_AFTER=N: the thread stops once N writes have been answered (the clock requests not
-- counted), so that two batches are the same size, and creates the file STOP_FILE.
local pad = string.rep("x", 960)
local op = os.getenv("OVER_OP") or "put"
local nkeys = tonumber(os.getenv("OVER_KEYS") or "10000")
local n = 0
local clock_every = tonumber(os.getenv("CLOCK_EVERY") or "0")
local stop_after = tonumber(os.getenv("STOP_AFTER") or "0")
local since_tick, answered = 0, 0
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = op == "update" and "DynamoDB_20120810.UpdateItem"
    or "DynamoDB_20120810.PutItem"
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
  local key = "k" .. (n % nkeys)
  local body
  if op == "update" then
    body = '{"TableName":"bench","Key":{"pk":{"S":"' .. key .. '"}},' ..
      '"UpdateExpression":"SET n = :v","ExpressionAttributeValues":{":v":{"N":"' .. n .. '"}}}'
  else
    body = '{"TableName":"bench","Item":{"pk":{"S":"' .. key .. '"},"n":{"N":"' .. n ..
      '"},"pad":{"S":"' .. pad .. '"}}}'
  end
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
