"""The demo club's tournaments as they are played out: a result drawn from the two
players' hidden strengths, colours balanced, and the formats the club runs (a Swiss, a
round robin, a weekender, a match against a visiting club), each adding its event and its
games to the club drawn (``club.DemoClub``), from the club's one seed."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ratings.models import Event, Game, Member
from ratings.rules.pairings import round_robin_schedule
from ratings.rules.time_classes import STANDARD, time_class_of


@dataclass
class Person:
    member: Member
    strength: float  # hidden playing strength: what the results are drawn from
    status: str = "financial"  # financial / arrears / guest
    score: float = 0.0
    met: set[int] = field(default_factory=set)
    whites: int = 0


@dataclass
class Pairing:
    round: int
    white: Person
    black: Person | None
    result: str
    board: int | None = None


class DemoTournaments:
    """How the demo's events are played: drawn from ``rng``, added to ``events``."""

    rng: random.Random
    people: list[Person]
    events: list[tuple[Event, list[Pairing], list[Person]]]

    def result(self, white: Person, black: Person) -> str:
        # White's edge of about 35 points; draws likelier between equals and strong players.
        expected = 1 / (1 + 10 ** ((black.strength - white.strength - 35) / 400))
        level = (white.strength + black.strength) / 2
        draw = (0.12 + max(0.0, level - 1400) / 3000) * (1 - abs(2 * expected - 1))
        roll = self.rng.random()
        if roll < expected - draw / 2:
            return Game.Result.WHITE_WIN
        if roll < expected + draw / 2:
            return Game.Result.DRAW
        return Game.Result.BLACK_WIN

    def play(self, rnd: int, white: Person, black: Person, board: int | None = None) -> Pairing:
        result = self.result(white, black)
        w, b = Game.POINTS[result]
        white.score += w
        black.score += b
        white.met.add(black.member.pk)
        black.met.add(white.member.pk)
        white.whites += 1
        return Pairing(rnd, white, black, result, board)

    def colours(self, a: Person, b: Person) -> tuple[Person, Person]:
        return (a, b) if a.whites <= b.whites else (b, a)

    def swiss_round(
        self, rnd: int, players: Sequence[Person], byes: set[int], absent: Sequence[Person] = ()
    ) -> list[Pairing]:
        """Pair by score then strength, avoiding rematches; the lowest without one gets a bye."""
        pool = [p for p in players if p not in absent]
        pool.sort(key=lambda p: (-p.score, -p.strength))
        out = [Pairing(rnd, p, None, Game.Result.HALF_BYE) for p in absent]
        for p in absent:
            p.score += 0.5
        if len(pool) % 2:
            bye = next(p for p in reversed(pool) if p.member.pk not in byes)
            pool.remove(bye)
            byes.add(bye.member.pk)
            bye.score += 1
            out.append(Pairing(rnd, bye, None, Game.Result.BYE))
        board = 1
        while pool:
            top = pool.pop(0)
            other = next((p for p in pool if p.member.pk not in top.met), pool[0])
            pool.remove(other)
            out.append(self.play(rnd, *self.colours(top, other), board=board))
            board += 1
        return out

    def reset(self, players: Sequence[Person]) -> None:
        for p in players:
            p.score, p.met, p.whites = 0.0, set(), 0

    def add_swiss(
        self,
        name: str,
        kind: str,
        start: dt.date,
        end: dt.date,
        players: Sequence[Person],
        *,
        rounds: int,
        time_control: str,
        played_rounds: int | None = None,
        rated: bool = True,
        status: str = Event.Status.COMPLETE,
        online: bool = False,
    ) -> None:
        self.reset(players)
        byes: set[int] = set()
        games: list[Pairing] = []
        for rnd in range(1, (played_rounds or rounds) + 1):
            games += self.swiss_round(rnd, players, byes)
        event = Event(
            name=name,
            kind=kind,
            start_date=start,
            end_date=end,
            rounds=rounds,
            time_control=time_control,
            time_class=time_class_of(time_control) or STANDARD,
            rated=rated,
            status=status,
            online=online,
        )
        self.events.append((event, games, list(players)))

    def add_round_robin(self, name: str, start: dt.date, players: Sequence[Person]) -> None:
        """Six players, five rounds, one a week: the schedule the officer's round pages
        offer (``pairings.round_robin_schedule``)."""
        self.reset(players)
        schedule = round_robin_schedule(players)
        games: list[Pairing] = []
        for rnd, pairs in schedule.items():
            for board, (white, black) in enumerate(pairs, start=1):
                if black is not None:
                    games.append(self.play(rnd, white, black, board=board))
        event = Event(
            name=name,
            kind=Event.Kind.ROUND_ROBIN,
            start_date=start,
            end_date=start + dt.timedelta(weeks=len(schedule) - 1),
            rounds=len(schedule),
            time_control="90+30",
            status=Event.Status.COMPLETE,
        )
        self.events.append((event, games, list(players)))

    def add_weekender(self, name: str, saturday: dt.date, players: Sequence[Person]) -> None:
        """Five rounds over a weekend: byes for the odd player out, a late arrival, a forfeit."""
        self.reset(players)
        byes: set[int] = set()
        ordered = sorted(players, key=lambda p: -p.strength)
        late, no_show = ordered[-4], ordered[7]
        games = self.swiss_round(1, players, byes, absent=[late])
        for rnd in (2, 3, 4, 5):
            present = [p for p in players if not (rnd == 5 and p is no_show)]
            pairings = self.swiss_round(rnd, present, byes)
            if rnd == 4:
                # One player did not turn up for round 4 and withdrew: a forfeit.
                game = next(g for g in pairings if g.black and no_show in (g.white, g.black))
                game.result = (
                    Game.Result.WHITE_FORFEIT_WIN
                    if game.black is no_show
                    else Game.Result.BLACK_FORFEIT_WIN
                )
            games += pairings
        event = Event(
            name=name,
            kind=Event.Kind.SWISS,
            start_date=saturday,
            end_date=saturday + dt.timedelta(days=1),
            rounds=5,
            time_control="60+15",
            status=Event.Status.COMPLETE,
        )
        self.events.append((event, games, list(players)))

    def add_match(self, name: str, day: dt.date, team: Sequence[Person]) -> None:
        visitors = [p for p in self.people if p.member.member_number.startswith("H")]
        self.reset([*team, *visitors])
        games = []
        for board, (ours, theirs) in enumerate(zip(team, visitors, strict=True), start=1):
            pair = (ours, theirs) if board % 2 else (theirs, ours)
            games.append(self.play(1, *pair, board=board))
        event = Event(
            name=name,
            kind=Event.Kind.MATCH,
            start_date=day,
            end_date=day,
            rounds=1,
            time_control="90+30",
            status=Event.Status.COMPLETE,
        )
        self.events.append((event, games, [*team, *visitors]))
