#!/usr/bin/env python3
"""Trains the card finder: a frame -> where the index corners and the backs are.

One command rebuilds the model from rendered scenes (`pone synth` folders with
`images/` and `labels/`):

    ./scripts/run synth --out /tmp/det-a --scenes 3000 --seed 101 --designs train --art-cache ~/.cache/pone/art
    python3 models/train_detector.py --data /tmp/det-a --out models/finder.onnx

The network is fully convolutional (depthwise-separable blocks, a small feature
pyramid) and answers on a grid of 4x4-pixel cells, CenterNet-style:

| channel | what |
|---|---|
| 0 | a face-up card's index corner is centred in this cell (sigmoid, 0..1) |
| 1 | a face-down card's visible part is centred in this cell (sigmoid) |
| 2, 3 | that centre, minus the cell's centre (pixels / 4) |
| 4..11 | the index window's four points (top-left, top-right, bottom-right, bottom-left as the index reads), minus the cell's centre (pixels / 16) |
| 12..15 | the box around what shows of the card, x0 y0 x1 y1, minus the cell's centre (pixels / 16) |

The index window is the reader's `INDEX_WINDOW` (the card's top-left 27% x
45%; the bottom-right corner read turned half round), so a corner found here
is cut with one perspective warp into exactly the crop the reader was trained
on. Input `image`: float32 [1, 3, H, W], RGB 0..1, H and W multiples of 32
(the frame scaled so its long side is 640, then padded); output `maps`
[1, 16, H/4, W/4]. Exported, then checked against PyTorch with onnxruntime.
"""
import argparse
import json
import math
import os
import pickle
import random
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx_export import export_checked

# The reader's window on a card, as a fraction of its width and height.
WINDOW_W, WINDOW_H = 0.27, 0.45
STRIDE = 4
BASE = 640  # the long side of a frame as the network sees it
CROP = 256  # training crops, square (--crop)


def cbr(i, o, k=3, s=1, g=1):
    return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Separable(nn.Module):
    def __init__(self, i, o, stride=1):
        super().__init__()
        self.dw = cbr(i, i, 3, stride, i)
        self.pw = cbr(i, o, 1)
        self.residual = stride == 1 and i == o

    def forward(self, x):
        y = self.pw(self.dw(x))
        return x + y if self.residual else y


class Finder(nn.Module):
    def __init__(self, widths=(12, 24, 48, 96, 128), pyramid=32, outputs=16):
        super().__init__()
        w = widths
        self.s4 = nn.Sequential(cbr(3, w[0], 3, 2), Separable(w[0], w[1], 2), Separable(w[1], w[1]))
        self.s8 = nn.Sequential(Separable(w[1], w[2], 2), Separable(w[2], w[2]), Separable(w[2], w[2]))
        self.s16 = nn.Sequential(Separable(w[2], w[3], 2), Separable(w[3], w[3]), Separable(w[3], w[3]))
        self.s32 = nn.Sequential(Separable(w[3], w[4], 2), Separable(w[4], w[4]), Separable(w[4], w[4]))
        self.l4, self.l8, self.l16, self.l32 = (cbr(c, pyramid, 1) for c in w[1:])
        self.m16, self.m8, self.m4 = Separable(pyramid, pyramid), Separable(pyramid, pyramid), Separable(pyramid, pyramid)
        self.head = nn.Conv2d(pyramid, outputs, 1)
        with torch.no_grad():
            self.head.bias[:2].fill_(-4.0)

    def raw(self, x):
        a = self.s4(x)
        b = self.s8(a)
        c = self.s16(b)
        d = self.s32(c)
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")  # noqa: E731
        p = self.l32(d)
        p = self.m16(self.l16(c) + up(p))
        p = self.m8(self.l8(b) + up(p))
        p = self.m4(self.l4(a) + up(p))
        return self.head(p)

    def forward(self, x):
        y = self.raw(x)
        return torch.cat([torch.sigmoid(y[:, :2]), y[:, 2:]], 1)


def homography(corners):
    """The map from the unit card (0..1 x 0..1) to its four corners in the frame."""
    src = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    return cv2.getPerspectiveTransform(src, np.float32(corners))


def project(h, points):
    p = np.concatenate([np.float64(points), np.ones((len(points), 1))], 1) @ h.T
    return p[:, :2] / p[:, 2:3]


def windows(corners):
    """The reader's window at both index corners: 4 points each, as the index reads."""
    h = homography(corners)
    w, t = WINDOW_W, WINDOW_H
    top_left = [[0, 0], [w, 0], [w, t], [0, t]]
    bottom_right = [[1, 1], [1 - w, 1], [1 - w, 1 - t], [1, 1 - t]]
    return [project(h, top_left), project(h, bottom_right)]


