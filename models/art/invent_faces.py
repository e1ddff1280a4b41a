#!/usr/bin/env python3
"""Invent card designs: decks no printer made, for training the recogniser to
hold on designs it never saw.

The art of real decks gives 29 training designs; a reader trained on them
learns their fonts and their suit shapes, and misreads a deck whose club is
thinner or whose ten is written another way. Each invented design draws its
own deck from chosen parts:

- the index: the rank in one of about 150 fonts of Debian's font packages
  (pinned in `manifest.toml`, `[invented]`), regular, bold, condensed, now and
  then italic; "10" as two figures, squeezed or not; the suit under the rank
  or beside it, small or as large as the rank; at two corners or four; a
  standard size or jumbo;
- the suits: drawn shapes (a heart curve, a diamond with straight or hollow
  sides, clubs of three balls, spades) with their own proportions, or the
  suit glyphs of a font;
- the colours: red and black of many shades, four-colour decks (blue
  diamonds, green clubs), cream, grey and tinted cards, now and then a dark
  card with light ink;
- the middle: the pips of each rank in their usual places, a large ace,
  courts as a framed picture of coloured shapes, a border or none.

Each design is `CACHE/invented_NN/` with the 52 faces `<RANK><SUIT>.png` and
`back.png`, 350 px tall, transparent outside the rounded corners, as
`fetch_art.py` writes the real designs (which calls this; it can also run on
its own once the font packages are extracted). A design is drawn from its
seed alone, so the same manifest gives the same decks.

    python3 models/art/invent_faces.py --cache ~/.cache/pone/art --fonts DIR... --designs 40 --seed 2026
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from pathlib import Path

from fetch_art import CARD_HEIGHT as HEIGHT
from fetch_art import RANKS, SUITS, save_png
from PIL import Image, ImageChops, ImageDraw, ImageFont

SS = 3  # drawn at this multiple, then scaled down
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
HOLLOW_CHARS = {"S": "\u2664", "H": "\u2661", "D": "\u2662", "C": "\u2667"}
# Fonts that are no lettering (dingbats, symbols) or a script no index uses.
NOT_FOR_RANKS = ("symbola", "standardsymbols", "d050000l", "z003", "chorus")
STAMP = "invent_faces v2"

# Where the pips of each rank lie, as (x, y) in the pip field (0..1 both ways).
PIPS = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


# --------------------------------------------------------------------------
# Fonts
# --------------------------------------------------------------------------

def find_fonts(dirs: list[Path]) -> list[Path]:
    out = []
    for d in dirs:
        for root, _dirs, files in os.walk(d):
            out.extend(Path(root) / f for f in files if f.lower().endswith((".ttf", ".otf")))
    return sorted(out)


def glyph_mask(font: ImageFont.FreeTypeFont, text: str) -> Image.Image | None:
    """The ink of `text` in `font`, trimmed to it (L, 255 is ink)."""
    left, top, right, bottom = font.getbbox(text)
    if right <= left or bottom <= top:
        return None
    im = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(im).text((2 - left, 2 - top), text, font=font, fill=255)
    box = im.getbbox()
    return im.crop(box) if box else None


def has_suits(path: Path) -> bool:
    """Whether the font draws the four suits (not its missing-glyph box)."""
    try:
        font = ImageFont.truetype(str(path), 64)
    except OSError:
        return False
    missing = glyph_mask(font, "\uffff")
    masks = [glyph_mask(font, c) for c in SUIT_CHARS.values()]
    if any(m is None for m in masks):
        return False
    if missing is not None and any(m.size == missing.size and ImageChops.difference(m, missing).getbbox() is None for m in masks):
        return False
    return len({m.tobytes() for m in masks}) == 4


class Fonts:
    def __init__(self, dirs: list[Path]):
        paths = find_fonts(dirs)
        if not paths:
            raise SystemExit(f"invent_faces: no fonts under {', '.join(map(str, dirs))}: run fetch_art.py, which fetches them")
        self.ranks = [p for p in paths if not p.name.lower().startswith(NOT_FOR_RANKS)]
        self.suits = [p for p in paths if has_suits(p)]
        if not self.ranks:
            raise SystemExit("invent_faces: no font to write ranks with")


# --------------------------------------------------------------------------
# Suit shapes
# --------------------------------------------------------------------------

def heart_points(w: float, h: float, pointy: float, n: int = 120) -> list[tuple[float, float]]:
    pts = []
    for k in range(n):
        t = 2 * math.pi * k / n
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - pointy * math.cos(4 * t)
        pts.append((x, -y))
    return fit(pts, w, h)


def fit(pts, w, h):
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    ax, bx, ay, by = min(xs), max(xs), min(ys), max(ys)
    return [((x - ax) / (bx - ax) * w, (y - ay) / (by - ay) * h) for x, y in pts]


class SuitShapes:
    """One design's four suit shapes: drawn from parameters, or a font's glyphs."""

    def __init__(self, rng: random.Random, fonts: Fonts):
        self.glyphs = None
        if fonts.suits and rng.random() < 0.45:
            font = ImageFont.truetype(str(rng.choice(fonts.suits)), 240)
            chars = HOLLOW_CHARS if rng.random() < 0.06 else SUIT_CHARS
            self.glyphs = {s: glyph_mask(font, chars[s]) for s in SUITS}
            if any(g is None for g in self.glyphs.values()):
                self.glyphs = None
        self.heart_aspect = rng.uniform(0.85, 1.12)  # width / height
        self.heart_pointy = rng.uniform(0.4, 2.0)
        self.diamond_aspect = rng.uniform(0.58, 0.85)
        self.diamond_hollow = rng.choice([0.0, 0.0, rng.uniform(0.05, 0.22)])
        self.ball = rng.uniform(0.26, 0.33)  # a club ball's radius / the shape's height
        self.ball_spread = rng.uniform(0.85, 1.05)
        self.stem_w = rng.uniform(0.12, 0.32)  # stem foot width / height
        self.stem_h = rng.uniform(0.22, 0.36)
        self.stem_curved = rng.random() < 0.6
        self.spade_aspect = rng.uniform(0.82, 1.05)
        self.spade_pointy = rng.uniform(0.6, 2.4)

    def mask(self, suit: str, height: int) -> Image.Image:
        """The suit's shape `height` pixels tall (L, 255 inside)."""
        height = max(4, int(height))
        if self.glyphs:
            g = self.glyphs[suit]
            w = max(2, round(g.width * height / g.height))
            return g.resize((w, height), Image.LANCZOS)
        big = 4  # drawn larger again, for smooth edges
        H = height * big
        if suit == "H":
            W = H * self.heart_aspect
            im = Image.new("L", (round(W) + 2, H + 2), 0)
            ImageDraw.Draw(im).polygon(heart_points(W, H, self.heart_pointy), fill=255)
        elif suit == "D":
            W = H * self.diamond_aspect
            im = Image.new("L", (round(W) + 2, H + 2), 0)
            c = self.diamond_hollow
            pts = []
            corners = [(W / 2, 0), (W, H / 2), (W / 2, H), (0, H / 2)]
            for k in range(4):
                a, b = corners[k], corners[(k + 1) % 4]
                for j in range(16):
                    t = j / 16
                    x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
                    bend = c * math.sin(math.pi * t)
                    pts.append((x + (W / 2 - x) * bend, y + (H / 2 - y) * bend))
            ImageDraw.Draw(im).polygon(pts, fill=255)
        elif suit == "S":
            W = H * self.spade_aspect
            im = Image.new("L", (round(W) + 2, H + 2), 0)
            body_h = H * (1 - self.stem_h * 0.8)
            pts = [(x, body_h - y) for x, y in heart_points(W, body_h, self.spade_pointy)]
            d = ImageDraw.Draw(im)
            d.polygon(pts, fill=255)
            self.stem(d, W / 2, body_h * 0.7, H)
        else:
            r = H * self.ball
            W = H * (2 * self.ball * self.ball_spread + 0.45)
            W = max(W, 4 * r * self.ball_spread + 2)
            im = Image.new("L", (round(W) + 2, H + 2), 0)
            d = ImageDraw.Draw(im)
            cx = W / 2
            top = (cx, r)
            side_y = r + 1.25 * r * self.ball_spread
            for x, y in (top, (cx - r * 1.05 * self.ball_spread, side_y), (cx + r * 1.05 * self.ball_spread, side_y)):
                d.ellipse([x - r, y - r, x + r, y + r], fill=255)
            d.polygon([(cx - r * 0.5, r), (cx + r * 0.5, r), (cx + r * 0.5, side_y), (cx - r * 0.5, side_y)], fill=255)
            self.stem(d, cx, side_y, H)
        box = im.getbbox()
        im = im.crop(box) if box else im
        w = max(2, round(im.width / big))
        return im.resize((w, height), Image.LANCZOS)

    def stem(self, d: ImageDraw.ImageDraw, cx: float, top: float, bottom: float):
        foot = self.stem_w * bottom
        neck = max(1.5, foot * 0.18)
        if self.stem_curved:
            pts = []
            for j in range(17):
                t = j / 16
                half = neck + (foot / 2 - neck) * t**2.2
                pts.append((cx - half, top + (bottom - top) * t))
            pts += [(2 * cx - x, y) for x, y in reversed(pts)]
        else:
            pts = [(cx - neck, top), (cx + neck, top), (cx + foot / 2, bottom), (cx - foot / 2, bottom)]
        d.polygon(pts, fill=255)


