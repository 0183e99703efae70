"""The rating list as CSV: one writer and one set of columns for the list's download
(``/ratings/?_export=csv``: the live list, the officer's list, a publication's page) and
for ``manage.py export_ratings``.

A federation's script reads the same file from any of them: the same columns in the same
order, the same cells (the rating a number a spreadsheet can sort, its marker, acf-1993's
``p``, ecf-2020's ``P``, st-charles's ``*``, in the ``marker`` column after it; a marker
that stands for no rating yet, ``4 R``, leaves the rating blank; dates as YYYY-MM-DD), the
same rank (the member's place on the published list, ``ratings.models.ranking``). The download
keeps the reader's filters and order; the command writes every row in the list's own
order.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from ..models import Membership
from ..models.ranking import PublishedRanking
from ..rules import publication
from .csvsafe import csv_safe
from .list_row import csv_cells, csv_header, csv_reads, live_path, publication_path

#: The columns, as ``list_row.LIST_ROW`` writes them (the README names them).
COLUMNS = tuple(csv_header())
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

#: What the officer's ``unpublished`` column and the rank read besides the columns.
_LISTED = ("unrated", "rating_value", "merged_into_id", "is_guest", "is_financial")


def list_csv_header(*, everyone: bool) -> list[str]:
    return [*csv_header(), *([UNPUBLISHED_COLUMN] if everyone else [])]


def list_csv_rows(
    members: Any, *, everyone: bool, ranking: PublishedRanking | None = None
) -> Iterator[list[Any]]:
    """Each listed member's row, read in chunks straight from ``members`` (a
    ``listing.with_ratings`` query read with ``is_financial``), in its order; each cell as
    written, made safe for a spreadsheet."""
    ranking = ranking or PublishedRanking()
    reads = [name for name in csv_reads() if name != "rank"]
    paths = [live_path(name) for name in reads]
    rows = members.values_list(*paths, *_LISTED).iterator(chunk_size=2000)
    cells_of = csv_cells()
    for values in rows:
        row = dict(zip(reads, values, strict=False))
        unrated, rating, merged, guest, financial = values[len(reads) :]
        reason = publication.reason_of(merged=bool(merged), guest=guest, financial=financial)
        published = reason == "published"
        row["rank"] = ranking.rank(rating) if published and not unrated else ""
        cells = cells_of(row)
        if everyone:
            cells.append("" if published else UNPUBLISHED.get(reason, reason))
        yield ["" if cell is None else csv_safe(cell) for cell in cells]


def publication_csv_rows(entries: Any) -> Iterator[list[Any]]:
    """A publication's rows (its ``PublicationEntry`` rows, as filtered) in the list's
    columns: the rating, games and last game as published, the member's details today."""
    reads = csv_reads()
    paths = [publication_path(name) for name in reads]
    cells_of = csv_cells()
    for values in entries.values_list(*paths).iterator(chunk_size=2000):
        row = dict(zip(reads, values, strict=True))
        yield ["" if cell is None else csv_safe(cell) for cell in cells_of(row)]


def list_csv_writer(out: Any) -> Any:
    return csv.writer(out, lineterminator=LINE_END)