def load_scenes(folders, cache):
    """Every scene, scaled so its long side is BASE, with its objects in those pixels."""
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    images, objects = [], []
    for folder in folders:
        names = sorted(f[:-5] for f in os.listdir(os.path.join(folder, "labels")) if f.endswith(".json"))
        for name in names:
            with open(os.path.join(folder, "labels", name + ".json")) as f:
                labels = json.load(f)
            image = cv2.imread(os.path.join(folder, "images", name + ".jpg"))
            if image is None:
                continue
            scale = BASE / max(labels["width"], labels["height"])
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            images.append(image[:, :, ::-1].copy())
            objects.append(scene_objects(labels, scale))
        print(f"{folder}: {len(names)} scenes", flush=True)
    if cache:
        with open(cache, "wb") as f:
            pickle.dump((images, objects), f, protocol=5)
    return images, objects


def scene_objects(labels, scale):
    """(kind, weight, centre, quad or None, box): kind 0 an index corner, 1 a back.

    weight 1 is an object to find, 0 one too hidden to call either way (no loss near it).
    """
    out = []
    for card in labels["cards"]:
        box = np.float64(card["box"]) * scale
        if card["card"] == "back":
            v = card["visible"]
            if v < 0.1 or box[2] <= box[0]:
                continue
            centre = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
            out.append((1, 1.0 if v >= 0.3 else 0.0, centre, None, box))
            continue
        corners = np.float64(card["corners"]) * scale
        for k, quad in enumerate(windows(corners)):
            v = card["index"][k]["visible"] if k < len(card["index"]) else 0.0
            if v < 0.4:
                continue
            out.append((0, 1.0 if v >= 0.85 else 0.0, quad.mean(0), quad, box))
    return out


def random_view(rng, shape, big, objects):
    """An affine map from the scene to a CROP x CROP training view: zoom, turn,
    shift; most views centred near a card, since cards cover little of a table."""
    h, w = shape[:2]
    s = math.exp(rng.uniform(math.log(0.7), math.log(3.5 if big else 1.8)))
    angle = rng.choice([0, 90, 180, 270]) + rng.uniform(-12, 12)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * s
    if objects and rng.random() < 0.75:
        centre = objects[rng.integers(len(objects))][2] + rng.normal(0, CROP / 4 / s, 2)
    else:
        centre = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    m = np.zeros((2, 3))
    m[:, :2] = rot
    m[:, 2] = np.array([CROP / 2, CROP / 2]) - rot @ centre
    return m


def apply(m, points):
    return np.asarray(points) @ m[:, :2].T + m[:, 2]


