"""Lost updates refused on a record's own form (a member's details, an event's): the form
carries the record's latest change in its history as it stood when the page was opened,
and a save finding a later one is refused with who made it and when."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format

from .results_version import _WHEN


@dataclass(eq=False)
class RecordChanged(Exception):
    """A save refused: the record changed since its form was opened."""

    name: str
    who: str
    when: dt.datetime | None

    def __str__(self) -> str:
        by = f" by {self.who}" if self.who else ""
        at = " at " + date_format(timezone.localtime(self.when), _WHEN) if self.when else ""
        return (
            f"Not saved: {self.name} was changed{by}{at}, after you opened this page. Your "
            "changes are below as you left them: check the details now saved (the record's "
            "history), then save again to apply yours."
        )


def _latest(record: Any) -> Any:
    return record.history.order_by("-history_id").select_related("history_user").first()


def record_version(*, record: Any) -> str:
    """The record's version a form shows: its latest change's id in its history."""
    latest = _latest(record)
    return "" if latest is None else str(latest.history_id)


def record_unchanged_check(*, record: Any, version: str) -> None:
    """Refuse (``RecordChanged``) a save of ``record`` whose history has moved past
    ``version``. Call it inside the save's transaction: the record's row is locked
    first, so no other save slips in between."""
    type(record).objects.select_for_update().filter(pk=record.pk).first()
    latest = _latest(record)
    if latest is None or str(latest.history_id) == version:
        return
    user = latest.history_user
    who = (user.get_full_name() or user.get_username()) if user is not None else ""
    # Named as the other save left it (the form has already put its own values on ``record``).
    raise RecordChanged(name=str(latest.instance), who=who, when=latest.history_date)
