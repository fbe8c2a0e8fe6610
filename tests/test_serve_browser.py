"""The game-night page in a real headless browser (Debian's chromium via playwright), against
`handfoot serve` started as the README says, with the shipped model reading the bundled example photos.

One game of two rounds (Ann and Bob of examples/photos): round 1 as photographed, then the server is
stopped and started again mid-round 2 (nothing may be lost), a card is corrected by tapping it, round 2
is confirmed, the audit view explains a written-down total, a third round is started with a photo and
undone; a file that is not a picture shows the server's one-line message. The score sheet's totals must equal
`handfoot score` on the same photos (with the same correction as --fix) and the true cards
(examples/photos/true-cards.toml: Ann 515, Bob 840 a round).

Marked `browser`; skipped, saying why, only where /usr/bin/chromium or playwright is missing. With
HANDFOOT_SCREENSHOTS=1 the phone-sized screenshots are written to docs/ (the README shows them).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from serve_helpers import PHOTOS, REPO  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install -e '.[test]')")

HANDFOOT = Path(sys.executable).parent / "handfoot"
PHONE = {"width": 390, "height": 844}
#: The commands' environment: offline, and ultralytics quiet even where an earlier test in this process
#: (training/cards.py) turned it verbose, which would print its model-loading line into `score --json`.
ENV = dict(os.environ, YOLO_OFFLINE="1", YOLO_VERBOSE="False")
#: Card values under remastered-singles (DESIGN.md: 4-7: 5, 8-K: 10, A: 20; a black 3 left in hand -100).
LEFT_IN_HAND = {"Q": 10, "10": 10, "A": 20, "3B": 100}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`handfoot serve --data DIR --port N`, as the README starts it."""

    def __init__(self, data: Path, port: int) -> None:
        self.proc = subprocess.Popen(
            [str(HANDFOOT), "serve", "--data", str(data), "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV
        )
        self.url = f"http://127.0.0.1:{port}/"
        out = []
        while True:
            line = self.proc.stdout.readline()
            assert line, "handfoot serve stopped: " + "".join(out)
            out.append(line)
            if "Ctrl+C" in line:
                break
        assert f"game night at {self.url}" in "".join(out)
        self.log = out  # the rest of its output, read on so that a full pipe never stops it
        threading.Thread(target=lambda: out.extend(self.proc.stdout), daemon=True).start()

    def api(self, path: str) -> dict:
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=60) as res:
            return json.load(res)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def _score_cli(tmp: Path, number: int, fixes: list[str]) -> dict[str, int]:
    """`handfoot score` on a round file of Ann's and Bob's example photos: totals by side."""
    round_file = tmp / f"round{number}.toml"
    round_file.write_text(
        f'rules = "remastered-singles"\nround = {number}\n'
        + "".join(
            f'[[sides]]\nname = "{who.title()}"\ntable_photos = ["{PHOTOS}/{who}-table.jpg"]\nleftover_photos = ["{PHOTOS}/{who}-hand.jpg"]\n'
            for who in ("ann", "bob")
        )
    )
    args = [str(HANDFOOT), "score", str(round_file), "--json"] + [f"--fix={f}" for f in fixes]
    done = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=600)
    assert done.returncode in (0, 3), done.stderr
    return {s["name"]: s["total"] for s in json.loads(done.stdout)["sides"]}


def _photograph_round(page, number: int) -> None:
    for side, who in ((0, "ann"), (1, "bob")):
        section = page.locator(f'section.side[data-side="{side}"]')
        section.locator('input[data-role="table"][capture]').set_input_files(str(PHOTOS / f"{who}-table.jpg"))
        section.locator("figure.photo").first.wait_for(timeout=300_000)
        section.locator('input[data-role="leftover"][capture]').set_input_files(str(PHOTOS / f"{who}-hand.jpg"))
        section.locator("figure.photo").nth(1).wait_for(timeout=300_000)


def _shot(what, tmp: Path, name: str) -> None:
    """A screenshot of a page or an element: into docs/ with HANDFOOT_SCREENSHOTS=1, else the test's folder."""
    target = REPO / "docs" if os.environ.get("HANDFOOT_SCREENSHOTS") else tmp
    options = {"quality": 70} if name.endswith(".jpg") else {}
    what.screenshot(path=str(target / name), **options)


