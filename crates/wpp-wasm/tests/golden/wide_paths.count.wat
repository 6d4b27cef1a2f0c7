;; mode Count, max_paths none, force_hash false, interesting paths false
;; memory 2097152 bytes, event buffer 0 bytes, hash table 65536 entries at 0x0
;; counters of 0 bits: hash table (8589934592 paths)
(module
  (type (;0;) (func (param i64) (result i32)))
  (type (;1;) (func (param i32 i32)))
  (type (;2;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 1)))
  (memory (;0;) 32 32)
  (memory (;1;) 1 1)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "bits" (func $bits))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
  (export "__wpp_stop" (memory 1))
  (func $bits (;1;) (type 0) (param $x i64) (result i32)
    (local $n i32) (local i64 i32 i32)
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 4294967296
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 2147483648
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 1073741824
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 536870912
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 268435456
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 134217728
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 67108864
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 33554432
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 16777216
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 8388608
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 4194304
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 2097152
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 1048576
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 524288
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 262144
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 131072
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 65536
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 32768
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 16384
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 8192
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 4096
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 2048
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 1024
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 512
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 256
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 128
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 64
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 32
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 16
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 8
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 4
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 2
      i64.add
      local.set 2
    end
    local.get $x
    i64.const 1
    i64.rotl
    local.set $x
    local.get $x
    i64.const 1
    i64.and
    i32.wrap_i64
    if ;; label = @1
      local.get $n
      i32.const 1
      i32.add
      local.set $n
    else
      local.get 2
      i64.const 1
      i64.add
      local.set 2
    end
    local.get $n
    i32.const 0
    local.get 2
    call 2
  )
  (func (;2;) (type 2) (param i32 i64)
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

