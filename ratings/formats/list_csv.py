"""The rating list as CSV: one writer and one set of columns for the list's download
(``/ratings/?_export=csv``: the live list, the officer's list, a publication's page) and
for ``manage.py export_ratings``.

A federation's script reads the same file from any of them: the same columns in the same
order, the same cells (the rating a number a spreadsheet can sort, its marker, acf-1993's
``p``, ecf-2020's ``P``, st-charles's ``*``, in the ``marker`` column after it; a marker
that stands for no rating yet, ``4 R``, leaves the rating blank; dates as YYYY-MM-DD), the
same rank (the member's place on the published list, ``ratings.rules.ranking``). The download
keeps the reader's filters and order; the command writes every row in the list's own
order.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from ..models import Membership
from ..presentation.figures import rating_and_marker
from ..rules import publication
from ..rules.ranking import PublishedRanking
from .csvsafe import csv_safe

COLUMNS = (
    "rank",
    "id",
    "name",
    "rating",
    "marker",
    "games",
    "region",
    "title",
    "fide_id",
    "last_played",
)
#: The last column of the list of everyone rated (``--all``, the officer's list).
UNPUBLISHED_COLUMN = "unpublished"
#: The 'unpublished' column's words for the rule's reasons.
UNPUBLISHED = {
    publication.reason_of(merged=False, guest=True, financial=False): Membership.GUEST.value,
    publication.reason_of(merged=False, guest=False, financial=False): Membership.ARREARS.value,
    publication.MERGED: "merged",
}
#: Both write lines as the command always has (a spreadsheet reads either ending).
LINE_END = "\n"

_FIELDS = (
    "unrated",
    "rating_value",
    "member_number",
    "name",
    "rating_state__display",
    "rating_state__games",
    "region",
    "title",
    "fide_id",
    "rating_state__last_played",
    "merged_into_id",
    "is_guest",
    "is_financial",
)


def list_csv_header(*, everyone: bool) -> list[str]:
    return [*COLUMNS, *([UNPUBLISHED_COLUMN] if everyone else [])]


def list_csv_rows(
    members: Any, *, everyone: bool, ranking: PublishedRanking | None = None
) -> Iterator[list[Any]]:
    """Each listed member's row, read in chunks straight from ``members`` (a
    ``reports.with_ratings`` query read with ``is_financial``), in its order; each cell as
    written, made safe for a spreadsheet."""
    ranking = ranking or PublishedRanking()
    rows = members.values_list(*_FIELDS).iterator(chunk_size=2000)
    for unrated, rating, number, name, display, games, region, title, fide, played, *why in rows:
        merged, guest, financial = why
        reason = publication.reason_of(merged=bool(merged), guest=guest, financial=financial)
        published = reason == "published"
        rank = ranking.rank(rating) if published and not unrated else ""
        row = _row(rank, number, name, display, games, region, title, fide, played)
        if everyone:
            row.append("" if published else UNPUBLISHED.get(reason, reason))
        yield ["" if cell is None else csv_safe(cell) for cell in row]


def publication_csv_rows(entries: Any) -> Iterator[list[Any]]:
    """A publication's rows (its ``PublicationEntry`` rows, as filtered) in the list's
    columns: the rating, games and last game as published, the member's details today."""
    rows = entries.values_list(
        "rank",
        "member__member_number",
        "member__name",
        "display",
        "games",
        "member__region",
        "member__title",
        "member__fide_id",
        "last_played",
    ).iterator(chunk_size=2000)
    for row in rows:
        yield ["" if cell is None else csv_safe(cell) for cell in _row(*row)]


def _row(
    rank: Any,
    number: str,
    name: str,
    display: str | None,
    games: Any,
    region: str,
    title: str,
    fide: str,
    played: Any,
) -> list[Any]:
    """One row in ``COLUMNS``: the rating as a number and its marker apart."""
    rating, marker = rating_and_marker(display)
    return [
        rank,
        number,
        name,
        rating,
        marker,
        games,
        region,
        title,
        fide,
        played.isoformat() if played else "",
    ]


def list_csv_writer(out: Any) -> Any:
    return csv.writer(out, lineterminator=LINE_END)
