"""The ``dicescore`` command line.

Each subcommand is one small function; JSON goes to stdout, messages to stderr, and
bad input ends with a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from scoring.game import IllegalMove


def nine_dice(faces: list[str]) -> list[str]:
    """The faces of one roll of Square Shooters' nine dice, at most."""
    from scoring.faces import SQUARE_SHOOTERS

    if len(faces) > SQUARE_SHOOTERS.dice:
        raise IllegalMove(f"{len(faces)} faces: a roll shows {SQUARE_SHOOTERS.dice} dice at most")
    return faces


def hand_command(args: argparse.Namespace) -> None:
    from scoring.hands import best_hand

    hand = best_hand(nine_dice(args.faces), jokers_wild=not args.no_jokers)
    print(json.dumps(hand.to_json(), ensure_ascii=False) if args.json else str(hand))


def melds_command(args: argparse.Namespace) -> None:
    from scoring.melds import best_melds

    faces = nine_dice(args.faces)
    melds = best_melds(faces, table=args.table, jokers_wild=not args.no_jokers, wild_ranks=args.wild)
    if args.json:
        print(json.dumps(melds.to_json(), ensure_ascii=False))
    else:
        print(f"{melds} = {melds.points} points" if melds.melds else "no sets or runs: 0 points")


def replay_command(args: argparse.Namespace) -> None:
    from dicescore.ledger import parse_jsonl
    from scoring.replay import replay

    path = Path(args.log)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise IllegalMove(f"cannot read {args.log or 'an empty path'}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise IllegalMove(f"{path} is not a game log: JSON lines are text (UTF-8)") from None
    try:
        game = replay(parse_jsonl(lines))
    except IllegalMove as error:
        raise IllegalMove(f"{path}: {error}") from None
    print(json.dumps(game.view(), ensure_ascii=False, indent=2))


def games_command(args: argparse.Namespace) -> None:
    from scoring.games import GAMES

    for name, game in sorted(GAMES.items()):
        options = ", ".join(f"{key}={option.default}" for key, option in game.options_spec.items())
        print(f"{name:32} {game.title}" + (f"  [{options}]" if options else ""))


def serve_command(args: argparse.Namespace) -> None:
    from webui.serve import serve

    serve(args.host, args.port, args.db, args.source)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dicescore", description="Reads the dice on a game table and keeps the score."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    hand = commands.add_parser("hand", help="the best poker hand the faces make, e.g. AS KS QS JS 10S")
    hand.add_argument("faces", nargs="+", metavar="FACE")
    hand.add_argument("--no-jokers", action="store_true", help="jokers are not wild")
    hand.add_argument("--json", action="store_true", help="print JSON")
    hand.set_defaults(run=hand_command)

    melds = commands.add_parser("melds", help="the best rummy sets and runs the faces make")
    melds.add_argument("faces", nargs="+", metavar="FACE")
    melds.add_argument("--table", default="square-shooters", choices=("square-shooters", "rodeo-rummy"))
    melds.add_argument("--no-jokers", action="store_true", help="jokers are not wild")
    melds.add_argument("--wild", nargs="*", default=[], metavar="RANK", help="ranks that are wild, e.g. 7 8")
    melds.add_argument("--json", action="store_true", help="print JSON")
    melds.set_defaults(run=melds_command)

    replay = commands.add_parser("replay", help="replay a game exported as JSON lines; print its state")
    replay.add_argument("log", metavar="GAME.jsonl")
    replay.set_defaults(run=replay_command)

    games = commands.add_parser("games", help="list the games dicescore scores, with their options")
    games.set_defaults(run=games_command)

    serve = commands.add_parser("serve", help="the table page: a web app to play and correct games")
    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 shares it on the LAN, behind a PIN")
    serve.add_argument("--port", type=port, default=8000, help="the port to serve on (default: 8000)")
    serve.add_argument("--db", metavar="PATH", help="the games database (default: the user's data folder)")
    serve.add_argument(
        "--source",
        metavar="SRC",
        default="demo",
        help="where rolls come from: demo (the default: the built-in video of a Cubes game, or a "
        "game playing itself when the video or detector is missing), manual (dice entered on the "
        "page), ROLLS.jsonl (a recording), or a camera as for `watch`: a webcam index, a video "
        "file, an image folder, an http/rtsp URL",
    )
    serve.set_defaults(run=serve_command)

    from vision.commands import add_vision_commands

    add_vision_commands(commands)
    return parser


def port(text: str) -> int:
    """A TCP port on the command line: 1 to 65535 (a bigger number wraps round to another port)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{text}: a port is a number from 1 to 65535")
    return number


def write_unicode(stream) -> None:
    """Have ``stream`` write UTF-8 if its own encoding lacks the suits (♠♥♦♣) and the QR
    code's blocks: on Windows, output sent to a file or a pipe is cp1252, and a meld's
    clubs failed the whole command."""
    if not hasattr(stream, "reconfigure"):  # none (pythonw), or one a caller put there
        return
    try:
        "♠♥♦♣█▀▄".encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        stream.reconfigure(encoding="utf-8", errors=stream.errors)


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        write_unicode(stream)
    # OpenCV's and FFmpeg's own warnings ("moov atom not found", "can't open camera by
    # index") would sit above the one line that says what is wrong; read before cv2 loads.
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    # numpy's BLAS on one thread, set before numpy loads: comparing 9 crops with a whole card
    # set taught four views a face took 8.0 ms on BLAS's threads, against 2.7 ms on one
    # (median here, 2 cores; untaught 1.7 ms), as its threads woke beside onnxruntime's.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except ValueError as error:  # IllegalMove and UnknownFace are ValueErrors: bad input
        print(f"dicescore {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader has read enough (`dicescore watch | head -1`): no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush is quiet too
    except KeyboardInterrupt:  # Ctrl-C: how a player stops `watch`, not a crash
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
