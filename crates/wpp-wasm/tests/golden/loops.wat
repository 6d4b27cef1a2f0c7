;; Loops: a counting loop closed by `br_if` (a back edge taken on a condition), a loop left
;; early by a forward `br_if` to an enclosing block, nested loops each closed by `br_if`
;; with an `if` in the inner body, and a loop closed by an unconditional `br`.
(module
  (func $sum (export "sum") (param $n i32) (result i32)
    (local $i i32) (local $s i32)
    (loop $l
      (local.set $s (i32.add (local.get $s) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $s))
  (func $find (export "find") (param $n i32) (param $x i32) (result i32)
    (local $i i32)
    (block $found
      (loop $l
        (br_if $found (i32.eq (i32.mul (local.get $i) (local.get $i)) (local.get $x)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
      (return (i32.const -1)))
    (local.get $i))
  (func $grid (export "grid") (param $n i32) (result i32)
    (local $i i32) (local $j i32) (local $c i32)
    (loop $outer
      (local.set $j (i32.const 0))
      (loop $inner
        (if (i32.and (local.get $i) (local.get $j))
          (then (local.set $c (i32.add (local.get $c) (i32.const 1)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $inner (i32.lt_u (local.get $j) (local.get $n))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $outer (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $c))
  (func $spin (export "spin") (param $n i32)
    (block $done
      (loop $l
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $l)))))
