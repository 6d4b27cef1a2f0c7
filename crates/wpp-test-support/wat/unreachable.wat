;; An explicit `unreachable` after a loop: the path ending in the trap is recorded.
(module
  (memory (export "memory") 1)
  (func $check (param $x i32)
    (if (i32.gt_u (local.get $x) (i32.const 50)) (then (unreachable))))
  (func (export "_start")
    (local $i i32)
    (loop $l
      (call $check (local.get $i))
      (local.set $i (i32.add (local.get $i) (i32.const 3)))
      (br $l))))
