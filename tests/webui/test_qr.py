import cv2
import numpy as np
import pytest

from webui.qr import qr_matrix, qr_text, reed_solomon


@pytest.mark.parametrize("text", ["http://192.168.1.23:8000/", "http://10.0.0.7:80/", "x" * 60, "é" * 40])
def test_the_qr_code_reads_back(text):
    modules = np.array(qr_matrix(text), dtype=np.uint8)
    image = np.pad(np.where(modules, 0, 255).astype(np.uint8), 4, constant_values=255)
    image = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert decoded == text


def test_the_qr_code_prints_as_text_two_modules_a_character():
    lines = qr_text("http://192.168.1.23:8000/").splitlines()
    assert len(lines) == (25 + 4 + 1) // 2 and {len(line) for line in lines} == {25 + 4}


def test_a_text_too_long_for_a_small_code_is_refused():
    with pytest.raises(ValueError, match="too long"):
        qr_matrix("x" * 200)


# ISO/IEC 18004, level L, versions 1 to 5: bytes a byte-mode code holds, its (data, error
# correction) codewords, and the format bits of level L with mask 0 (bit 14 first)
CAPACITY_L = {1: 17, 2: 32, 3: 53, 4: 78, 5: 106}
ISO_CODEWORDS_L = {1: (19, 7), 2: (34, 10), 3: (55, 15), 4: (80, 20), 5: (108, 26)}
FORMAT_L_MASK_0 = "111011111000100"


def function_modules(size):
    """Where a reader finds no data: finders with separators and format bits, timing, the
    alignment pattern (version 2 up), the dark module."""
    taken = set()
    for x0, y0 in ((0, 0), (size - 8, 0), (0, size - 8)):
        taken |= {(x0 + dx, y0 + dy) for dx in range(8) for dy in range(8)}
    taken |= {(8, i) for i in range(9)} | {(i, 8) for i in range(9)}
    taken |= {(8, size - 1 - i) for i in range(8)} | {(size - 1 - i, 8) for i in range(8)}
    taken |= {(6, i) for i in range(size)} | {(i, 6) for i in range(size)}
    if size > 21:
        taken |= {(size - 7 + dx, size - 7 + dy) for dx in range(-2, 3) for dy in range(-2, 3)}
    return taken


def codewords_read_back(modules):
    """The codewords as a strict reader takes them: zigzag up and down column pairs, mask 0 undone."""
    size, taken, bits = len(modules), function_modules(len(modules)), []
    for pair, right in enumerate(range(size - 1, 0, -2)):
        right -= right <= 6  # the pairs left of the vertical timing pattern start one further left
        rows = range(size - 1, -1, -1) if pair % 2 == 0 else range(size)  # up first, then down
        for y in rows:
            for x in (right, right - 1):
                if (x, y) not in taken:
                    bits.append(int(modules[y][x] != ((x + y) % 2 == 0)))
    return [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits) - 7, 8)]


@pytest.mark.parametrize(
    "text", ["x" * 17, "x" * 18, "http://192.168.1.23:8000/", "x" * 53, "x" * 60, "é" * 53]
)
def test_the_qr_code_has_no_error_for_a_reader_to_correct(text):
    # a phone's reader corrects a few wrong modules, and then fails at a slant or in dim light
    payload = text.encode()
    version = min(v for v, most in CAPACITY_L.items() if len(payload) <= most)
    modules = qr_matrix(text)
    size = 17 + 4 * version
    assert len(modules) == size and {len(row) for row in modules} == {size}
    assert [modules[6][i] for i in range(8, size - 8)] == [i % 2 == 0 for i in range(8, size - 8)]  # timing
    assert [modules[i][6] for i in range(8, size - 8)] == [i % 2 == 0 for i in range(8, size - 8)]
    first = [modules[i][8] for i in (0, 1, 2, 3, 4, 5, 7, 8)] + [modules[8][i] for i in (7, 5, 4, 3, 2, 1, 0)]
    second = [modules[8][size - 1 - i] for i in range(8)] + [modules[size - 7 + i][8] for i in range(7)]
    assert "".join("1" if bit else "0" for bit in first)[::-1] == FORMAT_L_MASK_0
    assert "".join("1" if bit else "0" for bit in second)[::-1] == FORMAT_L_MASK_0
    assert modules[size - 8][8]  # the dark module
    if version > 1:  # the alignment pattern
        ring = {
            max(abs(dx), abs(dy))
            for dx in range(-2, 3)
            for dy in range(-2, 3)
            if not modules[size - 7 + dy][size - 7 + dx]
        }
        assert ring == {1}
    data_count, ecc_count = ISO_CODEWORDS_L[version]
    words = codewords_read_back(modules)[: data_count + ecc_count]
    data, ecc = words[:data_count], words[data_count:]
    bits = "".join(f"{word:08b}" for word in data)
    assert bits[:4] == "0100" and int(bits[4:12], 2) == len(payload)
    assert bytes(int(bits[12 + 8 * i : 20 + 8 * i], 2) for i in range(len(payload))) == payload
    end = 12 + 8 * len(payload)
    assert set(bits[end : end + 4]) <= {"0"} and set(bits[end : -(-(end + 4) // 8) * 8]) <= {"0"}
    padding = data[-(-(end + 4) // 8) :]
    assert padding == [(0xEC, 0x11)[i % 2] for i in range(len(padding))]
    assert ecc == reed_solomon(data, ecc_count)


def test_the_error_correction_is_iso_18004s_own_example():
    data = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
    assert reed_solomon(data, 10) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]


def test_the_printed_qr_code_is_the_code_as_a_dark_terminal_shows_it():
    # light modules are blocks, the quiet zone light too; each line is two rows of modules
    text = "http://192.168.1.23:8000/"
    modules = np.array(qr_matrix(text))
    rows = []
    for line in qr_text(text).splitlines():
        rows += [[char in "█▀" for char in line], [char in "█▄" for char in line]]
    light = np.array(rows[: len(modules) + 4])
    assert not rows[-1][0] and (light[2:-2, 2:-2] == ~modules).all()
    assert light[:2].all() and light[-2:].all() and light[:, :2].all() and light[:, -2:].all()
    image = cv2.resize(
        np.where(light, 255, 0).astype(np.uint8), None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST
    )
    assert cv2.QRCodeDetector().detectAndDecode(np.pad(image, 16))[0] == text
