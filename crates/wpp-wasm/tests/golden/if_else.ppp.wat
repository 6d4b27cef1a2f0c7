;; mode Count, max_paths none, force_hash false, interesting paths true
;; memory 2162688 bytes, event buffer 0 bytes, hash table 65536 entries at 0x60
;; counters of 0 max: array at 0x0 (2 paths)
;; counters of 1 clamp: 2 PPP slots at 0x10 (4 paths)
;; counters of 2 sign: 2 PPP slots at 0x30 (3 paths)
;; PPP ids of 0 max (path:id): 0:0
;; PPP ids of 1 clamp (path:id): 0:0, 2:1
;; PPP ids of 2 sign (path:id): 0:0, 2:1
(module
  (type (;0;) (func (param i32 i32) (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 33 33)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "max" (func $max))
  (export "clamp" (func $clamp))
  (export "sign" (func $sign))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (func $max (;1;) (type 0) (param $a i32) (param $b i32) (result i32)
    (local i64 i32 i32)
    local.get $a
    local.get $b
    i32.gt_s
    if (result i32) ;; label = @1
      local.get $a
    else
      local.get 2
      i64.const 1
      i64.add
      local.set 2
      local.get $b
    end
    local.get 2
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 4
    local.get 4
    i64.load
    i64.const 1
    i64.add
    i64.store
  )
  (func $clamp (;2;) (type 1) (param $x i32) (result i32)
    (local i64 i32 i32 i64)
    local.get $x
    i32.const 0
    i32.lt_s
    if ;; label = @1
      i32.const 0
      local.set $x
    else
      local.get 1
      i64.const 2
      i64.add
      local.set 1
      local.get 4
      i64.const 1
      i64.add
      local.set 4
    end
    local.get $x
    i32.const 100
    i32.gt_s
    if ;; label = @1
      i32.const 100
      local.set $x
    else
      local.get 1
      i64.const 1
      i64.add
      local.set 1
    end
    local.get $x
    local.get 4
    i32.wrap_i64
    i32.const 1
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    i64.load offset=16
    local.get 1
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=24
      i64.const 1
      i64.add
      i64.store offset=24
    else
      i32.const 1
      local.get 1
      call 4
    end
  )
  (func $sign (;3;) (type 1) (param $x i32) (result i32)
    (local i64 i32 i32 i64)
    local.get $x
    i32.const 0
    i32.lt_s
    if (result i32) ;; label = @1
      i32.const -1
    else
      local.get 1
      i64.const 1
      i64.add
      local.set 1
      local.get 4
      i64.const 1
      i64.add
      local.set 4
      local.get $x
      i32.eqz
      if (result i32) ;; label = @2
        i32.const 0
      else
        local.get 1
        i64.const 1
        i64.add
        local.set 1
        i32.const 1
      end
    end
    local.get 4
    i32.wrap_i64
    i32.const 1
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    i64.load offset=48
    local.get 1
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=56
      i64.const 1
      i64.add
      i64.store offset=56
    else
      i32.const 2
      local.get 1
      call 4
    end
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
      i64.load offset=104
      local.get 4
      i64.eq
      if ;; label = @2
        local.get 3
        i64.load offset=96
        local.get 1
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=112
          i64.const 1
          i64.add
          i64.store offset=112
          return
        end
      else
        local.get 3
        i64.load offset=104
        i64.eqz
        if ;; label = @3
          local.get 3
          local.get 1
          i64.store offset=96
          local.get 3
          local.get 4
          i64.store offset=104
          local.get 3
          i64.const 1
          i64.store offset=112
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
  (data (;0;) (i32.const 16) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
  (data (;1;) (i32.const 48) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
)

