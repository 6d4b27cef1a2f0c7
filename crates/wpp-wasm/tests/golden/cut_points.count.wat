;; mode Count, max_paths 16, force_hash false, interesting paths false
;; memory 65536 bytes, event buffer 0 bytes, hash table 0 entries at 0x0
;; counters of 0 chain: array at 0x0 (13 paths)
;; counters of 1 looped: array at 0x68 (16 paths)
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 1 1)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "chain" (func $chain))
  (export "looped" (func $looped))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (func $chain (;1;) (type 0) (param $x i32) (result i32)
    (local $s i32) (local i64 i32 i32)
    local.get $x
    i32.const 1
    i32.and
    if ;; label = @1
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
      i64.const 0
      local.set 2
      local.get $s
      i32.const 1
      i32.add
      local.set $s
    else
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
      local.get 2
      i64.const 1
      i64.add
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
      i64.const 0
      local.set 2
      local.get $s
      i32.const 4
      i32.add
      local.set $s
    else
      local.get 2
      i64.const 1
      i64.add
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
      local.get 2
      i64.const 5
      i64.add
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
      i64.const 0
      local.set 2
      local.get $s
      i32.const 16
      i32.add
      local.set $s
    else
      local.get 2
      i64.const 5
      i64.add
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
    local.get 2
    i64.const 9
    i64.add
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
        local.get 3
        i64.const 1
        i64.add
        i32.wrap_i64
        i32.const 3
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 5
        local.get 5
        i64.load offset=104
        i64.const 1
        i64.add
        i64.store offset=104
        i64.const 0
        local.set 3
      end
      local.get 4
      br_if $l
    end
    local.get $s
    local.get 3
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    local.get 5
    i64.load offset=104
    i64.const 1
    i64.add
    i64.store offset=104
  )
)

