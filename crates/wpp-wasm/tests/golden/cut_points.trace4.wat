;; mode Trace, max_paths 16, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:0, 1:13
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "chain" (func $chain))
  (export "looped" (func $looped))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (func $chain (;1;) (type 0) (param $x i32) (result i32)
    (local $s i32) (local i64 i32 i32)
    local.get $x
    i32.const 1
    i32.and
    if ;; label = @1
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
      if ;; label = @2
        i32.const 0
        local.get 4
        call 0
        i32.const 0
        global.set 0
      end
      i64.const 0
      local.set 2
      local.get $s
      i32.const 1
      i32.add
      local.set $s
    else
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
      if ;; label = @2
        i32.const 0
        local.get 4
        call 0
        i32.const 0
        global.set 0
      end
      i64.const 2
      local.set 2
      local.get $s
      i32.const 1
      i32.sub
      local.set $s
    end
    local.get $x
    i32.const 2
    i32.and
    if ;; label = @1
      local.get $s
      i32.const 2
      i32.add
      local.set $s
    else
      local.get 2
      i64.const 1
      i64.add
      local.set 2
      local.get $s
      i32.const 1
      i32.sub
      local.set $s
    end
    local.get $x
    i32.const 4
    i32.and
    if ;; label = @1
      global.get 0
      local.get 2
      i64.const 1
      i64.add
      i64.store32
      global.get 0
      i32.const 4
      i32.add
      local.tee 4
      global.set 0
      local.get 4
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 4
        call 0
        i32.const 0
        global.set 0
      end
      i64.const 0
      local.set 2
      local.get $s
      i32.const 4
      i32.add
      local.set $s
    else
      global.get 0
      local.get 2
      i64.const 1
      i64.add
      i64.store32
      global.get 0
      i32.const 4
      i32.add
      local.tee 4
      global.set 0
      local.get 4
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 4
        call 0
        i32.const 0
        global.set 0
      end
      i64.const 2
      local.set 2
      local.get $s
      i32.const 1
      i32.sub
      local.set $s
    end
    local.get $x
    i32.const 8
    i32.and
    if ;; label = @1
      local.get $s
      i32.const 8
      i32.add
      local.set $s
    else
      local.get 2
      i64.const 1
      i64.add
      local.set 2
      local.get $s
      i32.const 1
      i32.sub
      local.set $s
    end
    local.get $x
    i32.const 16
    i32.and
    if ;; label = @1
      global.get 0
      local.get 2
      i64.const 5
      i64.add
      i64.store32
      global.get 0
      i32.const 4
      i32.add
      local.tee 4
      global.set 0
      local.get 4
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 4
        call 0
        i32.const 0
        global.set 0
      end
      i64.const 0
      local.set 2
      local.get $s
      i32.const 16
      i32.add
      local.set $s
    else
      global.get 0
      local.get 2
      i64.const 5
      i64.add
      i64.store32
      global.get 0
      i32.const 4
      i32.add
      local.tee 4
      global.set 0
      local.get 4
      i32.const 1048576
      i32.ge_u
      if ;; label = @2
        i32.const 0
        local.get 4
        call 0
        i32.const 0
        global.set 0
      end
      i64.const 2
      local.set 2
      local.get $s
      i32.const 1
      i32.sub
      local.set $s
    end
    local.get $x
    i32.const 32
    i32.and
    if ;; label = @1
      local.get $s
      i32.const 32
      i32.add
      local.set $s
    else
      local.get 2
      i64.const 1
      i64.add
      local.set 2
      local.get $s
      i32.const 1
      i32.sub
      local.set $s
    end
    local.get $s
    global.get 0
    local.get 2
    i64.const 9
    i64.add
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
  (func $looped (;2;) (type 1) (param $x i32) (param $n i32) (result i32)
    (local $s i32) (local i64 i32 i32)
    loop $l
      local.get $x
      i32.const 1
      i32.and
      if ;; label = @2
        local.get $s
        i32.const 1
        i32.add
        local.set $s
      else
        local.get 3
        i64.const 8
        i64.add
        local.set 3
        local.get $s
        i32.const 1
        i32.sub
        local.set $s
      end
      local.get $x
      i32.const 2
      i32.and
      if ;; label = @2
        local.get $s
        i32.const 2
        i32.add
        local.set $s
      else
        local.get 3
        i64.const 4
        i64.add
        local.set 3
        local.get $s
        i32.const 1
        i32.sub
        local.set $s
      end
      local.get $x
      i32.const 4
      i32.and
      if ;; label = @2
        local.get $s
        i32.const 4
        i32.add
        local.set $s
      else
        local.get 3
        i64.const 2
        i64.add
        local.set 3
        local.get $s
        i32.const 1
        i32.sub
        local.set $s
      end
      local.get $n
      i32.const 1
      i32.sub
      local.set $n
      local.get $n
      local.tee 4
      if ;; label = @2
        global.get 0
        local.get 3
        i64.const 14
        i64.add
        i64.store32
        global.get 0
        i32.const 4
        i32.add
        local.tee 5
        global.set 0
        local.get 5
        i32.const 1048576
        i32.ge_u
        if ;; label = @3
          i32.const 0
          local.get 5
          call 0
          i32.const 0
          global.set 0
        end
        i64.const 0
        local.set 3
      end
      local.get 4
      br_if $l
    end
    local.get $s
    global.get 0
    local.get 3
    i64.const 13
    i64.add
    i64.store32
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
)

