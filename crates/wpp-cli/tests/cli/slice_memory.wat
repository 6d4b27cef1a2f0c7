;; Slicing through memory: a table filled by one loop (a[i] = i * i) and summed by
;; another, the sum stored and read back. Recorded with addresses, the TWPP keeps each
;; load's stores: the slice of the sum follows its load to the store of the total and the
;; table's loads to the first loop's stores; approach 2 is larger, every execution of the
;; instructions reached. Without addresses the slice ends at the load.
;;
;; RUN: record --mode addresses -o %t.wpp %s
;; RUN: twpp build %t.wpp -o %t.twpp
;; RUN: slice %t.twpp --module %s --at main:0x83 --var local:2 --top 3
;; RUN: slice %t.twpp --module %s --at main:0x83 --var local:2 --algorithm 2 --top 1
;; RUN: record -o %t.bare.wpp %s
;; RUN: twpp build %t.bare.wpp -o %t.bare.twpp
;; RUN: slice %t.bare.twpp --module %s --at main:0x83 --var local:2
;; RUN: slice %t.twpp --module %s --at main:0x83 --var mem:16:16 --top 1
;; RUN: slice %t.twpp --module %s --at main:0x83 --var mem:6 --top 1
;; RUN: slice %t.bare.twpp --module %s --at main:0x83 --var mem:8
;; RUN: slice %t.twpp --module %s --at main:0x83 --var mem:8:0
(module
  (memory (export "memory") 1)
  (func $main (export "_start")
    (local $i i32) (local $s i32) (local $r i32)
    ;; a[i] = i * i, i = 0..4, at 16 + 4i
    (loop $fill
      (i32.store offset=16 (i32.shl (local.get $i) (i32.const 2)) (i32.mul (local.get $i) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $i) (i32.const 4))))
    ;; s = a[0] + .. + a[3]
    (local.set $i (i32.const 0))
    (loop $sum
      (local.set $s (i32.add (local.get $s) (i32.load offset=16 (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $sum (i32.lt_u (local.get $i) (i32.const 4))))
    ;; the total through memory
    (i32.store (i32.const 8) (local.get $s))
    (local.set $r (i32.load (i32.const 8)))
    (drop (local.get $r))))
