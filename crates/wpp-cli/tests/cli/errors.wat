;; Bad input: a missing file, a file that is not a module (errors.input, some notes), a
;; profile of the wrong kind for the command, names and paths that name nothing, values
;; out of range, and arguments the parser refuses. Each error is one line on stderr, with
;; exit status 2. An output that is a directory, or in a directory that does not exist, is
;; refused before any work (exit 1), and nothing is written. Also
;; `--version`.
;;
;; RUN: --version
;; RUN: stats %t.missing.wpp
;; RUN: record %t.missing.wasm
;; RUN: record errors.input
;; RUN: stats errors.input
;; RUN: record --mode paths -o %t.paths.wpp %s
;; RUN: paths %t.paths.wpp --func nosuch
;; RUN: paths %t.paths.wpp --func 99
;; RUN: paths %t.paths.wpp --func cuont
;; RUN: hot %t.paths.wpp --max-len 2 --min-cost 1
;; RUN: expand %t.paths.wpp
;; RUN: twpp build %t.paths.wpp -o %t.paths.twpp
;; RUN: record -o %t.wpp %s
;; RUN: twpp build %t.wpp -o .
;; Every output is checked before the work: a directory that does not exist.
;; RUN: twpp build %t.wpp -o %t.nodir/x.twpp
;; RUN: report %t.wpp -o %t.nodir/x.html
;; RUN: export %t.wpp --pprof %t.nodir/x.pb.gz
;; RUN: export %t.wpp --pprof %t.pb.gz --speedscope %t.nodir/x.json
;; RUN: export %t.wpp --parquet %t.wpp
;; RUN: export %t.wpp --lcov %t.info
;; RUN: merge %t.wpp %t.wpp -o %t.nodir/m.wpp
;; RUN: diff %t.wpp %t.wpp --html %t.nodir/d.html
;; RUN: ppp select %t.wpp --all-executed -o %t.nodir/s.set
;; RUN: compress %t.wpp -o %t.nodir/c.wpp
;; RUN: report %t.wpp -o . --dot %t.no-dot
;; RUN: query %t.wpp freq nosuch:1
;; RUN: query %t.wpp freq 1:999999
;; RUN: query %t.wpp freq 1
;; RUN: hot %t.wpp --max-len 2 --min-len 5 --min-cost 1
;; RUN: trace %t.wpp --func 1
;; RUN: twpp build %t.wpp -o %t.twpp
;; RUN: trace %t.twpp --func 1 --call 99
;; RUN: trace %t.twpp --func nosuch
;; RUN: hot %t.twpp --max-len 2
;; RUN: dff %t.twpp --module %s --func 1
;; RUN: stats %t.twpp
;; RUN: dff %t.wpp --module %t.missing.wasm --func 1
;; RUN: dff %t.wpp --module errors.input --func 1
;; RUN: dff %t.wpp --module %s --at 0xffffff
;; RUN: dataflow redundancy %t.twpp --module %s --func nosuch
;; RUN: ppp select %t.wpp -o %t.set
;; RUN: ppp report %t.wpp
;; RUN: paths
;; RUN: record --mode nosuch %s
;; RUN: hot %t.wpp --max-len x --min-cost 1
(module
  (memory (export "memory") 1)
  (func $count (param $n i32) (result i32)
    (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $i))
  (func (export "_start")
    (i32.store (i32.const 100) (call $count (i32.const 5)))))
