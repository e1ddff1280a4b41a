//! The reader's model: ONNX Runtime found and loaded at run time (ort's
//! `load-dynamic`), and a corner classifier that reads index-corner crops.
//!
//! The runtime is the library of the `onnxruntime` wheel from `PyPI`, which
//! `scripts/setup` unpacks into `.cache/onnxruntime/`. [`Runtime::get`] finds
//! it there (from the current folder or the program's, upwards) or at
//! `ORT_DYLIB_PATH`, and says what to install when it cannot.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use image::RgbImage;
use ort::session::Session;
use ort::value::TensorRef;

/// The ONNX Runtime version the `ort` bindings speak (API 31).
pub const ORT_VERSION: &str = "1.31.1";

/// Why the model cannot be used.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The ONNX Runtime library is not there.
    #[error(
        "ONNX Runtime {ORT_VERSION} was not found ({0}): run ./scripts/setup, which fetches the onnxruntime wheel from PyPI into .cache/onnxruntime, or set ORT_DYLIB_PATH to a libonnxruntime.so.{ORT_VERSION}"
    )]
    NoRuntime(String),
    /// The library is there but will not load.
    #[error("ONNX Runtime at {path} would not load: {reason} (it must be version {ORT_VERSION})")]
    BadRuntime {
        /// The library.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The model file cannot be used.
    #[error("the model {path} cannot be used: {reason} (models/README.md says how to rebuild it)")]
    Model {
        /// The model.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Inference failed.
    #[error("reading failed: {0}")]
    Run(String),
}

/// ONNX Runtime, loaded once for the process.
#[derive(Debug)]
pub struct Runtime {
    environment: ort::environment::Environment,
}

static RUNTIME: OnceLock<Result<Runtime, ModelError>> = OnceLock::new();

fn library_name() -> String {
    format!("libonnxruntime.so.{ORT_VERSION}")
}

/// Where to look for the library: `ORT_DYLIB_PATH`, then `.cache/onnxruntime`
/// in the current folder, the program's folder, and their parents.
fn candidates() -> Vec<PathBuf> {
    let mut found = Vec::new();
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH") {
        found.push(PathBuf::from(path));
    }
    let starts = [std::env::current_dir().ok(), std::env::current_exe().ok()];
    for start in starts.into_iter().flatten() {
        for dir in start.ancestors() {
            found.push(
                dir.join(".cache/onnxruntime/onnxruntime/capi")
                    .join(library_name()),
            );
        }
    }
    found
}

impl Runtime {
    /// The process's ONNX Runtime, loaded on first use.
    pub fn get() -> Result<&'static Runtime, ModelError> {
        RUNTIME
            .get_or_init(|| {
                let tried = candidates();
                let path = tried.iter().find(|p| p.is_file()).ok_or_else(|| {
                    ModelError::NoRuntime(format!("looked for {}", library_name()))
                })?;
                Runtime::load_from(path)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn load_from(path: &Path) -> Result<Runtime, ModelError> {
        let bad = |reason: String| ModelError::BadRuntime {
            path: path.to_owned(),
            reason,
        };
        let environment = ort::init_from(path)
            .map_err(|e| bad(e.to_string()))?
            .with_name("pone")
            .build()
            .map_err(|e| bad(e.to_string()))?;
        Ok(Runtime { environment })
    }
}

/// An ONNX Runtime session for the model at `path`, run on `threads` threads.
pub fn session(path: &Path, threads: usize) -> Result<Session, ModelError> {
    let runtime = Runtime::get()?;
    let bad = |reason: String| ModelError::Model {
        path: path.to_owned(),
        reason,
    };
    if !path.is_file() {
        return Err(bad(
            "there is no such file (the models are in the repository's models/ folder)".into(),
        ));
    }
    Session::builder(&runtime.environment)
        .map_err(|e| bad(e.to_string()))?
        .with_optimization_level(ort::session::builder::GraphOptimizationLevel::All)
        .map_err(|e| bad(e.to_string()))?
        .with_intra_threads(threads)
        .map_err(|e| bad(e.to_string()))?
        // No spinning between runs: the recogniser's networks run one after
        // another, each with its own threads, and a window draws beside them;
        // a pool spinning while another works took its cores (the corner
        // reader on two threads beside a spinning finder: 47 ms a frame, not 16).
        .with_intra_op_spinning(false)
        .map_err(|e| bad(e.to_string()))?
        .commit_from_file(path)
        .map_err(|e| bad(e.to_string()))
}

/// Runs a model of one float input and one float output: the output's shape and values.
pub fn run(
    session: &mut Session,
    input: &ndarray::Array4<f32>,
) -> Result<(Vec<i64>, Vec<f32>), ModelError> {
    let tensor = TensorRef::from_array_view(input).map_err(|e| ModelError::Run(e.to_string()))?;
    let outputs = session
        .run(ort::inputs![tensor])
        .map_err(|e| ModelError::Run(e.to_string()))?;
    let (shape, values) = outputs[0]
        .try_extract_tensor::<f32>()
        .map_err(|e| ModelError::Run(e.to_string()))?;
    Ok((shape.to_vec(), values.to_vec()))
}

/// An image classifier: the corner reader (index-corner crops,
/// [`crate::reader::cut_window`]) or the whole-card reader (a picture of one card).
///
/// Input: float32 `[N, 3, H, W]`, RGB in 0..1, all images the same size.
/// Output: `[N, classes]` probabilities (a softmax), the classes in
/// [`Classifier::classes`] order.
pub struct Classifier {
    session: Session,
    classes: Vec<String>,
    path: PathBuf,
}

/// One reading: the class (`QH` or `back`) and how sure the model is.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The class.
    pub class: String,
    /// Its probability.
    pub confidence: f32,
}

impl Classifier {
    /// Loads a model and its class list (`classes`, in output order), to run
    /// on `threads` threads.
    pub fn load(
        path: &Path,
        classes: Vec<String>,
        threads: usize,
    ) -> Result<Classifier, ModelError> {
        let session = session(path, threads.max(1))?;
        if session.inputs().len() != 1 || session.outputs().is_empty() {
            return Err(ModelError::Model {
                path: path.to_owned(),
                reason: "expected one input (crops) and an output (probabilities)".into(),
            });
        }
        Ok(Classifier {
            session,
            classes,
            path: path.to_owned(),
        })
    }

