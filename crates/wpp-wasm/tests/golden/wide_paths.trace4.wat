;; mode Trace, max_paths none, force_hash false, interesting paths false
;; memory 1114112 bytes, event buffer 1048576 bytes, hash table 0 entries at 0x0
;; 4-byte event ids (function:base): none
(module
  (type (;0;) (func (param i64) (result i32)))
  (type (;1;) (func (param i32 i32)))
  (type (;2;) (func (param i32 i64)))
  (import "wpp" "flush" (func (;0;) (type 1)))
  (memory (;0;) 17 17)
  (global (;0;) (mut i32) i32.const 0)
  (global (;1;) (mut i32) i32.const 0)
  (export "bits" (func $bits))
  (export "__wpp_memory" (memory 0))
  (export "__wpp_event_ptr" (global 0))
  (export "__wpp_hash_used" (global 1))
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
    global.get 0
    i32.const -2147483648
    i32.store
    global.get 0
    local.get 2
    i64.store offset=4 align=4
    global.get 0
    i32.const 12
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
)

