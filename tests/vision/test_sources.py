"""Frame sources: files, folders and clear errors; a live source that fails is reopened."""

import http.server
import itertools
import logging
import os
import socketserver
import threading
import time
import zlib

import cv2
import numpy as np
import pytest

import vision.sources
from vision.sources import (
    CAMERA_SIZE,
    CaptureSource,
    FrameSource,
    ImageFolder,
    Reconnecting,
    SourceError,
    load_image,
    open_source,
    stated_size,
)


def write_clip(path, frames=12, size=(64, 48)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, size)
    assert writer.isOpened()
    for i in range(frames):
        writer.write(np.full((size[1], size[0], 3), i * 20 % 256, np.uint8))
    writer.release()


def test_video_file_gives_every_frame_and_its_fps(tmp_path):
    write_clip(tmp_path / "roll.avi")
    with open_source(str(tmp_path / "roll.avi")) as source:
        frames = list(source)
        assert source.fps == pytest.approx(15)
    assert len(frames) == 12 and frames[0].shape == (48, 64, 3)


def test_an_image_file_loads_as_bgr_pixels_grey_or_not(tmp_path):
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((6, 8), 90, np.uint8))
    assert load_image(tmp_path / "grey.png").shape == (6, 8, 3)


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """A JPEG with an EXIF block holding only its Orientation tag, as a phone writes it."""
    entry = (0x0112).to_bytes(2, "big") + (3).to_bytes(2, "big") + (1).to_bytes(4, "big")
    tiff = b"MM\0*" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big") + entry
    tiff += orientation.to_bytes(2, "big") + bytes(2) + bytes(4)  # the value, padded; no next IFD
    app1 = b"Exif\0\0" + tiff
    return jpeg[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + jpeg[2:]


def test_a_phone_photo_is_loaded_upright_as_its_orientation_says(tmp_path):
    # a phone held upright stores its sensor's landscape pixels and says "turn me a quarter
    # clockwise" (Orientation 6): the quads `dicescore read` reports are in the upright photo
    pixels = np.zeros((40, 60, 3), np.uint8)
    pixels[:, :20] = 255  # the left third white
    jpeg = cv2.imencode(".jpg", pixels)[1].tobytes()
    (tmp_path / "portrait.jpg").write_bytes(with_orientation(jpeg, 6))
    upright = load_image(tmp_path / "portrait.jpg")
    assert upright.shape == (60, 40, 3)
    assert upright[:20].mean() > 200 and upright[25:].mean() < 50  # the white third now on top


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("absent.jpg", None, "(no such file)"),
        ("notes.jpg", b"a shopping list", "(not an image OpenCV can read)"),
        ("IMG_0001.HEIC", b"\0\0\0\x18ftypheic" + bytes(64), "save it as JPEG"),
        ("IMG_0002.jpg", b"\0\0\0\x18ftypmif1" + bytes(64), "save it as JPEG"),  # renamed
        ("IMG_0003.jpg", b"\0\0\0\x18ftypisom" + bytes(64), "(not an image OpenCV can read)"),  # a video
    ],
)
def test_an_image_that_cannot_be_read_says_why(tmp_path, name, content, why):
    if content is not None:
        (tmp_path / name).write_bytes(content)
    with pytest.raises(SourceError, match=f"cannot read image .*{name}") as error:
        load_image(tmp_path / name)
    assert why in str(error.value)


