;; `if` with and without `else`: a diamond with a result, two `if`s without `else` in a
;; row (the rewrite adds an `else` where the missing arm's edge needs code), and an `if`
;; nested in an `else` arm.
(module
  (func $max (export "max") (param $a i32) (param $b i32) (result i32)
    (if (result i32) (i32.gt_s (local.get $a) (local.get $b))
      (then (local.get $a))
      (else (local.get $b))))
  (func $clamp (export "clamp") (param $x i32) (result i32)
    (if (i32.lt_s (local.get $x) (i32.const 0))
      (then (local.set $x (i32.const 0))))
    (if (i32.gt_s (local.get $x) (i32.const 100))
      (then (local.set $x (i32.const 100))))
    (local.get $x))
  (func $sign (export "sign") (param $x i32) (result i32)
    (if (result i32) (i32.lt_s (local.get $x) (i32.const 0))
      (then (i32.const -1))
      (else
        (if (result i32) (i32.eqz (local.get $x))
          (then (i32.const 0))
          (else (i32.const 1)))))))
