#!/usr/bin/env python3
"""Trains the back checker: is what the finder took for a face-down card one?

The finder's back channel fires on cloths, carpets, papers and the faces of
large cards as well as on real backs. The checker looks again at each back it
finds, larger and with the card's edge against what it lies on, and says
`back` or `none`. One command rebuilds it from the finder's training sets and
the empty tables (see models/README.md):

    ./scripts/run crops --backs /tmp/det-e /tmp/det-r /tmp/det-n /tmp/det-m --out /tmp/backs2
    ./scripts/run crops --backs /tmp/trs/* --out /tmp/backs3
    python3 models/train_backs.py --net lite0 --data /tmp/backs2/* /tmp/backs3/* --out models/backs.onnx --epochs 3

(the sets and the rendered sittings `/tmp/trs/*`: models/README.md,
"Rebuilding them").

`pone crops --backs` writes each set's crops as `backs.u8` (64x64 RGB, one
after another, cut by `reader::cut_back`) and `backs.tsv` (class, scene). The
script keeps every tenth scene aside to fit a softmax temperature (so a low
confidence means an often-wrong answer), exports ONNX (input `crops` float32
[N, 3, 64, 64] in 0..1, output `probabilities` [N, 2], classes in
`models/backs.classes.txt`), and checks it against PyTorch with onnxruntime.

`--init models/backs.onnx` trains on from an exported checker instead of
from ImageNet (with a lower `--lr`; session 77 tried it with more clutter,
models/README.md).
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
from onnx_export import export_checked
from lite0 import Lite0Classifier, freeze_norms, load_exported
from train_reader import block, camera_light, fit_temperature

CLASSES = ["back", "none"]
SIZE = 64


def load(folders):
    """The crops, their classes, and whether each is held back (every tenth scene)."""
    xs, ys, held = [], [], []
    for folder in folders:
        raw = np.fromfile(os.path.join(folder, "backs.u8"), dtype=np.uint8)
        with open(os.path.join(folder, "backs.tsv")) as f:
            lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
        if raw.size != len(lines) * SIZE * SIZE * 3:
            sys.exit(f"{folder}: backs.u8 holds {raw.size} bytes for {len(lines)} crops; make it again with `pone crops --backs`")
        xs.append(raw.reshape(len(lines), SIZE, SIZE, 3))
        ys += [CLASSES.index(line[0]) for line in lines]
        held += [int(line[1]) % 10 == 0 for line in lines]
    if not ys:
        sys.exit(f"no crops under {' '.join(folders)}: make them with `pone crops --backs`")
    x = torch.from_numpy(np.concatenate(xs)).permute(0, 3, 1, 2).contiguous()
    return x, torch.tensor(ys), torch.tensor(held)


def augment(x):
    """Light, colour, blur and noise a real camera brings, the finder's box a
    little off, and the crop turned or mirrored (a back and a cloth look
    alike any way up), on a uint8 batch."""
    x = x.float() / 255.0
    n = x.shape[0]
    # A back's colours are the design's: the checker must know a back by its
    # edge and its regular pattern, not by the training designs' colours.
    swap = torch.rand(n) < 0.6
    if swap.any():
        orders = torch.stack([torch.randperm(3) for _ in range(int(swap.sum()))])
        x[swap] = torch.gather(x[swap], 1, orders[:, :, None, None].expand(-1, -1, SIZE, SIZE))
    x = camera_light(x, gain=(0.5, 1.4), tint=(0.8, 1.2))
    theta = torch.zeros(n, 2, 3)
    zoom = torch.empty(n, 2).uniform_(0.92, 1.08)
    theta[:, 0, 0] = zoom[:, 0] * torch.where(torch.rand(n) < 0.5, -1.0, 1.0)
    theta[:, 1, 1] = zoom[:, 1] * torch.where(torch.rand(n) < 0.5, -1.0, 1.0)
    theta[:, 0, 2] = torch.empty(n).uniform_(-0.06, 0.06)
    theta[:, 1, 2] = torch.empty(n).uniform_(-0.06, 0.06)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    turn = torch.rand(n) < 0.5
    x[turn] = x[turn].transpose(2, 3)
    return x.clamp(0.0, 1.0)


class BackNet(nn.Module):
    def __init__(self, classes=len(CLASSES)):
        super().__init__()

        # A frame has a few to a few dozen backs to check within the frame
        # budget: strided early and narrow, about 4 million multiply-adds a crop.
        self.features = nn.Sequential(
            block(3, 16, stride=2), block(16, 24, stride=2), block(24, 32, stride=2),
            block(32, 48), block(48, 64, stride=2), block(64, 64),
        )
        self.head = nn.Linear(64, classes)
        self.temperature = nn.Parameter(torch.ones(1), requires_grad=False)

    def logits(self, x):
        return self.head(F.adaptive_avg_pool2d(self.features(x), 1).flatten(1))

    def forward(self, x):
        return F.softmax(self.logits(x) / self.temperature, dim=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, nargs="+", help="`pone crops --backs` folders")
    parser.add_argument("--out", default="models/backs.onnx")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--net", choices=["small", "lite0"], default="small",
                        help="small: the plain CNN from scratch (the checker before session 20); lite0: "
                             "EfficientNet-Lite0's first four stages from ImageNet (models/lite0.py; the committed checker)")
    parser.add_argument("--init", help="an exported lite0 checker (ONNX) to train on from, its batch norms "
                                       "kept as exported (session 77: the committed checker on more clutter)")
    parser.add_argument("--lr", type=float, default=3e-3, help="the schedule's highest learning rate")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(int(os.environ.get("PONE_THREADS", os.cpu_count() or 2)))

    x, y, held = load(args.data)
    xv, yv, xt, yt = x[held], y[held], x[~held], y[~held]
    counts = torch.bincount(yt, minlength=len(CLASSES))
    print(f"{len(yt)} training crops ({', '.join(f'{c} {n}' for c, n in zip(CLASSES, counts.tolist()))}), "
          f"{len(yv)} held back", flush=True)
    # Both classes drawn equally often: a rare class is not learned as noise.
    weights = (1.0 / counts.clamp(min=1).float())[yt]

    model = BackNet() if args.net == "small" else Lite0Classifier(len(CLASSES), pretrained=not args.init, stages=4)
    if args.init:
        if args.net != "lite0":
            sys.exit("--init takes an exported lite0 checker: add --net lite0")
        try:
            load_exported(model, args.init)
        except (OSError, ValueError) as e:
            sys.exit(f"--init {args.init}: {e} (it takes a checker this script exported with --net lite0)")
        model.temperature.fill_(1.0)
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    per_epoch = (len(yt) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * per_epoch)
    for epoch in range(args.epochs):
        model.train()
        if args.init:
            freeze_norms(model)
        start, seen, correct = time.time(), 0, 0
        draw = torch.multinomial(weights, per_epoch * args.batch, replacement=True)
        for i in range(per_epoch):
            idx = draw[i * args.batch : (i + 1) * args.batch]
            xb, yb = augment(xt[idx]), yt[idx]
            logits = model.logits(xb)
            loss = F.cross_entropy(logits, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
            if (i + 1) % 200 == 0:
                print(f"  step {i + 1} of {per_epoch}: train {correct / seen:.4f}, {time.time() - start:.0f} s", flush=True)
        print(f"epoch {epoch + 1}: train {correct / seen:.4f}, held back {report(model, xv, yv)}, "
              f"{time.time() - start:.0f} s", flush=True)

    fit_temperature(model, xv, yv)
    print(f"held back, temperature {model.temperature.item():.3f}: {report(model, xv, yv)}", flush=True)
    export_checked(
        model, torch.rand(4, 3, SIZE, SIZE), args.out, "crops", "probabilities",
        {"crops": {0: "n"}, "probabilities": {0: "n"}}, 1e-4, classes=CLASSES,
    )


def report(model, xv, yv):
    """Held-back recall of each class (backs kept, false backs dropped) and NLL."""
    model.eval()
    with torch.no_grad():
        logits = torch.cat([model.logits(xv[i : i + 512].float() / 255.0) for i in range(0, len(yv), 512)])
    guess = logits.argmax(1)
    recalls = [((guess == k) & (yv == k)).sum().item() / max(1, (yv == k).sum().item()) for k in range(len(CLASSES))]
    nll = F.cross_entropy(logits / model.temperature, yv).item()
    return ", ".join(f"{c} {r:.4f}" for c, r in zip(CLASSES, recalls)) + f", NLL {nll:.4f}"


if __name__ == "__main__":
    main()
