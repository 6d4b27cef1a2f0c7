;; mode Count, max_paths none, force_hash false, interesting paths false
;; memory 65536 bytes, event buffer 0 bytes, hash table 0 entries at 0x0
;; counters of 1 double: array at 0x0 (1 paths)
;; counters of 2 fact: array at 0x8 (3 paths)
;; counters of 3 early: array at 0x20 (6 paths)
;; counters of 4 tail: array at 0x50 (2 paths)
(module
  (type $un (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "env" "log" (func $log (;0;) (type 1)))
  (import "wpp" "flush" (func (;1;) (type 2)))
  (table (;0;) 2 funcref)
  (memory (;0;) 1 1)
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
    (local i64 i32 i32)
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
      i64.load offset=8
      i64.const 1
      i64.add
      i64.store offset=8
      i64.const 2
      local.set 1
      call $fact
      i32.mul
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
    i64.load offset=8
    i64.const 1
    i64.add
    i64.store offset=8
  )
  (func $early (;4;) (type $un) (param $x i32) (result i32)
    (local i64 i32 i32)
    block $b
      local.get $x
      i32.eqz
      br_if $b
      local.get $x
      i32.const 10
      i32.gt_s
      if ;; label = @2
        i32.const 10
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
        i64.load offset=32
        i64.const 1
        i64.add
        i64.store offset=32
        return
      end
      local.get $x
      local.get 1
      i64.const 2
      i64.add
      i32.wrap_i64
      i32.const 3
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 3
      local.get 3
      i64.load offset=32
      i64.const 1
      i64.add
      i64.store offset=32
      i64.const 3
      local.set 1
      call $log
    end
    i32.const 0
    local.get 1
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    local.get 3
    i64.load offset=32
    i64.const 1
    i64.add
    i64.store offset=32
    i64.const 0
    local.set 1
    call $log
    local.get $x
    local.get $x
    i32.const 1
    i32.and
    local.get 1
    i64.const 4
    i64.add
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    local.get 3
    i64.load offset=32
    i64.const 1
    i64.add
    i64.store offset=32
    i64.const 0
    local.set 1
    call_indirect (type $un)
    local.get 1
    i64.const 5
    i64.add
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    local.get 3
    i64.load offset=32
    i64.const 1
    i64.add
    i64.store offset=32
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
    i64.load offset=80
    i64.const 1
    i64.add
    i64.store offset=80
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
    i64.load offset=80
    i64.const 1
    i64.add
    i64.store offset=80
    return_call $double
  )
)

