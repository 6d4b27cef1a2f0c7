-- Lua workload for wpp: a mix of classic benchmark kernels.
-- Usage: lua SCALE < bench.lua   (SCALE is a number, default 1; the test run
-- uses 0.2, the benchmark run 8).  All output is deterministic: no clocks, no
-- random seeds, and a fixed string-hash seed in the wasm build.  No errors may
-- be raised (the wasm build has no setjmp; the first error ends the run).

local scale = tonumber(arg and arg[1]) or 1

local function out(name, ...)
  io.write(name, ":")
  for i = 1, select("#", ...) do io.write(" ", tostring((select(i, ...)))) end
  io.write("\n")
end

-- binary-trees: allocation and GC
local function bottom_up(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottom_up(depth), bottom_up(depth) }
end

local function item_check(tree)
  if tree[1] then return 1 + item_check(tree[1]) + item_check(tree[2]) end
  return 1
end

local function binary_trees(n)
  local maxdepth = math.max(6, n)
  local total = item_check(bottom_up(maxdepth + 1))
  local long_lived = bottom_up(maxdepth)
  for depth = 4, maxdepth, 2 do
    local iters = 1 << (maxdepth - depth + 4)
    local check = 0
    for _ = 1, iters do check = check + item_check(bottom_up(depth)) end
    total = total + check
  end
  return total + item_check(long_lived)
end

-- fannkuch-redux: integer array permutations
local function fannkuch(n)
  local p, q, s, sign, maxflips, sum = {}, {}, {}, 1, 0, 0
  for i = 1, n do p[i] = i; q[i] = i; s[i] = i end
  while true do
    local q1 = p[1]
    if q1 ~= 1 then
      for i = 2, n do q[i] = p[i] end
      local flips = 1
      while true do
        local qq = q[q1]
        if qq == 1 then
          sum = sum + sign * flips
          if flips > maxflips then maxflips = flips end
          break
        end
        q[q1] = q1
        if q1 >= 4 then
          local i, j = 2, q1 - 1
          repeat q[i], q[j] = q[j], q[i]; i = i + 1; j = j - 1; until i >= j
        end
        q1 = qq; flips = flips + 1
      end
    end
    if sign == 1 then
      p[2], p[1] = p[1], p[2]; sign = -1
    else
      p[2], p[3] = p[3], p[2]; sign = 1
      for i = 3, n do
        local sx = s[i]
        if sx ~= 1 then s[i] = sx - 1; break end
        if i == n then return sum, maxflips end
        s[i] = i
        local t = p[1]; for j = 1, i do p[j] = p[j + 1] end; p[i + 1] = t
      end
    end
  end
end

-- n-body: floating point and field access
local function nbody(n)
  local pi, days = math.pi, 365.24
  local solar_mass = 4 * pi * pi
  local bodies = {
    { x = 0, y = 0, z = 0, vx = 0, vy = 0, vz = 0, mass = solar_mass },
    { x = 4.84143144246472090e+00, y = -1.16032004402742839e+00, z = -1.03622044471123109e-01,
      vx = 1.66007664274403694e-03 * days, vy = 7.69901118419740425e-03 * days,
      vz = -6.90460016972063023e-05 * days, mass = 9.54791938424326609e-04 * solar_mass },
    { x = 8.34336671824457987e+00, y = 4.12479856412430479e+00, z = -4.03523417114321381e-01,
      vx = -2.76742510726862411e-03 * days, vy = 4.99852801234917238e-03 * days,
      vz = 2.30417297573763929e-05 * days, mass = 2.85885980666130812e-04 * solar_mass },
    { x = 1.28943695621391310e+01, y = -1.51111514016986312e+01, z = -2.23307578892655734e-01,
      vx = 2.96460137564761618e-03 * days, vy = 2.37847173959480950e-03 * days,
      vz = -2.96589568540237556e-05 * days, mass = 4.36624404335156298e-05 * solar_mass },
    { x = 1.53796971148509165e+01, y = -2.59193146099879641e+01, z = 1.79258772950371181e-01,
      vx = 2.68067772490389322e-03 * days, vy = 1.62824170038242295e-03 * days,
      vz = -9.51592254519715870e-05 * days, mass = 5.15138902046611451e-05 * solar_mass },
  }
  local nb = #bodies
  local px, py, pz = 0, 0, 0
  for i = 1, nb do
    local b = bodies[i]
    px = px + b.vx * b.mass; py = py + b.vy * b.mass; pz = pz + b.vz * b.mass
  end
  bodies[1].vx = -px / solar_mass; bodies[1].vy = -py / solar_mass; bodies[1].vz = -pz / solar_mass

  local function energy()
    local e = 0
    for i = 1, nb do
      local bi = bodies[i]
      e = e + 0.5 * bi.mass * (bi.vx * bi.vx + bi.vy * bi.vy + bi.vz * bi.vz)
      for j = i + 1, nb do
        local bj = bodies[j]
        local dx, dy, dz = bi.x - bj.x, bi.y - bj.y, bi.z - bj.z
        e = e - bi.mass * bj.mass / math.sqrt(dx * dx + dy * dy + dz * dz)
      end
    end
    return e
  end

  local e0 = energy()
  for _ = 1, n do
    for i = 1, nb do
      local bi = bodies[i]
      local bix, biy, biz, bimass = bi.x, bi.y, bi.z, bi.mass
      local bivx, bivy, bivz = bi.vx, bi.vy, bi.vz
      for j = i + 1, nb do
        local bj = bodies[j]
        local dx, dy, dz = bix - bj.x, biy - bj.y, biz - bj.z
        local d2 = dx * dx + dy * dy + dz * dz
        local mag = 0.01 / (d2 * math.sqrt(d2))
        local bm = bj.mass * mag
        bivx = bivx - dx * bm; bivy = bivy - dy * bm; bivz = bivz - dz * bm
        bm = bimass * mag
        bj.vx = bj.vx + dx * bm; bj.vy = bj.vy + dy * bm; bj.vz = bj.vz + dz * bm
      end
      bi.vx, bi.vy, bi.vz = bivx, bivy, bivz
      bi.x = bix + 0.01 * bivx; bi.y = biy + 0.01 * bivy; bi.z = biz + 0.01 * bivz
    end
  end
  return string.format("%.9f %.9f", e0, energy())
