"""The training scripts' shared choice of where to train, and how their recipes name it."""

from __future__ import annotations

import argparse

import torch


def add_device_arguments(parser: argparse.ArgumentParser, card_module: str) -> None:
    """``--device`` (cpu, or cuda where a GPU is lent) and ``--no-card`` (export only: the
    card is written afterwards by ``python -m card_module``, on any machine)."""
    parser.add_argument(
        "--device",
        default="cpu",
        help="where the network trains: cpu, or cuda when a GPU is there (none is needed)",
    )
    parser.add_argument(
        "--no-card",
        action="store_true",
        help=f"export only; write the card later with python -m {card_module} (after training elsewhere)",
    )


def device_name(device: str) -> str:
    """The GPU's name for a recipe, or "cpu"."""
    return torch.cuda.get_device_name() if device.startswith("cuda") else "cpu"
