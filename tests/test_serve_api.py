"""`handfoot serve`'s JSON API: a round played through it, every bad input a 4xx with a one-line message
(the server keeps serving and nothing confirmed changes), the access token off loopback, two uploads at
once. The detector is faked with the example photos' true corners, so the totals to expect are the true
cards' (examples/photos/true-cards.toml: Ann 515, Bob 840 in round 1 of remastered-singles)."""

from __future__ import annotations

import http.client
import io
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))
from serve_helpers import PHOTOS, Served, TrueCorners  # noqa: E402

from handfoot.server import is_loopback  # noqa: E402

ANN, BOB = 0, 1


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path / "data", TrueCorners())
    yield s
    s.close()


def _game(s: Served) -> int:
    status, sheet = s.call("POST", "/api/games", {"rules": "remastered-singles", "sides": ["Ann", "Bob"]})
    assert status == 201, sheet
    return sheet["id"]


def _photo(s: Served, game: int, number: int, side: int, name: str, role: str) -> tuple[int, dict]:
    return s.call(
        "POST",
        f"/api/games/{game}/rounds/{number}/sides/{side}/photos?role={role}&name={name}.jpg",
        raw=(PHOTOS / f"{name}.jpg").read_bytes(),
        headers={"Content-Type": "image/jpeg"},
    )


def _played_round(s: Served) -> tuple[int, dict]:
    game = _game(s)
    assert s.call("POST", f"/api/games/{game}/rounds")[0] == 201
    for side, who in ((ANN, "ann"), (BOB, "bob")):
        for role, kind in (("table", "table"), ("leftover", "hand")):
            status, view = _photo(s, game, 1, side, f"{who}-{kind}", role)
            assert status == 201, view
    return game, view


def test_a_round_through_the_api_scores_the_true_cards(served):
    game, view = _played_round(served)
    assert [side["total"] for side in view["sides"]] == [515, 840]
    # a perfect deal (exactly 22 cards picked up) is worth 100 under remastered-singles
    status, view = served.call("PATCH", f"/api/games/{game}/rounds/1/sides/{ANN}", {"perfect_deal": True})
    assert status == 200 and view["sides"][ANN]["perfect_deal"] and view["sides"][ANN]["total"] == 615
    served.call("PATCH", f"/api/games/{game}/rounds/1/sides/{ANN}", {"perfect_deal": False})
    assert served.call("POST", f"/api/games/{game}/rounds/1/confirm")[0] == 200
    status, sheet = served.call("GET", f"/api/games/{game}")
    assert status == 200
    assert sheet["totals"] == [515, 840] and sheet["rounds"][0]["confirmed"]
    # the audit: Ann wrote down 215, 300 short of 515: the dirty book of 9s explains it
    status, audit = served.call("POST", f"/api/games/{game}/rounds/1/audit", {"claimed": {"Ann": 215, "Bob": 840}})
    assert status == 200
    ann, bob = audit["sides"]
    assert (ann["difference"], bob["difference"]) == (-300, 0)
    assert ann["explained_by"][0] == [{"label": "dirty book of 9s", "points": 300}]
    status, answer = served.call("POST", f"/api/games/{game}/rounds/1/audit", {"claimed": {"Cy": 5}})
    assert status == 400 and "no side named 'Cy'" in answer["error"]
    status, csv = served.call("GET", f"/api/games/{game}/export.csv")
    assert status == 200 and b"1,confirmed,Ann,515,515" in csv


def test_tapped_correction_changes_that_card_and_can_be_undone(served):
    game, view = _played_round(served)
    hand = next(p for p in view["sides"][ANN]["photos"] if p["role"] == "leftover")
    queen = next(c for c in hand["cards"] if c["class"] == "Q")
    # Ann's hand holds Q 3B 10 A: the Q (-10) read as a 5 (-5) leaves her 5 points better off
    status, after = served.call(
        "POST", f"/api/games/{game}/rounds/1/sides/{ANN}/corrections", {"photo": hand["id"], "card": queen["index"], "to": "5"}
    )
    assert status == 201, after
    assert after["sides"][ANN]["total"] == 520
    # removing the 3B lifts the -100 black-3 penalty and the card
    three = next(c for c in hand["cards"] if c["class"] == "3B")
    status, after = served.call(
        "POST", f"/api/games/{game}/rounds/1/sides/{ANN}/corrections", {"photo": hand["id"], "card": three["index"], "to": None}
    )
    assert after["sides"][ANN]["total"] == 620
    # a missed red 3 on the table: +100
    status, after = served.call("POST", f"/api/games/{game}/rounds/1/sides/{ANN}/corrections", {"add": "3R", "where": "table"})
    assert status == 201 and after["sides"][ANN]["total"] == 720
    first = after["sides"][ANN]["corrections"][0]
    status, after = served.call("DELETE", f"/api/games/{game}/rounds/1/corrections/{first['id']}")
    assert status == 200 and after["sides"][ANN]["total"] == 715
    assert len(after["sides"][ANN]["corrections"]) == 2


