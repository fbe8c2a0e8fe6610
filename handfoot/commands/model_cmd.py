"""`handfoot train*` and `handfoot eval*`: the options of the networks' training and measurement.

The recipes and measurements live in `training/`; these commands read the
options, pass a progress bar and `typer.echo` in as the recipes' callbacks,
and turn their errors into messages.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import track
from rich.table import Table

from handfoot.errors import UserError
from training.cards import LR0, WARMUP_EPOCHS
from vision.errors import VisionError


def _progress(label: str):
    def wrap(items):
        return track(items, description=label, transient=True, console=Console(stderr=True))

    return wrap


def train(
    data: Path = typer.Option(
        ...,
        "--data",
        help="data.yaml of a set built by `handfoot dataset build` (its validation frames are cut into tiles for training's own validation).",
    ),
    epochs: int = typer.Option(10, "--epochs", help="Number of epochs."),
    model: str = typer.Option(
        "yolo11n.yaml",
        "--model",
        help="Architecture to build from scratch (yolo11n.yaml, yolo26n.yaml), or one of our own .pt weights to continue from.",
    ),
    imgsz: int = typer.Option(320, "--imgsz", help="Training image size (the tile size)."),
    batch: int = typer.Option(32, "--batch", help="Batch size."),
    workers: int = typer.Option(2, "--workers", min=0, help="Data-loading worker processes (on a GPU machine, about its core count)."),
    device: str = typer.Option(None, "--device", help="cpu, 0 (first GPU), ...; default: a GPU when present, else the CPU."),
    project: Path = typer.Option(Path("runs"), "--project", help="Folder for training runs."),
    name: str = typer.Option("cards", "--name", help="Run name (a folder under --project)."),
    fraction: float = typer.Option(1.0, "--fraction", help="Use only this fraction of the training tiles."),
    hours: float = typer.Option(None, "--hours", help="Stop after this many hours (overrides --epochs)."),
    lr0: float = typer.Option(LR0, "--lr0", help="Starting learning rate (AdamW). A leg that continues from our own weights may start lower."),
    warmup_epochs: float = typer.Option(
        WARMUP_EPOCHS, "--warmup-epochs", help="Epochs of learning-rate warm-up (0: none, e.g. when continuing from our own weights)."
    ),
    freeze: int = typer.Option(
        0,
        "--freeze",
        help="Leave the network's first N layers as they are (10: yolo11n's backbone), for a leg that continues from our own weights; the rest train about 1.4 times as fast on a CPU.",
    ),
    resume: bool = typer.Option(False, "--resume", help="Resume the run PROJECT/NAME from its last checkpoint."),
    export: Path = typer.Option(None, "--export", help="Copy the best weights here when done (e.g. models/cards.pt)."),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="Draw ultralytics' label and results plots into the run folder."),
) -> None:
    """Train the card-corner detector from scratch, offline (CPU, or a GPU when present)."""
    from training.cards import TrainPlan, export_weights, rebuild  # noqa: PLC0415

    plan = TrainPlan(
        data=data,
        model=model,
        epochs=epochs,
        imgsz=imgsz,
        batch=batch,
        workers=workers,
        device=device,
        project=project,
        name=name,
        fraction=fraction,
        time_hours=hours,
        lr0=lr0,
        warmup_epochs=warmup_epochs,
        plots=plots,
        freeze=freeze,
    )
    try:
        best = rebuild(plan, resume=resume)
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    typer.echo(f"best weights: {best}")
    if export is not None:
        typer.echo(f"copied to {export_weights(best, export)}")


_TURNED_HELP = (
    "Read each photo again turned half round and a quarter round, and at three quarters of its scale, where its first "
    "reading is unsure, and keep the boxes the readings carry, as `handfoot score` does; --no-turned reads it once, as it is."
)


def evaluate(
    data: Path = typer.Option(None, "--data", help="data.yaml of a YOLO-format set (our names or rank+suit names)."),
    voc: Path = typer.Option(None, "--voc", help="Folder of Pascal VOC rank-labelled photos (whole-card boxes)."),
    split: str = typer.Option(None, "--split", help="Which split of data.yaml: test or val (default: test, else val)."),
    model: Path = typer.Option(None, "--model", help="Weights to use (default: models/cards.pt)."),
    conf: float = typer.Option(None, "--conf", help="Confidence threshold (default: the product's)."),
    limit: int = typer.Option(0, "--limit", help="Use only the first N photos (0: all)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    failures: Path = typer.Option(
        None,
        "--failures",
        help='With --data: write a sheet of crops of every missed, misread and extra box, and of every index found and named right in a box fitted unlike its label ("7>box"), at the product\'s confidence, to this .jpg/.png.',
    ),
    failures_max: int = typer.Option(96, "--failures-max", min=1, help="At most this many crops on the sheet (spread over the photos)."),
    readers: bool = typer.Option(
        True,
        "--readers/--no-readers",
        help="With --voc: name the boxes again with the standard family's second-look readers (models/ranks.pt, models/wilds.pt) before joining them, as `handfoot score` does; --no-readers counts the detector's own names.",
    ),
    turned: bool = typer.Option(True, "--turned/--no-turned", help=_TURNED_HELP),
    cards: bool = typer.Option(
        False,
        "--cards",
        help="Count cards, not boxes: read every photo as a leftover photo through `handfoot score`'s own path and compare the cards found with the cards in it (a YOLO set's distinct rank+suit names, one deck a photo; a VOC set's card boxes). Prints the exact-photo rate, extra and missed cards, and the wrong photos.",
    ),
    cache: Path = typer.Option(
        None, "--cache", help="With --cards: keep (and reuse) each photo's detections in this folder, as `eval-rounds --cache` does."
    ),
    oracle: bool = typer.Option(
        False, "--oracle", help="With --cards: the labelled corner boxes stand in for the detector (measures the naming and joining alone)."
    ),
    pairs: bool = typer.Option(
        False,
        "--pairs",
        help="With --data: judge the whole-card reader on every two labelled corners that could be one card (one rank+suit name: one card; one deck a photo).",
    ),
    whole_cards: Path = typer.Option(None, "--whole-cards", help="With --pairs: the whole-card reader's weights (default: models/whole-cards.pt)."),
) -> None:
    """Measure the detector on labelled photos, predicting exactly as `handfoot score` does."""
    if (data is None) == (voc is None):
        raise UserError("give exactly one of --data PATH/data.yaml or --voc DIR")
    if pairs:
        _evaluate_pairs(data, split, whole_cards, limit, as_json)
        return
    if oracle and (not cards or data is None or cache is not None):
        raise UserError("--oracle needs --cards and --data (a YOLO set's corner labels), and reads no --cache")
    if cards:
        _evaluate_cards(data or voc, data is not None, split, model, conf, limit, cache, turned, as_json, oracle)
        return
    if cache is not None:
        raise UserError("--cache needs --cards")
    if failures is not None and (voc is not None or failures.suffix.lower() not in (".jpg", ".jpeg", ".png")):
        raise UserError("--failures needs --data and a .jpg or .png file name")
    from training.eval.detections import count_report, detection_report, run_detector  # noqa: PLC0415
    from training.eval.sets import load_voc_set, load_yolo_set  # noqa: PLC0415
    from vision.detector import InferenceConfig, load_detector  # noqa: PLC0415

    try:
        product = InferenceConfig() if turned else InferenceConfig().once()
        config = product if conf is None else product.keeping(conf)
        photo_set = load_yolo_set(data, split) if data is not None else load_voc_set(voc)
        if limit:
            photo_set.photos = photo_set.photos[:limit]
        if data is not None and conf is None:
            # mAP needs the low-confidence tail of the ranking as well, every photo read the same ways.
            config = config.keeping(0.01).every_way()
        detector = load_detector(model, config)
        if voc is not None and readers:
            detector = _NamedAgain(detector)
        timed = run_detector(detector, photo_set, _progress(f"detecting {photo_set.name}"))
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    if data is not None:
        report = detection_report(photo_set, timed)
        out = report.to_dict()
        out["failures"] = _failures(photo_set, timed, product.kept_conf if conf is None else conf, failures, failures_max)
    else:
        from vision.corners import join_corners  # noqa: PLC0415

        out = count_report(photo_set, timed, join_corners).to_dict()
    out["median_ms"] = round(timed.median_ms, 1)
    if photo_set.unknown_names:
        out["unknown_names"] = dict(photo_set.unknown_names)
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    _print_report(out)


def _evaluate_cards(
    source: Path,
    yolo: bool,
    split: str | None,
    model: Path | None,
    conf: float | None,
    limit: int,
    cache: Path | None,
    turned: bool,
    as_json: bool,
    oracle: bool = False,
) -> None:
    """`eval --cards`: exact cards per photo, read as leftover photos (`training.eval.card_counts`); with
    `oracle`, from the labelled boxes."""
    from training.eval.card_counts import LabelledBoxes, evaluate_cards  # noqa: PLC0415
    from training.eval.sets import load_voc_set, load_yolo_set  # noqa: PLC0415

    try:
        photo_set = load_yolo_set(source, split) if yolo else load_voc_set(source)
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    photos = photo_set.photos[:limit] if limit else photo_set.photos
    factory, store = (None, LabelledBoxes(photos)) if oracle else _detector(model, conf, cache, turned)
    try:
        report = evaluate_cards(_progress(f"reading {photo_set.name}")(photos), store.detect if store else factory(), store.seen if store else None)
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    out = report.to_dict()
    if as_json:
        typer.echo(json.dumps({k: out[k] for k in ("images", "exact_photo_rate", "extra", "missed", "wrong")}, indent=2))
        return
    exact = round(out["exact_photo_rate"] * out["images"])
    typer.echo(
        f"{photo_set.name}: {exact} of {out['images']} photos with exactly their cards "
        f"({out['exact_photo_rate']:.1%}); {out['extra']} extra and {out['missed']} missed cards"
    )
    for w in out["wrong"]:
        parts = [f"extra {' '.join(w['extra'])}" if w["extra"] else "", f"missed {' '.join(w['missed'])}" if w["missed"] else ""]
        typer.echo(f"  {w['photo']}: {', '.join(p for p in parts if p)}")


def _evaluate_pairs(data: Path | None, split: str | None, weights: Path | None, limit: int, as_json: bool) -> None:
    """`eval --pairs`: the whole-card reader on a YOLO set's labelled pairs (`training.eval.pairs`)."""
    from training.eval.pairs import evaluate_pairs  # noqa: PLC0415
    from training.eval.sets import load_yolo_set  # noqa: PLC0415
    from vision.whole_cards import load_whole_card_reader  # noqa: PLC0415

    if data is None:
        raise UserError("--pairs needs --data PATH/data.yaml (a YOLO set labels each corner with its card)")
    try:
        photo_set = load_yolo_set(data, split)
        reader = load_whole_card_reader(weights)
        photos = photo_set.photos[:limit] if limit else photo_set.photos
        out = evaluate_pairs(_progress(f"reading {photo_set.name}")(photos), reader).to_dict()
    except VisionError as exc:
        raise UserError(str(exc)) from exc
    if not out["pairs"]:
        raise UserError(f"{data}: no two labelled corners that could be one card's (a YOLO set of corner labels, one deck a photo)")
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    typer.echo(
        f"{photo_set.name}: {out['pairs']} pairs ({out['one']} of one card): one card read ONE {out['one_read_one']:.1%}, "
        f"two cards read APART {out['apart_read_apart']:.1%} (at odds {out['odds']}); ROC area {out['auc']:.4f}"
    )


