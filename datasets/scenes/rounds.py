"""Scored-round photo sets for end-to-end evaluation: table and leftover photos plus true cards.

Each round writes round-XXX.toml (the handfoot round-file format, with the TRUE
cards) and the photos it names, each with a ground-truth JSON beside it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import Deck
from datasets.scenes.cardsets import FAMILY_WEIGHTS, FamilyCards, family_cards, meld_ranks, rank_card
from datasets.scenes.model import Scene
from datasets.scenes.render import SceneOptions, render_leftover_scene, render_table_scene

PRESETS: dict[str, tuple[str, ...]] = {
    "traditional": ("remastered-singles", "family-game-knights", "online-classic", "magnolia-point"),
    "remastered": ("remastered-singles",),
    "barefoot": ("bare-foot-n-wild",),
}
PARTNERSHIP = {"magnolia-point": 1.0, "online-classic": 1.0, "family-game-knights": 0.4, "bare-foot-n-wild": 0.4}
LAYS_RED3 = {"remastered-singles", "magnolia-point"}
ROUNDS = {"bare-foot-n-wild": 5}
# (clean, dirty) books a side needs before going out; round 4 of family-game-knights asks more
GO_OUT = {"remastered-singles": (1, 1), "magnolia-point": (3, 4), "family-game-knights": (1, 1), "online-classic": (1, 1), "bare-foot-n-wild": (1, 0)}
MAX_WILDS = {"magnolia-point": 3}


@dataclass
class SidePlan:
    """One side's true cards: melds on the table, laid red 3s, each player's leftover cards."""

    name: str
    melds: list[list[str]]
    red3: int
    leftovers: list[list[str]]
    went_out: bool
    partners: bool
    table_photos: list[str] = field(default_factory=list)
    leftover_photos: list[str] = field(default_factory=list)

    def table_strings(self) -> list[str]:
        out = [" ".join(m) for m in self.melds]
        if self.red3:
            out.append(" ".join(["3R"] * self.red3))
        return out


@dataclass
class RoundPlan:
    """A whole round: preset, round number, deck family and sides."""

    rules: str
    number: int
    family: str
    sides: list[SidePlan]


def _book(rng: np.random.Generator, roles: FamilyCards, rank: str, clean: bool, size: int, max_w: int) -> list[str]:
    n_wild = 0 if clean else int(rng.integers(1, max(2, min((size - 1) // 2, max_w) + 1)))
    cards = [rank_card(rng, roles, rank) for _ in range(size - n_wild)]
    cards += [roles.wilds[int(rng.integers(len(roles.wilds)))] for _ in range(n_wild)]
    if rng.random() < 0.4:
        rest = cards[1:]
        rng.shuffle(rest)
        cards = cards[:1] + rest
    return cards


def plan_side(rng: np.random.Generator, roles: FamilyCards, rules: str, number: int, name: str, went_out: bool, partners: bool) -> SidePlan:
    """True cards of one side, following the preset's meld limits (and going-out needs when it went out)."""
    ranks = meld_ranks(roles)
    rng.shuffle(ranks)
    max_w = MAX_WILDS.get(rules, 3)
    clean_need, dirty_need = GO_OUT[rules] if went_out else (0, 0)
    if went_out and rules == "family-game-knights" and number == 4:
        clean_need, dirty_need = (2, 3) if partners else (2, 2)
    n_melds = max(clean_need + dirty_need, int(rng.integers(1, min(9, len(ranks)) + 1)))
    n_melds = min(n_melds, len(ranks))
    melds = []
    for i in range(n_melds):
        rank = ranks[i]
        if i < clean_need:
            melds.append(_book(rng, roles, rank, True, int(rng.integers(7, 10)), max_w))
        elif i < clean_need + dirty_need:
            melds.append(_book(rng, roles, rank, False, int(rng.integers(7, 10)), max_w))
        else:
            size = int(rng.integers(7, 11)) if rng.random() < 0.35 else int(rng.integers(3, 7))
            clean = rng.random() < 0.45
            melds.append(_book(rng, roles, rank, clean, size, max_w))
    if roles.clothing and rng.random() < 0.3:
        size = 7 if went_out else int(rng.integers(3, 8))  # a started set must be a full stack to go out
        melds.append([roles.clothing[int(rng.integers(len(roles.clothing)))] for _ in range(size)])
    red3 = int(rng.integers(0, 4)) if rules in LAYS_RED3 and roles.red3 else 0
    n_players = 2 if partners else 1
    leftovers = []
    for p in range(n_players):
        if went_out and p == 0:
            leftovers.append([])
            continue
        pool = list(roles.naturals) * 3 + list(roles.wilds)
        pool += [c for c in (roles.black3, roles.black3) if c]
        if roles.red3 and rules not in LAYS_RED3:
            pool.append(roles.red3)
        pool += list(roles.clothing)
        n = int(rng.integers(1, 16))
        leftovers.append([pool[int(rng.integers(len(pool)))] for _ in range(n)])
    return SidePlan(name, melds, red3, leftovers, went_out, partners)


def plan_round(rng: np.random.Generator, families: list[str]) -> RoundPlan:
    """A round's preset, number and sides for one of the available deck families."""
    fams = sorted(set(families))
    w = np.array([FAMILY_WEIGHTS.get(f, 0.1) for f in fams])
    family = fams[int(rng.choice(len(fams), p=w / w.sum()))]
    rules = PRESETS[family][int(rng.integers(len(PRESETS[family])))]
    number = int(rng.integers(1, ROUNDS.get(rules, 4) + 1))
    roles = family_cards(family)
    n_sides = int(rng.integers(1, 5))
    out_side = int(rng.integers(n_sides)) if rng.random() < 0.7 else -1
    sides = []
    for s in range(n_sides):
        partners = rng.random() < PARTNERSHIP.get(rules, 0.0)
        sides.append(plan_side(rng, roles, rules, number, f"Side {s + 1}", s == out_side, partners))
    return RoundPlan(rules, number, family, sides)


