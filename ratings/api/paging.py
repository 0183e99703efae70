"""Paging the API's lists: ``page`` and ``per_page`` (at most ``MAX_PER_PAGE``)."""

from __future__ import annotations

import math
from typing import Any

from ninja import Field, Schema
from ninja.errors import HttpError

from ..words.counts import count_phrase

PER_PAGE = 50
MAX_PER_PAGE = 500


class Paging(Schema):
    # Bounds in the schema (OpenAPI's minimum and maximum): a value outside is refused
    # with 422 before the view runs, as the description says.
    page: int = Field(1, ge=1, le=1_000_000, description="The page, from 1.")
    per_page: int = Field(
        PER_PAGE, ge=1, le=MAX_PER_PAGE, description=f"Rows a page, 1 to {MAX_PER_PAGE}."
    )


def page_of(rows: Any, paging: Paging, count: int | None = None) -> tuple[Any, dict[str, Any]]:
    """The slice of ``rows`` (a queryset or a list) for the page asked, and its place."""
    if paging.page < 1:
        raise HttpError(400, "page: pages are numbered from 1.")
    if not 1 <= paging.per_page <= MAX_PER_PAGE:
        raise HttpError(400, f"per_page: from 1 to {MAX_PER_PAGE}.")
    total = count if count is not None else (len(rows) if isinstance(rows, list) else rows.count())
    pages = max(1, math.ceil(total / paging.per_page))
    if paging.page > pages:
        raise HttpError(
            404,
            f"page: {'there is' if pages == 1 else 'there are'} {count_phrase(pages, 'page')}.",
        )
    start = (paging.page - 1) * paging.per_page
    place = {"count": total, "page": paging.page, "per_page": paging.per_page, "pages": pages}
    return rows[start : start + paging.per_page], place
