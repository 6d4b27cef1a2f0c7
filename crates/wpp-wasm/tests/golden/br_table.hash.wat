;; mode Count, max_paths none, force_hash true, interesting paths false
;; memory 2097152 bytes, event buffer 0 bytes, hash table 65536 entries at 0x0
;; counters of 0 switch: hash table (3 paths)
;; counters of 1 state: hash table (3 paths)
;; counters of 2 pick: hash table (3 paths)
;; counters of 3 mixed: hash table (4 paths)
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
  (memory (;0;) 32 32)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "switch" (func $switch))
  (export "state" (func $state))
  (export "pick" (func $pick))
  (export "mixed" (func $mixed))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (func $switch (;1;) (type 0) (param $x i32) (result i32)
    (local i64 i32 i32)
    block $c2
      block $c1
        block $c0
          local.get $x
          br_table $c0 $c1 $c0 $c2 $c1
        end
        i32.const 10
        i32.const 0
        local.get 1
        call 5
        return
      end
      i32.const 20
      i32.const 0
      local.get 1
      i64.const 1
      i64.add
      call 5
      return
    end
    i32.const 30
    i32.const 0
    local.get 1
    i64.const 2
    i64.add
    call 5
  )
  (func $state (;2;) (type 1) (param $n i32)
    (local $s i32) (local i64 i32 i32)
    loop $top
      local.get $n
      i32.eqz
      local.tee 3
      if $b
        i32.const 1
        local.get 2
        i64.const 2
        i64.add
        call 5
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
            i32.const 1
            local.get 2
            i64.const 1
            i64.add
            call 5
            i64.const 0
            local.set 2
            br $top
          end
          br 1 (;@2;)
        end
        i32.const 1
        local.get 2
        i64.const 1
        i64.add
        call 5
        br 2
      end
      local.get $s
      i32.const 3
      i32.add
      local.set $s
      i32.const 1
      local.get 2
      call 5
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
    i32.const 2
    local.get 1
    call 5
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
    i32.const 3
    local.get 1
    call 5
  )
  (func (;5;) (type 4) (param i32 i64)
    (local i32 i32 i64)
    local.get 0
    i64.extend_i32_u
    i64.const 1
    i64.add
    local.set 4
    local.get 1
    local.get 4
    i64.const -7046029254386353131
    i64.mul
    i64.xor
    i64.const -49064778989728563
    i64.mul
    i64.const 48
    i64.shr_u
    i32.wrap_i64
    local.set 2
    loop ;; label = @1
      local.get 2
      i32.const 5
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.set 3
      local.get 3
      i64.load offset=8
      local.get 4
      i64.eq
      if ;; label = @2
        local.get 3
        i64.load
        local.get 1
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=16
          i64.const 1
          i64.add
          i64.store offset=16
          return
        end
      else
        local.get 3
        i64.load offset=8
        i64.eqz
        if ;; label = @3
          local.get 3
          local.get 1
          i64.store
          local.get 3
          local.get 4
          i64.store offset=8
          local.get 3
          i64.const 1
          i64.store offset=16
          global.get 1
          i32.const 1
          i32.add
          local.tee 2
          global.set 1
          local.get 2
          i32.const 32768
          i32.ge_u
          if ;; label = @4
            i32.const 1
            i32.const 0
            call 0
            i32.const 0
            global.set 1
          end
          return
        end
      end
      local.get 2
      i32.const 1
      i32.add
      i32.const 65535
      i32.and
      local.set 2
      br 0 (;@1;)
    end
  )
)

