"""Tie-breaks: how players on the same points are ranked (FIDE Handbook C.07, 2023/2024).

Plain Python (no Django): the crosstable, its CSV and the TRF export give the event's
games as plain results (``Result``) and read back each player's figures and the order.

The tie-breaks, by the acronyms of C.07 (and of TRF-2026's ``202``/``212`` lines):

- ``BH`` Buchholz: the sum of the opponents' scores. ``BH/C1`` (Cut-1) leaves out the
  least significant one, ``BH/M1`` (Median-1) the least and the most significant.
- ``SB`` Sonneborn-Berger: each opponent's score times the points scored against them;
  ``SB/C1`` leaves out the opponent with the lowest score.
- ``DE`` direct encounter: among the players still tied, the points scored against one
  another (C.07 article 6, below).
- ``WIN``: rounds won, played or not (a forfeit win, a full-point bye count);
  ``WON``: games won over the board.
- ``ARO``: the average rating of the opponents met over the board, rounded (unrated
  opponents left out).

Unplayed rounds (C.07 article 16, as in force from 2023). A round is *voluntarily
unplayed* (a VUR) when the player was not paired to play it and did not score a win: a
half-point or zero-point bye, a forfeit loss, a round missing from the record. A full-point
bye (the pairing's bye) and a forfeit win are unplayed but not voluntary.

- The player's own unplayed rounds (a bye, a forfeit either way) count in their Buchholz as
  a game against a *dummy opponent* whose score is the player's own final score; in their
  Sonneborn-Berger, that score times the points the round gave.
- An opponent's score, as it counts in someone's Buchholz, is *adjusted*: the opponent's
  voluntarily unplayed rounds after the last round they were there for (a withdrawal)
  count as draws; every other round as it was scored.
- A cut leaves out a voluntarily unplayed round first, whatever its value.
- In a round robin the pairings are fixed in advance: a forfeit counts as a game against
  the opponent who was due (for Buchholz, Sonneborn-Berger and the direct encounter), and
  a round with no opponent counts for nothing.

Direct encounter (article 6): when every tied player has met every other, they are ranked
by the points they scored against one another (those level again are looked at again
among themselves); when not, a player is ranked ahead only with more such points than any
of the others could reach by winning the games they did not play.

The figures are FIDE's own: the tests check them against the exercises in Mario Held's
paper for C.07 (2023), as FIDE's tie-break server pins them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Generic, TypeVar

from . import results as vocabulary

#: Every tie-break the club offers, by its C.07 acronym, and its name in full.
NAMES: dict[str, str] = {
    "BH/C1": "Buchholz Cut-1",
    "BH": "Buchholz",
    "BH/M1": "Median Buchholz",
    "SB": "Sonneborn-Berger",
    "SB/C1": "Sonneborn-Berger Cut-1",
    "DE": "Direct encounter",
    "WIN": "Wins",
    "WON": "Games won",
    "ARO": "Average rating of opponents",
}
#: The column heads on the crosstable and in its CSV.
HEADS: dict[str, str] = {
    "BH/C1": "BH-C1",
    "BH": "BH",
    "BH/M1": "BH-M1",
    "SB": "SB",
    "SB/C1": "SB-C1",
    "DE": "DE",
    "WIN": "Wins",
    "WON": "Won",
    "ARO": "ARO",
}
#: Codes as they may be typed: C.07 writes the modifiers with a dash or a slash.
SPELLINGS = {code.replace("/", "-"): code for code in NAMES} | {code: code for code in NAMES}

#: The defaults, as C.07 (2023) recommends them: for a Swiss (and any event paired as it
#: goes, a club night, a league) the opponents' strength first; for a round robin, where
#: everyone meets the same field, the games between the tied players first.
SWISS_DEFAULT = ("BH/C1", "BH", "SB")
ROUND_ROBIN_DEFAULT = ("DE", "SB", "WIN")
#: At most so many tie-breaks an event (a crosstable has room for them).
MAX_TIE_BREAKS = 5

#: A player, as the caller keys them (a member's id, a starting rank).
K = TypeVar("K", bound=Hashable)

WIN_POINTS = 1.0
DRAW_POINTS = 0.5


def default_codes(*, round_robin: bool) -> tuple[str, ...]:
    return ROUND_ROBIN_DEFAULT if round_robin else SWISS_DEFAULT


def read_codes(text: str) -> tuple[tuple[str, ...], str | None]:
    """The tie-breaks ``text`` lists (commas or spaces between them, any case), and a
    problem to show at the field, or None."""
    words = [w for w in text.replace(",", " ").split() if w]
    codes: list[str] = []
    for word in words:
        code = SPELLINGS.get(word.upper())
        if code is None:
            known = ", ".join(f"{c} ({NAMES[c]})" for c in NAMES)
            return (), f"“{word}” is not a tie-break the club knows. Use: {known}."
        if code in codes:
            return (), f"{code} is listed twice."
        codes.append(code)
    if len(codes) > MAX_TIE_BREAKS:
        return (), f"At most {MAX_TIE_BREAKS} tie-breaks: the first ones decide nearly every tie."
    return tuple(codes), None


def codes_text(codes: Iterable[str]) -> str:
    """The tie-breaks as the event keeps them: ``BH/C1,BH,SB``."""
    return ",".join(codes)


@dataclass(frozen=True)
class Result:
    """One game or bye of the event, as a tie-break reads it. ``black`` is None for a bye
    (``white`` is the player who had it). ``played``: both players were there and a game
    was scored (rated or not); a forfeit and a bye were not played."""

    round: int
    white: Hashable
    black: Hashable | None
    white_points: float
    black_points: float
    played: bool


def results_of(games: Iterable[tuple[int, Hashable, Hashable | None, str]]) -> list[Result]:
    """The games as the tie-breaks read them, from (round, white, black, result code) rows:
    a game scored but not rated was played (both players were there); a forfeit and a bye
    were not."""
    found = []
    for round_, white, black, result in games:
        white_points, black_points = vocabulary.POINTS[result]
        played = result in vocabulary.PLAYED or result in vocabulary.UNRATED
        found.append(Result(round_, white, black, white_points, black_points, played))
    return found


@dataclass(frozen=True)
class _Round:
    opponent: Hashable | None
    points: float
    played: bool

    @property
    def voluntary(self) -> bool:
        """A voluntarily unplayed round (C.07 16.2): not played, and less than a win."""
        return not self.played and self.points < WIN_POINTS


_ABSENT = _Round(None, 0.0, False)


@dataclass
class Standing(Generic[K]):
    """The players in order (``order``), each one's place (``places``: "2=" when shared)
    and each tie-break's figure (``figures[code][player]``, None where it has none)."""

    order: list[K]
    places: dict[K, str]
    points: dict[K, float]
    figures: dict[str, dict[K, Any]]


