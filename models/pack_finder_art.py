#!/usr/bin/env python3
"""Packs the art cache's training designs for a lent GPU machine.

    python3 models/pack_finder_art.py ~/.cache/pone/art /tmp/artq
    tar -C /tmp -cf .carry/artq.tar artq

Copies `index.json` and every design folder but the held-out ones (and the
cache's `_packages`/`_extracted`), each PNG quantized to 256 colours: about a
fifth of the size, so that the art travels within the 64 MiB a device call
carries (a card's colours stay within 2-3 levels on average; the labels,
which come from the geometry, are the same). `pone synth --designs train
--art-cache /tmp/artq` then renders from it as from the cache.
"""
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor

from PIL import Image

# The held-out designs (`split = "held_out"` in models/art/manifest.toml):
# they stay on this machine.
HELD_OUT = {"atlasnye", "plastic", "jolly_royal", "penguins", "kenney"}


def one(job):
    source, target = job
    if not source.endswith(".png"):
        shutil.copy(source, target)
        return
    image = Image.open(source).convert("RGBA")
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(target, "PNG", optimize=True)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    os.makedirs(target, exist_ok=True)
    shutil.copy(os.path.join(source, "index.json"), target)
    jobs = []
    for design in sorted(os.listdir(source)):
        folder = os.path.join(source, design)
        if not os.path.isdir(folder) or design.startswith("_") or design in HELD_OUT:
            continue
        os.makedirs(os.path.join(target, design), exist_ok=True)
        jobs += [(os.path.join(folder, f), os.path.join(target, design, f)) for f in os.listdir(folder)]
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(one, jobs, chunksize=32))
    print(f"{len(jobs)} files in {target}")


if __name__ == "__main__":
    main()
