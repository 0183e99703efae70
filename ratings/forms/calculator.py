"""The public calculator's forms: the player (picked by a search box) and the games."""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from ..models import ClubSettings, Member
from ..rules.brought_in import brought_in_problem
from ..rules.names import name_key
from ..rules.results import BLACK_WIN, DRAW, WHITE_WIN
from .results import KeyedResultField

# Calculator -----------------------------------------------------------------------------

CALCULATOR_RESULTS = [("1", "Win (1)"), ("0.5", "Draw (½)"), ("0", "Loss (0)")]
#: The player's score of each result (the player as white): what the keys typed into the
#: result box read as ("1" a win, "=" a draw), as on the round page.
CALCULATOR_SCORES = {WHITE_WIN: "1", DRAW: "0.5", BLACK_WIN: "0"}


#: How the calculator names a member, and the search box offers them: "Alice Archer (A1)".
_NAMED_NUMBER = re.compile(r"^(?P<name>.*?)\s*\((?P<number>[\w.-]+)\)$")


def member_label(member: Member) -> str:
    """A member as the calculator's search box offers them: the name, then the number."""
    return f"{member.name} ({member.member_number})"


class MemberPickField(forms.CharField):
    """A member picked by a search box, or typed: a member number, an exact name, or the
    search box's "Name (number)". Resolves to a member of ``queryset`` (those one may
    pick), or says why not: no such member, or several of that name."""

    widget = forms.TextInput(
        attrs={
            "autocomplete": "off",
            "spellcheck": "false",
            "placeholder": "Name or member number",
            "data-member-search": "",
        }
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("max_length", 160)
        super().__init__(*args, **kwargs)
        self.queryset = Member.objects.none()

    def clean(self, value: str | None) -> Member | None:
        text = super().clean(value).strip()
        if not text:
            return None
        match = _NAMED_NUMBER.match(text)
        number = match["number"] if match else text
        members = self.queryset.select_related("rating_state")  # type: ignore[misc]  # with_state's FilteredRelation
        found = list(members.filter(member_number__iexact=number)[:1])
        if found:
            return found[0]
        named = list(members.filter(name_key=name_key(text)).order_by("member_number")[:6])
        if len(named) == 1:
            return named[0]
        if named:
            numbers = ", ".join(m.member_number for m in named[:5])
            raise ValidationError(
                f"More than one member is called {text}: type the member number ({numbers})."
            )
        raise ValidationError(
            f"No rated member has the name or number {text}: pick one from the list, "
            "or type a rating."
        )


def rating_field(label: str, *, summary_label: str) -> forms.FloatField:
    """A typed rating, the player's or an opponent's (``summary_label``: its name in the
    form's error summary, where its label reads only beside the field before it)."""
    field = forms.FloatField(
        required=False,
        min_value=0,
        max_value=4000,
        label=label,
        error_messages={"invalid": "A rating is a number, e.g. 1450."},
    )
    field.summary_label = summary_label  # type: ignore[attr-defined]
    return field


class PicksMembers(forms.Form):
    """A form whose ``picks`` field offers the members one may pick (``members``)."""

    picks = "member"

    def __init__(self, *args, members: Any = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if members is not None:
            cast(MemberPickField, self.fields[self.picks]).queryset = members


class CalculatorPlayerForm(PicksMembers):
    """Whose rating: a member (their stored rating), or a typed rating and games played."""

    member = MemberPickField(
        required=False,
        label="Member",
        help_text="Type two letters of a name and pick from the list, or a member number.",
    )
    rating = rating_field("or a rating", summary_label="Rating")
    games = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=100000,
        label="rated games played",
        error_messages={"invalid": "Games played is a whole number."},
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        member, rating = data.get("member"), data.get("rating")
        if member is None and rating is None and not self.errors:
            self.add_error("member", "Choose a member, or type a rating.")
        elif member is not None and rating is not None:
            self.add_error("rating", "Choose a member or type a rating, not both.")
        elif rating is not None and data.get("games") is None:
            self.add_error("games", "Say how many rated games the rating is based on.")
        elif rating is not None and "games" not in self.errors:
            # A rating the club's system would take for a new player's is refused, not
            # worked out as if no rating had been typed.
            fields = {"initial_rating": rating, "initial_games": data["games"]}
            if problem := brought_in_problem(ClubSettings.load().engine(), fields):
                self.add_error("games", problem)
        return data


class CalculatorGameForm(PicksMembers):
    """One hypothetical game: an opponent (member or typed rating) and the result."""

    picks = "opponent"
    opponent = MemberPickField(required=False, label="Opponent")
    rating = rating_field("or their rating", summary_label="opponent's rating")
    result = KeyedResultField(
        values=CALCULATOR_SCORES,
        choices=[("", "—"), *CALCULATOR_RESULTS],
        required=False,
        label="Result",
        error_messages={"invalid_choice": "A result is 1, ½ or 0."},
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        opponent, rating, result = data.get("opponent"), data.get("rating"), data.get("result")
        if self.errors:
            return data
        if opponent is None and rating is None:
            if result:
                self.add_error("opponent", "Choose the opponent, or type their rating.")
            return data
        if opponent is not None and rating is not None:
            self.add_error("rating", "Choose a member or type a rating, not both.")
        if not result:
            self.add_error("result", "A result is 1, ½ or 0.")
        return data

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return not (data.get("opponent") is not None or data.get("rating") is not None)


#: The most games one calculation takes. The formset never builds more forms than this,
#: whatever TOTAL_FORMS a request claims.
CALCULATOR_MAX_GAMES = 40


class BaseCalculatorGameFormSet(forms.BaseFormSet):
    default_error_messages = {
        "too_many_forms": (
            f"A calculation takes at most {CALCULATOR_MAX_GAMES} games: leave some out."
        ),
    }

    def clean(self) -> None:
        if any(self.errors):
            return
        if all(form.is_blank for form in self.forms):
            raise ValidationError("Add at least one game.")


CalculatorGameFormSet = forms.formset_factory(
    CalculatorGameForm,
    formset=BaseCalculatorGameFormSet,
    extra=3,
    max_num=CALCULATOR_MAX_GAMES,
    validate_max=True,
    absolute_max=CALCULATOR_MAX_GAMES,
)
