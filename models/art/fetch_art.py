#!/usr/bin/env python3
"""Fetch real playing-card designs from package registries and rasterise them.

Every design is described in ``manifest.toml`` next to this script (the single
source of truth: packages with pinned versions and checksums, plus one
``[[design]]`` entry per deck with the file(s) inside the package and how the
cards are laid out).  For each design the script

1. downloads the pinned package with the registry's own client
   (``npm pack NAME@VERSION``, ``pip download --no-deps NAME==VERSION``,
   ``apt-get download NAME=VERSION``) and checks its sha256,
2. extracts it,
3. rasterises the 52 faces and the back(s) to
   ``CACHE/<design>/<RANK><SUIT>.png`` (RANK in ``A23456789TJQK``, SUIT in
   ``SHDC``) and ``CACHE/<design>/back.png`` (``back2.png`` ... for extra
   backs), every card trimmed to its own outline (transparent outside rounded
   corners) and scaled to a height of 350 px keeping its aspect ratio.

Then it draws the invented designs of the manifest's ``[invented]`` table
(``invent_faces.py``: decks drawn from fonts of pinned Debian font packages,
drawn suit shapes and chosen colours and layouts) into
``CACHE/invented_NN/`` the same way, and writes the real photographs of the
manifest's ``[[photos]]`` (textures and pictures from Debian and PyPI
packages) into ``CACHE/_photos/tile/`` (table tops) and
``CACHE/_photos/picture/`` (prints lying on the table), for ``pone synth
--photos``.

It is idempotent: finished designs (marker file ``.done`` with a matching
stamp), downloaded packages and extracted trees are skipped.

Needs: Python 3.11+, Pillow (``pip install -r models/art/requirements.txt``),
``rsvg-convert`` (Debian: ``apt-get install librsvg2-bin``), and the clients
``npm``, ``pip`` and ``apt-get`` (after ``apt-get update``) for the registries.

Usage:
    python3 models/art/fetch_art.py [--cache DIR] [--designs a,b] [--jobs N]
                                    [--contact-sheet PATH] [--force]
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.toml"

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
RANK_WORDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
CARD_HEIGHT = 350          # output height in px
SUPERSAMPLE = 2            # render at this multiple, then downscale (Lanczos)
ALPHA_CUT = 16             # alpha above which a pixel counts as part of a card
LOCATE_PX = 1800           # width in px of the low-resolution "where is it" render
STAMP = "fetch_art v2 h350"  # bump to force a re-render of every design

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFont
except ImportError:  # pragma: no cover - message for the user
    Image = None


def die(msg: str) -> None:
    print(f"fetch_art: error: {msg}", file=sys.stderr)
    sys.exit(1)


def log(msg: str) -> None:
    print(msg, flush=True)


def card_names() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


# --------------------------------------------------------------------------
# Requirements
# --------------------------------------------------------------------------

def check_tools(need_svg: bool) -> None:
    if Image is None:
        die("Pillow is missing: pip install -r models/art/requirements.txt")
    if need_svg and shutil.which("rsvg-convert") is None:
        die("rsvg-convert is missing: apt-get update && apt-get install -y librsvg2-bin")


# --------------------------------------------------------------------------
# Fetching and extracting packages
# --------------------------------------------------------------------------

def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        die(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return p


def dpkg_arch() -> str:
    try:
        return subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return ""


def download(pkg_key: str, pkg: dict, dl_dir: Path) -> Path:
    """Download one pinned package into dl_dir (skipped if already there)."""
    reg, name, ver = pkg["registry"], pkg["name"], pkg["version"]
    dest = dl_dir / pkg_key
    dest.mkdir(parents=True, exist_ok=True)
    have = [p for p in dest.iterdir() if p.is_file() and not p.name.startswith(".")]
    if not have:
        log(f"  downloading {reg}:{name} {ver}")
        if reg == "npm":
            if shutil.which("npm") is None:
                die("npm is missing (Debian: apt-get install npm)")
            run(["npm", "pack", f"{name}@{ver}", "--pack-destination", str(dest),
                 "--silent"], cwd=dest)
        elif reg == "pypi":
            run([sys.executable, "-m", "pip", "download", "--no-deps",
                 "--only-binary", ":all:", f"{name}=={ver}", "-d", str(dest),
                 "--quiet"])
        elif reg == "debian":
            if shutil.which("apt-get") is None:
                die("apt-get is missing: Debian packages can only be fetched on Debian")
            p = subprocess.run(["apt-get", "download", f"{name}={ver}"], cwd=dest,
                               capture_output=True, text=True)
            if p.returncode != 0:
                die(f"apt-get download {name}={ver} failed (run `apt-get update` "
                    f"first; the pinned version must still be in the archive):\n"
                    f"{p.stderr}")
        else:
            die(f"unknown registry {reg!r}")
        have = [p for p in dest.iterdir() if p.is_file() and not p.name.startswith(".")]
    if len(have) != 1:
        die(f"expected exactly one file in {dest}, found {[p.name for p in have]}")
    f = have[0]
    want = pkg.get("sha256")
    arch_ok = "arch" not in pkg or pkg["arch"] == dpkg_arch()
    if want and arch_ok:
        got = sha256_file(f)
        if got != want:
            die(f"sha256 mismatch for {f}: got {got}, manifest says {want}")
    return f


def safe_extractall(t: tarfile.TarFile, out: Path) -> None:
    # The "data" filter arrived in 3.11.4; Debian 12's python3 is 3.11.2.
    if hasattr(tarfile, "data_filter"):
        t.extractall(out, filter="data")
    else:
        for m in t.getmembers():
            if m.name.startswith("/") or ".." in Path(m.name).parts:
                die(f"unsafe path in archive: {m.name}")
        t.extractall(out)


def extract_deb(deb: Path, out: Path) -> None:
    if shutil.which("dpkg-deb"):
        run(["dpkg-deb", "-x", str(deb), str(out)])
        return
    # Fallback: a .deb is an `ar` archive holding data.tar.{xz,gz,...}.
    data = deb.read_bytes()
    if not data.startswith(b"!<arch>\n"):
        die(f"{deb} is not a Debian package")
    pos = 8
    while pos < len(data):
        hdr = data[pos:pos + 60]
        name = hdr[:16].decode().strip().rstrip("/")
        size = int(hdr[48:58].decode().strip())
        body = data[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as t:
                safe_extractall(t, out)
            return
        pos += 60 + size + (size & 1)
    die(f"no data.tar member in {deb}")


def extract(pkg_key: str, pkg: dict, archive: Path, src_dir: Path) -> Path:
    out = src_dir / pkg_key
    marker = out / ".extracted"
    if marker.exists():
        return out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    reg = pkg["registry"]
    if reg == "npm":
        with tarfile.open(archive) as t:
            safe_extractall(t, out)
    elif reg == "pypi":
        keep = pkg.get("extract_prefixes", [""])
        with zipfile.ZipFile(archive) as z:
            for m in z.namelist():
                if any(m.startswith(k) for k in keep):
                    z.extract(m, out)
    elif reg == "debian":
        extract_deb(archive, out)
    marker.write_text(archive.name + "\n")
    return out


# --------------------------------------------------------------------------
# Image helpers
# --------------------------------------------------------------------------

def trim_and_scale(img: "Image.Image", height: int = CARD_HEIGHT) -> "Image.Image":
    """Crop to the card's opaque outline, then scale to `height` keeping aspect."""
    img = img.convert("RGBA")
    alpha = img.getchannel("A").point(lambda a: 255 if a > ALPHA_CUT else 0)
    box = alpha.getbbox()
    if box is None:
        raise ValueError("blank image")
    img = img.crop(box)
    w, h = img.size
    new_w = max(1, round(w * height / h))
    # Pillow resamples RGBA in premultiplied form, so edges get no dark fringe.
    return img.resize((new_w, height), Image.LANCZOS)


