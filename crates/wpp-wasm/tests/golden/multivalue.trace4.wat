;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:0, 1:2, 2:6, 3:4
(module
  (type (;0;) (func (param i32 i32 i32) (result i32 i32)))
  (type (;1;) (func (param i32 i32) (result i32 i32)))
  (type (;2;) (func (result i32 i32)))
  (type (;3;) (func (param i32) (result i32)))
  (type (;4;) (func (param i32) (result i32 i32)))
  (type (;5;) (func (param i32 i32)))
  (type (;6;) (func (param i32 i64)))
  (type (;7;) (func (param i32 i32) (result i32 i32)))
  (import "wpp" "flush" (func (;0;) (type 5)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "swap_if" (func $swap_if))
  (export "divmod" (func $divmod))
  (export "fold" (func $fold))
  (export "route" (func $route))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (func $swap_if (;1;) (type 0) (param $a i32) (param $b i32) (param $c i32) (result i32 i32)
    (local i64 i32 i32)
    local.get $a
    local.get $b
    local.get $c
    if (type 1) (param i32 i32) (result i32 i32) ;; label = @1
      local.set $a
      local.set $b
      local.get $a
      local.get $b
    else
      local.get 3
      i64.const 1
      i64.add
      local.set 3
    end
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
  (func $divmod (;2;) (type 1) (param $x i32) (param $y i32) (result i32 i32)
    (local i64 i32 i32)
    block $out (type 2) (result i32 i32)
      i32.const 0
      i32.const 0
      local.get $y
      i32.eqz
      br_if $out
      local.get 2
      i64.const 1
      i64.add
      local.set 2
      drop
      drop
      local.get $x
      local.get $y
      i32.div_u
      local.get $x
      local.get $y
      i32.rem_u
    end
    global.get 0
    local.get 2
    i64.const 2
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
  (func $fold (;3;) (type 3) (param $n i32) (result i32)
    (local $k i32) (local $acc i32) (local i64 i32 i32)
    local.get $n
    i32.const 0
    loop $l (type 1) (param i32 i32) (result i32 i32)
      local.set $acc
      local.set $k
      local.get $k
      i32.const 1
      i32.sub
      local.get $acc
      local.get $k
      i32.add
      local.get $k
      i32.const 1
      i32.gt_u
      local.tee 4
      if ;; label = @2
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
        if ;; label = @3
          i32.const 0
          local.get 5
          call 0
          i32.const 0
          global.set 0
        end
        i64.const 2
        local.set 3
      end
      local.get 4
      br_if $l
    end
    i32.add
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
  (func $route (;4;) (type 4) (param $x i32) (result i32 i32)
    (local i64 i32 i32)
    block $b1 (type 2) (result i32 i32)
      block $b0 (type 2) (result i32 i32)
        local.get $x
        i32.const 1
        local.get $x
        local.set 2
        block (type 7) (param i32 i32) (result i32 i32) ;; label = @3
          block (type 7) (param i32 i32) (result i32 i32) ;; label = @4
            local.get 2
            br_table 0 (;@4;) 1 (;@3;) 0 (;@4;)
          end
          br $b0
        end
        local.get 1
        i64.const 1
        i64.add
        local.set 1
        br $b1
      end
      i32.add
      i32.const 100
    end
    global.get 0
    local.get 1
    i64.const 4
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

