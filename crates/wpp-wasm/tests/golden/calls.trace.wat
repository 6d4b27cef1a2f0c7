;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
(module
  (type $un (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "env" "log" (func $log (;0;) (type 1)))
  (import "wpp" "flush" (func (;1;) (type 2)))
  (table (;0;) 2 funcref)
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "early" (func $early))
  (export "tail" (func $tail))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (elem (;0;) (i32.const 0) func $double $fact)
  (func $double (;2;) (type $un) (param i32) (result i32)
    (local i64 i32 i32)
    local.get 0
    i32.const 2
    i32.mul
    global.get 0
    local.get 1
    i64.const 4294967296
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
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
      global.get 0
      local.get 1
      i64.const 8589934593
      i64.add
      i64.store
      global.get 0
      i32.const 8
      i32.add
      local.tee 3
      global.set 0
      local.get 3
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 3
        call 1
        i32.const 0
        global.set 0
      end
      i64.const 2
      local.set 1
      call $fact
      i32.mul
    end
    global.get 0
    local.get 1
    i64.const 8589934592
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
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
        global.get 0
        local.get 1
        i64.const 12884901889
        i64.add
        i64.store
        global.get 0
        i32.const 8
        i32.add
        local.tee 3
        global.set 0
        local.get 3
        i32.const 1048576
        i32.ge_u
        if ;; label = @3
          i32.const 0
          local.get 3
          call 1
          i32.const 0
          global.set 0
        end
        return
      end
      local.get $x
      global.get 0
      local.get 1
      i64.const 12884901890
      i64.add
      i64.store
      global.get 0
      i32.const 8
      i32.add
      local.tee 3
      global.set 0
      local.get 3
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 3
        call 1
        i32.const 0
        global.set 0
      end
      i64.const 3
      local.set 1
      call $log
    end
    i32.const 0
    global.get 0
    local.get 1
    i64.const 12884901888
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
    i64.const 0
    local.set 1
    call $log
    local.get $x
    local.get $x
    i32.const 1
    i32.and
    global.get 0
    local.get 1
    i64.const 12884901892
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
    i64.const 0
    local.set 1
    call_indirect (type $un)
    global.get 0
    local.get 1
    i64.const 12884901893
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
  )
  (func $tail (;5;) (type $un) (param $x i32) (result i32)
    (local i64 i32 i32)
    local.get $x
    global.get 0
    local.get 1
    i64.const 17179869184
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
    i64.const 0
    local.set 1
    call $log
    local.get $x
    global.get 0
    local.get 1
    i64.const 17179869185
    i64.add
    i64.store
    global.get 0
    i32.const 8
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 1
      i32.const 0
      global.set 0
    end
    return_call $double
  )
)