class _NamedAgain:
    """A detector whose boxes the standard family's second-look readers name again, as `handfoot score` does."""

    def __init__(self, detector) -> None:
        self.detector = detector

    def detect(self, image):
        from vision.pipe import name_wilds  # noqa: PLC0415

        return name_wilds(image, self.detector.detect(image), "standard")


def _detector(model: Path | None, conf: float | None, cache: Path | None, turned: bool = True):
    """(a factory of the detector's detect function, a DetectionCache in `cache` or None)."""
    from training.eval.rounds import DetectionCache  # noqa: PLC0415
    from vision.detector import DEFAULT_WEIGHTS, InferenceConfig, load_detector  # noqa: PLC0415
    from vision.fast_backend import is_openvino_folder, wanted_backend, weights_digest  # noqa: PLC0415

    config = InferenceConfig() if turned else InferenceConfig().once()
    if conf is not None:
        config = config.keeping(conf)

    def factory():
        try:
            return load_detector(model, config).read
        except VisionError as exc:
            raise UserError(str(exc)) from exc

    if cache is None:
        return factory, None
    weights = Path(model) if model is not None else DEFAULT_WEIGHTS
    if not (weights.is_file() or is_openvino_folder(weights)):
        raise UserError(f"no weights file at {weights}")
    if cache.exists() and not cache.is_dir():
        raise UserError(f"--cache {cache} is a file, not a folder")
    # the backend is in the key: OpenVINO and PyTorch boxes differ a little
    return factory, DetectionCache(cache, f"{weights_digest(weights)} {wanted_backend(weights)} {config!r}", factory)


