-- wrk script for bench/publish.sh: each request asks for the next page of PATHS_FILE (one
-- path per line), as a phone's browser asks (User-Agent, Accept-Encoding); prints one JSON
-- line at the end: requests, seconds, req/s, p50/p99/max latency in ms, non-2xx answers.
local paths = {}
local counter = 0

function init(args)
  local file = assert(io.open(os.getenv("PATHS_FILE"), "r"))
  for line in file:lines() do
    if line ~= "" then
      paths[#paths + 1] = line
    end
  end
  file:close()
  -- Threads start at different places in the list.
  counter = math.random(#paths)
end

function request()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter], {
    ["User-Agent"] = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    ["Accept-Encoding"] = "gzip, deflate, br, zstd",
  })
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local bad = summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    '{"requests": %d, "seconds": %.2f, "rps": %.0f, "p50_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, "errors": %d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, bad))
end
