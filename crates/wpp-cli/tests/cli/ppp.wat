;; Preferential path profiling: a loop whose paths depend on the number of arguments. A
;; run without arguments stands for the test suite; the interesting paths are selected
;; from its profile (every executed path, the hottest half, or the list in ppp.input);
;; a run with an argument stands for a deployed run, which takes paths the tests never
;; did: they are residual.
;;
;; RUN: record --mode paths -o %t.tests.wpp %s
;; RUN: paths %t.tests.wpp
;; RUN: ppp select %t.tests.wpp --all-executed -o %t.all.json
;; RUN: ppp select %t.tests.wpp --hot 50 -o %t.hot.json
;; RUN: ppp select %t.tests.wpp --paths ppp.input -o %t.listed.json
;; RUN: record --mode ppp --interesting %t.all.json -o %t.field.wpp %s deployed
;; RUN: ppp report %t.field.wpp
;; RUN: ppp report %t.field.wpp --top 2
;; RUN: paths %t.field.wpp
;; RUN: record --mode ppp --interesting %t.hot.json --ppp-everywhere -o %t.hot.wpp %s deployed
;; RUN: ppp report %t.hot.wpp
(module
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $acc (mut i32) (i32.const 0))
  ;; Three ways by i mod 4, and a fourth only when `wide` is set.
  (func $classify (param $i i32) (param $wide i32)
    (block $done
      (if (i32.and (local.get $wide) (i32.eq (i32.rem_u (local.get $i) (i32.const 6)) (i32.const 5)))
        (then (global.set $acc (i32.sub (global.get $acc) (local.get $i))) (br $done)))
      (if (i32.eqz (i32.rem_u (local.get $i) (i32.const 4)))
        (then (global.set $acc (i32.add (global.get $acc) (i32.const 1))) (br $done)))
      (if (i32.eq (i32.rem_u (local.get $i) (i32.const 4)) (i32.const 1))
        (then (global.set $acc (i32.mul (global.get $acc) (i32.const 3))))
        (else (global.set $acc (i32.xor (global.get $acc) (local.get $i)))))))
  (func $main (export "_start")
    (local $i i32) (local $wide i32)
    (drop (call $args_sizes_get (i32.const 0) (i32.const 4)))
    (local.set $wide (i32.gt_u (i32.load (i32.const 0)) (i32.const 1)))
    (loop $l
      (call $classify (local.get $i) (local.get $wide))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 48))))))