# --------------------------------------------------------------------------
# A design
# --------------------------------------------------------------------------

def shade(rng, base, spread=25):
    return tuple(max(0, min(255, c + rng.randint(-spread, spread))) for c in base)


class Style:
    """Everything one invented deck chooses once."""

    def __init__(self, seed: int, fonts: Fonts):
        rng = random.Random(seed)
        self.aspect = rng.choice([rng.uniform(0.69, 0.73), rng.uniform(0.62, 0.66), rng.uniform(0.64, 0.72)])
        self.radius = rng.uniform(0.03, 0.09)
        dark = rng.random() < 0.07
        if dark:
            self.paper = shade(rng, rng.choice([(20, 20, 25), (10, 25, 60), (60, 10, 20), (15, 45, 25)]), 12)
            self.black = shade(rng, rng.choice([(245, 245, 245), (230, 200, 110), (200, 220, 255)]), 10)
            self.red = shade(rng, rng.choice([(255, 90, 90), (255, 60, 60), (255, 140, 60)]), 10)
        else:
            self.paper = rng.choice([(255, 255, 255)] * 5 + [shade(rng, (250, 245, 228), 6), shade(rng, (236, 236, 236), 8), shade(rng, (240, 244, 250), 6)])
            self.black = shade(rng, rng.choice([(0, 0, 0), (25, 25, 25), (20, 20, 50), (40, 40, 40)]), 12)
            self.red = shade(rng, rng.choice([(210, 0, 0), (200, 20, 40), (180, 0, 20), (230, 40, 30), (200, 30, 90)]), 18)
        self.ink = {"S": self.black, "C": self.black, "H": self.red, "D": self.red}
        if rng.random() < 0.2:  # a four-colour deck
            self.ink["D"] = shade(rng, rng.choice([(0, 70, 200), (0, 90, 170), (230, 120, 0)]), 15)
            self.ink["C"] = shade(rng, rng.choice([(0, 130, 40), (20, 110, 60)]), 15)
        self.font = ImageFont.truetype(str(rng.choice(fonts.ranks)), 300)
        self.suits = SuitShapes(rng, fonts)
        jumbo = rng.random() < 0.15
        self.rank_h = rng.uniform(0.15, 0.22) if jumbo else rng.uniform(0.065, 0.14)
        self.rank_stretch = rng.uniform(0.8, 1.25)  # width as drawn
        self.ten = rng.choice(["10", "10", "10", "squeezed", "T"] if rng.random() < 0.1 else ["10", "squeezed"])
        self.suit_h = self.rank_h * rng.uniform(0.5, 1.0)
        self.gap = self.rank_h * rng.uniform(0.02, 0.3)
        self.beside = rng.random() < 0.07
        self.margin_x = rng.uniform(0.025, 0.08)
        self.margin_y = rng.uniform(0.025, 0.07)
        self.centred = rng.random() < 0.7
        self.four = rng.random() < 0.25
        self.no_suit_index = rng.random() < 0.03
        self.border = rng.choice([None, None, "line", "double"])
        self.border_ink = rng.choice([self.black, self.red, shade(rng, (30, 60, 150)), shade(rng, (180, 150, 60))])
        self.pip = rng.uniform(0.13, 0.2)  # a pip's height / the card's width
        self.ace = rng.uniform(0.3, 0.6)
        self.court_frame = rng.choice(["box", "box", "none", "oval"])
        self.court_letter = rng.random() < 0.35
        self.palette = [shade(rng, c, 30) for c in rng.sample(
            [(200, 30, 40), (30, 60, 160), (230, 190, 40), (20, 120, 60), (120, 40, 120), (0, 0, 0), (240, 140, 40), (90, 170, 220)], 5)]
        self.back = (rng.choice([(150, 20, 30), (20, 40, 130), (20, 90, 50), (60, 60, 60), (110, 20, 90)]), rng.choice(["lattice", "stripes", "dots", "plain"]))


