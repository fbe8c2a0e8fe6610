"""The card-corner detector: our YOLO weights, run on whole photos of any size.

A photo larger than any reading of it needs is first shrunk once to the
largest (`Detector.source_of`: a 12 MP photo is then read from 5 MP), and
each working image is scaled from that once and turned small
(`WorkingImages`), never the whole photo. Large photos are scaled so their
long side is at most `max_side` (the scale the model was trained for: index
heights of about 10-80 px); a working image still larger than `single_pass`
pixels is cut into overlapping tiles whose detections are merged, anything
smaller is predicted in one pass at its own resolution. A second pass at
half that size (`coarse_scale`) finds the indices too big for the model at
full size (cards photographed close up); of
its boxes only the long ones are kept, and where the two passes overlap the
surer box stays. Where the indices found come out small (their median height
under `zoom_below` of `index_target` working pixels), the photo is read once
more, enlarged so that they reach about `index_target`, and that reading
replaces the first: the model misreads small indices far more often than
ones near the height it reads best (when that reading is twice the first,
its half-size pass would read the first working image again, so the first
reading's full-size boxes stand in for it). Likewise, where they come out large (over
`shrink_above` of `index_target`: cards photographed close up), the photo is
read again shrunk to that height; the half-size pass runs first, and where
its boxes alone say so (`close_up_zoom`), the full-size pass is skipped.

All of that is one reading. Where the first reading is unsure of a box (its
confidence in `recheck_band`), the photo is read three times more (`turns`,
`scales`); a first reading sure of every box stands alone (most close-ups:
the other readings only cost time there). The four readings: as it
is, turned half round, where each index sits the other way up (the model
knows both ways: a card prints its bottom index upside down), turned a
quarter round, and as it is at three quarters of the first reading's scale
(`scales`: the indices a little smaller, which the model reads otherwise);
the readings' boxes are matched by class and place, and a box
stays where its mean confidence over all of them (none where a reading
missed it) reaches `fused_conf` (`fuse_readings`). Each reading keeps boxes down
to `READING_CONF`, so a box no reading is sure of can still add up. Last, a
3 whose ink is clearly red or black is named by its ink (`vision/ink.py`).
`Detector.read` also returns, apart, the boxes whose mean reaches only
`unsure_conf`: the photo path takes those a table's lines of indices call
for (`vision/gaps.py`).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from scoring.detection_classes import CLASS_NAMES
from vision.detection import Detection, Reading, box_iou, nms_merge
from vision.errors import ModelError
from vision.ink import recolour_threes

DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "cards.pt"


@dataclass(frozen=True)
class InferenceConfig:
    """How a photo is fed to the model."""

    conf: float = 0.3
    iou: float = 0.5
    max_side: int = 1280
    single_pass: int = 2560  # one pass up to this size: tiles read worse (dev rounds, enlarged: 18.3 % exact against 33.0 %)
    tile: int = 640
    overlap: int = 128
    coarse_scale: float | None = 0.5  # a second pass at this share of the working size (cards photographed close up)
    coarse_min_height: float = 80.0  # working-size pixels: only boxes at least this long (the top of the training range) come from that pass
    index_target: float | None = 48.0  # working px: indices smaller than zoom_below of this are read again enlarged (None: never)
    zoom_below: float = 0.75  # share of index_target under which a photo's median index counts as small
    max_zoom: float = 2.0  # at most this much larger than the first working size
    shrink_above: float | None = 4 / 3  # share of index_target over which a photo's median index counts as large (None: never)
    ink_threes: bool = True  # a 3 whose ink is clearly red or black is named by it (vision/ink.py)
    turns: tuple[int, ...] = (
        180,
        90,
    )  # read the photo turned clockwise by each of these degrees as well, and keep the boxes the readings' mean confidence carries (() reads it once)
    scales: tuple[float, ...] = (
        0.75,
    )  # read the photo as it is at each of these shares of the scale its first reading settled on as well, fused with the turns (dev11 rounds: 373 -> 378 of 494 sides exact; 1.33 alone 374, 0.75 with 1.33 382)
    fused_conf: float = 0.25  # with several readings: the mean confidence over the readings a box needs (dev rounds, three readings: 0.25 scored 722 of 1,004 sides exactly, 0.3 713, 0.2 718)
    # the photo is read the other ways only where its first reading has a box this sure (low <= conf < high); else that reading stands
    # alone. Exact photos against reading every photo four times: closeup-phone 384 of 438 either way (143 read once), edje-rank
    # 345 against 344 (63 once), table-webcam 24 of 39 either way; (0.2, 0.5) read 331 close-ups once but lost 2 of them
    recheck_band: tuple[float, float] = (0.2, 0.8)
    unsure_conf: float | None = (
        0.1  # with several readings: boxes whose mean reaches this but not fused_conf are returned apart, as unsure (`Detector.read`; None: none)
    )
    device: str = "cpu"

    @property
    def fused(self) -> bool:
        """Whether a photo may be read more than once (`turns`, `scales`: where its first reading is unsure) and
        the readings fused."""
        return bool(self.turns or self.scales)

    def once(self) -> InferenceConfig:
        """This config reading each photo once, as it is (no turns, no other scales)."""
        return replace(self, turns=(), scales=())

    @property
    def kept_conf(self) -> float:
        """The confidence a box the detector returns has at least."""
        return self.fused_conf if self.fused else self.conf

    def every_way(self) -> InferenceConfig:
        """This config reading every photo all its ways, however sure its first reading: a ranking over many photos
        (mAP) needs every box's confidence on one scale, a mean over the same readings."""
        return replace(self, recheck_band=(0.0, math.inf))

    def keeping(self, conf: float) -> InferenceConfig:
        """This config keeping boxes down to `conf`, however many readings it takes (none kept apart as unsure)."""
        return replace(self, conf=conf, fused_conf=conf, unsure_conf=None)

    @property
    def fused_floor(self) -> float:
        """With several readings, the mean confidence a fused box needs to come back at all: `unsure_conf` where unsure
        boxes are kept apart (under `fused_conf`), else `fused_conf`."""
        if self.unsure_conf is None or self.unsure_conf >= self.fused_conf:
            return self.fused_conf
        return self.unsure_conf


