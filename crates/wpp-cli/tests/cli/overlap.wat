;; A loop of 1,000 iterations that takes one path each time: the subpath of that path
;; twice occurs 998 times, overlapping itself, and 499 times side by side. Its cost by
;; occurrences is twice the run's; its share of the run is taken from the occurrences side
;; by side, and is never more than the run. `hot`, `query freq` and the JSON agree.
;;
;; RUN: record -o %t.wpp %s
;; RUN: paths %t.wpp
;; RUN: hot %t.wpp --max-len 2 --min-len 2 --min-cost 900 --cost paths
;; RUN: hot %t.wpp --max-len 3 --min-len 3 --min-cost 600 --cost paths --json
;; RUN: query %t.wpp freq main:1 main:1
;; RUN: query %t.wpp freq main:1 main:1 main:1 --json
(module
  (memory (export "memory") 1)
  (func $main (export "_start")
    (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
    (i32.store (i32.const 100) (local.get $i))))
