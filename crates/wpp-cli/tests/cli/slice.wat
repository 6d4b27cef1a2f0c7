;; Dynamic slicing: Agrawal and Horgan's example as Zhang and Gupta give it (Fig. 10), a
;; loop reading N numbers, each sent through f1 or f2 by its sign and then f3, a flag J
;; set in the loop and added to Z after it; input N = 3, X = -4, 3, -2, read from a table
;; in code. The paper's statement numbers mark main's instructions. The slice of Z at the
;; breakpoint (statement 14, the local.get at 0x106) leaves out statements 3 and 8 (their
;; values were overwritten) and 10; the first iteration's Y (before 0xea) has a smaller
;; one; bad criteria say what is there instead. A criterion is a program point in any
;; form (`main:0x106`, `0xea`, `main:b2`); a block without its function is refused.
;;
;; RUN: record -o %t.wpp %s
;; RUN: twpp build %t.wpp -o %t.twpp
;; RUN: slice %t.twpp --module %s --at main:0x106 --var local:5
;; RUN: slice %t.twpp --module %s --at 0xea --var local:4 --instance 1 --top 2
;; RUN: slice %t.twpp --module %s --at main:0x106 --var local:9
;; RUN: slice %t.twpp --module %s --at main:0x106 --var global:5
;; RUN: slice %t.twpp --module %s --at main:0x105 --var local:5
;; RUN: slice %t.twpp --module %s --at 0xea --var local:4 --instance 7
;; RUN: slice %t.twpp --module %s --at slice.wat:40 --var local:4
;; RUN: slice %t.twpp --module %s --at 0xea --var mem:0
;; RUN: slice %t.twpp --module %s --at main:b2 --var local:5
;; RUN: slice %t.twpp --module %s --at b2 --var local:5
;; RUN: slice %t.twpp --module %s --at main --var local:5
(module
  (memory (export "memory") 1)
  (global $pos (mut i32) (i32.const 0))
  ;; The input, one number a call.
  (func $read (result i32)
    (local $v i32)
    (block $done
      (block $x3
        (block $x2
          (block $x1
            (block $x0
              (br_table $x0 $x1 $x2 $x3 (global.get $pos)))
            (local.set $v (i32.const 3))
            (br $done))
          (local.set $v (i32.const -4))
          (br $done))
        (local.set $v (i32.const 3))
        (br $done))
      (local.set $v (i32.const -2)))
    (global.set $pos (i32.add (global.get $pos) (i32.const 1)))
    (local.get $v))
  (func $f1 (param i32) (result i32) (i32.mul (local.get 0) (i32.const 2)))
  (func $f2 (param i32) (result i32) (i32.add (local.get 0) (i32.const 7)))
  (func $f3 (param i32) (result i32) (i32.sub (local.get 0) (i32.const 1)))
  (func $write (param i32) (i32.store (i32.const 0) (local.get 0)))
  (func $breakpoint (param i32) (i32.store (i32.const 4) (local.get 0)))
  (func $main (export "_start")
    (local $N i32) (local $I i32) (local $J i32) (local $X i32) (local $Y i32) (local $Z i32)
    ;; 1: read N
    call $read
    local.set $N
    ;; 2: I = 1
    i32.const 1
    local.set $I
    ;; 3: J = 0
    i32.const 0
    local.set $J
    block $exit
      loop $head
        ;; 4: while I <= N
        local.get $I
        local.get $N
        i32.gt_s
        br_if $exit
        ;; 5: read X
        call $read
        local.set $X
        ;; 6: if X < 0
        local.get $X
        i32.const 0
        i32.lt_s
        if
          ;; 7: Y = f1(X)
          local.get $X
          call $f1
          local.set $Y
        else
          ;; 8: Y = f2(X)
          local.get $X
          call $f2
          local.set $Y
        end
        ;; 9: Z = f3(Y)
        local.get $Y
        call $f3
        local.set $Z
        ;; 10: write Z
        local.get $Z
        call $write
        ;; 11: J = 1
        i32.const 1
        local.set $J
        ;; 12: I = I + 1
        local.get $I
        i32.const 1
        i32.add
        local.set $I
        br $head
      end
    end
    ;; 13: Z = Z + J
    local.get $Z
    local.get $J
    i32.add
    local.set $Z
    ;; 14: breakpoint
    local.get $Z
    call $breakpoint))
