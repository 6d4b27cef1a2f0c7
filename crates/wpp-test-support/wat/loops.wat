;; Nested loops with break and continue (br_if to loop and block labels), an if/else
;; in the inner body, and a call inside the loop. Prints a checksum.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func $mix (param $x i32) (result i32)
    (local $i i32)
    (loop $l
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 31)) (i32.const 7)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 3))))
    (local.get $x))
  (func $main (result i32)
    (local $i i32) (local $j i32) (local $acc i32)
    (block $done
      (loop $outer
        (local.set $j (i32.const 0))
        (block $inner_done
          (loop $inner
            (br_if $inner_done (i32.ge_u (local.get $j) (local.get $i)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (if (i32.and (local.get $j) (i32.const 1))
              (then (local.set $acc (i32.add (local.get $acc) (local.get $j))))
              (else (local.set $acc (call $mix (local.get $acc)))))
            (br_if $inner (i32.eqz (i32.rem_u (local.get $j) (i32.const 5))))
            (local.set $acc (i32.xor (local.get $acc) (i32.const 0x55)))
            (br $inner)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $done (i32.gt_u (local.get $i) (i32.const 40)))
        (br $outer)))
    (local.get $acc))
  (func (export "_start")
    (i32.store (i32.const 100) (call $main))
    (i32.store (i32.const 0) (i32.const 100))
    (i32.store (i32.const 4) (i32.const 4))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
