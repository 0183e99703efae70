"""A table's page size and page number as a reader may type them in the address: read
tolerantly, never trusted (django-tables2 passes ``?per_page=-1`` to the paginator, which
fails on it).

A page size that is not a whole number from 1 up is the page's own size; one past
``MOST_PER_PAGE`` is that (the list's Print asks for the whole list as one page: a club's
membership is far under it). A page number that is not a whole number is the first page;
one past the end (or under 1) is the last, as django-tables2's silent paging says.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django_tables2 import RequestConfig
from django_tables2.rows import BoundRows

#: The most rows a page shows, however many are asked for: a federation's whole list, well
#: within what any database's LIMIT takes.
MOST_PER_PAGE = 100_000
#: Page numbers past this are past the end of any list (and within any database's OFFSET).
MOST_PAGES = 10_000_000


def page_size(text: str | None, *, default: int) -> int:
    """``?per_page=`` as a page size: ``default`` unless a whole number from 1 up."""
    try:
        size = int(text or "")
    except ValueError:
        return default
    if size < 1:
        return default
    return min(size, MOST_PER_PAGE)


def page_number(text: str | None) -> int:
    """``?page=`` as a page number: 1 unless a whole number; under 1 or past any list
    reads as past the end (the paginator then shows the last page)."""
    try:
        number = int(text or "1")
    except ValueError:
        return 1
    return number if 1 <= number <= MOST_PAGES else MOST_PAGES + 1


class CountedPaginator(Paginator):
    """A paginator told its count (a page that counted its rows with others, in one
    query), so it does not count them again.

    A table's page of a query is read by its keys first: the page's primary keys in the
    table's order (down the order's index, no other table joined for them), then those
    rows whole. Read whole at once, SQLite first built a Bloom filter over every member's
    rating state to join them, for a page of fifty (the officer's members page at 200,000
    members: 54 ms for its rows, 0.3 ms so)."""

    def __init__(
        self,
        object_list: Any,
        per_page: int,
        *args: Any,
        count: int,
        keys: QuerySet[Any] | None = None,
        **kwargs: Any,
    ):
        super().__init__(object_list, per_page, *args, **kwargs)
        self.__dict__["count"] = count  # Paginator.count is a cached_property
        #: The same rows with nothing else joined (the register's members without their
        #: rating state): the page's keys are read from these where the table's order is
        #: of their own columns.
        self.keys = keys

    def _keys_of(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        """The rows' keys in the table's order, the primary key last: a total order, so
        that pages neither repeat nor skip a row among ties (the register's namesakes)."""
        order = list(queryset.query.order_by) or list(queryset.model._meta.ordering)
        columns = {f.name for f in queryset.model._meta.concrete_fields} | {"pk"}
        own = all(isinstance(item, str) and item.lstrip("-") in columns for item in order)
        rows = queryset if self.keys is None or not own else self.keys
        return rows.order_by(*order, "pk")

    def page(self, number: Any) -> Any:
        queryset = getattr(getattr(self.object_list, "data", None), "data", None)
        if not isinstance(queryset, QuerySet):
            return super().page(number)
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        keys = list(self._keys_of(queryset).values_list("pk", flat=True)[bottom:top])
        found = {row.pk: row for row in queryset.order_by().filter(pk__in=keys)}
        rows = BoundRows(
            data=[found[pk] for pk in keys if pk in found],
            table=self.object_list.table,  # type: ignore[attr-defined]
            pinned_data=self.object_list.pinned_data,  # type: ignore[attr-defined]
        )
        return self._get_page(rows, number, self)  # type: ignore[attr-defined]


def table_paginate(
    request: HttpRequest,
    table: Any,
    *,
    per_page: int,
    paginator_class: Any = None,
    count: int | None = None,
    keys: Any = None,
) -> Any:
    """Configure ``table`` from the request as ``RequestConfig`` does (its order, its
    page), with the page size and number read by ``page_size`` and ``page_number``.
    ``count``: the table's rows, counted already (``CountedPaginator``); ``keys``: its
    rows with nothing joined, to read a page's keys from (``CountedPaginator``)."""
    RequestConfig(request, paginate=False).configure(table)
    options: dict[str, Any] = {
        "per_page": page_size(request.GET.get(table.prefixed_per_page_field), default=per_page)
    }
    if paginator_class is not None:
        options["paginator_class"] = paginator_class
    if count is not None:
        options.setdefault("paginator_class", CountedPaginator)
        options["count"] = count
        options["keys"] = keys
    number = page_number(request.GET.get(table.prefixed_page_field))
    try:
        table.paginate(page=number, **options)
    except PageNotAnInteger:
        table.page = table.paginator.page(1)
    except EmptyPage:
        table.page = table.paginator.page(table.paginator.num_pages)
    return table
