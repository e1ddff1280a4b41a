#!/usr/bin/env python3
"""Trains the corner reader: index-corner crops -> card (52 classes), back, or none.

One command rebuilds the model from rendered sets (the finder's, see
models/README.md), cut as the finder sees them:

    ./scripts/run crops /tmp/det-c /tmp/det-b --out /tmp/reader-crops
    python3 models/train_reader.py --data /tmp/reader-crops/det-c /tmp/reader-crops/det-b --out models/reader.onnx --epochs 12

It trains a small CNN on the crops (`<CLASS>/*.png`, 48x80 RGB: the labelled
corners, and the finder's own windows filed by the card they show or `none`
when they are on no index), keeps 10% aside to fit a softmax temperature (so a
low confidence means an often-wrong reading), exports ONNX (input `crops`
float32 [N, 3, 80, 48] in 0..1, output `probabilities` [N, 54], classes in
`models/reader.classes.txt`), and checks the exported model against PyTorch
with onnxruntime. Needs the pinned packages of models/requirements.txt. CPU is
enough (2 cores: about 2.5 minutes an epoch on 95,000 crops).
"""
import argparse
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from lite0 import Lite0Classifier
from onnx_export import export_checked
from PIL import Image

RANKS = "A23456789TJQK"
SUITS = "SHDC"
# `none`: a window the finder put on no index corner (a pip, clutter, a
# corner half off): the reader says so rather than guess a card.
CLASSES = [r + s for s in SUITS for r in RANKS] + ["back", "none"]


def load(folders, limit_per_class=None):
    images, labels = [], []
    for folder in folders:
        for k, name in enumerate(CLASSES):
            d = os.path.join(folder, name)
            if not os.path.isdir(d):
                continue
            files = sorted(f for f in os.listdir(d) if f.endswith(".png"))
            if limit_per_class:
                files = files[:limit_per_class]
            for f in files:
                images.append(np.asarray(Image.open(os.path.join(d, f)).convert("RGB"), dtype=np.uint8))
                labels.append(k)
    if not images:
        return torch.zeros(0, 3, 80, 48, dtype=torch.uint8), torch.zeros(0, dtype=torch.long)
    x = torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).contiguous()
    return x, torch.tensor(labels)


def camera_light(x, gain=(0.55, 1.35), tint=(0.85, 1.15)):
    """Light, colour, blur and noise changes a real camera brings, on a float batch in 0..1."""
    n = x.shape[0]
    gain = torch.empty(n, 1, 1, 1).uniform_(*gain)
    tint = torch.empty(n, 3, 1, 1).uniform_(*tint)
    offset = torch.empty(n, 1, 1, 1).uniform_(-0.12, 0.12)
    x = x * gain * tint + offset
    gray = torch.rand(n, 1, 1, 1) < 0.1
    x = torch.where(gray, x.mean(1, keepdim=True).expand_as(x), x)
    blur = torch.rand(n) < 0.3
    if blur.any():
        k = torch.tensor([1.0, 2.0, 1.0])
        k = (k[:, None] * k[None, :]) / 16.0
        w = k.expand(3, 1, 3, 3)
        x[blur] = F.conv2d(x[blur], w, padding=1, groups=3)
    return x + torch.randn_like(x) * torch.empty(n, 1, 1, 1).uniform_(0.0, 0.05)


def augment(x):
    """Light, colour, blur and noise changes a real camera brings, and the
    finder's window a little off, on a uint8 batch."""
    x = camera_light(x.float() / 255.0)
    n = x.shape[0]
    # The finder's window is not exact: small shifts, zooms, turns and skews.
    theta = torch.zeros(n, 2, 3)
    zoom = torch.empty(n).uniform_(0.9, 1.1)
    turn = torch.empty(n).uniform_(-0.06, 0.06)
    theta[:, 0, 0] = zoom * torch.cos(turn) * torch.empty(n).uniform_(0.93, 1.07)
    theta[:, 0, 1] = -zoom * torch.sin(turn) + torch.empty(n).uniform_(-0.05, 0.05)
    theta[:, 1, 0] = zoom * torch.sin(turn)
    theta[:, 1, 1] = zoom * torch.cos(turn)
    theta[:, 0, 2] = torch.empty(n).uniform_(-0.1, 0.1)
    theta[:, 1, 2] = torch.empty(n).uniform_(-0.08, 0.08)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    return x.clamp(0.0, 1.0)


def block(i, o, stride=1):
    """A 3x3 convolution, batch norm and ReLU: the readers' building block."""
    return nn.Sequential(
        nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)
    )