# With `turns`, each reading keeps boxes down to this confidence (or `fused_conf`, if lower): their mean decides.
READING_CONF = 0.1

# An enlarged reading whose coarse pass would read the photo within this share of the first
# reading's scale takes the first reading's full-size boxes for that pass instead of reading again.
REUSE_SCALE = 0.05


def tile_origins(length: int, tile: int, overlap: int) -> list[int]:
    """Start offsets of tiles of size `tile` covering `length` with at least `overlap`."""
    if length <= tile:
        return [0]
    step = tile - overlap
    count = math.ceil((length - tile) / step) + 1
    last = length - tile
    return [round(i * last / (count - 1)) for i in range(count)]


def merge_passes(fine: list[Detection], coarse: list[Detection], iou: float) -> list[Detection]:
    """Boxes from two passes over one photo; where boxes of the two overlap, the surer one stays (any class)."""
    kept = list(fine)
    for det in sorted(coarse, key=lambda d: d.conf, reverse=True):
        rivals = [d for d in kept if box_iou(d.box, det.box) >= iou]
        if all(d.conf < det.conf for d in rivals):
            kept = [d for d in kept if d not in rivals] + [det]
    return kept


def fuse_readings(readings: list[list[Detection]], conf: float, iou: float) -> list[Detection]:
    """Several readings of one photo as one: boxes of one class overlapping by `iou` are matched (each
    reading's surest first, to the best-overlapping box not yet matched from it) into their
    confidence-weighted mean box; each box's confidence is the mean over all readings (a reading that
    missed it counts 0); boxes under `conf` are dropped."""
    groups: list[tuple[str, float, tuple[float, ...]]] = []  # class, summed confidence, weighted box
    for reading in readings:
        open_ = set(range(len(groups)))
        for det in sorted(reading, key=lambda d: d.conf, reverse=True):
            rivals = [(box_iou(det.box, groups[k][2]), k) for k in open_ if groups[k][0] == det.cls]
            overlap, k = max(rivals, default=(0.0, -1))
            if overlap < iou:
                groups.append((det.cls, det.conf, det.box))
                continue
            open_.discard(k)
            cls, total, box = groups[k]
            weight = total + det.conf
            groups[k] = (cls, weight, tuple((a * total + b * det.conf) / weight for a, b in zip(box, det.box)))
    count = max(1, len(readings))
    return [Detection(cls, total / count, box) for cls, total, box in groups if total / count >= conf]


