;; proc_exit(3) from two calls deep inside a loop: the paths recorded up to the exit
;; must all be kept, and the exit status passed through.
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (func $maybe_exit (param $i i32)
    (if (i32.eq (local.get $i) (i32.const 17)) (then (call $exit (i32.const 3)))))
  (func $work (param $i i32)
    (if (i32.and (local.get $i) (i32.const 1))
      (then (call $maybe_exit (local.get $i)))
      (else (call $maybe_exit (i32.add (local.get $i) (i32.const 2))))))
  (func (export "_start")
    (local $i i32)
    (loop $l
      (call $work (local.get $i))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l))))
