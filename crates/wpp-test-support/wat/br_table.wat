;; A switch in a loop: br_table whose targets include the loop (continue, a back edge),
;; the enclosing blocks, and the function label (return); several entries share targets.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $acc (mut i32) (i32.const 0))
  (func $step (param $n i32)
    (local $i i32)
    (loop $top
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (block $c3
        (block $c2
          (block $c1
            (block $c0
              (br_table $c0 $c1 $top $c2 $c1 $c3 0 5 4 (i32.rem_u (i32.mul (local.get $i) (local.get $n)) (i32.const 9))))
            (global.set $acc (i32.add (global.get $acc) (i32.const 1)))
            (br_if $top (i32.lt_u (local.get $i) (i32.const 80)))
            (return))
          (global.set $acc (i32.mul (global.get $acc) (i32.const 3)))
          (br_if $top (i32.lt_u (local.get $i) (i32.const 50))))
        (global.set $acc (i32.xor (global.get $acc) (local.get $i)))
        (br_if $top (i32.lt_u (local.get $i) (i32.const 60))))
      (global.set $acc (i32.sub (global.get $acc) (i32.const 7)))
      (br_if $top (i32.lt_u (local.get $i) (i32.const 70)))))
  (func (export "_start")
    (local $n i32)
    (loop $l
      (call $step (local.get $n))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $n) (i32.const 30))))
    (i32.store (i32.const 100) (global.get $acc))
    (i32.store (i32.const 0) (i32.const 100))
    (i32.store (i32.const 4) (i32.const 4))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
