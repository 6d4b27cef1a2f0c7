;; Nested loops with break and continue (br_if to loop and block labels), an if/else in
;; the inner body and a call inside it, recorded in every mode and with every grammar
;; builder: the same paths, counted or traced, in grammars of different sizes. Prints
;; `done`.
;;
;; RUN: record -o %t.wpp %s
;; RUN: stats %t.wpp
;; RUN: record --mode grammar --grammar sequitur -o %t.sequitur.wpp %s
;; RUN: stats %t.sequitur.wpp
;; RUN: record --grammar repair -o %t.repair.wpp %s
;; RUN: stats %t.repair.wpp
;; RUN: record --predict -o %t.predict.wpp %s
;; RUN: stats %t.predict.wpp
;; RUN: record --mode paths -o %t.paths.wpp %s
;; RUN: stats %t.paths.wpp
;; RUN: paths %t.paths.wpp --top 5
;; RUN: record --mode trace -o %t.trace.wpp %s
;; RUN: stats %t.trace.wpp
;; RUN: paths %t.trace.wpp --top 5
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "done\n")
  (func $mix (param $x i32) (result i32)
    (local $i i32)
    (loop $l
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 31)) (i32.const 7)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 3))))
    (local.get $x))
  (func $main (result i32)
    (local $i i32) (local $j i32) (local $acc i32)
    (block $done
      (loop $outer
        (local.set $j (i32.const 0))
        (block $inner_done
          (loop $inner
            (br_if $inner_done (i32.ge_u (local.get $j) (local.get $i)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (if (i32.and (local.get $j) (i32.const 1))
              (then (local.set $acc (i32.add (local.get $acc) (local.get $j))))
              (else (local.set $acc (call $mix (local.get $acc)))))
            (br_if $inner (i32.eqz (i32.rem_u (local.get $j) (i32.const 5))))
            (local.set $acc (i32.xor (local.get $acc) (i32.const 0x55)))
            (br $inner)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $done (i32.gt_u (local.get $i) (i32.const 30)))
        (br $outer)))
    (local.get $acc))
  (func (export "_start")
    (drop (call $main))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 5))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
