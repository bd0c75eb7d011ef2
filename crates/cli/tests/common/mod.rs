//! Runs the built `chaupar` binary for the CLI tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `chaupar ARGS` with `stdin` on its standard input.
pub fn chaupar(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaupar"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run chaupar");
    let mut input = child.stdin.take().expect("chaupar's standard input");
    // A command that refuses its arguments exits without reading its input,
    // and may have closed the pipe before this writes: its answer (status,
    // messages) is what the test reads, so that is not a failure here.
    match input.write_all(stdin.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            panic!("writing to chaupar: {e}")
        }
        _ => {}
    }
    drop(input);
    child.wait_with_output().unwrap()
}