def with_stated_size(image: bytes, width: int, height: int) -> bytes:
    """A PNG, JPEG or BMP file whose header claims another size, as a damaged file may."""
    data = bytearray(image)
    if data.startswith(b"\x89PNG"):
        data[16:24] = width.to_bytes(4, "big") + height.to_bytes(4, "big")
    elif data.startswith(b"BM"):
        data[18:26] = width.to_bytes(4, "little") + height.to_bytes(4, "little")
    else:
        frame = data.index(b"\xff\xc0")  # baseline start of frame: precision, height, width
        data[frame + 5 : frame + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp"])
def test_a_header_claiming_a_giant_picture_is_refused_before_decoding(tmp_path, suffix):
    """A 16 KB file whose damaged header says 60000 x 60000 would take gigabytes to decode."""
    small = cv2.imencode(suffix, np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    (tmp_path / f"damaged{suffix}").write_bytes(with_stated_size(small, 60000, 60000))
    with pytest.raises(SourceError, match=r"cannot read image .*damaged"):
        load_image(tmp_path / f"damaged{suffix}")
    (tmp_path / f"fine{suffix}").write_bytes(small)
    assert load_image(tmp_path / f"fine{suffix}").shape == (8, 8, 3)


@pytest.mark.parametrize(("width", "height"), [(1, 1), (53, 37), (4032, 3024)])
def test_the_size_a_header_states_is_read_from_png_and_jpeg(width, height):
    for suffix in (".png", ".jpg"):
        image = cv2.imencode(suffix, np.zeros((height, width, 3), np.uint8))[1].tobytes()
        assert stated_size(image) == (width, height)
    assert stated_size(b"GIF89a") is None


def busy_jpeg(progressive: bool = False) -> bytes:
    """A photo-sized JPEG with detail in every row, so its scan data runs the file's length."""
    pixels = np.random.default_rng(3).integers(0, 256, (240, 320, 3), np.uint8)
    return cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)])[1].tobytes()


