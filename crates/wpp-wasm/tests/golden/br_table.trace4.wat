;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): 0:0, 1:3, 2:6, 3:9
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32)))
  (type (;2;) (func (param i32) (result f64)))
  (type (;3;) (func (param i32 i32)))
  (type (;4;) (func (param i32 i64)))
  (type (;5;) (func (param i32) (result i32)))
  (type (;6;) (func (param i64) (result i64)))
  (type (;7;) (func (param f64) (result f64)))
  (import "wpp" "flush" (func (;0;) (type 3)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "switch" (func $switch))
  (export "state" (func $state))
  (export "pick" (func $pick))
  (export "mixed" (func $mixed))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (func $switch (;1;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    block $c2
      block $c1
        block $c0
          local.get $x
          br_table $c0 $c1 $c0 $c2 $c1
        end
        i32.const 10
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
        if ;; label = @3
          i32.const 0
          local.get 3
          call 0
          i32.const 0
          global.set 0
        end
        return
      end
      i32.const 20
      global.get 0
      local.get 1
      i64.const 1
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
      return
    end
    i32.const 30
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
  (func $state (;2;) (type 1) (param $n i32)
    (local $s i32) (local i64 i32 i32)
    loop $top
      local.get $n
      i32.eqz
      local.tee 3
      if $b
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
        if ;; label = @3
          i32.const 0
          local.get 4
          call 0
          i32.const 0
          global.set 0
        end
      end
      local.get 3
      br_if 1
      local.get $n
      i32.const 1
      i32.sub
      local.set $n
      block ;; label = @2
        local.get $n
        i32.const 4
        i32.rem_u
        local.set 3
        block ;; label = @3
          block ;; label = @4
            block ;; label = @5
              local.get 3
              br_table 0 (;@5;) 1 (;@4;) 0 (;@5;) 2 (;@3;)
            end
            global.get 0
            local.get 2
            i64.const 4
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
            if ;; label = @5
              i32.const 0
              local.get 4
              call 0
              i32.const 0
              global.set 0
            end
            i64.const 0
            local.set 2
            br $top
          end
          br 1 (;@2;)
        end
        global.get 0
        local.get 2
        i64.const 4
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
        if ;; label = @3
          i32.const 0
          local.get 4
          call 0
          i32.const 0
          global.set 0
        end
        br 2
      end
      local.get $s
      i32.const 3
      i32.add
      local.set $s
      global.get 0
      local.get 2
      i64.const 3
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
      br $top
    end
  )
  (func $pick (;3;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    block $b2 (result i32)
      block $b1 (result i32)
        block $b0 (result i32)
          i32.const 7
          local.get $x
          local.set 2
          block (type 5) (param i32) (result i32) ;; label = @4
            block (type 5) (param i32) (result i32) ;; label = @5
              block (type 5) (param i32) (result i32) ;; label = @6
                local.get 2
                br_table 0 (;@6;) 1 (;@5;) 2 (;@4;) 1 (;@5;)
              end
              br $b0
            end
            local.get 1
            i64.const 1
            i64.add
            local.set 1
            br $b1
          end
          local.get 1
          i64.const 2
          i64.add
          local.set 1
          br $b2
        end
        i32.const 1
        i32.add
      end
      i32.const 2
      i32.mul
    end
    global.get 0
    local.get 1
    i64.const 6
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
  (func $mixed (;4;) (type 2) (param $x i32) (result f64)
    (local i64 i32 i32)
    block $l (result i64)
      block $k (result i64)
        i64.const 1
        local.get $x
        local.set 2
        block $n (type 6) (param i64) (result i64)
          block $m (type 6) (param i64) (result i64)
            local.get 2
            br_table $m $n
          end
          br $k
        end
        local.get 1
        i64.const 2
        i64.add
        local.set 1
        br $l
      end
      i64.const 2
      i64.add
    end
    f64.convert_i64_s
    block (result f64) ;; label = @1
      block (result f64) ;; label = @2
        f64.const 0x1.8p+0 (;=1.5;)
        local.get $x
        local.set 2
        block (type 7) (param f64) (result f64) ;; label = @3
          block (type 7) (param f64) (result f64) ;; label = @4
            local.get 2
            br_table 0 (;@4;) 1 (;@3;)
          end
          br 1 (;@2;)
        end
        local.get 1
        i64.const 1
        i64.add
        local.set 1
        br 1 (;@1;)
      end
      f64.const 0x1p-1 (;=0.5;)
      f64.mul
    end
    f64.add
    global.get 0
    local.get 1
    i64.const 9
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

