"""Finding a face's index-corner boxes from its artwork.

How (per deck, since a deck prints every index in the same place and size):
1. Ink: pixels of the opaque card that differ clearly from the paper colour
   (the most common colour near the top-left corner), split into connected
   components. Components that run off the top-left search region (frame lines,
   court pictures) are ignored.
2. Deck geometry from the number cards 2-9, whose index is one glyph: the
   topmost-left text-sized component is the rank; their medians give the rank's
   left edge, top, height and width for the whole deck.
3. Each face: the rank is the component(s) that start where the deck's rank
   starts and have its height (a "10" is two side-by-side glyphs); the suit pip
   is the nearest component under it in the same column. A joker's index is
   the chain of components growing from the top-left (stacked letters, a star,
   a word); a compact mark (a star, a chip) grows only down its own column, so
   a word printed beside it stays art, and where the two copies come out of
   different sizes the larger is cut to the smaller's size from its corner.
4. The bottom-right copy: the same search on the face turned 180 degrees,
   mapped back.
5. Copies at the other two corners: where the ink near the top-right and
   bottom-left mirror places of the top-left box matches that box's ink
   (some decks print every index four times, some jokers their mark in all
   four corners), those are boxed too; left unboxed, the detector would learn
   the same mark as index in one corner and as background in the next.
Boxes that disagree with the deck's median box size are dropped and reported;
a deck where too few number cards give a rank is rejected instead of emitting
bad boxes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.faces import Box, CardFace, Deck

NUMBER_CLASSES = ("2", "3R", "3B", "4", "5", "6", "7", "8", "9")
CORNER_RULES = 4  # raised whenever the boxes found change, so that decks cached before are rendered again
JOKER_WIDTH = 0.9  # share of the face's width a joker's index may span: a word printed across the top, whole
COPY_LIKENESS = 0.85  # ink correlation at which a mirrored corner holds a copy of the index (deck medians over
# the 40 fetched decks, 2026-11-26: 0.94-1.00 where copies are printed, at most 0.47 elsewhere)


@dataclass(frozen=True)
class Comp:
    """One connected blob of ink: its box (pixel edges) and pixel count."""

    x1: int
    y1: int
    x2: int
    y2: int
    area: int

    @property
    def w(self) -> int:
        return self.x2 - self.x1

    @property
    def h(self) -> int:
        return self.y2 - self.y1

    @property
    def cx(self) -> float:
        return (self.x1 + self.x2) / 2


@dataclass
class Geometry:
    """Where and how large a deck prints its rank glyph (top-left copy), in face pixels."""

    left: float
    top: float
    height: float
    width: float


@dataclass
class CornerReport:
    """What the finder did for a deck: faces kept, faces dropped (with why), and a verdict."""

    deck: str
    ok: bool
    kept: int = 0
    dropped: list[str] = field(default_factory=list)
    reason: str = ""


def paper_colour(image: np.ndarray) -> np.ndarray:
    """The most common colour (quantised to 16 levels) of the opaque top-left quarter."""
    h, w = image.shape[:2]
    region = image[: h // 3, : w // 2]
    opaque = region[..., 3] > 200
    px = region[..., :3][opaque].astype(np.int32)
    if len(px) == 0:
        return np.array([255, 255, 255])
    q = px // 16
    keys = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
    mode = np.bincount(keys).argmax()
    return px[keys == mode].mean(axis=0)


def ink_mask(image: np.ndarray, paper: np.ndarray | None = None, threshold: int = 110) -> np.ndarray:
    """True where the opaque card differs from its paper by more than `threshold` (sum over RGB)."""
    if paper is None:
        paper = paper_colour(image)
    diff = np.abs(image[..., :3].astype(np.int32) - paper).sum(axis=2)
    return (diff > threshold) & (image[..., 3] > 128)


def components(image: np.ndarray, width_frac: float = 0.42, height_frac: float = 0.5) -> list[Comp]:
    """Ink blobs wholly inside the top-left search region (those crossing its far edges are art or frames)."""
    return _analyse(image, width_frac, height_frac)[1]


def _analyse(image: np.ndarray, width_frac: float = 0.42, height_frac: float = 0.5) -> tuple[np.ndarray, list[Comp]]:
    """The ink mask of the top-left search region and its blobs (see components)."""
    h, w = image.shape[:2]
    rw, rh = round(w * width_frac), round(h * height_frac)
    ink = _without_thin_lines(ink_mask(np.ascontiguousarray(image[:rh, :rw]), paper_colour(image)).astype(np.uint8), w, h)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    out = []
    min_area = max(4, (w // 100) ** 2)
    for i in range(1, n):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if area < min_area:
            continue
        if x + cw >= rw - 1 or y + ch >= rh - 1:
            continue
        if x <= 1 or y <= 1:  # touches the card's own edge: a border
            continue
        if x + cw < 0.12 * w and y + ch < 0.12 * w:  # inside the rounded corner: its outline, not an index
            continue
        if x < 0.04 * w and y < 0.04 * w and area < 0.25 * cw * ch:  # a thin arc hugging the corner
            continue
        if (cw > 0.3 * w and ch < 0.03 * h) or (ch > 0.3 * h and cw < 0.03 * w):
            continue  # a thin frame line
        out.append(Comp(x, y, x + cw, y + ch, area))
    return ink.astype(bool), out


def _without_thin_lines(ink: np.ndarray, w: int, h: int) -> np.ndarray:
    """Ink minus long straight lines at most 4 px thick and edge border bands (frames touching a rank would join it to other art)."""
    long_h = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, max(15, round(0.25 * w))), np.uint8))
    long_v = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((max(15, round(0.25 * h)), 1), np.uint8))
    thick_v = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((5, 1), np.uint8))
    thick_h = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, 5), np.uint8))
    lines = (long_h & ~thick_v) | (long_v & ~thick_h)
    ink = ink & ~lines
    # a printed border band along the card edge (any thickness): rows/columns near the edge that are mostly ink
    for r in range(min(ink.shape[0], round(0.06 * h))):
        if ink[r].mean() > 0.6:
            ink[r] = 0
    for c in range(min(ink.shape[1], round(0.06 * w))):
        if ink[:, c].mean() > 0.6:
            ink[:, c] = 0
    return ink


def _text_sized(c: Comp, w: int, h: int) -> bool:
    return 0.035 * h <= c.h <= 0.25 * h and c.w <= 0.25 * w


def first_glyph(comps: list[Comp], w: int, h: int) -> Comp | None:
    """The topmost-left text-sized blob: the rank of a one-glyph index."""
    cands = [c for c in comps if _text_sized(c, w, h) and c.x1 < 0.25 * w and c.y1 < 0.25 * h]
    if not cands:
        return None
    return min(cands, key=lambda c: c.y1 + 0.5 * c.x1)


def _union(parts: list[Comp]) -> Box:
    return (min(p.x1 for p in parts), min(p.y1 for p in parts), max(p.x2 for p in parts), max(p.y2 for p in parts))


def deck_geometry(faces: list[CardFace]) -> Geometry | None:
    """Median rank position and size over a deck's one-glyph number cards (None when too few show one)."""
    found = []
    for face in faces:
        for img in (face.image, face.image[::-1, ::-1]):
            h, w = img.shape[:2]
            g = first_glyph(components(img), w, h)
            if g is not None:
                found.append((g.x1, g.y1, g.h, g.w))
    if len(found) < max(6, len(faces)):
        return None
    a = np.array(found, np.float64)
    med = np.median(a, axis=0)
    close = a[(np.abs(a[:, 0] - med[0]) < 0.3 * med[2]) & (np.abs(a[:, 2] - med[2]) < 0.2 * med[2])]
    if len(close) < 0.6 * len(a):
        return None  # the number cards disagree: no common index layout
    m = np.median(close, axis=0)
    return Geometry(left=m[0], top=m[1], height=m[2], width=m[3])


