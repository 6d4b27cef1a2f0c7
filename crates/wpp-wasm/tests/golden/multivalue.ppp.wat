;; mode Count, max_paths none, force_hash false, interesting paths true
;; memory 2162688 bytes, event buffer 0 bytes, hash table 65536 entries at 0x60
;; counters of 0 swap_if: array at 0x0 (2 paths)
;; counters of 1 divmod: array at 0x10 (2 paths)
;; counters of 2 fold: 2 PPP slots at 0x20 (4 paths)
;; counters of 3 route: array at 0x40 (2 paths)
;; PPP ids of 0 swap_if (path:id): 0:0
;; PPP ids of 1 divmod (path:id): 0:0
;; PPP ids of 2 fold (path:id): 0:0, 2:1
;; PPP ids of 3 route (path:id): 0:0
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
  (memory (;0;) 33 33)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "swap_if" (func $swap_if))
  (export "divmod" (func $divmod))
  (export "fold" (func $fold))
  (export "route" (func $route))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
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
    local.get 3
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    local.get 5
    i64.load
    i64.const 1
    i64.add
    i64.store
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
    local.get 2
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 4
    local.get 4
    i64.load offset=16
    i64.const 1
    i64.add
    i64.store offset=16
  )
  (func $fold (;3;) (type 3) (param $n i32) (result i32)
    (local $k i32) (local $acc i32) (local i64 i32 i32 i64)
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
        local.get 6
        i32.wrap_i64
        i32.const 1
        i32.and
        i32.const 4
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 5
        i64.load offset=32
        local.get 3
        i64.const 1
        i64.add
        i64.eq
        if ;; label = @3
          local.get 5
          local.get 5
          i64.load offset=40
          i64.const 1
          i64.add
          i64.store offset=40
        else
          i32.const 2
          local.get 3
          i64.const 1
          i64.add
          call 5
        end
        i64.const 2
        local.set 3
        i64.const 1
        local.set 6
      end
      local.get 4
      br_if $l
    end
    i32.add
    local.get 6
    i32.wrap_i64
    i32.const 1
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    i64.load offset=32
    local.get 3
    i64.eq
    if ;; label = @1
      local.get 5
      local.get 5
      i64.load offset=40
      i64.const 1
      i64.add
      i64.store offset=40
    else
      i32.const 2
      local.get 3
      call 5
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
    local.get 1
    i32.wrap_i64
    i32.const 3
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    local.get 3
    i64.load offset=64
    i64.const 1
    i64.add
    i64.store offset=64
  )
  (func (;5;) (type 6) (param i32 i64)
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
      i64.load offset=104
      local.get 4
      i64.eq
      if ;; label = @2
        local.get 3
        i64.load offset=96
        local.get 1
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=112
          i64.const 1
          i64.add
          i64.store offset=112
          return
        end
      else
        local.get 3
        i64.load offset=104
        i64.eqz
        if ;; label = @3
          local.get 3
          local.get 1
          i64.store offset=96
          local.get 3
          local.get 4
          i64.store offset=104
          local.get 3
          i64.const 1
          i64.store offset=112
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
  (data (;0;) (i32.const 32) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
)

