//! The static classes of the dependences a run exercised (recorded directly,
//! `wpp_test_support::deps`), as Tallam and Gupta's Table VIII counts them, and the claim
//! that makes fixed-cost checks enough: a store to a constant address is depended on
//! only through its latest instance.

use std::collections::BTreeMap;

use wpp_dataflow::dep_class::{Classifier, DepClass};
use wpp_model::effects::{Action, Base};
use wpp_runtime::{run_block_log, RunConfig, Stdio};
use wpp_test_support::deps::{DirectDeps, Writer};
use wpp_test_support::{corpus, workloads};

/// Dynamic dependences by class, and the checks on them.
fn classes(name: &str, wasm: &[u8], cfg: &RunConfig) -> BTreeMap<DepClass, u64> {
    let program = wpp_wasm::decode(wasm).unwrap();
    let effects = wpp_wasm::effects(wasm, &program).unwrap();
    let logged = wpp_wasm::instrument_access_log(wasm, &program).unwrap();
    let (_, d) = run_block_log(&wpp_runtime::engine().unwrap(), &logged, cfg, DirectDeps::default()).unwrap();
    let classifier = Classifier::new(program.functions.iter().map(|f| f.cfg.as_ref()).collect(), &effects);
    let constant: std::collections::HashSet<u32> = effects
        .iter()
        .flat_map(|(_, fx)| fx.blocks.iter().flatten())
        .filter_map(|a| match *a {
            Action::Store { access, at } if access.base == Base::Const => Some(at),
            _ => None,
        })
        .collect();
    let mut by_class = BTreeMap::new();
    for ((writer, load), e) in &d.deps {
        let Writer::Instruction(store) = *writer else { continue };
        let class = classifier.classify(store, *load).unwrap_or_else(|| panic!("{name}: no class for {store:#x} -> {load:#x}"));
        *by_class.entry(class).or_insert(0) += e.count;
        if constant.contains(&store) {
            assert_eq!(e.earlier_instance, 0, "{name}: the constant store at {store:#x} reached the load at {load:#x} through an earlier instance");
        }
    }
    by_class
}

fn table(name: &str, c: &BTreeMap<DepClass, u64>) {
    let total: u64 = c.values().sum::<u64>();
    let share = |k| 100.0 * c.get(&k).copied().unwrap_or(0) as f64 / total.max(1) as f64;
    eprintln!(
        "{name}: {total} dependences: fully free {:.1}%, partially free {:.1}%, fixed {:.1}%, variable {:.1}%",
        share(DepClass::FullyFree),
        share(DepClass::PartiallyFree),
        share(DepClass::FixedCost),
        share(DepClass::VariableCost)
    );
}

#[test]
fn wat_programs() {
    for name in corpus::names() {
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        table(&name, &classes(&name, &corpus::bytes(&name), &cfg));
    }
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = workloads::load_run(m, p, run);
    let c = classes(&p.name, &wasm, &cfg);
    assert!(c.values().sum::<u64>() > 0, "{}: no dependence exercised", p.name);
    table(&p.name, &c);
});
