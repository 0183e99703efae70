"""An event's stages: its director submits it when its results are in, the officer rates
it (``events.event_complete``) or sends it back with a note; each step is kept (who,
when) and told by mail: the officers of a submission, the directors of the rest.

Each mail's key names the event, the step and the submission it answers
(``event:<pk>:submitted:<n>:<user pk>``), so one step never mails anyone twice.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Event, complete_problem
from ..rules.access import OFFICER_PERMISSION
from .notifications import mail_send

__all__ = ["StageRefused", "event_rated_tell", "event_send_back", "event_submit"]


class StageRefused(ValueError):
    """A step the event's stage does not allow (submitted twice, sent back unsubmitted)."""


def _officers() -> Any:
    """The active logins holding the officer's role that have an address."""
    app, codename = OFFICER_PERMISSION.split(".")
    holds = Q(is_superuser=True)
    for through in ("user_permissions", "groups__permissions"):
        holds |= Q(
            **{f"{through}__codename": codename, f"{through}__content_type__app_label": app}
        )
    return User.objects.filter(holds, is_active=True).exclude(email="").distinct()


def _tell(*, people: Any, event: Event, step: str, context: dict[str, Any]) -> None:
    for person in people:
        mail_send(
            kind=f"event_{step}",
            to=person.email,
            key=f"event:{event.pk}:{step}:{event.submissions}:{person.pk}",
            context={"event": event, "person": person, **context},
        )


def _who(user: Any) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _name(user: Any) -> str:
    if user is None:
        return "the ratings officer"
    return str(user.get_full_name() or user.get_username())


@transaction.atomic
def event_submit(*, event: Event, user: Any, base_url: str = "") -> Event:
    """``event``'s results are in: it waits for the officer, who is told by mail."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.stage != Event.DRAFT:
        raise StageRefused(f"{event.name} is {event.stage_word.lower()} already.")
    if problem := complete_problem(event):
        raise StageRefused(f"Not ready to submit: {problem}")
    event.submitted_at = timezone.now()
    event.submitted_by = _who(user)
    event.submissions += 1
    event.save(update_fields=["submitted_at", "submitted_by", "submissions"])
    _tell(
        people=_officers(),
        event=event,
        step="submitted",
        context={"by": _name(user), "base_url": base_url.rstrip("/")},
    )
    return event


@transaction.atomic
def event_send_back(*, event: Event, user: Any, note: str, base_url: str = "") -> Event:
    """The officer returns a submitted ``event`` to draft, saying why (``note``, required);
    its directors are told by mail."""
    note = note.strip()
    if not note:
        raise StageRefused("Say what needs doing: the director reads this note.")
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.stage != Event.SUBMITTED:
        raise StageRefused(f"{event.name} is not waiting for rating: nothing to send back.")
    event.submitted_at = None
    event.submitted_by = None
    event.sent_back_at = timezone.now()
    event.sent_back_by = _who(user)
    event.sent_back_note = note
    event.save(
        update_fields=[
            "submitted_at",
            "submitted_by",
            "sent_back_at",
            "sent_back_by",
            "sent_back_note",
        ]
    )
    _tell(
        people=event.directors.exclude(email="").filter(is_active=True),
        event=event,
        step="sent_back",
        context={"by": _name(user), "note": note, "base_url": base_url.rstrip("/")},
    )
    return event


def event_rated_tell(*, event: Event, user: Any, base_url: str = "") -> None:
    """``event`` is complete (rated by ``user``): kept on the event; its directors told."""
    event.rated_at = timezone.now()
    event.rated_by = _who(user)
    event.save(update_fields=["rated_at", "rated_by"])
    _tell(
        people=event.directors.exclude(email="").filter(is_active=True),
        event=event,
        step="rated",
        context={"by": _name(user), "base_url": base_url.rstrip("/")},
    )