def paste_ink(card: Image.Image, mask: Image.Image, xy, colour, rotate=False):
    if rotate:
        mask = mask.rotate(180)
    layer = Image.new("RGBA", mask.size, colour + (255,))
    card.paste(layer, (round(xy[0]), round(xy[1])), mask)


def rank_mask(style: Style, rank: str, height: int) -> Image.Image:
    text = {"T": "10"}.get(rank, rank) if style.ten != "T" else rank
    m = glyph_mask(style.font, text)
    if m is None:  # the font has no such figure: a font that does
        m = glyph_mask(ImageFont.load_default(size=300), text)
    w = m.width * height / m.height * style.rank_stretch
    if rank == "T" and style.ten == "squeezed":
        one = glyph_mask(style.font, "K") or m
        w = min(w, one.width * height / one.height * style.rank_stretch * 1.25)
    return m.resize((max(2, round(w)), height), Image.LANCZOS)


def draw_index(card, style: Style, rank: str, suit: str, W: int, H: int):
    rm = rank_mask(style, rank, round(style.rank_h * H))
    sm = style.suits.mask(suit, round(style.suit_h * H))
    ink = style.ink[suit]
    x0, y0 = style.margin_x * W, style.margin_y * H
    if style.beside:
        parts = [(rm, x0, y0), (sm, x0 + rm.width + style.gap * H * 0.5, y0 + (rm.height - sm.height) / 2)]
    else:
        col = max(rm.width, sm.width) if style.centred else 0
        rx = x0 + (col - rm.width) / 2 if style.centred else x0
        sx = x0 + (col - sm.width) / 2 if style.centred else x0
        parts = [(rm, rx, y0)]
        if not style.no_suit_index:
            parts.append((sm, sx, y0 + rm.height + style.gap * H))
    corners = [(False, False), (True, True)]
    if style.four:
        corners += [(False, True), (True, False)]
    for rotated, right in corners:
        for m, x, y in parts:
            xx = W - x - m.width if right else x
            yy = H - y - m.height if rotated else y
            paste_ink(card, m, (xx, yy), ink, rotate=rotated)


