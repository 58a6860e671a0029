"""The metadata an exported ONNX model carries: its labels, sizes and training recipe."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import onnx


def metadata_of(path: Path) -> dict[str, str]:
    """An ONNX file's metadata, key by key."""
    return {entry.key: entry.value for entry in onnx.load(str(path)).metadata_props}


def recipe_of(path: Path) -> dict[str, Any]:
    """The training recipe an exported model carries in its metadata ({} if none)."""
    return json.loads(metadata_of(path).get("recipe", "{}"))


def set_metadata(proto: onnx.ModelProto, metadata: Mapping[str, Any]) -> None:
    """Replace ``proto``'s metadata with ``metadata`` (each value as text)."""
    del proto.metadata_props[:]
    for key, value in metadata.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, str(value)
