"""The officer's register (the members page) read a page at a time, whatever the club's
size: the members matching the search and the membership filter, in the table's order,
the page's rows' standing today asked of each as they are read; the filters' counts kept
with the published lists' figures (or, for a search, counted in one query).

Nothing here reads every member into Python: the page's rows come back (their order down
the name index), its count comes with the filters' counts, and the possible duplicates
are read a batch of names at a time (``services.members_possible_duplicates``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet

from .. import services
from ..models import Member, Membership, name_search, register_size

#: The register's count of every member the search finds (no filter chosen).
EVERYONE = ""


@dataclass(frozen=True)
class Register:
    """The members a register page reads (not yet ordered nor paged) and how many each
    filter shows with the search (``EVERYONE``: no filter)."""

    members: QuerySet[Member]
    counts: dict[str, int]
    status: str
    #: The same members with nothing joined: a page's keys are read from these
    #: (``presentation.paging.CountedPaginator``), then its rows whole.
    keys: QuerySet[Member]

    @property
    def count(self) -> int:
        """How many members the page's filter shows: its paginator's count, not asked again."""
        return self.counts[self.status]


def register(*, query: str = "", status: str = "", day: dt.date | None = None) -> Register:
    """The register searched for ``query`` (a name or a number) and narrowed to
    ``status`` (one of ``services.MEMBERSHIP_FILTERS``, else everyone) on ``day``
    (default today)."""
    if status not in services.MEMBERSHIP_FILTERS:
        status = EVERYONE
    found = Member.objects.in_order()
    if query:
        found = found.filter(name_search(query))
    # Each row's standing on the day asked of that row as the page's rows are read
    # (``each``: down the (member, season) index, a page's fifty probes), not in a query
    # of its own after them; the page's keys are read without it.
    shown = found.with_newcomer().select_related("rating_state").with_financial(day, each=True)  # type: ignore[misc]  # with_state's FilteredRelation
    members = services.members_with_membership(shown, status=status, day=day, each=True)
    keys = services.members_with_membership(found, status=status, day=day, each=True)
    counts = register_counts(found, day=day, searched=bool(query))
    return Register(members=members, counts=counts, status=status, keys=keys)


def register_counts(
    found: QuerySet[Member], *, day: dt.date | None = None, searched: bool = True
) -> dict[str, int]:
    """How many of ``found`` each filter shows, as ``services.members_with_membership``
    narrows them, and all of them (``EVERYONE``). The whole register today (not
    ``searched``, no ``day``) as kept with the published lists' figures
    (``services.list_figures_kept``: one row read, whatever the club's size); else, or
    where they are not kept, counted (``register_size``: the members never read into
    Python)."""
    kept = None if searched or day is not None else services.list_figures_kept()
    if kept is not None and "register" in kept:
        everyone, guests, financial = kept["register"]
    elif searched:
        everyone, guests, financial = register_size(found, day=day, each=True)
    else:  # the whole register, counted its own way (``register_size``)
        everyone, guests, financial = register_size(day=day)
    return {
        EVERYONE: everyone,
        Membership.FINANCIAL.value: financial,
        Membership.ARREARS.value: everyone - guests - financial,
        Membership.GUEST.value: guests,
    }