end

-- spectral-norm: function calls and floating point
local function spectral_norm(n)
  local function A(i, j)
    local ij = i + j - 1
    return 1.0 / (ij * (ij - 1) * 0.5 + i)
  end
  local function Av(x, y, N)
    for i = 1, N do
      local a = 0
      for j = 1, N do a = a + x[j] * A(i, j) end
      y[i] = a
    end
  end
  local function Atv(x, y, N)
    for i = 1, N do
      local a = 0
      for j = 1, N do a = a + x[j] * A(j, i) end
      y[i] = a
    end
  end
  local u, v, t = {}, {}, {}
  for i = 1, n do u[i] = 1 end
  for _ = 1, 10 do
    Av(u, t, n); Atv(t, v, n)
    Av(v, t, n); Atv(t, u, n)
  end
  local vBv, vv = 0, 0
  for i = 1, n do
    local ui, vi = u[i], v[i]
    vBv = vBv + ui * vi; vv = vv + vi * vi
  end
  return string.format("%.9f", math.sqrt(vBv / vv))
end

-- strings: building, gsub, find, tables keyed by strings
local function strings(n)
  local words = {}
  local seed = 42
  local function rnd(m) -- deterministic LCG
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % m
  end
  local letters = "abcdefghijklmnopqrstuvwxyz"
  for i = 1, n do
    local len = 3 + rnd(8)
    local t = {}
    for k = 1, len do
      local c = rnd(26) + 1
      t[k] = letters:sub(c, c)
    end
    words[i] = table.concat(t)
  end
  local text = table.concat(words, " ")
  local counts = {}
  for w in text:gmatch("%a+") do counts[w] = (counts[w] or 0) + 1 end
  local distinct = 0
  for _ in pairs(counts) do distinct = distinct + 1 end
  local upper = text:gsub("[aeiou]", string.upper)
  local vowels = select(2, text:gsub("[aeiou]", ""))
  local found, pos = 0, 1
  while true do
    local s = text:find("ab", pos, true)
    if not s then break end
    found = found + 1; pos = s + 1
  end
  local h = 0
  for i = 1, #upper, 7 do h = (h * 31 + upper:byte(i)) % 4294967296 end
  return #text, distinct, vowels, found, h
end

-- sort: table.sort with and without a comparator
local function sorting(n)
  local seed = 7
  local a, b = {}, {}
  for i = 1, n do
    seed = (seed * 16807) % 2147483647
    a[i] = seed
    b[i] = tostring(seed % 100000)
  end
  table.sort(a)
  table.sort(b, function(x, y) return #x < #y or (#x == #y and x < y) end)
  local ok = true
  for i = 2, n do if a[i - 1] > a[i] then ok = false end end
  return ok, a[1], a[n], b[1], b[n], a[n // 2]
end

local floor = math.floor
out("binary-trees", binary_trees(floor(6 + scale)))
out("fannkuch", fannkuch(math.min(9, floor(5 + scale))))
out("n-body", nbody(floor(5000 * scale)))
out("spectral-norm", spectral_norm(floor(30 * scale) + 10))
out("strings", strings(floor(4000 * scale)))
out("sort", sorting(floor(5000 * scale)))
