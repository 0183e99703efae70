"""``python -m ratings.engine [FILE]``: rate a JSON history, print JSON (docs/engine-io.md).

Exit status 0 with the result on standard output; 2 on bad input, with nothing on standard
output and one line per problem on standard error; never a traceback.

``main`` is the whole command line and can be called in-process with byte streams in
place of the process's (the tests do: a Python start per case cost them half a minute);
what it writes to them, bytes and exit status, is what the process gives.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import IO, TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from . import get_system
from .base import EngineError
from .io import load_document, parse_input, write_output

#: Exit status for input the engine cannot rate.
BAD_INPUT = 2
#: Exit status for a fault of the engine itself (a bug): still one line, no traceback.
INTERNAL_ERROR = 1


class _Streams:
    """Standard input, output and error as bytes: the process's or a caller's."""

    def __init__(
        self, stdin: IO[bytes] | None, stdout: IO[bytes] | None, stderr: IO[bytes] | None
    ) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin.buffer
        self.stdout = stdout if stdout is not None else sys.stdout.buffer
        self.stderr = stderr if stderr is not None else sys.stderr.buffer

    def problem(self, line: str) -> None:
        # UTF-8, a lone surrogate (from a "\ud800" escape in an id) written as \ud800:
        # what Python's own standard error does under this project's locales.
        self.stderr.write((line.replace("\n", " ") + "\n").encode("utf-8", "backslashreplace"))
        self.stderr.flush()


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse writing its help and usage errors to the given streams, not ``sys``'s."""

    def __init__(self, streams: _Streams, *, prog: str, description: str) -> None:
        super().__init__(prog=prog, description=description)
        self._streams = streams

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            out = self._streams.stdout if file is sys.stdout else self._streams.stderr
            out.write(message.encode("utf-8", "backslashreplace"))
            out.flush()

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._print_message(message, sys.stderr)
        raise _Exit(status)


def _read(name: str, streams: _Streams) -> bytes:
    if name == "-":
        return streams.stdin.read()
    with open(name, "rb") as handle:
        return handle.read()


def run(streams: _Streams, argv: list[str] | None = None, *, exit_at_once: bool = False) -> int:
    parser = _Parser(
        streams,
        prog="python -m ratings.engine",
        description="Rate a history of games given as JSON; print the ratings as JSON.",
    )
    parser.add_argument("file", nargs="?", default="-", help="input file (default: stdin)")
    parser.add_argument(
        "--no-explain",
        action="store_true",
        help="leave out the per-game breakdown of each change (smaller, faster output)",
    )
    try:
        args = parser.parse_args(argv)
    except _Exit as done:
        return done.status
    try:
        text = _read(args.file, streams)
    except OSError as error:
        streams.problem(f"(file): cannot read {args.file}: {error.strerror or error}")
        return BAD_INPUT
    try:
        document = load_document(text)
    except RecursionError:
        streams.problem("(document): not valid JSON: nested too deeply")
        return BAD_INPUT
    except (ValueError, UnicodeDecodeError) as error:
        streams.problem(f"(document): not valid JSON: {error}")
        return BAD_INPUT
    del text
    # On an error standard output stays empty: nothing is written before the rating ends.
    try:
        system_id, params, players, events = parse_input(document)
        del document
        result = get_system(system_id, params).rate(players, events)
    except EngineError as error:
        for problem in error.problems:
            streams.problem(problem)
        return BAD_INPUT
    out = streams.stdout
    write_output(result, out, explain=not args.no_explain)
    out.write(b"\n")
    out.flush()
    if exit_at_once:
        # Freeing millions of objects one by one (when ``run`` returns, and again at
        # interpreter exit) takes seconds on a big history and serves nobody.
        streams.stderr.flush()
        os._exit(0)
    return 0


def main(
    argv: list[str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[bytes] | None = None,
    *,
    exit_at_once: bool = False,
) -> int:
    """The command line, reading and writing bytes (the process's standard streams unless
    given); with ``exit_at_once``, a success ends the process there and then."""
    streams = _Streams(stdin, stdout, stderr)
    # A run building millions of acyclic objects: the cycle collector would only walk
    # them again and again (a fifth of the run time on big inputs). Put back after, for
    # a caller in the same process.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return run(streams, argv, exit_at_once=exit_at_once)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours; keep Python quiet at exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, streams.stdout.fileno())
        except (OSError, ValueError):  # a caller's stream in memory has no descriptor
            pass
        return INTERNAL_ERROR
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        streams.problem("(engine): input nested too deeply to rate")
        return BAD_INPUT
    except Exception as error:  # a bug: still no traceback, one line naming it
        streams.problem(f"(engine): internal error: {type(error).__name__}: {error}")
        return INTERNAL_ERROR
    finally:
        if collecting:
            gc.enable()


if __name__ == "__main__":
    sys.exit(main(exit_at_once=True))