def save_png(img: "Image.Image", path: Path) -> None:
    tmp = path.with_suffix(".tmp.png")
    img.save(tmp, "PNG", optimize=False, compress_level=6)
    os.replace(tmp, path)


def rsvg(svg_path: Path, out_png: Path, width: int | None = None,
         height: int | None = None, stylesheet: Path | None = None) -> None:
    cmd = ["rsvg-convert", "--unlimited"]
    if width:
        cmd += ["-w", str(width)]
    if height:
        cmd += ["-h", str(height)]
    if width and not height or height and not width:
        cmd += ["-a"]
    if stylesheet:
        cmd += ["-s", str(stylesheet)]
    cmd += ["-o", str(out_png), str(svg_path)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"rsvg-convert failed on {svg_path}: {p.stderr.strip()}")


def read_svg_text(path: Path) -> str:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8")


# --------------------------------------------------------------------------
# Renderers
# --------------------------------------------------------------------------

UNIT_PX = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4,
           "cm": 96 / 2.54, "in": 96.0}


def _len_px(v: str | None) -> float | None:
    if v is None:
        return None
    m = re.fullmatch(r"\s*([-+0-9.eE]+)\s*([a-z%]*)\s*", v)
    if not m or m.group(2) not in UNIT_PX:
        return None
    return float(m.group(1)) * UNIT_PX[m.group(2)]