def round_toml(plan: RoundPlan) -> str:
    """The round file text (handfoot round-file format)."""
    q = lambda xs: "[" + ", ".join(json.dumps(x) for x in xs) + "]"  # noqa: E731
    lines = [f'rules = "{plan.rules}"', f"round = {plan.number}", ""]
    for side in plan.sides:
        lines += [
            "[[sides]]",
            f'name = "{side.name}"',
            f"went_out = {'true' if side.went_out else 'false'}",
            f"partners = {'true' if side.partners else 'false'}",
            f"table_photos = {q(side.table_photos)}",
            f"leftover_photos = {q(side.leftover_photos)}",
            f"table = {q(side.table_strings())}",
            f"leftover = {q([' '.join(c) for c in side.leftovers])}",
            "",
        ]
    return "\n".join(lines)


def round_options(family: str) -> SceneOptions:
    """Photos a player would take: whole layout framed, readable indices, milder effects, no hands."""
    return SceneOptions(
        long_side=(1000, 1600), index_px=(16.0, 60.0), fit_p=1.0, max_tilt=30.0, occluder_p=0.0, effects=0.6, family=family, never_crop=True
    )


def _plan_classes(plan: RoundPlan) -> set[str]:
    """Every card class the round's photos must show."""
    classes = {c for side in plan.sides for meld in side.melds for c in meld}
    classes |= {c for side in plan.sides for hand in side.leftovers for c in hand}
    if any(side.red3 for side in plan.sides):
        classes.add("3R")
    return classes


def _printed(decks: list[Deck]) -> set[str]:
    """The classes these designs have a face for."""
    return {cls for d in decks for cls, faces in d.faces.items() if faces}


def _round_decks(rng: np.random.Generator, decks: list[Deck], family: str, needs: set[str] = frozenset(), tries: int = 20) -> list[Deck]:
    """One or two deck designs of the family that together print every class the round needs.

    (Some designs print no joker index, so their joker was dropped: draw again.)
    """
    pool = [d for d in decks if d.family == family]
    for _ in range(tries):
        n = min(len(pool), 1 if rng.random() < 0.7 else 2)
        used = [pool[int(i)] for i in rng.choice(len(pool), size=n, replace=False)]
        if needs <= _printed(used):
            return used
    full = [d for d in pool if needs <= _printed([d])]
    if not full:
        raise ValueError(f"no {family} deck prints all of {sorted(needs)}")
    return [full[int(rng.integers(len(full)))]]


def _save(out: Path, name: str, scene: Scene) -> None:
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise OSError(f"could not encode {name}")
    (out / name).write_bytes(buf.tobytes())
    (out / name).with_suffix(".json").write_text(json.dumps(scene.to_json(), indent=1))


def _shown(scene: Scene) -> tuple[int, int]:
    """How many cards the photo holds, and how many of them show a labelled index."""
    return len(scene.cards), sum(bool(card.corners) for card in scene.cards)


def _photograph(render: Callable[[], Scene], cards: int, tries: int = 12) -> Scene:
    """Render until all `cards` laid are in the photo, each showing at least one labelled index (the photo
    convention). A layout wider than the frame is cropped, and a column it leaves wholly outside would be
    missing from the photo while the round file still counts it; after `tries` renders the one showing
    the most is kept."""
    best = render()
    for _ in range(tries - 1):
        if _shown(best) == (cards, cards):
            break
        best = max(best, render(), key=_shown)  # the earlier one on a tie
    return best


def render_round(out: Path, index: int, seed: int, decks: list[Deck]) -> tuple[RoundPlan, int]:
    """Plan and photograph round number `index`; writes its photos and round-XXX.toml. Returns (plan, photos)."""
    rng = np.random.default_rng([seed, index])
    plan = plan_round(rng, [d.family for d in decks])
    used = _round_decks(rng, decks, plan.family, _plan_classes(plan))
    opts = round_options(plan.family)
    photos = 0
    stem = f"round-{index:03d}"
    for s, side in enumerate(plan.sides, 1):
        name = f"{stem}-side{s}-table.jpg"
        scene = _photograph(
            lambda side=side: render_table_scene(rng, used, opts, melds=side.melds, n_red3=side.red3, strict=True),
            sum(map(len, side.melds)) + side.red3,
        )
        _save(out, name, scene)
        side.table_photos.append(name)
        photos += 1
        for p, cards in enumerate(side.leftovers, 1):
            if not cards:
                continue
            name = f"{stem}-side{s}-left{p}.jpg"
            scene = _photograph(lambda cards=cards: render_leftover_scene(rng, used, opts, hands=[cards], strict=True), len(cards))
            _save(out, name, scene)
            side.leftover_photos.append(name)
            photos += 1
    (out / f"{stem}.toml").write_text(round_toml(plan))
    return plan, photos


def build_rounds(
    out: Path,
    rounds: int,
    seed: int,
    decks: list[Deck] | None = None,
    decks_cache: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Write `rounds` evaluation rounds into `out`; returns counts."""
    if decks is None:
        from datasets.decks import load_decks  # noqa: PLC0415

        decks = load_decks(decks_cache)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    photos = 0
    for r in range(1, rounds + 1):
        _, n = render_round(out, r, seed, decks)
        photos += n
        if progress:
            progress(r, rounds)
    return {"rounds": rounds, "photos": photos}
