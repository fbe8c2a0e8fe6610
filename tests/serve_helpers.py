"""Helpers for the game-night tests: an in-process server over a temporary ledger, a fake detector that
returns the example photos' true corners (examples/photos/*.json, written by the scene generator), and a
small HTTP client."""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path
from typing import Any

from handfoot.games import GameBook
from handfoot.ledger import Ledger
from handfoot.server import make_server
from vision.detection import Detection

REPO = Path(__file__).resolve().parent.parent
PHOTOS = REPO / "examples" / "photos"


class TrueCorners:
    """A detector that answers with a photo's true corner boxes (by its size), optionally slowly, and
    records how many reads ran at once."""

    def __init__(self, names: tuple[str, ...] = ("ann-table", "ann-hand", "bob-table", "bob-hand"), delay: float = 0.0) -> None:
        self.by_size: dict[tuple[int, int], list[Detection]] = {}
        for name in names:
            scene = json.loads((PHOTOS / f"{name}.json").read_text())
            self.by_size[(scene["width"], scene["height"])] = [Detection(c["cls"], 0.9, tuple(box)) for c in scene["cards"] for box in c["corners"]]
        self.delay = delay
        self.running = 0
        self.most_at_once = 0
        self.calls = 0
        self._lock = threading.Lock()

    def read(self, image):
        with self._lock:
            self.running += 1
            self.calls += 1
            self.most_at_once = max(self.most_at_once, self.running)
        try:
            time.sleep(self.delay)
            return list(self.by_size.get((image.shape[1], image.shape[0]), []))
        finally:
            with self._lock:
                self.running -= 1


class Served:
    """A running server (in a thread) over a ledger in `folder`; `call` makes one request."""

    def __init__(self, folder: Path, detector: TrueCorners, token: str | None = None) -> None:
        self.book = GameBook(Ledger(folder), lambda: detector.read)
        self.server = make_server(self.book, "127.0.0.1", 0, token)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        conn.request(method, path, body=data, headers=headers or {})
        res = conn.getresponse()
        payload = res.read()
        conn.close()
        kind = res.getheader("Content-Type", "")
        return res.status, json.loads(payload) if kind.startswith("application/json") and payload else payload

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
