;; Reference types: an externref table and global, ref.is_null deciding a branch,
;; table.grow and a funcref table driving call_indirect.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (table $ext 4 externref)
  (table $fns 2 funcref)
  (elem (table $fns) (i32.const 0) func $inc $dec)
  (global $g (mut externref) (ref.null extern))
  (func $inc (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
  (func $dec (param i32) (result i32) (i32.sub (local.get 0) (i32.const 1)))
  (func (export "_start")
    (local $i i32) (local $acc i32)
    (drop (table.grow $ext (global.get $g) (i32.const 3)))
    (loop $l
      (if (ref.is_null (table.get $ext (i32.rem_u (local.get $i) (i32.const 7))))
        (then (local.set $acc (call_indirect $fns (param i32) (result i32) (local.get $acc) (i32.const 0))))
        (else (local.set $acc (call_indirect $fns (param i32) (result i32) (local.get $acc) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 50))))
    (i32.store (i32.const 100) (i32.add (local.get $acc) (table.size $ext)))
    (i32.store (i32.const 0) (i32.const 100))
    (i32.store (i32.const 4) (i32.const 4))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
