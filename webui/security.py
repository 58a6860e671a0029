"""Who may write: a CSRF token on every write, and the join PIN when served to the LAN.

The CSRF token lives in the (signed) session cookie and must come back with each write,
in the ``X-CSRF-Token`` header (scripts) or the ``csrf_token`` form field (forms); a page
on another site cannot read it.  The PIN is entered once on the join page (it is then
remembered in the session) or sent with each request in ``X-Dicescore-PIN``.  A six-digit
PIN falls to guessing unless guesses are few: after ``PIN_TRIES`` wrong PINs from one
address, that address may try again only once every ``PIN_LOCKOUT_SECONDS``, and all
addresses together may send ``PIN_TRIES_ALL`` wrong PINs in that time.

A table with no PIN is served to this computer alone (``dicescore serve`` binds loopback),
so a request must name this computer as its host: a web page elsewhere whose name an
attacker's DNS points at 127.0.0.1 (DNS rebinding) would otherwise read the CSRF token as
a page of this app, and write.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
from collections import deque
from time import monotonic

from flask import Flask, current_app, request, session
from werkzeug.exceptions import Forbidden, TooManyRequests

CSRF_HEADER = "X-CSRF-Token"
PIN_HEADER = "X-Dicescore-PIN"


class MissingPin(Forbidden):
    description = "this table is shared on the network: join with its PIN first"


class NotThisComputer(Forbidden):
    description = "this table is served to this computer only: open it at http://127.0.0.1 (or localhost)"


class BadCsrfToken(Forbidden):
    description = "missing or stale CSRF token: reload the page (scripts: GET /api/session)"


class PinTries:
    """Wrong PINs counted per client address.  The count is kept until the right PIN
    comes, so once it reaches the limit every wrong try locks the address out again.  And
    all addresses together may send ``all_tries`` wrong PINs a ``lockout`` at most: one
    device on the LAN can take many addresses, and would otherwise guess from each (a
    newcomer may then wait a minute to join; those who joined play on)."""

    def __init__(self, tries: int, lockout: float, all_tries: int) -> None:
        self.tries, self.lockout, self.all_tries = tries, lockout, all_tries
        self.lock = threading.Lock()  # waitress serves requests on several threads
        self.wrong: dict[str, tuple[int, float]] = {}  # address: (wrong tries, time of the last)
        self.latest: deque[float] = deque(maxlen=all_tries)  # the latest wrong tries, from anywhere

    def attempt(self, address: str, right: bool) -> float:
        """Count one try from ``address``, ``right`` or not, unless it must wait: then the
        seconds left, and the try is not counted.  One step under the lock: checked and
        counted apart, tries sent at once all passed the check before any was counted."""
        now = monotonic()
        with self.lock:
            count, last = self.wrong.get(address, (0, 0.0))
            full = 0 < self.all_tries == len(self.latest)
            everyone = self.latest[0] + self.lockout - now if full else 0.0
            own = last + self.lockout - now if count >= self.tries else 0.0
            wait = max(0.0, own, everyone)
            if wait:
                return wait
            if right:
                self.wrong.pop(address, None)
            else:
                self.wrong[address] = (count + 1, now)
                self.latest.append(now)
            return 0.0


class TooManyTries(TooManyRequests):
    def __init__(self, wait: float) -> None:
        seconds = math.ceil(wait)
        message = f"too many wrong PINs: try again in {seconds} s"
        super().__init__(message, retry_after=seconds)


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def pin_required() -> bool:
    return bool(current_app.config["PIN"])


def joined() -> bool:
    pin = current_app.config["PIN"]
    return not pin or same(session.get("pin"), pin)


def join(pin: object) -> bool:
    """Remember a correct PIN in the session; whether it was correct."""
    if not pin_matches(pin):
        return False
    session["pin"] = current_app.config["PIN"]
    return True


def pin_matches(given: object) -> bool:
    """Whether ``given`` is the PIN; TooManyTries (429), whatever was given, while this
    client's address is locked out for guessing."""
    if not pin_required():
        return False
    tries: PinTries = current_app.extensions["dicescore.pin_tries"]
    address = request.remote_addr or ""
    right = same(given, current_app.config["PIN"])
    wait = tries.attempt(address, right)
    if wait:
        raise TooManyTries(wait)
    return right


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def check_host() -> None:
    """Refuse (403) a request to a table with no PIN that names another host than this computer."""
    if pin_required():
        return
    host = request.host.lower()
    name = host[1:].partition("]")[0] if host.startswith("[") else host.rpartition(":")[0] or host
    if name not in LOOPBACK_HOSTS:
        raise NotThisComputer()


def check_write() -> None:
    """Refuse a write (403) that lacks the CSRF token or, on the LAN, the PIN."""
    check_csrf()
    if joined():
        return
    if PIN_HEADER not in request.headers or not pin_matches(request.headers[PIN_HEADER]):
        raise MissingPin()


def check_csrf() -> None:
    sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf_token")
    if not same(sent, session.get("csrf")):
        raise BadCsrfToken()


def same(given: object, expected: object) -> bool:
    if not isinstance(given, str) or not isinstance(expected, str) or not expected:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


def init_app(app: Flask) -> None:
    tries = PinTries(app.config["PIN_TRIES"], app.config["PIN_LOCKOUT_SECONDS"], app.config["PIN_TRIES_ALL"])
    app.extensions["dicescore.pin_tries"] = tries
    app.jinja_env.globals.update(csrf_token=csrf_token, pin_required=pin_required, joined=joined)
    app.before_request(check_host)
