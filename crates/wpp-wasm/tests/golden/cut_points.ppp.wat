;; mode Count, max_paths 16, force_hash false, interesting paths true
;; memory 2162688 bytes, event buffer 0 bytes, hash table 65536 entries at 0x100
;; counters of 0 chain: 8 PPP slots at 0x0 (13 paths)
;; counters of 1 looped: 8 PPP slots at 0x80 (16 paths)
;; PPP ids of 0 chain (path:id): 0:0, 2:1, 4:2, 6:3, 8:4, 10:5, 12:6
;; PPP ids of 1 looped (path:id): 0:0, 2:1, 4:2, 6:3, 8:4, 10:5, 12:6, 14:7
(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func (param i32 i32)))
  (type (;3;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 2)))
  (memory (;0;) 33 33)
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
    (local $s i32) (local i64 i32 i32 i64)
    local.get $x
    i32.const 1
    i32.and
    if ;; label = @1
      local.get 5
      i32.wrap_i64
      i32.const 7
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 4
      i64.load
      local.get 2
      i64.eq
      if ;; label = @2
        local.get 4
        local.get 4
        i64.load offset=8
        i64.const 1
        i64.add
        i64.store offset=8
      else
        i32.const 0
        local.get 2
        call 3
      end
      i64.const 0
      local.set 2
      i64.const 1
      local.set 5
      local.get $s
      i32.const 1
      i32.add
      local.set $s
    else
      local.get 5
      i32.wrap_i64
      i32.const 7
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 4
      i64.load
      local.get 2
      i64.eq
      if ;; label = @2
        local.get 4
        local.get 4
        i64.load offset=8
        i64.const 1
        i64.add
        i64.store offset=8
      else
        i32.const 0
        local.get 2
        call 3
      end
      i64.const 2
      local.set 2
      i64.const 2
      local.set 5
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
      local.get 5
      i32.wrap_i64
      i32.const 7
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 4
      i64.load
      local.get 2
      i64.const 1
      i64.add
      i64.eq
      if ;; label = @2
        local.get 4
        local.get 4
        i64.load offset=8
        i64.const 1
        i64.add
        i64.store offset=8
      else
        i32.const 0
        local.get 2
        i64.const 1
        i64.add
        call 3
      end
      i64.const 0
      local.set 2
      i64.const 3
      local.set 5
      local.get $s
      i32.const 4
      i32.add
      local.set $s
    else
      local.get 5
      i32.wrap_i64
      i32.const 7
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 4
      i64.load
      local.get 2
      i64.const 1
      i64.add
      i64.eq
      if ;; label = @2
        local.get 4
        local.get 4
        i64.load offset=8
        i64.const 1
        i64.add
        i64.store offset=8
      else
        i32.const 0
        local.get 2
        i64.const 1
        i64.add
        call 3
      end
      i64.const 2
      local.set 2
      i64.const 4
      local.set 5
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
      local.get 5
      i32.wrap_i64
      i32.const 7
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 4
      i64.load
      local.get 2
      i64.const 5
      i64.add
      i64.eq
      if ;; label = @2
        local.get 4
        local.get 4
        i64.load offset=8
        i64.const 1
        i64.add
        i64.store offset=8
      else
        i32.const 0
        local.get 2
        i64.const 5
        i64.add
        call 3
      end
      i64.const 0
      local.set 2
      i64.const 5
      local.set 5
      local.get $s
      i32.const 16
      i32.add
      local.set $s
    else
      local.get 5
      i32.wrap_i64
      i32.const 7
      i32.and
      i32.const 4
      i32.shl
      i32.const 0
      i32.load 1
      i32.add
      local.tee 4
      i64.load
      local.get 2
      i64.const 5
      i64.add
      i64.eq
      if ;; label = @2
        local.get 4
        local.get 4
        i64.load offset=8
        i64.const 1
        i64.add
        i64.store offset=8
      else
        i32.const 0
        local.get 2
        i64.const 5
        i64.add
        call 3
      end
      i64.const 2
      local.set 2
      i64.const 6
      local.set 5
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
    local.get 5
    i32.wrap_i64
    i32.const 7
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 4
    i64.load
    local.get 2
    i64.const 9
    i64.add
    i64.eq
    if ;; label = @1
      local.get 4
      local.get 4
      i64.load offset=8
      i64.const 1
      i64.add
      i64.store offset=8
    else
      i32.const 0
      local.get 2
      i64.const 9
      i64.add
      call 3
    end
  )
  (func $looped (;2;) (type 1) (param $x i32) (param $n i32) (result i32)
    (local $s i32) (local i64 i32 i32 i64)
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
        local.get 6
        i64.const 4
        i64.add
        local.set 6
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
        local.get 6
        i64.const 2
        i64.add
        local.set 6
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
        local.get 6
        i64.const 1
        i64.add
        local.set 6
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
        local.get 6
        i32.wrap_i64
        i32.const 7
        i32.and
        i32.const 4
        i32.shl
        i32.const 0
        i32.load 1
        i32.add
        local.tee 5
        i64.load offset=128
        local.get 3
        i64.const 1
        i64.add
        i64.eq
        if ;; label = @3
          local.get 5
          local.get 5
          i64.load offset=136
          i64.const 1
          i64.add
          i64.store offset=136
        else
          i32.const 1
          local.get 3
          i64.const 1
          i64.add
          call 3
        end
        i64.const 0
        local.set 3
        i64.const 0
        local.set 6
      end
      local.get 4
      br_if $l
    end
    local.get $s
    local.get 6
    i32.wrap_i64
    i32.const 7
    i32.and
    i32.const 4
    i32.shl
    i32.const 0
    i32.load 1
    i32.add
    local.tee 5
    i64.load offset=128
    local.get 3
    i64.eq
    if ;; label = @1
      local.get 5
      local.get 5
      i64.load offset=136
      i64.const 1
      i64.add
      i64.store offset=136
    else
      i32.const 1
      local.get 3
      call 3
    end
  )
  (func (;3;) (type 3) (param i32 i64)
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
  (data (;0;) (i32.const 0) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\06\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0a\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0c\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\ff\ff\ff\ff\ff\ff\ff\ff\00\00\00\00\00\00\00\00")
  (data (;1;) (i32.const 128) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\06\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0a\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0c\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\0e\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
)

