;; Traps and dead code: `unreachable` ends a path with a trap edge, in an `if` arm and as a
;; whole function body; code after `br`, `return` and `unreachable` forms blocks that can
;; never run, so their edges are dead.
(module
  (func $check (export "check") (param $x i32) (result i32)
    (if (i32.lt_s (local.get $x) (i32.const 0))
      (then (unreachable)))
    (i32.div_s (i32.const 100) (local.get $x)))
  (func $dead (export "dead") (param $x i32) (result i32)
    (block $b
      (br $b)
      (local.set $x (i32.const 1)))
    (return (local.get $x))
    (i32.const 5))
  (func $abort (export "abort")
    (unreachable)
    (drop (i32.const 1))))
