//! The data flow queries say how far they are: one step of known length per load followed
//! through the run, every unit of it reported; loads that never ran are not followed.

use wpp_dataflow::query::{open, LoadSelect};
use wpp_model::progress::Recorded;
use wpp_profile::Profile;
use wpp_record::{Builder, RecordMode, Recorder};
use wpp_report::Top;
use wpp_runtime::{RunConfig, Stdio};
use wpp_test_support::corpus;

#[test]
fn redundancy_reports_each_load_followed() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = corpus::bytes("dataflow");
    let (profile_path, twpp_path, module_path) = (dir.path().join("d.wpp"), dir.path().join("d.twpp"), dir.path().join("d.wasm"));
    std::fs::write(&module_path, &wasm).unwrap();
    let cfg = RunConfig { program_name: "dataflow".into(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    Recorder::from_bytes("dataflow", wasm).unwrap().mode(RecordMode::Grammar(Builder::Sequitur1)).run_config(cfg).record(&profile_path).unwrap();
    let profile = Profile::open(&profile_path).unwrap();
    wpp_twpp::build(&profile, &twpp_path, &mut wpp_model::progress::Quiet).unwrap();
    let a = open(&twpp_path, &module_path).unwrap();
    let mut some = false;
    for (func, _) in a.module.effects.iter() {
        let mut progress = Recorded::default();
        let report = a.redundancy(LoadSelect::Func(func), Top::All, &mut progress).unwrap();
        // A function none of whose loads ran is answered from the counts, with no walk.
        let Some((name, total, done)) = progress.stages.last().cloned() else {
            assert!(report.loads.is_empty(), "function {}: rows without a walk", func.0);
            continue;
        };
        assert!(name.contains("load"), "{name}");
        assert_eq!(Some(done), total, "function {}: {progress:?}", func.0);
        assert!(report.loads.len() as u64 <= done, "function {}: {} rows from {done} loads followed", func.0, report.loads.len());
        some |= done > 0;
    }
    assert!(some, "no function of the program has a load followed");
}