class CornerNet(nn.Module):
    def __init__(self, classes=len(CLASSES)):
        super().__init__()

        # Strided all the way: the index is large in the crop, and a frame
        # holds a dozen or two corners to read within the frame budget
        # (about 20 MFLOP a crop).
        self.features = nn.Sequential(
            block(3, 16, stride=2), block(16, 32, stride=2), block(32, 32),
            block(32, 64, stride=2), block(64, 96),
            block(96, 160, stride=2),
        )
        self.head = nn.Linear(160, classes)
        self.temperature = nn.Parameter(torch.ones(1), requires_grad=False)

    def logits(self, x):
        f = self.features(x)
        return self.head(F.adaptive_avg_pool2d(f, 1).flatten(1))

    def forward(self, x):
        return F.softmax(self.logits(x) / self.temperature, dim=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, nargs="+",
                        help="crops folders: `pone crops` (labelled and found corners) or `pone synth --crops`")
    parser.add_argument("--photos", nargs="*", default=[],
                        help="crops of real photos (`pone crops` on a class folder set such as "
                             "crops-gpiosenka-train: the index corners found on each photo's card)")
    parser.add_argument("--photo-repeat", type=int, default=4,
                        help="how many times each photo crop counts in an epoch (they are few beside the renders)")
    parser.add_argument("--photo-check", default=None,
                        help="a corner reader (ONNX) that sorts the photo crops first: those it reads as `none` "
                             "(a pip, a blank edge, an index the photo cut off) are left out, since the photo's "
                             "card is no label for them")
    parser.add_argument("--out", default="models/reader.onnx")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--net", choices=["small", "lite0"], default="small",
                        help="small: the plain CNN from scratch (the committed reader); lite0: EfficientNet-Lite0's "
                             "first stages from ImageNet (models/lite0.py), measured in session 10 and not kept")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(int(os.environ.get("PONE_THREADS", os.cpu_count() or 2)))

    x, y = load(args.data)
    if len(y) == 0:
        sys.exit(f"no crops under {' '.join(args.data)}: make them with `pone crops`")
    order = torch.randperm(len(y))
    x, y = x[order], y[order]
    held = max(1, len(y) // 10)
    xv, yv, xt, yt = x[:held], y[:held], x[held:], y[held:]
    if args.photos:
        # Real photos' corners: a tenth held back too, the rest counted
        # `--photo-repeat` times.
        xp, yp = load(args.photos)
        if args.photo_check:
            xp, yp = checked(xp, yp, args.photo_check)
        order = torch.randperm(len(yp))
        xp, yp = xp[order], yp[order]
        held_p = len(yp) // 10
        xv, yv = torch.cat([xv, xp[:held_p]]), torch.cat([yv, yp[:held_p]])
        xt = torch.cat([xt] + [xp[held_p:]] * args.photo_repeat)
        yt = torch.cat([yt] + [yp[held_p:]] * args.photo_repeat)
        print(f"{len(yp)} photo crops ({held_p} held back)", flush=True)
    print(f"{len(yt)} training crops, {held} held back, {len(CLASSES)} classes", flush=True)

    model = CornerNet() if args.net == "small" else Lite0Classifier(len(CLASSES))
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * ((len(yt) + args.batch - 1) // args.batch)
    # ImageNet's stages are tuned more gently than a network learnt from scratch.
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3 if args.net == "small" else 1.5e-3, total_steps=steps)
    for epoch in range(args.epochs):
        model.train()
        start, seen, correct = time.time(), 0, 0
        perm = torch.randperm(len(yt))
        for i in range(0, len(yt), args.batch):
            idx = perm[i : i + args.batch]
            xb, yb = augment(xt[idx]), yt[idx]
            logits = model.logits(xb)
            loss = F.cross_entropy(logits, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
        acc = evaluate(model, xv, yv)[0]
        print(f"epoch {epoch + 1}: train {correct / seen:.4f}, held back {acc:.4f}, {time.time() - start:.0f} s", flush=True)

    fit_temperature(model, xv, yv)
    acc, nll = evaluate(model, xv, yv)
    print(f"held back: accuracy {acc:.4f}, NLL {nll:.4f}, temperature {model.temperature.item():.3f}", flush=True)
    export(model, args.out)


def checked(x, y, reader):
    """The crops a corner reader does not read as `none`."""
    import onnxruntime as ort

    session = ort.InferenceSession(reader)
    keep = []
    for i in range(0, len(y), 256):
        p = session.run(None, {"crops": x[i : i + 256].float().numpy() / 255.0})[0]
        keep.append(torch.from_numpy(p.argmax(1) != CLASSES.index("none")))
    keep = torch.cat(keep)
    print(f"{int(keep.sum())} of {len(y)} photo crops kept (the others read as none by {reader})", flush=True)
    return x[keep], y[keep]


def evaluate(model, xv, yv):
    model.eval()
    with torch.no_grad():
        logits = torch.cat([model.logits(xv[i : i + 512].float() / 255.0) for i in range(0, len(yv), 512)])
    acc = (logits.argmax(1) == yv).float().mean().item()
    nll = F.cross_entropy(logits / model.temperature, yv).item()
    return acc, nll


def fit_temperature(model, xv, yv):
    """The temperature that minimises the held-back NLL: calibrated confidences."""
    model.eval()
    with torch.no_grad():
        logits = torch.cat([model.logits(xv[i : i + 512].float() / 255.0) for i in range(0, len(yv), 512)])
    best = min((F.cross_entropy(logits / t, yv).item(), t) for t in np.linspace(0.5, 4.0, 71))
    model.temperature.fill_(float(best[1]))


def export(model, out):
    export_checked(
        model, torch.rand(4, 3, 80, 48), out, "crops", "probabilities",
        {"crops": {0: "n"}, "probabilities": {0: "n"}}, 1e-4, classes=CLASSES,
    )


if __name__ == "__main__":
    main()
