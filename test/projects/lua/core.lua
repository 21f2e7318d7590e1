-- Interpreter core: arithmetic, strings, tables, closures, varargs, goto,
-- integer/float semantics. Each check asserts a value fixed by the language
-- definition (Lua 5.4 manual) and prints a deterministic line.
local function check(name, got, want)
  assert(got == want, string.format("%s: got %s, want %s", name, tostring(got), tostring(want)))
  print(name, got)
end

-- integers and floats (manual 3.4.1)
check("sum 1..100", (function() local s = 0; for i = 1, 100 do s = s + i end; return s end)(), 5050)
check("int div", 7 // 2, 3)
check("neg int div", -7 // 2, -4)
check("float div", 7 / 2, 3.5)
check("mod", -7 % 3, 2)
check("pow", 2 ^ 10, 1024.0)
check("maxinteger wrap", math.maxinteger + 1 == math.mininteger, true)
check("math.type", math.type(1) .. "," .. math.type(1.0) .. "," .. tostring(math.type("1")), "integer,float,nil")
check("bitops", (0xF0 | 0x0F) ~ 0x3C, 0xC3)
check("shift", 1 << 62, 4611686018427387904)
check("tointeger", math.tointeger(3.0), 3)
check("string->number", "10" + 5, 15)
check("float fmt", string.format("%.3f", math.pi), "3.142")
check("%g", string.format("%g", 1e20), "1e+20")

-- factorial and fibonacci, recursion and tail calls
local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
check("20!", fact(20), 2432902008176640000)
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
check("fib(25)", fib(25), 75025)
local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + 1) end
check("tail calls", loop(1000000, 0), 1000000)

-- strings and patterns (manual 6.4)
check("upper", ("hello"):upper(), "HELLO")
check("rep", ("ab"):rep(3, "-"), "ab-ab-ab")
check("gsub", (string.gsub("hello world", "o", "0")), "hell0 w0rld")
check("find", select(1, string.find("the quick brown fox", "quick")), 5)
check("match captures", table.concat({string.match("key = value", "(%w+)%s*=%s*(%w+)")}, "|"), "key|value")
check("gmatch words", (function() local n = 0; for _ in ("a bb ccc dddd"):gmatch("%a+") do n = n + 1 end; return n end)(), 4)
check("byte/char", string.char(string.byte("Lua", 1, 3)), "Lua")
check("reverse", ("stressed"):reverse(), "desserts")
check("pack/unpack", string.unpack("<i4", string.pack("<i4", -123456)), -123456)
check("utf8.len", utf8.len("h\u{e9}llo \u{4e16}\u{754c}"), 8)
check("utf8.char", utf8.char(72, 228, 8364), "H\u{e4}\u{20ac}")

-- tables, sort, concat, length
local t = {}
-- 7919 is invertible mod the prime 1009: a permutation of 0..1008
for i = 1, 1009 do t[i] = ((i - 1) * 7919) % 1009 end
table.sort(t)
local sorted = true
for i = 1, #t do if t[i] ~= i - 1 then sorted = false end end
check("sort gives 0..1008", sorted, true)
check("sort first/last", t[1] .. "," .. t[#t], "0,1008")
table.sort(t, function(a, b) return a > b end)
check("sort desc first", t[1], 1008)
check("concat", table.concat({1, 2, 3}, ","), "1,2,3")
check("insert/remove", (function() local u = {1, 2, 3}; table.insert(u, 2, 9); table.remove(u, 1); return table.concat(u, "") end)(), "923")
check("move", table.concat(table.move({1, 2, 3}, 1, 3, 2, {0}), ""), "0123")
check("unpack", select("#", table.unpack({1, 2, nil, 4}, 1, 4)), 4)

-- closures and upvalues
local function counter() local c = 0; return function() c = c + 1; return c end end
local c1, c2 = counter(), counter()
c1(); c1()
check("closures independent", c1() * 10 + c2(), 31)

-- varargs
local function va(...) return select("#", ...), (select(2, ...)) end
check("varargs", table.concat({va(1, nil, 3)}, ","), "3")

-- goto
local n = 0
::again:: n = n + 1
if n < 5 then goto again end
check("goto", n, 5)

-- integer for loop edge cases
local iters = 0
for i = math.maxinteger - 2, math.maxinteger do iters = iters + 1 end
check("for at maxinteger", iters, 3)
print("core OK")
