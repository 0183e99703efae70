"""A round's results as the officer enters them: pairings, results, the round's formset."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from ..models import Game, Member
from ..rules import results

# -- results ----------------------------------------------------------------------------

RESULT_CHOICES = [("", "—")] + [(value, value) for value in Game.Result.values]
#: The round page's menu words for each result (``ratings.rules.results``).
RESULT_LABELS = results.SHORT_LABELS
ALLOWED = ", ".join(RESULT_LABELS[v] for v in Game.Result.values)


class KeyedResultField(forms.ChoiceField):
    """A menu of results that reads the keys a result is typed with, as the round page
    does (``results.KEYS``): "=" is a draw on every page. ``values`` maps each result the
    menu offers to its value there. The keys go to the page in ``data-result-keys`` for
    the script that sets the menu from a key (static/js/site.js); a form sent with a key
    itself (a script, a page without it) reads the same."""

    def __init__(self, *, values: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.keys = results.keyed(dict(values))
        self.widget.attrs["data-result-keys"] = self.keys_json

    @property
    def keys_json(self) -> str:
        """The keys as the page's script reads them (a page that draws the menu itself
        puts this in its ``data-result-keys``)."""
        return json.dumps(self.keys, ensure_ascii=False)

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        return self.keys.get(text.strip().lower(), text)


@dataclass
class Pairing:
    """A game as the officer enters it, before it is saved."""

    board: int | None
    white: Member
    black: Member | None
    result: str
    colours_known: bool = True

    @property
    def result_label(self) -> str:
        """The result as the round page's menu words it (½-½, not 1/2-1/2)."""
        return RESULT_LABELS.get(self.result, self.result)


class PairingForm(forms.Form):
    # Hidden, so only a tampered page sends a bad one; Game.board is a small integer.
    board = forms.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        widget=forms.HiddenInput,
        error_messages={
            "invalid": "The board number must be a whole number from 1 to 32767.",
            "min_value": "The board number must be a whole number from 1 to 32767.",
            "max_value": "The board number must be a whole number from 1 to 32767.",
        },
    )
    white = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    black = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    result = KeyedResultField(
        values={v: v for v in Game.Result.values},
        choices=[("", "—")] + [(v, RESULT_LABELS[v]) for v in Game.Result.values],
        required=False,
        error_messages={"invalid_choice": f"Not a result. Allowed: {ALLOWED}."},
    )

    def __init__(self, *args, players: Sequence[Member], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The number first: on a phone the menu shows the start of the label, and the number
        # is what tells two members of one name apart.
        choices = [("", "—")] + [(m.pk, f"{m.member_number} · {m.name}") for m in players]
        for name in ("white", "black"):
            field = cast(forms.ChoiceField, self.fields[name])
            field.choices = choices
            field.error_messages["invalid_choice"] = "That player is not in this event."
            field.widget.attrs["class"] = "form-select form-select-sm"
        self.fields["result"].widget.attrs["class"] = "form-select form-select-sm result"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        white, black, result = data.get("white"), data.get("black"), data.get("result")
        if "white" in self.errors:
            return data  # e.g. not in this event: that message says it all
        if white is None:
            if black is not None or result:
                self.add_error("white", "Choose white (or the player with the bye).")
            return data
        if not result:
            if "result" not in self.errors:
                self.add_error("result", "Enter the result.")
            return data
        if "black" in self.errors:
            return data  # a black chosen but refused: not a missing black
        if black is not None and black == white:
            self.add_error("black", "A player cannot play themselves.")
        elif result in Game.BYES and black is not None:
            self.add_error("result", "A bye has one player only: leave black empty.")
        elif result not in Game.BYES and black is None:
            self.add_error("black", "Choose black, or record a bye.")
        return data


class BaseRoundFormSet(forms.BaseFormSet):
    """The games of one round: nobody plays twice."""

    def __init__(self, *args, players: Sequence[Member], **kwargs) -> None:
        self.players = list(players)
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "players": self.players}

    def clean(self) -> None:
        # Checked whatever else is wrong on the page, so every problem shows at once.
        # A player meets one opponent a round; several boards between the same two
        # players are a match (a league meet's games), allowed.
        seen: dict[int, tuple[int, int | None]] = {}
        twice = False
        for number, form in enumerate(self.forms, start=1):
            data = getattr(form, "cleaned_data", {})
            for side, other in (("white", "black"), ("black", "white")):
                pk, opponent = data.get(side), data.get(other)
                if pk is None:
                    continue
                board, met = seen.setdefault(pk, (number, opponent))
                if board != number and (opponent is None or met != opponent):
                    name = next(m.name for m in self.players if m.pk == pk)
                    form.add_error(side, f"{name} is already paired on board {board}.")
                    twice = True
        if twice:
            raise ValidationError("A player is paired twice in this round.")

    def pairings(self) -> list[Pairing]:
        by_pk = {m.pk: m for m in self.players}
        out = []
        for number, form in enumerate(self.forms, start=1):
            data = form.cleaned_data
            if data.get("white") is None:
                continue
            out.append(
                Pairing(
                    board=data.get("board") or number,
                    white=by_pk[data["white"]],
                    black=by_pk.get(data["black"]) if data.get("black") else None,
                    result=data["result"],
                )
            )
        return out


# The factory's class is the formset given's (its players and pairings), which the stubs
# type as a plain BaseFormSet.
RoundFormSet = cast(
    type[BaseRoundFormSet],
    forms.formset_factory(PairingForm, formset=BaseRoundFormSet, extra=0),
)