def with_thumbnail(jpeg: bytes) -> bytes:
    """``jpeg`` carrying a whole small JPEG in an APP1 block before its scan, as a phone's EXIF
    thumbnail does: that thumbnail's end-of-image marker comes before the photo's own."""
    thumbnail = cv2.imencode(".jpg", np.full((8, 8, 3), 128, np.uint8))[1].tobytes()
    app1 = b"Exif\0\0" + thumbnail
    return jpeg[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + jpeg[2:]


@pytest.mark.parametrize("share", [0.9, 0.5, 0.1])
@pytest.mark.parametrize("thumbnail", [False, True])
def test_a_jpeg_cut_short_in_copying_says_so_rather_than_reading_half_a_photo(tmp_path, share, thumbnail):
    # OpenCV decodes a cut JPEG, greying its lost rows: the dice there would go uncounted
    jpeg = with_thumbnail(busy_jpeg()) if thumbnail else busy_jpeg()
    (tmp_path / "IMG_0004.jpg").write_bytes(jpeg[: int(len(jpeg) * share)])
    with pytest.raises(SourceError, match=r"IMG_0004.jpg \(the JPEG file ends before its picture does"):
        load_image(tmp_path / "IMG_0004.jpg")


@pytest.mark.parametrize("share", [0.9, 0.5, 0.05])
def test_a_png_cut_short_or_with_a_damaged_header_says_so_in_one_line(tmp_path, share, capfd):
    # libpng printed its own complaint ("PNG input buffer is incomplete") above ours
    png = cv2.imencode(".png", np.random.default_rng(0).integers(0, 255, (60, 80, 3), np.uint8))[1].tobytes()
    (tmp_path / "cut.png").write_bytes(png[: int(len(png) * share)])
    with pytest.raises(SourceError, match=r"cut.png \(the PNG file ends before its picture does"):
        load_image(tmp_path / "cut.png")
    (tmp_path / "header.png").write_bytes(png[:12] + b"IDAT" + png[16:])
    with pytest.raises(SourceError, match=r"header.png \(its header is damaged\)"):
        load_image(tmp_path / "header.png")
    assert capfd.readouterr().err == ""
    (tmp_path / "whole.png").write_bytes(png)
    assert load_image(tmp_path / "whole.png").shape == (60, 80, 3)


def test_a_png_with_a_damaged_byte_in_its_picture_says_so_in_one_line(tmp_path, capfd):
    # libpng printed "IDAT: invalid code" above a line calling the file no image at all
    png = bytearray(cv2.imencode(".png", np.random.default_rng(0).integers(0, 255, (60, 80, 3), np.uint8))[1])
    png[png.index(b"IDAT") + 40] ^= 0xFF
    (tmp_path / "damaged.png").write_bytes(png)
    with pytest.raises(SourceError, match=r"damaged.png \(a part of the PNG file is damaged"):
        load_image(tmp_path / "damaged.png")
    assert capfd.readouterr().err == ""
    # a damaged note (tEXt) libpng passes over: the picture is whole, and read
    whole = bytes(cv2.imencode(".png", np.full((60, 80, 3), 90, np.uint8))[1])
    note = b"tEXtComment\0from a scanner"
    chunk = len(note[4:]).to_bytes(4, "big") + note + (zlib.crc32(note) ^ 1).to_bytes(4, "big")
    (tmp_path / "noted.png").write_bytes(whole[:33] + chunk + whole[33:])  # after the 33-byte header
    assert load_image(tmp_path / "noted.png").shape == (60, 80, 3)


@pytest.mark.parametrize(
    "jpeg",
    [
        busy_jpeg(progressive=True),  # scans with tables between them
        with_thumbnail(busy_jpeg()),
        busy_jpeg() + b"\0\0\0\x18ftypmp42" + bytes(400),  # a motion photo: a video after the picture
        busy_jpeg()[:2] + b"\xff\xff" + busy_jpeg()[2:],  # a fill byte before a marker
    ],
    ids=["progressive", "thumbnail", "motion photo", "fill byte"],
)
def test_a_whole_jpeg_is_read_whatever_it_carries(tmp_path, jpeg):
    (tmp_path / "whole.jpg").write_bytes(jpeg)
    assert load_image(tmp_path / "whole.jpg").shape == (240, 320, 3)


def test_a_pipe_is_not_an_image(tmp_path):
    os.mkfifo(tmp_path / "shot.png")
    with pytest.raises(SourceError, match=r"shot.png \(not a file: a pipe or a device\)"):
        load_image(tmp_path / "shot.png")  # opened, a pipe would wait for a writer for ever


def test_a_folder_is_not_an_image(tmp_path):
    with pytest.raises(SourceError, match="a folder, not an image file"):
        load_image(tmp_path)


def test_image_folder_in_name_order_skips_unreadable_images(tmp_path, caplog):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((8, 8, 3), i, np.uint8))
    (tmp_path / "1b.png").write_bytes(b"not a png")
    (tmp_path / "2b.heic").write_bytes(b"\0\0\0\x18ftypheic" + bytes(64))
    (tmp_path / "notes.txt").write_text("ignored")
    with caplog.at_level(logging.WARNING):
        frames = list(open_source(str(tmp_path)))
    assert [int(f[0, 0, 0]) for f in frames] == [0, 1, 2]
    assert (
        "cannot read image " + str(tmp_path / "1b.png") + " (not an image OpenCV can read); skipped"
        in caplog.text
    )
    assert "2b.heic (HEIC photos are not supported: save it as JPEG" in caplog.text


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no/such/clip.mp4", "no such file or folder"),
        ("http://127.0.0.1:9/stream.mjpg", "cannot open stream"),
    ],
)
def test_bad_sources_say_what_is_wrong(spec, message):
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_a_video_cut_short_says_so_once_rather_than_for_every_frame_lost(tmp_path, caplog):
    write_clip(tmp_path / "whole.avi", frames=60)
    whole = (tmp_path / "whole.avi").read_bytes()
    (tmp_path / "cut.avi").write_bytes(whole[: len(whole) // 2])  # the header still says 60
    with caplog.at_level(logging.WARNING):
        frames = list(open_source(str(tmp_path / "cut.avi")))
    assert 0 < len(frames) < 60
    assert len(caplog.records) <= 2
    assert f"ends after {len(frames)} of its 60 frames (cut short?)" in caplog.text


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "no source given"),
        ("IMG_0001.HEIC", "a single image"),
    ],
)
def test_a_source_that_is_no_source_says_so(tmp_path, spec, message):
    if spec:
        (tmp_path / spec).write_bytes(b"\0\0\0\x18ftypheic" + bytes(64))
    with pytest.raises(SourceError, match=message):
        open_source(str(tmp_path / spec) if spec else spec)


