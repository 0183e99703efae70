"""import_trf FILE...: each tournament report file one event, complete and rated."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.formats.tournament_files import file_size_problem, trf_event
from ratings.services.tournament_imports import FilesRefused, files_import

from .import_members import read_file


class Command(BaseCommand):
    help = (
        "Import FIDE tournament report files (TRF16, TRF-2026): each file one event, created "
        "complete and rated, its players matched to members as the web import does. Any "
        "problem in any file refuses them all, nothing saved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path, help="the TRF files")
        parser.add_argument("--dry-run", action="store_true", help="check and count only")
        parser.add_argument(
            "--duplicate-reason",
            default="",
            metavar="WHY",
            help="why games already recorded in another event are to be recorded again "
            "(kept with the event); without it such a file is refused",
        )
        parser.add_argument(
            "--date",
            type=iso_date,
            help="YYYY-MM-DD: the start date of a file that gives none (no 042 line, no "
            "round dates); a file's own date is kept",
        )
        parser.add_argument(
            "--ratings-games",
            type=int,
            metavar="N",
            help="the rated games behind the file's ratings, for the new players who start "
            "from them: needed where the club's system reads them (acf-1993, ecf-2020)",
        )
        add_place_arguments(parser)
        missing = parser.add_mutually_exclusive_group()
        missing.add_argument(
            "--create-missing",
            action="store_true",
            help="players who match no member become new members",
        )
        missing.add_argument(
            "--as-guests", action="store_true", help="players who match no member become guests"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        events, problems = [], []
        for path in options["files"]:
            if too_big := file_size_problem(str(path), file_size(path)):
                problems.append(too_big)
                continue
            event, found = trf_event(str(path), read_file(path), date=options["date"])
            problems += found
            if event is not None:
                events.append(event)
        place_given(events, options["online"])
        import_and_report(
            self,
            events,
            problems=problems,
            create_missing=options["create_missing"],
            as_guests=options["as_guests"],
            dry_run=options["dry_run"],
            ratings_games=options["ratings_games"],
            duplicate_reason=options["duplicate_reason"],
        )


def add_place_arguments(parser: CommandParser) -> None:
    """Where the files' events were played, when not as the files say (a Lichess or
    chess.com export reads as online, any other file as over the board)."""
    place = parser.add_mutually_exclusive_group()
    place.add_argument(
        "--online",
        dest="online",
        action="store_true",
        default=None,
        help="the events were played online (rated only on a list of online play the club keeps)",
    )
    place.add_argument(
        "--over-the-board",
        dest="online",
        action="store_false",
        help="the events were played over the board, whatever the files say",
    )


def place_given(events: Any, online: bool | None) -> None:
    """Each event played where the officer says (``--online``, ``--over-the-board``);
    as its file says when they say nothing."""
    if online is None:
        return
    for event in events:
        if event.online != online:
            event.notes.append(
                f"{event.source}: played {'online' if online else 'over the board'}, as "
                f"{'--online' if online else '--over-the-board'} says"
            )
        event.online = online


def import_and_report(command: BaseCommand, events: Any, **options: Any) -> None:
    """Import tournament files' events (``files_import``) and say what was done; a refusal
    is the command's error, every problem listed."""
    try:
        report = files_import(events, **options)
    except FilesRefused as refused:
        raise CommandError(str(refused)) from None
    for note in report.notes:
        command.stdout.write(note)
    command.stdout.write(command.style.SUCCESS(str(report)))


def iso_date(text: str) -> dt.date:
    """A --date value: YYYY-MM-DD, a real date, or argparse's clear refusal."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}") from None
