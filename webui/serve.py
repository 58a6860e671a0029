"""``dicescore serve``: the app under waitress, on this machine or shared on the LAN.

On the LAN (any host other than loopback) it prints the address to open, as text and as
a QR code, and a join PIN that every write must carry.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sqlite3
import sys
from pathlib import Path

import waitress

from dicescore.ledger import Ledger
from webui import create_app, db
from webui.crops import prune_crops
from webui.qr import qr_text
from webui.roll_sources import open_roll_source, start

LOOPBACK = ("127.0.0.1", "localhost", "::1")
# Threads for ordinary requests beside the app's STREAMS_AT_ONCE, each of which holds one
# for as long as its page is open (webui.slots): pages and moves are always answered.
REQUEST_THREADS = 8
# Waitress reads ahead on every connection, so a stream sees its page close (the environ's
# "waitress.client_disconnected") and frees its thread at once, not at its next write.
CHANNEL_REQUEST_LOOKAHEAD = 1


def secret_key(database: Path) -> str:
    """The session-signing key, kept beside the database so that sessions (and a joined
    PIN) survive a restart.  Written whole or not at all: a key file left empty by a full
    disk would fail every request after."""
    path = database.parent / "webui-secret.key"
    try:
        key = path.read_text(encoding="ascii").strip() if path.exists() else ""
        if not key:
            key = secrets.token_hex(32)
            path.parent.mkdir(parents=True, exist_ok=True)
            draft = path.with_suffix(".draft")
            # made private as it is created: no moment when another user may read it
            with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
                file.write(key)
            draft.replace(path)
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot keep the session key {path}: {error}") from None
    return key


def check_database(path: Path) -> list[tuple[int, str, str]]:
    """Open the games database once before serving (creating it if new), so that a damaged
    or unreadable file is one clear error now, not a failure on every page; its games
    (``Ledger.game_names``)."""
    try:
        ledger = Ledger.open(path)
        try:
            return ledger.game_names()
        finally:
            ledger.close()
    except (sqlite3.Error, OSError) as error:
        raise ValueError(f"cannot use the games database {path}: {error}") from None


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent: connecting a UDP socket only
    picks the outgoing interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def serve(host: str, port: int, database: str | None, source: str | None) -> None:
    path = Path(database) if database else db.default_database()
    shared = host not in LOOPBACK
    logging.basicConfig(level=logging.WARNING, format="dicescore: %(message)s", stream=sys.stderr)
    rolls = open_roll_source(source)  # a bad source fails before the server starts
    games = check_database(path)
    app = create_app(
        {
            "DATABASE": str(path),
            "SECRET_KEY": secret_key(path),
            "PIN": f"{secrets.randbelow(10**6):06d}" if shared else None,
        }
    )
    prune_crops(Path(app.config["CROPS"]), [(game_id, made) for game_id, _, made in games])
    # waitress binds "::" to IPv6 alone, where every address is meant and the address printed
    # is IPv4: it is bound beside it
    where = {"listen": f"0.0.0.0:{port} [::]:{port}"} if host == "::" else {"host": host, "port": port}
    try:  # bound before anything is printed: a port in use says so, not a QR code and a PIN
        server = waitress.create_server(
            app,
            **where,
            threads=app.config["STREAMS_AT_ONCE"] + REQUEST_THREADS,
            channel_request_lookahead=CHANNEL_REQUEST_LOOKAHEAD,
            ident="dicescore",
        )
    except (OSError, ValueError) as error:  # in use, not this machine's address, no such host
        why = getattr(error, "strerror", None) or error
        at = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"  # IPv6 in brackets
        raise ValueError(f"cannot serve at {at}: {why}") from None
    if rolls is not None:
        start(app, rolls)
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    url = f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"  # IPv6 in brackets
    print(f"dicescore: the table is at {url}  (games in {path})", file=sys.stderr)
    camera = app.extensions.get("dicescore.camera")
    if camera is not None:
        print(f"dicescore: camera: {camera.status}", file=sys.stderr)
    if shared:
        print(qr_text(url), file=sys.stderr)
        print(f"dicescore: join PIN {app.config['PIN']}  (needed to play; anyone may watch)", file=sys.stderr)
    server.run()
