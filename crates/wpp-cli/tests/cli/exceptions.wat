;; Exceptions: $inner throws on every third call; $middle lets it pass; the loop in
;; _start catches it and goes on; after 12 iterations an exception no handler catches ends
;; the run. wpp exits 134 with "uncaught exception" and the backtrace, the profile keeps
;; every path completed before, and the paths show where each ended: at the throw, or at
;; the call it came through, and where the next began: in the handler.
;;
;; RUN: record -o %t.wpp %s
;; RUN: stats %t.wpp
;; RUN: paths %t.wpp
(module
  (tag $oops (param i32))
  (func $inner (param $i i32) (result i32)
    (if (i32.eqz (i32.rem_u (local.get $i) (i32.const 3)))
      (then (throw $oops (local.get $i))))
    (i32.mul (local.get $i) (i32.const 2)))
  (func $middle (param $i i32) (result i32)
    (i32.add (call $inner (local.get $i)) (i32.const 1)))
  (func (export "_start")
    (local $i i32) (local $acc i32)
    (loop $l
      (block $next
        (block $caught (result i32)
          (try_table (catch $oops $caught)
            (local.set $acc (i32.add (local.get $acc) (call $middle (local.get $i)))))
          (br $next))
        ;; the handler: the thrown value
        (local.set $acc (i32.add (local.get $acc))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 12))))
    (throw $oops (local.get $acc))))