def _rank_parts(comps: list[Comp], g: Geometry) -> list[Comp]:
    """Blobs that form the rank: starting at the deck's rank position, of its height, side by side."""
    tol = 0.35 * g.height
    first = [
        c for c in comps
        if abs(c.x1 - g.left) < tol + 0.3 * g.width and abs(c.y1 - g.top) < tol and 0.7 * g.height <= c.h <= 1.35 * g.height
    ]
    if not first:
        return []
    parts = [min(first, key=lambda c: c.x1)]
    while True:
        x1, y1, x2, y2 = _union(parts)
        nxt = [
            c for c in comps
            if c not in parts and c.x1 >= x2 - 2 and c.x1 - x2 < 0.25 * g.height
            and abs(c.y1 - y1) < 0.15 * g.height and abs(c.y2 - y2) < 0.15 * g.height
            and (max(c.x2, x2) - x1) < 2.1 * g.width + 0.2 * g.height
        ]
        if not nxt:
            return parts
        parts.append(min(nxt, key=lambda c: c.x1))


def _pip_under(comps: list[Comp], rank: Box, g: Geometry) -> Comp | None:
    """The suit pip (or colour mark) just under the rank, in its column."""
    x1, y1, x2, y2 = rank
    cx = (x1 + x2) / 2
    cands = [
        c for c in comps
        if c.y1 >= y2 - 1 and c.y1 - y2 < 0.6 * g.height and abs(c.cx - cx) < 0.45 * g.height + (x2 - x1) / 2
        and 0.25 * g.height <= c.h <= 1.4 * g.height and c.w <= 1.6 * g.height
    ]
    return min(cands, key=lambda c: c.y1) if cands else None


