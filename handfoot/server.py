"""`handfoot serve`'s HTTP side: the phone page (handfoot/static) and the JSON API under /api/.

Standard library only (`http.server.ThreadingHTTPServer`): each request runs in
its own thread; photo reading is queued one at a time by `games.PhotoQueue`.
Every answer to a bad request is a 4xx with {"error": "one line"}; nothing a
client sends names a file (photos are found by their id in the ledger, the
page's files by a fixed list). Off loopback, every request must carry the
access token (`?token=` or the `X-Handfoot-Token` header).
"""

from __future__ import annotations

import hmac
import io
import ipaddress
import json
import re
import sys
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from handfoot.errors import NotFound, TooLarge, UserError
from handfoot.games import MAX_PHOTO_BYTES, GameBook
from handfoot.ledger import SideDef
from handfoot.rules_files import load_rules, preset_names

#: The page's files, by URL path: nothing else is served from the package.
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
}
MAX_JSON_BYTES = 1024 * 1024
#: Longest side of the picture the page shows (the photo itself is kept as sent).
VIEW_SIDE = 1600

_GAME = r"/api/games/(?P<game>\d{1,9})"
_ROUND = _GAME + r"/rounds/(?P<round>\d{1,4})"
_SIDE = _ROUND + r"/sides/(?P<side>\d{1,3})"
_PHOTO_ID = r"(?P<photo>[0-9a-f]{32})"


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Api:
    """The API's routes: (method, path pattern) -> handler(request, match groups) -> (status, body)."""

    def __init__(self, book: GameBook) -> None:
        self.book = book
        self.routes: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = []
        for method, pattern, fn in (
            ("GET", r"/api/rules", self.rules),
            ("GET", r"/api/queue", self.queue),
            ("GET", r"/api/games", self.games),
            ("POST", r"/api/games", self.new_game),
            ("GET", _GAME, self.sheet),
            ("GET", _GAME + r"/export\.csv", self.export_csv),
            ("GET", _GAME + r"/export\.json", self.export_json),
            ("POST", _GAME + r"/rounds", self.start_round),
            ("POST", _GAME + r"/undo", self.undo),
            ("GET", _ROUND, self.round),
            ("POST", _ROUND + r"/confirm", self.confirm),
            ("POST", _ROUND + r"/reopen", self.reopen),
            ("POST", _ROUND + r"/audit", self.audit),
            ("POST", _SIDE + r"/photos", self.add_photo),
            ("PATCH", _SIDE, self.set_facts),
            ("POST", _SIDE + r"/corrections", self.correct),
            ("DELETE", _ROUND + r"/corrections/(?P<correction>\d{1,9})", self.undo_correction),
            ("DELETE", _ROUND + r"/photos/" + _PHOTO_ID, self.remove_photo),
            ("GET", r"/api/photos/" + _PHOTO_ID + r"/image", self.photo_image),
            ("GET", r"/api/photos/" + _PHOTO_ID + r"/annotated", self.photo_annotated),
        ):
            self.routes.append((method, re.compile(pattern + r"/?$"), fn))

    def find(self, method: str, path: str) -> tuple[Callable[..., Any], dict[str, str]]:
        """The handler for a request; NotFound (404) or a 405 UserError otherwise."""
        allowed = False
        for m, pattern, fn in self.routes:
            match = pattern.match(path)
            if match:
                if m == method:
                    return fn, match.groupdict()
                allowed = True
        if allowed:
            err = UserError(f"{method} is not allowed on {path}")
            err.http_status = 405
            raise err
        raise NotFound(f"no such API path: {path}")

    # -- handlers: each takes the request handler and the path's groups, returns (status, body)
    def rules(self, req: Handler, g: dict[str, str]) -> Any:
        return [{"name": n, "title": load_rules(n).title, "rounds": load_rules(n).rounds} for n in preset_names()]

    def queue(self, req: Handler, g: dict[str, str]) -> Any:
        state = self.book.queue.state()
        return {"busy": state.busy, "seconds_per_photo": round(state.seconds_per_photo, 1)}

    def games(self, req: Handler, g: dict[str, str]) -> Any:
        return self.book.games()

    def new_game(self, req: Handler, g: dict[str, str]) -> Any:
        body = req.json_body()
        rules = _field(body, "rules", str)
        if rules not in preset_names():
            raise UserError(f"unknown rule preset {rules!r}; presets: {', '.join(preset_names())}")
        sides = []
        for k, s in enumerate(_field(body, "sides", list)):
            if isinstance(s, str):
                s = {"name": s}
            name = _field(s, "name", str, f"sides[{k}]").strip()
            members = s.get("members", [])
            if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
                raise UserError(f"sides[{k}].members must be a list of names")
            sides.append(SideDef(name, tuple(m.strip() for m in members if m.strip())))
        game_id = self.book.new_game(rules, sides)
        return HTTPStatus.CREATED, self.book.sheet(game_id)

    def sheet(self, req: Handler, g: dict[str, str]) -> Any:
        return self.book.sheet(int(g["game"]))

    def export_csv(self, req: Handler, g: dict[str, str]) -> Any:
        text = self.book.export_csv(int(g["game"]))
        return Raw(text.encode(), "text/csv; charset=utf-8", f'attachment; filename="game-{g["game"]}.csv"')

    def export_json(self, req: Handler, g: dict[str, str]) -> Any:
        data = json.dumps(self.book.export_json(int(g["game"])), indent=2).encode()
        return Raw(data, "application/json", f'attachment; filename="game-{g["game"]}.json"')

    def start_round(self, req: Handler, g: dict[str, str]) -> Any:
        number = self.book.start_round(int(g["game"]))
        return HTTPStatus.CREATED, self.book.round_view(int(g["game"]), number)

    def undo(self, req: Handler, g: dict[str, str]) -> Any:
        number = self.book.undo(int(g["game"]))
        return {"undone": number, "sheet": self.book.sheet(int(g["game"]))}

    def round(self, req: Handler, g: dict[str, str]) -> Any:
        return self.book.round_view(int(g["game"]), int(g["round"]))

    def confirm(self, req: Handler, g: dict[str, str]) -> Any:
        self.book.confirm(int(g["game"]), int(g["round"]))
        return self.book.sheet(int(g["game"]))

    def reopen(self, req: Handler, g: dict[str, str]) -> Any:
        self.book.reopen(int(g["game"]), int(g["round"]))
        return self.book.round_view(int(g["game"]), int(g["round"]))

    def audit(self, req: Handler, g: dict[str, str]) -> Any:
        from handfoot.commands.score_cmd import audit_round  # noqa: PLC0415

        claims = _field(req.json_body(), "claimed", dict)
        pr = self.book.photo_round(int(g["game"]), int(g["round"]))
        names = [s.name for s in pr.result.sides]
        parsed = {}
        for who, pts in claims.items():
            if who not in names:
                raise UserError(f"no side named {who!r} in the round (sides: {', '.join(names)})")
            if isinstance(pts, bool) or not isinstance(pts, int):
                raise UserError(f"{who}'s claimed points must be a whole number, got {pts!r}")
            parsed[who] = pts
        return audit_round(pr, parsed, 8)

    def add_photo(self, req: Handler, g: dict[str, str]) -> Any:
        role = req.query.get("role", ["table"])[0]
        name = req.query.get("name", [""])[0]
        data = req.body(MAX_PHOTO_BYTES, "photo")
        self.book.add_photo(int(g["game"]), int(g["round"]), int(g["side"]), role, data, name)
        return HTTPStatus.CREATED, self.book.round_view(int(g["game"]), int(g["round"]))

    def set_facts(self, req: Handler, g: dict[str, str]) -> Any:
        body = req.json_body()
        facts = {}
        for key in ("went_out", "perfect_deal"):
            if key in body:
                if not isinstance(body[key], bool):
                    raise UserError(f"{key} must be true or false")
                facts[key] = body[key]
        self.book.set_facts(int(g["game"]), int(g["round"]), int(g["side"]), **facts)
        return self.book.round_view(int(g["game"]), int(g["round"]))

    def correct(self, req: Handler, g: dict[str, str]) -> Any:
        body = req.json_body()
        game, number, side = int(g["game"]), int(g["round"]), int(g["side"])
        if "add" in body:
            where = body.get("where", "table")
            self.book.correct(game, number, side, add=_field(body, "add", str), where=str(where))
        else:
            new = body.get("to")
            if new is not None and not isinstance(new, str):
                raise UserError('"to" is a card name, or null to remove the card')
            self.book.correct(game, number, side, photo_id=_field(body, "photo", str), card=body.get("card"), new=new or None)
        return HTTPStatus.CREATED, self.book.round_view(game, number)

    def undo_correction(self, req: Handler, g: dict[str, str]) -> Any:
        self.book.undo_correction(int(g["game"]), int(g["round"]), int(g["correction"]))
        return self.book.round_view(int(g["game"]), int(g["round"]))

    def remove_photo(self, req: Handler, g: dict[str, str]) -> Any:
        self.book.remove_photo(int(g["game"]), int(g["round"]), g["photo"])
        return self.book.round_view(int(g["game"]), int(g["round"]))

    def photo_image(self, req: Handler, g: dict[str, str]) -> Any:
        """The photo, upright and at most VIEW_SIDE pixels on its longer side (the page's picture)."""
        from PIL import Image, ImageOps  # noqa: PLC0415

        _, _, photo = self._photo(g["photo"])
        path = self.book.ledger.photo_path(photo.file)
        with Image.open(path) as img:
            img.draft("RGB", (VIEW_SIDE, VIEW_SIDE))
            view = ImageOps.exif_transpose(img).convert("RGB")
            view.thumbnail((VIEW_SIDE, VIEW_SIDE))
            buf = io.BytesIO()
            view.save(buf, "JPEG", quality=82)
        return Raw(buf.getvalue(), "image/jpeg", cache=True)

    def photo_annotated(self, req: Handler, g: dict[str, str]) -> Any:
        """The photo annotated as `score --out` draws it (every card boxed and named, melds and their points)."""
        import cv2  # noqa: PLC0415

        from handfoot.photo_round import annotate_photo  # noqa: PLC0415
        from vision.imageio import load_image  # noqa: PLC0415

        game, number, photo = self._photo(g["photo"])
        pr = self.book.photo_round(game, number)
        with self.book.ledger.read() as tx:
            ids = [p.id for p in tx.round(game, number).photos]
        image = annotate_photo(pr, pr.photos[ids.index(photo.id)], load_image(self.book.ledger.photo_path(photo.file)))
        scale = VIEW_SIDE * 1.5 / max(image.shape[:2])
        if scale < 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return Raw(encoded.tobytes(), "image/jpeg")

    def _photo(self, photo_id: str) -> Any:
        with self.book.ledger.read() as tx:
            return tx.photo(photo_id)


