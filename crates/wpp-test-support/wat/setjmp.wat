;; setjmp/longjmp as LLVM lowers them to exception handling (`-mllvm -wasm-enable-sjlj`):
;; longjmp throws the tag `__c_longjmp` with a pointer to (env, val); a function that calls
;; setjmp runs its body in a dispatch loop whose try_table catches that tag, asks
;; `__wasm_setjmp_test` whether the jump is to one of its own setjmps (by the buffer's
;; label and invocation id), rethrows it by calling `__wasm_longjmp` again if not, and
;; otherwise re-enters the body at the setjmp with the jump's value. The C program:
;;
;;   jmp_buf outer, inner;
;;   void work(int d, int n) { if (d == 0) { if (n % 3 == 0) longjmp(outer, n + 1);
;;                                           if (n % 3 == 1) longjmp(inner, n + 2); return; }
;;                            work(d - 1, n); }
;;   int middle(int n) { int r = setjmp(inner); if (r) return 1000 + r;
;;                       work(n % 4, n); return 0; }
;;   int run(int n) { int r = setjmp(outer); if (r) return r; return middle(n); }
;;   int main() { int sum = 0; for (int i = 0; i < 40; i++) sum = sum * 7 + run(i);
;;                printf("%u\n", sum); }
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (tag $__c_longjmp (param i32))
  ;; jmp_bufs at 128 (outer) and 144 (inner): (label, invocation id); the longjmp
  ;; arguments at 160: (env, val); the invocation counter at 176.
  (global $outer i32 (i32.const 128))
  (global $inner i32 (i32.const 144))

  (func $__wasm_setjmp (param $env i32) (param $label i32) (param $id i32)
    (i32.store (local.get $env) (local.get $label))
    (i32.store offset=4 (local.get $env) (local.get $id)))
  (func $__wasm_setjmp_test (param $env i32) (param $id i32) (result i32)
    (if (result i32) (i32.eq (i32.load offset=4 (local.get $env)) (local.get $id))
      (then (i32.load (local.get $env)))
      (else (i32.const 0))))
  (func $__wasm_longjmp (param $env i32) (param $val i32)
    (i32.store (i32.const 160) (local.get $env))
    (i32.store (i32.const 164) (select (local.get $val) (i32.const 1) (local.get $val)))
    (throw $__c_longjmp (i32.const 160)))
  (func $new_invocation (result i32)
    (i32.store (i32.const 176) (i32.add (i32.load (i32.const 176)) (i32.const 1)))
    (i32.load (i32.const 176)))

  (func $work (param $d i32) (param $n i32)
    (if (i32.eqz (local.get $d))
      (then
        (if (i32.eqz (i32.rem_u (local.get $n) (i32.const 3)))
          (then (call $__wasm_longjmp (global.get $outer) (i32.add (local.get $n) (i32.const 1)))))
        (if (i32.eq (i32.rem_u (local.get $n) (i32.const 3)) (i32.const 1))
          (then (call $__wasm_longjmp (global.get $inner) (i32.add (local.get $n) (i32.const 2)))))
        (return)))
    (call $work (i32.sub (local.get $d) (i32.const 1)) (local.get $n)))

  ;; int middle(int n), lowered: label 0 is the entry, label 1 the return from setjmp.
  (func $middle (param $n i32) (result i32)
    (local $id i32) (local $label i32) (local $val i32) (local $args i32)
    (local.set $id (call $new_invocation))
    (loop $dispatch (result i32)
      (block $catch (result i32)
        (try_table (result i32) (catch $__c_longjmp $catch)
          (block $after_setjmp
            (block $entry
              (br_table $entry $after_setjmp (local.get $label)))
            ;; entry: setjmp(inner) returns 0
            (call $__wasm_setjmp (global.get $inner) (i32.const 1) (local.get $id))
            (local.set $val (i32.const 0)))
          ;; after setjmp, with its result in $val
          (if (local.get $val) (then (return (i32.add (i32.const 1000) (local.get $val)))))
          (call $work (i32.rem_u (local.get $n) (i32.const 4)) (local.get $n))
          (i32.const 0))
        (return))
      (local.set $args)
      (local.set $label (call $__wasm_setjmp_test (i32.load (local.get $args)) (local.get $id)))
      (if (i32.eqz (local.get $label))
        (then (call $__wasm_longjmp (i32.load (local.get $args)) (i32.load offset=4 (local.get $args)))))
      (local.set $val (i32.load offset=4 (local.get $args)))
      (br $dispatch)))

  (func $run (param $n i32) (result i32)
    (local $id i32) (local $label i32) (local $val i32) (local $args i32)
    (local.set $id (call $new_invocation))
    (loop $dispatch (result i32)
      (block $catch (result i32)
        (try_table (result i32) (catch $__c_longjmp $catch)
          (block $after_setjmp
            (block $entry
              (br_table $entry $after_setjmp (local.get $label)))
            (call $__wasm_setjmp (global.get $outer) (i32.const 1) (local.get $id))
            (local.set $val (i32.const 0)))
          (if (local.get $val) (then (return (local.get $val))))
          (call $middle (local.get $n)))
        (return))
      (local.set $args)
      (local.set $label (call $__wasm_setjmp_test (i32.load (local.get $args)) (local.get $id)))
      (if (i32.eqz (local.get $label))
        (then (call $__wasm_longjmp (i32.load (local.get $args)) (i32.load offset=4 (local.get $args)))))
      (local.set $val (i32.load offset=4 (local.get $args)))
      (br $dispatch)))

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
    (local $i i32) (local $sum i32)
    (loop $l
      (local.set $sum (i32.add (i32.mul (local.get $sum) (i32.const 7)) (call $run (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 40))))
    (call $print (local.get $sum))))
