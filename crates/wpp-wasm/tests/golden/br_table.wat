;; `br_table`: a switch whose entries share targets (one dispatch slot per distinct
;; target), one in a loop whose targets include the loop (a back edge), an enclosing block
;; and the function label (a return), one whose labels carry an i32 through the
;; dispatch blocks, and a function with `br_table`s carrying different types (each list of
;; types gets a dispatch block type, in code order).
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
      (i32.mul)))
  (func $mixed (export "mixed") (param $x i32) (result f64)
    (block $l (result i64)
      (block $k (result i64)
        (i64.const 1)
        (local.get $x)
        (br_table $k $l))
      (i64.const 2)
      (i64.add))
    (f64.convert_i64_s)
    (block $n (result f64)
      (block $m (result f64)
        (f64.const 1.5)
        (local.get $x)
        (br_table $m $n))
      (f64.const 0.5)
      (f64.mul))
    (f64.add)))