def test_a_file_that_is_not_a_video(tmp_path):
    (tmp_path / "clip.mp4").write_bytes(b"\0" * 100)
    with pytest.raises(SourceError, match="cannot open video file"):
        open_source(str(tmp_path / "clip.mp4"))


def test_a_single_image_points_to_read(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(SourceError, match="dicescore read"):
        open_source(str(tmp_path / "a.png"))


def test_a_folder_of_phone_photos_none_readable_says_so(tmp_path, caplog):
    (tmp_path / "IMG_0001.HEIC").write_bytes(b"\0\0\0\x18ftypheic" + bytes(64))
    with caplog.at_level(logging.WARNING), pytest.raises(SourceError, match="none of the 1 images"):
        list(open_source(str(tmp_path)))
    assert "save it as JPEG" in caplog.text


def test_empty_folder(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        ImageFolder(tmp_path)


class FlakyCamera(FrameSource):
    """Gives ``frames`` frames, then fails as an unplugged camera does."""

    live = True
    name = "camera 0"

    def __init__(self, frames):
        self.frames = frames

    def __iter__(self):
        for i in range(self.frames):
            yield np.full((2, 2, 3), i, np.uint8)
        raise SourceError("camera 0 stopped giving frames")


def test_a_camera_that_disappears_is_reopened_with_growing_waits():
    opened, waits = [], []

    def opener():
        opened.append(1)
        if len(opened) in (2, 3):  # unplugged: the first two reopen attempts fail
            raise SourceError("cannot open camera 0")
        return FlakyCamera(3)

    frames = Reconnecting(opener, backoff=(0.5, 1, 2), sleep=waits.append)
    got = list(itertools.islice(frames.frames_in_order(), 7))
    assert len(got) == 7
    assert waits == [0.5, 1, 2, 0.5]  # longer while it stays away; short again once it came back


def test_reconnecting_a_missing_camera_fails_at_once():
    def opener():
        raise SourceError("cannot open camera 3 (is it plugged in?)")

    with pytest.raises(SourceError, match="camera 3"):
        Reconnecting(opener)


def test_a_file_or_folder_that_fails_is_not_reopened(tmp_path):
    (tmp_path / "IMG_0001.HEIC").write_bytes(b"\0\0\0\x18ftypheic" + bytes(64))
    waits = []
    frames = Reconnecting(lambda: open_source(str(tmp_path)), sleep=waits.append)
    with pytest.raises(SourceError, match="none of the 1 images"):
        list(frames)
    assert waits == []  # it said why and stopped, where a camera would be waited for


def test_a_stream_that_drops_says_it_gave_no_frame_not_that_one_was_damaged(caplog, monkeypatch):
    # a phone's stream whose app closed: its frames stop, none arrives damaged
    class DroppedStream:
        def __init__(self, target, *how):
            self.frames = [np.zeros((4, 4, 3), np.uint8)] * 3

        def isOpened(self):
            return True

        def get(self, prop):
            return 0.0

        def read(self):
            return (True, self.frames.pop()) if self.frames else (False, None)

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", DroppedStream)
    stream = CaptureSource("http://phone:8080/video", "http://phone:8080/video", live=True)
    frames = []
    with caplog.at_level(logging.WARNING), pytest.raises(SourceError, match="stopped giving frames"):
        frames.extend(stream)
    assert len(frames) == 3
    assert "http://phone:8080/video gave no frame after frame 3; waiting for the next" in caplog.text


class MjpegServer:
    """A phone's camera app on this machine: MJPEG over HTTP, ``frames`` parts, then silence
    with the connection held open (the phone asleep) until ``close``."""

    def __init__(self, frames: int):
        self.asleep = threading.Event()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                for index in range(frames):
                    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 40 * index, np.uint8))[1].tobytes()
                    part = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg)
                    self.wfile.write(part + jpeg + b"\r\n")
                    self.wfile.flush()
                owner.asleep.wait(30)

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/video"

    def close(self):
        self.asleep.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_stream_that_falls_silent_is_gone_after_seconds_not_thirty(monkeypatch):
    # OpenCV waited 30 s on a stream that sent nothing, the page saying "watching" meanwhile
    monkeypatch.setattr(vision.sources, "STREAM_TIMEOUT_SECONDS", 1.0)
    phone = MjpegServer(frames=3)
    try:
        stream = CaptureSource(phone.url, phone.url, live=True)
        frames, started = [], time.monotonic()
        with pytest.raises(SourceError, match=r"video sent no picture for 1 s \(asleep"):
            frames.extend(stream)
        assert len(frames) == 3 and time.monotonic() - started < 5
        stream.close()
    finally:
        phone.close()


