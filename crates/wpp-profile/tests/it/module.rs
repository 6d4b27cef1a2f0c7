//! Section `module`: the identity of the module a profile was recorded from.
//!
//! It round-trips; a profile without it (an older wpp's, or `wpp compress`'s) reads as
//! before and has no identity; [`Profile::check_module`] accepts the recorded module's
//! bytes and refuses any other, and a profile without the section, with errors naming both
//! files; a damaged section gives an error, never a panic.

use std::path::{Path, PathBuf};

use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeKind, FuncIdx, Function, PathId, Target};
use wpp_profile::{section, Ending, Error, Meta, ModuleId, PathCount, Profile, RecordMode, Writer};

const WASM: &[u8] = b"\0asm\x01\0\0\0 a module that ran";

/// A directory of its own for each test, emptied first.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wpp-profile-module").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One function of one block that returns.
fn meta(module_bytes: u64) -> Meta {
    let cfg = Cfg { blocks: vec![Block { start: 0, end: 4, n_instrs: 1 }], edges: vec![Edge { from: BlockIdx(0), to: Target::Exit, kind: EdgeKind::Return }] };
    cfg.validate().unwrap();
    Meta {
        module: "demo.wasm".into(),
        module_bytes,
        mode: RecordMode::Paths,
        max_paths: u64::MAX,
        functions: vec![Function { index: FuncIdx(0), name: "main".into(), cfg: Some(cfg) }],
        args: Vec::new(),
        ending: Ending::Exited(0),
        guest_nanos: 1,
        events: 1,
    }
}

/// A profile of `meta`, then each of `extra` as a section.
fn write(path: &Path, meta: &Meta, extra: &[(&str, Vec<u8>)]) {
    let mut w = Writer::create(path).unwrap();
    w.write_value(section::META, meta).unwrap();
    w.write_value(section::COUNTS, &vec![PathCount { func: FuncIdx(0), path: PathId(0), count: 1 }]).unwrap();
    for (name, bytes) in extra {
        w.write_section(name, bytes).unwrap();
    }
    w.finish().unwrap();
}

/// A profile recorded from [`WASM`], with its `module` section.
fn recorded(dir: &Path) -> PathBuf {
    let path = dir.join("demo.wpp");
    write(&path, &meta(WASM.len() as u64), &[(section::MODULE, postcard::to_stdvec(&ModuleId::of(WASM)).unwrap())]);
    path
}

#[test]
fn module_id_is_the_sha256_and_length() {
    let id = ModuleId::of(b"abc");
    // FIPS 180-2, appendix B.1.
    assert_eq!(id.sha256_hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_eq!(id.bytes, 3);
    assert_ne!(ModuleId::of(b"abd"), id);
}

#[test]
fn the_section_round_trips() {
    let dir = scratch("round_trip");
    let p = Profile::open(&recorded(&dir)).unwrap();
    assert_eq!(p.module_id().unwrap(), Some(ModuleId::of(WASM)));
    // Postcard: 32 bytes of hash, then the length as a varint.
    assert_eq!(p.section_bytes(section::MODULE).unwrap().len(), 33);
}

#[test]
fn a_profile_without_the_section_has_no_module_id() {
    let dir = scratch("without");
    let path = dir.join("old.wpp");
    write(&path, &meta(WASM.len() as u64), &[]);
    let p = Profile::open(&path).unwrap();
    assert_eq!(p.module_id().unwrap(), None);
    let e = p.check_module(Path::new("demo.wasm"), WASM).unwrap_err();
    assert!(matches!(&e, Error::NoModuleHash { path: p } if *p == path), "{e:?}");
    assert!(!e.is_failure());
    assert_eq!(
        e.to_string(),
        format!("{}: records no module hash (written by an older wpp or by `wpp compress`); record it again to use it with a module", path.display())
    );
}

#[test]
fn check_module_accepts_the_recorded_module_only() {
    let dir = scratch("check");
    let path = recorded(&dir);
    let p = Profile::open(&path).unwrap();
    p.check_module(Path::new("demo.wasm"), WASM).unwrap();

    // Same length, one byte changed.
    let mut other = WASM.to_vec();
    *other.last_mut().unwrap() ^= 1;
    for other in [other, WASM[..WASM.len() - 1].to_vec(), Vec::new()] {
        let e = p.check_module(Path::new("other.wasm"), &other).unwrap_err();
        let Error::WrongModule { module, profile, found, recorded } = &e else { panic!("{e:?}") };
        assert_eq!((module.as_path(), profile.as_path()), (Path::new("other.wasm"), path.as_path()));
        assert_eq!((**found, **recorded), (ModuleId::of(&other), ModuleId::of(WASM)));
        assert!(!e.is_failure());
        assert_eq!(
            e.to_string(),
            format!(
                "other.wasm: not the module {} was recorded from (its SHA-256 is {}…, the profile's {}…); pass the module that was recorded",
                path.display(),
                &found.sha256_hex()[..8],
                &recorded.sha256_hex()[..8],
            )
        );
    }
}

#[test]
fn a_damaged_section_gives_an_error() {
    let dir = scratch("damaged");
    let good = postcard::to_stdvec(&ModuleId::of(WASM)).unwrap();
    let mut cases: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), Vec::new()),
        ("hash cut short".into(), good[..20].to_vec()),
        ("no length".into(), good[..32].to_vec()),
        ("length past u64".into(), [&good[..32], &[0xff; 11][..]].concat()),
        ("length other than meta's".into(), postcard::to_stdvec(&ModuleId { bytes: 7, ..ModuleId::of(WASM) }).unwrap()),
    ];
    for i in 0..good.len() {
        let mut b = good.clone();
        b.truncate(i);
        cases.push((format!("cut at {i}"), b));
    }
    for (i, (what, bytes)) in cases.iter().enumerate() {
        let path = dir.join(format!("damaged{i}.wpp"));
        write(&path, &meta(WASM.len() as u64), &[(section::MODULE, bytes.clone())]);
        let p = Profile::open(&path).unwrap_or_else(|e| panic!("{what}: the rest of the profile reads: {e}"));
        let e = p.module_id().expect_err(what);
        assert!(matches!(&e, Error::Corrupt { path: p, what } if *p == path && what.contains("section `module`")), "{what}: {e:?}");
        assert!(!e.is_failure());
        let e = p.check_module(Path::new("demo.wasm"), WASM).expect_err(what);
        assert!(matches!(e, Error::Corrupt { .. }), "{what}: {e:?}");
    }

    // A bad checksum.
    let path = recorded(&dir);
    let mut bytes = std::fs::read(&path).unwrap();
    let p = Profile::open(&path).unwrap();
    let entry = p.toc.iter().find(|e| e.name == section::MODULE).unwrap();
    bytes[entry.offset as usize] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let p = Profile::open(&path).unwrap();
    let e = p.module_id().unwrap_err();
    assert!(e.to_string().contains("checksum mismatch in section `module`"), "{e}");
}
