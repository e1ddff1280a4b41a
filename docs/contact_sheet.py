#!/usr/bin/env python3
"""Rendered scenes beside real photos, for judging the renderer's realism.

    ./target/release/pone synth --out /tmp/realism --scenes 24 --seed 3 --art-cache ~/.cache/pone/art
    python3 docs/contact_sheet.py /tmp/realism ../shared/datasets docs/contact_sheet.jpg

Left half: rendered scenes (pone synth). Right half: real photos of
`scenes-edje-train` and `single-cards-bidly` (read from ../shared/datasets,
never copied: the sheet holds small thumbnails only). Needs Pillow.
"""
import os
import sys

from PIL import Image, ImageDraw

THUMB = (320, 180)


def thumbs(paths, fit):
    out = []
    for p in paths:
        im = Image.open(p).convert("RGB")
        if fit:
            im.thumbnail(THUMB)
            canvas = Image.new("RGB", THUMB, (24, 24, 24))
            canvas.paste(im, ((THUMB[0] - im.width) // 2, (THUMB[1] - im.height) // 2))
            im = canvas
        else:
            im = im.resize(THUMB)
        out.append(im)
    return out


def main():
    synth, datasets, out = sys.argv[1:4]
    rendered = sorted(os.path.join(synth, "images", f) for f in os.listdir(os.path.join(synth, "images")))[:12]
    edje_dir = os.path.join(datasets, "scenes-edje-train")
    edje = sorted(f for f in os.listdir(edje_dir) if f.lower().endswith((".jpg", ".jpeg", ".png")))
    bidly_dir = os.path.join(datasets, "single-cards-bidly")
    bidly = sorted(f for f in os.listdir(bidly_dir) if f.lower().endswith((".jpg", ".jpeg", ".png")))
    real = [os.path.join(edje_dir, f) for f in edje[:: max(1, len(edje) // 9)][:9]]
    real += [os.path.join(bidly_dir, f) for f in bidly[:: max(1, len(bidly) // 3)][:3]]
    left = thumbs(rendered, fit=False)
    right = thumbs(real, fit=True)
    rows = (max(len(left), len(right)) + 1) // 2
    sheet = Image.new("RGB", (THUMB[0] * 4 + 12, THUMB[1] * rows + 30), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((8, 8), "rendered (pone synth)", fill=(0, 0, 0))
    draw.text((THUMB[0] * 2 + 20, 8), "real photos (scenes-edje-train, single-cards-bidly)", fill=(0, 0, 0))
    for k, im in enumerate(left):
        sheet.paste(im, ((k % 2) * THUMB[0], 30 + (k // 2) * THUMB[1]))
    for k, im in enumerate(right):
        sheet.paste(im, (THUMB[0] * 2 + 12 + (k % 2) * THUMB[0], 30 + (k // 2) * THUMB[1]))
    sheet.save(out, quality=80)


if __name__ == "__main__":
    main()