def eval_rounds(
    folder: Path = typer.Argument(..., help="Folder of round-*.toml files from `handfoot dataset rounds`."),
    model: Path = typer.Option(None, "--model", help="Weights to use (default: models/cards.pt)."),
    conf: float = typer.Option(None, "--conf", min=0.0, max=1.0, help="Confidence threshold (default: the product's)."),
    limit: int = typer.Option(0, "--limit", help="Use only the first N rounds (0: all)."),
    oracle: bool = typer.Option(
        False, "--oracle", help="Use each photo's true corner labels instead of the model (measures card joining and layout alone)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    cache: Path = typer.Option(
        None,
        "--cache",
        help="Keep each photo's detections in this folder and reuse them on the next run with the same weights and threshold (for trying joining rules; empty it after changing the detector's code).",
    ),
    readers: bool = typer.Option(
        True,
        "--readers/--no-readers",
        "--wilds/--no-wilds",
        help="Name boxes again with the second-look readers (models/ranks.pt for standard ranks, models/wilds.pt for Remastered wilds, models/foot-wilds.pt for Bare Foot wilds and clothing) and join a table's lone corners that the whole-card reader (models/whole-cards.pt) reads as one card, as `handfoot score` does; --no-readers (or its old name --no-wilds) keeps the detector's names (Bare Foot wilds still by their ink).",
    ),
    jokers: bool = typer.Option(
        True,
        "--jokers/--no-jokers",
        help="Group joker boxes into jokers with the joker grouper (models/jokers.pt), as `handfoot score` does; --no-jokers keeps the joining's jokers.",
    ),
    turned: bool = typer.Option(True, "--turned/--no-turned", help=_TURNED_HELP),
) -> None:
    """Score generated rounds from their photos and compare with their true cards."""
    from training.eval.rounds import evaluate_rounds  # noqa: PLC0415

    files = sorted(folder.glob("round-*.toml")) if folder.is_dir() else []
    if not files:
        raise UserError(f"no round-*.toml files in {folder} (make some with `handfoot dataset rounds`)")
    if limit:
        files = files[:limit]
    factory, store = _detector(model, conf, None if oracle else cache, turned)
    report = evaluate_rounds(
        track(files, description="scoring rounds", transient=True, console=Console(stderr=True)), factory, oracle, store, readers, jokers
    )
    out = report.to_dict()
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    console.print(f"sides: {out['sides']}  exact totals: {out['exact_total_rate']:.1%}  mean absolute error: {out['mean_abs_error']} points")
    for cause, n in sorted(out["failure_causes"].items(), key=lambda kv: -kv[1]):
        console.print(f"  {n:4d}  {cause}", highlight=False)
    blurred = out["blurred_sides"]
    console.print(f"sides with a blurred-photo warning: {blurred['wrong']} wrong, {blurred['right']} right", highlight=False)


