;; mode Count, max_paths none, force_hash false, interesting paths true
;; memory 2162688 bytes, event buffer 0 bytes, hash table 65536 entries at 0x100
;; counters of 0 sum: array at 0x0 (2 paths)
;; counters of 1 find: 4 PPP slots at 0x10 (6 paths)
;; counters of 2 grid: 8 PPP slots at 0x50 (12 paths)
;; counters of 3 spin: 2 PPP slots at 0xd0 (4 paths)
;; PPP ids of 0 sum (path:id): 0:0
;; PPP ids of 1 find (path:id): 0:0, 2:1, 4:2
;; PPP ids of 2 grid (path:id): 0:0, 2:1, 4:2, 6:3, 8:4, 10:5
;; PPP ids of 3 spin (path:id): 0:0, 2:1
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func (param i32)))
  (type (;3;) (func (param i32 i32)))
  (type (;4;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 3)))
  (memory (;0;) 33 33)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "sum" (func $sum))
  (export "find" (func $find))
  (export "grid" (func $grid))
  (export "spin" (func $spin))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
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
        i64.load
        i64.const 1
        i64.add
        i64.store
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
    i64.load
    i64.const 1
    i64.add
    i64.store
  )
  (func $find (;2;) (type 1) (param $n i32) (param $x i32) (result i32)
    (local $i i32) (local i64 i32 i32 i64)
    block $found
      loop $l
        local.get $i
        local.get $i
        i32.mul
        local.get $x
        i32.eq
        br_if $found
        local.get 6
        i64.const 1
        i64.add
        local.set 6
        local.get $i
        i32.const 1
        i32.add
        local.set $i
        local.get $i
        local.get $n
        i32.lt_u
        local.tee 4
        if ;; label = @3
          local.get 6
          i32.wrap_i64
          i32.const 3
          i32.and
          i32.const 4
          i32.shl
          i32.const 0
          i32.load 1
          i32.add
          local.tee 5
          i64.load offset=16
          local.get 3
          i64.const 2
          i64.add
          i64.eq
          if ;; label = @4
            local.get 5
            local.get 5
            i64.load offset=24
            i64.const 1
            i64.add
            i64.store offset=24
          else
            i32.const 1
            local.get 3
            i64.const 2
            i64.add
            call 5
          end
          i64.const 3
          local.set 3
          i64.const 1
          local.set 6
        end
        local.get 4
        br_if $l
      end
      i32.const -1
      local.get 6
      i32.wrap_i64
      i32.const 3
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 5
      i64.load offset=16
      local.get 3
      i64.const 1
      i64.add
      i64.eq
      if ;; label = @2
        local.get 5
        local.get 5
        i64.load offset=24
        i64.const 1
        i64.add
        i64.store offset=24
      else
        i32.const 1
        local.get 3
        i64.const 1
        i64.add
        call 5
      end
      return
    end
    local.get $i
    local.get 6
    i32.wrap_i64
    i32.const 3
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    i64.load offset=16
    local.get 3
    i64.eq
    if ;; label = @1
      local.get 5
      local.get 5
      i64.load offset=24
      i64.const 1
      i64.add
      i64.store offset=24
    else
      i32.const 1
      local.get 3
      call 5
    end
  )
  (func $grid (;3;) (type 0) (param $n i32) (result i32)
    (local $i i32) (local $j i32) (local $c i32) (local i64 i32 i32 i64)
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
          local.get 7
          i64.const 2
          i64.add
          local.set 7
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
          local.get 7
          i32.wrap_i64
          i32.const 1
          i32.add
          i32.const 7
          i32.and
          i32.const 4
          i32.shl
          i32.const 0
          i32.load 1
          i32.add
          local.tee 6
          i64.load offset=80
          local.get 4
          i64.const 2
          i64.add
          i64.eq
          if ;; label = @4
            local.get 6
            local.get 6
            i64.load offset=88
            i64.const 1
            i64.add
            i64.store offset=88
          else
            i32.const 2
            local.get 4
            i64.const 2
            i64.add
            call 5
          end
          i64.const 6
          local.set 4
          i64.const 3
          local.set 7
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
        local.get 7
        i32.wrap_i64
        i32.const 7
        i32.and
        i32.const 4
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 6
        i64.load offset=80
        local.get 4
        i64.const 1
        i64.add
        i64.eq
        if ;; label = @3
          local.get 6
          local.get 6
          i64.load offset=88
          i64.const 1
          i64.add
          i64.store offset=88
        else
          i32.const 2
          local.get 4
          i64.const 1
          i64.add
          call 5
        end
        i64.const 0
        local.set 4
        i64.const 0
        local.set 7
      end
      local.get 5
      br_if $outer
    end
    local.get $c
    local.get 7
    i32.wrap_i64
    i32.const 7
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 6
    i64.load offset=80
    local.get 4
    i64.eq
    if ;; label = @1
      local.get 6
      local.get 6
      i64.load offset=88
      i64.const 1
      i64.add
      i64.store offset=88
    else
      i32.const 2
      local.get 4
      call 5
    end
  )
  (func $spin (;4;) (type 2) (param $n i32)
    (local i64 i32 i32 i64)
    block $done
      loop $l
        local.get $n
        i32.eqz
        br_if $done
        local.get $n
        i32.const 1
        i32.sub
        local.set $n
        local.get 4
        i32.wrap_i64
        i32.const 1
        i32.and
        i32.const 4
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 3
        i64.load offset=208
        local.get 1
        i64.const 1
        i64.add
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=216
          i64.const 1
          i64.add
          i64.store offset=216
        else
          i32.const 3
          local.get 1
          i64.const 1
          i64.add
          call 5
        end
        i64.const 2
        local.set 1
        i64.const 1
        local.set 4
        br $l
      end
    end
    local.get 4
    i32.wrap_i64
    i32.const 1
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 3
    i64.load offset=208
    local.get 1
    i64.eq
    if ;; label = @1
      local.get 3
      local.get 3
      i64.load offset=216
      i64.const 1
      i64.add
      i64.store offset=216
    else
      i32.const 3
      local.get 1
      call 5
    end
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
      i64.load offset=264
      local.get 4
      i64.eq
      if ;; label = @2
        local.get 3
        i64.load offset=256
        local.get 1
        i64.eq
        if ;; label = @3
          local.get 3
          local.get 3
          i64.load offset=272
          i64.const 1
          i64.add
          i64.store offset=272
          return
        end
      else
        local.get 3
        i64.load offset=264
        i64.eqz
        if ;; label = @3
          local.get 3
          local.get 1
          i64.store offset=256
          local.get 3
          local.get 4
          i64.store offset=264
          local.get 3
          i64.const 1
          i64.store offset=272
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
  (data (;0;) (i32.const 16) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\ff\ff\ff\ff\ff\ff\ff\ff\00\00\00\00\00\00\00\00")
  (data (;1;) (i32.const 80) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\06\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0a\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\ff\ff\ff\ff\ff\ff\ff\ff\00\00\00\00\00\00\00\00\ff\ff\ff\ff\ff\ff\ff\ff\00\00\00\00\00\00\00\00")
  (data (;2;) (i32.const 208) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
)

