"""Real playing-card designs: the card faces of the decks Debian's card games ship.

    python -m datasets.card_decks    # into data/card-decks/<deck>/<label>.png; a deck made before is kept

Issue 4 judges the face model on real photographs of card corners, printed in real decks'
type, which no font the renderer draws is. These are the artwork of real decks (Paris,
Dondorf, Berlin, Rheinland, Bellot and other historic French-suited patterns, and modern
designs), drawn as vector files for GNOME's Aisleriot (gnome-cards-data, aisleriot) and
KDE's card games (kdegames-card-data-kf5); and the web's common designs, as npm packages
ship them one file a card (``PACKED_DECKS``: Chris Aguilar's vectorized cards, and a
jumbo-index poker design, its index half the card tall). Each card is rasterised with
``rsvg-convert`` (Debian's librsvg2-bin; a tool for making this data, not a dependency of
dicescore; ``npm`` fetches the packages) to ``CARD_HEIGHT`` px and kept with its transparent
rounded corners, so that a photo can be laid out on any table.

The decks are split whole, so that what is measured is a design never trained on:
``TEST_DECKS`` are read by ``benchmarks/bench_real_decks.py``, the rest may be trained on
(``python -m models.train_faces --decks``). They are not committed: they are those packages'
own.

``index_box(card)`` finds a card's top-left index (rank over suit) by its ink, where a
photo crop of the corner is centred.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from datasets.faces.photos import CARD_LABELS, PHOTO, photo_crop

FOLDER = Path("data/card-decks")
CARD_HEIGHT = 600  # px of a rasterised card
PACKAGES = {
    "gnome-cards-data": "usr/share/aisleriot/cards",
    "aisleriot": "usr/share/aisleriot/cards",
    "kdegames-card-data-kf5": "usr/share/carddecks",
}
# Left out: not French-suited (German and Swiss suits, tarot trumps), a skat deck of 7s and
# up, courts indexed other than K, Q, J (a French deck's R, D, V; German B and D; Russian
# letters), an index of the rank alone, which cannot tell a 3 of hearts from one of
# diamonds, and corners with no rank over suit (Oxygen's, Future's).
LEFT_OUT = {
    *("xskat-german", "tarocco", "swiss-xvii", "atlasnye_skat", "ancient_french"),
    *("lattmann", "berlin", "rheinland", "slavic_costumes", "tango_nuevo"),
    *("oxygen", "oxygen-air", "oxygen-white", "future"),
}
# Held out from training, each with its variants: old and new designs, light and heavy type.
TEST_DECKS = {
    *("paris", "kde-gm-paris", "anglo_poker", "neoclassical", "neoclassical_4_color"),
    *("plastic", "simplistic", "kde-jolly-royal"),
    *("web-free-2color", "web-free-4color", "web-free-2color-jumbo", "web-free-4color-jumbo"),
}
RANKS = {"A": ["1", "ace"], "J": ["jack"], "Q": ["queen"], "K": ["king"]}
SUITS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
SVG_ID = re.compile(rb'id="([^"]+)"')


@dataclass(frozen=True)
class PackedDeck:
    """A deck an npm package ships as one image file a card."""

    package: str  # name@version, pinned, so that the same cards are measured each time
    card_file: str  # where a card lies in the package, with {rank} and {suit}
    ranks: dict[str, str] = field(default_factory=dict)  # a rank's name in the files, where not the label's
    lower_suit: bool = False  # "s", not "S"
    jumbo: bool = False  # the index is half the card tall (``index_box``)

    def card_path(self, label: str) -> str:
        rank, suit = label[:-1], label[-1]
        return self.card_file.format(
            rank=self.ranks.get(rank, rank), suit=suit.lower() if self.lower_suit else suit
        )


FREE_CARDS = "react-free-playing-cards@0.4.2"  # one design, two- and four-colour, jumbo or not
PACKED_DECKS = {
    "web-free-2color": PackedDeck(FREE_CARDS, "src/images/2color/{rank}{suit}.svg", {"10": "T"}),
    "web-free-4color": PackedDeck(FREE_CARDS, "src/images/4color/{rank}{suit}.svg", {"10": "T"}),
    "web-free-2color-jumbo": PackedDeck(
        FREE_CARDS, "src/images/2color-bf/{rank}{suit}.svg", {"10": "T"}, jumbo=True
    ),
    "web-free-4color-jumbo": PackedDeck(
        FREE_CARDS, "src/images/4color-bf/{rank}{suit}.svg", {"10": "T"}, jumbo=True
    ),
    "web-aguilar": PackedDeck(
        "@younestouati/playing-cards-standard-deck@3.0.0",
        "cards/{rank}{suit}.svg",
        {"A": "1", "J": "11", "Q": "12", "K": "13"},
        lower_suit=True,
    ),
    "web-casino": PackedDeck("react-casino@0.2.6", "dist/assets/png/cards/{rank}{suit}.png", {"10": "T"}),
}


def card_ids(label: str) -> list[str]:
    """The element ids a deck's vector file may give ``label``'s card (a joker has no index)."""
    rank, suit = label[:-1], SUITS[label[-1]]
    names = RANKS.get(rank, [rank])
    return [f"{suit}_{name}" for name in names] + [f"{name}_{suit}" for name in names]


def rasterise(svg: Path, element: str | None = None, zoom: float = 1.0) -> np.ndarray | None:
    """``svg`` (or only its ``element``) drawn at ``zoom`` as BGRA, from the document's
    origin; None where rsvg-convert cannot draw it (an id inside a definition, say)."""
    command = ["rsvg-convert", "-z", f"{zoom:.4f}", str(svg)]
    if element:
        command[1:1] = ["-i", element]
    drawn = subprocess.run(command, capture_output=True)
    if drawn.returncode != 0:
        return None
    image = cv2.imdecode(np.frombuffer(drawn.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    return image if image.shape[2] == 4 else cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)


def opaque_box(bgra: np.ndarray | None) -> tuple[int, int, int, int] | None:
    """x0, y0, x1, y1 of the pixels ``bgra`` draws, or None."""
    if bgra is None:
        return None
    ys, xs = np.nonzero(bgra[..., 3] > 8)
    return None if len(xs) == 0 else (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)


def deck_cards(svg: Path) -> dict[str, np.ndarray]:
    """Each card ``svg`` draws, by label, as BGRA ``CARD_HEIGHT`` px tall.

    Each card's element is drawn alone and cut to what it draws: where an element lands
    on the page depends on how the file transforms it, which differs between decks."""
    known = set(m.decode() for m in SVG_ID.findall(svg.read_bytes()))
    elements = {}
    for label in CARD_LABELS:
        element = next((name for name in card_ids(label) if name in known), None)
        if element:
            elements[label] = element
    if len(elements) < 40:  # not a French deck of its own
        return {}
    boxes = [opaque_box(rasterise(svg, element)) for element in list(elements.values())[:5]]
    heights = [y1 - y0 for _, y0, _, y1 in filter(None, boxes)]
    if not heights:
        return {}
    zoom = DRAWN_LARGER * CARD_HEIGHT / np.median(heights)
    cards = {}
    for label, element in elements.items():
        card = at_card_height(rasterise(svg, element, zoom))
        if card is not None:
            cards[label] = card
    return cards


DRAWN_LARGER = 1.2  # a card is drawn a little larger than kept, then shrunk: sharp edges


def at_card_height(drawn: np.ndarray | None) -> np.ndarray | None:
    """What ``drawn`` (BGRA) draws, cut to it and scaled to ``CARD_HEIGHT``; None where that
    is under half a card's height: too small to make a sharp card, or not a card."""
    box = opaque_box(drawn)
    if not box or box[3] - box[1] <= CARD_HEIGHT / 2:
        return None
    card = drawn[box[1] : box[3], box[0] : box[2]]
    size = (round(card.shape[1] * CARD_HEIGHT / card.shape[0]), CARD_HEIGHT)
    return cv2.resize(card, size, interpolation=cv2.INTER_AREA)


