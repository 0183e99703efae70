"""import_club FILE: restore a club written by export_club into an empty database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.formats.club_file import ClubFileRefused, club_read, open_file
from ratings.services.club_file import club_import


class Command(BaseCommand):
    help = (
        "Restore the club from a document written by export_club, into an EMPTY database "
        "(SQLite or PostgreSQL: run manage.py migrate first). Every row is loaded as "
        "written; then every event is re-rated from the games and the ratings must come "
        "out equal to the document's. Any problem: nothing saved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the document (.json or .json.gz)")
        parser.add_argument(
            "--no-check",
            action="store_true",
            help="do not re-rate to check the ratings (quicker on a long history)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]

        def progress(message: str) -> None:
            if options["verbosity"] > 1:
                self.stderr.write(message)

        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            with open_file(path, "r") as source:
                document = club_read(source=source)
            report = club_import(
                document=document,
                check=not options["no_check"],
                progress=lambda message: (
                    self.stderr.write(message) if options["verbosity"] > 1 else None
                ),
            )
        except ClubFileRefused as refused:
            raise CommandError(f"{path}: {refused}") from None
        self.stdout.write(self.style.SUCCESS(f"imported: {report}"))
