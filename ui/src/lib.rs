//! The `pone` binary's library: the side screen and the command-line tools.
//!
//! - [`screen`]: the side screen, an eframe window on a sitting.
//! - [`desk`]: the dealer's desk, a game kept from the dealer's keys.
//! - [`drill`]: settlement drills for dealers learning the game (`pone drill`).
//! - [`demo`]: a sitting that plays itself (`pone demo`, the side screen with no camera).
//! - [`cli`]: the subcommands (`pone replay`, `pone synth`, `pone demo`), as
//!   functions that take their arguments and a writer, so tests can run them
//!   without a process.
//! - [`live`]: `pone play`, frames to the engine through the recogniser and the tracker.
//! - [`setup`]: the sitting's setup in the window (players, rules, the cards' source).
//! - [`preview`]: what the camera chosen on the setup sees, before the sitting starts.
//! - [`see`]: `pone recognise` and `pone eval`, the card recogniser on still images.

pub mod cli;
pub mod demo;
pub mod desk;
pub mod drill;
pub mod live;
pub mod preview;
pub mod screen;
pub mod see;
pub mod setup;

/// Pone's own folder under a base directory of the XDG spec: `$var/pone`
/// when `var` is set to an absolute path, else `~/<home_dir>/pone`
/// (`XDG_CACHE_HOME` and `.cache`; `XDG_CONFIG_HOME` and `.config`).
#[must_use]
pub fn xdg_folder(var: &str, home_dir: &str) -> Option<std::path::PathBuf> {
    let base = std::env::var_os(var)
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(home_dir))
        })?;
    Some(base.join("pone"))
}

/// Lowers the calling thread's priority below the window's, for threads
/// that read or render beside it (the recogniser, the demo's renderer, the
/// camera's preview): on two cores the window's frames come first, and a
/// reading a few milliseconds late costs nothing the table sees. Threads it
/// starts afterwards inherit it. Where the system will not, it stays as it
/// was.
pub fn yield_to_the_window() {
    /// The nice value: above the window's 0, below the most (19), so the
    /// thread still runs when the window is idle.
    #[cfg(target_os = "linux")]
    const BEHIND_THE_WINDOW: i32 = 10;
    #[cfg(target_os = "linux")]
    {
        let thread = rustix::thread::gettid();
        if let Err(e) = rustix::process::setpriority_process(Some(thread), BEHIND_THE_WINDOW) {
            tracing::debug!("a thread's priority was not lowered: {e}");
        }
    }
}