def eval_joins(
    folder: Path = typer.Argument(..., help="A `dataset build` frames/ folder or a `dataset rounds` folder (photo JSONs list every true card)."),
    limit: int = typer.Option(0, "--limit", help="Use only the first N JSON files (0: all)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON, with every wrong photo."),
) -> None:
    """Join each generated photo's true corner labels into cards and count the joining's own errors."""
    from training.eval.joins import evaluate_joins  # noqa: PLC0415

    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    files = [f for f in files if f.name.startswith(("img-", "round-"))][: limit or None]
    if not files:
        raise UserError(f"no img-*.json or round-*.json files in {folder} (make some with `handfoot dataset build` or `rounds`)")
    try:
        out = evaluate_joins(track(files, description="joining", transient=True, console=Console(stderr=True))).to_dict()
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{folder}: a photo JSON is not one `handfoot dataset` wrote ({exc})") from exc
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    for role in ("table", "leftover"):
        r = out[role]
        typer.echo(
            f"{role}: {r['photos']} photos, {r['photos_with_a_wrong_join']} with a wrong join "
            f"({r['false_pairs']} false pairs, {r['split_cards']} split cards)"
        )


def _failures(photo_set, timed, conf: float, sheet: Path | None, limit: int) -> dict:
    """Counts of failures at the product's confidence, the commonest ones, and the sheet if asked."""
    from collections import Counter  # noqa: PLC0415

    from training.eval.detections import eval_images  # noqa: PLC0415
    from training.eval.failures import failure_kind, failure_sheet, find_failures, pick_evenly  # noqa: PLC0415
    from vision.annotate import save_image  # noqa: PLC0415
    from vision.imageio import load_image  # noqa: PLC0415

    images = eval_images(photo_set, timed)
    found = find_failures(images, conf)
    kinds = Counter(failure_kind(f) for f in found)
    # every labelled corner is matched, boxed unlike its label, missed or misread
    out = {
        "conf": conf,
        "corners": sum(len(im.truth) for im in images),
        "missed": kinds["missed"],
        "misread": kinds["misread"],
        "boxed": kinds["boxed"],
        "extra": kinds["extra"],
        "commonest": dict(Counter(f.label for f in found).most_common(12)),
    }
    if sheet is not None:
        picked = pick_evenly(found, limit)
        try:
            save_image(sheet, failure_sheet(picked, lambda k: load_image(photo_set.photos[k].path)))
        except VisionError as exc:
            raise UserError(str(exc)) from exc
        typer.echo(f"wrote {len(picked)} of {len(found)} failures to {sheet}", err=True)
    return out


