"""Present a scored round: a JSON-ready dict, or rich breakdown tables for the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scoring.rounds import ERROR, RoundResult, SideResult
from scoring.rules import Rules


def result_to_dict(result: RoundResult) -> dict[str, Any]:
    """{"rules", "round", "sides": [{"name", "total", "lines": [{"label", "points"}],
    "findings": [{"level", "message"}]}]}"""
    return {
        "rules": result.rules,
        "round": result.round,
        "sides": [
            {
                "name": side.name,
                "total": side.total,
                "lines": [{"label": line.label, "points": line.points} for line in side.lines],
                "findings": [{"level": f.level, "message": f.message} for f in side.findings],
            }
            for side in result.sides
        ],
    }


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def side_table(side: SideResult) -> Table:
    """One side's breakdown as a rich table: a line per item and the total."""
    table = Table(title=escape(side.name), title_justify="left", show_footer=True)
    table.add_column("item", footer="total")
    table.add_column("points", justify="right", footer=f"[bold]{side.total}[/]")
    for line in side.lines:
        style = "red" if line.points < 0 else None
        table.add_row(escape(line.label), _signed(line.points), style=style)
    return table


def print_breakdown(console: Console, result: RoundResult) -> None:
    """Print each side's breakdown table and findings, then a one-line summary."""
    console.print(f"[bold]Round {result.round}[/] under [bold]{escape(result.rules)}[/]")
    for side in result.sides:
        console.print(side_table(side))
        for f in side.findings:
            colour = "red" if f.level == ERROR else "yellow"
            console.print(f"  [{colour}]{f.level}:[/] {escape(f.message)}", highlight=False)
    summary = escape(", ".join(f"{s.name} {s.total}" for s in result.sides))
    console.print(f"[bold]Totals:[/] {summary}", highlight=False)
    if result.has_error:
        console.print("[red]The cards break the rules (errors above); totals are provisional.[/]")


def rules_table(rules: Rules) -> Table:
    """A readable table of every number in a rule set."""
    t = Table(title=f"{rules.name}: {rules.title}" if rules.title else rules.name, show_header=False)
    t.add_column("rule", style="bold")
    t.add_column("value")

    def row(label: str, value: object) -> None:
        t.add_row(label, str(value))

    if rules.source:
        row("source", rules.source)
    row("deck family", rules.family)
    if rules.sides:
        row("sides", rules.sides)
    row("rounds", rules.rounds)
    row("opening meld by round", " / ".join(map(str, rules.opening_meld)) + ("" if rules.opening_counts_books else " (complete books do not count)"))
    row("card values", ", ".join(f"{k}: {v}" for k, v in rules.card_values))
    row("meld size", f"at least {rules.min_meld}; a book is {rules.book_size}+")
    limits = [f"naturals >= wilds + {rules.natural_margin}"]
    if rules.max_wilds:
        limits.append(f"at most {rules.max_wilds} wilds")
    if rules.no_wild_after_book:
        limits.append(f"no wild onto a finished book (so at most {rules.wilds_before_book()})")
    row("wild limit", "; ".join(limits))
    row("clean / dirty book", f"{rules.clean_book} / {rules.dirty_book}")
    if rules.family == "standard":
        red = f"{rules.value('red3')} each"
        if rules.red3_laid:
            red = f"+{red} laid, -{rules.value('red3')} each left in hand/foot"
            if rules.red3_all_laid_count:
                red += f"; {rules.red3_all_laid_count}+ laid: {rules.red3_all_laid_bonus} instead"
        else:
            red = f"never laid; -{red} in hand/foot"
        row("red 3", red)
        row("black 3", f"-{rules.value('black3')} each in hand/foot; never melded")
    else:
        row("3s", "plain numbers (no red or black 3 rules)")
    if rules.clothing_stack_bonus or rules.family == "barefoot":
        row(
            "clothing stack",
            f"{rules.clothing_stack_bonus} (7+ clothing cards, no wilds); "
            f"clothing cards count {rules.clothing_meld_value} toward the opening meld; "
            "those not in a stack count against",
        )
    row("going-out bonus", rules.going_out_bonus or "none")
    books = " / ".join(f"{c}c+{d}d" for c, d in zip(rules.going_out_clean, rules.going_out_dirty))
    row("books to go out by round", books)
    pbooks = " / ".join(f"{c}c+{d}d" for c, d in zip(rules.partner_going_out_clean, rules.partner_going_out_dirty))
    if pbooks != books:
        row("partners: books to go out", pbooks)
    if rules.clothing_must_be_stack:
        row("also to go out", "a started clothing set must be a stack")
    row("perfect deal (exactly 22)", rules.perfect_deal_bonus or "none")
    return t
