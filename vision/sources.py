"""Where frames come from: a webcam, a video file, a folder of images, a stream URL, or the demo.

    with open_source("demo") as source:     # or "0", "roll.mp4", "shots/", "rtsp://phone:8554/live"
        for frame in source:                # BGR uint8 arrays
            ...

Every source is an iterator of frames with an ``fps`` (frames per second it was shot at, for
the roll tracker's timing).  Problems are ``SourceError`` with a message a player can act on;
a frame that cannot be decoded is skipped with a warning.  ``Reconnecting`` wraps a live
source so that a camera that disappears is reopened with backoff instead of ending the run.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

DEMO_CLIP = Path(__file__).resolve().parent.parent / "datasets" / "demo" / "demo.mp4"
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"}
MISSES_BEFORE_GONE = 30  # failed reads in a row that mean a live camera or stream is gone
# A stream that sends nothing for this long has stopped (the phone asleep, or off the
# network): OpenCV waits 30 s, the page saying "watching" over a frozen picture all along.
STREAM_TIMEOUT_SECONDS = 5.0
# The waits before each try to reopen a live source that failed, the last one repeated: a
# failed try costs next to nothing, and a phone's stream back a few seconds later went
# unwatched for up to 8 s more with waits that doubled, a roll thrown then never scored.
RECONNECT_WAITS = (0.5, 1.0)
# A reader waiting for a live source's next frame wakes this often: on Windows, Ctrl-C reaches
# a thread waiting on a lock only when its wait ends, and a camera that is away ends none.
WAKE_SECONDS = 0.5
# A webcam opens at its driver's default picture, most often 640x480, where a 16 mm die seen
# from 60 cm through a laptop's 65-degree lens is about 13 px across: half what a card die
# reads from (26 px, README). So a camera is asked for 1280x720 (the benchmark frame),
# in MJPEG, which most USB webcams send at that size at 30 fps where raw frames come at 5-10; one
# that cannot gives its nearest size, and the log says which.
CAMERA_SIZE = (1280, 720)
LOG_EVERY_TRIES = 60  # a source that stays away is said so on the first failed try, then each 60th
# The largest picture read: a 200-megapixel phone's photo.  A damaged header can claim far
# more (30000 x 30000 from a 16 KB file), which OpenCV would decode into gigabytes.
MAX_PIXELS = 250_000_000

log = logging.getLogger(__name__)


class SourceError(ValueError):
    """A source that cannot be opened or has stopped giving frames."""


# Phones save photos as HEIC by default, which OpenCV's wheels cannot decode: known by its
# suffix, or, renamed, by its ISO box header ("ftyp" and an HEIF brand).
PHONE_ONLY_SUFFIXES = {".heic", ".heif"}
HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"}


def is_heif(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            head = file.read(12)
    except OSError:  # unreadable: only its name can tell
        head = b""
    return path.suffix.lower() in PHONE_ONLY_SUFFIXES or (head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS)


def jpeg_segments(data: bytes) -> Iterator[tuple[int | None, int]]:
    """(marker, offset) of each of a JPEG file's marker segments, up to and with its first
    scan (0xDA); (None, offset) where the bytes run out before it.  A byte that starts no
    marker ends the walk: a layout it does not know, left to OpenCV."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return
        if data[at + 1] == 0xFF:  # a fill byte before a marker
            at += 1
            continue
        yield data[at + 1], at
        if data[at + 1] == 0xDA:
            return
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    yield None, at


