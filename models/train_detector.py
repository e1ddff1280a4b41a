#!/usr/bin/env python3
"""Trains the card finder: a frame -> where the index corners and the backs are.

One command rebuilds the model from rendered scenes (`pone synth` folders with
`images/` and `labels/`):

    ./scripts/run synth --out /tmp/det-c --scenes 4000 --seed 303 --designs train --invented-designs 0 --art-cache ~/.cache/pone/art
    ./scripts/run synth --out /tmp/det-b --scenes 3000 --seed 202 --designs train --invented-designs 0 --art-cache ~/.cache/pone/art
    python3 models/train_detector.py --data /tmp/det-c /tmp/det-b --out models/finder.onnx --steps 10000

On a GPU, `--device cuda --seconds S --workers N` trains for S seconds (the
learning rate following the time spent) with N processes making the views;
`models/train_finder_gpu.sh` renders session 27's scenes and runs it.

The network is fully convolutional (full 3x3 convolutions down to the 4-pixel
cells, separable blocks below, a feature pyramid back up) and answers on a
grid of 4x4-pixel cells. Its targets are dense: every cell mostly inside what
shows of an index window (the window minus the cards drawn over it) or of a
back is that object, and regresses where the object lies; the app puts the
cells' votes together (`decode` here, `vision/src/finder.rs` there).

| channel | what |
|---|---|
| 0 | the cell lies on what shows of a face-up card's index window (sigmoid, 0..1) |
| 1 | the cell lies on what shows of a face-down card (sigmoid) |
| 2, 3 | the object's centre, minus the cell's centre (pixels / 16) |
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
    """Full 3x3 convolutions down to the 4-pixel cells (indices are 8-10 pixels
    tall at 640), separable blocks below, a feature pyramid back up to the cells."""

    def __init__(self, widths=(32, 64, 96, 128), pyramid=32, outputs=16, light=False):
        super().__init__()
        w = widths
        # light: the second stride and the last 3x3 at the 4-pixel cells made
        # separable, for frames seen at up to 1280 (about half the work).
        second = Separable(16, w[0], 2) if light else cbr(16, w[0], 3, 2)
        self.s4 = nn.Sequential(cbr(3, 16, 3, 2), second, Separable(w[0], w[0]), Separable(w[0], w[0]))
        self.s8 = nn.Sequential(Separable(w[0], w[1], 2), Separable(w[1], w[1]), Separable(w[1], w[1]))
        self.s16 = nn.Sequential(Separable(w[1], w[2], 2), Separable(w[2], w[2]), Separable(w[2], w[2]))
        self.s32 = nn.Sequential(Separable(w[2], w[3], 2), Separable(w[3], w[3]), Separable(w[3], w[3]))
        self.l4, self.l8, self.l16, self.l32 = (cbr(c, pyramid, 1) for c in w)
        self.m16, self.m8 = Separable(pyramid, pyramid), Separable(pyramid, pyramid)
        self.m4 = Separable(pyramid, pyramid) if light else cbr(pyramid, pyramid, 3)
        self.head = nn.Conv2d(pyramid, outputs, 1)
        with torch.no_grad():
            self.head.bias[:2].fill_(-4.0)

    def features(self, x):
        """The 4-pixel stage's features, and the head's raw answer."""
        a = self.s4(x)
        b = self.s8(a)
        c = self.s16(b)
        d = self.s32(c)
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")  # noqa: E731
        p = self.l32(d)
        p = self.m16(self.l16(c) + up(p))
        p = self.m8(self.l8(b) + up(p))
        p = self.m4(self.l4(a) + up(p))
        return a, self.head(p)

    def raw(self, x):
        return self.features(x)[1]

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


def load_scenes(folders, cache, workers=1):
    """Every scene, scaled so its long side is BASE, with its cards in those pixels."""
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    images, objects = [], []
    for folder in folders:
        names = sorted(f[:-5] for f in os.listdir(os.path.join(folder, "labels")) if f.endswith(".json"))
        jobs = [(folder, name) for name in names]
        if workers > 1:
            from multiprocessing import Pool

            with Pool(workers) as pool:
                loaded = pool.map(load_scene, jobs, chunksize=16)
        else:
            loaded = [load_scene(job) for job in jobs]
        for scene in loaded:
            if scene is not None:
                images.append(scene[0])
                objects.append(scene[1])
        print(f"{folder}: {len(names)} scenes", flush=True)
    if cache:
        with open(cache, "wb") as f:
            pickle.dump((images, objects), f, protocol=5)
    return images, objects


def load_scene(job):
    """One scene scaled so its long side is BASE, and its cards in those pixels
    (None when its image cannot be read)."""
    folder, name = job
    with open(os.path.join(folder, "labels", name + ".json")) as f:
        labels = json.load(f)
    image = cv2.imread(os.path.join(folder, "images", name + ".jpg"))
    if image is None:
        return None
    scale = BASE / max(labels["width"], labels["height"])
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image[:, :, ::-1].copy(), scene_objects(labels, scale)


class Frames:
    """The scenes' frames at full size, read from disk when asked (a few
    thousand 1280x720 frames do not fit in memory)."""

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = cv2.imread(self.paths[i])
        if image is None:
            sys.exit(f"cannot read {self.paths[i]}")
        return image[:, :, ::-1].copy()


def load_native(folders):
    """Every scene at full size: its frame (read when asked) and its cards in its pixels."""
    paths, objects = [], []
    for folder in folders:
        names = sorted(f[:-5] for f in os.listdir(os.path.join(folder, "labels")) if f.endswith(".json"))
        for name in names:
            path = os.path.join(folder, "images", name + ".jpg")
            if not os.path.exists(path):
                continue
            with open(os.path.join(folder, "labels", name + ".json")) as f:
                labels = json.load(f)
            paths.append(path)
            objects.append(scene_objects(labels, 1.0))
        print(f"{folder}: {len(names)} scenes", flush=True)
    return Frames(paths), objects


def scene_objects(labels, scale):
    """The labelled cards in drawing order (a later card lies on the earlier ones):
    (back, corners, visible box, share visible, [(index window, share of it visible)]).

    A window's share is None for a design with no index corner (the renderer
    labels none): such a card is neither a corner to find nor one to miss.
    """
    out = []
    for card in labels["cards"]:
        corners = np.float64(card["corners"]) * scale
        box = np.float64(card["box"]) * scale
        back = card["card"] == "back"
        wins = []
        if not back:
            for k, quad in enumerate(windows(corners)):
                v = card["index"][k]["visible"] if k < len(card["index"]) else None
                wins.append((quad, v))
        out.append((back, corners, box, card["visible"], wins))
    return out


# With --native: the card height (network pixels) a training view shows the
# scene's typical card at, drawn between these: the app sees a frame at 640
# first (cards from about 30 pixels up), then again so that its cards are
# about 100 pixels tall (`vision/src/finder.rs` `wanted_side`).
NATIVE_CARD = (28.0, 280.0)
NATIVE = False


def typical_card(objects):
    heights = [float(np.linalg.norm(o[1][3] - o[1][0])) for o in objects]
    return float(np.median(heights)) if heights else 0.0


def random_view(rng, shape, big, objects):
    """An affine map from the scene to a CROP x CROP training view: zoom, turn,
    shift; half the views centred near a card (cards cover little of a
    table), half anywhere, so that the table, its clutter and the things on
    it are seen as much as the frame shows them. With --native the scene is
    at full size and the zoom makes its typical card a drawn height."""
    h, w = shape[:2]
    typical = typical_card(objects)
    if NATIVE and typical > 0:
        wanted = math.exp(rng.uniform(math.log(NATIVE_CARD[0]), math.log(NATIVE_CARD[1])))
        s = min(max(wanted / typical, 0.15), 2.5)
    elif NATIVE:
        s = math.exp(rng.uniform(math.log(0.25), math.log(1.5)))
    else:
        s = math.exp(rng.uniform(math.log(0.5), math.log(3.5 if big else 1.8)))
    angle = rng.choice([0, 90, 180, 270]) + rng.uniform(-12, 12)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * s
    if objects and rng.random() < 0.5:
        centre = objects[rng.integers(len(objects))][1].mean(0) + rng.normal(0, CROP / 4 / s, 2)
    else:
        centre = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    m = np.zeros((2, 3))
    m[:, :2] = rot
    m[:, 2] = np.array([CROP / 2, CROP / 2]) - rot @ centre
    return m


def apply(m, points):
    return np.asarray(points) @ m[:, :2].T + m[:, 2]


# A window counts as a corner to find when at least this share of it shows
# (in the view, not under a later card, and as labelled); below IGNORE_BELOW it
# is table, and in between neither answer is wrong. The same for backs.
CORNER_SHOWS, CORNER_IGNORE = 0.7, 0.3
BACK_SHOWS, BACK_IGNORE = 0.25, 0.1


def fill(shape, quad):
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(quad) * 16).astype(np.int32)], 1, lineType=cv2.LINE_8, shift=4)
    return mask.astype(bool)


def targets(objects, m, size=(CROP, CROP)):
    """Dense targets on the grid of cells: every cell mostly inside what shows
    of an index window (or of a back) is that object, and regresses its centre,
    its window and its visible box. Also the objects themselves, for validation:
    (kind, share shown, centre, window or None, box)."""
    W, H = size
    gw, gh = W // STRIDE, H // STRIDE
    top = np.zeros((H, W), np.int32)
    quads = [apply(m, o[1]) for o in objects]
    for i, q in enumerate(quads):
        cv2.fillPoly(top, [np.round(q * 16).astype(np.int32)], i + 1, lineType=cv2.LINE_8, shift=4)
    heat = np.zeros((2, gh, gw), np.float32)
    weight = np.ones((2, gh, gw), np.float32)
    reg = np.zeros((14, gh, gw), np.float32)
    regw = np.zeros((2, gh, gw), np.float32)  # window, box
    ys, xs = np.mgrid[0:gh, 0:gw]
    cx, cy = (xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE
    found = []

    def coverage(mask):
        return mask.reshape(gh, STRIDE, gw, STRIDE).mean(axis=(1, 3))

    for i, (back, _corners, box, visible, wins) in enumerate(objects):
        q = quads[i]
        if q[:, 0].max() < 0 or q[:, 1].max() < 0 or q[:, 0].min() >= W or q[:, 1].min() >= H:
            continue
        own = top == i + 1
        bx = apply(m, [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]])
        box2 = np.array([bx[:, 0].min(), bx[:, 1].min(), bx[:, 0].max(), bx[:, 1].max()])
        box2 = np.clip(box2, 0, [W, H, W, H])
        parts = []
        if back:
            area = abs(cv2.contourArea(np.float32(q))) / STRIDE**2
            cov = coverage(own)
            share = min(visible, float(cov.sum()) / max(area, 1e-6))
            centre = (box2[:2] + box2[2:]) / 2
            parts.append((1, share, cov, centre, None, BACK_SHOWS, BACK_IGNORE))
        else:
            for quad, v in wins:
                wq = apply(m, quad)
                area = abs(cv2.contourArea(np.float32(wq))) / STRIDE**2
                cov = coverage(fill((H, W), wq) & own)
                if v is None:
                    weight[0][cov > 0.15] = 0.0
                    continue
                share = min(v, float(cov.sum()) / max(area, 1e-6))
                parts.append((0, share, cov, wq.mean(0), wq, CORNER_SHOWS, CORNER_IGNORE))
        for kind, share, cov, centre, wq, shows, ignore_below in parts:
            if share < ignore_below:
                continue
            if share < shows:
                weight[kind][cov > 0.15] = 0.0
                found.append((kind, share, centre, wq, box2))
                continue
            found.append((kind, share, centre, wq, box2))
            weight[kind][(cov > 0.15) & (cov < 0.5)] = 0.0
            yy, xx = np.nonzero(cov >= 0.5)
            if len(yy) == 0:
                continue
            heat[kind, yy, xx] = 1.0
            ccx, ccy = cx[yy, xx], cy[yy, xx]
            reg[0, yy, xx] = (centre[0] - ccx) / 16
            reg[1, yy, xx] = (centre[1] - ccy) / 16
            if wq is not None:
                for k in range(4):
                    reg[2 + 2 * k, yy, xx] = (wq[k, 0] - ccx) / 16
                    reg[3 + 2 * k, yy, xx] = (wq[k, 1] - ccy) / 16
                extent = float(np.linalg.norm(wq[2] - wq[0]))
                regw[0, yy, xx] = 1.0 / max(extent / 16.0, 0.5)
            for k in range(4):
                reg[10 + k, yy, xx] = (box2[k] - (ccx if k % 2 == 0 else ccy)) / 16
            regw[1, yy, xx] = 1.0 / max(float(np.linalg.norm(box2[2:] - box2[:2])) / 64.0, 0.5)
    return heat, weight, reg, regw, found


def batch(images, objects, idx, rng, train=True, side=None, compact=False):
    """Training views (or, with train=False, whole frames, their long side
    `side` pixels or as loaded) and their targets. With `compact`, the views
    as bytes and the targets in 16 bits, for a DataLoader's workers to pass
    on cheaply (`widen` makes them whole again)."""
    xs, hs, ws, rs, rws, founds = [], [], [], [], [], []
    for i in idx:
        img = images[i]
        big = any(not o[0] and np.linalg.norm(o[1][2] - o[1][0]) > 150 for o in objects[i])
        if train:
            m = random_view(rng, img.shape, big or rng.random() < 0.3, objects[i])
            size = (CROP, CROP)
            border = tuple(int(v) for v in rng.integers(0, 255, 3))
        else:
            k = side / max(img.shape[:2]) if side else 1.0
            m = np.array([[k, 0, 0], [0, k, 0]])
            size = (-(-round(img.shape[1] * k) // 32) * 32, -(-round(img.shape[0] * k) // 32) * 32)
            border = (0, 0, 0)
        xs.append(cv2.warpAffine(img, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border))
        h, w, r, rw, found = targets(objects[i], m, size)
        hs.append(h), ws.append(w), rs.append(r), rws.append(rw), founds.append(found)
    x = torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2)
    if compact:
        return x, *(torch.from_numpy(np.stack(a).astype(np.float16)) for a in (hs, ws, rs, rws)), founds
    return x.float() / 255.0, *(torch.from_numpy(np.stack(a)) for a in (hs, ws, rs, rws)), founds


def widen(x, heat, weight, reg, regw):
    """A compact batch (`batch(..., compact=True)`) as the network and the loss take it."""
    return x.float() / 255.0, heat.float(), weight.float(), reg.float(), regw.float()


def photometric(x):
    n, d = x.shape[0], x.device
    x = x ** torch.empty(n, 1, 1, 1, device=d).uniform_(0.7, 1.4)
    x = x * torch.empty(n, 1, 1, 1, device=d).uniform_(0.5, 1.3) * torch.empty(n, 3, 1, 1, device=d).uniform_(0.85, 1.15)
    x = x + torch.empty(n, 1, 1, 1, device=d).uniform_(-0.08, 0.08)
    blur = torch.rand(n, device=d) < 0.3
    if blur.any():
        k = torch.tensor([1.0, 2.0, 1.0], device=d)
        k = (k[:, None] * k[None, :]) / 16.0
        x[blur] = F.conv2d(x[blur], k.expand(3, 1, 3, 3), padding=1, groups=3)
    x = x + torch.randn_like(x) * torch.empty(n, 1, 1, 1, device=d).uniform_(0.0, 0.04)
    return x.clamp(0.0, 1.0)


def loss_fn(out, heat, weight, reg, regw):
    # Focal loss on the two masks, each on its own count of object cells.
    p = torch.sigmoid(out[:, :2])
    bce = F.binary_cross_entropy_with_logits(out[:, :2], heat, reduction="none")
    per = (bce * (heat - p).abs() ** 2 * weight).sum(dim=(0, 2, 3))
    npos = heat.sum(dim=(0, 2, 3)).clamp(min=1.0)
    focal = 2.0 * per[0] / npos[0] + per[1] / npos[1]
    l1 = (out[:, 2:] - reg).abs()
    ncells = heat.amax(1).sum().clamp(min=1.0)
    centre = (l1[:, 0:2] * regw[:, 1:2]).sum() / ncells
    quad = (l1[:, 2:10] * regw[:, 0:1]).sum() / heat[:, 0].sum().clamp(min=1.0)
    box = (l1[:, 10:14] * regw[:, 1:2]).sum() / ncells
    return focal, centre, quad, box


def boxes_iou(boxes, box):
    w = np.clip(np.minimum(boxes[:, 2], box[2]) - np.maximum(boxes[:, 0], box[0]), 0, None)
    h = np.clip(np.minimum(boxes[:, 3], box[3]) - np.maximum(boxes[:, 1], box[1]), 0, None)
    inter = w * h
    union = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) + (box[2] - box[0]) * (box[3] - box[1]) - inter
    return inter / np.maximum(union, 1e-6)


SAME_OBJECT = 0.5  # votes whose boxes overlap this much are for one object
LEAST_MASS = 1.0  # the least summed score of an object's votes


def decode(maps, threshold, same=SAME_OBJECT, mass=LEAST_MASS):
    """The finds in one frame's maps (numpy [16, gh, gw], masks already 0..1),
    as the app decodes them (`vision/src/finder.rs`): the cells above threshold,
    strongest first, each taking the cells whose box (an index corner's window
    box, a back's visible box) overlaps its own; an object whose votes sum to
    less than `mass` is dropped. Gives per kind a list of (score, centre,
    window or None, box)."""
    finds = {0: [], 1: []}
    for kind in (0, 1):
        ys, xs = np.nonzero(maps[kind] >= threshold)
        if len(ys) == 0:
            continue
        s = maps[kind, ys, xs]
        ccx, ccy = (xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE
        # Output channels: 2, 3 the centre; 4..11 the window; 12..15 the box.
        centres = np.stack([ccx + maps[2, ys, xs] * 16, ccy + maps[3, ys, xs] * 16], 1)
        quads = np.stack([np.stack([ccx + maps[4 + 2 * k, ys, xs] * 16, ccy + maps[5 + 2 * k, ys, xs] * 16], 1) for k in range(4)], 1)
        boxes = np.stack([(ccx, ccy)[k % 2] + maps[12 + k, ys, xs] * 16 for k in range(4)], 1)
        keys = np.concatenate([quads.min(1), quads.max(1)], 1) if kind == 0 else boxes
        taken = np.zeros(len(s), bool)
        masses = []
        for j in np.argsort(-s, kind="stable"):
            if taken[j]:
                continue
            near = ~taken & (boxes_iou(keys, keys[j]) >= same)
            near[j] = True
            if kind == 1:
                # A back's votes are gathered again round their average.
                w = s[near] / s[near].sum()
                near = ~taken & (boxes_iou(keys, (boxes[near] * w[:, None]).sum(0)) >= same)
                near[j] = True
            taken |= near
            if s[near].sum() < mass:
                continue
            w = s[near] / s[near].sum()
            quad = (quads[near] * w[:, None, None]).sum(0) if kind == 0 else None
            finds[kind].append((float(s[j]), (centres[near] * w[:, None]).sum(0), quad, (boxes[near] * w[:, None]).sum(0)))
            masses.append(float(s[near].sum()))
        if kind == 1:
            finds[1] = drop_leftovers(finds[1], masses)
    return finds


LEFTOVER_OVERLAP, LEFTOVER_RATIO = 0.4, 10.0


def drop_leftovers(backs, masses):
    """Without the backs that overlap a back of ten times their votes by 0.4
    or more (`finder.rs` `drop_leftovers`)."""
    kept = []
    for k in np.argsort(-np.asarray(masses), kind="stable"):
        box = backs[k][3]
        if not any(m >= LEFTOVER_RATIO * masses[k] and boxes_iou(b[3][None], box)[0] >= LEFTOVER_OVERLAP for b, m in kept):
            kept.append((backs[k], masses[k]))
    return [b for b, _ in kept]


FROZEN_NORMS = False  # --from-onnx: the batch norms are folded into the convolutions


def train_mode(model):
    """Training mode, but with --from-onnx the batch norms stay as loaded (the
    identity: the exported model folded them into its convolutions)."""
    model.train()
    if FROZEN_NORMS:
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.eval()


def load_onnx(model, path):
    """An exported finder's weights into `model` (the same architecture): its
    convolutions in the order they run, the batch norms (folded into them by
    the export) set to the identity."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    order = [model.s4, model.s8, model.s16, model.s32, model.l32, model.l16, model.m16,
             model.l8, model.m8, model.l4, model.m4, model.head]
    ours = [m for part in order for m in part.modules() if isinstance(m, nn.Conv2d)]
    if len(ours) != len(convs):
        sys.exit(f"{path} has {len(convs)} convolutions, this network {len(ours)}: not the same architecture")
    with torch.no_grad():
        for conv, node in zip(ours, convs):
            w = torch.from_numpy(weights[node.input[1]].copy())
            if w.shape != conv.weight.shape:
                sys.exit(f"{path}: a convolution of shape {tuple(w.shape)} where this network has {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            bias = torch.from_numpy(weights[node.input[2]].copy()) if len(node.input) > 2 else torch.zeros(w.shape[0])
            if conv.bias is not None:
                conv.bias.copy_(bias)
                continue
            norm = next(m for m in model.modules() if isinstance(m, nn.Sequential) and len(m) == 3 and m[0] is conv)[1]
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)


