"""export_ratings [--all]: the published list as CSV on standard output."""

from __future__ import annotations

import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.formats.list_csv import list_csv_header, list_csv_rows, list_csv_writer
from ratings.models import Member, listing


class Command(BaseCommand):
    help = (
        "Write the published list as CSV on standard output. --all adds the rated players "
        "who are not published (arrears, guests), marked in an 'unpublished' column."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--all",
            action="store_true",
            help="also list members in arrears and guests, saying why they are unpublished",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self._export(everyone=options["all"])
            self.stdout.flush()
        except BrokenPipeError:
            # The reader stopped reading (`export_ratings | head`): nothing is wrong, and
            # nothing more is wanted. Say nothing, and point stdout at /dev/null so that
            # Python's own flush on the way out does not complain of the pipe either.
            if getattr(self.stdout, "_out", None) is sys.stdout and sys.stdout is not None:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)

    def _export(self, *, everyone: bool) -> None:
        # The same players, order, columns and ranks as the list's download (``list_csv``).
        members = (
            Member.objects.active().with_financial() if everyone else Member.objects.published()
        )
        writer = list_csv_writer(self.stdout)
        writer.writerow(list_csv_header(everyone=everyone))
        for row in list_csv_rows(listing.with_ratings(members, ranked=False), everyone=everyone):
            writer.writerow(row)
