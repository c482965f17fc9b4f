//! Builds the web interface (ui/ -> ui/dist) so `cargo build` alone produces a complete binary.
//!
//! The UI is rebuilt only when one of its inputs is newer than ui/dist/index.html, so debug,
//! release and clippy builds share one UI build. `SKIP_UI_BUILD=1` uses ui/dist as it is.
//!
//! The files it writes get the time of the newest input as their modification time: cargo
//! reruns a build script when a watched file is newer than the moment it last started it, so
//! files stamped "now" would make the next build (the test command after the README's build)
//! do it all again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const INPUTS: &[&str] = &[
    "ui/src",
    "ui/public",
    "ui/scripts",
    "ui/index.html",
    "ui/package.json",
    "ui/package-lock.json",
    "ui/vite.config.ts",
    "ui/tsconfig.json",
];

fn main() {
    for input in INPUTS {
        println!("cargo:rerun-if-changed={input}");
    }
    println!("cargo:rerun-if-changed=ui/dist/index.html");
    println!("cargo:rerun-if-env-changed=SKIP_UI_BUILD");
    order_symbols();

    let ui = PathBuf::from("ui");
    let built = ui.join("dist/index.html");

    if std::env::var_os("SKIP_UI_BUILD").is_some() {
        if !built.exists() {
            fail(
                "SKIP_UI_BUILD is set but ui/dist/index.html does not exist; build the UI first (cd ui && npm ci && npm run build)",
            );
        }
        return;
    }
    if built.exists() && newest(INPUTS.iter().map(Path::new)) <= modified(&built) {
        return;
    }
    if Command::new("npm").arg("--version").output().is_err() {
        if built.exists() {
            println!(
                "cargo:warning=npm not found; using the existing ui/dist, which may be out of date"
            );
            return;
        }
        fail("npm is needed to build the web interface (install Node.js 20 or newer)");
    }
    let lock = ui.join("package-lock.json");
    let installed = ui.join("node_modules/.package-lock.json");
    if !installed.exists() || modified(&lock) > modified(&installed) {
        // `--no-save` installs from the lock file and never rewrites it (`npm ci` would be
        // stricter, but refuses this lock for optional platform packages npm left out).
        progress("installing the web interface's packages (npm install --no-save)");
        run(&ui, &["install", "--no-save", "--no-audit", "--no-fund"]);
    }
    progress("building the web interface (vite); it is embedded in the binary");
    run(&ui, &["run", "build"]);
    stamp(&ui.join("dist"), newest(INPUTS.iter().map(Path::new)));
}

/// Cargo shows a build script's output only as warnings; a minute of silence looks like a hang.
fn progress(what: &str) {
    println!("cargo:warning=highchair: {what}");
}

/// Sets the modification time of every file under `dir` to `time`.
fn stamp(dir: &Path, time: SystemTime) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            stamp(&path, time);
        } else if let Ok(file) = std::fs::File::options().write(true).open(&path) {
            let _ = file.set_modified(time);
        }
    }
}

fn run(dir: &Path, args: &[&str]) {
    let output = Command::new("npm")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run npm: {e}")));
    if !output.status.success() {
        let mut log = String::from_utf8_lossy(&output.stdout).into_owned();
        log.push_str(&String::from_utf8_lossy(&output.stderr));
        fail(&format!("`npm {}` failed in ui/:\n{log}", args.join(" ")));
    }
}

fn modified(path: &Path) -> SystemTime {
    path.metadata()
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// The newest modification time of the given files and everything under the given directories.
fn newest<'a>(paths: impl Iterator<Item = &'a Path>) -> SystemTime {
    paths
        .map(|path| {
            let own = modified(path);
            if !path.is_dir() {
                return own;
            }
            let children = std::fs::read_dir(path)
                .map(|entries| entries.flatten().map(|e| e.path()).collect::<Vec<_>>())
                .unwrap_or_default();
            newest(children.iter().map(PathBuf::as_path)).max(own)
        })
        .max()
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// Functions a release build runs at start-up and for requests, first in the binary
/// (packaging/symbol-order.txt, written by scripts/symbol-order.py): the kernel maps code 64 KiB
/// around each page touched, so start-up code spread over the binary made most of it resident.
/// Only where the linker is LLD (the default for x86_64 Linux since Rust 1.90); a name the file
/// has and the binary has not is skipped quietly.
fn order_symbols() {
    const ORDER: &str = "packaging/symbol-order.txt";
    println!("cargo:rerun-if-changed={ORDER}");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let lld_by_default = var("TARGET") == "x86_64-unknown-linux-gnu"
        && rustc_minor().is_some_and(|minor| minor >= 90)
        && !var("CARGO_ENCODED_RUSTFLAGS").contains("link");
    if var("PROFILE") != "release" || !lld_by_default || !Path::new(ORDER).exists() {
        return;
    }
    let order = Path::new(&var("CARGO_MANIFEST_DIR")).join(ORDER);
    println!(
        "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        order.display()
    );
    println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
}

/// The minor version of the compiler building this crate (`rustc 1.95.0 (...)` -> 95).
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    text.split_whitespace()
        .nth(1)?
        .split('.')
        .nth(1)?
        .parse()
        .ok()
}