def _print_report(out: dict) -> None:
    console = Console()
    table = Table(title="evaluation", show_header=False)
    for key, value in out.items():
        if key == "wrong":  # the photos themselves are in --json
            table.add_row("wrong photos", str(len(value)))
        elif key != "per_class":
            table.add_row(key, str(value))
    console.print(table)
    if "per_class" in out:
        per = Table(title="per class")
        for col in ("class", "truth", "recall", "precision", "ap50"):
            per.add_column(col, justify="right")
        for cls, m in out["per_class"].items():
            per.add_row(cls, str(int(m.get("truth", 0))), f"{m['recall']:.3f}", f"{m.get('precision', 0):.3f}", f"{m['ap50']:.3f}")
        console.print(per)


def train_wilds(
    builds: list[Path] = typer.Argument(
        ...,
        help="Folders made by `handfoot dataset build` (their frames/) or `handfoot dataset rounds` (their photos), with scenes of the decks the reader reads.",
    ),
    reader: str = typer.Option(
        "wilds",
        "--reader",
        help="Which reader: 'wilds' (Remastered wilds: 20 or 50), 'foot-wilds' (Bare Foot: blue 20, red 50, sock or shoe) or 'ranks' (traditional and Remastered naturals: A to K, red or black 3).",
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Where to write the reader's weights (default: models/wilds.pt, models/foot-wilds.pt or models/ranks.pt, by --reader)."
    ),
    epochs: int = typer.Option(20, "--epochs", min=1, help="Number of epochs."),
    jittered: int = typer.Option(2, "--jittered", min=0, help="Extra crops per corner on boxes shifted and scaled as the detector's sit."),
    seed: int = typer.Option(0, "--seed", help="Seed of the jitter, the batches' order and the starting weights."),
    width: int | None = typer.Option(
        None,
        "--width",
        min=1,
        max=4,
        help="The network's width: each layer this many times 16 to 64 channels (default: as the reader ships: 1 for the wild and Bare Foot readers, 2 for the rank reader).",
    ),
    start: Path | None = typer.Option(
        None, "--start", help="Train on from these weights of the same reader (e.g. the shipped ones) instead of fresh ones; their width is kept."
    ),
    lr: float = typer.Option(
        3e-3, "--lr", min=1e-6, max=1.0, help="Peak learning rate of the one-cycle schedule (train on from --start at about 0.001)."
    ),
    grey: float | None = typer.Option(
        None,
        "--grey",
        min=0.0,
        max=1.0,
        help="Share of each training batch shown without colour, so the reader learns the print's shapes and not only its inks (default: as the reader ships: 0.3 for the wild and Bare Foot readers, 0 for the rank reader).",
    ),
) -> None:
    """Train a second-look reader: a small network that names an index box from its crop (Remastered
    wilds 20 or 50; Bare Foot wilds, socks and shoes; or the ranks of traditional and Remastered
    naturals) (CPU, minutes)."""
    from training.wilds import rebuild  # noqa: PLC0415

    try:
        rebuild(
            builds,
            reader=reader,
            out=out,
            epochs=epochs,
            jittered=jittered,
            seed=seed,
            width=width,
            start=start,
            lr=lr,
            grey=grey,
            progress=_progress,
            say=typer.echo,
        )
    except VisionError as exc:
        raise UserError(str(exc)) from exc


