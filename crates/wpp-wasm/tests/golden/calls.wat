;; Calls and returns: a call ends a path (its edge goes to the block after the call), calls
;; to an import, direct and recursive calls, `call_indirect`, an early `return` from inside
;; nested blocks, and a tail call (`return_call`), which leaves the function.
(module
  (import "env" "log" (func $log (param i32)))
  (type $un (func (param i32) (result i32)))
  (table 2 funcref)
  (elem (i32.const 0) $double $fact)
  (func $double (type $un)
    (i32.mul (local.get 0) (i32.const 2)))
  (func $fact (type $un)
    (if (result i32) (i32.le_s (local.get 0) (i32.const 1))
      (then (i32.const 1))
      (else (i32.mul (local.get 0) (call $fact (i32.sub (local.get 0) (i32.const 1)))))))
  (func $early (export "early") (param $x i32) (result i32)
    (block $b
      (br_if $b (i32.eqz (local.get $x)))
      (if (i32.gt_s (local.get $x) (i32.const 10))
        (then (return (i32.const 10))))
      (call $log (local.get $x)))
    (call $log (i32.const 0))
    (call_indirect (type $un) (local.get $x) (i32.and (local.get $x) (i32.const 1))))
  (func $tail (export "tail") (param $x i32) (result i32)
    (call $log (local.get $x))
    (return_call $double (local.get $x))))
