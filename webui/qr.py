"""A small QR code encoder, enough for a URL on the LAN: byte mode, error correction
level L, versions 1 to 5 (up to 106 bytes, one Reed-Solomon block), mask 0.

Follows ISO/IEC 18004 as laid out in Project Nayuki's reference encoder; a fixed mask is
valid (readers take the mask from the format bits), it only skips the beauty contest.
"""

from __future__ import annotations

# Per version at level L: (data codewords, error-correction codewords).
CODEWORDS_L = {1: (19, 7), 2: (34, 10), 3: (55, 15), 4: (80, 20), 5: (108, 26)}
LEVEL_L_BITS = 0b01


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules, True for dark."""
    payload = text.encode("utf-8")
    version = next((v for v, (data, _) in CODEWORDS_L.items() if len(payload) + 2 <= data), None)
    if version is None:
        raise ValueError(f"too long for a small QR code: {len(payload)} bytes")
    data_count, ecc_count = CODEWORDS_L[version]
    codewords = data_codewords(payload, data_count)
    codewords += reed_solomon(codewords, ecc_count)

    size = 17 + 4 * version
    dark = [[False] * size for _ in range(size)]
    reserved = [[False] * size for _ in range(size)]

    def put(x: int, y: int, value: bool) -> None:
        dark[y][x] = value
        reserved[y][x] = True

    for i in range(size):  # timing patterns
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):  # finders with their separators
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                if 0 <= cx + dx < size and 0 <= cy + dy < size:
                    put(cx + dx, cy + dy, max(abs(dx), abs(dy)) not in (2, 4))
    if version > 1:  # one alignment pattern, bottom right
        centre = size - 7
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                put(centre + dx, centre + dy, max(abs(dx), abs(dy)) != 1)
    draw_format(put, size)

    bits = [(byte >> (7 - i)) & 1 for byte in codewords for i in range(8)]
    index = 0
    for right in range(size - 1, 0, -2):  # zigzag up and down column pairs, skipping timing
        if right <= 6:
            right -= 1
        upward = ((right + 1) & 2) == 0
        for vertical in range(size):
            y = size - 1 - vertical if upward else vertical
            for x in (right, right - 1):
                if not reserved[y][x]:
                    bit = bits[index] if index < len(bits) else 0
                    dark[y][x] = bool(bit) != ((x + y) % 2 == 0)  # mask 0
                    index += 1
    return dark


def data_codewords(payload: bytes, count: int) -> list[int]:
    bits = "0100" + f"{len(payload):08b}" + "".join(f"{byte:08b}" for byte in payload)
    bits += "0" * min(4, count * 8 - len(bits))  # terminator
    bits += "0" * (-len(bits) % 8)
    words = [int(bits[i : i + 8], 2) for i in range(0, len(bits), 8)]
    padding = (0xEC, 0x11)
    return words + [padding[i % 2] for i in range(count - len(words))]


def draw_format(put, size: int) -> None:
    data = LEVEL_L_BITS << 3  # mask 0
    remainder = data
    for _ in range(10):
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    bits = ((data << 10) | remainder) ^ 0x5412

    def bit(i: int) -> bool:
        return (bits >> i) & 1 == 1

    for i in range(6):
        put(8, i, bit(i))
    put(8, 7, bit(6))
    put(8, 8, bit(7))
    put(7, 8, bit(8))
    for i in range(9, 15):
        put(14 - i, 8, bit(i))
    for i in range(8):
        put(size - 1 - i, 8, bit(i))
    for i in range(8, 15):
        put(8, size - 15 + i, bit(i))
    put(8, size - 8, True)


def gf_multiply(x: int, y: int) -> int:
    product = 0
    for i in range(7, -1, -1):
        product = (product << 1) ^ ((product >> 7) * 0x11D)
        product ^= ((y >> i) & 1) * x
    return product


def reed_solomon(data: list[int], degree: int) -> list[int]:
    divisor = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            divisor[j] = gf_multiply(divisor[j], root)
            if j + 1 < degree:
                divisor[j] ^= divisor[j + 1]
        root = gf_multiply(root, 0x02)
    remainder = [0] * degree
    for byte in data:
        factor = byte ^ remainder.pop(0)
        remainder.append(0)
        for i, coefficient in enumerate(divisor):
            remainder[i] ^= gf_multiply(coefficient, factor)
    return remainder


def qr_text(text: str, quiet: int = 2) -> str:
    """The QR code as terminal text, two modules a character.  Light modules are drawn
    as blocks, which suits a terminal's dark background."""
    matrix = qr_matrix(text)
    size = len(matrix) + 2 * quiet

    def light(x: int, y: int) -> bool:
        inside = quiet <= x < size - quiet and quiet <= y < size - quiet
        return not (inside and matrix[y - quiet][x - quiet])

    blocks = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    lines = []
    for y in range(0, size, 2):
        lines.append("".join(blocks[light(x, y), y + 1 < size and light(x, y + 1)] for x in range(size)))
    return "\n".join(lines)