class SvgSheet:
    """One SVG holding a whole deck, each card an element with a known id.

    Cards are found by id, not by grid position: the deck is rendered with every
    other card id hidden (a CSS stylesheet with ``display:none``), first at low
    resolution over an enlarged canvas (some decks keep cards outside the page)
    to find where the card is, then at full resolution over just that area.
    """

    def __init__(self, path: Path, all_ids: list[str], work: Path):
        self.text = read_svg_text(path)
        self.work = work
        self.all_ids = all_ids
        m = re.search(r"<svg\b[^>]*>", self.text)
        if not m:
            raise ValueError(f"{path}: no <svg> element")
        self.tag_span = m.span()
        tag = m.group(0)

        def attr(name: str) -> str | None:
            a = re.search(r"\s" + name + r"\s*=\s*([\"'])(.*?)\1", tag, re.S)
            return a.group(2) if a else None

        vb = attr("viewBox")
        if vb:
            x, y, w, h = (float(t) for t in re.split(r"[\s,]+", vb.strip()))
        else:
            w, h = _len_px(attr("width")), _len_px(attr("height"))
            if not w or not h:
                raise ValueError(f"{path}: cannot work out the canvas size")
            x = y = 0.0
        self.box = (x, y, w, h)
        stripped = re.sub(r"\s(width|height|viewBox|preserveAspectRatio)\s*=\s*"
                          r"([\"']).*?\2", "", tag, flags=re.S)
        self.tag_tail = stripped[len("<svg"):]
        self._baseline: dict = {}

    def _variant(self, region: tuple[float, float, float, float], px_w: int,
                 name: str) -> tuple[Path, int, int]:
        x, y, w, h = region
        px_h = max(1, round(px_w * h / w))
        tag = (f'<svg width="{px_w}" height="{px_h}" viewBox="{x:.4f} {y:.4f} '
               f'{w:.4f} {h:.4f}" preserveAspectRatio="none"{self.tag_tail}')
        text = self.text[:self.tag_span[0]] + tag + self.text[self.tag_span[1]:]
        p = self.work / f"{name}.svg"
        p.write_text(text, encoding="utf-8")
        return p, px_w, px_h

    def _css(self, show: str | None, name: str) -> Path:
        hide = [i for i in self.all_ids if i != show]
        css = ",\n".join(f'[id="{i}"]' for i in hide) + " { display: none !important; }\n"
        p = self.work / f"{name}.css"
        p.write_text(css)
        return p

    def _render(self, region, px_w: int, show: str | None, name: str) -> "Image.Image":
        svg, w, h = self._variant(region, px_w, name)
        css = self._css(show, name)
        png = self.work / f"{name}.png"
        rsvg(svg, png, stylesheet=css)
        img = Image.open(png).convert("RGBA")
        img.load()
        for f in (svg, css, png):
            f.unlink(missing_ok=True)
        return img

    def locate_region(self):
        x, y, w, h = self.box
        # Enlarge the page by one page size on every side.
        return (x - w, y - h, 3 * w, 3 * h)

    def baseline(self) -> "Image.Image":
        if "img" not in self._baseline:
            self._baseline["img"] = self._render(self.locate_region(), LOCATE_PX,
                                                 None, "baseline")
        return self._baseline["img"]

    def render_card(self, card_id: str, height: int = CARD_HEIGHT) -> "Image.Image":
        region = self.locate_region()
        low = self._render(region, LOCATE_PX, card_id, f"loc_{card_id}")
        box = ImageChops.difference(low, self.baseline()).getbbox(alpha_only=False)
        if box is None:
            raise ValueError(f"element #{card_id} renders blank")
        rx, ry, rw, rh = region
        sx, sy = rw / low.width, rh / low.height
        pad = 2
        x0, y0 = rx + (box[0] - pad) * sx, ry + (box[1] - pad) * sy
        x1, y1 = rx + (box[2] + pad) * sx, ry + (box[3] + pad) * sy
        # Render that area so the card ends up about SUPERSAMPLE * height tall.
        card_h_px = (box[3] - box[1]) * sy
        scale = SUPERSAMPLE * height / card_h_px
        px_w = max(8, round((x1 - x0) * scale))
        hi_region = (x0, y0, x1 - x0, y1 - y0)
        hi = self._render(hi_region, px_w, card_id, f"hi_{card_id}")
        padded = (max(0, box[0] - pad), max(0, box[1] - pad), box[2] + pad, box[3] + pad)
        if self.baseline().crop(padded).getchannel("A").getbbox():
            # Something that is not a card (blank frames, labels, a neighbour's
            # stray shadow) shows in this area: keep only what the card adds.
            base = self._render(hi_region, px_w, None, f"base_{card_id}")
            hi = keep_difference(hi, base)
        return trim_and_scale(hi, height)


