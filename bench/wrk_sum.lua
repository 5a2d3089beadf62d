-- wrk script: GetItem like get.lua over keys g0..g9999, and a check of wrk's own
-- latency numbers (bench/README.md): at one connection the latencies cannot add up
-- to more than the run's length, yet on this machine they do.
--   wrk -t1 -c1 -d5s -s bench/wrk_sum.lua http://127.0.0.1:PORT/
local n = 0
local ddb = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ddb.lua")
function init(args)
  ddb.init("GetItem")
end
function request()
  n = n + 1
  return wrk.format(nil, "/", nil, '{"TableName":"bench","Key":{"pk":{"S":"g' .. (n % 10000) .. '"}}}')
end
function done(summary, latency, requests)
  io.write(string.format(
    "WRK requests=%d duration_s=%.2f p50=%d p99=%d p999=%d max=%d mean_us=%.1f sum_of_latencies_s=%.2f\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    latency:percentile(99.9), latency.max, latency.mean, latency.mean * summary.requests / 1e6))
end
