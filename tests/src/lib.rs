//! Shared fixtures of Pone's end-to-end tests (the tests are in `tests/tests.rs`,
//! one binary split into modules by area).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// A file of `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// The `pone` binary, built once per test run with the cargo that runs the tests.
///
/// # Panics
/// When the binary cannot be built: the tests cannot run without it.
pub fn pone() -> Command {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    let path = BINARY.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "pone-ui", "--bin", "pone"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building pone failed");
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
            || {
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("..")
                    .join("target")
            },
            PathBuf::from,
        );
        target.join("debug").join("pone")
    });
    Command::new(path)
}

/// Runs `pone` with `args` and returns what it printed.
///
/// # Panics
/// When it does not run or exits with failure (its stderr in the message).
pub fn pone_ok<I, S>(args: I) -> std::process::Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let output = pone().args(args).output().expect("pone runs");
    assert!(
        output.status.success(),
        "pone failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A fresh, empty temporary folder, removed with what it holds when the
/// test is done with it (a rendered sitting is tens of megabytes); kept, and
/// named on stderr, when the test fails, for reading what it wrote there.
pub struct Scratch(tempfile::TempDir);

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.disable_cleanup(true);
            eprintln!("kept for reading: {}", self.0.path().display());
        }
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

/// A fresh, empty temporary folder whose name starts `pone-{name}-`.
///
/// # Panics
/// When the system's temporary folder cannot be written: no test can run.
pub fn temp_dir(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("pone-{name}-"))
            .tempdir()
            .expect("a temporary folder"),
    )
}

/// Renders a sitting into a fresh folder: `pone synth --sitting` with its
/// seed, rounds, players and size, at 10 frames a second unless `more`
/// (more of `pone synth`'s arguments) says `--fps`.
///
/// # Panics
/// When `pone synth` fails (its stderr in the message).
pub fn rendered_sitting(
    name: &str,
    seed: u64,
    rounds: u32,
    players: u32,
    size: &str,
    more: &[&str],
) -> Scratch {
    let out = temp_dir(name);
    let rounds = rounds.to_string();
    let players = players.to_string();
    let seed = seed.to_string();
    let out_arg = out.to_string_lossy().into_owned();
    let mut args = vec![
        "synth",
        "--sitting",
        "--rounds",
        &rounds,
        "--players",
        &players,
        "--size",
        size,
        "--seed",
        &seed,
        "--out",
        &out_arg,
    ];
    args.extend_from_slice(more);
    if !more.contains(&"--fps") {
        args.extend_from_slice(&["--fps", "10"]);
    }
    pone_ok(args);
    out
}

/// The committed card reader model.
pub fn reader_model() -> PathBuf {
    models().join("reader.onnx")
}

/// The repository's models folder (the finder and the reader).
pub fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")
}
