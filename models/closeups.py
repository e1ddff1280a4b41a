"""Landscape close-ups for measuring: one card lying sideways and filling a
picture, or a large card anywhere on it, pasted onto empty rendered tables.

The renderer's own close-ups (`pone synth`, one card filling the frame) mostly
stand upright; a phone held landscape over a card lying sideways gives a
picture neither card-shaped nor small, whose card is far larger than the
finder reads best. Also (`--square`) loose 224x224 square crops of one card, as
`crops-gpiosenka-train` has them: the card about as tall as the square, at
a tilt, its index now and then cut off, blurred, dim or bright, tinted and
compressed as a phone's photo. Written as class folders
(`queen of hearts/`), so that `pone eval --all DIR` measures them: read
right, and false cards.

    ./scripts/run synth --out /tmp/empty92 --scenes 200 --seed 92 --designs held-out --art-cache ~/.cache/pone/art --empty
    python3 models/closeups.py --tables /tmp/empty92/images --art ~/.cache/pone/art --out /tmp/closeup --sideways 60 --seed 9
    python3 models/closeups.py --tables /tmp/empty92/images --art ~/.cache/pone/art --out /tmp/bigcard --large 80 --seed 7
    python3 models/closeups.py --tables /tmp/empty92/images --art ~/.cache/pone/art --out /tmp/square --square 600 --seed 5
    ./scripts/run eval --all /tmp/closeup /tmp/bigcard /tmp/square

Needs Pillow (models/requirements.txt). The designs are the held-out ones of
`art/manifest.toml`, which no model trains on.
"""

import argparse
import os
import random

from PIL import Image, ImageEnhance, ImageFilter

DESIGNS = ["kenney", "plastic", "atlasnye", "jolly_royal", "penguins"]
RANKS = dict(zip("A23456789TJQK", "ace two three four five six seven eight nine ten jack queen king".split()))
SUITS = dict(zip("SHDC", "spades hearts diamonds clubs".split()))


def random_face(rng, art):
    """A random held-out design and card, and that card's face (RGBA)."""
    design, card = rng.choice(DESIGNS), rng.choice("A23456789TJQK") + rng.choice("SHDC")
    face = Image.open(os.path.join(os.path.expanduser(art), design, card + ".png")).convert("RGBA")
    return design, card, face


def save(picture, out, card, name, quality):
    """`picture` as JPEG `name` in `out`'s folder of `card` (`queen of hearts/`)."""
    folder = os.path.join(out, f"{RANKS[card[0]]} of {SUITS[card[1]]}")
    os.makedirs(folder, exist_ok=True)
    picture.save(os.path.join(folder, name), quality=quality)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", required=True, help="empty rendered tables (pone synth --empty), their images/")
    ap.add_argument("--art", required=True, help="the art cache (models/art/fetch_art.py)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sideways", type=int, default=0, help="this many cards lying sideways, filling 80-100%% of the picture's height")
    ap.add_argument("--large", type=int, default=0, help="this many cards 55-100%% of a 1280x720 picture's height, at any angle, anywhere")
    ap.add_argument("--square", type=int, default=0, help="this many 224x224 squares, each around one card 80-130%% of its side tall, blurred, lit and compressed as a phone's photo")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tables = sorted(os.path.join(args.tables, f) for f in os.listdir(args.tables))
    for i in range(args.square):
        design, card, face = random_face(rng, args.art)
        h = int(224 * rng.uniform(0.8, 1.3))
        face = face.resize((int(face.width * h / face.height), h))
        face = face.rotate(rng.choice([0, 180]) + rng.uniform(-20, 20), expand=True, resample=Image.BICUBIC)
        table = Image.open(rng.choice(tables)).convert("RGB").resize((1280, 720))
        x, y = rng.randint(300, 980 - face.width), rng.randint(100, 620 - face.height)
        table.paste(face, (x, y), face)
        cx = x + face.width // 2 + rng.randint(-12, 12)
        cy = y + face.height // 2 + rng.randint(-12, 12)
        square = table.crop((cx - 112, cy - 112, cx + 112, cy + 112))
        # a phone's photo: out of focus, dim or bright, warm or cold, squeezed
        square = square.filter(ImageFilter.GaussianBlur(rng.uniform(0, 1.8)))
        square = ImageEnhance.Brightness(square).enhance(rng.uniform(0.45, 1.2))
        square = ImageEnhance.Contrast(square).enhance(rng.uniform(0.6, 1.2))
        cast = [rng.uniform(0.8, 1.2) for _ in range(3)]
        square = Image.merge("RGB", [band.point(lambda v, k=k: min(255, int(v * k))) for band, k in zip(square.split(), cast)])
        save(square, args.out, card, f"s{i:03d}_{design}.jpg", rng.randint(25, 90))
    for i in range(args.sideways + args.large):
        sideways = i < args.sideways
        height = rng.choice([720, 960]) if sideways else 720
        table = Image.open(rng.choice(tables)).convert("RGB").resize((1280, height))
        design, card, face = random_face(rng, args.art)
        if sideways:
            w = int(height * rng.uniform(0.8, 1.0))
            face = face.resize((w, int(face.height * w / face.width)))
            face = face.rotate(rng.choice([90, 270]) + rng.uniform(-8, 8), expand=True, resample=Image.BICUBIC)
            at = ((1280 - face.width) // 2, (height - face.height) // 2)
        else:
            h = int(720 * rng.uniform(0.55, 1.0))
            face = face.resize((int(face.width * h / face.height), h))
            turn = rng.choice([0, 90, 180, 270]) + rng.uniform(-15, 15) if i % 2 else rng.uniform(0, 360)
            face = face.rotate(turn, expand=True, resample=Image.BICUBIC)
            at = (
                rng.randint(min(0, 1280 - face.width), max(0, 1280 - face.width)),
                rng.randint(min(0, 720 - face.height), max(0, 720 - face.height)),
            )
        table.paste(face, at, face)
        save(table, args.out, card, f"{i:03d}_{design}.jpg", 90)


if __name__ == "__main__":
    main()