class Raw:
    """A non-JSON answer: bytes and their content type."""

    def __init__(self, data: bytes, content_type: str, disposition: str | None = None, cache: bool = False):
        self.data, self.content_type, self.disposition, self.cache = data, content_type, disposition, cache


def _field(body: Any, key: str, kind: type, where: str = "the request") -> Any:
    if not isinstance(body, dict) or key not in body:
        raise UserError(f"{where} lacks {key!r}")
    if not isinstance(body[key], kind):
        raise UserError(f"{where}: {key!r} must be a {kind.__name__}")
    return body[key]


class Handler(BaseHTTPRequestHandler):
    """One request: token check, routing, and every failure as a 4xx JSON line (never a traceback)."""

    server_version = "handfoot"
    protocol_version = "HTTP/1.1"
    api: Api
    token: str | None

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (the base class's name)
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def body(self, limit: int, what: str = "request body") -> bytes:
        """The request body, refusing one over `limit` bytes before reading it (the connection then closes)."""
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            self.close_connection = True
            err = UserError(f"the {what} needs a Content-Length")
            err.http_status = 411
            raise err
        size = int(length)
        if size > limit:
            self.close_connection = True
            raise TooLarge(f"the {what} is {size / 2**20:.1f} MB, over the {limit // 2**20} MB limit")
        self._read = True
        return self.rfile.read(size)

    def json_body(self) -> Any:
        data = self.body(MAX_JSON_BYTES)
        try:
            return json.loads(data or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"the request body is not JSON: {exc}") from exc

    def _handle(self, method: str) -> None:
        self._read = False
        try:
            url = urlsplit(self.path)
            self.query = parse_qs(url.query)
            self._check_token()
            if method == "GET" and url.path in STATIC:
                name, kind = STATIC[url.path]
                data = resources.files("handfoot").joinpath("static", name).read_bytes()
                self._send(200, data, kind)
                return
            fn, groups = self.api.find(method, url.path)
            answer = fn(self, groups)
            status = HTTPStatus.OK
            if isinstance(answer, tuple):
                status, answer = answer
            if isinstance(answer, Raw):
                headers = {"Content-Disposition": answer.disposition} if answer.disposition else {}
                if answer.cache:
                    headers["Cache-Control"] = "private, max-age=86400"
                self._send(status, answer.data, answer.content_type, headers)
            else:
                self._send(status, json.dumps(answer).encode(), "application/json")
        except UserError as exc:
            self._error(exc.http_status, exc.message)
        except Exception as exc:  # noqa: BLE001  (a bug must not stop the server; it is logged, not shown)
            traceback.print_exc(file=sys.stderr)
            self._error(500, f"internal error: {type(exc).__name__} (the server's terminal has the details)")

    def _check_token(self) -> None:
        if self.token is None:
            return
        given = self.headers.get("X-Handfoot-Token") or (self.query.get("token") or [""])[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            err = UserError("this server needs its access token: open the URL (or scan the QR code) it printed")
            err.http_status = 403
            raise err

    def _error(self, status: int, message: str) -> None:
        if not self._read and self.command in ("POST", "PATCH", "PUT"):
            self.close_connection = True  # the unread body must not be taken for the next request
        line = " ".join(message.split())
        self._send(status, json.dumps({"error": line}).encode(), "application/json")

    def _send(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Content-Type-Options", "nosniff")
            if content_type.startswith("text/html"):
                self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; connect-src 'self'")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


def make_server(book: GameBook, host: str, port: int, token: str | None, verbose: bool = False) -> ThreadingHTTPServer:
    """An HTTP server for the page and the API (not started: call serve_forever)."""
    handler = type("BoundHandler", (Handler,), {"api": Api(book), "token": token})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.verbose = verbose  # type: ignore[attr-defined]
    return server
