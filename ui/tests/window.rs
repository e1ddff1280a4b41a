//! The real window: `pone --exit-after SECONDS` opens the side screen on the
//! demo sitting under Xvfb (no display or camera here), plays, and exits
//! cleanly with code 0. `scripts/setup` installs Xvfb.

use std::process::Command;

#[test]
fn the_window_opens_plays_and_exits_cleanly() {
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_pone"))
        .args(["--exit-after", "4"])
        .status()
        .expect("xvfb-run (the xvfb package: run ./scripts/setup)");
    assert!(status.success(), "pone --exit-after 4 ended with {status}");
}
