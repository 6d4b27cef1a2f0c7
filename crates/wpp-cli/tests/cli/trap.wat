;; An integer division by zero three calls deep, after 300 loop iterations: the guest
;; traps, wpp prints the trap and a backtrace and exits 134, and the profile keeps every
;; path completed before.
;;
;; RUN: record -o %t.wpp %s
;; RUN: stats %t.wpp
;; RUN: paths %t.wpp
(module
  (memory (export "memory") 1)
  (func $div (param $a i32) (param $b i32) (result i32)
    (i32.add (i32.const 1) (i32.div_u (local.get $a) (local.get $b))))
  (func $inner (param $i i32) (result i32)
    (if (result i32) (i32.gt_u (local.get $i) (i32.const 3))
      (then (call $div (i32.const 1000) (i32.sub (i32.const 300) (local.get $i))))
      (else (i32.const 0))))
  (func (export "_start")
    (local $i i32) (local $acc i32)
    (loop $l
      (local.set $acc (i32.add (local.get $acc) (call $inner (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l))))
