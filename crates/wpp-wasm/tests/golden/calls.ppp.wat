;; mode Count, max_paths none, force_hash false, interesting paths true
;; memory 2162688 bytes, event buffer 0 bytes, hash table 65536 entries at 0x80
;; counters of 1 double: array at 0x0 (1 paths)
;; counters of 2 fact: 2 PPP slots at 0x8 (3 paths)
;; counters of 3 early: 4 PPP slots at 0x28 (6 paths)
;; counters of 4 tail: array at 0x68 (2 paths)
;; PPP ids of 2 fact (path:id): 0:0, 2:1
;; PPP ids of 3 early (path:id): 0:0, 2:1, 4:2
;; PPP ids of 4 tail (path:id): 0:0
(module
  (type $un (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "env" "log" (func $log (;0;) (type 1)))
  (import "wpp" "flush" (func (;1;) (type 2)))
  (table (;0;) 2 funcref)
  (memory (;0;) 33 33)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "early" (func $early))
  (export "tail" (func $tail))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (elem (;0;) (i32.const 0) func $double $fact)
  (func $double (;2;) (type $un) (param i32) (result i32)
    (local i64 i32 i32)
    local.get 0
    i32.const 2
    i32.mul
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
  )
  (func $fact (;3;) (type $un) (param i32) (result i32)
    (local i64 i32 i32 i64)
    local.get 0
    i32.const 1
    i32.le_s
    if (result i32) ;; label = @1
      i32.const 1
    else
      local.get 0
      local.get 0
      i32.const 1
      i32.sub
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
      i64.load offset=8
      local.get 1
      i64.const 1
      i64.add
      i64.eq
      if ;; label = @2
        local.get 3
        local.get 3
        i64.load offset=16
        i64.const 1
        i64.add
        i64.store offset=16
      else
        i32.const 2
        local.get 1
        i64.const 1
        i64.add
        call 6
      end
      i64.const 2
      local.set 1
      i64.const 1
      local.set 4
      call $fact
      i32.mul
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
    i64.load offset=8
    local.get 1
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=16
      i64.const 1
      i64.add
      i64.store offset=16
    else
      i32.const 2
      local.get 1
      call 6
    end
  )
  (func $early (;4;) (type $un) (param $x i32) (result i32)
    (local i64 i32 i32 i64)
    block $b
      local.get $x
      i32.eqz
      br_if $b
      local.get 4
      i64.const 1
      i64.add
      local.set 4
      local.get $x
      i32.const 10
      i32.gt_s
      if ;; label = @2
        i32.const 10
        local.get 4
        i32.wrap_i64
        i32.const 3
        i32.and
        i32.const 4
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 3
        i64.load offset=40
        local.get 1
        i64.const 1
        i64.add
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=48
          i64.const 1
          i64.add
          i64.store offset=48
        else
          i32.const 3
          local.get 1
          i64.const 1
          i64.add
          call 6
        end
        return
      end
      local.get $x
      local.get 4
      i32.wrap_i64
      i32.const 3
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 3
      i64.load offset=40
      local.get 1
      i64.const 2
      i64.add
      i64.eq
      if ;; label = @2
        local.get 3
        local.get 3
        i64.load offset=48
        i64.const 1
        i64.add
        i64.store offset=48
      else
        i32.const 3
        local.get 1
        i64.const 2
        i64.add
        call 6
      end
      i64.const 3
      local.set 1
      i64.const 0
      local.set 4
      call $log
    end
    i32.const 0
    local.get 4
    i32.wrap_i64
    i32.const 3
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    i64.load offset=40
    local.get 1
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=48
      i64.const 1
      i64.add
      i64.store offset=48
    else
      i32.const 3
      local.get 1
      call 6
    end
    i64.const 0
    local.set 1
    i64.const 2
    local.set 4
    call $log
    local.get $x
    local.get $x
    i32.const 1
    i32.and
    local.get 4
    i32.wrap_i64
    i32.const 3
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    i64.load offset=40
    local.get 1
    i64.const 4
    i64.add
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=48
      i64.const 1
      i64.add
      i64.store offset=48
    else
      i32.const 3
      local.get 1
      i64.const 4
      i64.add
      call 6
    end
    i64.const 0
    local.set 1
    i64.const 0
    local.set 4
    call_indirect (type $un)
    local.get 4
    i32.wrap_i64
    i32.const 3
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    i64.load offset=40
    local.get 1
    i64.const 5
    i64.add
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=48
      i64.const 1
      i64.add
      i64.store offset=48
    else
      i32.const 3
      local.get 1
      i64.const 5
      i64.add
      call 6
    end
  )
  (func $tail (;5;) (type $un) (param $x i32) (result i32)
    (local i64 i32 i32)
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
    i64.load offset=104
    i64.const 1
    i64.add
    i64.store offset=104
    i64.const 0
    local.set 1
    call $log
    local.get $x
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
    i64.load offset=104
    i64.const 1
    i64.add
    i64.store offset=104
    return_call $double
  )
  (func (;6;) (type 3) (param i32 i64)
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
      i64.load offset=136
      local.get 4
      i64.eq
      if ;; label = @2
        local.get 3
        i64.load offset=128
        local.get 1
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=144
          i64.const 1
          i64.add
          i64.store offset=144
          return
        end
      else
        local.get 3
        i64.load offset=136
        i64.eqz
        if ;; label = @3
          local.get 3
          local.get 1
          i64.store offset=128
          local.get 3
          local.get 4
          i64.store offset=136
          local.get 3
          i64.const 1
          i64.store offset=144
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
            call 1
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
  (data (;0;) (i32.const 8) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
  (data (;1;) (i32.const 40) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\ff\ff\ff\ff\ff\ff\ff\ff\00\00\00\00\00\00\00\00")
)

