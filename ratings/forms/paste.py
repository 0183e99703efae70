"""A round pasted as text ("Alice Archer 1-0 Bob Brown"): the line reader and its form."""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from ..models import Event, Game, Member
from ..rules.duplicates import NONE_FOUND
from ..rules.results import SPELLINGS, allowed_results, read_result
from ..services.duplicates import duplicate_reason_problem, duplicates_of
from ..words.counts import count_phrase
from .events import NotFound, club_members_named, resolve_players
from .results import Pairing


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


#: A pasted line ends in a result, spelled as in a results file (results.SPELLINGS),
#: the longest spellings tried first; what comes before it is the players. Searched for
#: (the leftmost start wins, so the players are as short as can be) in a line whose
#: spaces are collapsed: every part of the pattern then matches a bounded number of
#: characters, so the search takes time linear in the line, however it is written.
PASTE_RESULT = re.compile(
    r"\s(?P<result>"
    + "|".join(
        _spaced(spelling)
        for spelling in sorted(
            (s for spellings in SPELLINGS.values() for s in spellings),
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
    duplicate_reason = forms.CharField(
        label="Why these games are to be recorded again",
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Asked only when the round's games are already recorded in another event "
        "(see above): kept with the event and in its history.",
    )

    def __init__(self, *args, event: Event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.players = list(
            Member.objects.filter(entries__event=event).order_by("name", "member_number")
        )
        cast(forms.IntegerField, self.fields["round"]).max_value = event.rounds
        self.fields["round"].widget.attrs["max"] = event.rounds
        self.duplicates = NONE_FOUND
        #: The club's members the pasted round names who are not in the event yet: the
        #: page offers to enter them, all in one click ("add_players").
        self.addable: list[Member] = []

    def clean(self) -> dict[str, Any]:
        """The round's games already recorded in another event (``rules.duplicates``): shown
        on the preview; saved only with a reason, unless the event keeps one already."""
        super().clean()
        data = self.cleaned_data
        number, pairings = data.get("round"), data.get("text")
        if not (number and pairings):
            return data
        self.duplicates = duplicates_of(
            start=self.event.start_date,
            end=self.event.end_date,
            games=[
                (number, p.white.pk, p.black.pk if p.black else None, p.result) for p in pairings
            ],
            event=self.event.pk,
        )
        reason = data.get("duplicate_reason", "") or self.event.duplicate_reason
        if "save" in self.data and (problem := duplicate_reason_problem(self.duplicates, reason)):
            self.add_error("duplicate_reason", problem)
        return data

    def clean_round(self) -> int:
        number = self.cleaned_data["round"]
        if number > self.event.rounds:
            raise ValidationError(f"This event has {count_phrase(self.event.rounds, 'round')}.")
        return number

    def clean_text(self) -> list[Pairing]:
        pairings: list[Pairing] = []
        problems: list[str] = []
        paired: dict[int, tuple[int, Member | None]] = {}
        #: Players the event does not have, each with the lines that name them.
        strangers: dict[str, list[int]] = {}
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
                if isinstance(missing.get(token), NotFound):
                    strangers.setdefault(" ".join(token.split()), []).append(number)
                elif token in missing:
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
            for member, opponent in ((white, black), (black, white)):
                if member is None:
                    continue
                # Several games against the same opponent are a match, allowed.
                line, met = paired.setdefault(member.pk, (number, opponent))
                if line != number and (opponent is None or met != opponent):
                    problems.append(
                        f"Line {number}: {member.name} is already paired on line {line}."
                    )
            pairings.append(Pairing(len(pairings) + 1, white, black, result))
        problems += self._not_in_the_event(strangers)
        if problems:
            raise ValidationError(problems)
        if not pairings:
            raise ValidationError("Paste at least one game.")
        return pairings

    def _not_in_the_event(self, unknown: dict[str, list[int]]) -> list[str]:
        """The problems of the players the event does not have, one each, whatever the
        lines naming them: the club's members among them are offered to enter (``addable``),
        the others named as no member of the club."""
        if not unknown:
            return []
        problems = []
        members, others = club_members_named(list(unknown))
        self.addable = list(dict.fromkeys(members.values()))
        if self.addable:
            # Named once, in the list beside the button that enters them.
            problems.append(
                f"{count_phrase(len(self.addable), 'player')} named here "
                f"{'is' if len(self.addable) == 1 else 'are'} in the club but not in this "
                "event yet: “Enter them and preview” enters them in one go."
            )
        for token, lines in unknown.items():
            if token in members:
                continue
            where = f"Line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
            if isinstance(others.get(token), NotFound):
                problems.append(
                    f"{where}: “{token}” is not a member of the club: add them on the "
                    "event's players page, then paste again."
                )
            else:
                problems.append(f"{where}: {others.get(token, '')}")
        return problems
