;; mode Count, max_paths none, force_hash false, interesting paths false
;; memory 65536 bytes, event buffer 0 bytes, hash table 0 entries at 0x0
;; counters of 0 sum: array at 0x0 (2 paths)
;; counters of 1 find: array at 0x10 (6 paths)
;; counters of 2 grid: array at 0x40 (12 paths)
;; counters of 3 spin: array at 0xa0 (4 paths)
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func (param i32)))
  (type (;3;) (func (param i32 i32)))
  (type (;4;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 3)))
  (memory (;0;) 1 1)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "sum" (func $sum))
  (export "find" (func $find))
  (export "grid" (func $grid))
  (export "spin" (func $spin))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (func $sum (;1;) (type 0) (param $n i32) (result i32)
    (local $i i32) (local $s i32) (local i64 i32 i32)
    loop $l
      local.get $s
      local.get $i
      i32.add
      local.set $s
      local.get $i
      i32.const 1
      i32.add
      local.set $i
      local.get $i
      local.get $n
      i32.lt_u
      local.tee 4
      if ;; label = @2
        local.get 3
        i64.const 1
        i64.add
        i32.wrap_i64
        i32.const 3
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 5
        local.get 5
        i64.load
        i64.const 1
        i64.add
        i64.store
        i64.const 0
        local.set 3
      end
      local.get 4
      br_if $l
    end
    local.get $s
    local.get 3
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    local.get 5
    i64.load
    i64.const 1
    i64.add
    i64.store
  )
  (func $find (;2;) (type 1) (param $n i32) (param $x i32) (result i32)
    (local $i i32) (local i64 i32 i32)
    block $found
      loop $l
        local.get $i
        local.get $i
        i32.mul
        local.get $x
        i32.eq
        br_if $found
        local.get $i
        i32.const 1
        i32.add
        local.set $i
        local.get $i
        local.get $n
        i32.lt_u
        local.tee 4
        if ;; label = @3
          local.get 3
          i64.const 2
          i64.add
          i32.wrap_i64
          i32.const 3
          i32.shl
          i32.const 0
          i32.load 1
          i32.add
          local.tee 5
          local.get 5
          i64.load offset=16
          i64.const 1
          i64.add
          i64.store offset=16
          i64.const 3
          local.set 3
        end
        local.get 4
        br_if $l
      end
      i32.const -1
      local.get 3
      i64.const 1
      i64.add
      i32.wrap_i64
      i32.const 3
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 5
      local.get 5
      i64.load offset=16
      i64.const 1
      i64.add
      i64.store offset=16
      return
    end
    local.get $i
    local.get 3
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    local.get 5
    i64.load offset=16
    i64.const 1
    i64.add
    i64.store offset=16
  )
  (func $grid (;3;) (type 0) (param $n i32) (result i32)
    (local $i i32) (local $j i32) (local $c i32) (local i64 i32 i32)
    loop $outer
      i32.const 0
      local.set $j
      loop $inner
        local.get $i
        local.get $j
        i32.and
        if ;; label = @3
          local.get $c
          i32.const 1
          i32.add
          local.set $c
        else
          local.get 4
          i64.const 3
          i64.add
          local.set 4
        end
        local.get $j
        i32.const 1
        i32.add
        local.set $j
        local.get $j
        local.get $n
        i32.lt_u
        local.tee 5
        if ;; label = @3
          local.get 4
          i64.const 2
          i64.add
          i32.wrap_i64
          i32.const 3
          i32.shl
          i32.const 0
          i32.load 1
          i32.add
          local.tee 6
          local.get 6
          i64.load offset=64
          i64.const 1
          i64.add
          i64.store offset=64
          i64.const 6
          local.set 4
        end
        local.get 5
        br_if $inner
      end
      local.get $i
      i32.const 1
      i32.add
      local.set $i
      local.get $i
      local.get $n
      i32.lt_u
      local.tee 5
      if ;; label = @2
        local.get 4
        i64.const 1
        i64.add
        i32.wrap_i64
        i32.const 3
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 6
        local.get 6
        i64.load offset=64
        i64.const 1
        i64.add
        i64.store offset=64
        i64.const 0
        local.set 4
      end
      local.get 5
      br_if $outer
    end
    local.get $c
    local.get 4
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 6
    local.get 6
    i64.load offset=64
    i64.const 1
    i64.add
    i64.store offset=64
  )
  (func $spin (;4;) (type 2) (param $n i32)
    (local i64 i32 i32)
    block $done
      loop $l
        local.get $n
        i32.eqz
        br_if $done
        local.get $n
        i32.const 1
        i32.sub
        local.set $n
        local.get 1
        i64.const 1
        i64.add
        i32.wrap_i64
        i32.const 3
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 3
        local.get 3
        i64.load offset=160
        i64.const 1
        i64.add
        i64.store offset=160
        i64.const 2
        local.set 1
        br $l
      end
    end
    local.get 1
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    local.get 3
    i64.load offset=160
    i64.const 1
    i64.add
    i64.store offset=160
  )
)

