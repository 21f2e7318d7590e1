-- Workload of the validity benchmark (bench/validity/run.sh): REPS repetitions
-- of one fixed chunk of table, string and closure work, so that the time is
-- start-up + REPS x (time of one chunk): a candidate given 1.10 x REPS does 10%
-- more of exactly the same work. Every repetition does the same work (nothing
-- depends on the repetition number but the checksum), the first one included.
-- Usage: lua work.lua REPS | lua work.lua FILE (a file holding REPS: the
-- campaigns' builds write it, so that one benchmark command serves both systems).
local a = arg and arg[1] or "100"
local reps = tonumber(a)
if not reps then
  local f = assert(io.open(a))
  reps = assert(tonumber(f:read("l")), "no repetition count in " .. a)
  f:close()
end
local acc = 0
for r = 1, reps do
  local t = {}
  for i = 1, 1500 do t[i] = (i * 2654435761) % 1000003 end
  table.sort(t)
  local parts = {}
  for i = 1, 300 do parts[i] = string.format("%d:%x", t[i * 5], i) end
  local s = table.concat(parts, ";")
  local h = 0
  for i = 1, #s, 3 do h = (h * 31 + s:byte(i)) % 4294967296 end
  local m = {}
  for i = 1, 600 do m["k" .. (i % 200)] = (m["k" .. (i % 200)] or 0) + i end
  local f = 1
  for i = 1, 1000 do f = (f * 3 + i) % 65521 end
  acc = (acc + h + f + m.k7 + r) % 1000000007
end
print(acc)
