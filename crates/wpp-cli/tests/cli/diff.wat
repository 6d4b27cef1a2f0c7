;; Comparing two runs of one module (`wpp diff`): the loop of ppp.wat, whose paths depend
;; on the number of arguments, run without arguments (A) and with one (B), in which one path
;; runs only in B and others run less; the comparison as text and shortened, a run of a
;; merged profile against a profile, and what cannot be compared (another module's profile
;; stands in as a file that is not a profile).
;;
;; RUN: record --mode paths -o %t.a.wpp %s
;; RUN: record -o %t.b.wpp %s deployed
;; RUN: diff %t.a.wpp %t.b.wpp
;; RUN: diff %t.b.wpp %t.a.wpp --top 2
;; RUN: merge %t.a.wpp %t.b.wpp -o %t.ab.wpp
;; RUN: diff %t.ab.wpp %t.a.wpp --run-a 2
;; RUN: diff %t.a.wpp %s
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
