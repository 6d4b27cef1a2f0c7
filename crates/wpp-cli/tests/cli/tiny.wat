;; Four iterations of a loop calling a function with an if/else: a run of a dozen path
;; events, short enough to pin the whole trace (`expand`, also decoded, from a grammar
;; and from a trace profile) and the whole exported profile (a trace profile's with its
;; trace).
;;
;; RUN: record -o %t.wpp %s
;; RUN: expand %t.wpp
;; RUN: expand %t.wpp --decode
;; RUN: export %t.wpp --json
;; RUN: record --mode trace -o %t.trace.wpp %s
;; RUN: expand %t.trace.wpp --decode
;; RUN: export %t.trace.wpp
;; The text format is a module too, as `wasmtime run` takes it: the same run.
;; RUN: record -o %t.text.wpp tiny.wat
;; RUN: expand %t.text.wpp
(module
  (memory (export "memory") 1)
  (func $pick (param $i i32) (result i32)
    (if (result i32) (i32.and (local.get $i) (i32.const 1))
      (then (i32.mul (local.get $i) (i32.const 3)))
      (else (i32.add (local.get $i) (i32.const 1)))))
  (func (export "_start")
    (local $i i32) (local $acc i32)
    (loop $l
      (local.set $acc (i32.add (local.get $acc) (call $pick (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 4))))
    (i32.store (i32.const 100) (local.get $acc))))