def _detection(model: Path | None, cache: Path | None):
    """What the recipes that learn from the detector's boxes on round photos read with: (the detect function of
    --model, the path callback of its --cache or None); built when a recipe asks, once its folders are checked."""
    factory, store = _detector(model, None, cache)
    return (store.detect, store.seen) if store is not None else (factory(), None)


# Options of the commands that train on the detector's boxes of generated round photos (one object serves each).
_ROUND_PHOTOS_CACHE = typer.Option(None, "--cache", help="Keep (and reuse) each photo's detections in this folder, as `eval-rounds --cache` does.")
_CROPS_SEED = typer.Option(0, "--seed", help="Seed of the copies' jitter, the batches' order and the starting weights.")


def train_jokers(
    folders: list[Path] = typer.Argument(
        ..., help="Folders made by `handfoot dataset rounds` (round photos with their JSON); never the held-out rounds you measure on."
    ),
    out: Path = typer.Option(Path("models/jokers.pt"), "--out", help="Where to write the joker grouper's weights."),
    model: Path = typer.Option(None, "--model", help="Detector weights whose boxes it learns from (default: models/cards.pt)."),
    cache: Path = _ROUND_PHOTOS_CACHE,
    epochs: int = typer.Option(300, "--epochs", min=1, help="Number of epochs over the pairs."),
    seed: int = typer.Option(0, "--seed", help="Seed of the batches' order and the starting weights."),
    beside: Path = typer.Option(
        None,
        "--beside",
        help="A joker grouper file to keep beside the new network: the file written holds both, and their odds are averaged (models/jokers.pt was made so, beside the grouper trained on leg 22's boxes).",
    ),
) -> None:
    """Train the joker grouper: a small network that tells which joker boxes lie on one joker (CPU, minutes)."""
    from training.jokers import rebuild  # noqa: PLC0415

    try:
        rebuild(folders, lambda: _detection(model, cache), out=out, epochs=epochs, seed=seed, beside=beside, progress=_progress, say=typer.echo)
    except VisionError as exc:
        raise UserError(str(exc)) from exc


