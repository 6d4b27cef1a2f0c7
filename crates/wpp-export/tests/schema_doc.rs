//! `docs/parquet.md` holds the schema as `wpp_export::schema::markdown` writes it, between
//! its markers (`BLESS=1` rewrites it there), and every table's columns are unique.

use std::collections::BTreeSet;

const START: &str = "<!-- schema: made by wpp_export::schema::markdown -->\n";
const END: &str = "<!-- end of schema -->";

#[test]
fn docs_hold_the_schema() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/parquet.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (Some(a), Some(b)) = (doc.find(START), doc.find(END)) else { panic!("{}: the schema's markers are missing", path.display()) };
    let made = wpp_export::schema::markdown();
    let held = &doc[a + START.len()..b];
    if held != made {
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&path, format!("{}{made}{}", &doc[..a + START.len()], &doc[b..])).unwrap();
        } else {
            panic!("{} does not hold the schema as the code has it; rerun with BLESS=1 and review the change", path.display());
        }
    }
}

#[test]
fn columns_are_unique_and_tables_keyed() {
    for t in wpp_export::schema::SCHEMA {
        let names: BTreeSet<&str> = t.columns.iter().map(|c| c.name).collect();
        assert_eq!(names.len(), t.columns.len(), "{}: a column twice", t.name);
        let key = match t.key {
            wpp_export::schema::Key::Run => "run",
            wpp_export::schema::Key::Module => "module",
        };
        assert_eq!(t.columns[0].name, key, "{}: the first column is its key", t.name);
    }
}
