;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:0, 1:1, 2:2
(module
  (type (;0;) (func))
  (type (;1;) (func (param i32 i32 i32) (result i32)))
  (type (;2;) (func (param i32) (result i32)))
  (type (;3;) (func (param i32 i32)))
  (type (;4;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 3)))
  (memory (;0;) 1)
  (memory (;1;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "empty" (func $empty))
  (export "add3" (func $add3))
  (export "untargeted" (func $untargeted))
  (export "__wpp_memory" (memory 1))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (func $empty (;1;) (type 0)
    (local i64 i32 i32)
    global.get 0
    local.get 0
    i64.store32 1
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
  )
  (func $add3 (;2;) (type 1) (param i32 i32 i32) (result i32)
    (local i64 i32 i32)
    local.get 0
    local.get 1
    i32.add
    local.get 2
    i32.add
    global.get 0
    local.get 3
    i64.const 1
    i64.add
    i64.store32 1
    global.get 0
    i32.const 4
    i32.add
    local.tee 5
    global.set 0
    local.get 5
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 5
      call 0
      i32.const 0
      global.set 0
    end
  )
  (func $untargeted (;3;) (type 2) (param $p i32) (result i32)
    (local i64 i32 i32)
    block (result i32) ;; label = @1
      loop (result i32) ;; label = @2
        i32.const 0
        local.get $p
        i32.store
        i32.const 0
        i32.load
      end
    end
    global.get 0
    local.get 1
    i64.const 2
    i64.add
    i64.store32 1
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
)