class _Event:
    """The event's rounds by player, and the scores every tie-break reads."""

    def __init__(
        self,
        players: Sequence[Hashable],
        results: Iterable[Result],
        *,
        round_robin: bool,
        rounds: int | None = None,
    ):
        self.players = list(players)
        self.round_robin = round_robin
        self.by_round: dict[Hashable, dict[int, _Round]] = {p: {} for p in self.players}
        last = 0
        for r in results:
            last = max(last, r.round)
            if r.white in self.by_round:
                self.by_round[r.white][r.round] = _Round(r.black, r.white_points, r.played)
            if r.black is not None and r.black in self.by_round:
                self.by_round[r.black][r.round] = _Round(r.white, r.black_points, r.played)
        self.rounds = rounds if rounds is not None else last
        self.points = {p: sum(x.points for x in self.by_round[p].values()) for p in self.players}
        self.adjusted = {p: self._adjusted(p) for p in self.players}

    def round_of(self, player: Hashable, number: int) -> _Round:
        return self.by_round[player].get(number, _ABSENT)

    def _adjusted(self, player: Hashable) -> float:
        """The player's score as it counts in an opponent's Buchholz (C.07 16.3): rounds
        missed voluntarily after the last round they were there for count as draws."""
        rounds = [self.round_of(player, n) for n in range(1, self.rounds + 1)]
        there = [n for n, r in enumerate(rounds, start=1) if not r.voluntary]
        last_there = max(there, default=0)
        missed = 0.0 if self.round_robin else DRAW_POINTS
        return sum(
            r.points if n <= last_there or r.opponent is not None else missed
            for n, r in enumerate(rounds, start=1)
        )

    def met(self, r: _Round) -> bool:
        """Whether the round counts as a game against its opponent: played, or in a round
        robin (pairings fixed in advance) paired at all."""
        return r.opponent is not None and (r.played or self.round_robin)

    def contributions(self, player: Hashable) -> list[tuple[bool, float, float]]:
        """Each round's part in the player's Buchholz and Sonneborn-Berger: (voluntarily
        unplayed, the opponent's (or dummy's) score, that score times the points)."""
        parts = []
        for n in range(1, self.rounds + 1):
            r = self.round_of(player, n)
            if self.met(r):
                score, voluntary = self.adjusted[r.opponent], False
            elif not self.round_robin:
                score, voluntary = self.points[player], r.voluntary  # the dummy opponent
            else:
                continue
            parts.append((voluntary, score, score * r.points))
        return parts


def _cut(parts: list[tuple[bool, float, float]], *, low: int, high: int, sb: bool) -> float:
    """The sum of a player's Buchholz (or Sonneborn-Berger) parts, ``low`` least and
    ``high`` most significant left out; a voluntarily unplayed round is cut first."""
    parts = list(parts)
    value = 2 if sb else 1
    for _ in range(min(low, len(parts))):
        lowest = min(parts, key=lambda p: (p[1], p[2]))
        voluntary = min(parts, key=lambda p: (not p[0], p[1], p[2]))
        parts.remove(lowest if lowest[value] > voluntary[value] else voluntary)
    for _ in range(min(high, len(parts))):
        parts.remove(max(parts, key=lambda p: (p[1], p[2])))
    return sum(p[value] for p in parts)