class SteadyCamera:
    """A capture that gives a numbered frame every ``interval`` seconds, as a camera does, and
    notes whether it was released while a read was under way."""

    def __init__(self, target, *how, interval=0.005):
        self.interval, self.count, self.reading, self.released_mid_read = interval, 0, False, False

    def isOpened(self):
        return True

    def get(self, prop):
        return 0.0

    def read(self):
        self.reading = True
        time.sleep(self.interval)
        self.count += 1
        self.reading = False
        return True, np.full((2, 2, 3), self.count % 256, np.uint8)

    def set(self, prop, value):
        return False  # it keeps the size it has

    def release(self):
        self.released_mid_read = self.reading


class Webcam:
    """A camera that opens at 640x480 and gives any of ``sizes`` it is asked for; notes what it
    was asked, in order."""

    sizes = ((640, 480), (1280, 720))

    def __init__(self, target, *how):
        self.size, self.asked = (640, 480), []

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.asked.append((prop, value))
        if prop == cv2.CAP_PROP_FRAME_WIDTH:  # the largest it has of at most that width
            self.size = max(size for size in self.sizes if size[0] <= max(value, 640))
        return True

    def get(self, prop):
        sizes = {cv2.CAP_PROP_FRAME_WIDTH: self.size[0], cv2.CAP_PROP_FRAME_HEIGHT: self.size[1]}
        return sizes.get(prop, 0.0)

    def release(self):
        pass


