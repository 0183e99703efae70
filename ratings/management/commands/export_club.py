"""export_club FILE: the whole club as one JSON document (import_club restores it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.formats.club_file import open_file
from ratings.services.club_file import club_export


class Command(BaseCommand):
    help = (
        "Write the whole club (settings, seasons, members, subscriptions, events, entries, "
        "games, rating periods, ratings, the audit trail and the accounts it names) to FILE "
        "as one JSON document; gzipped when FILE ends in .gz. import_club restores it into "
        "an empty database, SQLite or PostgreSQL. The file holds password hashes: keep it "
        "as safe as the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the document to write (.json or .json.gz)")

    def handle(self, *args: Any, **options: Any) -> None:
        with open_file(options["file"], "w") as out:
            report = club_export(out=out)
        self.stdout.write(self.style.SUCCESS(f"exported: {report}"))
