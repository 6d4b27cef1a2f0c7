;; proc_exit(3) from two calls deep inside a loop: wpp exits with the program's status,
;; and the profile keeps the paths recorded up to the exit. Also the program's arguments:
;; everything after the program is its own, even what looks like an option of wpp's (a
;; `--` right after the program is dropped), and here the number of arguments sets where
;; the loop starts.
;;
;; RUN: record -o %t.wpp %s
;; RUN: stats %t.wpp
;; RUN: paths %t.wpp --top 4
;; RUN: record --mode paths -o %t.args.wpp %s -- --top 1 -- x
;; RUN: paths %t.args.wpp --func work
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func $maybe_exit (param $i i32)
    (if (i32.eq (local.get $i) (i32.const 17)) (then (call $exit (i32.const 3)))))
  (func $work (param $i i32)
    (if (i32.and (local.get $i) (i32.const 1))
      (then (call $maybe_exit (local.get $i)))
      (else (call $maybe_exit (i32.add (local.get $i) (i32.const 2))))))
  ;; Counts from the number of arguments (the program's name is one) up to the exit at 17.
  (func (export "_start")
    (local $i i32)
    (drop (call $args_sizes_get (i32.const 0) (i32.const 4)))
    (local.set $i (i32.load (i32.const 0)))
    (loop $l
      (call $work (local.get $i))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l))))
