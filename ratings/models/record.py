"""The whole record against its rules, for a writer that brings in rows wholesale
(``import_club``): each model's rows read once. Above the models it reads, which never
ask it (each rule is ``models/rules.py``'s, or ``models/events.py``'s where it reads the
games)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.utils import timezone

from ..rules.text import text_problem
from . import rules
from .club import ClubSettings
from .events import Entry, Event, Game, nothing_to_rate_problem
from .members import Member, member_names
from .membership import Subscription
from .publications import Publication


def record_problems(limit: int = 20) -> list[str]:
    """The rules the record as stored breaks (up to ``limit`` messages), for a writer
    that brings in rows wholesale (``import_club``): the database's constraints hold the
    bounds, these the rest (a player twice a round across colours, results of an event
    still to come, a member's name, a payment's date ahead, an entry missing, a rated
    complete event with nothing to rate)."""
    found: list[str] = []
    today = timezone.localdate()
    games = Game.objects.values_list("event_id", "round", "white_id", "black_id")
    by_event: dict[int, list[tuple[int, int | None, int | None]]] = {}
    for event_id, round_, white, black in games.iterator():
        by_event.setdefault(event_id, []).append((round_, white, black))
    for event_id, rows in by_event.items():
        found += [
            f"event {event_id}: {p}"
            for p in rules.twice_in_round_problems(rows, names=member_names)
        ]
    for event in Event.objects.filter(start_date__gt=today, games__isnull=False).distinct():
        found.append(f"event {event.pk}: {rules.results_too_early_problem(event)}")
    played = Game.objects.filter(event=OuterRef("pk"), result__in=Game.PLAYED, black__isnull=False)
    for event in Event.objects.filter(status=Event.Status.COMPLETE, rated=True).exclude(
        Exists(played)
    ):
        found.append(f"event {event.pk}: {nothing_to_rate_problem(event)}")
    for member in Member.objects.only("pk", "name").iterator():
        if problem := rules.member_name_problem(member.name):
            found.append(f"member {member.pk} ({member.name!r}): {problem}")
    found += _free_text_problems()
    for subscription in Subscription.objects.only("pk", "paid_on", "amount"):
        if problem := rules.paid_on_problem(subscription.paid_on) or rules.amount_problem(
            subscription.amount
        ):
            found.append(f"payment {subscription.pk}: {problem}")
    for colour in ("white", "black"):
        entered = Entry.objects.filter(event=OuterRef("event"), member=OuterRef(colour))
        unentered = Game.objects.filter(**{f"{colour}__isnull": False}).exclude(Exists(entered))
        for game in unentered.select_related(colour)[:limit]:
            player = getattr(game, colour)
            found.append(
                f"event {game.event_id}: {player.name} plays in round {game.round} but is "
                "not entered in the event."
            )
    return found[:limit]


def _free_text_problems() -> list[str]:
    """Every free-text field holding a control or invisible character: the fields that
    carry ``validate_text`` or ``validate_lines``, one query a model."""
    found = []
    for model in (Member, Event, Publication, ClubSettings):
        fields = [
            field
            for field in model._meta.concrete_fields
            if rules.validate_text in field.validators or rules.validate_lines in field.validators
        ]
        rows = model.objects.values_list("pk", *(field.attname for field in fields))
        for pk, *values in rows.iterator():
            for field, value in zip(fields, values, strict=True):
                lines = rules.validate_lines in field.validators
                if value and (problem := text_problem(value, lines=lines)):
                    found.append(
                        f"{model._meta.verbose_name} {pk}, {field.verbose_name}: {problem}"
                    )
    return found