def validate(model, images, objects, idx, rng, threshold=0.5, side=None):
    """Recall and precision of index corners and backs, and the window's error
    (pixels), on whole frames seen with their long side `side`."""
    model.eval()
    count = {0: [0, 0, 0], 1: [0, 0, 0]}  # found, finds, objects to find
    errors = []
    device = next(model.parameters()).device
    with torch.no_grad():
        for i in idx:
            x, *_, founds = batch(images, objects, [i], rng, train=False, side=side)
            maps = model(x.to(device))[0].float().cpu().numpy()
            finds = decode(maps, threshold)
            for kind in (0, 1):
                truth = founds[0]
                truth = [t for t in truth if t[0] == kind]
                used = set()
                count[kind][2] += sum(1 for t in truth if t[1] >= (CORNER_SHOWS if kind == 0 else BACK_SHOWS))
                for _score, centre, quad, box in finds[kind]:
                    best, dist = None, None
                    for j, (_k, share, c, wq, b) in enumerate(truth):
                        radius = 0.5 * (min(np.linalg.norm(wq[1] - wq[0]), np.linalg.norm(wq[3] - wq[0])) if wq is not None else min(b[2] - b[0], b[3] - b[1]))
                        d = float(np.linalg.norm(centre - c))
                        if j not in used and d <= max(radius, 3.0) and (dist is None or d < dist):
                            best, dist = j, d
                    if best is None:
                        count[kind][1] += 1
                        continue
                    used.add(best)
                    if truth[best][1] < (CORNER_SHOWS if kind == 0 else BACK_SHOWS):
                        continue  # half hidden: finding it is neither right nor wrong
                    count[kind][0] += 1
                    count[kind][1] += 1
                    if kind == 0:
                        errors.append(float(np.abs(quad - truth[best][3]).mean()))
    train_mode(model)
    text = []
    for kind, name in ((0, "corners"), (1, "backs")):
        tp, det, n = count[kind]
        text.append(f"{name} recall {tp / max(n, 1):.4f} precision {tp / max(det, 1):.4f} ({n})")
    text.append(f"window error {np.median(errors) if errors else float('nan'):.2f} px")
    return ", ".join(text)


