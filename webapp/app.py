"""The browser app's HTTP layer: a Starlette app over :class:`webapp.sessions.Sessions`,
run by uvicorn (:class:`Server`).

Starlette gives the routing, the 405 answers with ``Allow``, ``HEAD`` as ``GET`` and the
request streams; uvicorn the HTTP/1.1 server. This module adds what is the app's own:

* every answer is JSON ``{"error": message, "status": code}`` on a refusal, with a message
  a person can act on (echoed values cut short);
* a request body may be at most :data:`MAX_BODY` bytes (413 above), its URL (path and
  query) at most :data:`MAX_URL` bytes (414 above) and its headers at most
  :data:`MAX_HEAD` bytes (431 above);
* every answer says that no other site may show it in a frame (``X-Frame-Options: DENY``,
  ``Content-Security-Policy: frame-ancestors 'none'``: no clickjacking);
* a request whose headers and body have not all arrived :data:`REQUEST_TIMEOUT` seconds
  after its first byte is dropped, unanswered;
* **the Host check** (DNS rebinding): the server answers only requests whose ``Host`` is
  the address it listens on, ``localhost`` or ``127.0.0.1`` (or ``[::1]``), with its port;
  any other gets 421;
* **the Origin check** (cross-site requests): a request that changes something (any method
  but ``GET`` and ``HEAD``) that a browser sends from a page of another origin (its
  ``Origin`` header) gets 403. A request without ``Origin`` (a script, ``curl``) passes.

The API (all JSON unless said otherwise; seeds are strings of digits, exact in JavaScript)::

    GET  /                                   the page (HTML)
    GET  /api/games                          {games, search_caps, files_allowed}: the new-game form's data
    POST /api/play     {game, config, seat, opponents, seed?} -> 201, the new game's view
    GET  /api/play/ID                        the person's view of game ID
    POST /api/play/ID/move  {version, action}                 -> the view after the agents' replies
    GET  /api/play/ID/board.png?v=VERSION    the public picture (PNG)
    GET  /api/play/ID/record.json            the game record, once the game is over (a download)
    POST /api/replay   (a game record)                        -> 201, the replay's moves
    GET  /api/replay/ID?view=V               moves as seen by V (``player_K`` or ``all``)
    GET  /api/replay/ID/frame/I?view=V       the text view of position I (0 = the start)
    GET  /api/replay/ID/frame/I.png          the picture of position I (PNG)

Statuses: 400 (bad form, illegal move, malformed record or JSON), 403 (another origin),
404 (unknown id or URL), 405 (a method the path does not take; with ``Allow``), 409 (a
stale move, the game over), 413 (a body over :data:`MAX_BODY`), 414 (a URL over
:data:`MAX_URL`), 421 (another Host), 431 (headers over :data:`MAX_HEAD`), 500 (an agent
failed, or a bug: the log line names the exception). A game is left as it was by any refused request.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Callable

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from .sessions import AppError, Sessions, bad, read_json
from .specs import SEARCH_CAPS
from .views import cut, game_catalogue, short

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_BODY = 8 * 1024 * 1024
"""Largest request body accepted (bytes): a game record of the longest games is ~30 KiB."""
MAX_DRAIN = 64 * 1024 * 1024
"""A body larger than :data:`MAX_BODY` is read and discarded up to this many bytes before
the 413 answer (:func:`read_body`)."""
MAX_URL = 8 * 1024
"""Longest URL (path and query, as sent) accepted, in bytes: the app's own are under 100."""
MAX_HEAD = 16 * 1024
"""Largest request line and headers accepted, in bytes (h11's limit on an incomplete
request head: a longer one is refused 414 when the request line alone is over it, else
431)."""
SECURITY_HEADERS = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'"),
                    (b"x-content-type-options", b"nosniff")]
"""Headers of every answer: no page of another site may show this one in a frame, and
browsers take each answer's Content-Type as given."""
REQUEST_TIMEOUT = 30
"""Seconds a request's headers and body have, from its first byte (or from the
connection), to arrive in full; then the connection is closed unanswered (a client that
stops half-way holds nothing for longer)."""
PAGE = Path(__file__).with_name("page.html")
"""The page (plain HTML and JavaScript; nothing fetched from the network)."""
SAFE_METHODS = ("GET", "HEAD")
"""Methods that change nothing: the Origin check lets them through."""
_METHOD_ORDER = ("GET", "HEAD", "POST")


