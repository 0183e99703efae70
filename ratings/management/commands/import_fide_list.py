"""import_fide_list FILE: FIDE's monthly rating list read for the club's members."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.formats.fide_list import KINDS
from ratings.services.fide_lists import FideListRefused, fide_list_import


def list_month(text: str) -> dt.date:
    try:
        return dt.datetime.strptime(text, "%Y-%m").date()
    except ValueError:
        raise CommandError(
            f"--month {text}: give the list's month as YYYY-MM, e.g. 2026-11"
        ) from None


class Command(BaseCommand):
    help = (
        "Read FIDE's rating list as FIDE publishes it (ratings.fide.com/download_lists.phtml, "
        "TXT or XML: players_list_foa.txt, or standard_, rapid_ or blitz_rating_list.txt, "
        "or its zip) and keep the FIDE ratings, titles and federations of the members whose "
        "FIDE id is on it. A file with any bad line is refused whole."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="FIDE's list (.txt, .xml or their .zip)")
        parser.add_argument(
            "--kind",
            choices=KINDS,
            help="which time control a single list rates, when its file name does not say",
        )
        parser.add_argument(
            "--month",
            type=list_month,
            help="the list's month (YYYY-MM) when its header does not say it (the combined "
            "list); default this month",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            stream = path.open("rb")
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}") from None
        with stream:
            try:
                report = fide_list_import(
                    stream=stream, filename=path.name, kind=options["kind"], month=options["month"]
                )
            except FideListRefused as refused:
                raise CommandError(
                    f"{path.name} was not read, nothing saved:\n" + "\n".join(refused.problems)
                ) from None
        self.stdout.write(self.style.SUCCESS(str(report)))