class Reuse:
    """The frames, the last few kept decoded (a frame read once gives several
    views)."""

    def __init__(self, frames, keep=32):
        self.frames, self.keep, self.cache = frames, keep, {}

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, i):
        if i not in self.cache:
            if len(self.cache) >= self.keep:
                self.cache.pop(next(iter(self.cache)))
            self.cache[i] = self.frames[i]
        return self.cache[i]


class Views(torch.utils.data.IterableDataset):
    """Endless compact training batches (views and their targets) for a
    DataLoader's workers, each worker with its own random stream, each frame
    read once for `reuse` views of it (a full frame costs more to read than a
    view to make). `native` and `crop`, when given, are this module's NATIVE
    and CROP in the workers."""

    def __init__(self, images, objects, train, size, seed, reuse=1, native=None, crop=None):
        self.images, self.objects, self.train, self.size, self.seed = images, objects, train, size, seed
        self.reuse, self.native, self.crop = reuse, native, crop

    def __iter__(self):
        global NATIVE, CROP
        if self.native is not None:
            NATIVE = self.native
        if self.crop is not None:
            CROP = self.crop
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, info.id if info else 0])
        frames = Reuse(self.images, keep=self.size) if self.reuse > 1 else self.images
        while True:
            idx = np.repeat(rng.choice(self.train, -(-self.size // self.reuse)), self.reuse)[: self.size]
            yield batch(frames, self.objects, idx, rng, compact=True)[:5]


def rate(fraction, peak, warm=0.05):
    """The learning rate a share of the way through a run timed by --seconds:
    a linear warm-up, then a cosine down to a thousandth of the peak."""
    if fraction < warm:
        return peak * (0.04 + 0.96 * fraction / warm)
    f = min((fraction - warm) / (1.0 - warm), 1.0)
    return peak * (0.001 + 0.999 * 0.5 * (1.0 + math.cos(math.pi * f)))


def main():
    global CROP
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", default=[], help="pone synth folders (images/, labels/)")
    parser.add_argument("--out", default="models/finder.onnx")
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--seconds", type=float, default=None,
                        help="train for this long instead of --steps, the learning rate following the time spent")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--crop", type=int, default=CROP, help="training crops' side, pixels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cpu", help="cpu, or cuda to train on a GPU")
    parser.add_argument("--workers", type=int, default=0, help="processes making the training views (0: this one)")
    parser.add_argument("--load-workers", type=int, default=1, help="processes reading and scaling the scenes")
    parser.add_argument("--cache", default=None, help="keep the scaled scenes in this file to load faster next time")
    parser.add_argument("--resume", default=None, help="start from these PyTorch weights")
    parser.add_argument("--export-only", action="store_true", help="export the --resume weights and stop")
    parser.add_argument("--light", action="store_true", help="the lighter network (separable second stride and last 3x3)")
    parser.add_argument("--native", action="store_true", help="views from the full-size frames, zoomed by their cards' size")
    parser.add_argument("--from-onnx", default=None, help="start from an exported finder's weights (same architecture; its batch norms stay folded)")
    parser.add_argument("--lr", type=float, default=3e-3, help="the schedule's peak learning rate")
    args = parser.parse_args()
    global NATIVE, FROZEN_NORMS
    NATIVE = args.native
    FROZEN_NORMS = args.from_onnx is not None
    CROP = args.crop
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(int(os.environ.get("PONE_THREADS", os.cpu_count() or 2)))

    if args.export_only:
        model = Finder(light=args.light)
        model.load_state_dict(torch.load(args.resume, map_location="cpu"))
        export(model, args.out)
        return
    begun = time.time()
    images, objects = load_native(args.data) if args.native else load_scenes(args.data, args.cache, args.load_workers)
    if not images:
        sys.exit(f"no scenes under {args.data}: make them with `pone synth`")
    order = rng.permutation(len(images))
    held = order[: max(1, len(images) // 20)]
    train = order[len(held) :]
    print(f"{len(train)} training scenes, {len(held)} held back ({time.time() - begun:.0f} s to load)", flush=True)

    device = torch.device(args.device)
    torch.backends.cudnn.benchmark = True
    model = Finder(light=args.light)
    if args.from_onnx:
        load_onnx(model, args.from_onnx)
    if args.resume:
        model.load_state_dict(torch.load(args.resume, map_location="cpu"))
    model = model.to(device, memory_format=torch.channels_last)
    train_mode(model)
    print(f"{sum(p.numel() for p in model.parameters())} parameters, on {device}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    timed = args.seconds is not None
    steps = 10**9 if timed else args.steps
    sched = None if timed else torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    if args.workers > 0:
        loader = iter(torch.utils.data.DataLoader(
            Views(images, objects, train, args.batch, args.seed), batch_size=None,
            num_workers=args.workers, pin_memory=device.type == "cuda", prefetch_factor=4, persistent_workers=True))
        views = lambda: next(loader)  # noqa: E731  (compact: widened on the device)
    else:
        views = lambda: batch(images, objects, rng.choice(train, args.batch), rng, compact=True)[:5]  # noqa: E731
    # Held-back checks every 1,000 of --steps, or every quarter of --seconds,
    # and after the last step; the weights are saved at each.
    next_check = args.seconds / 4 if timed else None
    weights = os.path.splitext(args.out)[0] + ".pt"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    def check(when):
        torch.save(model.state_dict(), weights)
        side = BASE if args.native else None
        print(f"{when}: at {BASE}: {validate(model, images, objects, held[:150], np.random.default_rng(7), side=side)}", flush=True)
        if args.native:
            print(f"{when}: at 1280: {validate(model, images, objects, held[:60], np.random.default_rng(7), side=1280)}", flush=True)

    if args.from_onnx or args.resume:
        check("the start")  # the weights started from, on the same held-back scenes
    start = time.time()
    running = np.zeros(4)
    step = 0
    while step < steps:
        if timed:
            fraction = (time.time() - start) / args.seconds
            if fraction >= 1.0:
                break
            for group in opt.param_groups:
                group["lr"] = rate(fraction, args.lr)
        step += 1
        x, heat, weight, reg, regw = widen(*(t.to(device, non_blocking=True) for t in views()))
        x = photometric(x).contiguous(memory_format=torch.channels_last)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            out = model.raw(x)
        parts = loss_fn(out.float(), heat, weight, reg, regw)
        loss = parts[0] + parts[1] + parts[2] + 0.5 * parts[3]
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        if step % 100 == 0:
            running = 0.9 * running + 0.1 * np.array([p.item() for p in parts]) if step > 100 else np.array([p.item() for p in parts])
            print(f"step {step}: loss masks {running[0]:.3f} centre {running[1]:.3f} quad {running[2]:.3f} box {running[3]:.3f}, "
                  f"lr {opt.param_groups[0]['lr']:.2e}, {time.time() - start:.0f} s ({step * args.batch / (time.time() - start):.0f} views/s)", flush=True)
        if timed and next_check < args.seconds and time.time() - start >= next_check:
            next_check += args.seconds / 4  # the fourth comes after the last step
            check(f"step {step}")
        elif not timed and step % 1000 == 0 and step < steps:
            check(f"step {step}")
    print(f"{step} steps of {args.batch} in {time.time() - start:.0f} s; weights in {weights}", flush=True)
    check(f"step {step} (the last)")
    export(model.cpu().float(), args.out)


def export(model, out):
    export_checked(
        model, torch.rand(1, 3, 384, 640), out, "image", "maps",
        {"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}}, 1e-3,
    )


if __name__ == "__main__":
    main()