def test_a_webcam_is_asked_for_pictures_large_enough_to_read_dice(monkeypatch, caplog):
    # opened as it comes, a webcam gives 640x480: a die a third of its readable size
    monkeypatch.setattr(cv2, "VideoCapture", Webcam)
    with caplog.at_level(logging.WARNING):
        camera = CaptureSource(0, "camera 0", live=True)
    mjpeg = (cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
    assert camera.capture.asked == [mjpeg, (cv2.CAP_PROP_FRAME_WIDTH, 1280), (cv2.CAP_PROP_FRAME_HEIGHT, 720)]
    assert camera.capture.size == CAMERA_SIZE == (1280, 720)
    assert caplog.text == ""
    # a stream or a video file is as it was sent or made
    assert CaptureSource("http://phone:8080/video", "phone", live=True).capture.asked == []
    assert CaptureSource("roll.mp4", "roll.mp4", live=False).capture.asked == []


def test_a_webcam_that_gives_smaller_pictures_says_so(monkeypatch, caplog):
    class SmallWebcam(Webcam):
        sizes = ((640, 480),)

    monkeypatch.setattr(cv2, "VideoCapture", SmallWebcam)
    with caplog.at_level(logging.WARNING):
        CaptureSource(1, "camera 1", live=True)
    assert "camera 1 gives 640x480 pictures, not the 1280x720 asked for" in caplog.text
    assert "bring it closer" in caplog.text


def test_a_live_source_read_slowly_gives_its_newest_frame_not_the_next_in_line(monkeypatch):
    # read in order, a 15 fps stream read at 10 fps queued 15 s behind within a minute
    monkeypatch.setattr(cv2, "VideoCapture", SteadyCamera)
    opened = CaptureSource(0, "camera 0", live=True)
    camera = Reconnecting(lambda: opened)
    seen = []
    for frame in camera:
        seen.append(int(frame[0, 0, 0]))
        if len(seen) == 10:
            break
        time.sleep(0.05)  # ten times slower than the camera
    camera.close()
    assert seen == sorted(set(seen))  # newer each time, never one twice
    assert seen[-1] >= 50  # about ten frames sent for each one read: not the 10th in line
    assert not opened.capture.released_mid_read  # released once its reader had stopped
    assert not camera.newest.thread.is_alive()


def test_a_live_source_is_read_by_one_thread_for_the_whole_run_through_its_reconnections():
    # a thread of its own for each reconnection took a memory arena of its own: 3 MB more
    # held at each, a phone that sleeps now and then growing the server all evening
    readers = set()

    class Noting(FlakyCamera):
        def __iter__(self):
            for frame in super().__iter__():
                readers.add(threading.get_ident())
                yield frame

    camera = Reconnecting(lambda: Noting(2), sleep=lambda seconds: None)
    got = list(itertools.islice(camera, 8))  # four reconnections
    camera.close()
    assert len(got) == 8 and len(readers) == 1 and threading.get_ident() not in readers


def test_a_source_that_stays_away_is_tried_again_each_second_and_said_so_once(caplog):
    opened = []

    def opener():
        opened.append(1)
        if 2 <= len(opened) <= 6:
            raise SourceError("cannot open stream http://phone:8080/video")
        return FlakyCamera(1)

    waits = []
    frames = Reconnecting(opener, sleep=waits.append)
    with caplog.at_level(logging.WARNING):
        got = list(itertools.islice(frames.frames_in_order(), 2))
    assert len(got) == 2
    assert waits == [0.5, 1.0, 1.0, 1.0, 1.0, 1.0]  # a phone back a moment later is watched again
    assert caplog.text.count("trying again") == 1


def test_closing_a_source_that_is_away_ends_its_wait_and_opens_it_no_more():
    # closed while it waited to reconnect, the reader slept on, opened the stream again and
    # kept it open, nobody left to release it
    opened = []

    def opener():
        opened.append(1)
        return FlakyCamera(1)

    camera = Reconnecting(opener, backoff=(30.0,))  # the default sleep: a wait that closing ends
    assert len(list(itertools.islice(camera, 1))) == 1  # then it fails, and the reader waits
    time.sleep(0.1)
    started = time.monotonic()
    camera.close()
    assert time.monotonic() - started < 2
    assert len(opened) == 1 and not camera.newest.thread.is_alive()


def test_a_reader_waiting_for_a_source_that_is_away_wakes_every_half_second(monkeypatch):
    # On Windows Ctrl-C reaches a thread waiting on a lock only when the wait ends: a wait
    # for a frame that never comes left `dicescore watch` deaf to it while the camera was away
    gate = threading.Event()

    def frames():
        gate.wait(5)
        yield np.zeros((4, 4, 3), np.uint8)

    newest = vision.sources.NewestFrames(frames())
    waits = []
    wait_for = newest.condition.wait_for
    monkeypatch.setattr(
        newest.condition,
        "wait_for",
        lambda ready, timeout=None: waits.append(timeout) or wait_for(ready, timeout),
    )
    threading.Timer(1.2, gate.set).start()
    assert len(list(newest)) == 1
    assert waits[0] == vision.sources.WAKE_SECONDS and len(waits) >= 3  # woke at 0.5 and 1.0 s


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_a_camera_that_will_not_open_says_what_to_check(monkeypatch, platform):
    # macOS opens no camera for a program the user has not let use it, as if unplugged
    monkeypatch.setattr(vision.sources.sys, "platform", platform)
    with pytest.raises(SourceError) as refused:
        open_source("7")
    assert str(refused.value).startswith("cannot open camera 7 (is it plugged in?")
    assert ("Privacy & Security, Camera" in str(refused.value)) == (platform == "darwin")


# -- what a mutation audit found no test would miss ------------------------------
def jpeg_headers_end(jpeg: bytes) -> int:
    return jpeg.index(b"\xff\xda")


@pytest.mark.parametrize("fill", [False, True], ids=["plain", "fill byte"])
def test_a_jpeg_cut_short_anywhere_in_its_headers_says_so(tmp_path, fill):
    # cut before the first scan: at each byte of the headers, and with a fill byte before a marker
    jpeg = busy_jpeg()
    if fill:
        jpeg = jpeg[:2] + b"\xff\xff\xff" + jpeg[2:]  # two fill bytes before the first marker
    for cut in range(4, jpeg_headers_end(jpeg) + 2):
        (tmp_path / "IMG_0005.jpg").write_bytes(jpeg[:cut])
        with pytest.raises(SourceError, match=r"IMG_0005.jpg \(the JPEG file ends before its picture does"):
            load_image(tmp_path / "IMG_0005.jpg")


def test_a_small_whole_jpeg_with_fill_bytes_is_read(tmp_path):
    # its markers must be found after the fill bytes, or a length is read from them
    small = cv2.imencode(".jpg", np.full((8, 8, 3), 128, np.uint8))[1].tobytes()
    (tmp_path / "small.jpg").write_bytes(small[:2] + b"\xff\xff" + small[2:])
    assert load_image(tmp_path / "small.jpg").shape == (8, 8, 3)


def test_a_file_that_starts_as_a_jpeg_then_is_noise_is_no_image_not_a_cut_one(tmp_path):
    noise = np.random.default_rng(5).integers(0, 256, 5000, np.uint8).tobytes()
    (tmp_path / "noise.jpg").write_bytes(b"\xff\xd8" + noise.replace(b"\xff", b"\x00"))
    with pytest.raises(SourceError, match=r"noise.jpg \(not an image OpenCV can read\)"):
        load_image(tmp_path / "noise.jpg")


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_a_header_claiming_a_giant_picture_says_what_size_it_claims(tmp_path, suffix):
    # refused by our own check, before OpenCV (whose own limit is 4 times higher) tries
    small = cv2.imencode(suffix, np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    damaged = bytearray(with_stated_size(small, 60000, 60000))
    if suffix == ".png":  # a header whose checksum agrees with it, or the checksum is what is wrong
        damaged[29:33] = zlib.crc32(damaged[12:29]).to_bytes(4, "big")
    (tmp_path / f"damaged{suffix}").write_bytes(bytes(damaged))
    with pytest.raises(
        SourceError, match=r"its header says 60000 x 60000 pixels, more than any camera takes"
    ):
        load_image(tmp_path / f"damaged{suffix}")


def test_an_image_file_that_cannot_be_read_says_why(tmp_path, monkeypatch):
    # an existing file the system will not let us read (permissions, a disk error)
    path = tmp_path / "locked.jpg"
    path.write_bytes(busy_jpeg())

    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(type(path), "read_bytes", refuse)
    with pytest.raises(SourceError, match=r"cannot read image .*locked.jpg \(Permission denied\)"):
        load_image(path)


def test_a_whole_video_ends_quietly_at_its_last_frame(tmp_path, caplog):
    write_clip(tmp_path / "roll.avi", frames=12)
    with caplog.at_level(logging.WARNING):
        frames = list(open_source(str(tmp_path / "roll.avi")))
    assert len(frames) == 12
    assert caplog.records == []  # not "ends after 12 of its 12 frames (cut short?)"


def test_a_video_whose_header_counts_one_frame_more_than_it_holds_ends_quietly(caplog, monkeypatch):
    # containers often count one frame more than they hold: no "cut short?" for that, and no
    # thirty more reads of nothing
    class OneShort:
        def __init__(self, target, *how):
            self.frames = [np.zeros((4, 4, 3), np.uint8)] * 12
            self.reads = 0

        def isOpened(self):
            return True

        def get(self, prop):
            return 13.0 if prop == cv2.CAP_PROP_FRAME_COUNT else 15.0

        def read(self):
            self.reads += 1
            return (True, self.frames.pop()) if self.frames else (False, None)

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", OneShort)
    video = CaptureSource("roll.mp4", "roll.mp4", live=False)
    with caplog.at_level(logging.WARNING):
        frames = list(video)
    assert len(frames) == 12 and video.capture.reads == 13
    assert caplog.records == []


def test_closing_a_capture_source_releases_the_camera(monkeypatch):
    # a camera left held cannot be opened again: not by a reconnection, nor by another program
    released = []

    class Camera(Webcam):
        def release(self):
            released.append(True)

    monkeypatch.setattr(cv2, "VideoCapture", Camera)
    with open_source("0"):
        assert released == []
    assert released == [True]


def test_a_live_frame_reaches_its_waiting_reader_at_once_not_at_its_next_wake():
    import threading
    import time

    from vision.sources import WAKE_SECONDS, NewestFrames

    done = threading.Event()

    def frames():
        time.sleep(0.05)  # the reader is waiting by then
        yield np.zeros((2, 2, 3), np.uint8)
        done.wait(5)

    newest = NewestFrames(frames())
    start = time.monotonic()
    next(iter(newest))
    took = time.monotonic() - start
    done.set()
    assert took < 0.8 * WAKE_SECONDS  # woken every half second only, a camera reads at 2 fps


def test_a_live_source_that_fails_while_read_on_its_thread_raises_to_the_reader():
    from vision.sources import NewestFrames

    def frames():
        yield np.zeros((2, 2, 3), np.uint8)
        raise SourceError("camera 0 stopped giving frames (unplugged or the stream ended?)")

    got = []
    with pytest.raises(SourceError, match="camera 0 stopped giving frames"):
        for frame in NewestFrames(frames()):
            got.append(frame)
    assert len(got) <= 1  # the newest only: the error, not a quiet end, whatever was read


def test_a_camera_index_opens_a_live_source_the_app_and_watch_reconnect(monkeypatch):
    class Camera(Webcam):
        def __init__(self, target, *how):
            assert target == 2
            super().__init__(target)

    monkeypatch.setattr(cv2, "VideoCapture", Camera)
    with open_source("2") as camera:
        assert camera.live and camera.name == "camera 2"  # not a file: NewestFrames, Reconnecting


def test_a_missing_demo_clip_says_how_to_render_it(tmp_path, monkeypatch):
    import vision.sources

    monkeypatch.setattr(vision.sources, "DEMO_CLIP", tmp_path / "demo.mp4")
    with pytest.raises(SourceError, match=r"the demo clip is missing: .*demo.mp4 \(render it with"):
        open_source("demo")


class EndingCamera(FrameSource):
    """Gives two frames, then ends (``fails``: raises as an unplugged camera does); counts closes."""

    live = True
    name = "camera 0"

    def __init__(self, fails: bool):
        self.fails, self.closed = fails, 0

    def __iter__(self):
        yield from (np.full((2, 2, 3), i, np.uint8) for i in range(2))
        if self.fails:
            raise SourceError("camera 0 stopped giving frames")

    def close(self):
        self.closed += 1


@pytest.mark.parametrize("fails", [True, False], ids=["fails", "ends"])
def test_a_live_source_that_fails_or_ends_is_closed_and_opened_anew(fails):
    opened = []

    def opener():
        opened.append(EndingCamera(fails))
        return opened[-1]

    frames = Reconnecting(opener, sleep=lambda wait: None)
    assert len(list(itertools.islice(frames.frames_in_order(), 5))) == 5
    assert len(opened) == 3  # two frames each: reopened twice
    assert [camera.closed for camera in opened[:2]] == [1, 1]  # released before the next is opened


def test_closing_a_live_source_read_on_its_thread_releases_it_once_the_reader_stops():
    import time

    class Streaming(EndingCamera):
        def __iter__(self):
            while True:
                time.sleep(0.01)
                yield np.zeros((2, 2, 3), np.uint8)

    camera = Streaming(fails=False)
    frames = Reconnecting(lambda: camera)
    next(iter(frames))
    frames.close()
    assert camera.closed == 1  # released, not "left open"