def is_cut_short_jpeg(data: bytes) -> bool:
    """A JPEG file's bytes that stop before its end-of-image marker: a copy or download cut short.
    OpenCV decodes such a file anyway, painting the lost rows grey, so the dice there would
    silently go uncounted.  The marker is looked for after the first scan starts, where the
    entropy-coded data stuffs every 0xFF byte and so can hold no false one; an EXIF
    thumbnail's own marker lies before, and a motion photo's appended video after it."""
    if not data.startswith(b"\xff\xd8"):
        return False
    for marker, at in jpeg_segments(data):
        if marker is None:
            return True  # the headers themselves run out before any scan
        if marker == 0xDA:
            return data.find(b"\xff\xd9", at) < 0
    return False


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_damage(data: bytes) -> str | None:
    """What is wrong with a PNG file's chunks, or None (sound, or no PNG): libpng would print
    its own complaint to the terminal, above the line that names the file."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    if data[12:16] != b"IHDR":
        return "its header is damaged"
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):  # each chunk: length, type, data, CRC
        start, kind, at = at, data[at + 4 : at + 8], at + 12 + int.from_bytes(data[at : at + 4], "big")
        stated_crc = int.from_bytes(data[at - 4 : at], "big")
        # a critical chunk (its type capitalised: the header, palette, picture, end) only: a
        # note's damage (tEXt) libpng passes over, and the picture is whole
        critical = kind[:1].isupper()
        if critical and at <= len(data) and zlib.crc32(data[start + 4 : at - 4]) != stated_crc:
            return "a part of the PNG file is damaged (its checksum is wrong): copy it again"
        if kind == b"IEND":
            break
    else:
        at = len(data) + 1
    if at > len(data):
        return "the PNG file ends before its picture does: it was cut short in copying; copy it again"
    return None


def stated_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a PNG or JPEG file's header states, or None (another format, or
    a header this walk does not know)."""
    if data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if not data.startswith(b"\xff\xd8"):
        return None
    for marker, at in jpeg_segments(data):
        start_of_frame = marker is not None and 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC)
        if start_of_frame and at + 9 <= len(data):  # its height, then its width
            return int.from_bytes(data[at + 7 : at + 9], "big"), int.from_bytes(data[at + 5 : at + 7], "big")
    return None


def load_image(path: str | Path) -> np.ndarray:
    """One image file as BGR pixels; a ``SourceError`` that says why when it cannot be read."""
    path = Path(path)
    if path.is_dir():
        raise SourceError(f"cannot read image {path} (a folder, not an image file)")
    if not path.is_file():  # checked first: OpenCV would only print a warning
        why = "not a file: a pipe or a device" if path.exists() else "no such file"
        raise SourceError(f"cannot read image {path} ({why})")
    try:
        data = path.read_bytes()  # once: checked here, then decoded
    except OSError as error:
        raise SourceError(f"cannot read image {path} ({error.strerror or error})") from None
    if is_cut_short_jpeg(data):
        raise SourceError(
            f"cannot read image {path} (the JPEG file ends before its picture does: it was cut"
            " short in copying; copy the photo again)"
        )
    damage = png_damage(data)
    if damage:
        raise SourceError(f"cannot read image {path} ({damage})")
    size = stated_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise SourceError(
            f"cannot read image {path} (its header says {size[0]} x {size[1]} pixels, more than any"
            " camera takes: the file is damaged)"
        )
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    except cv2.error:  # OpenCV's own limits, e.g. a format whose size is not checked above
        raise SourceError(f"cannot read image {path} (too large, or its header is damaged)") from None
    if image is not None:
        return image
    if is_heif(path):
        raise SourceError(
            f"cannot read image {path} (HEIC photos are not supported: save it as JPEG, or set the"
            " phone's camera to its most compatible format)"
        )
    raise SourceError(f"cannot read image {path} (not an image OpenCV can read)")


class FrameSource:
    """A named iterator of BGR frames; ``close`` releases the device or file."""

    name: str
    fps: float = 30.0
    live: bool = False  # a camera or stream: it may come back after failing
    stills: bool = False  # each frame a photo of a table at rest, not a moment of a video

    def __iter__(self) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class CaptureSource(FrameSource):
    """Anything cv2.VideoCapture opens: a camera index, a video file, an MJPEG/RTSP URL."""

    def __init__(self, target: int | str, name: str, live: bool):
        self.name, self.live = name, live
        if isinstance(target, str) and "://" in target:  # a stream: our own timeouts, not 30 s
            wait = round(STREAM_TIMEOUT_SECONDS * 1000)
            timeouts = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, wait, cv2.CAP_PROP_READ_TIMEOUT_MSEC, wait]
            self.capture = cv2.VideoCapture(target, cv2.CAP_FFMPEG, timeouts)
        else:
            self.capture = cv2.VideoCapture(target)
        if not self.capture.isOpened():
            self.capture.release()
            what = "" if isinstance(target, int) else "stream " if live else "video file "
            hint = camera_hint() if isinstance(target, int) else ""
            raise SourceError(f"cannot open {what}{name}{hint}")
        if isinstance(target, int):
            ask_for_size(self.capture, name, CAMERA_SIZE)
        fps = self.capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 1 <= fps <= 240 else 30.0
        self.frames = int(self.capture.get(cv2.CAP_PROP_FRAME_COUNT)) if not live else 0

    def __iter__(self) -> Iterator[np.ndarray]:
        misses, index = 0, 0
        while True:
            asked = time.monotonic()
            ok, frame = self.capture.read()
            if not ok and self.live and time.monotonic() - asked >= 0.8 * STREAM_TIMEOUT_SECONDS:
                silent = f"{STREAM_TIMEOUT_SECONDS:g} s"
                raise SourceError(f"{self.name} sent no picture for {silent} (asleep, or off the network?)")
            if ok and frame is not None:
                misses = 0
                index += 1
                yield frame
                continue
            if not self.live and (self.frames <= 0 or index >= self.frames - 1):
                return  # the end of the file
            misses += 1
            if misses >= MISSES_BEFORE_GONE:
                if self.live:
                    raise SourceError(f"{self.name} stopped giving frames (unplugged or the stream ended?)")
                good = index - misses + 1
                log.warning("%s ends after %d of its %d frames (cut short?)", self.name, good, self.frames)
                return
            if misses == 1:  # once a run of bad frames: a file cut short would fill the screen
                if self.live:  # as likely its stream dropping as a damaged frame
                    log.warning("%s gave no frame after frame %d; waiting for the next", self.name, index)
                else:
                    log.warning("%s: frame %d could not be decoded; skipped", self.name, index + 1)
            index += 1

    def close(self) -> None:
        self.capture.release()