    /// Loads `NAME.onnx` with the classes listed in `NAME.classes.txt` beside
    /// it, to run on one thread.
    pub fn open(path: &Path) -> Result<Classifier, ModelError> {
        Classifier::open_on(path, 1)
    }

    /// [`Classifier::open`], to run on `threads` threads.
    pub fn open_on(path: &Path, threads: usize) -> Result<Classifier, ModelError> {
        let list = path.with_extension("classes.txt");
        let text = std::fs::read_to_string(&list).map_err(|e| ModelError::Model {
            path: list.clone(),
            reason: e.to_string(),
        })?;
        let classes = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        Classifier::load(path, classes, threads)
    }

    /// The classes, in output order.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// The image size `(width, height)` the model takes, when its input has a
    /// fixed size (`None` when it takes any).
    pub fn input_size(&self) -> Option<(u32, u32)> {
        let ort::value::ValueType::Tensor { shape, .. } = self.session.inputs().first()?.dtype()
        else {
            return None;
        };
        match shape[..] {
            [_, _, h, w] if h > 0 && w > 0 => {
                Some((u32::try_from(w).ok()?, u32::try_from(h).ok()?))
            }
            _ => None,
        }
    }

    /// The probabilities of every class for each image.
    pub fn probabilities(&mut self, crops: &[RgbImage]) -> Result<Vec<Vec<f32>>, ModelError> {
        let Some(first) = crops.first() else {
            return Ok(Vec::new());
        };
        let (w, h) = first.dimensions();
        let mut input = ndarray::Array4::<f32>::zeros((crops.len(), 3, h as usize, w as usize));
        for (crop, mut planes) in crops.iter().zip(input.outer_iter_mut()) {
            if crop.dimensions() != (w, h) {
                return Err(ModelError::Run(
                    "crops of different sizes in one batch".into(),
                ));
            }
            let Some(planes) = planes.as_slice_mut() else {
                continue;
            };
            let (red, rest) = planes.split_at_mut((w * h) as usize);
            let (green, blue) = rest.split_at_mut((w * h) as usize);
            let pixels = crop.as_raw().chunks_exact(3);
            for (((r, g), b), p) in red.iter_mut().zip(green).zip(blue).zip(pixels) {
                (*r, *g, *b) = (
                    f32::from(p[0]) / 255.0,
                    f32::from(p[1]) / 255.0,
                    f32::from(p[2]) / 255.0,
                );
            }
        }
        let (shape, values) = run(&mut self.session, &input)?;
        let classes = shape.last().copied().unwrap_or(0) as usize;
        if classes != self.classes.len() || values.len() != classes * crops.len() {
            return Err(ModelError::Model {
                path: self.path.clone(),
                reason: format!(
                    "it gives {classes} classes, its class list has {}",
                    self.classes.len()
                ),
            });
        }
        Ok(values.chunks(classes).map(<[f32]>::to_vec).collect())
    }

    /// The most likely class for each crop, with its probability.
    pub fn read(&mut self, crops: &[RgbImage]) -> Result<Vec<Reading>, ModelError> {
        let classes = self.classes.clone();
        Ok(self
            .probabilities(crops)?
            .into_iter()
            .map(|p| {
                let (best, confidence) = p
                    .iter()
                    .copied()
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .unwrap_or((0, 0.0));
                Reading {
                    class: classes.get(best).cloned().unwrap_or_default(),
                    confidence,
                }
            })
            .collect())
    }
}
