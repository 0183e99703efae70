"""Forms for an event and its players."""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.dateformat import format as day
from django.utils.functional import cached_property

from ..models import Event, Member, name_search
from ..rules.names import name_key, name_words
from ..rules.time_classes import STANDARD
from .members import CHANGE_REASON, DATE, REASON_NEEDED, change_reason_field, reason_required

# -- events -----------------------------------------------------------------------------


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "name",
            "kind",
            "start_date",
            "end_date",
            "rounds",
            "place",
            "time_control",
            "time_class",
            "online",
            "tie_breaks",
            "rated",
        ]
        widgets = {
            "start_date": DATE,
            "end_date": DATE,
            "tie_breaks": forms.TextInput(attrs={"placeholder": "the kind's default"}),
        }
        help_texts = {
            "rated": "Untick for a friendly or casual event: games kept, not rated.",
            "end_date": "Leave blank for an event of one day (a club night).",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["end_date"].required = False
        # A form sent without it (a script, an older page) keeps the event's class.
        self.fields["time_class"].required = False
        if self.instance.pk is not None:
            self.fields[CHANGE_REASON] = change_reason_field("date misread from the flyer")

    def kind_follows_the_date(self, by_day: dict[int, str], usual: str) -> None:
        """A new event's kind follows its date as the club's habit has it (``by_day``: the
        kind most recorded on each day of the week, 1 Monday; else ``usual``), until the
        officer picks one: the page's script reads this (static/js/officer.js)."""
        attrs = self.fields["kind"].widget.attrs
        attrs["data-kind-by-weekday"] = json.dumps(by_day)
        attrs["data-usual-kind"] = usual

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("start_date") and not data.get("end_date"):
            # A one-night event: it ends the day it starts.
            data["end_date"] = data["start_date"]
        reason_required(self)
        return data

    def warnings(self) -> list[str]:
        """What the officer should see before a new event is saved (it is not refused):
        a name already recorded, a date still to come."""
        data = self.cleaned_data
        found = []
        name, start = data.get("name"), data.get("start_date")
        same = Event.objects.filter(name__iexact=name).exclude(pk=self.instance.pk)
        if name and same.exists():
            first = same.order_by("-start_date").first()
            assert first is not None
            found.append(
                f"An event called “{first.name}” is already recorded "
                f"({day(first.start_date, 'j M Y')}). If this is the same event, cancel and "
                "add to that one; otherwise give this "
                "one a name that tells them apart (a date, a section)."
            )
        if start and start > timezone.localdate():
            found.append(
                f"This event starts on {day(start, 'j M Y')}, a date still to come: a fixture "
                "on the club's calendar. Its results can be entered once it is played."
            )
        return found

    def clean_time_class(self) -> str:
        return self.cleaned_data.get("time_class") or self.instance.time_class or STANDARD

    @cached_property
    def changed_data(self) -> list[str]:
        # A time control left blank keeps the event's: not a change (it would re-rate).
        changed = super().changed_data
        if "time_class" in changed and not self.data.get(self.add_prefix("time_class")):
            changed = [name for name in changed if name != "time_class"]
        return changed

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if self.instance.pk:
            played = self.instance.games.aggregate(last=Max("round"))["last"] or 0
            if rounds < played:
                raise ValidationError(
                    f"Round {played} has games already: remove them before cutting the rounds."
                )
        return rounds


class NotFound(str):
    """A problem of ``resolve_players``: nobody among the members looked in is it (not one
    of several it could be), so a page may offer to look wider (the club's members)."""


def resolve_players(
    tokens: Iterable[str], members: Iterable[Member]
) -> tuple[dict[str, Member], dict[str, str]]:
    """Names or member numbers to members: (found by token, problem by token).

    A member number matches exactly, else in any case (if only one member's number is
    it in another case: two are reported, never one picked); a name matches exactly,
    else as the one name that contains it, both whatever their case, accents or order
    (``rules.names.name_key``: "jose alvarez" is José Alvarez).
    """
    members = list(members)
    by_exact_number = {m.member_number: m for m in members}
    by_number: dict[str, list[Member]] = {}
    for member in members:
        by_number.setdefault(member.member_number.lower(), []).append(member)
    found: dict[str, Member] = {}
    problems: dict[str, str] = {}
    for token in tokens:
        key = token.strip().lower()
        if not key:
            continue
        if token.strip() in by_exact_number:
            found[token] = by_exact_number[token.strip()]
            continue
        numbered = by_number.get(key, [])
        if len(numbered) == 1:
            found[token] = numbered[0]
            continue
        if numbered:
            names = ", ".join(f"{m.name} ({m.member_number})" for m in numbered[:4])
            problems[token] = (
                f"“{token.strip()}” could be {names}: type the number in its exact case."
            )
            continue
        typed = name_key(token)
        words = name_words(token)
        exact = [m for m in members if m.name_key == typed]
        close = exact or [m for m in members if words and all(w in m.name_key for w in words)]
        if len(close) == 1:
            found[token] = close[0]
        elif close:
            names = ", ".join(f"{m.name} ({m.member_number})" for m in close[:4])
            problems[token] = f"“{token.strip()}” could be {names}: use the member number."
        else:
            problems[token] = NotFound(f"“{token.strip()}” is not a member here.")
    return found, problems


class EntriesForm(forms.Form):
    """Players for an event, typed as names or member numbers: separated by commas or
    lines, and numbers by spaces too ("R1 R2 R3")."""

    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "A1, Bob Brown, 1044"}),
        help_text="Member numbers or names, separated by commas or new lines "
        "(member numbers by spaces too).",
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_players(self) -> list[Member]:
        members = club_members_typed(self.cleaned_data["players"])
        entered = set(self.event.entries.values_list("member_id", flat=True))
        return [m for m in members if m.pk not in entered]


