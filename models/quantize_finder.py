#!/usr/bin/env python3
"""Quantizes the card finder to 8 bits for ONNX Runtime's CPU (static QDQ).

The float finder (`train_detector.py`'s export) stays the reference; this
writes a model with the same input and output whose convolutions run in
8-bit integers: activations unsigned, weights signed per output channel with
7-bit range (`reduce_range`: no 16-bit overflow in the AVX2 kernels of
machines without VNNI, so every x86-64 machine reads alike). Kept in float:
the first convolution (three input channels: slower in 8 bits than in
float), and the head with what follows it (the regressions, in pixels
relative to a cell, would lose their fractions in 8 bits).

Calibration: frames of rendered scenes and sittings of the *training*
designs (never the held-out designs or the real photos measured on), each at
the sizes the app shows the network (long side 640 and 1280: see
`vision/src/finder.rs`, `fill_network_input`: area average, padded with black
to multiples of 32).

The check: on frames the calibration did not see, the 8-bit model's maps
against the float model's: how many cells cross the app's thresholds
differently (index corners 0.4 and 0.55, backs 0.5), and the regressions'
error on cells either model marks.

    pip install -r models/requirements.txt
    ./scripts/run synth --out /tmp/q/calib --scenes 160 --seed 9191 --designs train --art-cache ~/.cache/pone/art
    ./scripts/run synth --sitting --rounds 2 --players 3 --fps 30 --seed 70 --out /tmp/q/s70
    python3 models/quantize_finder.py --frames /tmp/q/calib/images /tmp/q/s70/frames --out models/finder.int8.onnx
"""
import argparse
import glob
import os
import random
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
# The nodes kept in float (names from the export of `train_detector.Finder`).
FLOAT_NODES = ["/s4/s4.0/s4.0.0/Conv", "/head/Conv", "/Slice", "/Sigmoid", "/Slice_1", "/Concat"]
SIDES = (640, 1280)


def network_input(path, side):
    """The frame as `fill_network_input` gives it: long side `side`, area-averaged, padded to 32."""
    image = Image.open(path).convert("RGB")
    w, h = image.size
    scale = side / max(w, h)
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    image = image.resize((sw, sh), Image.BOX)
    pw, ph = -(-sw // 32) * 32, -(-sh // 32) * 32
    x = np.zeros((1, 3, ph, pw), np.float32)
    x[0, :, :sh, :sw] = np.asarray(image, np.float32).transpose(2, 0, 1) / 255.0
    return x


class Frames(CalibrationDataReader):
    def __init__(self, paths):
        self.jobs = [(p, side) for p in paths for side in SIDES]
        self.at = 0

    def get_next(self):
        if self.at >= len(self.jobs):
            return None
        path, side = self.jobs[self.at]
        self.at += 1
        if self.at % 50 == 0:
            print(f"  calibrating: {self.at} of {len(self.jobs)}", file=sys.stderr)
        return {"image": network_input(path, side)}


def fold_every(jobs, least=8):
    every = least
    while jobs % every == 0:
        every += 1
    return every


def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    options.log_severity_level = 3
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def compare(reference, quantized, paths):
    """The 8-bit maps against the float maps on `paths`, at both sides."""
    a, b = session(reference), session(quantized)
    flips = {"corners 0.4": 0, "corners 0.55": 0, "backs 0.5": 0}
    marked = {"corners 0.4": 0, "corners 0.55": 0, "backs 0.5": 0}
    errors = []
    for path in paths:
        for side in SIDES:
            x = network_input(path, side)
            fa = a.run(None, {"image": x})[0][0]
            fb = b.run(None, {"image": x})[0][0]
            for name, channel, threshold in (("corners 0.4", 0, 0.4), ("corners 0.55", 0, 0.55), ("backs 0.5", 1, 0.5)):
                ma, mb = fa[channel] >= threshold, fb[channel] >= threshold
                flips[name] += int((ma != mb).sum())
                marked[name] += int(ma.sum())
            cells = (fa[0] >= 0.4) | (fa[1] >= 0.5)
            errors.append(np.abs(fa[2:, cells] - fb[2:, cells]).ravel())
    errors = np.concatenate(errors) if errors else np.zeros(1)
    for name in flips:
        print(f"  {name}: {flips[name]} cells cross the threshold differently, of {marked[name]} the float model marks")
    print(f"  regressions on marked cells: mean |error| {errors.mean():.4f}, 99th percentile {np.percentile(errors, 99):.4f}, largest {errors.max():.3f} (cells)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=os.path.join(HERE, "finder.onnx"), help="the float finder")
    parser.add_argument("--frames", nargs="+", required=True, help="folders of frames of the training designs")
    parser.add_argument("--out", default=os.path.join(HERE, "finder.int8.onnx"))
    parser.add_argument("--calibrate", type=int, default=120, help="frames to calibrate on (each at both sides)")
    parser.add_argument("--check", type=int, default=40, help="other frames to check the result on")
    parser.add_argument(
        "--method",
        choices=["minmax", "percentile", "entropy"],
        default="minmax",
        help="the histogram methods keep every frame's tensors in memory: percentile on 80 frames at 1280 took over 24 GB",
    )
    parser.add_argument("--full-range", action="store_true", help="8-bit weights (exact only on machines with VNNI)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    paths = sorted(p for folder in args.frames for p in glob.glob(os.path.join(folder, "*")) if p.lower().endswith((".jpg", ".png")))
    if len(paths) < args.calibrate + args.check:
        sys.exit(f"quantize_finder: {len(paths)} frames in {args.frames}, need {args.calibrate + args.check}: render more with `pone synth`")
    random.Random(args.seed).shuffle(paths)
    calibrate, check = paths[: args.calibrate], paths[args.calibrate : args.calibrate + args.check]

    prepared = args.out + ".prepared.onnx"
    quant_pre_process(args.model, prepared, skip_symbolic_shape=True)
    names = {n.name for n in onnx.load(prepared).graph.node}
    missing = [n for n in FLOAT_NODES if n not in names]
    if missing:
        sys.exit(f"quantize_finder: {args.model} has no nodes {missing}: is it train_detector.py's export?")
    method = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile, "entropy": CalibrationMethod.Entropy}[args.method]
    quantize_static(
        prepared,
        args.out,
        Frames(calibrate),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=not args.full_range,
        nodes_to_exclude=FLOAT_NODES,
        calibrate_method=method,
        # Ranges folded in every few frames (a 1280 frame's tensors are over
        # 100 MB), never exactly at the end (ONNX Runtime then finds no data).
        extra_options={"CalibMaxIntermediateOutputs": fold_every(len(calibrate) * len(SIDES))},
    )
    os.remove(prepared)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes); against the float model on {len(check)} other frames:")
    compare(args.model, args.out, check)


if __name__ == "__main__":
    main()
