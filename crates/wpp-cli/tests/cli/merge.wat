;; Merging runs of one module: a loop whose paths depend on the number of arguments (as
;; in ppp.wat), recorded without arguments and with one, in paths, grammar and ppp modes;
;; the runs merged (also a merged profile with another run, and runs listed in a file);
;; the sum read as one profile and each run read alone (its whole program path included);
;; the hot subpaths of a grammar run merged with itself, over both runs (twice as frequent);
;; and what cannot be merged or asked: PPP runs with runs without, a missing profile (no
;; merged profile is left behind), the runs' whole program paths when a run has counts
;; only, a run that is not there, a run of a profile that is not merged, nothing to merge.
;;
;; RUN: record --mode paths -o %t.a.wpp %s
;; RUN: record --mode paths -o %t.b.wpp %s deployed
;; RUN: record -o %t.c.wpp %s deployed twice
;; RUN: merge %t.a.wpp %t.b.wpp -o %t.ab.wpp
;; RUN: paths %t.a.wpp
;; RUN: paths %t.b.wpp
;; RUN: paths %t.ab.wpp
;; RUN: paths %t.ab.wpp --run 2
;; RUN: export %t.ab.wpp
;; RUN: merge %t.ab.wpp %t.c.wpp -o %t.abc.wpp
;; RUN: stats %t.abc.wpp
;; RUN: hot %t.abc.wpp --top 2
;; RUN: hot %t.abc.wpp --run 3 --top 2
;; RUN: merge %t.c.wpp %t.c.wpp -o %t.cc.wpp
;; RUN: hot %t.cc.wpp --top 2
;; RUN: report %t.abc.wpp -o %t.sum.html
;; RUN: report %t.abc.wpp --run 3 -o %t.run.html
;; RUN: twpp build %t.abc.wpp --run 3 -o %t.twpp
;; RUN: paths %t.abc.wpp --run 4
;; RUN: paths %t.a.wpp --run 1
;; RUN: merge --from-list merge.input -o %t.listed.wpp
;; RUN: paths %t.listed.wpp --top 3
;; RUN: ppp select %t.a.wpp --all-executed -o %t.set.json
;; RUN: record --mode ppp --interesting %t.set.json -o %t.p1.wpp %s
;; RUN: record --mode ppp --interesting %t.set.json -o %t.p2.wpp %s deployed
;; RUN: merge %t.p1.wpp %t.p2.wpp -o %t.p.wpp
;; RUN: ppp report %t.p.wpp
;; RUN: merge %t.p1.wpp %t.a.wpp -o %t.bad.wpp
;; RUN: merge %t.a.wpp %t.missing.wpp -o %t.bad.wpp
;; RUN: stats %t.bad.wpp
;; RUN: merge -o %t.bad.wpp
(module
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $acc (mut i32) (i32.const 0))
  ;; Three ways by i mod 4, and a fourth only when `wide` is set.
  (func $classify (param $i i32) (param $wide i32)
    (block $done
      (if (i32.and (local.get $wide) (i32.eq (i32.rem_u (local.get $i) (i32.const 6)) (i32.const 5)))
        (then (global.set $acc (i32.sub (global.get $acc) (local.get $i))) (br $done)))
      (if (i32.eqz (i32.rem_u (local.get $i) (i32.const 4)))
        (then (global.set $acc (i32.add (global.get $acc) (i32.const 1))) (br $done)))
      (if (i32.eq (i32.rem_u (local.get $i) (i32.const 4)) (i32.const 1))
        (then (global.set $acc (i32.mul (global.get $acc) (i32.const 3))))
        (else (global.set $acc (i32.xor (global.get $acc) (local.get $i)))))))
  (func $main (export "_start")
    (local $i i32) (local $wide i32)
    (drop (call $args_sizes_get (i32.const 0) (i32.const 4)))
    (local.set $wide (i32.gt_u (i32.load (i32.const 0)) (i32.const 1)))
    (loop $l
      (call $classify (local.get $i) (local.get $wide))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 48))))))