def _rank_in_window(ink: np.ndarray, g: Geometry) -> Box | None:
    """Fallback when the rank glyph touches other art: the first run of inked columns in the rows where the deck prints ranks."""
    y1, y2 = max(0, round(g.top)), min(ink.shape[0], round(g.top + g.height))
    x0 = max(0, round(g.left - 0.15 * g.height))
    x_end = min(ink.shape[1], round(g.left + 2.6 * g.width + 0.3 * g.height))
    cols = ink[y1:y2, x0:x_end].sum(axis=0) > 0
    xs = np.flatnonzero(cols)
    if len(xs) == 0 or xs[0] > 0.3 * g.height + 0.3 * g.width:
        return None
    max_gap = max(2, round(0.1 * g.height))
    end = xs[0]
    for x in xs[1:]:
        if x - end > max_gap:
            break
        end = x
    box = (x0 + int(xs[0]), y1, x0 + int(end) + 1, y2)
    if box[2] - box[0] > 2.1 * g.width + 0.2 * g.height:
        return None
    rows = ink[y1:y2, box[0] : box[2]].sum(axis=1) > 0
    if box[2] - box[0] < 0.3 * g.width or rows.mean() < 0.7:
        return None
    return box


def index_parts(image: np.ndarray, g: Geometry) -> tuple[Box | None, Box | None]:
    """The rank box and the pip box of the face's top-left index (each None when not found)."""
    ink, comps = _analyse(image)
    parts = _rank_parts(comps, g)
    rank = _union(parts) if parts else _rank_in_window(ink, g)
    if rank is None:
        return None, None
    pip = _pip_under(comps, rank, g)
    return rank, ((pip.x1, pip.y1, pip.x2, pip.y2) if pip is not None else None)


def index_box(image: np.ndarray, g: Geometry, joker: bool = False) -> Box | None:
    """The index box of the face's top-left corner (rank + pip under it), or None when none is found."""
    if joker:  # its word may run across the card's top
        h, w = image.shape[:2]
        return _joker_box(components(image, width_frac=JOKER_WIDTH, height_frac=0.6), g, w, h)
    rank, pip = index_parts(image, g)
    if rank is None:
        return None
    return _union_boxes([rank, pip]) if pip is not None else rank


def _union_boxes(boxes: list) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _joker_box(comps: list[Comp], g: Geometry, w: int, h: int) -> Box | None:
    """A joker's index: the blob nearest the deck's rank position, grown by close neighbours."""
    near = [c for c in comps if abs(c.x1 - g.left) < 1.2 * g.height and abs(c.y1 - g.top) < 0.8 * g.height and c.h >= 0.3 * g.height]
    if not near:
        return None
    seed = min(near, key=lambda c: abs(c.x1 - g.left) + abs(c.y1 - g.top))
    parts = [seed]
    gap = 0.4 * g.height
    side_gap = 0.0 if _is_mark(seed) else gap  # a star or other mark grows only down its column (a word beside it is art)
    while True:
        x1, y1, x2, y2 = _union(parts)
        nxt = [
            c for c in comps
            if c not in parts and c.x1 < x2 + side_gap and c.x2 > x1 - side_gap and c.y1 < y2 + gap and c.y2 > y1 - gap
            and c.h < 1.6 * g.height
        ]
        if not nxt:
            break
        parts += nxt
    box = _union(parts)
    if box[2] - box[0] > JOKER_WIDTH * w or box[3] - box[1] > 0.55 * h:
        return None
    return box


def _is_mark(c: Comp) -> bool:
    """A compact blob (a star, a ring, a chip) rather than a letter or a stack of them."""
    return max(c.w, c.h) <= 1.4 * min(c.w, c.h)


def _rotate_back(box: Box, w: int, h: int) -> Box:
    x1, y1, x2, y2 = box
    return (w - x2, h - y2, w - x1, h - y1)


