;; mode Count, max_paths none, force_hash false, interesting paths true
;; memory 2162688 bytes, event buffer 0 bytes, hash table 65536 entries at 0x20
;; counters of 0 check: array at 0x0 (2 paths)
;; counters of 1 dead: array at 0x10 (1 paths)
;; counters of 2 abort: array at 0x18 (1 paths)
;; PPP ids of 0 check (path:id): 0:0
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 33 33)
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
  (func (;4;) (type 3) (param i32 i64)
    (local i32 i32 i64)
    local.get 0
    i64.extend_i32_u
    i64.const 1
    i64.add
    local.set 4
    local.get 1
    local.get 4
    i64.const -7046029254386353131
    i64.mul
    i64.xor
    i64.const -49064778989728563
    i64.mul
    i64.const 48
    i64.shr_u
    i32.wrap_i64
    local.set 2
    loop ;; label = @1
      local.get 2
      i32.const 5
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.set 3
      local.get 3
      i64.load offset=40
      local.get 4
      i64.eq
      if ;; label = @2
        local.get 3
        i64.load offset=32
        local.get 1
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=48
          i64.const 1
          i64.add
          i64.store offset=48
          return
        end
      else
        local.get 3
        i64.load offset=40
        i64.eqz
        if ;; label = @3
          local.get 3
          local.get 1
          i64.store offset=32
          local.get 3
          local.get 4
          i64.store offset=40
          local.get 3
          i64.const 1
          i64.store offset=48
          global.get 1
          i32.const 1
          i32.add
          local.tee 2
          global.set 1
          local.get 2
          i32.const 32768
          i32.ge_u
          if ;; label = @4
            i32.const 1
            i32.const 0
            call 0
            i32.const 0
            global.set 1
          end
          return
        end
      end
      local.get 2
      i32.const 1
      i32.add
      i32.const 65535
      i32.and
      local.set 2
      br 0 (;@1;)
    end
  )
)

