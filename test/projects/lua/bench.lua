-- A small CPU-bound workload (also used by bench/build/ under callgrind):
-- string building, table churn, a closure-heavy fold and n-body-like float math.
-- Prints checksums that must be the same for every build of the interpreter.
local N = tonumber(arg and arg[1]) or 200000

local parts = {}
for i = 1, N // 10 do parts[#parts + 1] = string.format("%d:%x", i, i * 31) end
local s = table.concat(parts, ";")
local h = 0
for i = 1, #s, 7 do h = (h * 31 + s:byte(i)) % 4294967296 end
print("string checksum", h)

local t = {}
for i = 1, N do t[i] = (i * 2654435761) % 1000003 end
table.sort(t)
local acc = 0
for i = 1, N, 97 do acc = (acc + t[i] * i) % 1000000007 end
print("table checksum", acc)

local function fold(f, init, n) local a = init; for i = 1, n do a = f(a, i) end; return a end
print("fold", fold(function(a, i) return (a * 3 + i) % 65521 end, 1, N))

local x, y, vx, vy = 1.0, 0.0, 0.0, 1.0
local dt = 0.001
for _ = 1, N do
  local r3 = (x * x + y * y) ^ 1.5
  vx = vx - x / r3 * dt; vy = vy - y / r3 * dt
  x = x + vx * dt; y = y + vy * dt
end
print("orbit", string.format("%.6f %.6f", x, y))