def keep_difference(img: "Image.Image", base: "Image.Image") -> "Image.Image":
    """Make transparent every pixel of `img` that is unchanged from `base`."""
    bands = ImageChops.difference(img, base).split()   # R, G, B and A
    diff = bands[0]
    for b in bands[1:]:
        diff = ImageChops.lighter(diff, b)
    diff = diff.point(lambda v: 255 if v > 2 else 0)
    alpha = ImageChops.multiply(img.getchannel("A"), diff)
    out = img.copy()
    out.putalpha(alpha)
    return out


def card_file_name(pattern: str, rank: str, suit: str) -> str:
    words = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
    return pattern.format(r=rank, r10="10" if rank == "T" else rank, s=suit,
                          sl=suit.lower(), rl=rank.lower(), Suit=words[suit])


def sheet_ids(scheme: str) -> dict[str, str]:
    """Map card names (AS ...) to element ids for a naming scheme."""
    out = {}
    for s in SUITS:
        for r in RANKS:
            rw = RANK_WORDS.get(r, r)
            if scheme == "aisleriot":        # club_1 ... club_king
                out[r + s] = f"{SUIT_WORDS[s]}_{rw}"
            elif scheme == "kde":            # 1_club ... king_club
                out[r + s] = f"{rw}_{SUIT_WORDS[s]}"
            else:
                die(f"unknown id scheme {scheme!r}")
    return out