def club_members_typed(text: str) -> list[Member]:
    """The club's members ``text`` names, each once, in the order typed: names or member
    numbers separated by commas, semicolons or lines, and numbers by spaces too (a piece
    whose every word is a member's number is those members; otherwise it is one name).
    Anyone it cannot name (not a member, or one of several) is refused, each said once."""
    pieces = [t for t in re.split(r"[,;\n]", text) if t.strip()]
    words = {w.lower() for piece in pieces for w in piece.split()}
    numbers = {
        n.lower()
        for n in Member.objects.active()
        .filter(member_number__iregex=_any_of(sorted(words), whole=True))
        .values_list("member_number", flat=True)
    }
    tokens: list[str] = []
    for piece in pieces:
        parts = piece.split()
        if len(parts) > 1 and all(p.lower() in numbers for p in parts):
            tokens.extend(parts)
        else:
            tokens.append(piece)
    found, problems = club_members_named(tokens)
    if problems:
        raise ValidationError(list(dict.fromkeys(problems.values())))
    return list(dict.fromkeys(found.values()))


def club_members_named(tokens: Sequence[str]) -> tuple[dict[str, Member], dict[str, str]]:
    """``resolve_players`` among the club's active members: one query for them all."""
    keys = [t.strip().lower() for t in tokens]
    candidates = Member.objects.active().filter(
        Q(member_number__in=[t.strip() for t in tokens])
        | Q(member_number__iregex=_any_of(keys))
        | functools.reduce(operator.or_, (name_search(t) for t in tokens), Q(pk__in=[]))
    )
    return resolve_players(tokens, candidates)


def _any_of(keys: Sequence[str], *, whole: bool = False) -> str:
    """A pattern for any of ``keys`` (``whole``: the whole text, not a part of it)."""
    keys = [k for k in keys if k]
    if not keys:
        return "^$"
    either = "(" + "|".join(re.escape(k) for k in keys) + ")"
    return f"^{either}$" if whole else either


class EntryRemoveForm(forms.Form):
    """Taking a player out of an event (entered by mistake): why goes to the history."""

    change_reason = change_reason_field("entered in the wrong event")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[CHANGE_REASON].required = True
        self.fields[CHANGE_REASON].error_messages["required"] = REASON_NEEDED


class SendBackForm(forms.Form):
    """The officer's note to an event's director: what needs putting right."""

    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=2000,
        help_text="The director reads this in their mail and on the event's page.",
        error_messages={"required": "Say what needs doing: the director reads this note."},
    )
