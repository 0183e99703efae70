"""Forms: each one validates everything the page needs, with its message beside the field."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Max, Q
from django.utils import timezone

from .imports import RESULT_SPELLINGS, allowed_results, read_result
from .models import ClubSettings, Event, Game, Member, Season, Subscription, name_problem
from .tournament_files import match_players

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

# -- members ----------------------------------------------------------------------------


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = [
            "name",
            "member_number",
            "is_guest",
            "born",
            "gender",
            "region",
            "title",
            "fide_id",
            "initial_rating",
            "initial_games",
        ]
        widgets = {"born": DATE}
        error_messages = {"initial_games": {"min_value": "Games played cannot be below 0."}}

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["initial_rating"].help_text = initial_rating_help()

    def clean_member_number(self) -> str:
        number = self.cleaned_data["member_number"]
        if number_taken(number, besides=self.instance):
            raise ValidationError("Another member has this number.")
        return number


def initial_rating_help() -> str:
    """The initial rating's help text, saying when the club's system ignores it for guests."""
    text = str(Member._meta.get_field("initial_rating").help_text)
    system = ClubSettings.load().engine()
    guest = system.params.get("guest_rating")
    if guest is None:
        return text
    return (
        f"{text} Under the club's system ({system.title}) guests are rated at a fixed "
        f"{float(guest):g} whatever this says."
    )


def number_taken(number: str, *, besides: Member | None = None) -> bool:
    """Whether another member has ``number`` in any case (A1 and a1 are one number)."""
    others = Member.objects.filter(member_number__iexact=number)
    if besides is not None and besides.pk is not None:
        others = others.exclude(pk=besides.pk)
    return others.exists()


class QuickMemberForm(forms.ModelForm):
    """A guest or a new member added from inside an event, on the spot."""

    member_number = forms.CharField(
        max_length=32,
        required=False,
        help_text="Leave blank to have one given (G… for a guest, N… for a member).",
    )

    class Meta:
        model = Member
        fields = ["name", "member_number", "is_guest", "initial_rating"]

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["initial_rating"].help_text = initial_rating_help()

    def clean_member_number(self) -> str:
        number = self.cleaned_data["member_number"].strip()
        if number and number_taken(number):
            raise ValidationError("Another member has this number.")
        return number

    def save(self, commit: bool = True) -> Member:
        member = super().save(commit=False)
        if not member.member_number:
            member.member_number = next_member_number("G" if member.is_guest else "N")
        if commit:
            member.save()
        return member


def next_member_number(prefix: str) -> str:
    """The first free ``<prefix><number>`` (e.g. G0007) after the highest in use."""
    return next_member_numbers(prefix, 1)[0]


def next_member_numbers(prefix: str, count: int) -> list[str]:
    # Any case: n0007 takes N0007 too (numbers are unique whatever their case).
    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$", re.IGNORECASE)
    used = [
        int(m.group(1))
        for number in Member.objects.filter(member_number__istartswith=prefix).values_list(
            "member_number", flat=True
        )
        if (m := pattern.match(number))
    ]
    start = max(used, default=0) + 1
    return [f"{prefix}{n:04d}" for n in range(start, start + count)]


class SubscriptionForm(forms.ModelForm):
    """A payment for a season: any recorded season, or this season or the next one before
    they are recorded (saving creates it by the club's season rule, ``Season.for_day``)."""

    season = forms.ChoiceField(label="Season")
    field_order = ["season", "paid_on", "amount"]

    class Meta:
        model = Subscription
        fields = ["paid_on", "amount"]
        widgets = {"paid_on": DATE}

    def __init__(self, *args, member: Member, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.member = member
        self.new_season: dt.date | None = None
        today = timezone.localdate()
        club = ClubSettings.load()
        this = club.season_for(today)
        following = club.season_for(this[2] + dt.timedelta(days=1))
        seasons = list(Season.objects.all())
        choices = [(s.start, str(s.pk), s.name) for s in seasons]
        for name, start, _end in (this, following):
            if not any(s.start <= start <= s.end or s.name == name for s in seasons):
                choices.append((start, f"new:{start.isoformat()}", f"{name} (new season)"))
        choices.sort(key=lambda c: c[0], reverse=True)
        self.fields["season"].choices = [(value, label) for _, value, label in choices]
        initial = self.initial.get("season")
        if isinstance(initial, Season):
            self.initial["season"] = str(initial.pk)
        elif initial is None:
            current = next((s for s in seasons if s.start <= today <= s.end), None)
            self.initial["season"] = str(current.pk) if current else f"new:{this[1].isoformat()}"

    def clean_season(self) -> Season | None:
        value = self.cleaned_data["season"]
        if value.startswith("new:"):
            self.new_season = dt.date.fromisoformat(value.removeprefix("new:"))
            return None
        season = Season.objects.get(pk=int(value))
        if Subscription.objects.filter(member=self.member, season=season).exists():
            raise ValidationError(f"{self.member} has already paid for {season}.")
        return season

    def save(self, commit: bool = True) -> Subscription:
        self.instance.member = self.member
        season = self.cleaned_data["season"]
        if season is None and self.new_season is not None:
            season = Season.for_day(self.new_season)
        self.instance.season = season
        return super().save(commit)


# -- events -----------------------------------------------------------------------------


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = ["name", "kind", "start_date", "end_date", "rounds", "time_control", "rated"]
        widgets = {"start_date": DATE, "end_date": DATE}
        help_texts = {"rated": "Untick for a friendly or casual event: games kept, not rated."}

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if self.instance.pk:
            played = self.instance.games.aggregate(last=Max("round"))["last"] or 0
            if rounds < played:
                raise ValidationError(
                    f"Round {played} has games already: remove them before cutting the rounds."
                )
        return rounds


def resolve_players(
    tokens: Iterable[str], members: Iterable[Member]
) -> tuple[dict[str, Member], dict[str, str]]:
    """Names or member numbers to members: (found by token, problem by token).

    A member number matches exactly, else in any case (if only one member's number is
    it in another case: two are reported, never one picked); a name matches exactly,
    else as the one name that contains it.
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
        exact = [m for m in members if m.name.lower() == key]
        close = exact or [m for m in members if key in m.name.lower()]
        if len(close) == 1:
            found[token] = close[0]
        elif close:
            names = ", ".join(f"{m.name} ({m.member_number})" for m in close[:4])
            problems[token] = f"“{token.strip()}” could be {names}: use the member number."
        else:
            problems[token] = f"“{token.strip()}” is not a member here."
    return found, problems


class EntriesForm(forms.Form):
    """Players for an event, typed as names or member numbers (a comma or a line each)."""

    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "A1, Bob Brown, 1044"}),
        help_text="Member numbers or names, separated by commas or new lines.",
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_players(self) -> list[Member]:
        tokens = [t for t in re.split(r"[,\n]", self.cleaned_data["players"]) if t.strip()]
        keys = [t.strip().lower() for t in tokens]
        candidates = Member.objects.active().filter(
            Q(member_number__in=[t.strip() for t in tokens])
            | Q(member_number__iregex=_any_of(keys))
            | Q(name__iregex=_any_of(keys))
        )
        found, problems = resolve_players(tokens, candidates)
        if problems:
            raise ValidationError(list(problems.values()))
        members = list(dict.fromkeys(found.values()))
        entered = set(self.event.entries.values_list("member_id", flat=True))
        return [m for m in members if m.pk not in entered]


def _any_of(keys: Sequence[str]) -> str:
    return "(" + "|".join(re.escape(k) for k in keys if k) + ")" if keys else "^$"


# -- results ----------------------------------------------------------------------------

RESULT_CHOICES = [("", "—")] + [(value, value) for value in Game.Result.values]
RESULT_LABELS = {
    "1-0": "1-0",
    "1/2-1/2": "½-½",
    "0-1": "0-1",
    "+/-": "+/− forfeit",
    "-/+": "−/+ forfeit",
    "-/-": "−/− both forfeit",
    "1-0 nr": "1-0 not rated",
    "1/2-1/2 nr": "½-½ not rated",
    "0-1 nr": "0-1 not rated",
    "bye": "Bye (1)",
    "half-bye": "Bye (½)",
    "zero-bye": "Absent (0)",
}
ALLOWED = ", ".join(RESULT_LABELS[v] for v in Game.Result.values)


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
    result = forms.ChoiceField(
        choices=[("", "—")] + [(v, RESULT_LABELS[v]) for v in Game.Result.values],
        required=False,
        error_messages={"invalid_choice": f"Not a result. Allowed: {ALLOWED}."},
    )

    def __init__(self, *args, players: Sequence[Member], **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(m.pk, f"{m.name} ({m.member_number})") for m in players]
        for name in ("white", "black"):
            field = self.fields[name]
            field.choices = choices
            field.error_messages["invalid_choice"] = "That player is not in this event."
            field.widget.attrs["class"] = "form-select form-select-sm"
        self.fields["result"].widget.attrs["class"] = "form-select form-select-sm result"

    def clean(self) -> dict:  # type: ignore[type-arg]
        data = super().clean()
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

    def __init__(self, *args, players: Sequence[Member], **kwargs) -> None:  # type: ignore[no-untyped-def]
        self.players = list(players)
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):  # type: ignore[no-untyped-def]
        return {**super().get_form_kwargs(index), "players": self.players}

    def clean(self) -> None:
        # Checked whatever else is wrong on the page, so every problem shows at once.
        seen: dict[int, int] = {}
        twice = False
        for number, form in enumerate(self.forms, start=1):
            data = getattr(form, "cleaned_data", {})
            for side in ("white", "black"):
                pk = data.get(side)
                if pk is None:
                    continue
                if pk in seen and seen[pk] != number:
                    name = next(m.name for m in self.players if m.pk == pk)
                    form.add_error(side, f"{name} is already paired on board {seen[pk]}.")
                    twice = True
                seen.setdefault(pk, number)
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


RoundFormSet = forms.formset_factory(PairingForm, formset=BaseRoundFormSet, extra=0)


def _spaced(spelling: str) -> str:
    """A spelling as a pattern that allows spaces around its dash, slash or colon (a
    score sheet's "1 - 0", "1/2 - 1/2", "+ / -") and any spaces before "nr"."""
    parts = re.split(r"\s*([-/:])\s*|\s+", spelling)
    out = []
    for index, part in enumerate(parts):
        if part is None:  # a space in the spelling (before "nr")
            out.append(r"\s+")
        elif index % 2:  # a separator
            out.append(rf"\s*{re.escape(part)}\s*")
        else:
            out.append(re.escape(part))
    return "".join(out)


#: A pasted line ends in a result, spelled as in a results file (imports.RESULT_SPELLINGS),
#: the longest spellings tried first; what comes before it is the players. Searched for
#: (the leftmost start wins, so the players are as short as can be) in a line whose
#: spaces are collapsed: every part of the pattern then matches a bounded number of
#: characters, so the search takes time linear in the line, however it is written.
PASTE_RESULT = re.compile(
    r"\s(?P<result>"
    + "|".join(
        _spaced(spelling)
        for spelling in sorted(
            (s for spellings in RESULT_SPELLINGS.values() for s in spellings),
            key=len,
            reverse=True,
        )
    )
    + r")$",
    re.IGNORECASE,
)
#: Between white and black: " - ", " – ", " v ", " vs ", " vs. " (the first one found).
PASTE_VERSUS = re.compile(r"\s[-–—v]s?\.?\s", re.IGNORECASE)
VERSUS_TOKEN = re.compile(r"[-–—v]s?\.?", re.IGNORECASE)
#: What joins the parts of a result written with spaces ("1 - 0", "+ / -").
RESULT_JOINS = "-/:"


def paste_line_split(line: str) -> tuple[str, str] | None:
    """A pasted line as (players, result), or None when it does not end in a result.

    Spaces are collapsed first ("Alice  Archer" is "Alice Archer").
    """
    line = " ".join(line.split())
    ended = PASTE_RESULT.search(line)
    if ended is None:
        return None
    return line[: ended.start()], ended["result"]


def paste_versus(players: str) -> tuple[str, str] | None:
    """``white - black`` as (white, black), or None when no separator stands between two
    names."""
    players = " ".join(players.split())
    found = PASTE_VERSUS.search(players)
    if found is None or found.start() == 0 or found.end() >= len(players):
        return None
    return players[: found.start()], players[found.end() :]


def paste_unknown_result(line: str) -> str | None:
    """What stands where the result of ``white - black result`` should, for the message
    when it is not a result ("1 - 1", "3-1 nr"); None when the line is not that shape.

    Read token by token from the end: the result is the longest run of tokens joined by a
    dash, slash or colon (then an optional "nr") that leaves ``white - black`` before it.
    """
    tokens = line.split()
    nr = len(tokens) > 1 and tokens[-1].lower() == "nr"
    body = tokens[:-1] if nr else tokens
    if not body:
        return None
    start = len(body) - 1
    starts = [start]
    while start > 0 and (body[start - 1][-1] in RESULT_JOINS or body[start][0] in RESULT_JOINS):
        start -= 1
        starts.append(start)
    # The separator between the players is the first token that is one, after white;
    # black is at least the token after it.
    versus = next(
        (i for i, token in enumerate(body) if i > 0 and VERSUS_TOKEN.fullmatch(token)), None
    )
    if versus is None:
        return None
    for start in reversed(starts):  # the longest result first: black as short as can be
        if start >= versus + 2:
            return " ".join(body[start:] + tokens[len(body) :])
    return None


def read_spaced_result(text: str) -> str | None:
    """The result of a spelling matched by PASTE_RESULT: "1 - 0" is "1-0"."""
    return read_result(re.sub(r"\s*([-/:])\s*", r"\1", text))


class PasteRoundForm(forms.Form):
    """A round pasted as text: ``white - black result`` a line, names or member numbers."""

    round = forms.IntegerField(min_value=1)
    text = forms.CharField(
        label="Pairings and results",
        widget=forms.Textarea(
            attrs={"rows": 8, "placeholder": "A1 - B2 1-0\nCarol Chen - Dave Dunn ½-½\nE5 bye"}
        ),
        help_text="One game a line: white - black result (1-0, ½-½, 0-1; forfeits +/-, -/+, "
        "-/-; a game scored but not rated: 1-0 nr, ½-½ nr, 0-1 nr); "
        "a bye as: name bye, name half-bye or name zero-bye.",
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.event = event
        self.players = list(
            Member.objects.filter(entries__event=event).order_by("name", "member_number")
        )
        self.fields["round"].max_value = event.rounds
        self.fields["round"].widget.attrs["max"] = event.rounds

    def clean_round(self) -> int:
        number = self.cleaned_data["round"]
        if number > self.event.rounds:
            raise ValidationError(f"This event has {self.event.rounds} rounds.")
        return number

    def clean_text(self) -> list[Pairing]:
        pairings: list[Pairing] = []
        problems: list[str] = []
        paired: dict[int, int] = {}
        for number, line in enumerate(self.cleaned_data["text"].splitlines(), start=1):
            if not line.strip():
                continue
            ended = paste_line_split(line)
            if not ended:
                unknown = paste_unknown_result(line)
                if unknown:
                    problems.append(
                        f"Line {number}: “{unknown}” is not a result. "
                        f"Allowed: {allowed_results()}."
                    )
                else:
                    problems.append(f"Line {number}: write it as “white - black result”.")
                continue
            players, spelled = ended
            result = read_spaced_result(spelled)
            assert result is not None, "PASTE_RESULT matches the spellings only"
            if result in Game.BYES:
                tokens = [players]
            elif versus := paste_versus(players):
                tokens = list(versus)
            else:
                problems.append(f"Line {number}: write it as “white - black result”.")
                continue
            found, missing = resolve_players(tokens, self.players)
            for token in tokens:
                if token in missing:
                    problem = missing[token].replace("a member here", "in this event")
                    problems.append(f"Line {number}: {problem}")
            if missing:
                continue
            white, black = found[tokens[0]], found.get(tokens[1]) if len(tokens) > 1 else None
            if black is not None and black == white:
                problems.append(f"Line {number}: {white.name} cannot play themselves.")
                continue
            if black is None and result not in Game.BYES:
                problems.append(f"Line {number}: a game needs two players.")
                continue
            if black is not None and result in Game.BYES:
                problems.append(f"Line {number}: a bye has one player only.")
                continue
            for member in (white, black):
                if member is None:
                    continue
                if member.pk in paired:
                    problems.append(
                        f"Line {number}: {member.name} is already paired on line "
                        f"{paired[member.pk]}."
                    )
                paired.setdefault(member.pk, number)
            pairings.append(Pairing(len(pairings) + 1, white, black, result))
        if problems:
            raise ValidationError(problems)
        if not pairings:
            raise ValidationError("Paste at least one game.")
        return pairings


GRID_CHOICES = [
    ("", ""),
    ("1", "1"),
    ("=", "½"),
    ("0", "0"),
    ("+", "+ (forfeit win)"),
    ("-", "− (forfeit loss)"),
    ("--", "−− (both forfeit)"),
]
#: A grid cell (the row player's score) as the result with the row player as white.
GRID_AS_WHITE = {"1": "1-0", "=": "1/2-1/2", "0": "0-1", "+": "+/-", "-": "-/+", "--": "-/-"}
WHITE_AS_GRID = {v: k for k, v in GRID_AS_WHITE.items()}
FLIP = {"1-0": "0-1", "0-1": "1-0", "+/-": "-/+", "-/+": "+/-"}


class GridForm(forms.Form):
    """A round robin's crosstable: one cell a pair, the row player's score."""

    def __init__(self, *args, players: Sequence[Member], **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for i, row in enumerate(self.players):
            for col in self.players[i + 1 :]:
                self.fields[self.cell(row, col)] = forms.ChoiceField(
                    choices=GRID_CHOICES,
                    required=False,
                    label=f"{row.name} v {col.name}",
                    error_messages={"invalid_choice": "Not a result: 1, ½, 0, +, − or −−."},
                    widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
                )

    @staticmethod
    def cell(row: Member, col: Member) -> str:
        return f"g_{row.pk}_{col.pk}"

    def rows(self) -> Iterable[GridRow]:
        """The grid for the template: above the diagonal a field for each pair; below it
        the same game seen from the other side (the column player's cell, mirrored)."""
        for i, row in enumerate(self.players):
            cells = []
            for j, col in enumerate(self.players):
                if j > i:
                    cells.append(GridCell(field=self[self.cell(row, col)]))
                elif j < i:
                    above = self[self.cell(col, row)]
                    shown = MIRRORED.get(str(above.value() or ""), "")
                    cells.append(GridCell(mirror=above, shown=shown, opponent=col))
                else:
                    cells.append(GridCell())
            yield GridRow(row, short_name(row.name), cells)


#: The row player's score shown below the diagonal, from the cell above it.
MIRRORED = {"1": "0", "=": "½", "0": "1", "+": "−", "-": "+", "--": "−−"}


@dataclass
class GridCell:
    field: forms.BoundField | None = None
    mirror: forms.BoundField | None = None
    shown: str = ""
    opponent: Member | None = None


@dataclass
class GridRow:
    player: Member
    short: str
    cells: list[GridCell]


def short_name(name: str) -> str:
    """A name for a narrow column: "Tomasz Kowalski" is "T. Kowalski"."""
    words = name.split()
    if len(words) < 2:
        return name
    return f"{words[0][0]}. {words[-1]}"


# -- TRF import -------------------------------------------------------------------------


class TrfUploadForm(forms.Form):
    file = forms.FileField(
        label="Tournament report file (TRF)",
        help_text="The FIDE report your pairing program exports (Swiss Manager, Vega, "
        "JaVaFo, bbpPairings, Lichess…): TRF16 or TRF-2026.",
    )

    MAX_BYTES = 5_000_000

    def clean(self) -> dict:  # type: ignore[type-arg]
        from . import trf

        data = super().clean()
        upload = data.get("file")
        if upload is None:
            return data
        if upload.size > self.MAX_BYTES:
            self.add_error("file", "This file is too large for a tournament report.")
            return data
        text = trf.decode(upload.read())
        try:
            tournament = trf.parse(text)
        except trf.TrfError as error:
            self.add_error("file", str(error))
            return data
        data["text"] = text
        data["tournament"] = tournament
        return data


KIND_FROM_TRF = (
    ("round", Event.Kind.ROUND_ROBIN),
    ("robin", Event.Kind.ROUND_ROBIN),
    ("team", Event.Kind.LEAGUE),
    ("swiss", Event.Kind.SWISS),
)


class TrfConfirmForm(forms.Form):
    """The event's details and, for each player in the file, who they are here."""

    name = forms.CharField(max_length=120)
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    start_date = forms.DateField(widget=DATE)
    end_date = forms.DateField(widget=DATE)
    rated = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args, tournament, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        kind = next(
            (k for word, k in KIND_FROM_TRF if word in tournament.kind.lower()), Event.Kind.SWISS
        )
        self.initial.update(
            name=tournament.name[:120] or "Imported tournament",
            kind=kind,
            start_date=tournament.start,
            end_date=tournament.end or tournament.start,
            rated=True,
        )
        self.matches = self._match(tournament.players)
        for player in tournament.players:
            match = self.matches.get(player.rank)
            options = [("new", "New member"), ("guest", "Guest")]
            if match is not None:
                options.insert(0, (str(match.pk), f"{match.name} ({match.member_number})"))
            self.fields[f"p{player.rank}"] = forms.ChoiceField(
                choices=options,
                initial=options[0][0],
                label=player.name,
                widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            )

    @staticmethod
    def _match(players) -> dict[int, Member]:  # type: ignore[no-untyped-def]
        """Members for the file's players (``tournament_files.match_players``, shared with the
        ``import_trf`` and ``import_pgn`` commands)."""
        return match_players((p.rank, p.name, p.fide_id) for p in players)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        problem = name_problem(name)
        if problem:
            raise ValidationError(problem)
        return name

    def clean(self) -> dict:  # type: ignore[type-arg]
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end:
            # The event form's date rules (order, a mistyped year), on the file's dates.
            try:
                Event(start_date=start, end_date=end).clean()
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    self.add_error(field, problems)
        name = data.get("name")
        if name and start and Event.objects.filter(name=name, start_date=start).exists():
            self.add_error(
                "name",
                f"{name} starting {start:%d %b %Y} is already recorded: importing it again "
                "would record its games twice. Delete that event first, or rename this one.",
            )
        chosen = [v for k, v in data.items() if k.startswith("p") and v and v.isdigit()]
        twice = {v for v in chosen if chosen.count(v) > 1}
        rating_field = Member._meta.get_field("initial_rating")
        for player in self.tournament.players:
            choice = data.get(f"p{player.rank}")
            if choice in twice:
                self.add_error(f"p{player.rank}", "Two players in the file are this member.")
            if choice in ("new", "guest") and player.rating is not None:
                # A member made from the file starts from its rating: the member form's
                # rules apply to it.
                try:
                    rating_field.run_validators(player.rating)
                except ValidationError as error:
                    self.add_error(
                        f"p{player.rank}",
                        f"Line {player.line}: the file gives {player.name} the rating "
                        f"{player.rating}. {' '.join(error.messages)} Correct the file, or "
                        "choose the member this player is.",
                    )
        return data

    def choices(self) -> dict[int, str]:
        return {p.rank: self.cleaned_data[f"p{p.rank}"] for p in self.tournament.players}

    def player_rows(self):  # type: ignore[no-untyped-def]
        for player in self.tournament.players:
            yield player, self[f"p{player.rank}"], self.matches.get(player.rank)


# Calculator -----------------------------------------------------------------------------

CALCULATOR_RESULTS = [("1", "Win (1)"), ("0.5", "Draw (½)"), ("0", "Loss (0)")]


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

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("max_length", 160)
        super().__init__(*args, **kwargs)
        self.queryset = Member.objects.none()

    def clean(self, value: str | None) -> Member | None:  # type: ignore[override]
        text = super().clean(value).strip()
        if not text:
            return None
        match = _NAMED_NUMBER.match(text)
        number = match["number"] if match else text
        members = self.queryset.select_related("rating_state")
        found = list(members.filter(member_number__iexact=number)[:1])
        if found:
            return found[0]
        named = list(members.filter(name__iexact=text).order_by("member_number")[:6])
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


class CalculatorPlayerForm(forms.Form):
    """Whose rating: a member (their stored rating), or a typed rating and games played."""

    member = MemberPickField(
        required=False,
        label="Member",
        help_text="Type two letters of a name and pick from the list, or a member number.",
    )
    rating = forms.FloatField(
        required=False,
        min_value=0,
        max_value=4000,
        label="or a rating",
        error_messages={"invalid": "A rating is a number, e.g. 1450."},
    )
    games = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=100000,
        label="rated games played",
        error_messages={"invalid": "Games played is a whole number."},
    )

    def __init__(self, *args, members: Any = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        if members is not None:
            self.fields["member"].queryset = members

    def clean(self) -> dict:  # type: ignore[type-arg]
        data = super().clean()
        member, rating = data.get("member"), data.get("rating")
        if member is None and rating is None and not self.errors:
            self.add_error("member", "Choose a member, or type a rating.")
        elif member is not None and rating is not None:
            self.add_error("rating", "Choose a member or type a rating, not both.")
        elif rating is not None and data.get("games") is None:
            self.add_error("games", "Say how many rated games the rating is based on.")
        return data


class CalculatorGameForm(forms.Form):
    """One hypothetical game: an opponent (member or typed rating) and the result."""

    opponent = MemberPickField(required=False, label="Opponent")
    rating = forms.FloatField(
        required=False,
        min_value=0,
        max_value=4000,
        label="or their rating",
        error_messages={"invalid": "A rating is a number, e.g. 1450."},
    )
    result = forms.ChoiceField(
        choices=[("", "—"), *CALCULATOR_RESULTS],
        required=False,
        label="Result",
        error_messages={"invalid_choice": "A result is 1, ½ or 0."},
    )

    def __init__(self, *args, members: Any = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        if members is not None:
            self.fields["opponent"].queryset = members

    def clean(self) -> dict:  # type: ignore[type-arg]
        data = super().clean()
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
