;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:0, 1:5, 2:2
(module
  (type (;0;) (func (param i32 i32) (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "max" (func $max))
  (export "clamp" (func $clamp))
  (export "sign" (func $sign))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
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
    global.get 0
    local.get 2
    i64.store32
    global.get 0
    i32.const 4
    i32.add
    local.tee 4
    global.set 0
    local.get 4
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 4
      call 0
      i32.const 0
      global.set 0
    end
  )
  (func $clamp (;2;) (type 1) (param $x i32) (result i32)
    (local i64 i32 i32)
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
    global.get 0
    local.get 1
    i64.const 5
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
  (func $sign (;3;) (type 1) (param $x i32) (result i32)
    (local i64 i32 i32)
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
    if ;; label = @1
      i32.const 0
      local.get 3
      call 0
      i32.const 0
      global.set 0
    end
  )
)

