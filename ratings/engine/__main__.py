"""``python -m ratings.engine [FILE]``: rate a JSON history, print JSON (docs/engine-io.md).

Exit status 0 with the result on standard output; 2 on bad input, with nothing on standard
output and one line per problem on standard error; never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from . import get_system
from .base import EngineError
from .io import load_document, parse_input, write_output

#: Exit status for input the engine cannot rate.
BAD_INPUT = 2
#: Exit status for a fault of the engine itself (a bug): still one line, no traceback.
INTERNAL_ERROR = 1


def _problem(line: str) -> None:
    sys.stderr.write(line.replace("\n", " ") + "\n")


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as handle:
        return handle.read()


def run(argv: list[str] | None = None, *, exit_at_once: bool = False) -> int:
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
    # A short-lived process building millions of acyclic objects: the cycle collector
    # would only walk them again and again (a fifth of the run time on big inputs).
    gc.disable()
    try:
        text = _read(args.file)
    except OSError as error:
        _problem(f"(file): cannot read {args.file}: {error.strerror or error}")
        return BAD_INPUT
    try:
        document = load_document(text)
    except RecursionError:
        _problem("(document): not valid JSON: nested too deeply")
        return BAD_INPUT
    except (ValueError, UnicodeDecodeError) as error:
        _problem(f"(document): not valid JSON: {error}")
        return BAD_INPUT
    del text
    # On an error standard output stays empty: nothing is written before the rating ends.
    try:
        system_id, params, players, events = parse_input(document)
        del document
        result = get_system(system_id, params).rate(players, events)
    except EngineError as error:
        for problem in error.problems:
            _problem(problem)
        return BAD_INPUT
    out = sys.stdout.buffer
    write_output(result, out, explain=not args.no_explain)
    out.write(b"\n")
    out.flush()
    if exit_at_once:
        # Freeing millions of objects one by one (when ``run`` returns, and again at
        # interpreter exit) takes seconds on a big history and serves nobody.
        sys.stderr.flush()
        os._exit(0)
    return 0


def main(argv: list[str] | None = None, *, exit_at_once: bool = False) -> int:
    """The command line; with ``exit_at_once``, a success ends the process there and then."""
    try:
        return run(argv, exit_at_once=exit_at_once)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours; keep Python quiet at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return INTERNAL_ERROR
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        _problem("(engine): input nested too deeply to rate")
        return BAD_INPUT
    except Exception as error:  # a bug: still no traceback, one line naming it
        _problem(f"(engine): internal error: {type(error).__name__}: {error}")
        return INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main(exit_at_once=True))
