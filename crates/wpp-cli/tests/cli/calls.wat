;; Calls: recursion (fib, whose invocations take one of two traces), indirect calls
;; through a table, and a tail call that recurses (countdown): the timestamped whole
;; program path split into one trace per invocation, with callers, and single invocations
;; looked up by number.
;;
;; RUN: record -o %t.wpp %s
;; RUN: twpp build %t.wpp -o %t.twpp
;; RUN: twpp build %t.wpp
;; RUN: twpp stats %t.twpp
;; RUN: stats %t.twpp
;; RUN: paths %t.twpp --func fib
;; RUN: trace %t.twpp --func fib
;; RUN: trace %t.twpp --func fib --call 2
;; RUN: trace %t.twpp --func countdown --top 1
;; RUN: trace %t.twpp --func 0 --call 1
;; RUN: export %t.wpp --speedscope %t.speedscope.json --timeline-marks 6
(module
  (memory (export "memory") 1)
  (type $un (func (param i32) (result i32)))
  (table 3 funcref)
  (elem (i32.const 0) $fib $double $countdown)
  (func $fib (type $un)
    (if (result i32) (i32.lt_u (local.get 0) (i32.const 2))
      (then (local.get 0))
      (else (i32.add (call $fib (i32.sub (local.get 0) (i32.const 1)))
                     (call $fib (i32.sub (local.get 0) (i32.const 2)))))))
  (func $double (type $un) (i32.shl (local.get 0) (i32.const 1)))
  (func $countdown (type $un)
    (if (i32.eqz (local.get 0)) (then (return (i32.const 42))))
    (return_call $countdown (i32.sub (local.get 0) (i32.const 1))))
  (func $main (export "_start")
    (local $i i32) (local $acc i32)
    (loop $l
      (local.set $acc (i32.add (local.get $acc)
        (call_indirect (type $un) (local.get $i) (i32.rem_u (local.get $i) (i32.const 3)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 9))))
    (i32.store (i32.const 100) (local.get $acc))))