def render_design(d: dict, src: Path, out: Path, jobs: int) -> dict:
    """Render one design into `out`; returns {file: (w, h)}."""
    fmt = d["format"]
    out.mkdir(parents=True, exist_ok=True)
    targets: list[tuple[str, object]] = []   # (output name, source spec)
    backs = d.get("backs", [])
    back_names = ["back"] + [f"back{i}" for i in range(2, len(backs) + 1)]

    if fmt == "svg-sheet":
        ids = sheet_ids(d["ids"])
        extra = d.get("hide_ids", []) + ["joker_black", "joker_red", "black_joker",
                                          "red_joker", "joker"]
        all_ids = sorted(set(ids.values()) | set(backs) | set(extra))
        work = Path(tempfile.mkdtemp(prefix="fetch_art_"))
        try:
            sheet = SvgSheet(src / d["source"], all_ids, work)
            sheet.baseline()
            todo = [(c, ids[c]) for c in card_names()] + list(zip(back_names, backs))

            def one(item):
                name, el = item
                img = sheet.render_card(el)
                save_png(img, out / f"{name}.png")
                return name, img.size

            with cf.ThreadPoolExecutor(jobs) as ex:
                sizes = dict(ex.map(one, todo))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return sizes

    # One file per card (SVG or bitmap).
    pattern = d["pattern"]
    for c in card_names():
        targets.append((c, src / card_file_name(pattern, c[0], c[1])))
    for name, b in zip(back_names, backs):
        targets.append((name, src / b))

    def one_file(item):
        name, path = item
        if not Path(path).exists():
            raise FileNotFoundError(path)
        if str(path).endswith((".svg", ".svgz")):
            with tempfile.TemporaryDirectory(prefix="fetch_art_") as td:
                png = Path(td) / "c.png"
                rsvg(Path(path), png, height=SUPERSAMPLE * CARD_HEIGHT)
                img = Image.open(png)
                img.load()
        else:
            img = Image.open(path)
            img.load()
        img = trim_and_scale(img)
        save_png(img, out / f"{name}.png")
        return name, img.size

    with cf.ThreadPoolExecutor(jobs) as ex:
        return dict(ex.map(one_file, targets))


# --------------------------------------------------------------------------
# Contact sheet
# --------------------------------------------------------------------------

