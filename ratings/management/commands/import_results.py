"""import_results FILE.csv: new events with their games, complete and rated in date order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.formats.members_csv import ImportRefused
from ratings.services.result_imports import results_import

from .import_members import read_text


class Command(BaseCommand):
    help = (
        "Import results from a CSV file with the header event,date,round,white,black,result "
        "(white and black are member ids). Each event is created complete and rated, in "
        "date order. A file with any problem is refused whole."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the CSV file")
        parser.add_argument(
            "--duplicate-reason",
            default="",
            metavar="WHY",
            help="why games already recorded in another event are to be recorded again "
            "(kept with the event); without it such a file is refused",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_text(self, options["file"])
        try:
            report = results_import(data=data, duplicate_reason=options["duplicate_reason"])
        except ImportRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(self.style.SUCCESS(str(report)))