def targets(objects, m, size=(CROP, CROP)):
    gw, gh = size[0] // STRIDE, size[1] // STRIDE
    heat = np.zeros((2, gh, gw), np.float32)
    ignore = np.ones((2, gh, gw), np.float32)
    reg = np.zeros((14, gh, gw), np.float32)
    regw = np.zeros((3, gh, gw), np.float32)  # weights: offset, quad, box
    ys, xs = np.mgrid[0:gh, 0:gw]
    cx, cy = (xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE
    for kind, weight, centre, quad, box in objects:
        c = apply(m, centre[None])[0]
        bx = apply(m, [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]])
        box2 = np.array([bx[:, 0].min(), bx[:, 1].min(), bx[:, 0].max(), bx[:, 1].max()])
        if kind == 0:
            q = apply(m, quad)
            extent = float(np.linalg.norm(q[2] - q[0]))
            short = min(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0])))
        else:
            q = None
            extent = float(np.linalg.norm(box2[2:] - box2[:2])) * 0.4
            short = 0.6 * float(min(box2[2] - box2[0], box2[3] - box2[1]))
        if not (-8 <= c[0] < size[0] + 8 and -8 <= c[1] < size[1] + 8):
            continue
        gx, gy = c / STRIDE - 0.5
        # A blob as wide as a quarter of the object's short side: dense targets learn fast.
        sigma = min(max(0.3 * short / STRIDE, 1.0 if kind == 0 else 0.6), 6.0)
        r = int(math.ceil(3 * sigma))
        x0, x1 = max(0, int(gx) - r), min(gw, int(gx) + r + 2)
        y0, y1 = max(0, int(gy) - r), min(gh, int(gy) + r + 2)
        if x0 >= x1 or y0 >= y1:
            continue
        if weight == 0.0:
            ignore[kind, y0:y1, x0:x1] = 0.0
            continue
        inside = 0 <= c[0] < size[0] and 0 <= c[1] < size[1]
        gauss = np.exp(-((xs[y0:y1, x0:x1] - gx) ** 2 + (ys[y0:y1, x0:x1] - gy) ** 2) / (2 * sigma**2))
        if inside:
            px, py = min(int(c[0] // STRIDE), gw - 1), min(int(c[1] // STRIDE), gh - 1)
            if 0 <= py - y0 < gauss.shape[0] and 0 <= px - x0 < gauss.shape[1]:
                gauss[py - y0, px - x0] = 1.0
        heat[kind, y0:y1, x0:x1] = np.maximum(heat[kind, y0:y1, x0:x1], gauss)
        # Regression where the object is near: relative to each cell's centre.
        near = gauss > 0.4
        if not inside:
            continue
        yy, xx = np.nonzero(near)
        yy, xx = yy + y0, xx + x0
        ccx, ccy = cx[yy, xx], cy[yy, xx]
        scale = max(extent / 16.0, 0.5)
        reg[0, yy, xx] = (c[0] - ccx) / 4
        reg[1, yy, xx] = (c[1] - ccy) / 4
        regw[0, yy, xx] = 1.0
        if q is not None:
            for k in range(4):
                reg[2 + 2 * k, yy, xx] = (q[k, 0] - ccx) / 16
                reg[3 + 2 * k, yy, xx] = (q[k, 1] - ccy) / 16
            regw[1, yy, xx] = 1.0 / scale
        reg[10, yy, xx] = (box2[0] - ccx) / 16
        reg[11, yy, xx] = (box2[1] - ccy) / 16
        reg[12, yy, xx] = (box2[2] - ccx) / 16
        reg[13, yy, xx] = (box2[3] - ccy) / 16
        regw[2, yy, xx] = 1.0 / max(float(np.linalg.norm(box2[2:] - box2[:2])) / 64.0, 0.5)
    return heat, ignore, reg, regw


def batch(images, objects, idx, rng, train=True):
    xs, hs, igs, rs, rws = [], [], [], [], []
    for i in idx:
        img = images[i]
        big = any(o[0] == 0 and np.linalg.norm(o[3][2] - o[3][0]) > 40 for o in objects[i])
        if train:
            m = random_view(rng, img.shape, big or rng.random() < 0.3, objects[i])
            size = (CROP, CROP)
            border = tuple(int(v) for v in rng.integers(0, 255, 3))
        else:
            m = np.array([[1.0, 0, 0], [0, 1.0, 0]])
            size = (-(-img.shape[1] // 32) * 32, -(-img.shape[0] // 32) * 32)
            border = (0, 0, 0)
        xs.append(cv2.warpAffine(img, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border))
        h, ig, r, rw = targets(objects[i], m, size)
        hs.append(h), igs.append(ig), rs.append(r), rws.append(rw)
    x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2).float() / 255.0
    return x, *(torch.from_numpy(np.stack(a)) for a in (hs, igs, rs, rws))


def photometric(x):
    n = x.shape[0]
    x = x ** torch.empty(n, 1, 1, 1).uniform_(0.7, 1.4)
    x = x * torch.empty(n, 1, 1, 1).uniform_(0.5, 1.3) * torch.empty(n, 3, 1, 1).uniform_(0.85, 1.15)
    x = x + torch.empty(n, 1, 1, 1).uniform_(-0.08, 0.08)
    blur = torch.rand(n) < 0.3
    if blur.any():
        k = torch.tensor([1.0, 2.0, 1.0])
        k = (k[:, None] * k[None, :]) / 16.0
        x[blur] = F.conv2d(x[blur], k.expand(3, 1, 3, 3), padding=1, groups=3)
    x = x + torch.randn_like(x) * torch.empty(n, 1, 1, 1).uniform_(0.0, 0.04)
    return x.clamp(0.0, 1.0)


def loss_fn(out, heat, ignore, reg, regw):
    # Quality focal loss: every cell learns the blob's height there, weighted
    # by how far off it is; peaks stay at the centres.
    p = torch.sigmoid(out[:, :2])
    bce = F.binary_cross_entropy_with_logits(out[:, :2], heat, reduction="none")
    # Each channel on its own scale (a back's blob covers many more cells
    # than an index's), the corners weighted double.
    per = (bce * (heat - p).abs() ** 2 * ignore).sum(dim=(0, 2, 3))
    npos = (heat >= 0.5).float().sum(dim=(0, 2, 3)).clamp(min=1.0)
    focal = 2.0 * per[0] / npos[0] + per[1] / npos[1]
    r = out[:, 2:]
    l1 = (r - reg).abs()
    off = (l1[:, 0:2] * regw[:, 0:1]).sum()
    quad = (l1[:, 2:10] * regw[:, 1:2]).sum()
    box = (l1[:, 10:14] * regw[:, 2:3]).sum()
    nreg = regw[:, 0].sum().clamp(min=1.0)
    return focal, off / nreg, quad / nreg, box / nreg


def peaks(heat, threshold):
    """Cells above threshold that are the largest in their 3x3 neighbourhood."""
    pooled = F.max_pool2d(heat, 3, 1, 1)
    return (heat == pooled) & (heat >= threshold)


def validate(model, images, objects, idx, rng):
    """Recall and precision of index corners and backs at 0.3, and the quad error (pixels)."""
    model.eval()
    found = {0: [0, 0, 0], 1: [0, 0, 0]}  # true positives, detections, objects
    quad_err = []
    with torch.no_grad():
        for i in idx:
            x, heat, ignore, reg, regw = batch(images, objects, [i], rng, train=False)
            out = model(x)
            for kind in (0, 1):
                pk = peaks(out[:, kind : kind + 1], 0.3)[0, 0]
                truth = heat[0, kind] >= 0.999
                ty, tx = torch.nonzero(truth, as_tuple=True)
                py, px = torch.nonzero(pk, as_tuple=True)
                ig = ignore[0, kind]
                found[kind][2] += len(ty)
                used = set()
                for a, b in zip(py.tolist(), px.tolist()):
                    if ig[a, b] == 0 and not any(abs(a - c) <= 1 and abs(b - d) <= 1 for c, d in zip(ty.tolist(), tx.tolist())):
                        continue
                    found[kind][1] += 1
                    best = None
                    for j, (c, d) in enumerate(zip(ty.tolist(), tx.tolist())):
                        if j not in used and abs(a - c) <= 1 and abs(b - d) <= 1:
                            best = j
                            break
                    if best is not None:
                        used.add(best)
                        found[kind][0] += 1
                        if kind == 0:
                            quad_err.append(float((out[0, 4:12, a, b] - reg[0, 2:10, a, b]).abs().mean()) * 16)
    model.train()
    text = []
    for kind, name in ((0, "corners"), (1, "backs")):
        tp, det, n = found[kind]
        text.append(f"{name} recall {tp / max(n, 1):.4f} precision {tp / max(det, 1):.4f} ({n})")
    text.append(f"quad error {np.median(quad_err) if quad_err else float('nan'):.2f} px")
    return ", ".join(text)


def main():
    global CROP
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", default=[], help="pone synth folders (images/, labels/)")
    parser.add_argument("--out", default="models/finder.onnx")
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--crop", type=int, default=CROP, help="training crops' side, pixels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=None, help="keep the scaled scenes in this file to load faster next time")
    parser.add_argument("--resume", default=None, help="start from these PyTorch weights")
    parser.add_argument("--export-only", action="store_true", help="export the --resume weights and stop")
    args = parser.parse_args()
    CROP = args.crop
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(int(os.environ.get("PONE_THREADS", os.cpu_count() or 2)))

    if args.export_only:
        model = Finder()
        model.load_state_dict(torch.load(args.resume))
        export(model, args.out)
        return
    images, objects = load_scenes(args.data, args.cache)
    if not images:
        sys.exit(f"no scenes under {args.data}: make them with `pone synth`")
    order = rng.permutation(len(images))
    held = order[: max(1, len(images) // 20)]
    train = order[len(held) :]
    print(f"{len(train)} training scenes, {len(held)} held back", flush=True)

    model = Finder()
    if args.resume:
        model.load_state_dict(torch.load(args.resume))
    model = model.to(memory_format=torch.channels_last)
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    start = time.time()
    running = np.zeros(4)
    for step in range(1, args.steps + 1):
        idx = rng.choice(train, args.batch)
        x, heat, ignore, reg, regw = batch(images, objects, idx, rng)
        out = model.raw(photometric(x).contiguous(memory_format=torch.channels_last))
        parts = loss_fn(out, heat, ignore, reg, regw)
        loss = parts[0] + parts[1] + parts[2] + 0.5 * parts[3]
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = 0.98 * running + 0.02 * np.array([p.item() for p in parts])
        if step % 100 == 0:
            print(f"step {step}: loss heat {running[0]:.3f} offset {running[1]:.3f} quad {running[2]:.3f} box {running[3]:.3f}, {time.time() - start:.0f} s", flush=True)
        if step % 1000 == 0 or step == args.steps:
            torch.save(model.state_dict(), os.path.splitext(args.out)[0] + ".pt")
            print(f"step {step}: {validate(model, images, objects, held[:150], np.random.default_rng(7))}", flush=True)
    export(model, args.out)


def export(model, out):
    export_checked(
        model, torch.rand(1, 3, 384, 640), out, "image", "maps",
        {"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}}, 1e-3,
    )


if __name__ == "__main__":
    main()