def contact_sheet(cache: Path, designs: list[dict], path: Path,
                  cards=("AS", "TH", "QC", "7D", "back"), h: int = 112,
                  columns: int = 2) -> None:
    """AS, TH, QC, 7D and the back of every design, one row per design."""
    label_w, pad, gap = 170, 5, 24
    rows = [d for d in designs if (cache / d["name"] / ".done").exists()]
    cell_w = round(h * 0.78) + pad
    block_w = label_w + len(cards) * cell_w
    per_col = -(-len(rows) // columns)
    W = pad + columns * block_w + (columns - 1) * gap + pad
    H = pad + per_col * (h + pad)
    sheet = Image.new("RGB", (W, H), (34, 102, 60))   # card-table green
    draw = ImageDraw.Draw(sheet)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 14)
        small = ImageFont.truetype("DejaVuSans.ttf", 11)
    except OSError:
        font = small = ImageFont.load_default()
    for i, d in enumerate(rows):
        col, row = divmod(i, per_col)
        x0 = pad + col * (block_w + gap)
        y = pad + row * (h + pad)
        draw.text((x0, y + h // 2 - 18), d["name"], fill="white", font=font)
        lic = d["licence"].split(" (")[0][:22]
        draw.text((x0, y + h // 2 + 2), f'{d["split"]} / {lic}', fill=(200, 230, 200),
                  font=small)
        for j, c in enumerate(cards):
            f = cache / d["name"] / f"{c}.png"
            if not f.exists():
                continue
            im = Image.open(f).convert("RGBA")
            im = im.resize((max(1, round(im.width * h / im.height)), h), Image.LANCZOS)
            sheet.paste(im, (x0 + label_w + j * cell_w, y), im)
    # An adaptive 256-colour palette keeps the file small and is plenty for a check.
    sheet = sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    sheet.save(path, "PNG", optimize=True)
    log(f"contact sheet: {path} ({path.stat().st_size // 1024} KiB, {len(rows)} designs)")


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

RENDER_KEYS = ("name", "package", "format", "source", "ids", "pattern", "backs", "hide_ids")
PKG_KEYS = ("registry", "name", "version", "sha256")



# --------------------------------------------------------------------------
# Real photographs: table tops and printed pictures (`pone synth --photos`)
# --------------------------------------------------------------------------

PHOTO_SIDE = {"tile": 512, "picture": 768}  # the longest side kept, px


def read_gimp_pattern(path: Path) -> "Image.Image":
    """A GIMP pattern (``.pat``): a big-endian header (its size, version,
    width, height, bytes per pixel, ``GPAT``, the name), then the pixels."""
    data = path.read_bytes()
    if len(data) < 24 or data[20:24] != b"GPAT":
        die(f"{path} is not a GIMP pattern (no GPAT magic)")
    header, _, width, height, depth = (int.from_bytes(data[k:k + 4], "big")
                                       for k in range(0, 20, 4))
    modes = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
    if depth not in modes or len(data) < header + width * height * depth:
        die(f"{path}: a GIMP pattern of {depth} bytes a pixel, or cut short")
    pixels = data[header:header + width * height * depth]
    return Image.frombytes(modes[depth], (width, height), pixels)


def render_photos(entries: list[dict], packages: dict, cache: Path, dl_dir: Path,
                  src_dir: Path, force: bool) -> None:
    """Writes every [[photos]] entry's files as RGB PNGs into
    ``CACHE/_photos/<use>/<package>-<name>.png`` and their licences into
    ``CACHE/_photos/LICENCES.txt``. A table top's photo that is not made to
    tile (``seamless = true``, as GIMP's patterns are) is written mirrored
    two by two, so that every table top tiles without a seam."""
    out = cache / "_photos"
    stamp = hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()[:16]
    done = out / ".done"
    if not force and done.exists() and done.read_text().strip() == stamp:
        log("photos: cached")
        return
    if out.exists():
        shutil.rmtree(out)
    licences = []
    count = {"tile": 0, "picture": 0}
    for e in entries:
        use = e["use"]
        if use not in PHOTO_SIDE:
            die(f"[[photos]] of {e['package']}: use must be tile or picture, not {use!r}")
        pkg = packages[e["package"]]
        src = extract(e["package"], pkg, download(e["package"], pkg, dl_dir), src_dir)
        files = sorted({f for g in e["files"] for f in src.glob(g)})
        files = [f for f in files if f.stem not in e.get("skip", [])]
        if not files:
            die(f"[[photos]] of {e['package']}: no file matches {e['files']}")
        (out / use).mkdir(parents=True, exist_ok=True)
        for f in files:
            img = read_gimp_pattern(f) if f.suffix == ".pat" else Image.open(f)
            img = img.convert("RGB")
            side = PHOTO_SIDE[use]
            if max(img.size) > side:
                k = side / max(img.size)
                img = img.resize((max(1, round(img.width * k)), max(1, round(img.height * k))),
                                 Image.LANCZOS)
            if use == "tile" and not e.get("seamless", False):
                # A photo that does not tile, mirrored two by two: it tiles.
                mirrored = Image.new("RGB", (img.width * 2, img.height * 2))
                flipped = img.transpose(Image.FLIP_LEFT_RIGHT)
                for (x, y), part in (((0, 0), img), ((1, 0), flipped)):
                    mirrored.paste(part, (x * img.width, 0))
                    mirrored.paste(part.transpose(Image.FLIP_TOP_BOTTOM), (x * img.width,
                                                                            img.height))
                img = mirrored
            parent = f.parent.name.lower() if f.suffix == ".pat" else ""
            name = "-".join(x for x in (e["package"], parent, f.stem.lower()) if x)
            img.save(out / use / f"{name}.png", optimize=True)
            licences.append(f"{use}/{name}.png: {e['licence']} ({pkg['registry']}:"
                            f"{pkg['name']} {pkg['version']}, {f.relative_to(src)})")
            count[use] += 1
    (out / "LICENCES.txt").write_text("\n".join(licences) + "\n")
    done.write_text(stamp + "\n")
    log(f"photos: {count['tile']} table tops, {count['picture']} pictures")


def design_stamp(d: dict, pkg: dict) -> str:
    """Hash of what decides the pixels (not of descriptive fields like split)."""
    key = json.dumps({"stamp": STAMP,
                      "design": {k: d.get(k) for k in RENDER_KEYS},
                      "pkg": {k: pkg.get(k) for k in PKG_KEYS}}, sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/pone/art"),
                    help="output/cache folder (default ~/.cache/pone/art)")
    ap.add_argument("--manifest", default=str(MANIFEST))
    ap.add_argument("--designs", default="",
                    help="comma-separated subset of designs (\"invented\": the invented "
                         "ones; \"photos\": the real photographs of [[photos]])")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--force", action="store_true", help="re-render finished designs")
    ap.add_argument("--contact-sheet", default="",
                    help="also write a contact sheet PNG (AS, TH, QC, 7D, back per design)")
    args = ap.parse_args(argv)

    man = tomllib.loads(Path(args.manifest).read_text())
    packages, designs = man["packages"], man["design"]
    if args.designs:
        want = set(args.designs.split(","))
        unknown = want - {d["name"] for d in designs} - {"invented", "photos"}
        if unknown:
            die(f"unknown designs: {sorted(unknown)}")
        designs = [d for d in designs if d["name"] in want]
    cache = Path(args.cache).expanduser().resolve()
    try:
        cache.relative_to(HERE.parent.parent)
        die(f"keep the cache outside the repository (got {cache})")
    except ValueError:
        pass
    check_tools(any(d["format"] != "png-files" for d in designs))
    dl_dir, src_dir = cache / "_packages", cache / "_extracted"

    index = {}
    for d in designs:
        pkg = packages[d["package"]]
        out = cache / d["name"]
        done = out / ".done"
        stamp = design_stamp(d, pkg)
        if not args.force and done.exists() and done.read_text().strip() == stamp:
            log(f"{d['name']}: cached")
        else:
            log(f"{d['name']}: {pkg['registry']}:{pkg['name']} {pkg['version']}")
            archive = download(d["package"], pkg, dl_dir)
            src = extract(d["package"], pkg, archive, src_dir)
            if out.exists():
                shutil.rmtree(out)
            sizes = render_design(d, src, out, args.jobs)
            faces = [sizes[c] for c in card_names()]
            aspect = sum(w for w, _ in faces) / sum(h for _, h in faces)
            (out / "info.json").write_text(json.dumps(
                {"design": d["name"], "aspect_w_over_h": round(aspect, 4),
                 "sizes": sizes}, indent=1, sort_keys=True))
            done.write_text(stamp + "\n")
            log(f"  {len(sizes)} images, aspect {aspect:.3f}")
        info = json.loads((out / "info.json").read_text())
        index[d["name"]] = info["aspect_w_over_h"]
    inv = man.get("invented")
    if inv and (not args.designs or "invented" in args.designs.split(",")):
        font_dirs = [extract(key, packages[key], download(key, packages[key], dl_dir), src_dir)
                     for key in inv["fonts"]]
        sys.path.insert(0, str(HERE))
        from invent_faces import invent

        for name in invent(cache, font_dirs, inv["designs"], inv["seed"], log=log):
            index[name] = json.loads((cache / name / "info.json").read_text())["aspect_w_over_h"]
    photos = man.get("photos", [])
    if photos and (not args.designs or "photos" in args.designs.split(",")):
        render_photos(photos, packages, cache, dl_dir, src_dir, args.force)
    # A subset run adds to the index the whole cache's run wrote.
    known = cache / "index.json"
    if args.designs and known.exists():
        index = {**json.loads(known.read_text()), **index}
    known.write_text(json.dumps(index, indent=1, sort_keys=True))
    if args.contact_sheet:
        contact_sheet(cache, designs, Path(args.contact_sheet))
    return 0


if __name__ == "__main__":
    sys.exit(main())