def face_corners(image: np.ndarray, g: Geometry, joker: bool = False) -> list[Box]:
    """Boxes of the top-left index and of the 180-degree copy at bottom-right (each only when found)."""
    h, w = image.shape[:2]
    out = []
    top = index_box(image, g, joker)
    if top is not None:
        out.append(top)
    bottom = index_box(np.ascontiguousarray(image[::-1, ::-1]), g, joker)
    if bottom is not None:
        out.append(_rotate_back(bottom, w, h))
    return out


def corner_copies(image: np.ndarray, boxes: list[Box]) -> list[Box]:
    """Copies of the face's top-left index printed again at its top-right and bottom-left corners.

    A copy may be mirrored or turned; it is looked for around the mirror place
    of the top-left box and kept where its ink matches that box's ink
    (normalised correlation at least COPY_LIKENESS) and it overlaps no box found
    already (a word printed across the card's top is one index, not two).
    """
    if not boxes:
        return []
    h, w = image.shape[:2]
    ink = ink_mask(image).astype(np.float32)
    x1, y1, x2, y2 = (int(round(v)) for v in min(boxes, key=lambda b: b[0] + b[1]))
    ref = ink[max(0, y1):y2, max(0, x1):x2]
    if ref.shape[0] < 3 or ref.shape[1] < 3 or ref.min() == ref.max():
        return []
    out: list[Box] = []
    for place in ((w - x2, y1, w - x1, y2), (x1, h - y2, x2, h - y1)):
        copy = _best_copy(ink, ref, place)
        if copy is not None and not any(_overlaps(copy, b) for b in [*boxes, *out]):
            out.append(copy)
    return out


def _best_copy(ink: np.ndarray, ref: np.ndarray, place: Box) -> Box | None:
    """Where near `place` the ink best matches `ref` in any of its four mirrorings, when it matches well."""
    rh, rw = ref.shape
    margin = 2 + round(0.3 * max(rw, rh))
    wx1, wy1 = max(0, place[0] - margin), max(0, place[1] - margin)
    window = ink[wy1:min(ink.shape[0], place[3] + margin), wx1:min(ink.shape[1], place[2] + margin)]
    if window.shape[0] < rh or window.shape[1] < rw:
        return None
    best, at = -1.0, (0, 0)
    for t in (ref, ref[:, ::-1], ref[::-1, :], ref[::-1, ::-1]):
        _, score, _, loc = cv2.minMaxLoc(cv2.matchTemplate(window, np.ascontiguousarray(t), cv2.TM_CCOEFF_NORMED))
        if np.isfinite(score) and score > best:
            best, at = score, loc
    if best < COPY_LIKENESS:
        return None
    found = window[at[1]:at[1] + rh, at[0]:at[0] + rw]
    if not 0.7 <= found.sum() / ref.sum() <= 1.4:
        return None
    return (wx1 + at[0], wy1 + at[1], wx1 + at[0] + rw, wy1 + at[1] + rh)


def _overlaps(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@dataclass
class _Found:
    """Per face and orientation: the rank and pip boxes found (orientation 1 = turned 180 degrees)."""

    rank: Box | None
    pip: Box | None


def _pip_templates(found: list[tuple[str, _Found]]) -> dict[str, tuple[float, float, float, float]]:
    """Median pip placement relative to its rank, per suit ("" = all suits): (dx of centres, gap, width, height)."""
    rows: dict[str, list[tuple[float, float, float, float]]] = {}
    for suit, f in found:
        if f.rank is None or f.pip is None:
            continue
        r, p = f.rank, f.pip
        v = ((p[0] + p[2]) / 2 - (r[0] + r[2]) / 2, p[1] - r[3], p[2] - p[0], p[3] - p[1])
        rows.setdefault(suit, []).append(v)
        rows.setdefault("", []).append(v)
    return {k: tuple(np.median(np.array(v), axis=0)) for k, v in rows.items() if len(v) >= 3}  # type: ignore[misc]


def _apply_template(rank: Box, t: tuple[float, float, float, float]) -> Box:
    dx, gap, pw, ph = t
    cx = (rank[0] + rank[2]) / 2 + dx
    y1 = rank[3] + gap
    return (round(cx - pw / 2), round(y1), round(cx + pw / 2), round(y1 + ph))


def _same_size(a: Box, b: Box) -> bool:
    wa, ha, wb, hb = a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1]
    return abs(ha - hb) <= 0.15 * ha + 2 and abs(wa - wb) <= 0.25 * wa + 2


