-- batch.lua: the manual-clock batches that bench/put.lua and bench/over.lua share
-- (bench/stream_cost.py --steady). Loaded with dofile; returns a table.
-- CLOCK_EVERY=K: after every K writes, one POST /_sluice/clock {"advance_ms":1000} (a
-- server on --clock manual): K writes per second of its clock.
-- STOP_AFTER=N: the thread stops once N writes have been answered (the clock requests not
-- counted), so that two batches are the same size, and creates the file STOP_FILE.
local M = {}
local clock_every = tonumber(os.getenv("CLOCK_EVERY") or "0")
local stop_after = tonumber(os.getenv("STOP_AFTER") or "0")
local since_tick, answered = 0, 0

-- The clock's request when one is due, else nil (and the coming write is counted).
function M.clock_request()
  if clock_every > 0 and since_tick >= clock_every then
    since_tick = 0
    return wrk.format("POST", "/_sluice/clock", nil, '{"advance_ms":1000}')
  end
  since_tick = since_tick + 1
  return nil
end

-- Defines wrk's response() only when needed (wrk reads every answer's body when there
-- is one).
function M.install()
  if clock_every == 0 and stop_after == 0 then
    return
  end
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

return M
