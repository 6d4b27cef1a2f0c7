;; Data flow: Zhang & Gupta's Fig. 9 in a loop of 20 iterations (a load of the constant
;; address 64 every iteration, a store to it where i mod 5 >= 3, a second load of it on
;; the other iterations, which is always redundant), a global set by a callee on odd
;; iterations and read after the call (at 0x87), and a local defined on both arms of an
;; if, and a load that never runs (at 0xb0: the counts answer). For the data flow queries
;; over the TWPP file (the second load is at 0x78; there is no load at 0x5f), the data flow frequencies over the grammar, and the HTML report's
;; messages (its page without drawings: `--dot` names no program). The frequencies show
;; the function's locals first, the most executed blocks first, and with --top 0 every fact.
;; Points and loads in every form: FUNC:0xOFF, bN with --func, FUNC:bN, a function.
;;
;; RUN: record -o %t.wpp %s
;; RUN: twpp build %t.wpp -o %t.twpp
;; RUN: dataflow redundancy %t.twpp --module %s --func main
;; RUN: dataflow redundancy %t.twpp --module %s --load 0x78
;; RUN: dataflow redundancy %t.twpp --module %s --load 0x5f
;; RUN: dataflow redundancy %t.twpp --module %s --load 0x12345678
;; RUN: dataflow reaching %t.twpp --module %s --at 0x87 --global 0
;; RUN: dataflow reaching %t.twpp --module %s --at 0x87 --local 2
;; RUN: dataflow reaching %t.twpp --module %s --at 0x87 --global 99
;; RUN: dataflow reaching %t.twpp --module %s --at main:0x87 --global 0
;; RUN: dataflow reaching %t.twpp --module %s --func main --at b3 --global 0
;; RUN: dataflow redundancy %t.twpp --module %s --load main:0x78
;; RUN: dataflow redundancy %t.twpp --module %s --load main:b2
;; RUN: dataflow redundancy %t.twpp --module %s --load main
;; RUN: dataflow redundancy %t.twpp --module %s --load main:0xb0
;; RUN: dff %t.wpp --module %s --func main
;; RUN: dff %t.wpp --module %s --func main --top 0
;; RUN: dff %t.wpp --module %s --func main --at b3 --problem reaching-definitions
;; RUN: dff %t.wpp --module %s --func main --at main:b3 --problem reaching-definitions
;; RUN: dff %t.wpp --module %s --func main --at main:0x87 --problem reaching-definitions
;; RUN: dff %t.wpp --module %s --func main --problem available-loads
;; RUN: report %t.wpp -o %t.html --dot %t.no-dot
;; RUN: report %t.wpp -o %t.full.html --twpp %t.twpp --dataflow main --module %s --dot %t.no-dot
(module
  (memory (export "memory") 1)
  (global $g (mut i32) (i32.const 7))
  (func $set_odd (param $n i32)
    (if (i32.and (local.get $n) (i32.const 1))
      (then (global.set $g (local.get $n)))))
  (func $main (export "_start")
    (local $i i32) (local $sum i32) (local $k i32)
    (loop $l
      (local.set $sum (i32.add (local.get $sum) (i32.load (i32.const 64))))
      (if (i32.ge_u (i32.rem_u (local.get $i) (i32.const 5)) (i32.const 3))
        (then
          (i32.store (i32.const 64) (local.get $i))
          (local.set $k (i32.const 1)))
        (else
          (local.set $sum (i32.add (local.get $sum) (i32.load (i32.const 64))))
          (local.set $k (i32.const 2))))
      (call $set_odd (local.get $i))
      (local.set $sum (i32.add (local.get $sum) (i32.mul (global.get $g) (local.get $k))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 20))))
    (i32.store (i32.const 100) (local.get $sum))
    ;; a load that never runs (the loop ends with i = 20)
    (if (i32.eqz (local.get $i)) (then (drop (i32.load (i32.const 68)))))))
