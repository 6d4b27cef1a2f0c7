//! A module given in the text format is the module its binary is; text that is not a
//! module stays what it is, for the decoder to name.

use wpp_wasm::{decode, module_binary, Error};

const TEXT: &str = ";; a comment\n(; and a block comment ;)\n(module (func (export \"_start\") (local i32) (local.set 0 (i32.const 1))))";

#[test]
fn text_is_translated_to_the_same_binary() {
    let binary = module_binary(TEXT.as_bytes().to_vec()).unwrap();
    assert_eq!(binary, wat::parse_str(TEXT).unwrap());
    assert_eq!(module_binary(binary.clone()).unwrap(), binary, "a binary is left as it is");
    assert_eq!(decode(&binary).unwrap().functions.len(), 1);
}

#[test]
fn broken_text_says_where() {
    let e = module_binary(b"(module (func (i32.add)))\n(module (func $f (foo)))".to_vec()).unwrap_err();
    assert!(matches!(e, Error::Text(_)), "{e:?}");
    let message = e.to_string();
    assert!(message.starts_with("the WebAssembly text does not parse: "), "{message}");
    assert!(message.contains(":2:"), "the line of the error: {message}");
}

#[test]
fn other_text_is_left_for_the_decoder() {
    let notes = b"these are notes, not a module\n".to_vec();
    assert_eq!(module_binary(notes.clone()).unwrap(), notes);
    let e = decode(&notes).unwrap_err();
    assert_eq!(e.to_string(), "not a WebAssembly module (text starting \"these are notes,\")");
}
