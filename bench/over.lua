-- wrk script: writes over existing ~1 KB items (bench/stream_cost.py --workloads).
-- OVER_OP=put: PutItem of a whole new ~1 KB item over an existing key.
-- OVER_OP=update: UpdateItem SET of one number attribute of an existing item.
-- The keys k0..k(OVER_KEYS-1) are taken in turn; stream_cost.py writes them all first,
-- so that every write replaces an item (a MODIFY record with a stream).
-- CLOCK_EVERY and STOP_AFTER: the manual-clock batches of bench/batch.lua.
local pad = string.rep("x", 960)
local op = os.getenv("OVER_OP") or "put"
local nkeys = tonumber(os.getenv("OVER_KEYS") or "10000")
local n = 0
local batch = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "batch.lua")
local ddb = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ddb.lua")
function init(args)
  ddb.init(op == "update" and "UpdateItem" or "PutItem")
end
function request()
  local clock = batch.clock_request()
  if clock then
    return clock
  end
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
batch.install()