def _buchholz(event: _Event, code: str) -> dict[Hashable, float]:
    name, _, modifier = code.partition("/")
    low = 1 if modifier in ("C1", "M1") else 0
    high = 1 if modifier == "M1" else 0
    return {
        p: _cut(event.contributions(p), low=low, high=high, sb=name == "SB") for p in event.players
    }


def _wins(event: _Event, *, over_the_board: bool) -> dict[Hashable, int]:
    return {
        p: sum(
            1
            for r in event.by_round[p].values()
            if r.points >= WIN_POINTS and (not over_the_board or (r.played and r.opponent))
        )
        for p in event.players
    }


def _average_rating(event: _Event, ratings: dict[Any, float | None]) -> dict[Any, int | None]:
    out: dict[Hashable, int | None] = {}
    for p in event.players:
        met = [
            ratings.get(r.opponent)
            for r in event.by_round[p].values()
            if r.played and r.opponent is not None
        ]
        rated = [Decimal(str(x)) for x in met if x is not None]
        if not rated:
            out[p] = None
            continue
        average = sum(rated, Decimal(0)) / len(rated)
        out[p] = int(average.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return out


def _encounters(event: _Event, group: Sequence[Hashable]) -> dict[Hashable, tuple[float, int]]:
    """Each player's points against the others in ``group``, and how many of them they met."""
    members = set(group)
    out = {}
    for p in group:
        points = 0.0
        met: set[Hashable] = set()
        for r in event.by_round[p].values():
            if r.opponent in members and event.met(r):
                points += r.points
                met.add(r.opponent)
        out[p] = (points, len(met))
    return out


def _direct_encounter(
    event: _Event, group: list[Hashable], figures: dict[Hashable, Any]
) -> list[list[Hashable]]:
    """``group`` (players level so far) split by direct encounter, best first; each part
    a list of players still level."""
    if len(group) < 2:
        return [group]
    scores = _encounters(event, group)
    for p in group:
        figures.setdefault(p, scores[p][0])
    others = len(group) - 1
    if all(met == others for _, met in scores.values()):
        values = sorted({points for points, _ in scores.values()}, reverse=True)
        parts = [[p for p in group if scores[p][0] == v] for v in values]
    else:
        # Not all have met: ahead only with more than any other could still reach.
        reach = {p: points + (others - met) * WIN_POINTS for p, (points, met) in scores.items()}
        rest = sorted(group, key=lambda p: (-scores[p][0], -reach[p]))
        parts = []
        while len(rest) > 1 and scores[rest[0]][0] > max(reach[p] for p in rest[1:]):
            parts.append([rest.pop(0)])
        parts.append(rest)
    if len(parts) == 1:
        return parts
    split: list[list[Hashable]] = []
    for part in parts:
        split += _direct_encounter(event, part, figures) if len(part) > 1 else [part]
    return split


def standing(
    players: Sequence[K],
    results: Iterable[Result],
    codes: Sequence[str],
    *,
    round_robin: bool,
    ratings: Mapping[K, float | None] | None = None,
    rounds: int | None = None,
) -> Standing[K]:
    """The players ranked by points, then by ``codes`` in turn; those level on all of them
    share a place (and keep the order ``players`` gives them, e.g. by name).

    ``rounds``: the rounds to read (the highest round with a result if not given): a round
    a player has no result in is one they missed.
    """
    event = _Event(players, results, round_robin=round_robin, rounds=rounds)
    figures: dict[str, dict[Any, Any]] = {}
    for code in codes:
        if code == "DE":
            figures[code] = {}
        elif code in ("WIN", "WON"):
            figures[code] = _wins(event, over_the_board=code == "WON")
        elif code == "ARO":
            figures[code] = _average_rating(event, dict(ratings or {}))
        else:
            figures[code] = _buchholz(event, code)
    groups: list[list[Any]] = _split(event.players, lambda p: event.points[p])
    for code in codes:
        refined: list[list[Any]] = []
        for group in groups:
            if len(group) < 2:
                refined.append(group)
            elif code == "DE":
                refined += _direct_encounter(event, group, figures["DE"])
            else:
                refined += _split(group, lambda p, c=code: _sortable(figures[c].get(p)))
        groups = refined
    order: list[K] = []
    places: dict[K, str] = {}
    for group in groups:
        place = len(order) + 1
        for p in group:
            places[p] = f"{place}=" if len(group) > 1 else str(place)
        order += group
    return Standing(order=order, places=places, points=event.points, figures=figures)


def _sortable(value: Any) -> float:
    return float("-inf") if value is None else float(value)


def _split(group: Sequence[Hashable], value: Any) -> list[list[Hashable]]:
    """``group`` in parts of equal ``value``, the highest first (the order kept within)."""
    parts: dict[float, list[Hashable]] = defaultdict(list)
    for p in group:
        parts[value(p)].append(p)
    return [parts[v] for v in sorted(parts, reverse=True)]
