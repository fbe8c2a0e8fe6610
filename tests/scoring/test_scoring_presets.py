"""Every cell of DESIGN.md's preset table, checked by scoring cards under each preset.

Each expectation carries the sentence of the rule text it comes from; when the
rule texts sit beside the checkout (../shared/rules) the quotes are checked too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scoring_helpers import PRESETS, STANDARD, line, messages, rules, side

from handfoot.rules_files import preset_names
from scoring.engine import card_value

RULE_TEXTS = Path(__file__).resolve().parents[3] / "shared" / "rules"

SOURCE = {
    "bare-foot-n-wild": "barefoot-n-wild.txt",
    "remastered-singles": "remastered-singles.txt",
    "magnolia-point": "magnolia-point.txt",
    "family-game-knights": "family-game-knights.txt",
    "online-classic": "online-classic.txt",
}

# (preset, a sentence of its rule text backing a cell of the table)
QUOTES = [
    # bare-foot-n-wild
    ("bare-foot-n-wild", "have the highest amount of points at the end of five rounds"),  # rounds
    ("bare-foot-n-wild", "The meld is one or more sets with a high enough combined point value"),  # what counts toward the opening
    ("bare-foot-n-wild", "Round One: 50 points"),
    ("bare-foot-n-wild", "Round Five: 250 points"),  # opening
    ("bare-foot-n-wild", "Numbers 1-5: 5 points"),
    ("bare-foot-n-wild", "Numbers 6-10: 10 points"),
    ("bare-foot-n-wild", "Numbers 11 & 12: 20 points"),  # naturals
    ("bare-foot-n-wild", "Blue Wild: 20 points"),
    ("bare-foot-n-wild", "Red Wild: 50 points"),  # wilds
    ("bare-foot-n-wild", "Clean Stack: 500 points"),
    ("bare-foot-n-wild", "Dirty Stack: 300 points"),  # books
    ("bare-foot-n-wild", "Clothing Stack: 1,000 points"),
    ("bare-foot-n-wild", "No wild cards may be played with the clothing cards"),  # other books
    ("bare-foot-n-wild", "Sock: 50 points"),
    ("bare-foot-n-wild", "Shoe:"),
    ("bare-foot-n-wild", "all clothing cards in an uncompleted set count against the player, even if they are laid on the table"),
    ("bare-foot-n-wild", "Clothing Cards Meld Value: 5 points"),  # clothing
    ("bare-foot-n-wild", "If a player or partnership has completed a Clean Stack"),  # to go out
    ("bare-foot-n-wild", "both players in the partnership must have played their Foot"),
    ("bare-foot-n-wild", "that set must be completed into a Clothing Stack before ending the round"),
    ("bare-foot-n-wild", "there must always be more numbered cards than wild cards in a dirty set"),  # wild limit
    ("bare-foot-n-wild", "additional Wild cards may not be added to a Dirty Stack after it is completed"),
    # remastered-singles
    ("remastered-singles", "Singles games are played with 2 to 8 Players."),  # sides
    ("remastered-singles", "Each game consists of 4 rounds"),  # rounds
    ("remastered-singles", "Round 1\n\n60\n\nRound 2\n\n90\n\nRound 3\n\n120\n\nRound 4\n\n150"),  # opening
    ("remastered-singles", "4–7\n\n5\n\n8–King\n\n10\n\nAce\n\n20"),  # naturals
    ("remastered-singles", "Wild (2)\n\n20\n\nWild (Joker)\n\n50"),  # wilds
    ("remastered-singles", "Red 3s are worth 100 points and should be immediately played"),  # red 3
    ("remastered-singles", "Black 3s are -100 points"),  # black 3
    ("remastered-singles", "Clean book\n\n700\n\nDirty book\n\n300\n\nGoing out\n\n100"),  # books, out
    ("remastered-singles", "a 100-point bonus is awarded for a “perfect deal.”"),  # exactly 22
    ("remastered-singles", "you must complete at least one Clean and one Dirty book"),  # to go out
    ("remastered-singles", "Must always have one more natural card than Wild."),  # wild limit
    ("remastered-singles", "Natural cards can be added to complete books, wild cards cannot."),
    ("remastered-singles", "a Clean book of seven 4s would be worth 700 points plus 5 points for each card"),
    ("remastered-singles", "three 4s would be worth 15 points and six 10s would be 60 points"),
    ("remastered-singles", "Complete books and red 3s do not count toward minimum meld requirements."),
    # magnolia-point
    ("magnolia-point", "draw a card to find your partner"),  # sides
    ("magnolia-point", "Round 1 Meld 60\tRound 2 Meld 90\tRound 3 Meld 120\tRound 4 Meld 150"),  # rounds, opening
    ("magnolia-point", "To meld/open: First game you must have 60 points (next 90/120/150)"),  # what counts toward the opening
    ("magnolia-point", "4 thru 8 = 5 points"),
    ("magnolia-point", "King/Queen/Jack/Ten or Nine = 10 points"),
    ("magnolia-point", "Ace = 20 points"),  # naturals
    ("magnolia-point", "joker (wild card) = 50 points"),
    ("magnolia-point", "2's (wild card) = 20 points"),
    ("magnolia-point", "Red 3 = 100 (if you get a clean run of 7 = 1000 points/if caught in your foot = 100 points deducted)"),
    ("magnolia-point", "Black 3s - 8\t5 pts"),  # black 3
    ("magnolia-point", "Red Books (all same card) = 500 Points"),
    ("magnolia-point", "Black Books (books with wild cards) = 300 points"),  # books
    ("magnolia-point", "First team out gets 500 points"),  # going out
    ("magnolia-point", "if you pick exactly 22 cards, you get 100 points"),  # exactly 22
    ("magnolia-point", "You need 3 red/ clean books (no wild cards) and 4 black/dirty books"),  # to go out
    ("magnolia-point", "Both partners must be in their foot"),
    ("magnolia-point", "the most wilds would be 3 for a run of 7"),  # wild limit
    ("magnolia-point", "Dirty Books - 1-3 wild cards"),
    # family-game-knights
    ("family-game-knights", "Score the most points in four rounds."),  # rounds
    ("family-game-knights", "First Round: 50 Points | Second Round: 90 Points | Third Round: 120 Points | Fourth Round: 150 Points"),
    ("family-game-knights", "You must open each round by putting down a minimum score on the table."),  # what counts toward the opening
    ("family-game-knights", "Two's and Aces\t20 points"),
    ("family-game-knights", "Eight through King\t10 points"),
    ("family-game-knights", "Four through Seven\t5 points"),
    ("family-game-knights", "Joker\t50 points"),
    ("family-game-knights", "Red Three's\t500 points"),
    ("family-game-knights", "Black Three's\t5 points"),
    ("family-game-knights", "the red threes always count as minus 500 points each"),  # red 3
    ("family-game-knights", 'Each "Clean" pile\t500 points'),
    ("family-game-knights", 'Each "Dirty" pile\t300 points'),
    ("family-game-knights", 'For "Going Out"\t100 points'),
    ("family-game-knights", "Picking up 22\t100 points"),
    ("family-game-knights", "To go out on rounds one through three, the requirement is to possess at least one Clean and one Dirty pile."),
    ("family-game-knights", "To go out on round four, the requirement is to possess at least two Clean and two Dirty piles"),
    ("family-game-knights", "to go out on round four, the requirement is to possess at least two Clean and three Dirty piles"),
    ("family-game-knights", "In any set of cards you must have at least one more normal card than wild cards."),
    ("family-game-knights", "This form of Hand and Foot can also be played as a partnership game."),  # sides
    # online-classic
    ("online-classic", "Hand and Foot is a team card game played in four rounds."),  # sides, rounds
    ("online-classic", "Round 1 : 50 points"),
    ("online-classic", "Round 4 : 150 points"),  # opening
    ("online-classic", "Each round has a different minimum card value required to start the team piles."),  # what counts toward the opening
    ("online-classic", "4 – 7 : +5 points"),
    ("online-classic", "8 – King : +10 points"),
    ("online-classic", "Ace : +20 points"),
    ("online-classic", "2 : Wild card +20 points"),
    ("online-classic", "Joker : Wild card +50 points"),
    ("online-classic", "Red 3 : (Hearts / Diamonds) : -300 points"),
    ("online-classic", "Black 3 : (Spades / Clubs) : -5 points"),
    ("online-classic", "Clean pile : +500 points"),
    ("online-classic", "Dirty pile : +300 points"),
    ("online-classic", "Team bonus for ending the round : +100"),
    ("online-classic", "completed at least 1 clean and 1 dirty pile and all teamates have played at least one card in their foot"),
    ("online-classic", "2 cards of the same number and a wild"),  # wild limit
]


@pytest.mark.parametrize(("preset", "quote"), QUOTES)
def test_quoted_rule_text_backs_the_table(preset: str, quote: str) -> None:
    path = RULE_TEXTS / SOURCE[preset]
    if not path.is_file():
        pytest.skip(f"rule texts not beside the checkout ({path})")

    def squash(text: str) -> str:
        return " ".join(text.split())  # the texts pad with runs of (no-break) spaces

    assert squash(quote) in squash(path.read_text(encoding="utf-8"))


def test_the_five_presets_ship_with_their_sources() -> None:
    assert preset_names() == sorted(PRESETS)
    for name in PRESETS:
        r = rules(name)
        assert r.name == name
        assert r.source == SOURCE[name]


# --- sides, rounds, deck family ---------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "sides", "rounds", "family"),
    [
        ("bare-foot-n-wild", "singles or partners", 5, "barefoot"),
        ("remastered-singles", "singles, 2-8 players", 4, "standard"),
        ("magnolia-point", "partnerships", 4, "standard"),
        ("family-game-knights", "singles or partners", 4, "standard"),
        ("online-classic", "teams", 4, "standard"),
    ],
)
def test_sides_rounds_and_deck(preset: str, sides: str, rounds: int, family: str) -> None:
    r = rules(preset)
    assert (r.sides, r.rounds, r.family) == (sides, rounds, family)
    assert side(r, ("4 4 4",), round_no=rounds).total == 15  # the last round scores
    with pytest.raises(ValueError, match="round"):
        side(r, ("4 4 4",), round_no=rounds + 1)


# --- opening meld by round -----------------------------------------------------------------

OPENING = {
    "bare-foot-n-wild": [50, 100, 150, 200, 250],
    "remastered-singles": [60, 90, 120, 150],
    "magnolia-point": [60, 90, 120, 150],
    "family-game-knights": [50, 90, 120, 150],
    "online-classic": [50, 90, 120, 150],
}


def _table_worth(preset: str, points: int) -> tuple[str, ...]:
    """Melds below book size worth exactly `points` (a multiple of 5, at least 15).

    Three 4s (5 each in every preset) make an odd 5; the rest are melds of 3 to 6 cards of
    10-point ranks, so no meld is a book and every preset counts them all toward the opening.
    """
    tens = ["6", "7", "8", "9", "10"] if preset == "bare-foot-n-wild" else ["9", "10", "J", "Q", "K"]
    out = []
    if points % 10:
        out.append("4 4 4")
        points -= 15
    cards = points // 10
    for rank in tens:
        if not cards:
            break
        take = min(cards, 6)
        if cards - take in (1, 2):  # leave a meld of at least 3
            take = cards - 3
        out.append(" ".join([rank] * take))
        cards -= take
    assert not cards, "more points than five melds of six 10-point cards"
    return tuple(out)


@pytest.mark.parametrize("preset", PRESETS)
def test_opening_meld_minimum_by_round(preset: str) -> None:
    for round_no, minimum in enumerate(OPENING[preset], start=1):
        table = _table_worth(preset, minimum)
        assert all(len(meld.split()) < 7 for meld in table)
        enough = side(preset, table, round_no=round_no)
        assert line(enough, "cards on table") == minimum
        assert not messages(enough, "warning"), (round_no, enough.findings)
        short = side(preset, _table_worth(preset, minimum - 5), round_no=round_no)
        assert any("opening minimum" in m and str(minimum) in m for m in messages(short, "warning"))


# --- what counts toward the opening minimum --------------------------------------------------
# A photo shows the round's end, so the check asks whether the valid melds on the table can have
# reached the minimum. Remastered alone leaves complete books out: there a book can have counted only
# as the meld of at most 6 of its cards that it grew from.


def test_remastered_books_count_only_as_the_meld_they_grew_from() -> None:
    # The text's own example grown into a book: three 4s 15 + six of the 10s 60 = 75 >= 60.
    grown = side("remastered-singles", ("4 4 4", "10 10 10 10 10 10 10"), round_no=1)
    assert not grown.findings
    assert grown.total == 785  # clean book 700 + seven 10s 70 + three 4s 15
    # Round 2 (90): ten Ks count at most six Ks 60, + three 4s 15 = 75 < 90.
    short = side("remastered-singles", ("K K K K K K K K K K", "4 4 4"), round_no=2)
    assert messages(short, "warning") == [
        "the valid melds on the table can have counted at most 75 toward the opening (a complete book "
        "counts only as the meld of 6 cards it grew from), below round 2's opening minimum of 90"
    ]
    assert short.total == 815  # clean book 700 + ten Ks 100 + three 4s 15
    # Three aces instead of the 4s: 60 + 3 x 20 = 120 >= 90.
    enough = side("remastered-singles", ("K K K K K K K K K K", "A A A"), round_no=2)
    assert not enough.findings
    assert enough.total == 860  # 700 + 100 + 60


def test_remastered_dirty_book_counts_its_best_six_cards() -> None:
    # Six of 10 10 10 10 2 2 JOKER with more naturals than wilds: four 10s 40 + joker 50 + a 2 20
    # = 110 (three 10s, joker and both 2s: 100; a third wild needs four 10s: seven cards, a book).
    book = ("10 10 10 10 2 2 JOKER",)
    assert not side("remastered-singles", book, round_no=2).findings  # 110 >= 90
    short = side("remastered-singles", book, round_no=3)  # 110 < 120
    assert any("at most 110 " in m and "minimum of 120" in m for m in messages(short, "warning"))
    assert short.total == 430  # dirty book 300 + four 10s 40 + 2s 40 + joker 50


def test_remastered_red_threes_do_not_count_toward_the_opening() -> None:
    # Four laid red 3s (400) do not help six 4s (30) reach round 1's 60.
    result = side("remastered-singles", ("3R 3R 3R 3R", "4 4 4 4 4 4"), round_no=1)
    assert any("at most 30 " in m and "minimum of 60" in m for m in messages(result, "warning"))
    assert result.total == 430  # red 3s 4 x 100 + six 4s 30


@pytest.mark.parametrize(
    ("preset", "round2", "round3"),
    [
        ("bare-foot-n-wild", 100, 150),
        ("magnolia-point", 90, 120),
        ("family-game-knights", 90, 120),
        ("online-classic", 90, 120),
    ],
)
def test_other_presets_count_books_toward_the_opening(preset: str, round2: int, round3: int) -> None:
    # Their texts leave nothing out: ten 10s 100 + three 4s 15 = 115 >= round 2's minimum
    # (Remastered counts the same table 60 + 15 = 75, below its 90).
    table = ("10 10 10 10 10 10 10 10 10 10", "4 4 4")
    result = side(preset, table, round_no=2)
    assert 115 >= round2 and not result.findings
    assert result.total == 615  # clean book 500 + ten 10s 100 + three 4s 15
    alone = side(preset, table[:1], round_no=3)  # the book alone, 100, below round 3's minimum
    assert any("at most 100 " in m and f"minimum of {round3}" in m for m in messages(alone, "warning"))


# --- card values -----------------------------------------------------------------------------

VALUES = {
    "bare-foot-n-wild": {
        "1": 5,
        "2": 5,
        "3R": 5,
        "3B": 5,
        "4": 5,
        "5": 5,
        **{str(n): 10 for n in range(6, 11)},
        "11": 20,
        "12": 20,
        "WILD20": 20,
        "WILD50": 50,
        "SOCK": 50,
        "SHOE": 100,
    },
    "remastered-singles": {
        **{str(n): 5 for n in range(4, 8)},
        **{r: 10 for r in ("8", "9", "10", "J", "Q", "K")},
        "A": 20,
        "2": 20,
        "WILD20": 20,
        "JOKER": 50,
        "WILD50": 50,
    },
    "magnolia-point": {**{str(n): 5 for n in range(4, 9)}, **{r: 10 for r in ("9", "10", "J", "Q", "K")}, "A": 20, "2": 20, "JOKER": 50},
    "family-game-knights": {**{str(n): 5 for n in range(4, 8)}, **{r: 10 for r in ("8", "9", "10", "J", "Q", "K")}, "A": 20, "2": 20, "JOKER": 50},
    "online-classic": {**{str(n): 5 for n in range(4, 8)}, **{r: 10 for r in ("8", "9", "10", "J", "Q", "K")}, "A": 20, "2": 20, "JOKER": 50},
}
WILDS = {"2", "JOKER", "WILD20", "WILD50"}


@pytest.mark.parametrize("preset", PRESETS)
def test_card_values_on_table_and_in_hand(preset: str) -> None:
    r = rules(preset)
    for cls, value in VALUES[preset].items():
        assert card_value(r, cls) == value, cls
        held = side(r, (), (cls,))
        assert held.total == -value, cls
    naturals = [c for c in VALUES[preset] if c not in WILDS and c not in ("SOCK", "SHOE")]
    for cls in naturals:
        laid = side(r, (f"{cls} {cls} {cls}",), round_no=1)
        assert line(laid, "cards on table") == 3 * VALUES[preset][cls], cls


@pytest.mark.parametrize("preset", PRESETS)
def test_wilds_are_worth_their_value_in_a_meld(preset: str) -> None:
    if preset == "bare-foot-n-wild":
        wilds = {"WILD20": 20, "WILD50": 50}  # blue 20, red 50
    else:
        wilds = {"2": 20, "JOKER": 50}
    for cls, value in wilds.items():
        result = side(preset, (f"9 9 {cls}",))
        assert line(result, "cards on table") == 2 * card_value(rules(preset), "9") + value
        assert not messages(result)


def test_bare_foot_2_and_3s_are_plain_numbers() -> None:
    result = side("bare-foot-n-wild", ("2 2 2", "3R 3B 3R"))
    assert line(result, "cards on table") == 30
    assert not messages(result)


# --- red and black threes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "laid_each", "held_each"),
    [
        ("remastered-singles", 100, -100),
        ("magnolia-point", 100, -100),
    ],
)
def test_red_threes_laid_for_a_bonus(preset: str, laid_each: int, held_each: int) -> None:
    laid = side(preset, ("3R 3R",))
    assert line(laid, "red 3s laid (2)") == 2 * laid_each
    assert laid.total == 2 * laid_each and not messages(laid)
    held = side(preset, (), ("3R",))
    assert held.total == held_each


def test_magnolia_all_seven_red_threes_score_1000_instead() -> None:
    six = side("magnolia-point", ("3R " * 6,))
    seven = side("magnolia-point", ("3R " * 7,))
    assert six.total == 600
    assert seven.total == 1000
    assert line(seven, "all red 3s laid (7)") == 1000


@pytest.mark.parametrize(("preset", "held_each"), [("family-game-knights", -500), ("online-classic", -300)])
def test_red_threes_never_laid(preset: str, held_each: int) -> None:
    held = side(preset, (), ("3R 3R",))
    assert held.total == 2 * held_each
    on_table = side(preset, ("3R",))
    assert any("never laid" in m for m in messages(on_table))
    assert on_table.total == held_each


@pytest.mark.parametrize(
    ("preset", "each"),
    [
        ("remastered-singles", -100),
        ("magnolia-point", -5),
        ("family-game-knights", -5),
        ("online-classic", -5),
    ],
)
def test_black_threes_count_against_in_hand(preset: str, each: int) -> None:
    result = side(preset, (), ("3B 3B 3B",))
    assert result.total == 3 * each
    assert line(result, "black 3s left in hand and foot (3)") == 3 * each


# --- books ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "clean", "dirty"),
    [
        ("bare-foot-n-wild", 500, 300),
        ("remastered-singles", 700, 300),
        ("magnolia-point", 500, 300),
        ("family-game-knights", 500, 300),
        ("online-classic", 500, 300),
    ],
)
def test_book_bonuses(preset: str, clean: int, dirty: int) -> None:
    wild = "WILD20" if preset == "bare-foot-n-wild" else "2"
    result = side(preset, ("9 9 9 9 9 9 9", f"10 10 10 10 10 {wild} {wild}", "5 5 5 5 5 5"))
    assert line(result, "clean book of 9s") == clean
    assert line(result, "dirty book of 10s") == dirty
    assert line(result, "clean book of 5s") is None  # six cards: not a book
    assert result.total == clean + dirty + 7 * 10 + 5 * 10 + 2 * 20 + 6 * card_value(rules(preset), "5")


# --- clothing (Bare Foot) ------------------------------------------------------------------


def test_clothing_stack_scores_1000_plus_its_cards() -> None:
    result = side("bare-foot-n-wild", ("SOCK SOCK SOCK SHOE SHOE SHOE SHOE", "6 6 6 6 6 6 6 6"))
    assert line(result, "clothing stack") == 1000
    assert result.total == 1000 + 3 * 50 + 4 * 100 + 500 + 80


def test_clothing_not_in_a_stack_counts_against_even_on_the_table() -> None:
    result = side("bare-foot-n-wild", ("SOCK SHOE SHOE", "8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8"), ("SOCK",))
    assert line(result, "clothing cards not in a stack") == -250
    assert line(result, "left in hand and foot") == -50
    assert not messages(result)


def test_clothing_counts_five_toward_the_opening_meld() -> None:
    # 7 clothing cards count 35 toward round 1's 50: with 3 fives (15) it is exactly 50.
    ok = side("bare-foot-n-wild", ("SOCK SOCK SOCK SOCK SHOE SHOE SHOE", "5 5 5"))
    assert not messages(ok, "warning")
    short = side("bare-foot-n-wild", ("SOCK SOCK SOCK SOCK SHOE SHOE SHOE", "4 4"))
    assert any("opening minimum" in m for m in messages(short, "warning"))


@pytest.mark.parametrize("preset", STANDARD)
def test_clothing_cards_are_foreign_to_standard_decks(preset: str) -> None:
    result = side(preset, (), ("SOCK",))
    assert result.total == 0
    assert any("SOCK" in m and "not a card" in m for m in messages(result))


# --- going out --------------------------------------------------------------------------------


def _books(preset: str, clean: int, dirty: int) -> tuple[str, ...]:
    ranks = (
        ["1", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
        if preset == "bare-foot-n-wild"
        else ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    )
    wild = "WILD20" if preset == "bare-foot-n-wild" else "2"
    out = [" ".join([ranks.pop()] * 7) for _ in range(clean)]
    out += [" ".join([ranks.pop()] * 5 + [wild] * 2) for _ in range(dirty)]
    return tuple(out)


GOING_OUT = {  # preset: (bonus, [(clean, dirty) per round], [partners' (clean, dirty) per round])
    "bare-foot-n-wild": (0, [(1, 0)] * 5, [(1, 0)] * 5),
    "remastered-singles": (100, [(1, 1)] * 4, [(1, 1)] * 4),
    "magnolia-point": (500, [(3, 4)] * 4, [(3, 4)] * 4),
    "family-game-knights": (100, [(1, 1)] * 3 + [(2, 2)], [(1, 1)] * 3 + [(2, 3)]),
    "online-classic": (100, [(1, 1)] * 4, [(1, 1)] * 4),
}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("partners", [False, True])
def test_going_out_bonus_and_requirements(preset: str, partners: bool) -> None:
    bonus, singles, pairs = GOING_OUT[preset]
    leftover = ("", "") if partners else ("",)
    for round_no, (clean, dirty) in enumerate(pairs if partners else singles, start=1):
        met = side(preset, _books(preset, clean, dirty), leftover, round_no=round_no, went_out=True)
        assert not messages(met), (round_no, met.findings)
        assert line(met, "going out") == (bonus or None)
        for short in ((clean - 1, dirty), (clean, dirty - 1)):
            if min(short) < 0:
                continue
            missed = side(preset, _books(preset, *short), leftover, round_no=round_no, went_out=True)
            assert line(missed, "going out") is None
            assert any("no going-out bonus" in m for m in messages(missed)), (round_no, short)


def test_partnership_declared_by_key_or_by_two_leftovers() -> None:
    books = _books("family-game-knights", 2, 2)
    declared = side("family-game-knights", books, ("",), round_no=4, went_out=True, partners=True)
    inferred = side("family-game-knights", books, ("", "4 4"), round_no=4, went_out=True)
    single = side("family-game-knights", books, ("",), round_no=4, went_out=True)
    assert line(single, "going out") == 100
    for result in (declared, inferred):
        assert line(result, "going out") is None
        assert any("3 dirty" in m for m in messages(result))


def test_bare_foot_started_clothing_set_blocks_going_out() -> None:
    books = _books("bare-foot-n-wild", 1, 0)
    out = side("bare-foot-n-wild", books + ("SOCK SOCK SHOE",), ("",), round_no=1, went_out=True)
    assert any("clothing set" in m for m in messages(out))
    stacked = side("bare-foot-n-wild", books + ("SOCK " * 7,), ("",), round_no=1, went_out=True)
    assert not messages(stacked)


# --- perfect deal ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "bonus"),
    [
        ("bare-foot-n-wild", 0),
        ("remastered-singles", 100),
        ("magnolia-point", 100),
        ("family-game-knights", 100),
        ("online-classic", 0),
    ],
)
def test_perfect_deal_bonus(preset: str, bonus: int) -> None:
    result = side(preset, (), (), perfect_deal=True)
    assert result.total == bonus
    if not bonus:
        assert any("perfect deal" in m for m in messages(result, "warning"))


# --- wild limit -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "naturals", "wilds", "valid"),
    [
        # naturals > wilds everywhere
        *[(p, 3, 2, True) for p in PRESETS],
        *[(p, 3, 3, False) for p in PRESETS],
        *[(p, 2, 1, True) for p in PRESETS],
        # a fourth wild needs 9+ cards: it went onto a finished book (Bare Foot, Remastered text)
        ("bare-foot-n-wild", 9, 4, False),
        ("remastered-singles", 9, 4, False),
        # Magnolia: at most 3 wilds in a book
        ("magnolia-point", 9, 4, False),
        ("magnolia-point", 4, 3, True),
        # Family Game Knights and online: only naturals > wilds
        ("family-game-knights", 5, 4, True),
        ("online-classic", 5, 4, True),
        ("family-game-knights", 4, 4, False),
        ("online-classic", 6, 6, False),
    ],
)
def test_wild_limit(preset: str, naturals: int, wilds: int, valid: bool) -> None:
    wild = "WILD50" if preset == "bare-foot-n-wild" else "JOKER"
    result = side(preset, (" ".join(["10"] * naturals + [wild] * wilds),))
    too_many = [m for m in messages(result) if "too many wilds" in m]
    assert bool(too_many) != valid, result.findings
