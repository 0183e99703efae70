"""``python -m ratings.engine [FILE]``: rate a JSON history, print JSON (see docs/engine-cli.md)."""

from __future__ import annotations

import argparse
import json
import sys

from . import get_system
from .base import EngineError
from .io import parse_input, result_to_json


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ratings.engine",
        description="Rate a history of games given as JSON; print the ratings as JSON.",
    )
    parser.add_argument("file", nargs="?", default="-", help="input file (default: stdin)")
    parser.add_argument(
        "--no-explain",
        action="store_true",
        help="leave out the per-game breakdown of each change (smaller, faster output)",
    )
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                text = handle.read()
    except OSError as error:
        print(f"(file): cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        print(f"(document): not valid JSON: {error}", file=sys.stderr)
        return 2
    try:
        system_id, params, players, events = parse_input(document)
        result = get_system(system_id, params).rate(players, events)
    except EngineError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return 2
    out = json.dumps(
        result_to_json(result, explain=not args.no_explain),
        ensure_ascii=False,
        separators=(",", ":"),
    )
    sys.stdout.write(out)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
