//! Embeds the web client and the rules text in the binary:
//! - every file under `web/` becomes an entry of `assets.rs` (path, bytes), served
//!   by `assets::serve`, so adding a module to the page needs no Rust change;
//! - `docs/rules.md`, if it exists at build time (the rules page renders it).
use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));

    let src = Path::new("../../docs/rules.md");
    println!("cargo:rerun-if-changed=../../docs/rules.md");
    println!("cargo:rerun-if-changed=../../docs");
    let text = std::fs::read_to_string(src).unwrap_or_else(|_| {
        "# Rules\n\nThe rules text (docs/rules.md) was not there when this server was built.\n"
            .into()
    });
    std::fs::write(out.join("rules.md"), text).expect("write rules.md");

    let web = Path::new("../../web")
        .canonicalize()
        .expect("the web/ folder");
    let mut files = Vec::new();
    walk(&web, &web, &mut files);
    files.sort();
    let mut table =
        String::from("/// Every file of `web/`: its path below `web/` and its bytes.\n");
    table.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in &files {
        table.push_str(&format!("    ({rel:?}, include_bytes!({abs:?})),\n"));
    }
    table.push_str("];\n");
    std::fs::write(out.join("assets.rs"), table).expect("write assets.rs");
}

/// Collects the files below `dir` (skipping hidden ones) and asks Cargo to rebuild
/// when any of them, or the list of them, changes.
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, files);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
            let rel = path.strip_prefix(root).expect("below web/");
            let rel = rel.to_string_lossy().replace('\\', "/");
            files.push((rel, path.to_string_lossy().into_owned()));
        }
    }
}
