"""The camera's picture: ``GET /live.mjpg``, the latest frame with each die outlined and
labelled, as an MJPEG stream (``multipart/x-mixed-replace``) that an ``<img>`` plays.

The camera thread keeps only its latest JPEG (``webui.camera.LiveView``); each viewer gets
every new one as it comes, at most ten a second.  While no new frame comes (a camera
reconnecting) the last one is sent again every ``RESEND_SECONDS``, so that a closed tab
shows up as a failed write and frees its thread.  The stream ends when the camera stops.
It holds a stream slot while open (``webui.slots``).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app
from werkzeug.exceptions import NotFound

from webui.slots import held_open

bp = Blueprint("live", __name__)

BOUNDARY = "frame"
RESEND_SECONDS = 5


@bp.get("/live.mjpg")
def live_view():
    view = current_app.extensions.get("dicescore.camera")
    if view is None or (view.jpeg is None and not view.running):
        raise NotFound("no camera is running: start dicescore serve with --source SRC")

    def parts():
        # Each frame is followed by the next boundary at once: browsers show a part only
        # when they see the boundary after it.
        boundary = f"--{BOUNDARY}\r\n".encode()
        opening = boundary
        seen = 0
        while True:
            number, jpeg = view.next_frame(seen, RESEND_SECONDS)
            if jpeg is None:
                if not view.running:
                    return
                jpeg = view.jpeg
                if jpeg is None:  # no frame yet
                    continue
            seen = number
            head = f"Content-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
            yield opening + head + jpeg + b"\r\n" + boundary
            opening = b""

    def respond() -> Response:
        response = Response(parts(), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
        response.headers["Cache-Control"] = "no-cache, no-store"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    return held_open(respond)
