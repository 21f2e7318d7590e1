-- Runtime machinery: metatables, coroutines, errors, garbage collection,
-- load/string.dump, the seeded PRNG. Values asserted here follow from the
-- Lua 5.4 manual; output lines are deterministic.
local function check(name, got, want)
  assert(got == want, string.format("%s: got %s, want %s", name, tostring(got), tostring(want)))
  print(name, got)
end

-- metatables: a 2-D vector type
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, V) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
V.__len = function(v) return v.x * v.x + v.y * v.y end
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
check("__add/__tostring", tostring(vec(1, 2) + vec(3, 4)), "(4,6)")
check("__eq", vec(1, 1) == vec(1, 1), true)
check("__len", #vec(3, 4), 25)
local log = {}
local proxy = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k; rawset(t, k, v) end})
proxy.a = 1; proxy.b = 2; proxy.a = 3
check("__newindex only for new keys", table.concat(log, ","), "a,b")
check("__call", setmetatable({}, {__call = function(_, a, b) return a * b end})(6, 7), 42)
check("__close", (function()
  local out = {}
  do
    local _ <close> = setmetatable({}, {__close = function() out[#out + 1] = "closed" end})
    out[#out + 1] = "body"
  end
  return table.concat(out, ",")
end)(), "body,closed")

-- coroutines: a generator of primes
local function primes(limit)
  return coroutine.wrap(function()
    local found = {}
    for n = 2, limit do
      local prime = true
      for _, p in ipairs(found) do
        if p * p > n then break end
        if n % p == 0 then prime = false; break end
      end
      if prime then found[#found + 1] = n; coroutine.yield(n) end
    end
  end)
end
local count, last = 0, 0
for p in primes(10000) do count = count + 1; last = p end
check("primes below 10000", count, 1229)
check("largest prime below 10000", last, 9973)
local co = coroutine.create(function(a) local b = coroutine.yield(a + 1); return b * 2 end)
local _, r1 = coroutine.resume(co, 1)
local _, r2 = coroutine.resume(co, 10)
check("resume/yield values", r1 * 100 + r2, 220)
check("status dead", coroutine.status(co), "dead")

-- errors
local ok, err = pcall(function() error({code = 7}) end)
check("pcall table error", (not ok) and err.code, 7)
ok, err = pcall(function() local x = nil; return x.field end)
check("index nil error", (not ok) and type(err), "string")
check("xpcall handler", select(2, xpcall(function() error("boom", 0) end, function(m) return "handled " .. m end)), "handled boom")
check("error levels", select(2, pcall(error, "msg", 0)), "msg")

-- load and string.dump round trip
local f = load("local a, b = ...; return a * b + 1")
check("load", f(6, 7), 43)
local g = load(string.dump(function(x) return x * x end))
check("string.dump/load", g(12), 144)
check("load syntax error", select(1, load("return +")), nil)

-- garbage collector: weak tables and finalizers
local finalized = 0
do
  for i = 1, 100 do setmetatable({}, {__gc = function() finalized = finalized + 1 end}) end
end
collectgarbage("collect"); collectgarbage("collect")
check("finalizers ran", finalized, 100)
local weak = setmetatable({}, {__mode = "k"})
do for i = 1, 50 do weak[{}] = i end end
collectgarbage("collect")
check("weak keys collected", next(weak), nil)
local big = {}
for i = 1, 200000 do big[i] = {i} end
check("big table", #big, 200000)
big = nil
collectgarbage("collect")
check("collect returns 0", collectgarbage("collect"), 0)

-- seeded PRNG (xoshiro256** in 5.4): same seed, same sequence
math.randomseed(42)
local s1 = {}
for i = 1, 5 do s1[i] = math.random(1, 1000000) end
math.randomseed(42)
local same = true
for i = 1, 5 do if math.random(1, 1000000) ~= s1[i] then same = false end end
check("randomseed reproducible", same, true)
print("random(42)", table.concat(s1, ","))
print("runtime OK")
