"""What the pages share: who may open them (the officer's permission), the page size, CSV."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse
from django_tables2 import Table

from .. import explain
from ..context_processors import club
from ..csvsafe import csv_safe_row
from ..models import (
    ClubSettings,
    Event,
    Member,
)

PER_PAGE = 50


def club_of(request: HttpRequest) -> ClubSettings:
    """The club's settings, read once a request (the context processor reads these too)."""
    club(request)
    return request._club_settings  # type: ignore[attr-defined,no-any-return]


def wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("_export") == "csv"


def table_csv(table: Table, filename: str) -> HttpResponse:
    """The table as the reader sees it, every row (not one page), as CSV."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in table.as_values():
        writer.writerow(csv_safe_row(row))
    return response


def is_officer(request: HttpRequest) -> bool:
    return request.user.has_perm("ratings.officer")


def officer_required(view):  # type: ignore[no-untyped-def]
    """Login first (to /accounts/login/), then the 'officer' permission (403 without it)."""
    return login_required(permission_required("ratings.officer", raise_exception=True)(view))


def published_in(event: Event) -> set[int]:
    """The players of ``event`` whose ratings the public may see (as on the published list)."""
    return set(
        Member.objects.published().filter(entries__event=event).values_list("pk", flat=True)
    )


def withhold_unpublished(request: HttpRequest, rows: list[dict[str, Any]], event: Event) -> None:
    """Members in arrears and guests played, so their names stay, but not their ratings.

    An officer sees every rating; the unpublished ones are marked. The public sees none
    of them: not their own figures, nor their rating on an opponent's game lines.
    """
    shown = published_in(event)
    officer = request.user.has_perm("ratings.officer")
    for row in rows:
        member = row["member"]
        published = member is not None and member.pk in shown
        row["unpublished"] = officer and not published
        if officer or published:
            for game in row["games"]:
                opponent = game["opponent"]
                if not officer and (opponent is None or opponent.pk not in shown):
                    # The expected score and the game's change, with the player's own
                    # rating, give the opponent's away; so would the row's total, the
                    # game's own figures and most of the breakdown (an average opponent).
                    game.update(opponent_rating=None, expected=None, change=None)
                    game["extra"] = ["–"] * len(game["extra"])
                    row["expected"] = None
                    row["breakdown"] = explain.breakdown_items(
                        row["detail"], only=explain.OWN_KEYS
                    )
            continue
        row.update(
            hidden=True,
            before=None,
            after=None,
            change=None,
            expected=None,
            games=[],
            breakdown=[],
        )
