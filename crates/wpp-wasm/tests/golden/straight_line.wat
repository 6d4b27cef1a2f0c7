;; Straight-line code: an empty function (its only instruction is the final `end`), a
;; function that is one block, and one whose `block` and `loop` no branch targets, so they
;; start no block of their own. Each function has exactly one path.
(module
  (memory 1)
  (func $empty (export "empty"))
  (func $add3 (export "add3") (param i32 i32 i32) (result i32)
    local.get 0
    local.get 1
    i32.add
    local.get 2
    i32.add)
  (func $untargeted (export "untargeted") (param $p i32) (result i32)
    (block (result i32)
      (loop (result i32)
        (i32.store (i32.const 0) (local.get $p))
        (i32.load (i32.const 0))))))