def ask_for_size(capture, name: str, size: tuple[int, int]) -> None:
    """Ask an opened camera for pictures of ``size`` (width, height) in MJPEG; warn when it
    gives smaller ones, where the dice are smaller to it."""
    width, height = size
    capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))  # first: each format has its sizes
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
    given = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    if 0 < given[0] < width:
        log.warning(
            "%s gives %dx%d pictures, not the %dx%d asked for: the dice look smaller to it, so bring it"
            " closer to the table",
            name,
            *given,
            width,
            height,
        )


def camera_hint() -> str:
    """What to check when a camera will not open. macOS opens none for a program until the
    user lets the terminal use the camera, and before that it looks unplugged."""
    if sys.platform == "darwin":
        return (
            " (is it plugged in? On macOS, let the terminal use the camera: System Settings,"
            " Privacy & Security, Camera)"
        )
    return " (is it plugged in?)"


class NewestFrames:
    """A live source's frames read on a thread of their own, only the newest kept for the
    reader: a camera read more slowly than it sends (a slow laptop, a settled roll's long look)
    is seen as it is now.  Read in order, a 15 fps stream read at 10 fps queued 15 s behind
    within a minute, the picture and the rolls with it.  One thread for the whole run
    (``Reconnecting``, whose closing ends the frames): a thread of its own for each
    reconnection took a memory arena of its own, 3 MB more held at each
    (docs/vision-limits.md, session 65)."""

    def __init__(self, frames: Iterator[np.ndarray]):
        self.condition = threading.Condition()
        self.frame: np.ndarray | None = None
        self.error: BaseException | None = None
        self.ended = False
        self.thread = threading.Thread(target=self._read, args=(frames,), name="frame reader", daemon=True)
        self.thread.start()

    def _read(self, frames: Iterator[np.ndarray]) -> None:
        try:
            for frame in frames:
                with self.condition:
                    self.frame = frame
                    self.condition.notify_all()
        except Exception as error:  # the source's SourceError, raised to whoever reads
            self.error = error
        finally:
            with self.condition:
                self.ended = True
                self.condition.notify_all()

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            with self.condition:
                while not self.condition.wait_for(lambda: self.frame is not None or self.ended, WAKE_SECONDS):
                    pass  # woken only to let Ctrl-C in (WAKE_SECONDS)
                frame, self.frame = self.frame, None
            if frame is None:
                if self.error is not None:
                    raise self.error
                return
            yield frame

    def ended_within(self, timeout: float) -> bool:
        """Whether the reader has ended within ``timeout`` seconds (its frames ended)."""
        self.thread.join(timeout)
        return not self.thread.is_alive()


