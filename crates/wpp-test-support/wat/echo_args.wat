;; Prints its arguments after the program name, one per line, as `echo` would with
;; newlines: a loop over the argument bytes with a branch per byte (a NUL ends an
;; argument). Tests of the command line use it to see what the guest was given.
(module
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  ;; 0: argc, 4: bytes of the argument strings, 16: iovec, 24: bytes written,
  ;; 1024: argv, 65536: the strings.
  (memory (export "memory") 4)
  (func (export "_start")
    (local $i i32) (local $end i32) (local $start i32)
    (drop (call $args_sizes_get (i32.const 0) (i32.const 4)))
    (drop (call $args_get (i32.const 1024) (i32.const 65536)))
    (local.set $end (i32.add (i32.const 65536) (i32.load (i32.const 4))))
    ;; Skip the program name: start after the first NUL.
    (local.set $i (i32.const 65536))
    (block $found
      (loop $skip
        (br_if $found (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $skip (i32.load8_u (i32.sub (local.get $i) (i32.const 1))))))
    (local.set $start (local.get $i))
    ;; Every NUL of the others becomes a newline.
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (if (i32.eqz (i32.load8_u (local.get $i)))
          (then (i32.store8 (local.get $i) (i32.const 10))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (i32.store (i32.const 16) (local.get $start))
    (i32.store (i32.const 20) (i32.sub (local.get $end) (local.get $start)))
    (drop (call $fd_write (i32.const 1) (i32.const 16) (i32.const 1) (i32.const 24)))))
