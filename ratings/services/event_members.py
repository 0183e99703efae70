"""The members an event brought in (a TRF or PGN import's new players, a player added from
inside the event), offered for deletion together with the event.

The import records which event brought a member in (``Member.brought_in_by``). Such a
record is offered while it holds nothing but what the event gave it: no other event, its
starting details as the import wrote them (a rating taken from the file is the event's;
one the officer set since is not), no subscription but one paid on joining (the import's
or the players page's "paid tonight", so its history says), never on a published list,
no merge. Every other member is kept.

Members brought in before the record was kept (``brought_in_by`` empty) are read from
what they have: created with the event or since, with no rating brought in and no
subscription.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Exists, FloatField, OuterRef, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from ..models import Entry, Event, Game, Member, PublicationEntry, Subscription
from .audit import audit_user, delete_with_history
from .subscriptions import PAID_ON_JOINING

#: Stands for "no rating brought in" where two starting ratings are compared (NULL is
#: equal to nothing in SQL): below any rating a member may be given.
NO_RATING = Value(-1.0, output_field=FloatField())


def _as_created() -> Exists:
    """The member's starting details are those their record was created with (its first
    history line): no rating set or changed by the officer since."""
    created = (
        Member.history.filter(id=OuterRef("pk"), history_type="+")
        .annotate(start=Coalesce("initial_rating", NO_RATING))
        .filter(
            start=OuterRef("start"),
            initial_games=OuterRef("initial_games"),
            brought_in=OuterRef("brought_in"),
        )
    )
    return Exists(created)


def _paid_besides_joining() -> Exists:
    """A subscription besides one paid on joining (the import's or the players page's
    "paid tonight", so its history says): one the officer recorded since keeps them."""
    on_joining = Subscription.history.filter(
        id=OuterRef("pk"), history_type="+", history_change_reason=PAID_ON_JOINING
    )
    return Exists(Subscription.objects.filter(member=OuterRef("pk")).exclude(Exists(on_joining)))


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
    recorded = Q(brought_in_by=event, as_created=True, paid_besides=False)
    read_from_what_they_have = Q(
        brought_in_by__isnull=True,
        created__gte=event.created,
        initial_rating__isnull=True,
        paid_any=False,
    )
    return (
        Member.objects.filter(pk__in=ids, merged_into__isnull=True)
        .alias(
            start=Coalesce("initial_rating", NO_RATING),
            as_created=_as_created(),
            paid_besides=_paid_besides_joining(),
            paid_any=Exists(Subscription.objects.filter(member=OuterRef("pk"))),
        )
        .filter(recorded | read_from_what_they_have)
        .exclude(Exists(elsewhere_entry))
        .exclude(Exists(elsewhere_game))
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
        delete_with_history(list(members), user=audit_user(user))
    return len(members)