def train_joker_words(
    folders: list[Path] = typer.Argument(
        ...,
        help="Folders made by `handfoot dataset rounds` (round photos with their JSON) holding traditional decks with jokers; never the held-out rounds you measure on.",
    ),
    out: Path = typer.Option(None, "--out", help="Where to write the reader's weights (default: models/joker-words.pt)."),
    model: Path = typer.Option(None, "--model", help="Detector weights whose J boxes it learns from (default: models/cards.pt)."),
    cache: Path = _ROUND_PHOTOS_CACHE,
    epochs: int = typer.Option(15, "--epochs", min=1, help="Number of epochs."),
    seed: int = _CROPS_SEED,
) -> None:
    """Train the joker-word reader: a small network that tells a jack's J from the J beginning a joker's word,
    on wide crops of the detector's own J boxes (CPU, minutes)."""
    from training.joker_words import rebuild  # noqa: PLC0415

    try:
        rebuild(folders, lambda: _detection(model, cache), out=out, epochs=epochs, seed=seed, progress=_progress, say=typer.echo)
    except VisionError as exc:
        raise UserError(str(exc)) from exc


def train_whole_cards(
    scenes: int = typer.Option(
        1600,
        "--scenes",
        min=1,
        help="How many generated scenes to learn from (tables, hands, piles, cards scattered at any angle, close-ups; about half a second each on this CPU).",
    ),
    cache: Path = typer.Option(
        Path("data/whole-card-pairs"),
        "--cache",
        help="Folder keeping the scenes' crops in chunks of 50 scenes: a stopped run resumes, a second run reuses them.",
    ),
    out: Path = typer.Option(None, "--out", help="Where to write the reader's weights (default: models/whole-cards.pt)."),
    epochs: int = typer.Option(3, "--epochs", min=1, help="Number of epochs."),
    width: int = typer.Option(1, "--width", min=1, max=4, help="Network width (1: about 60,000 weights)."),
    seed: int = typer.Option(1, "--seed", help="Seed of the scenes, the boxes' jitter, the batches' order and the starting weights."),
    decks_cache: Path = typer.Option(None, "--decks-cache", help="Deck cache folder (fetched deck designs; `handfoot dataset fetch-decks`)."),
    stretch: float = typer.Option(
        0.5,
        "--stretch",
        min=0.0,
        max=1.0,
        help="Share of the scenes stretched along one axis by up to 1.8 times (photos resized to a square, taken at a slant).",
    ),
) -> None:
    """Train the whole-card reader, which tells from the pixels between two corner boxes whether they are one
    card's, on generated scenes whose cards are known (the defaults rebuild models/whole-cards.pt: on this
    2-core CPU the scenes render in about a quarter of an hour and the network trains in about 6 minutes)."""
    from training.whole_cards import rebuild  # noqa: PLC0415

    try:
        rebuild(
            scenes=scenes,
            cache=cache,
            out=out,
            epochs=epochs,
            width=width,
            seed=seed,
            decks_cache=decks_cache,
            stretch=stretch,
            progress=_progress,
            say=typer.echo,
        )
    except VisionError as exc:
        raise UserError(str(exc)) from exc


def register(app: typer.Typer) -> None:
    """Add `train`, `train-wilds`, `train-jokers`, `train-joker-words`, `train-whole-cards`, `eval`, `eval-rounds`
    and `eval-joins` to the app."""
    app.command("train")(train)
    app.command("train-wilds")(train_wilds)
    app.command("train-jokers")(train_jokers)
    app.command("train-joker-words")(train_joker_words)
    app.command("train-whole-cards")(train_whole_cards)
    app.command("eval")(evaluate)
    app.command("eval-rounds")(eval_rounds)
    app.command("eval-joins")(eval_joins)
