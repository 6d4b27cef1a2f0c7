;; A loop of 120 iterations whose body goes one of four ways by the iteration number (an
;; if with a branch out of a block, a br_if, an if/else), calling a leaf function with a
;; branch of its own on some of them: a dozen distinct paths with uneven counts, for the
;; path list, the hot subpaths (also with the report's defaults, and a least cost given as a
;; share of the run) and the queries to rank; the function table, and `annotate`
;; of a module without DWARF (its blocks by byte offset; a file name is refused). Prints
;; `ok` (not when its profile cannot be written: that is refused before it runs).
;;
;; RUN: record -o . %s
;; RUN: record -o %t.wpp %s
;; RUN: paths %t.wpp
;; RUN: paths %t.wpp --top 3
;; RUN: paths %t.wpp --func leaf
;; RUN: paths %t.wpp --func 2 --top 0
;; RUN: stats %t.wpp
;; RUN: hot %t.wpp --max-len 3 --min-cost 100
;; RUN: hot %t.wpp --max-len 4 --min-len 2 --min-cost 20 --cost paths --top 4
;; RUN: hot %t.wpp --top 3
;; RUN: hot %t.wpp --min-cost 10% --cost paths --top 2
;; RUN: hot %t.wpp --min-cost 10x
;; RUN: hot %t.wpp --min-len 0
;; RUN: query %t.wpp freq main:5 leaf:1
;; RUN: query %t.wpp before leaf:1 leaf:0
;; RUN: query %t.wpp context leaf:1 --k 2 --top 4
;; RUN: functions %t.wpp
;; RUN: annotate %t.wpp
;; RUN: annotate %t.wpp --func leaf
;; RUN: annotate %t.wpp branchy.c
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "ok\n")
  (global $acc (mut i32) (i32.const 0))
  ;; Adds odd arguments, subtracts one for even ones.
  (func $leaf (param $x i32)
    (if (i32.and (local.get $x) (i32.const 1))
      (then (global.set $acc (i32.add (global.get $acc) (local.get $x))))
      (else (global.set $acc (i32.sub (global.get $acc) (i32.const 1))))))
  (func $main
    (local $i i32)
    (loop $l
      (block $next
        (if (i32.eqz (i32.rem_u (local.get $i) (i32.const 3)))
          (then (call $leaf (local.get $i)) (br $next)))
        (br_if $next (i32.eqz (i32.rem_u (local.get $i) (i32.const 7))))
        (if (i32.lt_u (local.get $i) (i32.const 40))
          (then (global.set $acc (i32.mul (global.get $acc) (i32.const 3))))
          (else (call $leaf (i32.shr_u (local.get $i) (i32.const 1))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 120)))))
  (func (export "_start")
    (call $main)
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 3))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
