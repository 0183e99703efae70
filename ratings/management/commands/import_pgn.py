"""import_pgn FILE: the games of a PGN file (its headers), complete and rated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.formats.tournament_files import file_size_problem, pgn_events
from ratings.services.tournament_imports import FilesRefused

from .import_members import read_file
from .import_trf import (
    add_place_arguments,
    file_size,
    import_and_report,
    iso_date,
    place_given,
)


class Command(BaseCommand):
    help = (
        "Import the games of a PGN file from their headers (Event, Site, Date or UTCDate, "
        "Round, White, Black, Result, TimeControl, WhiteFideId/BlackFideId; a file of "
        "headers without moves too): one event per Event and Site (a Site that is each "
        "game's URL aside) unless --event names one, created complete and rated, players "
        "matched to members as the TRF import does. Games between the same two players in "
        "one round are a match, each game rated. Any problem refuses the file whole, "
        "nothing saved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the PGN file")
        parser.add_argument("--event", metavar="NAME", help="every game in this one event")
        parser.add_argument(
            "--date",
            type=iso_date,
            metavar="YYYY-MM-DD",
            help="the date of the games that give none (no Date, UTCDate or EventDate "
            "tag); a game's own date is kept, and the command says which games took it",
        )
        parser.add_argument("--dry-run", action="store_true", help="check and count only")
        add_place_arguments(parser)
        parser.add_argument(
            "--duplicate-reason",
            default="",
            metavar="WHY",
            help="why games already recorded in another event are to be recorded again "
            "(kept with the event); without it such a file is refused",
        )
        parser.add_argument(
            "--create-missing",
            action="store_true",
            help="players who match no member become new members",
        )
        parser.add_argument(
            "--ratings-games",
            type=int,
            metavar="N",
            help="the rated games behind the file's ratings, for the new players who start "
            "from them: needed where the club's system reads them (acf-1993, ecf-2020)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        if too_big := file_size_problem(str(path), file_size(path)):
            raise CommandError(str(FilesRefused([too_big])))
        events, problems = pgn_events(
            str(path), read_file(path), event_name=options["event"], date=options["date"]
        )
        place_given(events, options["online"])
        import_and_report(
            self,
            events,
            problems=problems,
            create_missing=options["create_missing"],
            dry_run=options["dry_run"],
            ratings_games=options["ratings_games"],
            duplicate_reason=options["duplicate_reason"],
        )
