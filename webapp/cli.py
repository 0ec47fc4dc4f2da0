"""``ether-envs serve`` / ``python -m webapp``: play the games and watch game records in a
web browser.

    ether-envs serve                       # http://127.0.0.1:8000/
    ether-envs serve --port 8080 --replay game.json
    ether-envs serve --allow-weights-dir runs/   # agent specs may load files under runs/

A small local web app (:mod:`webapp`: Starlette on uvicorn, the ``serve`` extra; the
pictures need the ``render`` extra). One page (plain HTML and JavaScript, nothing fetched
from the network) talks to a JSON API (:mod:`webapp.app`):

* **Play**: a person picks a game, its configuration, a seat and the agent specs of the
  other seats (``random``, ``heuristic``, ``pretrained``, ``mcts:simulations=N``, ... as
  for ``ether-envs play``; several separated by ``;``, at most one per other seat, fewer
  used in turn again; a 1-player game needs none) and optionally the deal's seed (without
  one, the server draws a secret seed, kept out of the view: a known seed rebuilds the
  deal's hidden cards; the game record, offered once the game is over, holds it), then
  plays by clicking the legal moves, named in the game's own terms. Everything sent to the
  person is built from their seat's view only.
* **Replay**: open a game record (JSON, :mod:`ether_envs.records`) and step or scrub
  through it, as any seat saw it or with every seat's secrets.

What the server refuses, so that a web page cannot abuse it (:mod:`webapp.specs`,
:mod:`webapp.app`): ``python:`` agents (they run code); agent specs that name a file,
unless ``--allow-weights-dir DIR`` names the folder they may come from (``ppo`` files are
pickles: loading one runs code, so name only a folder of files you trust); search budgets
over a cap per kind (``webapp.specs.SEARCH_CAPS``, shown in the form: a click stays near
10 s); a ``Host`` header other than the address it listens on, ``localhost`` or
``127.0.0.1`` (DNS rebinding); a request that changes something sent by a page of another
origin.

The app has no accounts or passwords: it listens on 127.0.0.1 unless ``--host`` says
otherwise, and anyone who can reach it can play every game on it.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Callable

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, replays: list[str] | None = None,
          verbose: bool = False, weights_dir: str | None = None, print_fn: Callable[[str], None] = print) -> None:
    """Run the app until interrupted (Ctrl-C).

    Args:
        host, port: where to listen (default 127.0.0.1:8000; port 0: any free port).
        replays: game record files to open as replays at start (their addresses are printed).
        verbose: log every request.
        weights_dir: the folder agent specs may load files from (``None``: none).

    Raises:
        ValueError: a record in ``replays`` does not replay, ``weights_dir`` is not a
            folder, or the address cannot be bound (e.g. the port is in use).
        FileNotFoundError: a record file is missing.
        ImportError: the ``serve`` extra (starlette, uvicorn) is missing.
    """
    from .sessions import AppError, Sessions

    try:
        from .app import Server
    except ImportError as e:
        raise ImportError(f"ether-envs serve needs the serve extra: pip install -e '.[serve]' ({e})") from None
    if weights_dir is not None and not Path(weights_dir).is_dir():
        raise ValueError(f"--allow-weights-dir {weights_dir}: not a folder")
    sessions = Sessions(weights_dir)
    opened = []
    for path in replays or []:
        if Path(path).is_dir():
            raise ValueError(f"{path} is a directory, not a game record file (RECORD.json)")
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise
        except OSError as e:
            raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
        try:
            opened.append(sessions.new_replay(data))
        except AppError as e:
            raise ValueError(f"{path}: {e.message}") from None
    try:
        server = Server(host, port, sessions, verbose=verbose)
    except OSError as e:
        raise ValueError(f"cannot listen on {host}:{port}: {e} ({listen_hint(e)})") from None
    if is_wildcard(host):  # http://0.0.0.0:PORT/ is no address a browser may open here (the Host check: 421)
        print_fn(f"ether-envs serve: open http://127.0.0.1:{server.server_port}/ in a browser on this machine "
                 "(Ctrl-C to stop)")
        print_fn(f"  listening on every address ({host}), but the app answers only to localhost and 127.0.0.1: "
                 "for other machines, start it with --host <the name or address they use>")
    else:
        print_fn(f"ether-envs serve: open {server.url} in a browser (Ctrl-C to stop)")
    if weights_dir is not None:
        print_fn(f"  agent specs may load files under {sessions.weights_dir} (ppo files run code when loaded)")
    for session in opened:
        print_fn(f"  replay of {session.record.game}: {server.url}#replay/{session.id}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print_fn("stopped")
    finally:
        server.server_close()


def is_wildcard(host: str) -> bool:
    """Whether ``host`` means every address (``0.0.0.0``, ``::``, ``""``)."""
    return host.strip("[]") in ("", "0.0.0.0", "::")


def listen_hint(error: OSError) -> str:
    """What to do when the server cannot listen: another port when the port is taken,
    otherwise another host (a name that does not resolve, an address not on this machine)."""
    import errno
    import socket

    if error.errno == errno.EADDRINUSE:
        return "the port is in use: choose another --port"
    eai = {getattr(socket, name) for name in dir(socket) if name.startswith("EAI_")}
    if isinstance(error, socket.gaierror) or error.errno in eai:  # create_server re-raises it as an OSError
        return "the --host name cannot be resolved: give an address of this machine, e.g. 127.0.0.1"
    if error.errno == errno.EADDRNOTAVAIL:
        return "--host is not an address of this machine: give one of its addresses, e.g. 127.0.0.1"
    if error.errno == errno.EACCES:
        return "not allowed to listen there: ports below 1024 need privileges; choose another --port"
    return "check --host and --port"


def _port(text: str) -> int:
    """``--port``: a whole number 0..65535 (argparse reports the error)."""
    if not re.fullmatch(r"\s*\d{1,5}\s*", text) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"port must be 0..65535, got {text!r}")
    return int(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``ether-envs serve`` options."""
    p.add_argument("--host", default=DEFAULT_HOST,
                   help="address to listen on (default 127.0.0.1: this machine only; the app has no passwords). "
                        "The app answers only requests that name this address, localhost or 127.0.0.1: to reach "
                        "it from another machine, give the address the others use")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--replay", action="append", default=[], metavar="RECORD.json",
                   help="open a game record as a replay at start (repeatable); its address is printed")
    p.add_argument("--allow-weights-dir", default=None, metavar="DIR",
                   help="let agent specs of the page load files (ppo:PATH, pretrained:path=, az:path=, rllib:) "
                        "from under DIR only (default: no file at all). A ppo file is a pickle: loading it runs "
                        "code, so name only a folder of files you trust")
    p.add_argument("--verbose", action="store_true", help="log every request (default: only refused ones)")


def run_from_args(args: argparse.Namespace) -> None:
    """``ether-envs serve`` with parsed arguments.

    Raises:
        ValueError: as :func:`serve`, and for a missing ``serve`` extra (the command
            line says so in one line).
        FileNotFoundError: a record file is missing.
    """
    try:
        serve(args.host, args.port, replays=args.replay, verbose=args.verbose, weights_dir=args.allow_weights_dir)
    except ImportError as e:
        raise ValueError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    """``python -m webapp``: 0 when stopped, 2 on an error (said on stderr)."""
    import sys

    parser = argparse.ArgumentParser(prog="python -m webapp", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        run_from_args(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"python -m webapp: error: {e}", file=sys.stderr)
        return 2
    return 0
