;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:2, 1:0, 2:1
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "check" (func $check))
  (export "dead" (func $dead))
  (export "abort" (func $abort))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (func $check (;1;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    local.get $x
    i32.const 0
    i32.lt_s
    if ;; label = @1
      global.get 0
      local.get 1
      i64.const 2
      i64.add
      i64.store32
      global.get 0
      i32.const 4
      i32.add
      local.tee 3
      global.set 0
      local.get 3
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 3
        call 0
        i32.const 0
        global.set 0
      end
      unreachable
    end
    i32.const 100
    local.get $x
    i32.div_s
    global.get 0
    local.get 1
    i64.const 3
    i64.add
    i64.store32
    global.get 0
    i32.const 4
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 0
      i32.const 0
      global.set 0
    end
  )
  (func $dead (;2;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    block $b
      br $b
      i32.const 1
      local.set $x
    end
    local.get $x
    global.get 0
    local.get 1
    i64.store32
    global.get 0
    i32.const 4
    i32.add
    local.tee 3
    global.set 0
    local.get 3
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 3
      call 0
      i32.const 0
      global.set 0
    end
    return
    i32.const 5
  )
  (func $abort (;3;) (type 1)
    (local i64 i32 i32)
    global.get 0
    local.get 0
    i64.const 1
    i64.add
    i64.store32
    global.get 0
    i32.const 4
    i32.add
    local.tee 2
    global.set 0
    local.get 2
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 2
      call 0
      i32.const 0
      global.set 0
    end
    unreachable
    i32.const 1
    drop
  )
)

