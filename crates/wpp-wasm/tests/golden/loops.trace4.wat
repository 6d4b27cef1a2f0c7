;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:0, 1:6, 2:12, 3:2
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func (param i32)))
  (type (;3;) (func (param i32 i32)))
  (type (;4;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 3)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "sum" (func $sum))
  (export "find" (func $find))
  (export "grid" (func $grid))
  (export "spin" (func $spin))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (func $sum (;1;) (type 0) (param $n i32) (result i32)
    (local $i i32) (local $s i32) (local i64 i32 i32)
    loop $l
      local.get $s
      local.get $i
      i32.add
      local.set $s
      local.get $i
      i32.const 1
      i32.add
      local.set $i
      local.get $i
      local.get $n
      i32.lt_u
      local.tee 4
      if ;; label = @2
        global.get 0
        local.get 3
        i64.const 1
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
  (func $find (;2;) (type 1) (param $n i32) (param $x i32) (result i32)
    (local $i i32) (local i64 i32 i32)
    block $found
      loop $l
        local.get $i
        local.get $i
        i32.mul
        local.get $x
        i32.eq
        br_if $found
        local.get $i
        i32.const 1
        i32.add
        local.set $i
        local.get $i
        local.get $n
        i32.lt_u
        local.tee 4
        if ;; label = @3
          global.get 0
          local.get 3
          i64.const 8
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
          if ;; label = @4
            i32.const 0
            local.get 5
            call 0
            i32.const 0
            global.set 0
          end
          i64.const 3
          local.set 3
        end
        local.get 4
        br_if $l
      end
      i32.const -1
      global.get 0
      local.get 3
      i64.const 7
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
      if ;; label = @2
        i32.const 0
        local.get 5
        call 0
        i32.const 0
        global.set 0
      end
      return
    end
    local.get $i
    global.get 0
    local.get 3
    i64.const 6
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
  (func $grid (;3;) (type 0) (param $n i32) (result i32)
    (local $i i32) (local $j i32) (local $c i32) (local i64 i32 i32)
    loop $outer
      i32.const 0
      local.set $j
      loop $inner
        local.get $i
        local.get $j
        i32.and
        if ;; label = @3
          local.get $c
          i32.const 1
          i32.add
          local.set $c
        else
          local.get 4
          i64.const 3
          i64.add
          local.set 4
        end
        local.get $j
        i32.const 1
        i32.add
        local.set $j
        local.get $j
        local.get $n
        i32.lt_u
        local.tee 5
        if ;; label = @3
          global.get 0
          local.get 4
          i64.const 14
          i64.add
          i64.store32
          global.get 0
          i32.const 4
          i32.add
          local.tee 6
          global.set 0
          local.get 6
          i32.const 1048576
          i32.ge_u
          if ;; label = @4
            i32.const 0
            local.get 6
            call 0
            i32.const 0
            global.set 0
          end
          i64.const 6
          local.set 4
        end
        local.get 5
        br_if $inner
      end
      local.get $i
      i32.const 1
      i32.add
      local.set $i
      local.get $i
      local.get $n
      i32.lt_u
      local.tee 5
      if ;; label = @2
        global.get 0
        local.get 4
        i64.const 13
        i64.add
        i64.store32
        global.get 0
        i32.const 4
        i32.add
        local.tee 6
        global.set 0
        local.get 6
        i32.const 1048576
        i32.ge_u
        if ;; label = @3
          i32.const 0
          local.get 6
          call 0
          i32.const 0
          global.set 0
        end
        i64.const 0
        local.set 4
      end
      local.get 5
      br_if $outer
    end
    local.get $c
    global.get 0
    local.get 4
    i64.const 12
    i64.add
    i64.store32
    global.get 0
    i32.const 4
    i32.add
    local.tee 6
    global.set 0
    local.get 6
    i32.const 1048576
    i32.ge_u
    if ;; label = @1
      i32.const 0
      local.get 6
      call 0
      i32.const 0
      global.set 0
    end
  )
  (func $spin (;4;) (type 2) (param $n i32)
    (local i64 i32 i32)
    block $done
      loop $l
        local.get $n
        i32.eqz
        br_if $done
        local.get $n
        i32.const 1
        i32.sub
        local.set $n
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
        if ;; label = @3
          i32.const 0
          local.get 3
          call 0
          i32.const 0
          global.set 0
        end
        i64.const 2
        local.set 1
        br $l
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

