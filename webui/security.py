"""Who may write: a CSRF token on every write, and the join PIN when served to the LAN.

The CSRF token lives in the (signed) session cookie and must come back with each write,
in the ``X-CSRF-Token`` header (scripts) or the ``csrf_token`` form field (forms); a page
on another site cannot read it.  The PIN is entered once on the join page (it is then
remembered in the session) or sent with each request in ``X-Dicescore-PIN``.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, current_app, request, session
from werkzeug.exceptions import Forbidden

CSRF_HEADER = "X-CSRF-Token"
PIN_HEADER = "X-Dicescore-PIN"


class MissingPin(Forbidden):
    description = "this table is shared on the network: join with its PIN first"


class BadCsrfToken(Forbidden):
    description = "missing or stale CSRF token: reload the page (scripts: GET /api/session)"


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def pin_required() -> bool:
    return bool(current_app.config["PIN"])


def joined() -> bool:
    pin = current_app.config["PIN"]
    return not pin or same(session.get("pin"), pin)


def join(pin: str) -> bool:
    """Remember a correct PIN in the session; whether it was correct."""
    if not same(pin, current_app.config["PIN"]):
        return False
    session["pin"] = current_app.config["PIN"]
    return True


def check_write() -> None:
    """Refuse a write (403) that lacks the CSRF token or, on the LAN, the PIN."""
    check_csrf()
    if not (joined() or same(request.headers.get(PIN_HEADER), current_app.config["PIN"])):
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
    app.jinja_env.globals.update(csrf_token=csrf_token, pin_required=pin_required, joined=joined)