def turned(image: np.ndarray, degrees: int) -> np.ndarray:
    """`image` turned clockwise by `degrees` (a multiple of 90): OpenCV's rotate, several times faster on a
    12 MP photo than numpy's rot90 made contiguous, and the same pixels."""
    import cv2  # noqa: PLC0415

    turn = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}.get((degrees // 90) % 4)
    return image if turn is None else cv2.rotate(image, turn)


def turned_back(det: Detection, degrees: int, width: int, height: int) -> Detection:
    """A detection made on a `width` x `height` photo turned clockwise by `degrees`, in the pixels of the photo as it was."""
    x1, y1, x2, y2 = det.box
    box = {
        0: (x1, y1, x2, y2),
        90: (y1, height - x2, y2, height - x1),
        180: (width - x2, height - y2, width - x1, height - y1),
        270: (width - y2, x1, width - y1, x2),
    }[degrees % 360]
    return Detection(det.cls, det.conf, box)


def _resized(image: np.ndarray, scale: float, quick: bool = False) -> np.ndarray:
    """`image` scaled by `scale` (< 1 shrinks with area averaging, > 1 enlarges bicubically); the same array at 1.
    `quick`: shrunk by less than half, bilinearly (on a 12 MP photo 2-3 times as fast as area averaging, and
    within a level or two of it where each output pixel's neighbours all count)."""
    if scale == 1.0:
        return image
    import cv2  # noqa: PLC0415

    height, width = image.shape[:2]
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    if scale > 1.0:
        return cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR if quick and scale >= 0.5 else cv2.INTER_AREA)


class WorkingImages:
    """One photo's working images, each made once: by scale, and turned. A turned one is the photo scaled first,
    then turned (the same pixels as turned, then scaled, within a level on a few), so the readings of one
    photo turn small images and never scale the same size twice."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self._made: dict[tuple[float, int], np.ndarray] = {}

    def at(self, scale: float, degrees: int = 0) -> np.ndarray:
        """The photo scaled by `scale`, turned clockwise by `degrees` (a multiple of 90)."""
        key = (scale, degrees % 360)
        if key not in self._made:
            self._made[key] = turned(self.at(scale), degrees) if key[1] else _resized(self.image, scale)
        return self._made[key]


def zoom_for(dets: list[Detection], config: InferenceConfig) -> float:
    """How much to scale a working image whose detections are `dets` before reading it again:
    over 1 enlarges small indices, under 1 shrinks large ones, 1.0 leaves it as read.

    Only boxes at least as sure as the product's threshold (0.3 at the lowest)
    count, so an evaluation's low-confidence tail cannot sway the choice.
    """
    return zoom_for_sizes([d.size for d in dets if d.conf >= max(config.conf, 0.3)], config)


def zoom_for_sizes(sizes: list[float], config: InferenceConfig) -> float:
    """`zoom_for` from the index sizes (longer box side, working px) the choice rests on."""
    if not config.index_target or not sizes:
        return 1.0
    median = float(np.median(sizes))
    if config.shrink_above and median > config.index_target * config.shrink_above:
        return config.index_target / median
    if median >= config.index_target * config.zoom_below:
        return 1.0
    return min(config.max_zoom, config.index_target / max(median, 1.0))


def close_up_zoom(coarse: list[Detection], config: InferenceConfig) -> float:
    """`zoom_for` from the half-size pass alone (`coarse`, in working px), where it says the photo is a close-up:
    two or more boxes, every one at least `coarse_min_height` (the size from which that pass is trusted). Else
    1.0: the full-size pass is needed to tell (one large box may be a card's face, with small indices beside it)."""
    sizes = [d.size for d in coarse if d.conf >= max(config.conf, 0.3)]
    if not config.shrink_above or len(sizes) < 2 or min(sizes) < config.coarse_min_height:
        return 1.0
    return zoom_for_sizes(sizes, config)


def _max_side_scale(width: int, height: int, config: InferenceConfig) -> float:
    """The scale that brings a photo's long side down to `max_side` (1.0 for a smaller photo)."""
    return min(1.0, config.max_side / max(height, width))


def working_scale(sizes: list[float], width: int, height: int, config: InferenceConfig) -> float:
    """The scale one reading of a `width` x `height` photo works at, where its indices (longer box side, px)
    are `sizes` and found as they are: down to `max_side`, then enlarged or shrunk as `zoom_for` says."""
    first = _max_side_scale(width, height, config)
    return first * zoom_for_sizes([s * first for s in sizes], config)


def _unshrunk(dets: list[Detection], scale: float) -> list[Detection]:
    """Detections made on an image shrunk by `scale`, in the pixels of the image before (the same list at 1)."""
    if scale == 1.0:
        return dets
    return [Detection(d.cls, d.conf, tuple(v / scale for v in d.box)) for d in dets]


def _stride_ceil(value: int, stride: int = 32) -> int:
    return max(stride, int(math.ceil(value / stride) * stride))


class Detector:
    """Wraps an ultralytics YOLO model trained on our 23 classes."""

    def __init__(self, model, config: InferenceConfig | None = None, backend: str = "pytorch") -> None:
        self.model = model
        self.config = config or InferenceConfig()
        self.backend = backend  # what runs the network: "pytorch" or "openvino" (vision/fast_backend.py)
        names = model.names
        self.names = [names[i] for i in range(len(names))] if isinstance(names, dict) else list(names)

    def detect(self, image: np.ndarray) -> list[Detection]:
        """Detect corner indices in a BGR image; boxes are in that image's pixels."""
        return self.read(image).sure

    def read(self, image: np.ndarray) -> Reading:
        """Detect corner indices in a BGR image, and keep apart the unsure boxes (`InferenceConfig.unsure_conf`).
        The photo is read the other ways (`turns`, `scales`) only where its first reading is unsure of a box."""
        if image is None or image.size == 0:
            return Reading([])
        source, shrink = self.source_of(image)
        sizes = WorkingImages(source)
        first, scale = self._reading(sizes)
        readings = [first]
        if self.config.fused and self.unsure_of(first):
            readings += self.other_readings(sizes, scale)
        return self.settled(image, [_unshrunk(reading, shrink) for reading in readings])

    def source_of(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """What every reading of `image` is scaled from, and its scale: the photo shrunk once to the largest size
        any reading works at (`max_side`, enlarged at most `max_zoom`, times the largest of `scales`), where it is
        larger than that (bilinearly where by less than half: `_resized`). A 12 MP photo is then resized at 5 MP,
        not at 12, four times over; a smaller photo is read as it is."""
        cfg = self.config
        height, width = image.shape[:2]
        largest = _max_side_scale(width, height, cfg) * (cfg.max_zoom if cfg.index_target else 1.0) * max((1.0, *cfg.scales))
        return (_resized(image, largest, quick=True), largest) if largest < 1.0 else (image, 1.0)

    def unsure_of(self, dets: list[Detection]) -> bool:
        """Whether a first reading holds a box whose confidence lies in `InferenceConfig.recheck_band`."""
        low, high = self.config.recheck_band
        return any(low <= d.conf < high for d in dets)

    def other_readings(self, sizes: WorkingImages, scale: float) -> list[list[Detection]]:
        """The photo read turned (`turns`) and at other shares of the first reading's `scale` (`scales`),
        each in the photo's pixels."""
        cfg = self.config
        height, width = sizes.image.shape[:2]
        readings = [[turned_back(d, degrees, width, height) for d in self._reading(sizes, degrees)[0]] for degrees in cfg.turns]
        return readings + [self._read_at(sizes, scale * share) for share in cfg.scales]

    def settled(self, image: np.ndarray, readings: list[list[Detection]]) -> Reading:
        """One photo's readings fused (`fuse_readings`), its 3s named by their ink, and (where the config reads
        more than once) the boxes under `fused_conf` kept apart as unsure."""
        cfg = self.config
        dets = fuse_readings(readings, cfg.fused_floor, cfg.iou) if cfg.fused else readings[0]
        if cfg.ink_threes:  # read at full resolution
            dets = recolour_threes(image, dets, iou=cfg.iou)
        if not cfg.fused:
            return Reading(dets)
        return Reading([d for d in dets if d.conf >= cfg.fused_conf], [d for d in dets if d.conf < cfg.fused_conf])

    def _reading(self, sizes: WorkingImages, degrees: int = 0) -> tuple[list[Detection], float]:
        """One reading of a photo turned clockwise by `degrees` (scaled to the working size, read again enlarged
        or shrunk where its indices ask for it): boxes in the turned photo's pixels, and the scale they were read at.

        The half-size pass runs first: where the indices it reads are large (`close_up_zoom`), the photo is
        read shrunk straight away, and the full-size pass, which would only be thrown away, is never run."""
        cfg = self.config
        height, width = sizes.image.shape[:2]
        scale = _max_side_scale(width, height, cfg)
        work = sizes.at(scale, degrees)
        coarse = self._coarse_pass(work)
        zoom = close_up_zoom(coarse or [], cfg)
        if zoom != 1.0:
            return self._read_at(sizes, scale * zoom, degrees), scale * zoom
        dets, fine = self._read(work, coarse)
        zoom = zoom_for(dets, cfg)
        if zoom == 1.0:
            return _unshrunk(dets, scale), scale
        first, scale = scale, scale * zoom
        coarse = None
        if cfg.coarse_scale and abs(scale * cfg.coarse_scale / first - 1.0) <= REUSE_SCALE:
            # the enlarged reading's half-size pass would read the first working image again
            coarse = _unshrunk(fine, first / scale)
        return self._read_at(sizes, scale, degrees, coarse), scale

    def _read_at(self, sizes: WorkingImages, scale: float, degrees: int = 0, coarse: list[Detection] | None = None) -> list[Detection]:
        """Both passes over a photo scaled by `scale` and turned by `degrees` (`coarse`: the half-size pass's
        boxes already read, in the scaled image's pixels); boxes in the turned photo's pixels."""
        dets, _ = self._read(sizes.at(scale, degrees), coarse)
        return _unshrunk(dets, scale)

    def _coarse_pass(self, work: np.ndarray) -> list[Detection] | None:
        """The pass at `coarse_scale` of a working image, in its pixels (None without one)."""
        scale = self.config.coarse_scale
        return _unshrunk(self._detect_working(_resized(work, scale)), scale) if scale else None

    def _read(self, work: np.ndarray, coarse: list[Detection] | None = None) -> tuple[list[Detection], list[Detection]]:
        """Both passes over one working image (the coarse one at `coarse_scale` of it), in its pixels:
        the merged detections and the full-size pass's own.

        `coarse`, when given, are the coarse pass's boxes already read (in this image's pixels).
        """
        cfg = self.config
        fine = dets = self._detect_working(work)
        if cfg.coarse_scale:
            if coarse is None:
                coarse = self._coarse_pass(work)
            dets = merge_passes(dets, [d for d in coarse if d.size >= cfg.coarse_min_height], cfg.iou)
        return dets, fine

    def _detect_working(self, work: np.ndarray) -> list[Detection]:
        """One pass over a working image: whole when small enough, else in overlapping tiles."""
        cfg = self.config
        wh, ww = work.shape[:2]
        if max(wh, ww) <= cfg.single_pass:
            return self._predict([work], [(0, 0)], _stride_ceil(max(wh, ww)))
        origins = [(x, y) for y in tile_origins(wh, cfg.tile, cfg.overlap) for x in tile_origins(ww, cfg.tile, cfg.overlap)]
        crops = [work[y : y + cfg.tile, x : x + cfg.tile] for x, y in origins]
        return nms_merge(self._predict(crops, origins, cfg.tile), cfg.iou)

    def _predict(self, crops: list[np.ndarray], origins: list[tuple[int, int]], imgsz: int) -> list[Detection]:
        cfg = self.config
        conf = min(cfg.conf, cfg.fused_floor, READING_CONF) if cfg.fused else cfg.conf
        results = self.model.predict(crops, imgsz=imgsz, conf=conf, iou=cfg.iou, device=cfg.device, verbose=False)
        out: list[Detection] = []
        for (ox, oy), res in zip(origins, results):
            boxes = res.boxes
            xyxy = boxes.xyxy.cpu().numpy()
            confs = boxes.conf.cpu().numpy()
            classes = boxes.cls.cpu().numpy().astype(int)
            for (x1, y1, x2, y2), c, k in zip(xyxy, confs, classes):
                out.append(Detection(self.names[k], float(c), (float(x1 + ox), float(y1 + oy), float(x2 + ox), float(y2 + oy))))
        return out


def load_detector(weights: Path | None = None, config: InferenceConfig | None = None) -> Detector:
    """Load our YOLO weights by path (default models/cards.pt); never downloads.

    A `.pt` file is read through its OpenVINO copy where that backend is installed (made the first time:
    `vision/fast_backend.py`), else through PyTorch; an OpenVINO folder (`*_openvino_model/`) is read as it
    is. The detector's `backend` says which."""
    from vision.fast_backend import OPENVINO, PYTORCH, is_openvino_folder, openvino_copy  # noqa: PLC0415

    path = Path(weights) if weights is not None else DEFAULT_WEIGHTS
    if not (path.is_file() or is_openvino_folder(path)):
        raise ModelError(f"model weights not found: {path} (train one with `handfoot train`, or pass --model PATH)")
    from vision.offline import prepare, use_all_cores  # noqa: PLC0415

    prepare()
    use_all_cores()
    fast = openvino_copy(path)  # None: read through PyTorch
    if fast is not None and fast != path:
        try:
            return Detector(_handfoot_model(fast, path), config, OPENVINO)
        except ModelError as exc:
            print(f"handfoot: reading {path} with PyTorch (its OpenVINO copy would not load; delete {fast} to make it again): {exc}", file=sys.stderr)
    return Detector(_handfoot_model(path, path), config, OPENVINO if fast == path else PYTORCH)


def _handfoot_model(source: Path, path: Path):
    """The ultralytics model read from `source` (weights `path` or their OpenVINO copy), checked to be ours."""
    from ultralytics import YOLO  # noqa: PLC0415

    try:
        model = YOLO(str(source), task="detect")
        names = model.names  # an exported model is read here
    except Exception as exc:  # a corrupt or foreign file
        raise ModelError(f"cannot load model weights {path}: {exc}") from exc
    got = [names[i] for i in range(len(names))] if isinstance(names, dict) else list(names)
    if got != list(CLASS_NAMES):
        raise ModelError(f"{path} is not a handfoot card model (its classes are {got[:5]}...)")
    return model