def _matched_copies(top: Box, bottom: Box) -> list[Box]:
    """A joker's two printed indices are the same size; where the boxes found differ, the larger grew into
    art beside the mark, so it is cut to the smaller one's size from its own card corner."""
    if _same_size(top, bottom):
        return [top, bottom]
    tw, th, bw, bh = top[2] - top[0], top[3] - top[1], bottom[2] - bottom[0], bottom[3] - bottom[1]
    if tw * th <= bw * bh:
        return [top, (bottom[2] - tw, bottom[3] - th, bottom[2], bottom[3])]
    return [(top[0], top[1], top[0] + bw, top[1] + bh), bottom]


def find_deck_corners(deck: Deck, suits: dict[int, str] | None = None, every_copy: bool = False) -> CornerReport:
    """Fill every face's `corners` from its artwork (in place); drop faces whose boxes fail the checks.

    A joker's mark printed again at its other two corners is boxed too (the
    joining takes those as the card's own marks); a number or court card's
    index only with `every_copy`. Decks that print every index four times
    (dondorf, bonded) keep two boxes a card by default: a meld's column then
    shows two indices on each card's top edge, which the joining reads as
    cards of their own (with all four boxed, 20 more of 355 generated sides
    came out wrong under their true labels; 2026-11-26).

    `suits` (id(face) -> suit letter) lets a pip hidden by touching art be placed
    from the same suit's pips elsewhere in the deck. Returns what happened; with
    ok=False the deck's faces are left untouched and it must not be used.
    """
    suits = suits or {}
    numbers = [f for cls in NUMBER_CLASSES for f in deck.faces.get(cls, [])]
    g = deck_geometry(numbers)
    if g is None:
        return CornerReport(deck.name, False, reason="no common rank position on the number cards")
    all_faces = [f for fs in deck.faces.values() for f in fs]
    plain = [f for f in all_faces if f.cls != "JOKER"]
    found: dict[tuple[int, int], _Found] = {}
    for face in plain:
        for turn, img in enumerate((face.image, np.ascontiguousarray(face.image[::-1, ::-1]))):
            found[(id(face), turn)] = _Found(*index_parts(img, g))
    templates = _pip_templates([(suits.get(k[0], ""), f) for k, f in found.items()])
    with_pip = sum(1 for f in found.values() if f.pip is not None)
    uses_pips = with_pip > 0.5 * len(found)
    boxes: dict[int, list[Box]] = {}
    for face in all_faces:
        h, w = face.image.shape[:2]
        if face.cls == "JOKER":
            out = face_corners(face.image, g, joker=True)
            out = _matched_copies(*out) if len(out) == 2 else out
            boxes[id(face)] = out + corner_copies(face.image, out)
            continue
        out = []
        for turn in (0, 1):
            f = found[(id(face), turn)]
            if f.rank is None:
                continue
            pip = f.pip
            if pip is None and uses_pips:
                t = templates.get(suits.get(id(face), ""), templates.get(""))
                pip = _apply_template(f.rank, t) if t is not None else None
            box = _union_boxes([f.rank, pip]) if pip is not None else f.rank
            out.append(box if turn == 0 else _rotate_back(box, w, h))
        if len(out) == 2 and not _same_size(out[0], out[1]):
            out = out[:1]  # the two printed indices are 180-degree copies: a mismatch means the second is not one
        boxes[id(face)] = out + corner_copies(face.image, out) if every_copy else out
    sizes = np.array([(b[2] - b[0], b[3] - b[1]) for f in plain for b in boxes[id(f)]], np.float64)
    with_index = sum(1 for f in plain if boxes[id(f)])
    if with_index < 0.8 * len(plain):
        return CornerReport(deck.name, False, reason=f"index found on only {with_index} of {len(plain)} faces")
    med_w, med_h = np.median(sizes, axis=0)
    report = CornerReport(deck.name, True)
    for cls in list(deck.faces):
        keep = []
        for face in deck.faces[cls]:
            kept = boxes[id(face)]
            if cls != "JOKER":
                kept = [b for b in kept if 0.8 * med_h <= b[3] - b[1] <= 1.25 * med_h and 0.5 * med_w <= b[2] - b[0] <= 2.0 * med_w]
            if kept:
                face.corners = kept
                keep.append(face)
            else:
                report.dropped.append(f"{cls}{suits.get(id(face), '')}")
        if keep:
            deck.faces[cls] = keep
        else:
            del deck.faces[cls]
    report.kept = sum(len(v) for v in deck.faces.values())
    return report
