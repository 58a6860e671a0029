import cv2
import numpy as np
import pytest

from webui.qr import qr_matrix, qr_text


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