def packed_deck_cards(root: Path, deck: PackedDeck) -> dict[str, np.ndarray]:
    """Each card of ``deck``, unpacked at ``root``, by label, as BGRA ``CARD_HEIGHT`` px tall."""
    cards = {}
    for label in CARD_LABELS:
        path = root / deck.card_path(label)
        if path.suffix == ".svg":
            box = opaque_box(rasterise(path))
            drawn = rasterise(path, zoom=DRAWN_LARGER * CARD_HEIGHT / (box[3] - box[1])) if box else None
        else:  # a picture too small for a sharp card (a 76-px one) is left out by at_card_height
            drawn = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if drawn is not None and drawn.shape[2] == 3:
                drawn = cv2.cvtColor(drawn, cv2.COLOR_BGR2BGRA)
        card = at_card_height(drawn)
        if card is not None:
            cards[label] = card
    return cards


def index_box(card: np.ndarray, jumbo: bool = False) -> tuple[float, float, float] | None:
    """The centre x, y and height of ``card``'s top-left index (rank over suit), found as
    the column of ink nearest the corner; None where no such column stands apart.  A
    ``jumbo`` index (poker decks') is sought further down and may be taller: at the usual
    reach its rank is too tall to be a part of an index, and its suit alone is found."""
    # how far down and across the corner reaches, and a part's greatest width and height
    reach, across, part_width, part_height = (0.5, 0.3, 0.25, 0.3) if jumbo else (0.32, 0.22, 0.2, 0.2)
    height, width = card.shape[:2]
    left_margin = card[height // 3 : 2 * height // 3, width // 20 : width // 8, :3]
    paper = np.median(left_margin.reshape(-1, 3), axis=0)
    ink = (np.abs(card[..., :3].astype(np.int16) - paper).max(axis=2) > 70) & (card[..., 3] > 128)
    # the corner, inside the card's edge and its printed border line
    margin = int(0.03 * width)
    corner = np.zeros_like(ink)
    inside = np.s_[margin : int(reach * height), margin : int(across * width)]
    corner[inside] = ink[inside]
    _, _, stats, _ = cv2.connectedComponentsWithStats(corner.astype(np.uint8), connectivity=8)
    parts = [
        (x, y, w, h)
        for x, y, w, h, area in stats[1:]
        if area > 0.0004 * width * height
        and w < part_width * width
        and h < part_height * height
        and max(w, h) < 12 * min(w, h)
    ]
    if not parts:
        return None
    # the index starts with the part nearest the corner, and takes in what lies below it
    x, y, w, h = min(parts, key=lambda p: p[0] + p[1])
    x0, y0, x1, y1 = x, y, x + w, y + h
    for px, py, pw, ph in sorted(parts, key=lambda p: p[1]):
        overlaps = min(x1, px + pw) - max(x0, px) > 0.3 * min(pw, x1 - x0)
        if overlaps and py >= y0 and py - y1 < 0.5 * (y1 - y0):
            x0, y0, x1, y1 = min(x0, px), min(y0, py), max(x1, px + pw), max(y1, py + ph)
    return (x0 + x1) / 2, (y0 + y1) / 2, float(y1 - y0)


def deck_name(svg: Path, package: str) -> str:
    name = svg.name.removesuffix(".svgz")
    return f"kde-{svg.parent.name.removeprefix('svg-')}" if package.startswith("kdegames") else name


def fetch(folder: Path = FOLDER) -> list[str]:
    """Every deck's cards into ``folder``/<deck>/<label>.png, with index.json of where each
    card's index lies; the decks made."""
    made = []
    with tempfile.TemporaryDirectory() as debs:
        for package, inside in PACKAGES.items():
            subprocess.run(["apt-get", "download", "-q", package], cwd=debs, check=True, capture_output=True)
            (deb,) = Path(debs).glob(f"{package}_*.deb")
            unpacked = Path(debs) / package
            subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
            for packed in sorted((unpacked / inside).rglob("*.svgz")):
                name = deck_name(packed, package)
                skip = not name.isascii() or name.removeprefix("kde-") in LEFT_OUT
                if skip or (folder / name / "index.json").exists():  # left out, or made before
                    continue
                svg = Path(debs) / f"{name}.svg"
                svg.write_bytes(gzip.decompress(packed.read_bytes()))
                cards = deck_cards(svg)
                if not cards:
                    continue
                found = save_deck(folder / name, cards)
                made.append(name)
                print(f"{name}: {len(cards)} cards, {found} indexes found", flush=True)
    return made


def save_deck(folder: Path, cards: dict[str, np.ndarray], jumbo: bool = False) -> int:
    """``cards`` into ``folder``/<label>.png, with index.json of where each card's index
    lies; how many indexes were found."""
    folder.mkdir(parents=True, exist_ok=True)
    indexes = {}
    for label, card in cards.items():
        cv2.imwrite(str(folder / f"{label}.png"), card)
        found = index_box(card, jumbo)
        if found:
            indexes[label] = found
    (folder / "index.json").write_text(json.dumps(indexes, indent=0))
    return len(indexes)


def fetch_packed(folder: Path = FOLDER) -> list[str]:
    """Every deck of ``PACKED_DECKS`` not made before into ``folder``, as ``fetch``; the
    decks made (none where npm is not installed)."""
    wanted = {
        name: deck for name, deck in PACKED_DECKS.items() if not (folder / name / "index.json").exists()
    }
    if wanted and not shutil.which("npm"):
        print(f"npm is not installed: {', '.join(wanted)} left out")
        return []
    made = []
    with tempfile.TemporaryDirectory() as packs:
        for package in sorted({deck.package for deck in wanted.values()}):
            packed = subprocess.run(
                ["npm", "pack", "--silent", package], cwd=packs, check=True, capture_output=True, text=True
            )
            with tarfile.open(Path(packs) / packed.stdout.split()[-1]) as tar:
                tar.extractall(Path(packs) / package, filter="data")
        for name, deck in wanted.items():
            cards = packed_deck_cards(Path(packs) / deck.package / "package", deck)
            found = save_deck(folder / name, cards, deck.jumbo)
            made.append(name)
            print(f"{name}: {len(cards)} cards, {found} indexes found", flush=True)
    return made


def load_deck(folder: Path) -> list[tuple[str, np.ndarray, tuple[float, float, float]]]:
    """A fetched deck's cards whose index was found: (label, BGRA card, index centre x, y and height)."""
    indexes = json.loads((folder / "index.json").read_text())
    return [
        (label, cv2.imread(str(folder / f"{label}.png"), cv2.IMREAD_UNCHANGED), tuple(box))
        for label, box in sorted(indexes.items())
    ]


def laid_on_table(rng: np.random.Generator, card: np.ndarray, index: tuple[float, float, float]):
    """``card`` (BGRA) on a plain table, scaled so that its index is 70-110 px tall and lies
    near the middle of a ``PHOTO`` px float BGR picture; the picture, the index's centre and
    its height."""
    x, y, height = index
    scale = rng.uniform(70, 110) / height
    card = cv2.resize(card, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    centre = np.array([PHOTO / 2, PHOTO / 2]) + rng.uniform(-20, 20, 2)
    left, top = (centre - np.array([x, y]) * scale).astype(int)
    picture = np.empty((PHOTO, PHOTO, 3), np.float32)
    picture[:] = rng.uniform(0.05, 0.7, 3)  # the table
    # the part of the card that falls inside the picture
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(PHOTO, left + card.shape[1]), min(PHOTO, top + card.shape[0])
    piece = card[y0 - top : y1 - top, x0 - left : x1 - left]
    paper = rng.uniform(0.85, 1.0) * np.array([rng.uniform(0.9, 1.0), rng.uniform(0.96, 1.0), 1.0])
    alpha = piece[..., 3:]
    picture[y0:y1, x0:x1] = picture[y0:y1, x0:x1] * (1 - alpha) + piece[..., :3] * paper * alpha
    return picture, (float(centre[0]), float(centre[1])), height * scale


def corner_crops(decks: list[Path], seed: int, tightness: float):
    """One crop of every card of ``decks`` at ``tightness``; the crops, labels and decks."""
    crops, labels, names = [], [], []
    for d, folder in enumerate(decks):
        for c, (label, card, index) in enumerate(load_deck(folder)):
            card_rng = np.random.default_rng([seed, d, c])
            picture, centre, height = laid_on_table(card_rng, card, index)
            crop_rng = np.random.default_rng([seed, d, c, round(tightness * 100)])
            crops.append(photo_crop(crop_rng, picture, centre, height, tightness))
            labels.append(label)
            names.append(folder.name)
    return crops, labels, names


def fetched_decks(folder: Path, split: str) -> list[Path]:
    """The decks fetched into ``folder`` (none where it is not there) of ``split``: "test"
    (``TEST_DECKS``), "train" (the rest) or "all", in name order."""
    decks = sorted(p for p in folder.glob("*") if (p / "index.json").exists())
    return [p for p in decks if split == "all" or (p.name in TEST_DECKS) == (split == "test")]


def deck_names(folder: Path) -> list[str]:
    """The fetched decks in ``folder`` that may be trained on."""
    return [deck.name for deck in fetched_decks(folder, "train")]


def training_corners(folder: Path, copies: int, seed: int) -> tuple[list[np.ndarray], list[str]]:
    """``copies`` corner crops of every card of the decks in ``folder`` not held out for
    testing, each at a tightness drawn from 1.0 to 3.5 (a little beyond the benchmark's
    1.1 to 3.2); the crops and labels."""
    decks = fetched_decks(folder, "train")
    if not decks:
        raise SystemExit(f"no training decks in {folder}: run python -m datasets.card_decks")
    crops, labels = [], []
    for d, deck in enumerate(decks):
        for c, (label, card, index) in enumerate(load_deck(deck)):
            for copy in range(copies):
                rng = np.random.default_rng([seed, d, c, copy])
                picture, centre, height = laid_on_table(rng, card, index)
                crops.append(photo_crop(rng, picture, centre, height, rng.uniform(1.0, 3.5)))
                labels.append(label)
    return crops, labels


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER)
    args = parser.parse_args(argv)
    made = fetch(args.folder) + fetch_packed(args.folder)
    print(f"{len(made)} decks in {args.folder}")


if __name__ == "__main__":
    main()