def test_a_game_night_on_a_phone(tmp_path):
    data, port = tmp_path / "data", _free_port()
    server = Server(data, port)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
        page.on("dialog", lambda d: d.accept())  # the page's "are you sure?" questions
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(server.url)
            page.select_option("#new-rules", "remastered-singles")
            page.fill("#new-sides", "Ann, Bob")
            page.click("#start-game")
            page.click("#next-round")
            page.wait_for_url("**/r/1")
            # a file that is not a picture: the page shows the server's one-line answer
            bad = tmp_path / "notes.jpg"
            bad.write_text("not a picture")
            page.locator('section.side[data-side="0"] input[data-role="table"][capture]').set_input_files(str(bad))
            sync_api.expect(page.locator("#msg")).to_contain_text("not an image")
            _photograph_round(page, 1)
            totals = page.locator("section.side .side-total").all_inner_texts()
            assert totals == ["515", "840"]  # the true cards
            _shot(page.locator('section.side[data-side="0"]'), tmp_path, "game-night-side.jpg")
            page.click("#confirm-round")
            page.wait_for_selector("#sheet")
            page.click("#next-round")
            page.wait_for_url("**/r/2")
            _photograph_round(page, 2)

            # the server stops mid-round and comes back: nothing is lost
            server.stop()
            server = Server(data, port)
            page.reload()
            page.wait_for_selector("section.side figure.photo")
            assert page.locator("figure.photo").count() == 4
            assert page.locator("section.side .side-total").all_inner_texts() == ["515", "840"]

            # a correction by tapping: the least sure card of Ann's hand photo is removed
            view = server.api("/api/games/1/rounds/2")
            ann = view["sides"][0]
            hand = next(ph for ph in ann["photos"] if ph["role"] == "leftover")
            card = min(hand["cards"], key=lambda c: c["conf"])
            assert card["conf"] == min(c["conf"] for ph in ann["photos"] for c in ph["cards"] if c["class"] == card["class"]), (
                "--fix would pick another card"
            )
            box = page.locator(f'g.cardbox[data-photo="{hand["id"]}"][data-index="{card["index"]}"] rect').first
            box.scroll_into_view_if_needed()
            box.tap()
            page.click("#card-remove")
            page.wait_for_selector(".corr")
            expected_ann = 515 + LEFT_IN_HAND[card["class"]]
            sync_api.expect(page.locator("section.side .side-total").first).to_have_text(str(expected_ann))
            page.click("#confirm-round")
            page.wait_for_selector("#sheet")
            sheet_totals = [int(t) for t in page.locator("#sheet tfoot .total-cell").all_inner_texts()]
            _shot(page, tmp_path, "game-night-sheet.png")

            # the audit view: Ann wrote down 215 for round 1, 300 short: her dirty book of 9s explains it
            page.goto(server.url + "#/g/1/audit")
            page.select_option("#audit-round", "1")
            page.fill('input[data-side="Ann"]', "215")
            page.click("#audit-run")
            sync_api.expect(page.locator("#audit-out")).to_contain_text("the claim leaves out: dirty book of 9s (+300)")

            # undo of a round: round 3 with one photo, then undone
            page.goto(server.url + "#/g/1")
            page.click("#next-round")
            page.wait_for_url("**/r/3")
            section = page.locator('section.side[data-side="1"]')
            section.locator('input[data-role="leftover"][capture]').set_input_files(str(PHOTOS / "bob-hand.jpg"))
            section.locator("figure.photo").first.wait_for(timeout=300_000)
            page.goto(server.url + "#/g/1")
            page.click("#undo-round")
            sync_api.expect(page.locator("#sheet tbody tr")).to_have_count(2)
            assert [int(t) for t in page.locator("#sheet tfoot .total-cell").all_inner_texts()] == sheet_totals
            assert len(list((data / "photos" / "1").iterdir())) == 8
            assert errors == []
        finally:
            browser.close()
            server.stop()

    assert sheet_totals == [515 + expected_ann, 840 + 840]
    fix = f"Ann:{card['class']}->"
    cli = [_score_cli(tmp_path, 1, []), _score_cli(tmp_path, 2, [fix])]
    assert sheet_totals == [cli[0]["Ann"] + cli[1]["Ann"], cli[0]["Bob"] + cli[1]["Bob"]]
