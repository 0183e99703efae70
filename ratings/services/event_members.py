"""The members an event brought in (a TRF or PGN import's new players, a player added from
inside the event), offered for deletion together with the event.

No record says which import created a member, so "brought in" is read from what the
member has: created with the event or since, in no other event, with nothing of their own
(no subscription, no rating brought in, never on a published list, no merge). Such a
record holds nothing but what the event's file gave it; every other member is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from ..models import Entry, Event, Game, Member, PublicationEntry, Subscription
from .events import _delete_with_history, audit_user


def event_members_brought_in(*, event: Event) -> QuerySet[Member]:
    """The members who would be left with nothing if ``event`` went, by name."""
    elsewhere_entry = Entry.objects.filter(member=OuterRef("pk")).exclude(event=event)
    elsewhere_game = Game.objects.filter(
        Q(white=OuterRef("pk")) | Q(black=OuterRef("pk"))
    ).exclude(event=event)
    in_event = (
        Q(entries__event=event) | Q(games_as_white__event=event) | Q(games_as_black__event=event)
    )
    ids = Member.objects.filter(in_event).values("pk")
    return (
        Member.objects.filter(pk__in=ids, created__gte=event.created)
        .filter(initial_rating__isnull=True, merged_into__isnull=True)
        .exclude(Exists(elsewhere_entry))
        .exclude(Exists(elsewhere_game))
        .exclude(Exists(Subscription.objects.filter(member=OuterRef("pk"))))
        .exclude(Exists(PublicationEntry.objects.filter(member=OuterRef("pk"))))
        .exclude(Exists(Member.objects.filter(merged_into=OuterRef("pk"))))
        .order_by("name", "pk")
    )


def event_delete_members_chosen(*, event: Event, chosen: Sequence[Any]) -> list[Member]:
    """Of the members ``chosen`` by the officer, those ``event`` brought in: read before
    the event goes (afterwards nothing would tie them to it). The caller deletes the
    event, then hands them to ``members_brought_in_delete``."""
    if not chosen:
        return []
    wanted = [int(pk) for pk in chosen if str(pk).isdigit()]
    return list(event_members_brought_in(event=event).filter(pk__in=wanted))


def members_brought_in_delete(
    *, members: Sequence[Member], event_name: str, user: Any = None
) -> int:
    """Delete the members an event brought in, once the event has gone: each kept in the
    audit trail with who and why. How many were deleted."""
    if not members:
        return 0
    with transaction.atomic():
        for member in members:
            member._change_reason = f"brought in by {event_name}; deleted with it"[:100]  # type: ignore[attr-defined]
        _delete_with_history(list(members), user=audit_user(user))
    return len(members)
