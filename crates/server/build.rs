//! Embeds docs/rules.md if it exists at build time (the rules page renders it).
use std::path::Path;

fn main() {
    let src = Path::new("../../docs/rules.md");
    println!("cargo:rerun-if-changed=../../docs/rules.md");
    println!("cargo:rerun-if-changed=../../docs");
    let text = std::fs::read_to_string(src).unwrap_or_else(|_| {
        "# Rules\n\nThe rules text (docs/rules.md) was not there when this server was built.\n"
            .into()
    });
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&out).join("rules.md"), text).expect("write rules.md");
}