# ---- answers -----------------------------------------------------------------------------------
def reply(data: bytes, media_type: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A response that no cache keeps (``Cache-Control: no-store``)."""
    return Response(data, status_code=status, media_type=media_type,
                    headers={"Cache-Control": "no-store", **(headers or {})})


def json_reply(obj: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``obj`` as JSON."""
    return reply(json.dumps(obj).encode("utf-8"), "application/json", status, headers)


def error_reply(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """A refusal: ``{"error": message, "status": status}`` (the message cut to 2,000 characters)."""
    return json_reply({"error": cut(message), "status": status}, status, headers)


async def read_body(request: Request) -> bytes:
    """The request's body, at most :data:`MAX_BODY` bytes.

    A larger body is read and discarded up to :data:`MAX_DRAIN` bytes before the refusal
    is sent, so that a client still sending receives the answer rather than a reset
    connection (beyond it, the answer goes at once).

    Raises:
        AppError: (413) a larger body (by its ``Content-Length``, or as it streams in).
    """
    length = request.headers.get("content-length")
    length = int(length) if length is not None and length.isdigit() else None  # h11 checked it is digits
    body, size = bytearray(), 0
    if length is None or length <= MAX_BODY:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                break
        else:
            return bytes(body)
    size = len(body)
    if size <= MAX_DRAIN and (length is None or length <= MAX_DRAIN):
        async for chunk in request.stream():  # what is left, discarded
            size += len(chunk)
            if size > MAX_DRAIN:
                break
    got = length if length is not None else f"more than {MAX_BODY}"
    raise AppError(413, f"the request body must be 0..{MAX_BODY} bytes, got {got} (a game record is far smaller)")


def endpoint(handler: Callable[[Sessions, Request, bytes], Response]):
    """A Starlette endpoint running ``handler(sessions, request, body)`` in a worker thread
    (agents think, pictures are drawn: the event loop never waits on them); a refusal
    (:class:`AppError`) or a failure becomes a JSON error answer."""

    async def run(request: Request) -> Response:
        try:
            body = await read_body(request) if request.method not in SAFE_METHODS else b""
            return await run_in_threadpool(handler, request.app.state.sessions, request, body)
        except AppError as e:
            return error_reply(e.status, e.message, e.headers)
        except ImportError as e:
            return error_reply(500, f"the pictures need the render extra: {e}")
        except Exception as e:  # a bug: say so in the page rather than drop the connection
            return error_reply(500, f"internal error: {type(e).__name__}: {cut(str(e), 300)}")

    run.__name__ = run.__qualname__ = handler.__name__
    return run


# ---- the routes ----------------------------------------------------------------------------------
def page(sessions: Sessions, request: Request, body: bytes) -> Response:
    return reply(PAGE.read_bytes(), "text/html; charset=utf-8")


def games(sessions: Sessions, request: Request, body: bytes) -> Response:
    """The new-game form's data: the games (:func:`webapp.views.game_catalogue`), the
    search caps (``{kind: simulations per decision}``) and whether agent specs may name
    files (``--allow-weights-dir``)."""
    return json_reply({"games": game_catalogue(), "search_caps": dict(SEARCH_CAPS),
                       "files_allowed": sessions.weights_dir is not None})


def new_game(sessions: Sessions, request: Request, body: bytes) -> Response:
    session = sessions.new_game(read_json(body, "the new-game form"))
    with session.lock:
        return json_reply(session.view(), 201)


def play_view(sessions: Sessions, request: Request, body: bytes) -> Response:
    return json_reply(sessions.game(request.path_params["id"]).current_view())


def play_move(sessions: Sessions, request: Request, body: bytes) -> Response:
    session = sessions.game(request.path_params["id"])
    form = read_json(body, "a move")
    if not isinstance(form, dict):
        raise bad("a move is a JSON object {version, action}")
    with session.lock:
        session.move(form.get("action"), form.get("version"))
        return json_reply(session.view())


def board_png(sessions: Sessions, request: Request, body: bytes) -> Response:
    session = sessions.game(request.path_params["id"])
    return reply(session.board_png(request.query_params.get("v")), "image/png")


def record_json(sessions: Sessions, request: Request, body: bytes) -> Response:
    session = sessions.game(request.path_params["id"])
    with session.lock:
        rec = session.record()
    return reply(rec.to_json(indent=1).encode(), "application/json",
                 headers={"Content-Disposition": f'attachment; filename="{session.record_name()}"'})


def new_replay(sessions: Sessions, request: Request, body: bytes) -> Response:
    return json_reply(sessions.new_replay(body).summary(), 201)


def replay_summary(sessions: Sessions, request: Request, body: bytes) -> Response:
    session = sessions.replay(request.path_params["id"])
    return json_reply(session.summary(request.query_params.get("view")))


def replay_frame(sessions: Sessions, request: Request, body: bytes) -> Response:
    session = sessions.replay(request.path_params["id"])
    position = request.path_params["position"]
    m = re.fullmatch(r"([0-9]{1,12})(\.png)?", position)
    if not m:
        raise AppError(404, f"no position {short(position)}: positions are numbered 0..{session.num_frames - 1} "
                            "(ASCII digits)")
    i = int(m.group(1))
    if m.group(2):
        session.state_at(i)  # 404 for a position out of range
        return reply(session.png(i), "image/png")
    return json_reply(session.frame(i, request.query_params.get("view")))


ROUTES = [
    Route("/", endpoint(page), methods=["GET"]),
    Route("/index.html", endpoint(page), methods=["GET"]),
    Route("/api/games", endpoint(games), methods=["GET"]),
    Route("/api/play", endpoint(new_game), methods=["POST"]),
    Route("/api/play/{id}", endpoint(play_view), methods=["GET"]),
    Route("/api/play/{id}/move", endpoint(play_move), methods=["POST"]),
    Route("/api/play/{id}/board.png", endpoint(board_png), methods=["GET"]),
    Route("/api/play/{id}/record.json", endpoint(record_json), methods=["GET"]),
    Route("/api/replay", endpoint(new_replay), methods=["POST"]),
    Route("/api/replay/{id}", endpoint(replay_summary), methods=["GET"]),
    Route("/api/replay/{id}/frame/{position}", endpoint(replay_frame), methods=["GET"]),
]


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 (no route) and 405 (a method the route does not take) as JSON."""
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if exc.status_code == 405:
        allowed = sorted((exc.headers or {}).get("Allow", "").replace(" ", "").split(","),
                         key=lambda m: (_METHOD_ORDER.index(m) if m in _METHOD_ORDER else 9, m))
        return error_reply(405, f"method {request.method} is not allowed for {short(path)}: use "
                                f"{' or '.join(allowed)}", {"Allow": ", ".join(allowed)})
    if exc.status_code == 404:
        if path.startswith("/api/"):
            return error_reply(404, f"no API route {request.method} {short(path)}")
        return error_reply(404, f"no page {short(path)} here: open / for the app")
    return error_reply(exc.status_code, str(exc.detail))


# ---- the Host and Origin checks ----------------------------------------------------------------
def allowed_hosts(host: str, port: int) -> list[str]:
    """The ``Host`` header values the server answers: the address it listens on,
    ``localhost``, ``127.0.0.1`` and ``[::1]``, each with ``port`` (and without it when
    the port is 80). A wildcard address (``0.0.0.0``, ``::``) adds nothing: start the
    server with ``--host`` set to the name or address the others use."""
    names = ["localhost", "127.0.0.1", "[::1]"]
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
        if not ip.is_unspecified:
            names.append(f"[{ip}]" if ip.version == 6 else str(ip))
    except ValueError:  # a name
        names.append(host.lower())
    out = []
    for name in dict.fromkeys(names):
        out.append(f"{name}:{port}")
        if port == 80:
            out.append(name)
    return out


class Guard:
    """ASGI middleware: the Host and Origin checks (module docstring), and a log line per
    refused request (per request when ``verbose``; none when ``quiet``).

    Args:
        app: the ASGI app it guards.
        hosts: the ``Host`` values answered (:func:`allowed_hosts`); their ``http://``
            origins are the origins allowed to change things.
        wildcard: the server listens on every address (the 421 message says what to do).
        verbose, quiet: logging, as :class:`Server`.
    """

    def __init__(self, app, hosts: list[str], wildcard: bool = False, verbose: bool = False, quiet: bool = False):
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.wildcard, self.verbose, self.quiet = wildcard, verbose, quiet

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        origin = headers.get("origin")
        status = [0]

        failure: list[str] = []  # why a 500 failed, for the log line

        async def logged_send(message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            elif message["type"] == "http.response.body" and status[0] >= 500 and not failure:
                failure.append(_error_of(message.get("body", b"")))
            await send(message)

        target = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        if target > MAX_URL:
            response = error_reply(414, f"the URL is {target} bytes long, more than this server reads ({MAX_URL}): "
                                        "the app's URLs are short (/api/play/ID, /api/replay/ID/frame/I)")
            await response(scope, receive, logged_send)
        elif host.lower() not in self.hosts:
            hint = (" (the server listens on every address: start it with --host set to the name or address you "
                    "open it with)" if self.wildcard else "")
            response = error_reply(421, f"this server answers only to {', '.join(sorted(self.hosts))}, not to the Host "
                                        f"{short(host)}: a page of another site may not reach it under another "
                                        f"name{hint}")
            await response(scope, receive, logged_send)
        elif scope["method"] not in SAFE_METHODS and origin is not None and origin.lower() not in self.origins:
            response = error_reply(403, f"a request from another origin ({short(origin)}) may not change anything "
                                        f"here: only this server's own page may ({', '.join(sorted(self.origins))})")
            await response(scope, receive, logged_send)
        else:
            try:
                await self.app(scope, receive, logged_send)
            except Exception as e:  # a bug outside the endpoints: answer 500 if nothing was sent, and log why
                failure[:] = [f"{type(e).__name__}: {cut(str(e), 300)}"]
                if status[0] == 0:
                    await error_reply(500, f"internal error: {failure[0]}")(scope, receive, logged_send)
                else:  # the answer had begun: it is cut short (uvicorn closes the connection)
                    failure[0] = f"failed after the answer began: {failure[0]}"
        if not self.quiet and (self.verbose or status[0] >= 400 or failure):
            client = (scope.get("client") or ("-",))[0]
            why = f": {log_safe(failure[0])}" if failure else ""
            print(f"{client} - \"{scope['method']} {log_safe(cut(scope.get('path', ''), 200))}\" {status[0]}{why}",
                  file=sys.stderr, flush=True)


def log_safe(text: str) -> str:
    """``text`` for one log line: control characters (a newline that would start a fake
    line, ANSI escapes), ``"`` and ``\\`` written as escapes (``\\n``, ``\\x1b``, ``\\"``)."""
    return re.sub(r'[\x00-\x1f\x7f-\x9f"\\]',
                  lambda m: {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}.get(
                      m.group(), f"\\x{ord(m.group()):02x}"), text)


def _error_of(body: bytes) -> str:
    """The message of an error answer's body (``{"error": ...}``; else the body's start)."""
    try:
        return str(json.loads(body)["error"])
    except (ValueError, TypeError, KeyError):
        return body[:300].decode("utf-8", "replace")


def build_app(sessions: Sessions, hosts: list[str], wildcard: bool = False, verbose: bool = False,
              quiet: bool = False):
    """The ASGI app: the routes over ``sessions``, behind the :class:`Guard` checks."""
    app = Starlette(routes=ROUTES, exception_handlers={HTTPException: _http_error})
    app.state.sessions = sessions
    return Guard(app, hosts, wildcard=wildcard, verbose=verbose, quiet=quiet)


# ---- the server ---------------------------------------------------------------------------------
class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline: a request (headers and body) must
    arrive in full within ``request_timeout`` seconds of its first byte, or of the
    connection when it is the first; otherwise the connection is closed unanswered. (An
    idle connection between requests is closed by uvicorn's keep-alive timeout.)"""

    request_timeout: float = REQUEST_TIMEOUT

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._refused: int | None = None  # bytes dropped after a refusal of a malformed request
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:  # the refusal is sent: what the client still sends is read and dropped
            self._refused += len(data)
            if self._refused > MAX_DRAIN:
                self.transport.close()
            return
        super().data_received(data)
        if self._refused is not None:
            return
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._disarm()  # the request is in (the app may think as long as it needs)
        elif self._deadline is None:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse: 414 when its request line is longer than
        :data:`MAX_HEAD` bytes (a huge URL), 431 when its headers are, otherwise 400 (a bad
        request line, header or ``Content-Length``); a JSON message like every other
        refusal, and the connection closed."""
        pending = self.conn.trailing_data[0]
        if len(pending) > MAX_HEAD and b"\n" not in pending[:MAX_HEAD]:
            status, reason = 414, b"URI Too Long"
            message = (f"the URL is more than {MAX_HEAD} bytes long, more than this server reads ({MAX_URL}): the "
                       "app's URLs are short (/api/play/ID, /api/replay/ID/frame/I)")
        elif len(pending) > MAX_HEAD and b"\r\n\r\n" not in pending and b"\n\n" not in pending:
            status, reason = 431, b"Request Header Fields Too Large"
            message = f"the request's headers are more than {MAX_HEAD} bytes long, more than this server reads"
        else:
            status, reason = 400, b"Bad Request"
            message = (f"a malformed HTTP request ({msg.rstrip('.')}): check its request line and headers; "
                       f"Content-Length must be the body's size in bytes, 0..{MAX_BODY}")
        data = json.dumps({"error": message, "status": status}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                   (b"connection", b"close"), *SECURITY_HEADERS]
        for event in (h11.Response(status_code=status, headers=headers, reason=reason), h11.Data(data=data),
                      h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        # Closing now, with the rest of a long request unread, would reset the connection and
        # the client might never read the answer: end our side, read and drop what still
        # comes (up to MAX_DRAIN bytes, for a few seconds), then close.
        self._refused = 0
        self._disarm()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(5, self.transport.close)

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.request_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class Server:
    """The app on uvicorn, listening on ``host:port`` (bound at once); run it with
    :meth:`serve_forever` (in any thread) and stop it with :meth:`shutdown` (from another).

    Args:
        host, port: where to listen (port 0: a free port; see :attr:`server_address`).
        app: the sessions (default: a new, empty :class:`~webapp.sessions.Sessions`).
        verbose: log every request (default: only refused ones, on stderr).
        quiet: log nothing.
        request_timeout: seconds a request has to arrive in full (:data:`REQUEST_TIMEOUT`).
        weights_dir: the folder agent specs may load files from (``--allow-weights-dir``;
            ignored when ``app`` is given).

    Attributes:
        app, sessions: the sessions (the same object).
        server_address: ``(host, port)`` bound.
        url: the app's address, e.g. ``http://127.0.0.1:8000/``.
        allowed_hosts: the ``Host`` values answered.

    Raises:
        OSError: the address is in use or cannot be bound.
    """

    def __init__(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, app: Sessions | None = None,
                 verbose: bool = False, quiet: bool = False, request_timeout: float = REQUEST_TIMEOUT,
                 weights_dir: str | Path | None = None):
        self.app = self.sessions = app if app is not None else Sessions(weights_dir)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host.strip("[]"), port), family=family)
        self.server_address = tuple(self.socket.getsockname()[:2])
        wildcard = host.strip("[]") in ("", "0.0.0.0", "::")
        self.allowed_hosts = allowed_hosts(host, self.server_address[1])
        protocol = type("TimedH11Protocol", (TimedH11Protocol,), {"request_timeout": request_timeout})
        config = uvicorn.Config(build_app(self.sessions, self.allowed_hosts, wildcard, verbose, quiet),
                                http=protocol, h11_max_incomplete_event_size=MAX_HEAD,
                                lifespan="off", log_config=None, access_log=False,
                                proxy_headers=False, server_header=False, timeout_graceful_shutdown=3,
                                log_level="critical" if quiet else "warning")
        self._uvicorn = uvicorn.Server(config)
        self._running = threading.Event()
        self._stopped = threading.Event()

    @property
    def server_port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        """The app's address, e.g. ``http://127.0.0.1:8000/``."""
        host, port = self.server_address
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown` (or Ctrl-C in the main thread, which then
        raises ``KeyboardInterrupt`` once the server has stopped)."""
        self._running.set()
        try:
            self._uvicorn.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self, timeout: float = 30) -> None:
        """Stop :meth:`serve_forever` and wait (at most ``timeout`` s) until it has returned."""
        self._uvicorn.should_exit = True
        if self._running.is_set():
            self._stopped.wait(timeout)

    def server_close(self) -> None:
        """Close the listening socket."""
        self.socket.close()
