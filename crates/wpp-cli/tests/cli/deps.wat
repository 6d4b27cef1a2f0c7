;; Memory dependences (`wpp deps`): a table written in a loop and read back in reverse
;; (any-instance dependences), a counter at a constant address (a last-instance, fixed
;; cost dependence), a memory.copy and a memory.fill, the arguments args_get wrote,
;; a load of two stores' bytes (a partial overlap), and a load of bytes nothing
;; wrote (the initial memory). Loads are named as any program point: an offset, FUNC:0xOFF,
;; FUNC:bN (a block's loads), a function; a block without its function and a function the
;; module lacks are refused.
;; RUN: record --mode addresses -o %t.wpp %s hello
;; RUN: deps %t.wpp
;; RUN: deps %t.wpp --use 0x9b --instance 3
;; RUN: deps %t.wpp --use main --top 2
;; RUN: deps %t.wpp --use main:0x125
;; RUN: deps %t.wpp --use main:0x9b --instance 3
;; RUN: deps %t.wpp --use main:b2 --top 2
;; RUN: deps %t.wpp --use b1
;; RUN: deps %t.wpp --use nosuchfn
;; RUN: deps stats %t.wpp --module %s
;; RUN: record --mode ewpp-filter -o %t.f.wpp %s hello
;; RUN: deps %t.f.wpp --top 3
;; RUN: deps stats %t.f.wpp
;; RUN: deps %t.f.wpp --use 0x9b --instance 3
;; RUN: deps %t.wpp --use 0x3
;; RUN: deps %t.wpp --use 0x9b --instance 9
;; RUN: record --mode ewpp --filter %t.f.wpp -o %t.e.wpp %s hello
;; RUN: deps %t.e.wpp --top 3
;; RUN: deps %t.e.wpp --use 0x9b --instance 3
;; RUN: deps stats %t.e.wpp
;; RUN: record -o %t.g.wpp %s
;; RUN: deps %t.g.wpp
;; RUN: record --mode ewpp --filter %t.g.wpp -o %t.e2.wpp %s hello
;; RUN: record --mode ewpp -o %t.e2.wpp %s hello
;; RUN: record --mode grammar --filter %t.f.wpp -o %t.e2.wpp %s hello
;; RUN: deps %t.wpp --use 0x73 --chain --module %s
;; RUN: deps %t.e.wpp --use 0x73 --chain --module %s --depth 2 --instance 5
;; RUN: deps %t.wpp --use 0xc1 --chain --module %s
;; RUN: deps %t.e.wpp --use 0xc1 --chain --module %s --json
;; RUN: deps %t.f.wpp --use 0xc1 --chain --module %s
;; RUN: deps %t.wpp --use main --chain --module %s
;; RUN: deps %t.wpp --use 0xc1 --chain
;; RUN: deps %t.wpp --use 0xc1 --chain --module deps.wat
;; An extended WPP shows the program: its check routine is a cost, not a function.
;; RUN: functions %t.e.wpp
;; RUN: paths %t.e.wpp --top 4
;; RUN: hot %t.e.wpp --max-len 2
;; RUN: stats %t.e.wpp
;; RUN: diff %t.wpp %t.e.wpp --top 3
(module
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func $main (export "_start") (local $i i32) (local $s i32)
    ;; table[i] = 3i for i in 0..8 (at 100 + 4i), and the counter at 16 counts them
    (loop $fill
      (i32.store offset=100 (i32.shl (local.get $i) (i32.const 2)) (i32.mul (local.get $i) (i32.const 3)))
      (i32.store (i32.const 16) (i32.add (i32.load (i32.const 16)) (i32.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $i) (i32.const 8))))
    ;; the table read back in reverse
    (local.set $i (i32.const 0))
    (loop $sum
      (local.set $s (i32.add (local.get $s) (i32.load offset=100 (i32.shl (i32.sub (i32.const 7) (local.get $i)) (i32.const 2)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $sum (i32.lt_u (local.get $i) (i32.const 8))))
    ;; the table copied to 200 and an entry read there; 300..316 filled with 7s
    (memory.copy (i32.const 200) (i32.const 100) (i32.const 32))
    (local.set $s (i32.add (local.get $s) (i32.load (i32.const 208))))
    (memory.fill (i32.const 300) (i32.const 7) (i32.const 16))
    (local.set $s (i32.add (local.get $s) (i32.load (i32.const 300))))
    ;; two 2-byte stores read by one 4-byte load
    (i32.store16 (i32.const 400) (i32.const 1))
    (i32.store16 (i32.const 402) (i32.const 2))
    (local.set $s (i32.add (local.get $s) (i32.load (i32.const 400))))
    ;; the arguments' pointers at 48, their text at 500; the first letter of the second
    (drop (call $args_get (i32.const 48) (i32.const 500)))
    (local.set $s (i32.add (local.get $s) (i32.load8_u (i32.load (i32.const 52)))))
    ;; bytes nothing wrote
    (local.set $s (i32.add (local.get $s) (i32.load (i32.const 1000))))
    (i32.store (i32.const 20) (local.get $s))
    ;; a load that never runs: no argument is empty
    (if (i32.eqz (local.get $s)) (then (drop (i32.load (i32.const 24)))))))
