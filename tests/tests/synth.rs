//! `pone synth`: rendered scenes and sittings, from the outside.

use pone_tests::{Scratch, pone_ok, rendered_sitting, temp_dir};
use serde_json::Value;

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// Renders a sitting at 4 frames a second: the folder and its `sitting.json`.
fn sitting_at_4_fps(name: &str, seed: u64, rounds: u32, size: &str) -> (Scratch, Value) {
    let out = rendered_sitting(name, seed, rounds, 3, size, &["--fps", "4"]);
    let sitting =
        serde_json::from_slice(&std::fs::read(out.join("sitting.json")).expect("sitting.json"))
            .expect("JSON");
    (out, sitting)
}

/// Frame `f`'s labels in a rendered sitting.
fn frame_label(out: &std::path::Path, f: u64) -> Value {
    serde_json::from_slice(
        &std::fs::read(out.join(format!("labels/{f:06}.json"))).expect("a label per frame"),
    )
    .expect("JSON")
}

#[test]
fn a_scene_set_has_an_image_and_labels_for_every_scene() {
    let out = temp_dir("scenes");
    let out_arg = out.to_string_lossy();
    pone_ok([
        "synth",
        "--scenes",
        "3",
        "--seed",
        "4",
        "--size",
        "320x180",
        "--designs",
        "held-out",
        "--out",
        &out_arg,
    ]);
    for n in 0..3 {
        assert!(out.join(format!("images/{n:06}.jpg")).is_file());
        let labels: Value = serde_json::from_slice(
            &std::fs::read(out.join(format!("labels/{n:06}.json"))).expect("labels"),
        )
        .expect("JSON");
        assert_eq!(labels["design"], "kenney");
        assert_eq!(labels["width"], 320);
    }
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(out.join("synth.json")).expect("manifest"))
            .expect("JSON");
    assert_eq!(manifest["scenes"], 3);
}

#[test]
fn a_rendered_sitting_replays_and_its_frames_match_its_scripts() {
    let (out, sitting) = sitting_at_4_fps("sitting", 12, 2, "320x180");
    let frames = sitting["frames"].as_u64().expect("frames");
    assert_eq!(sitting["rounds"], 2);
    assert_eq!(
        std::fs::read_dir(out.join("frames"))
            .expect("frames")
            .count() as u64,
        frames
    );
    let truth = lines(&out.join("truth.jsonl"));
    let dealer = lines(&out.join("dealer.jsonl"));
    let mut last = 0;
    for line in &truth {
        let frame = line["frame"].as_u64().expect("every line has its frame");
        assert!(frame < frames && frame >= last, "frames in order: {line}");
        last = frame;
    }
    assert!(
        truth
            .iter()
            .any(|l| l["t"] == "card" && l["card"].is_string())
    );
    assert!(
        dealer.iter().all(|l| l["t"] != "card"),
        "the camera supplies the cards"
    );
    assert!(dealer.iter().any(|l| l["t"] == "stake"));
    // Every dealer line is a truth line at the same frame, but for a player's
    // "content" on a hand that made 21 by drawing: the truth knows his
    // face-down cards and stands the hand by itself; the camera does not.
    for line in &dealer {
        if truth.contains(line) {
            continue;
        }
        assert_eq!(line["t"], "content", "{line}");
        let frame = line["frame"].as_u64();
        let drew_21 = truth
            .iter()
            .any(|t| t["t"] == "card" && t["to"] == line["player"] && t["frame"].as_u64() == frame);
        assert!(drew_21, "{line}: no card to that player at that frame");
    }

    // Each round ends with the hands on the table turned up, so the camera
    // sees what was dealt face down: a run of frames where every card in the
    // hands of two seats or more shows its face.
    let mut showdowns = 0;
    let mut in_showdown = false;
    for f in 0..frames {
        let label = frame_label(&out, f);
        let in_hands: Vec<&Value> = label["cards"]
            .as_array()
            .expect("cards")
            .iter()
            .filter(|c| c["role"]["at"] == "hand")
            .collect();
        let mut seats: Vec<&Value> = in_hands.iter().map(|c| &c["role"]["seat"]).collect();
        seats.dedup();
        let all_up = seats.len() >= 2 && in_hands.iter().all(|c| c["card"] != "back");
        if all_up && !in_showdown {
            showdowns += 1;
        }
        in_showdown = all_up;
    }
    assert!(showdowns >= 2, "{showdowns} showdowns in 2 rounds");
    let truth_path = out.join("truth.jsonl");
    let replay = pone_ok(["replay", "--json", &truth_path.to_string_lossy()]);
    let report: Value = serde_json::from_slice(&replay.stdout).expect("JSON");
    assert_eq!(report["rounds"].as_array().map(Vec::len), Some(2));
    let sum: i64 = report["balances"]
        .as_object()
        .expect("balances")
        .values()
        .filter_map(Value::as_i64)
        .sum();
    assert_eq!(sum, 0);
}

/// The mean difference between two frames' 8x8 blocks, in 8-bit levels:
/// the camera's noise averages out in a block, what moved does not.
fn block_difference(a: &image::RgbImage, b: &image::RgbImage) -> f64 {
    let blocks = |img: &image::RgbImage| -> Vec<f64> {
        let (w, h) = (img.width() / 8, img.height() / 8);
        let mut sums = vec![0.0f64; (w * h) as usize];
        for (x, y, p) in img.enumerate_pixels() {
            if x / 8 < w && y / 8 < h {
                sums[((y / 8) * w + x / 8) as usize] +=
                    p.0.iter().map(|&c| f64::from(c)).sum::<f64>() / (3.0 * 64.0);
            }
        }
        sums
    };
    let (a, b) = (blocks(a), blocks(b));
    let n = f64::from(u32::try_from(a.len()).unwrap_or(u32::MAX).max(1));
    a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum::<f64>() / n
}

/// A sitting's table keeps still between frames where nothing on it moves:
/// the cloth, its weave and the things lying on it are the same table from
/// the first frame to the last, and only the camera's noise differs. Before,
/// each frame drew the cloth's texture afresh, and a checked cloth's pattern
/// slid under the cards from frame to frame (block differences of 13 or
/// more levels), which no real table does, and which hid from the live
/// table what a real one shows: a false card the finder sees on a cloth
/// stays there, frame after frame.
#[test]
fn a_sittings_table_keeps_still_from_frame_to_frame() {
    let (out, sitting) = sitting_at_4_fps("sitting-still", 8, 1, "640x360");
    let frames = sitting["frames"].as_u64().expect("frames");
    let passing: Vec<u64> = sitting["hand_passes"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let frame = |f: u64| {
        image::open(out.join(format!("frames/{f:06}.jpg")))
            .expect("a frame")
            .to_rgb8()
    };
    let mut still = 0;
    for f in 0..frames.saturating_sub(1) {
        // A hand passing over the table lasts a second and a half (6 frames).
        if passing.iter().any(|&p| (p..=p + 7).contains(&f)) {
            continue;
        }
        let (a, b) = (frame_label(&out, f), frame_label(&out, f + 1));
        if a["cards"] != b["cards"] || a["cards"].as_array().is_none_or(Vec::is_empty) {
            continue;
        }
        let difference = block_difference(&frame(f), &frame(f + 1));
        assert!(
            difference < 2.0,
            "frames {f} and {} show the same cards, yet differ by {difference:.1} levels a block",
            f + 1
        );
        still += 1;
    }
    assert!(
        still >= 5,
        "only {still} pairs of frames with nothing moving"
    );
}
