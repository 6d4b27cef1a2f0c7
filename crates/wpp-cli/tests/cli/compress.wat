;; The smallest program (`_start` returns at once: one path, run once), and a trace of
;; symbols written by something other than wpp (compress.input, decimal numbers separated
;; by whitespace, with repeats for the grammar to find), compressed into a grammar
;; profile that holds no module; text is not read as 4-byte little-endian numbers, the
;; default, unless --format u32le says so (then it is other symbols). Commands that need the program refuse such a profile and
;; say which commands read it; those read it.
;;
;; RUN: record -o %t.wpp %s
;; RUN: stats %t.wpp
;; RUN: paths %t.wpp
;; RUN: expand %t.wpp --decode
;; RUN: compress compress.input -o %t.symbols.wpp --format text
;; RUN: stats %t.symbols.wpp
;; RUN: expand %t.symbols.wpp
;; RUN: compress compress.input -o %t.repair.wpp --format text --grammar repair
;; RUN: stats %t.repair.wpp
;; RUN: compress compress.input -o %t.u32.wpp
;; RUN: compress compress.input -o %t.u32.wpp --format u32le
;; RUN: dff %t.symbols.wpp --module %s --func 0
;; RUN: paths %t.symbols.wpp
;; RUN: functions %t.symbols.wpp
;; RUN: annotate %t.symbols.wpp
;; RUN: twpp build %t.symbols.wpp -o %t.twpp
;; RUN: hot %t.symbols.wpp --max-len 4 --min-cost 2
;; RUN: hot %t.symbols.wpp --max-len 4 --min-cost 2 --cost paths
;; RUN: query %t.symbols.wpp freq 0:7 0:7
;; RUN: expand %t.symbols.wpp --decode
;; RUN: report %t.symbols.wpp -o %t.html
(module
  (func (export "_start")))
