//! Random WASI programs for data flow tests: a few functions that define locals and
//! globals, load and store memory at constant addresses, through pointer locals and
//! through a pointer global, call each other (directly, through a table, by tail call,
//! and recursively to a bounded depth), write memory in bulk and through an import, in
//! branches and bounded loops whose directions change from one iteration to the next.
//! Every program terminates and never traps: calls go to later functions only (or to
//! itself with a depth that decreases), loops have counters nothing else writes, and
//! pointers stay inside the memory.

use std::fmt::Write as _;

use crate::Rng;

/// Constant addresses the programs load and store (a few bytes apart, so that accesses
/// overlap partially too).
const CONSTS: [u32; 5] = [64, 68, 72, 80, 82];

struct Gen<'a> {
    rng: &'a mut Rng,
    func: usize,
    n_funcs: usize,
    /// Locals beyond the fixed ones: loop counters.
    counters: u32,
    /// Calls the body may still make (two at most, so that the run stays small).
    calls_left: u32,
    out: String,
}

/// Locals of every function: 0 depth, 1 pointer (parameters); 2-4 values; 5-6 pointers.
const VALUES: [u32; 3] = [2, 3, 4];
const POINTERS: [u32; 3] = [1, 5, 6];
const FIXED_LOCALS: u32 = 7;

impl Gen<'_> {
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.rng.below(v.len())]
    }

    /// An address: a constant, a pointer local or the pointer global, and an offset.
    fn address(&mut self) -> (String, u32) {
        let offset = self.pick(&[0u32, 0, 4, 8, 2]);
        let base = match self.rng.below(3) {
            0 => format!("(i32.const {})", self.pick(&CONSTS)),
            1 => format!("(local.get {})", self.pick(&POINTERS)),
            _ => "(global.get $gp)".to_string(),
        };
        (base, offset)
    }

    fn value(&mut self, depth: u32) -> String {
        match self.rng.below(if depth > 1 { 3 } else { 6 }) {
            0 => format!("(i32.const {})", self.rng.below(100)),
            1 => format!("(local.get {})", self.pick(&VALUES)),
            2 => format!("(global.get $g{})", self.rng.below(2)),
            3 => {
                let (base, off) = self.address();
                let op = self.pick(&["i32.load", "i32.load16_u", "i32.load8_s"]);
                format!("({op} offset={off} {base})")
            }
            4 => format!("(i32.add {} {})", self.value(depth + 1), self.value(depth + 1)),
            _ => "(local.get 0)".to_string(),
        }
    }

    /// A condition that changes with the loop counters and the data.
    fn cond(&mut self) -> String {
        let c = if self.counters > 0 && self.rng.chance(2) { FIXED_LOCALS + self.rng.below(self.counters as usize) as u32 } else { self.pick(&VALUES) };
        format!("(i32.and (i32.add (local.get {c}) (i32.const {})) (i32.const {}))", self.rng.below(7), self.pick(&[1, 2, 3]))
    }

    fn call(&mut self) -> Option<String> {
        let later: Vec<usize> = (self.func + 1..self.n_funcs).collect();
        let ptr = format!("(i32.add (local.get 1) (i32.const {}))", self.pick(&[0, 4, 8]));
        match self.rng.below(3) {
            0 if !later.is_empty() => Some(format!("(call $f{} (i32.const 0) {ptr})", self.pick(&later))),
            1 if !later.is_empty() => {
                let j = self.pick(&later);
                Some(format!("(call_indirect (type $t) (i32.const 0) {ptr} (i32.const {j}))"))
            }
            _ => Some(format!(
                "(if (result i32) (i32.gt_u (local.get 0) (i32.const 0)) (then (call $f{} (i32.sub (local.get 0) (i32.const 1)) {ptr})) (else (i32.const 1)))",
                self.func
            )),
        }
    }

    fn stmts(&mut self, depth: u32, n: usize) {
        for _ in 0..n {
            self.stmt(depth);
        }
    }

    fn stmt(&mut self, depth: u32) {
        // Kinds of statement, by weight: loads most, the heavy and the killing ones less.
        const KINDS: [u8; 20] = [0, 0, 2, 3, 3, 5, 5, 5, 5, 5, 5, 6, 7, 7, 8, 8, 9, 10, 5, 3];
        let choice = if depth >= 2 { self.pick(&KINDS[..14]) } else { self.pick(&KINDS) };
        let line = match choice {
            0 => format!("(local.set {} {})", self.pick(&VALUES), self.value(0)),
            2 => format!("(global.set $g{} {})", self.rng.below(2), self.value(0)),
            3 => {
                let (base, off) = self.address();
                let op = self.pick(&["i32.store", "i32.store", "i32.store16", "i32.store8"]);
                format!("({op} offset={off} {base} {})", self.value(0))
            }
            5 => {
                let (base, off) = self.address();
                format!("(local.set {} (i32.load offset={off} {base}))", self.pick(&VALUES))
            }
            6 => {
                // A pointer local moves, staying in its area.
                let p = self.pick(&POINTERS[1..]);
                format!("(local.set {p} (i32.add (local.get 1) (i32.const {})))", self.pick(&[0, 4, 8, 12]))
            }
            7 if self.calls_left > 0 => {
                self.calls_left -= 1;
                match self.call() {
                    Some(c) => format!("(local.set {} {c})", self.pick(&VALUES)),
                    None => String::new(),
                }
            }
            7 => format!("(local.set {} {})", self.pick(&VALUES), self.value(0)),
            8 => {
                let c = self.cond();
                self.out.push_str(&format!("(if {c} (then "));
                let n = 1 + self.rng.below(3);
                self.stmts(depth + 1, n);
                self.out.push_str(") (else ");
                let n = self.rng.below(3);
                self.stmts(depth + 1, n);
                self.out.push_str("))\n");
                String::new()
            }
            9 if depth == 0 => {
                let c = FIXED_LOCALS + self.counters;
                self.counters += 1;
                let trips = 1 + self.rng.below(3);
                self.out.push_str(&format!("(local.set {c} (i32.const 0)) (loop $l{c} "));
                let n = 1 + self.rng.below(4);
                self.stmts(depth + 1, n);
                self.out.push_str(&format!(
                    "(local.set {c} (i32.add (local.get {c}) (i32.const 1))) (br_if $l{c} (i32.lt_u (local.get {c}) (i32.const {trips}))))\n"
                ));
                String::new()
            }
            9 => format!("(global.set $g0 {})", self.value(0)),
            _ => match self.rng.below(3) {
                0 => format!("(memory.fill (i32.const {}) (i32.const 0) (i32.const 8))", self.pick(&CONSTS)),
                1 => "(drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 72)))".to_string(),
                _ => format!("(global.set $gp (i32.add (i32.const 256) (i32.const {})))", self.pick(&[0, 4, 16])),
            },
        };
        if !line.is_empty() {
            writeln!(self.out, "{line}").unwrap();
        }
    }
}

