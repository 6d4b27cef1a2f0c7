;; An integer division by zero in the middle of a block, three calls deep, after a few
;; hundred loop iterations: the guest traps; every path completed before is kept.
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