def draw_middle(card, style: Style, rank: str, suit: str, W: int, H: int, rng: random.Random):
    d = ImageDraw.Draw(card)
    ink = style.ink[suit]
    index_w = style.margin_x * W + max(style.rank_h * H * 0.8, style.suit_h * H * 0.8)
    fx0, fx1 = max(index_w * 1.15, W * 0.2), W - max(index_w * 1.15, W * 0.2)
    fy0, fy1 = H * 0.1, H * 0.9
    if rank in "JQK":
        frame = [fx0, fy0, fx1, fy1]
        if style.court_frame == "box":
            d.rectangle(frame, outline=style.border_ink, width=max(2, W // 120))
        elif style.court_frame == "oval":
            d.ellipse(frame, outline=style.border_ink, width=max(2, W // 120))
        for _ in range(rng.randint(4, 9)):
            c = rng.choice(style.palette)
            x, y = rng.uniform(fx0, fx1), rng.uniform(fy0, (fy0 + fy1) / 2)
            r1, r2 = rng.uniform(0.04, 0.2) * W, rng.uniform(0.04, 0.2) * W
            box = [x - r1, y - r2, x + r1, y + r2]
            mirrored = [W - box[2], H - box[3], W - box[0], H - box[1]]
            for b in (box, mirrored):
                b = [max(fx0, b[0]), max(fy0, b[1]), min(fx1, b[2]), min(fy1, b[3])]
                if b[2] > b[0] and b[3] > b[1]:
                    (d.ellipse if rng.random() < 0.5 else d.rectangle)(b, fill=c)
        if style.court_letter:
            m = rank_mask(style, rank, round(H * 0.25))
            paste_ink(card, m, ((W - m.width) / 2, H * 0.5 - m.height - H * 0.01), ink)
            paste_ink(card, m, ((W - m.width) / 2, H * 0.5 + H * 0.01), ink, rotate=True)
        pm = style.suits.mask(suit, round(style.pip * W * 0.8))
        paste_ink(card, pm, (fx0 + W * 0.02, fy0 + H * 0.02), ink)
        paste_ink(card, pm, (fx1 - W * 0.02 - pm.width, fy1 - H * 0.02 - pm.height), ink, rotate=True)
        return
    if rank == "A":
        m = style.suits.mask(suit, round(style.ace * W))
        paste_ink(card, m, ((W - m.width) / 2, (H - m.height) / 2), ink)
        return
    n = int(rank) if rank != "T" else 10
    ph = round(style.pip * W)
    m = style.suits.mask(suit, ph)
    px0, px1 = fx0 + m.width / 2, fx1 - m.width / 2
    py0, py1 = fy0 + ph / 2, fy1 - ph / 2
    for u, v in PIPS[n]:
        x, y = px0 + (px1 - px0) * u, py0 + (py1 - py0) * v
        paste_ink(card, m, (x - m.width / 2, y - ph / 2), ink, rotate=v > 0.5)


def rounded(im: Image.Image, radius: float) -> Image.Image:
    mask = Image.new("L", im.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, im.width - 1, im.height - 1], radius=radius, fill=255)
    im.putalpha(mask)
    return im


def draw_card(style: Style, card_code: str, seed: int) -> Image.Image:
    H = HEIGHT * SS
    W = round(H * style.aspect)
    rng = random.Random(seed)
    card = Image.new("RGBA", (W, H), style.paper + (255,))
    d = ImageDraw.Draw(card)
    if style.border:
        inset = W * 0.035
        d.rectangle([inset, inset, W - inset, H - inset], outline=style.border_ink, width=max(2, W // 150))
        if style.border == "double":
            inset = W * 0.05
            d.rectangle([inset, inset, W - inset, H - inset], outline=style.border_ink, width=max(1, W // 300))
    draw_middle(card, style, card_code[0], card_code[1], W, H, rng)
    draw_index(card, style, card_code[0], card_code[1], W, H)
    card = rounded(card, style.radius * W)
    return card.resize((round(W / SS), HEIGHT), Image.LANCZOS)


def draw_back(style: Style) -> Image.Image:
    H = HEIGHT * SS
    W = round(H * style.aspect)
    colour, pattern = style.back
    card = Image.new("RGBA", (W, H), style.paper + (255,))
    d = ImageDraw.Draw(card)
    m = W * 0.06
    d.rectangle([m, m, W - m, H - m], fill=colour)
    light = tuple(min(255, c + 90) for c in colour)
    step = W // 14
    if pattern == "lattice":
        for k in range(-H, W + H, step):
            d.line([(k, 0), (k + H, H)], fill=light, width=SS * 2)
            d.line([(k, H), (k + H, 0)], fill=light, width=SS * 2)
    elif pattern == "stripes":
        for k in range(-H, W + H, step):
            d.line([(k, 0), (k + H, H)], fill=light, width=step // 3)
    elif pattern == "dots":
        for y in range(0, H, step):
            for x in range((y // step % 2) * step // 2, W, step):
                d.ellipse([x - step / 5, y - step / 5, x + step / 5, y + step / 5], fill=light)
    frame = Image.new("L", (W, H), 0)
    ImageDraw.Draw(frame).rectangle([m, m, W - m, H - m], fill=255)
    plain = Image.new("RGBA", (W, H), style.paper + (255,))
    plain.paste(card, (0, 0), frame)
    plain = rounded(plain, style.radius * W)
    return plain.resize((round(W / SS), HEIGHT), Image.LANCZOS)


def design_name(k: int) -> str:
    """The k-th invented design's folder (`vision/src/art.rs` names them so too)."""
    return f"invented_{k:02}"


def invent(cache: Path, font_dirs: list[Path], designs: int, seed: int, log=print) -> list[str]:
    """Draws the designs into the cache (skipping those already drawn with the
    same stamp); gives their names."""
    fonts = None
    names = []
    for k in range(designs):
        name = design_name(k)
        names.append(name)
        out = cache / name
        stamp = f"{STAMP} seed {seed} design {k}"
        done = out / ".done"
        if done.exists() and done.read_text().strip() == stamp:
            continue
        if fonts is None:
            fonts = Fonts(font_dirs)
            log(f"invented designs: {len(fonts.ranks)} fonts for ranks, {len(fonts.suits)} with suit glyphs")
        out.mkdir(parents=True, exist_ok=True)
        style = Style(seed * 1000 + k, fonts)
        for s in SUITS:
            for r in RANKS:
                save_png(draw_card(style, r + s, seed * 100000 + k * 100 + RANKS.index(r) * 4 + SUITS.index(s)), out / f"{r}{s}.png")
        back = draw_back(style)
        save_png(back, out / "back.png")
        (out / "info.json").write_text(json.dumps(
            {"design": name, "aspect_w_over_h": round(back.width / back.height, 4), "font": Path(style.font.path).name}, indent=1))
        done.write_text(stamp + "\n")
        log(f"{name}: drawn ({Path(style.font.path).name})")
    return names


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/pone/art"))
    ap.add_argument("--fonts", nargs="+", required=True, help="folders holding .ttf/.otf fonts")
    ap.add_argument("--designs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    invent(Path(args.cache).expanduser(), [Path(f) for f in args.fonts], args.designs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
