;; Exception handling (try_table, throw, throw_ref): a throw caught in its own function
;; inside a loop, throws caught several frames up (through a recursive function whose
;; frames catch or not depending on the depth), catch clauses with values, catch_ref and a
;; rethrow with throw_ref, catch_all and catch_all_ref, a try_table with a parameter, a
;; clause that branches to a loop and one to the function's label. Prints a checksum of
;; what was caught.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (tag $small (param i32))
  (tag $big (param i32 i64))
  (tag $empty)
  (global $sum (mut i32) (i32.const 0))

  ;; Throws $small, $big or $empty by n mod 3, or returns when n mod 7 = 0.
  (func $thrower (param $n i32) (result i32)
    (if (i32.eqz (i32.rem_u (local.get $n) (i32.const 7))) (then (return (i32.const 1))))
    (block $b3
      (block $b1
        (block $b0
          (br_table $b0 $b1 $b3 (i32.rem_u (local.get $n) (i32.const 3))))
        (throw $small (local.get $n)))
      (throw $big (local.get $n) (i64.extend_i32_u (local.get $n))))
    (throw $empty))

  ;; Recursive: frames at even depth catch $small; odd ones let everything through.
  (func $deep (param $d i32) (param $n i32) (result i32)
    (if (i32.eqz (local.get $d)) (then (return (call $thrower (local.get $n)))))
    (if (i32.and (local.get $d) (i32.const 1))
      (then (return (i32.add (i32.const 1) (call $deep (i32.sub (local.get $d) (i32.const 1)) (local.get $n))))))
    (block $caught (result i32)
      (try_table (result i32) (catch $small $caught)
        (call $deep (i32.sub (local.get $d) (i32.const 1)) (local.get $n)))
      (return))
    ;; caught: the thrown value plus the depth
    (i32.add (local.get $d)))

  ;; A throw and its catch in one function, inside a loop; the handler continues the loop.
  (func $local_loop (param $k i32) (result i32)
    (local $i i32) (local $acc i32)
    (loop $next
      (block $h (result i32)
        (try_table (catch $small $h)
          (if (i32.and (local.get $i) (i32.const 1))
            (then (throw $small (local.get $i))))
          (local.set $acc (i32.add (local.get $acc) (i32.const 100))))
        (i32.const 0))
      (local.set $acc (i32.add (local.get $acc)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $i) (local.get $k))))
    (local.get $acc))

  ;; A catch_all whose clause branches straight back to the loop's header.
  (func $retry (param $n i32) (result i32)
    (local $tries i32)
    (loop $again
      (local.set $tries (i32.add (local.get $tries) (i32.const 1)))
      (try_table (catch_all $again)
        (drop (call $thrower (i32.add (local.get $n) (local.get $tries))))))
    (local.get $tries))

  ;; catch_ref keeps the exception; unless it is small, throw_ref rethrows it to a caller
  ;; whose catch_all_ref and catch clauses take it.
  (func $rethrow (param $n i32) (result i32)
    (local $e exnref) (local $v i32)
    (block $got (result i32 exnref)
      (try_table (result i32) (catch_ref $small $got)
        (call $thrower (local.get $n)))
      (return))
    (local.set $e)
    (local.set $v)
    (if (i32.ge_u (local.get $n) (i32.const 20)) (then (throw_ref (local.get $e))))
    (i32.add (local.get $v) (i32.const 5000)))

  (func $outer_rethrow (param $n i32) (result i32)
    (block $big_h (result i32 i64)
      (block $all_h (result exnref)
        (try_table (result i32) (catch $big $big_h) (catch_all_ref $all_h)
          (call $rethrow (local.get $n)))
        (return))
      (drop)
      (return (i32.const 7000)))
    ;; a big one: its value, less its copy
    (i32.wrap_i64)
    (i32.sub)
    (i32.const 9000)
    (i32.add))

  ;; A try_table with a parameter, whose catch_all lands on the function's own label.
  (func $param_try (param $n i32)
    (local.get $n)
    (try_table (param i32) (result i32) (catch_all 0)
      (call $thrower)
      (i32.const 3)
      (i32.add))
    (call $add)
    (call $add (i32.const 1)))

  (func $add (param $x i32)
    (global.set $sum (i32.add (i32.mul (global.get $sum) (i32.const 31)) (local.get $x))))

  (func $print (param $v i32)
    (local $p i32)
    (local.set $p (i32.const 64))
    (loop $digits
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (i32.store8 (local.get $p) (i32.add (i32.const 48) (i32.rem_u (local.get $v) (i32.const 10))))
      (local.set $v (i32.div_u (local.get $v) (i32.const 10)))
      (br_if $digits (local.get $v)))
    (i32.store8 (i32.const 64) (i32.const 10))
    (i32.store (i32.const 0) (local.get $p))
    (i32.store (i32.const 4) (i32.sub (i32.const 65) (local.get $p)))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 80))))

  (func (export "_start")
    (local $i i32)
    (loop $l
      (block $done
        (block $miss (result exnref)
          (try_table (catch_all_ref $miss)
            (call $add (call $deep (i32.rem_u (local.get $i) (i32.const 6)) (local.get $i))))
          (br $done))
        (drop)
        (call $add (i32.const 77)))
      (call $add (call $local_loop (i32.rem_u (local.get $i) (i32.const 9))))
      (call $add (call $retry (local.get $i)))
      (call $add (call $outer_rethrow (local.get $i)))
      (call $param_try (local.get $i))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 60))))
    (call $print (global.get $sum))))
