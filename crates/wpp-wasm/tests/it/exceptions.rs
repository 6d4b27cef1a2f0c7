//! Exception handling in the CFG: catch edges from every instruction that may throw inside
//! a `try_table` to the clauses its exception may reach, a `throw`'s exit edge when no
//! clause is sure to catch it, and the refusal of the legacy instructions.

use wpp_model::{BlockIdx, EdgeKind, FuncIdx, Target};
use wpp_wasm::{decode, Error, LEGACY_EXCEPTIONS};

#[test]
fn legacy_instructions_are_refused_naming_the_standardized_form() {
    let wasm = wat::parse_str(r#"(module (tag $t) (func try throw $t catch $t end))"#).unwrap();
    match decode(&wasm) {
        Err(Error::Unsupported { feature, place }) => {
            assert_eq!(feature, LEGACY_EXCEPTIONS);
            assert!(feature.contains("try_table") && feature.contains("delegate"), "{feature}");
            assert!(place.contains("function"), "{place}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn throwing_instructions_get_catch_edges() {
    // Blocks: 0 ends in the call (inside both try_tables), 1 in the `if`, 2 is the throw of
    // $a, which the inner clause catches for sure, 3 the `if`'s end, 4 ends in throw_ref,
    // which the inner clause may catch and the outer catch_all does, 5 the ends of the
    // try_tables and of $inner, 6 the throw outside every try_table (where $inner's
    // clause lands), 7 $outer's end, 8 the function's end (where $outer's clause lands).
    let wasm = wat::parse_str(
        r#"(module
          (tag $a) (tag $b)
          (func $f)
          (func (param i32) (param exnref)
            (block $outer
              (block $inner
                (try_table (catch_all $outer)
                  (try_table (catch $a $inner)
                    (call $f)
                    (if (local.get 0) (then (throw $a)))
                    (throw_ref (local.get 1)))))
              (throw $b))))"#,
    )
    .unwrap();
    let program = decode(&wasm).unwrap();
    let cfg = program.cfg(FuncIdx(1)).unwrap();
    let edges = |b: u32| -> Vec<(Target, EdgeKind)> { cfg.edges.iter().filter(|e| e.from == BlockIdx(b)).map(|e| (e.to, e.kind)).collect() };
    let inner = Target::Block(BlockIdx(6));
    let outer = Target::Block(BlockIdx(8));
    // The call: on to the `if`, or to either handler.
    assert_eq!(edges(0), vec![(Target::Block(BlockIdx(1)), EdgeKind::Call), (inner, EdgeKind::Catch), (outer, EdgeKind::Catch)]);
    assert_eq!(edges(2), vec![(inner, EdgeKind::Catch)]);
    assert_eq!(edges(4), vec![(inner, EdgeKind::Catch), (outer, EdgeKind::Catch)]);
    assert_eq!(edges(6), vec![(Target::Exit, EdgeKind::Throw)]);
    assert_eq!(cfg.validate(), Ok(()));
}