def _tiny_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (90, 90, 90)).save(buf, "PNG")
    return buf.getvalue()


def _huge_png() -> bytes:
    buf = io.BytesIO()
    Image.new("1", (20000, 10000)).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def test_every_bad_input_is_a_4xx_one_line_and_changes_nothing_confirmed(served, tmp_path):
    game, view = _played_round(served)
    served.call("POST", f"/api/games/{game}/rounds/1/confirm")
    assert served.call("POST", f"/api/games/{game}/rounds")[0] == 201  # round 2, open
    before = served.call("GET", f"/api/games/{game}")[1]
    photo_id = view["sides"][ANN]["photos"][0]["id"]
    up = f"/api/games/{game}/rounds/2/sides/{ANN}/photos?role=table"
    jpeg = (PHOTOS / "ann-hand.jpg").read_bytes()
    cases = [
        ("POST", up, b"this is not a picture", 400, "not an image"),
        ("POST", up, b"", 400, "empty file"),
        ("POST", up, jpeg[: len(jpeg) // 2], 400, "truncated"),
        ("POST", up, _huge_png(), 413, "too large"),
        ("POST", up.replace("role=table", "role=hand"), _tiny_png(), 400, "table or leftover"),
        ("GET", "/api/games/99", None, 404, "no game 99"),
        ("GET", f"/api/games/{game}/rounds/7", None, 404, "has no round 7"),
        ("POST", f"/api/games/{game}/rounds/2/sides/5/photos?role=table", _tiny_png(), 404, "no side 5"),
        (
            "POST",
            f"/api/games/{game}/rounds/2/sides/{ANN}/corrections",
            b'{"photo": "' + photo_id.encode() + b'", "card": 0, "to": "9"}',
            404,
            "has no photo",
        ),  # a photo of round 1, not of round 2
        ("POST", f"/api/games/{game}/rounds/1/sides/{ANN}/corrections", b'{"add": "K"}', 409, "is confirmed"),
        ("POST", f"/api/games/{game}/rounds/1/sides/{ANN}/photos?role=table", _tiny_png(), 409, "is confirmed"),
        ("POST", f"/api/games/{game}/rounds/2/sides/{ANN}/corrections", b'{"add": "KING"}', 400, "unknown card"),
        ("POST", f"/api/games/{game}/rounds/2/sides/{ANN}/corrections", b'{"add": "JOKER", "where": "Q"}', 400, "has no meld of Q"),
        ("POST", f"/api/games/{game}/rounds/2/sides/{ANN}/corrections", b"{not json", 400, "not JSON"),
        ("POST", "/api/games", b'{"rules": "no-such-rules", "sides": ["A", "B"]}', 400, "unknown rule preset"),
        ("POST", "/api/games", b'{"rules": "remastered-singles", "sides": ["A", "A"]}', 400, "two sides are named"),
        ("GET", "/api/photos/" + "0" * 32 + "/image", None, 404, "no photo"),
        ("GET", "/api/../../etc/passwd", None, 404, "no such API path"),
        ("GET", "/static/../ledger.sqlite3", None, 404, "no such API path"),
        ("DELETE", f"/api/games/{game}", None, 405, "not allowed"),
    ]
    for method, path, body, status, words in cases:
        got, answer = served.call(method, path, raw=body)
        assert got == status, (path, body[:30] if body else None, answer)
        assert words in answer["error"] and "\n" not in answer["error"], answer
        assert "Traceback" not in answer["error"] and str(tmp_path) not in answer["error"]
        assert served.call("GET", "/api/games")[0] == 200  # still serving
    # a correction naming a card that is not there, on a photo that is
    status, view2 = _photo(served, game, 2, ANN, "ann-hand", "leftover")
    hand = view2["sides"][ANN]["photos"][0]
    got, answer = served.call("POST", f"/api/games/{game}/rounds/2/sides/{ANN}/corrections", {"photo": hand["id"], "card": 99, "to": "9"})
    assert got == 404 and "has no card 99" in answer["error"]
    got, answer = served.call("POST", f"/api/games/{game}/rounds/2/sides/{BOB}/corrections", {"photo": hand["id"], "card": 0, "to": "9"})
    assert got == 404 and "Bob has no photo" in answer["error"]
    after = served.call("GET", f"/api/games/{game}")[1]
    assert after["rounds"][0] == before["rounds"][0] and after["totals"] == before["totals"] == [515, 840]


def test_an_upload_over_30_mb_is_refused_before_it_is_read(served):
    game = _game(served)
    served.call("POST", f"/api/games/{game}/rounds")
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    conn.putrequest("POST", f"/api/games/{game}/rounds/1/sides/0/photos?role=table")
    conn.putheader("Content-Length", str(30 * 2**20 + 1))
    conn.endheaders()  # no body sent: the answer comes from the length alone
    res = conn.getresponse()
    assert res.status == 413 and b"over the 30 MB limit" in res.read()
    conn.close()
    assert served.call("GET", f"/api/games/{game}/rounds/1")[1]["sides"][0]["photos"] == []


def test_two_uploads_at_once_are_both_kept_and_read_one_at_a_time(tmp_path):
    detector = TrueCorners(delay=1.0)
    s = Served(tmp_path / "data", detector)
    try:
        game = _game(s)
        s.call("POST", f"/api/games/{game}/rounds")
        answers = {}
        busy_seen = []

        def upload(side, name):
            answers[side] = _photo(s, game, 1, side, name, "table")

        threads = [threading.Thread(target=upload, args=a) for a in ((ANN, "ann-table"), (BOB, "bob-table"))]
        for t in threads:
            t.start()
        time.sleep(0.5)
        busy_seen.append(s.call("GET", "/api/queue")[1]["busy"])
        for t in threads:
            t.join()
        assert [answers[k][0] for k in (ANN, BOB)] == [201, 201]
        assert detector.most_at_once == 1 and detector.calls == 2
        assert busy_seen == [2]  # one being read, one waiting: what the page shows
        view = s.call("GET", f"/api/games/{game}/rounds/1")[1]
        assert [len(side["photos"]) for side in view["sides"]] == [1, 1]
    finally:
        s.close()


def test_a_token_guards_every_request_when_one_is_set(tmp_path):
    s = Served(tmp_path / "data", TrueCorners(), token="s3cret")
    try:
        assert s.call("GET", "/")[0] == 403
        status, answer = s.call("GET", "/api/games")
        assert status == 403 and "access token" in answer["error"]
        assert s.call("GET", "/api/games?token=wrong")[0] == 403
        assert s.call("GET", "/api/games?token=s3cret")[0] == 200
        assert s.call("GET", "/api/games", headers={"X-Handfoot-Token": "s3cret"})[0] == 200
        assert s.call("GET", "/?token=s3cret")[0] == 200
    finally:
        s.close()


def test_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20") and not is_loopback("example.org")


def test_serve_off_loopback_prints_a_token_url_and_a_qr_code(tmp_path):
    """`handfoot serve --host 0.0.0.0` as a player starts it: the URL carries a token, a QR code follows,
    and a request without the token is refused."""
    handfoot = Path(sys.executable).parent / "handfoot"
    proc = subprocess.Popen(
        [str(handfoot), "serve", "--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = []
        while not any("Ctrl+C" in line for line in lines):
            line = proc.stdout.readline()
            assert line, "serve stopped: " + "".join(lines)
            lines.append(line)
        text = "".join(lines)
        url = re.search(r"http://\S+:(\d+)/\?token=(\S+)", text)
        assert url, text
        assert "█" in text or "▀" in text or "▄" in text  # the QR code, drawn with block characters
        port, token = url.group(1), url.group(2)
        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
        conn.request("GET", "/api/games")
        assert conn.getresponse().status == 403
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
        conn.request("GET", f"/api/games?token={token}")
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_past_round_is_edited_by_reopening_it(served):
    game, view = _played_round(served)
    served.call("POST", f"/api/games/{game}/rounds/1/confirm")
    served.call("POST", f"/api/games/{game}/rounds")  # round 2 open
    status, answer = served.call("POST", f"/api/games/{game}/rounds/1/reopen")
    assert status == 409 and "round 2 is open" in answer["error"]
    assert served.call("POST", f"/api/games/{game}/undo")[1]["undone"] == 2
    status, view = served.call("POST", f"/api/games/{game}/rounds/1/reopen")
    assert status == 200 and not view["confirmed"]
    assert served.call("GET", f"/api/games/{game}")[1]["totals"] == [0, 0]  # an open round is not yet counted
    # Bob's hand holds one 6 (-5): removed, Bob has 845
    hand = next(p for p in view["sides"][BOB]["photos"] if p["role"] == "leftover")
    served.call("POST", f"/api/games/{game}/rounds/1/sides/{BOB}/corrections", {"photo": hand["id"], "card": hand["cards"][0]["index"], "to": None})
    served.call("POST", f"/api/games/{game}/rounds/1/confirm")
    assert served.call("GET", f"/api/games/{game}")[1]["totals"] == [515, 845]
