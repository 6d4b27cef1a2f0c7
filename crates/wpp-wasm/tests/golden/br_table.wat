;; `br_table`: a switch whose entries share targets (one dispatch slot per distinct
;; target), one in a loop whose targets include the loop (a back edge), an enclosing block
;; and the function label (a return), and one whose labels carry an i32 through the
;; dispatch blocks.
(module
  (func $switch (export "switch") (param $x i32) (result i32)
    (block $c2
      (block $c1
        (block $c0
          (br_table $c0 $c1 $c0 $c2 $c1 (local.get $x)))
        (return (i32.const 10)))
      (return (i32.const 20)))
    (i32.const 30))
  (func $state (export "state") (param $n i32)
    (local $s i32)
    (loop $top
      (br_if 1 (i32.eqz (local.get $n)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (block $b
        (br_table $top $b $top 2 (i32.rem_u (local.get $n) (i32.const 4))))
      (local.set $s (i32.add (local.get $s) (i32.const 3)))
      (br $top)))
  (func $pick (export "pick") (param $x i32) (result i32)
    (block $b2 (result i32)
      (block $b1 (result i32)
        (block $b0 (result i32)
          (i32.const 7)
          (local.get $x)
          (br_table $b0 $b1 $b2 $b1))
        (i32.const 1)
        (i32.add))
      (i32.const 2)
      (i32.mul))))
