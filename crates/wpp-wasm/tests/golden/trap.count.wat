;; mode Count, max_paths none, force_hash false, interesting paths false
;; memory 65536 bytes, event buffer 0 bytes, hash table 0 entries at 0x0
;; counters of 0 check: array at 0x0 (2 paths)
;; counters of 1 dead: array at 0x10 (1 paths)
;; counters of 2 abort: array at 0x18 (1 paths)
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 1 1)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "check" (func $check))
  (export "dead" (func $dead))
  (export "abort" (func $abort))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (func $check (;1;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    local.get $x
    i32.const 0
    i32.lt_s
    if ;; label = @1
      local.get 1
      i32.wrap_i64
      i32.const 3
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 3
      local.get 3
      i64.load
      i64.const 1
      i64.add
      i64.store
      unreachable
    end
    i32.const 100
    local.get $x
    i32.div_s
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
    i64.load
    i64.const 1
    i64.add
    i64.store
  )
  (func $dead (;2;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    block $b
      br $b
      i32.const 1
      local.set $x
    end
    local.get $x
    local.get 1
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    local.get 3
    i64.load offset=16
    i64.const 1
    i64.add
    i64.store offset=16
    return
    i32.const 5
  )
  (func $abort (;3;) (type 1)
    (local i64 i32 i32)
    local.get 0
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 2
    local.get 2
    i64.load offset=24
    i64.const 1
    i64.add
    i64.store offset=24
    unreachable
    i32.const 1
    drop
  )
)

