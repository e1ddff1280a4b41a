//! Writes a labelled set of rendered scenes: `DIR/images/NNNNNN.jpg`,
//! `DIR/labels/NNNNNN.json` and `DIR/synth.json` (what was made, how).
//!
//! Scene `n` of seed `s` is the same whatever the number of threads: each
//! scene draws from its own random stream.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::art::{Design, Split};
use crate::render::{jpeg, render, scene_seed};
use crate::scene::random_scene;

/// What to make.
#[derive(Clone, Debug)]
pub struct SynthOptions {
    /// Where to write.
    pub out: PathBuf,
    /// How many scenes.
    pub scenes: u64,
    /// The seed.
    pub seed: u64,
    /// Frame size.
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// Worker threads.
    pub threads: usize,
}

/// A set that could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SynthError {
    /// A file or folder could not be written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// Where.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// No design to draw with.
    #[error("no card designs to draw with")]
    NoDesigns,
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), SynthError> {
    std::fs::write(path, bytes).map_err(|e| SynthError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })
}

#[derive(serde::Serialize)]
struct Manifest<'a> {
    scenes: u64,
    seed: u64,
    width: u32,
    height: u32,
    designs: Vec<(&'a str, Split)>,
    images: &'static str,
    labels: &'static str,
}

/// Renders and writes the set; `progress` is told each finished scene (from
/// any thread).
pub fn write_set(
    options: &SynthOptions,
    designs: &[Design],
    progress: &(dyn Fn() + Sync),
) -> Result<(), SynthError> {
    if designs.is_empty() {
        return Err(SynthError::NoDesigns);
    }
    let images = options.out.join("images");
    let labels = options.out.join("labels");
    for dir in [&images, &labels] {
        std::fs::create_dir_all(dir).map_err(|e| SynthError::Write {
            path: dir.clone(),
            reason: e.to_string(),
        })?;
    }
    let manifest = Manifest {
        scenes: options.scenes,
        seed: options.seed,
        width: options.width,
        height: options.height,
        designs: designs.iter().map(|d| (d.name.as_str(), d.split)).collect(),
        images: "images/NNNNNN.jpg",
        labels: "labels/NNNNNN.json: width, height, design, cards [{card, corners, box, visible, index [{quad, box, visible}], role}]",
    };
    let text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    write(&options.out.join("synth.json"), text.as_bytes())?;
    let backs: Vec<usize> = designs.iter().map(Design::backs).collect();
    parallel_for(options.scenes, options.threads, &|n| {
        let seed = scene_seed(options.seed, n);
        let mut rng = StdRng::seed_from_u64(seed);
        let scene = random_scene(
            &mut rng,
            designs.len(),
            &backs,
            options.width,
            options.height,
            seed,
        );
        write_frame(&scene, designs, &images, &labels, n)?;
        progress();
        Ok(())
    })
}

/// Renders a scene and writes `images/NNNNNN.jpg` and `labels/NNNNNN.json`.
pub fn write_frame(
    scene: &crate::scene::Scene,
    designs: &[Design],
    images: &Path,
    labels: &Path,
    n: u64,
) -> Result<(), SynthError> {
    let rendered = render(scene, designs);
    let image_path = images.join(format!("{n:06}.jpg"));
    let bytes = jpeg(&rendered.image, scene.jpeg_quality).map_err(|e| SynthError::Write {
        path: image_path.clone(),
        reason: e.to_string(),
    })?;
    write(&image_path, &bytes)?;
    let json = serde_json::to_vec(&rendered.labels).unwrap_or_default();
    write(&labels.join(format!("{n:06}.json")), &json)
}

/// Runs `job(n)` for every `n` below `count` on `threads` threads; the first
/// failure stops the others and is returned.
pub fn parallel_for(
    count: u64,
    threads: usize,
    job: &(dyn Fn(u64) -> Result<(), SynthError> + Sync),
) -> Result<(), SynthError> {
    let next = AtomicU64::new(0);
    let failure = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= count {
                        break;
                    }
                    if let Err(e) = job(n) {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        next.store(count, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    match failure.into_inner() {
        Ok(Some(e)) => Err(e),
        _ => Ok(()),
    }
}

/// The designs on one side of the split, or all.
pub fn choose(designs: Vec<Design>, which: Option<Split>) -> Vec<Design> {
    designs
        .into_iter()
        .filter(|d| which.is_none_or(|w| d.split == w))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_written_the_same_whatever_the_threads() {
        let designs = choose(crate::art::embedded().expect("art"), Some(Split::HeldOut));
        assert_eq!(designs.len(), 1, "kenney is the held-out design");
        let dir = std::env::temp_dir().join(format!("pone-synth-{}", std::process::id()));
        let mut sets = Vec::new();
        for threads in [1, 2] {
            let out = dir.join(format!("t{threads}"));
            let options = SynthOptions {
                out: out.clone(),
                scenes: 3,
                seed: 9,
                width: 320,
                height: 180,
                threads,
            };
            let count = AtomicU64::new(0);
            write_set(&options, &designs, &|| {
                count.fetch_add(1, Ordering::Relaxed);
            })
            .expect("written");
            assert_eq!(count.load(Ordering::Relaxed), 3);
            let files: Vec<Vec<u8>> = (0..3)
                .flat_map(|n| {
                    [
                        out.join(format!("images/{n:06}.jpg")),
                        out.join(format!("labels/{n:06}.json")),
                    ]
                })
                .map(|p| std::fs::read(p).expect("file"))
                .collect();
            sets.push(files);
        }
        assert_eq!(sets[0], sets[1]);
        let labels: serde_json::Value = serde_json::from_slice(&sets[0][1]).expect("JSON");
        assert_eq!(labels["design"], "kenney");
        assert!(labels["cards"].as_array().is_some_and(|c| !c.is_empty()));
        let _ = std::fs::remove_dir_all(dir);
    }
}
