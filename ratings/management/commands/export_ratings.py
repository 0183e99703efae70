"""export_ratings [--all]: the published list as CSV on standard output."""

from __future__ import annotations

import csv
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings import publication
from ratings.csvsafe import csv_safe_row
from ratings.models import Member

#: The 'unpublished' column's words for the rule's reasons (merged records are not listed).
UNPUBLISHED = {"no: guest": "guest", "no: in arrears": "arrears"}

COLUMNS = ["rank", "id", "name", "rating", "games", "region", "title", "fide_id", "last_played"]


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
        members = Member.objects.active() if everyone else publication.published_members()
        # The same players and order as the published list page.
        members = (
            publication.annotate(members.with_financial())
            .listable()
            .select_related("rating_state")
            .order_by("-rating_state__rating", "name")
        )
        writer = csv.writer(self.stdout, lineterminator="\n")
        writer.writerow(COLUMNS + (["unpublished"] if everyone else []))
        rank, last_rating, position = 0, None, 0
        for member in members:
            why = "" if member.is_published else UNPUBLISHED[publication.reason(member)]
            state = member.rating_state
            shown = ""
            if not why:
                # Equal ratings share a rank; the next rank skips (1, 2, 2, 4).
                position += 1
                if state.rating != last_rating:
                    rank, last_rating = position, state.rating
                shown = str(rank)
            row = [
                shown,
                member.member_number,
                member.name,
                state.display,
                state.games,
                member.region,
                member.title,
                member.fide_id,
                state.last_played.isoformat() if state.last_played else "",
            ]
            writer.writerow(csv_safe_row(row + ([why] if everyone else [])))