/// The text of random program `seed`.
pub fn random_wat(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let n_funcs = 1 + rng.below(3);
    let mut funcs = String::new();
    for func in 0..n_funcs {
        let mut g = Gen { rng: &mut rng, func, n_funcs, counters: 0, calls_left: 2, out: String::new() };
        let n = 3 + g.rng.below(6);
        g.stmts(0, n);
        let later: Vec<usize> = (func + 1..n_funcs).collect();
        let tail = if !later.is_empty() && g.rng.chance(3) {
            format!("(return_call $f{} (local.get 0) (local.get 1))", g.pick(&later))
        } else {
            format!("(local.get {})", g.pick(&VALUES))
        };
        let body = std::mem::take(&mut g.out);
        let locals = FIXED_LOCALS - 2 + g.counters;
        writeln!(
            funcs,
            "(func $f{func} (type $t) (local {})\n(local.set 5 (local.get 1)) (local.set 6 (local.get 1))\n{body}{tail})",
            vec!["i32"; locals as usize].join(" ")
        )
        .unwrap();
    }
    let table: Vec<String> = (0..n_funcs).map(|i| format!("$f{i}")).collect();
    let trips = 2 + rng.below(3);
    format!(
        r#"(module
(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
(type $t (func (param i32 i32) (result i32)))
(memory (export "memory") 1)
(global $g0 (mut i32) (i32.const 3))
(global $g1 (mut i32) (i32.const 5))
(global $gp (mut i32) (i32.const 256))
(table {n} funcref)
(elem (i32.const 0) {table})
{funcs}
(func $main (export "_start") (local $i i32)
  (i32.store (i32.const 0) (i32.const 64))
  (i32.store (i32.const 4) (i32.const 1))
  (loop $l
    (drop (call $f0 (i32.const 1) (i32.add (i32.const 256) (i32.mul (local.get $i) (i32.const 4)))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br_if $l (i32.lt_u (local.get $i) (i32.const {trips}))))))
"#,
        n = n_funcs,
        table = table.join(" "),
    )
}
