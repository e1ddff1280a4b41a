//! Prints the index box found for every design of an art cache, to spot a
//! design whose index the ink search misreads:
//! `cargo run --release -p pone-vision --example design_boxes -- ~/.cache/pone/art`.

#[allow(clippy::print_stdout)] // a listing is what this example is for
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "art".into()));
    let splits =
        pone_vision::art::manifest_splits(std::path::Path::new("models/art/manifest.toml"))?;
    for design in pone_vision::art::from_cache(&cache, &splits)? {
        let Some(b) = design.index else {
            println!("{:<24} {:?}  no index corner", design.name, design.split);
            continue;
        };
        println!(
            "{:<24} {:?}  u {:.3}-{:.3}  v {:.3}-{:.3}  aspect {:.3}",
            design.name,
            design.split,
            b.u0,
            b.u1,
            b.v0,
            b.v1,
            design.aspect()
        );
    }
    Ok(())
}