class ImageFolder(FrameSource):
    """The images of a folder, in name order, as frames (fps 1: each image is its own moment,
    a photo of a roll at rest, with no throw between to see: ``stills``)."""

    fps = 1.0
    stills = True

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.name = str(folder)
        # phone photos are listed too, so that each says why it cannot be read
        listed = IMAGE_SUFFIXES | PHONE_ONLY_SUFFIXES
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in listed)
        if not self.paths:
            raise SourceError(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in folder {folder}")

    def __iter__(self) -> Iterator[np.ndarray]:
        read = 0
        for path in self.paths:
            try:
                frame = load_image(path)
            except SourceError as error:
                log.warning("%s; skipped", error)
                continue
            read += 1
            yield frame
        if not read:  # each one's reason is in the warnings above
            raise SourceError(f"none of the {len(self.paths)} images in folder {self.folder} could be read")


def open_source(spec: str | int) -> FrameSource:
    """The source a command-line SRC names: a camera index, ``demo``, a URL, a folder or a
    video file (files are read as fast as they decode; ``webui.camera`` paces them)."""
    spec = str(spec).strip()
    if not spec:
        raise SourceError("no source given: a camera index, demo, a URL, a video file or a folder of images")
    if spec.isdigit():
        return CaptureSource(int(spec), f"camera {spec}", live=True)
    if spec == "demo":
        if not DEMO_CLIP.is_file():
            raise SourceError(
                f"the demo clip is missing: {DEMO_CLIP} (render it with `python -m datasets.scenes.clips`,"
                " as docs/vision.md says)"
            )
        return CaptureSource(str(DEMO_CLIP), "demo", live=False)
    if "://" in spec:
        return CaptureSource(spec, spec, live=True)
    path = Path(spec)
    if path.is_dir():
        return ImageFolder(path)
    if not path.exists():
        raise SourceError(
            f"no such file or folder: {spec} (a source is a camera index, demo, a URL, "
            "a video file or a folder of images)"
        )
    if path.suffix.lower() in IMAGE_SUFFIXES | PHONE_ONLY_SUFFIXES:
        raise SourceError(f"{spec} is a single image: use `dicescore read` for images, or give their folder")
    return CaptureSource(str(path), spec, live=False)


class Reconnecting(FrameSource):
    """A live source that, when it fails, is reopened after a wait that grows up to the last
    ``backoff`` step, instead of ending the run.  Opening it the first time must succeed: a
    camera that is not there at the start is an error to report, not to wait for."""

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        backoff: tuple[float, ...] = RECONNECT_WAITS,
        sleep: Callable[[float], object] | None = None,
    ):
        self.closing = threading.Event()
        # the waits end early when the source is closed (``end``)
        self.opener, self.backoff, self.sleep = opener, backoff, sleep or self.closing.wait
        self.source: FrameSource | None = opener()
        self.name, self.fps, self.live = self.source.name, self.source.fps, self.source.live
        self.stills = self.source.stills
        self.newest: NewestFrames | None = None

    def __iter__(self) -> Iterator[np.ndarray]:
        """A live source's newest frame each time (``NewestFrames``); a file's or a folder's
        every frame in order."""
        if not self.live:
            yield from self.frames_in_order()
            return
        self.newest = NewestFrames(self.frames_in_order())
        yield from self.newest

    def frames_in_order(self) -> Iterator[np.ndarray]:
        failures = 0
        while not self.closing.is_set():
            if self.source is None:
                wait = self.backoff[min(failures, len(self.backoff) - 1)]
                failures += 1
                self.sleep(wait)
                if self.closing.is_set():
                    return
                try:
                    source = self.opener()
                except SourceError as error:
                    if failures == 1 or failures % LOG_EVERY_TRIES == 0:  # not every second, for hours
                        log.warning("%s; trying again", error)
                    continue
                if self.closing.is_set():  # closed while it opened: nobody would release it
                    source.close()
                    return
                self.source = source
                log.warning("%s is back", self.name)
            try:
                for frame in self.source:
                    if self.closing.is_set():
                        return
                    failures = 0
                    yield frame
                if not self.source.live:
                    return
                raise SourceError(f"{self.name} ended")
            except SourceError as error:
                self.source.close()
                if not self.live:  # a file or a folder does not come back
                    raise
                log.warning("%s; reconnecting", error)
                self.source = None

    def end(self) -> None:
        """Ask the reading to end at its next step (a wait, an open, a frame), without
        waiting for it: ``close`` waits, then releases the source."""
        self.closing.set()

    def close(self) -> None:
        # the source is released only once its reader has stopped: releasing a capture
        # another thread reads from can crash the process
        self.end()
        if self.newest is not None and not self.newest.ended_within(STREAM_TIMEOUT_SECONDS + 2):
            log.warning("%s: its reader did not stop; left open", self.name)
            return
        if self.source is not None:
            self.source.close()
