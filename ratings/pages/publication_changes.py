"""What changed between two publications: entrants, leavers, rises, falls, improvers.

Each is one query over the newer publication's entries joined to the older's (one
LEFT JOIN through the member, ``FilteredRelation``), whatever the size of the list.
No reason is given for a member who left the list: when it is a subscription, it is
the member's own business.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import (
    Count,
    Exists,
    Expression,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import Floor

from ..models import Publication, PublicationEntry, RatingChange, RatingRun, RatingState
from ..presentation.tables import change_html
from ..words.figures import shown_change

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class OlderEntry(TypedDict):
    """An entry joined to the member's entry on the older list (``_joined``), if any:
    a join (``FilteredRelation``) read through its lookups, not a value."""

    old: Any


class Move(OlderEntry):
    """An entry ranked on both lists, with its change between them (``Changes._moves``)."""

    before: float
    display_before: str
    rank_before: int
    change: float
    moved: float  # whole, as the lists show it


#: Rows each of the rises, falls and improvers shows.
TOP = 20
#: A plain number: an official rating, not provisional, partial or unrated (the booklet's
#: improvers leave the others out: they are still settling).
OFFICIAL = r"^[0-9]+$"


def _joined(
    newer: Publication, older: Publication
) -> QuerySet[WithAnnotations[PublicationEntry, OlderEntry]]:
    """The newer publication's entries, each with the member's entry on the older one."""
    return newer.entries.annotate(
        old=FilteredRelation(
            "member__publication_entries",
            condition=Q(member__publication_entries__publication=older),
        )
    )


def _shown(field: str) -> Expression:
    """A rating as the list shows it: the whole number, halves up, as every system
    displays a ranked rating."""
    return Floor(F(field) + Value(0.5))


def _shown_move() -> Expression:
    """The change between the two lists' figures as they are shown ("2303 → 2304": 1)."""
    return _shown("rating") - _shown("old__rating")


def _with_shown_change(rows: Iterable[PublicationEntry]) -> list[PublicationEntry]:
    """The rows, each with ``shown_change`` (and its ``change_html``): the change the
    reader checks against the two figures shown beside it, worked out from them as the
    event report does."""
    out = list(rows)
    for entry in out:
        shown = shown_change(entry.display_before, entry.display)  # type: ignore[attr-defined]
        entry.shown_change = shown  # type: ignore[attr-defined]
        entry.change_html = change_html(shown)  # type: ignore[attr-defined]
    return out


def games_between(
    *, members: Iterable[int], older: Publication, newer: Publication
) -> dict[int, int]:
    """Each member's rated games in the events that ended after the older list's day, up
    to the newer's, as their page counts them (``RatingChange.played``), in one query.

    Not the difference of the two lists' game counts: those are each list's system's own
    count (ecf-2020's within its activity window; another system's after a switch), so
    their difference can be negative, or nothing, where the member played."""
    rows = (
        RatingChange.objects.filter(
            member_id__in=list(members),
            time_class=newer.time_class,
            event_end__gt=older.day,
            event_end__lte=newer.day,
        )
        .values("member_id")
        .annotate(games=Sum("played"))
        .values_list("member_id", "games")
    )
    return {member: games or 0 for member, games in rows}


@dataclass
class Changes:
    newer: Publication
    older: Publication

    @property
    def entrants(self) -> QuerySet[PublicationEntry]:
        """On the newer list and not on the older, in the newer list's order."""
        return (
            _joined(self.newer, self.older)
            .filter(old__isnull=True)
            .select_related("member")
            .order_by("position")
        )

    @property
    def leavers(self) -> QuerySet[PublicationEntry]:
        """On the older list and not on the newer, in the older list's order."""
        return (
            _joined(self.older, self.newer)
            .filter(old__isnull=True)
            .select_related("member")
            .order_by("position")
        )

    def _moves(self) -> QuerySet[WithAnnotations[PublicationEntry, Move]]:
        """Members ranked on both lists, with their change between them: ``moved`` as the
        two lists show it (whole figures), ``change`` unrounded."""
        return (
            _joined(self.newer, self.older)
            .filter(rank__isnull=False, old__rank__isnull=False)
            .annotate(
                before=F("old__rating"),
                display_before=F("old__display"),
                rank_before=F("old__rank"),
                change=F("rating") - F("old__rating"),
                moved=_shown_move(),
            )
            .select_related("member")
        )

    @cached_property
    def rises(self) -> list[PublicationEntry]:
        rows = self._moves().filter(moved__gt=0).order_by("-moved", "-change", "position")
        return _with_shown_change(rows[:TOP])

    @cached_property
    def falls(self) -> list[PublicationEntry]:
        rows = self._moves().filter(moved__lt=0).order_by("moved", "change", "position")
        return _with_shown_change(rows[:TOP])

    @cached_property
    def improvers(self) -> list[PublicationEntry]:
        """The booklet's improvers: gains between two official ratings (plain numbers)."""
        rows = (
            self._moves()
            .filter(moved__gt=0, display__regex=OFFICIAL, old__display__regex=OFFICIAL)
            .order_by("-moved", "-change", "position")
        )
        return _with_shown_change(rows[:TOP])

    @cached_property
    def played_between(self) -> dict[int, int]:
        """The rated games each member of the rises, falls and improvers played between
        the two lists (``games_between``), in one query for all three."""
        members = {e.member_id for e in [*self.rises, *self.falls, *self.improvers]}
        return games_between(members=members, older=self.older, newer=self.newer)

    def with_games_between(self) -> None:
        """Give each row of the rises, falls and improvers its ``games_between``."""
        for entry in [*self.rises, *self.falls, *self.improvers]:
            entry.games_between = self.played_between.get(entry.member_id, 0)  # type: ignore[attr-defined]

    @cached_property
    def counts(self) -> dict[str, int]:
        """How many entered, stayed, rose and fell (one query), and left (one more): a
        member rose or fell as the two lists show it."""
        both = Q(old__isnull=False)
        moved = Q(rank__isnull=False, old__rank__isnull=False)
        figures = (
            _joined(self.newer, self.older)
            .annotate(moved=_shown_move())
            .aggregate(
                entrants=Count("pk", filter=Q(old__isnull=True)),
                stayed=Count("pk", filter=both),
                rose=Count("pk", filter=moved & Q(moved__gt=0)),
                fell=Count("pk", filter=moved & Q(moved__lt=0)),
            )
        )
        figures["leavers"] = self.older.size - figures["stayed"]
        return figures


def live_moved(publication: Publication) -> dict[str, Any]:
    """Whether the live figures have moved since ``publication``: a member of it whose live
    mark or games differ now, and when the ratings were last re-rated since.

    Ratings change only in a re-rate, so without one since there is nothing to compare.
    """
    last_run = (
        RatingRun.objects.filter(
            status=RatingRun.Status.DONE, finished__gt=publication.published_at
        )
        .order_by("-finished")
        .values_list("finished", flat=True)
        .first()
    )
    if last_run is None:
        return {"moved": False, "since": None}
    # Down the state's (member, list) key: no join through the member's row.
    same = RatingState.objects.filter(
        member_id=OuterRef("member_id"),
        time_class=publication.time_class,
        display=OuterRef("display"),
        games=OuterRef("games"),
    )
    return {"moved": publication.entries.filter(~Exists(same)).exists(), "since": last_run}
