;; mode Count, max_paths none, force_hash false, interesting paths false
;; memory 65536 bytes, event buffer 0 bytes, hash table 0 entries at 0x0
;; counters of 0 empty: array at 0x0 (1 paths)
;; counters of 1 add3: array at 0x8 (1 paths)
;; counters of 2 untargeted: array at 0x10 (1 paths)
(module
  (type (;0;) (func))
  (type (;1;) (func (param i32 i32 i32) (result i32)))
  (type (;2;) (func (param i32) (result i32)))
  (type (;3;) (func (param i32 i32)))
  (type (;4;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 3)))
  (memory (;0;) 1)
  (memory (;1;) 1 1)
  (memory (;2;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "empty" (func $empty))
  (export "add3" (func $add3))
  (export "untargeted" (func $untargeted))
  (export "__wpp_memory" (memory 1))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 2))
  (func $empty (;1;) (type 0)
    (local i64 i32 i32)
    local.get 0
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 2
    i32.add
    local.tee 2
    local.get 2
    i64.load 1
    i64.const 1
    i64.add
    i64.store 1
  )
  (func $add3 (;2;) (type 1) (param i32 i32 i32) (result i32)
    (local i64 i32 i32)
    local.get 0
    local.get 1
    i32.add
    local.get 2
    i32.add
    local.get 3
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 2
    i32.add
    local.tee 5
    local.get 5
    i64.load 1 offset=8
    i64.const 1
    i64.add
    i64.store 1 offset=8
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
    local.get 1
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 2
    i32.add
    local.tee 3
    local.get 3
    i64.load 1 offset=16
    i64.const 1
    i64.add
    i64.store 1 offset=16
  )
)

