"""How far behind a phone's camera stream the reader falls when it reads more slowly than the
stream sends: a local MJPEG server sends numbered frames at ``--fps``, and a reader that
takes ``--work`` seconds a frame reads them through `vision.sources.Reconnecting`, as
`dicescore watch` and `serve` do.  The lag is the frames sent by then less the number of the
frame read, over the rate.

    python benchmarks/bench_stream_lag.py --seconds 30 --fps 15 --work 0.1

Session 65: 0.07 s at most over 30 s; read in order before, 10.2 s behind at 30 s
(docs/vision-limits.md, session 65).
"""

from __future__ import annotations

import argparse
import http.server
import socketserver
import threading
import time

import cv2
import numpy as np

from vision.sources import Reconnecting, open_source

DIGITS = 3  # a frame's number, base 16, as three flat grey blocks that JPEG keeps


def numbered(number: int) -> bytes:
    """A 640x480 JPEG showing ``number``."""
    image = np.full((480, 640, 3), 60, np.uint8)
    for place in range(DIGITS):
        digit = number // 16 ** (DIGITS - 1 - place) % 16
        image[100:380, 40 + 200 * place : 200 + 200 * place] = digit * 16 + 8
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def number_of(frame: np.ndarray) -> int:
    digits = [
        round((float(np.median(frame[150:330, 80 + 200 * place : 160 + 200 * place, 1])) - 8) / 16)
        for place in range(DIGITS)
    ]
    return sum(digit * 16 ** (DIGITS - 1 - place) for place, digit in enumerate(digits))


def serve(fps: float) -> tuple[socketserver.ThreadingTCPServer, list[int]]:
    """An MJPEG server on a free port; and the number of the latest frame it sent."""
    sent = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            started, number = time.monotonic(), 0
            try:
                while True:
                    jpeg = numbered(number)
                    head = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg)
                    self.wfile.write(head + jpeg + b"\r\n")
                    sent[0], number = number, number + 1
                    time.sleep(max(0.0, started + number / fps - time.monotonic()))
            except OSError:  # the reader hung up
                pass

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, sent


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--fps", type=float, default=15)
    parser.add_argument("--work", type=float, default=0.1, help="the reader's seconds a frame")
    args = parser.parse_args(argv)
    server, sent = serve(args.fps)
    source = Reconnecting(lambda: open_source(f"http://127.0.0.1:{server.server_address[1]}/video"))
    started, lags = time.monotonic(), []
    try:
        for frame in source:
            lags.append((sent[0] - number_of(frame)) / args.fps)
            time.sleep(args.work)
            if time.monotonic() - started > args.seconds:
                break
    finally:
        source.close()
        server.shutdown()
    print(
        f"{len(lags)} frames read in {args.seconds:g} s; lag median {np.median(lags):.2f} s, "
        f"at the end {lags[-1]:.2f} s, most {max(lags):.2f} s"
    )


if __name__ == "__main__":
    main()
