"""Request bodies read as JSON, strictly: what the API and the dice pages take."""

from __future__ import annotations

import json
import math
from typing import Any

from flask import request
from werkzeug.exceptions import BadRequest

MAX_JSON_DEPTH = 16


def read_json() -> Any:
    """The request body as JSON: strict (no NaN, no number too big for a float, which would
    be stored as Infinity), shallow, and valid UTF-8 throughout."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    def finite(text: str) -> float:
        number = float(text)
        if not math.isfinite(number):
            raise ValueError(f"{text[:20]} is too big a number")
        return number

    try:
        payload = json.loads(request.get_data(), parse_constant=refuse, parse_float=finite)
    except (ValueError, RecursionError) as error:
        raise BadRequest(f"the body must be JSON: {error}") from None
    check_plain(payload, MAX_JSON_DEPTH)
    return payload


def check_plain(value: Any, depth: int) -> None:
    if depth < 0:
        raise BadRequest("the JSON is nested too deeply")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BadRequest("text must be valid Unicode (no lone surrogates)") from None
    elif isinstance(value, list):
        for item in value:
            check_plain(item, depth - 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_plain(key, depth - 1)
            check_plain(item, depth - 1)
