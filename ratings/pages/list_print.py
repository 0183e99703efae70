"""A list page printed with the browser's own Print (Ctrl+P): every row its header counts.

A page of a list holds 50 rows; the browser prints what the page holds. So a page of a
list of at most ``settings.PRINT_WHOLE_LIST_ROWS`` members carries the list's other rows
too, hidden on screen and printed (``rows_for_print``: ``<tbody class="print-rest"
hidden>`` before and after the page's own rows, shown by ``@media print`` in app.css):
the sheet holds the whole list in its order, whatever the page, sort or filter.

A longer list is not carried on every view (a club of 60,000 would send 60,000 rows to
read 50): its page names the whole list to print (``data-print-whole``, the Print
button's address), which ``static/js/public.js`` loads as the browser starts printing
(``beforeprint``) and puts in place of the page's rows. Without the script, the sheet
says which members it holds and how to print them all (``_print_page_note.html``).
"""

from __future__ import annotations

import copy
from typing import Any

from django.conf import settings
from django.utils.safestring import SafeString

from ..presentation.tables import rows_html
from .fide import fide_ratings_of


def rows_for_print(table: Any) -> None:
    """Give ``table`` (a list page's, paginated) the rows before and after its page
    (``print_before``, ``print_after``: ``<tr>`` HTML), when its list has more than one
    page and at most ``PRINT_WHOLE_LIST_ROWS`` rows; else leave it as it is. The rows are
    the whole list as the Print button reads it (one page of every row: the same few
    queries however long), less the page's own members, so each member prints once."""
    page = getattr(table, "page", None)
    if page is None or table.paginator.num_pages < 2:
        return
    count = table.paginator.count
    if count > settings.PRINT_WHOLE_LIST_ROWS:
        return
    whole = copy.copy(table)
    whole.paginate(page=1, per_page=count, paginator_class=type(table.paginator))
    if isinstance(getattr(table, "fide_ratings", None), dict) and "fide" in table.columns.names():
        # The live list reads its page's FIDE ratings after paging (a publication's
        # table reads its own as it writes its rows).
        whole.fide_ratings = fide_ratings_of(
            [row.record.pk for row in whole.paginated_rows], table.time_class
        )
    shown = {row.record.pk for row in table.paginated_rows}
    start = page.start_index() - 1
    before: list[Any] = []
    after: list[Any] = []
    written = whole.page_cells()
    for index, row in enumerate(whole.paginated_rows):
        if row.record.pk not in shown:
            (before if index < start else after).append(written[index])
    table.print_before = _html(before)
    table.print_after = _html(after)


def _html(rows: list[Any]) -> SafeString | None:
    return rows_html(rows) if rows else None
