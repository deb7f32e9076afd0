-- Random paths and exact counts of answers for the bench. Each wrk thread runs its own Lua state: the counts are
-- that thread's globals, which done() adds up through the threads that setup() kept.
local threads = {}
local CLASSES = { "c1", "c2", "c3", "c4", "c5" }

local function wanted_locations()
  local list = {}
  for location in string.gmatch(os.getenv("BENCH_LOCATIONS") or "", "[^\n]+") do
    table.insert(list, location)
  end
  return list
end

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  requests = {}
  for path in io.lines(os.getenv("BENCH_PATHS_FILE")) do
    table.insert(requests, wrk.format(nil, path))
  end
  locations = wanted_locations()
  for _, name in ipairs(CLASSES) do _G[name] = 0 end
  for i = 1, #locations do _G["loc" .. i] = 0 end
  math.randomseed(os.time() * 1000 + thread_id)
end

function request()
  return requests[math.random(#requests)]
end

function response(status, headers, body)
  local class = math.floor(status / 100)
  if class < 1 or class > 5 then class = 1 end
  local name = CLASSES[class]
  _G[name] = _G[name] + 1
  if #locations > 0 then
    local location = headers["Location"] or headers["location"]
    for i = 1, #locations do
      if locations[i] == location then _G["loc" .. i] = _G["loc" .. i] + 1 end
    end
  end
end

function done(summary, latency, requests)
  local totals = { c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0 }
  local locations = wanted_locations()
  local located = {}
  for i = 1, #locations do located[i] = 0 end
  for _, thread in ipairs(threads) do
    for _, name in ipairs(CLASSES) do totals[name] = totals[name] + thread:get(name) end
    for i = 1, #locations do located[i] = located[i] + thread:get("loc" .. i) end
  end
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"connect":%d,"read":%d,' ..
      '"write":%d,"timeout":%d,"c1":%d,"c2":%d,"c3":%d,"c4":%d,"c5":%d,"locations":[%s]}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max, errors.connect,
    errors.read, errors.write, errors.timeout, totals.c1, totals.c2, totals.c3, totals.c4, totals.c5,
    table.concat(located, ",")))
end
