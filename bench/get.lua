-- wrk script: GetItem of ~1 KB items among 1,000 preloaded keys (bench/run.sh).
local n = 0
local ddb = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ddb.lua")
function init(args)
  ddb.init("GetItem")
end
function request()
  n = n + 1
  local body = '{"TableName":"bench","Key":{"pk":{"S":"g' .. (n % 1000) .. '"}}}'
  return wrk.format(nil, "/", nil, body)
end
