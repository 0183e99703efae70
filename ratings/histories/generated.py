"""A big, made-up club history, written fast, for measuring (``manage.py generate_history``).

Same arguments (and the same day) give the same club: everything is drawn from one seed.
The shape (docs/performance.md, "How to measure"): ``--members`` people, 2 % of them guests
and 10 % in arrears (no subscription for the current season); ``--games`` game records (byes
and a few forfeits among them) in Swiss events of 40 to 60 players over 5 rounds (one in five
rapid, 25+10, its time class read from the control), dated over
the ten years up to last week; results drawn from hidden strengths with Elo's odds.

Rows are built as tuples and written as they are drawn, a few hundred thousand at a time
(``ratings.histories.bulk_load``: ``executemany`` on SQLite, COPY on PostgreSQL), in one
transaction: ten million games never stand in memory at once. Django's model layer would
take an hour for a million games. No audit-trail (django-simple-history) rows are
written: the history is generated, not an officer's changes, and the audit tables would
double what is written for nothing measured.

Why one module of some 590 lines: it is one job, drawing a club (people, events, pairings,
results) from one seed; split, the draws' order (which the seed's club depends on) would be
spread over files that must change together.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Model
from django.utils import timezone

from ratings.histories import bulk_load
from ratings.models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    Publication,
    PublicationEntry,
    RatingChange,
    RatingPeriod,
    RatingRun,
    RatingState,
    Season,
    Subscription,
)

# Results as plain strings (not the choices' enum members): database drivers take exact types.
from ratings.rules.names import name_key
from ratings.rules.results import BLACK_FORFEIT_WIN, BLACK_WIN, DRAW, WHITE_FORFEIT_WIN, WHITE_WIN
from ratings.rules.time_classes import STANDARD, time_class_of

#: The club's name says the database holds a generated history, and which: ``bench`` reads it
#: back to decide whether it may reuse (or wipe) the database.
MARKER = "Generated history"
DEFAULT_SEED = 20261124
YEARS = 10
ROUNDS = 5
GUEST_SHARE = 0.02
ARREARS_SHARE = 0.10
FORFEIT_SHARE = 0.003
#: White's edge, in rating points, in the drawn results.
WHITE_EDGE = 35

GIVEN_M = (
    "James", "John", "David", "Michael", "Peter", "Andrew", "Paul", "Mark", "Thomas", "Daniel",
    "Wiremu", "Hemi", "Rangi", "Tane", "Sione", "Raj", "Arjun", "Wei", "Hiroshi", "Kenji",
    "Tomasz", "Stefan", "Viktor", "Dmitri", "Lucas", "Mateo", "Ahmed", "Omar", "Liam", "Noah",
    "Oliver", "Ethan", "Samuel", "Benjamin", "Hamish", "Connor", "Jack", "William", "Robert",
    "Graham",
)  # fmt: skip
GIVEN_F = (
    "Mary", "Sarah", "Emma", "Olivia", "Sophie", "Grace", "Hannah", "Chloe", "Ella", "Isla",
    "Aroha", "Mere", "Tui", "Leilani", "Ana", "Priya", "Sunita", "Mei", "Yuki", "Lily",
    "Elena", "Ingrid", "Nina", "Fatima", "Zoe", "Ruth", "Margaret", "Anna", "Maria", "Kate",
)  # fmt: skip
SURNAMES = (
    "Smith", "Brown", "Wilson", "Taylor", "Anderson", "Thompson", "Walker", "White", "Harris",
    "Martin", "Campbell", "Stewart", "Clarke", "Wright", "Mitchell", "Reid", "Fraser", "Morgan",
    "Ngata", "Tane", "Henare", "Pohatu", "Kingi", "Tipene", "Fifita", "Faleolo", "Tuilagi",
    "Patel", "Singh", "Sharma", "Rao", "Chen", "Li", "Wang", "Zhang", "Nguyen", "Kim", "Tanaka",
    "Sato", "Kowalski", "Novak", "Ivanov", "Petrov", "Müller", "Jansen", "Rossi", "Ferreira",
    "Lopez", "Garcia", "Ali", "Begum", "O'Connor", "MacDonald", "Doyle", "Lowe", "Hughes",
    "Burns", "Cole", "Lindsay", "Petersen",
)  # fmt: skip
REGIONS = (
    "Northshore", "Eastvale", "Westmere", "Southbank", "Riverside", "Hillcrest", "Bayview",
    "Lakeside",
)  # fmt: skip
EVENT_NAMES = (
    "Weekender", "Rapid Swiss", "Open", "Championship", "Autumn Swiss", "Spring Swiss",
    "Winter Cup", "Summer Cup", "Allegro", "Masters",
)  # fmt: skip
TIME_CONTROLS = ("60+30", "90+30", "45+15", "G/60", "25+10")
TITLES_M = ("CM", "FM", "IM")
TITLES_F = ("WCM", "WFM", "WIM")


@dataclass
class Person:
    pk: int
    strength: float
    guest: bool
    weight: float
    joined: int  # day of the history (0: its first day); negative: before it
    left: int  # the day they stop playing (past the end: never)
    arrears: bool = False
    first_played: int | None = None


#: Rows held at most before they are written: the history is written as it is drawn, so
#: that ten million games never stand in memory at once.
WRITE_ROWS = 200_000

Rows = list[tuple[Any, ...]]
Write = Callable[[type[Model], Rows], None]


@dataclass
class Plan:
    """What a generated club holds: its counts by kind (its rows went to the database as
    they were drawn)."""

    counts: dict[str, int] = field(default_factory=dict)


#: The columns written for each model (attnames), in the order of the tuples.
COLUMNS: dict[type[Model], tuple[str, ...]] = {
    Season: ("id", "name", "start", "end"),
    Member: (
        "id",
        "member_number",
        "name",
        # Kept as every write of members keeps it (``Member.save``, ``bulk_create``): the
        # searches and the possible duplicates read it.
        "name_key",
        "born",
        "gender",
        "region",
        "title",
        "fide_id",
        "is_guest",
        "initial_rating",
        "initial_games",
        "brought_in",
        "created",
    ),
    Subscription: ("member_id", "season_id", "paid_on", "amount"),
    Event: (
        "id",
        "name",
        "kind",
        "start_date",
        "end_date",
        "rounds",
        "time_control",
        "time_class",
        "rated",
        "status",
        "created",
    ),
    Entry: ("event_id", "member_id"),
    Game: ("event_id", "round", "board", "white_id", "black_id", "result", "colours_known"),
}

#: The club's record, children first: what ``--force`` wipes (with their audit trails).
RECORD = (
    PublicationEntry,
    Publication,
    RatingChange,
    RatingState,
    RatingRun,
    Game,
    Entry,
    Event,
    Subscription,
    Season,
)


def marker(*, members: int, games: int, seed: int) -> str:
    return f"{MARKER}: {members} members, {games} games, seed {seed}"


def generate(
    *,
    members: int,
    games: int,
    seed: int,
    force: bool = False,
    say: Any = print,
    today: dt.date | None = None,
) -> dict[str, int]:
    """Write a generated club into the database (wiping the record first with ``force``)."""
    clock = time.perf_counter()

    def stage(message: str) -> None:
        say(f"{message} ({time.perf_counter() - clock:.1f}s)")

    today = today or timezone.localdate()
    club = ClubSettings.load()
    builder = Builder(random.Random(seed), today=today, members=members, games=games, club=club)
    with bulk_load.fast_writes(), transaction.atomic():
        if force:
            _wipe()
            stage("wiped the club's record")
        # Written as drawn, children before their parents at times: the foreign keys
        # are checked as the transaction commits.
        plan = builder.build(stage, write=_write)
        ClubSettings.objects.filter(pk=club.pk).update(
            name=marker(members=members, games=games, seed=seed)
        )
    bulk_load.after_bulk_load([Season, Member, Subscription, Event, Entry, Game])
    stage("analysed, sequences reset: done")
    return plan.counts


class Builder:
    """Draws the club: who plays, when, whom, and the results, from one random stream."""

    def __init__(
        self, rng: random.Random, *, today: dt.date, members: int, games: int, club: ClubSettings
    ) -> None:
        self.rng = rng
        self.today = today
        self.members = members
        self.games = games
        self.club = club
        # Ten years ending last week: the newest event is a few days old.
        self.last_day = today - dt.timedelta(days=7)
        self.span = YEARS * 365 + YEARS // 4
        self.first_day = self.last_day - dt.timedelta(days=self.span - 1)
        self.base = {
            model: (model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1
            for model in (Member, Event, Season)
        }
        self.people: list[Person] = []
        self._pool: tuple[int, list[Person], list[float]] | None = None
        self.plan = Plan()

    def day(self, offset: int) -> dt.date:
        return self.first_day + dt.timedelta(days=offset)

    def build(self, stage: Any, *, write: Write) -> Plan:
        """Draw the club, handing its rows to ``write`` a few hundred thousand at a time."""
        self.write = write
        self.make_people()
        stage(f"members: {len(self.people)} drawn")
        self.make_events()
        counts = self.plan.counts
        stage(
            f"events: {counts['events']} events, {counts['games']} games paired and played; "
            f"wrote {counts['events']} events, {counts['entries']} entries, "
            f"{counts['games']} games"
        )
        self.make_members_and_subscriptions()
        stage(
            f"subscriptions: {counts['subscriptions']} over {counts['seasons']} seasons; "
            f"wrote {counts['members']} members, {counts['subscriptions']} subscriptions"
        )
        return self.plan

    def flush(self, *held: tuple[type[Model], Rows, str]) -> None:
        """Write the rows held (model, rows, the kind they are counted as) and let them go."""
        counts = self.plan.counts
        for model, rows, kind in held:
            self.write(model, rows)
            counts[kind] += len(rows)
            rows.clear()

    # -- people -----------------------------------------------------------------------

    def make_people(self) -> None:
        rng = self.rng
        n = self.members
        guests = set(rng.sample(range(n), round(n * GUEST_SHARE)))
        arrears = set(
            rng.sample([i for i in range(n) if i not in guests], round(n * ARREARS_SHARE))
        )
        for i in range(n):
            # Half the club was there before the history starts; the rest join over it.
            joined = -rng.randrange(1, 1000) if rng.random() < 0.5 else rng.randrange(self.span)
            person = Person(
                pk=self.base[Member] + i,
                strength=min(2600.0, max(600.0, rng.gauss(1500, 300))),
                guest=i in guests,
                # A few play every week, most now and then.
                weight=rng.lognormvariate(0, 0.9) * (0.2 if i in guests else 1.0),
                joined=joined,
                left=self.span + 1,
                arrears=i in arrears,
            )
            if person.arrears:
                # A member in arrears stopped paying, and mostly stopped playing, some time ago.
                person.left = rng.randrange(max(joined, 0), self.span)
            elif rng.random() < 0.1:
                person.left = rng.randrange(max(joined, 0), self.span + 1)
            self.people.append(person)

    def pool(self, stretch: int) -> tuple[list[Person], list[float]]:
        """Who plays in the 30-day ``stretch`` of the history and their cumulative weights.
        Made as its first event comes, and only the last one kept: the pools of every
        stretch at once held some 700 MB at 200,000 members."""
        if self._pool is None or self._pool[0] != stretch:
            start = stretch * 30
            here = [p for p in self.people if p.joined <= start + 29 and p.left > start]
            self._pool = (stretch, here, _cumulative(here))
        return self._pool[1], self._pool[2]

    # -- events -----------------------------------------------------------------------

    def sizes(self) -> list[int]:
        """Players in each event: 40 to 60, the last one cut to make ``games`` records."""
        rng = self.rng
        sizes, total = [], 0
        while total < self.games:
            size = rng.randint(40, 60)
            rows = ROUNDS * math.ceil(size / 2)
            left = self.games - total
            if rows > left:
                size = min(size, max(2, 2 * math.ceil(left / ROUNDS)))
                rows = left
            sizes.append(size)
            total += rows
        return sizes

    def make_events(self) -> None:
        rng = self.rng
        sizes = self.sizes()
        stretches = len(range(0, self.span, 30))
        everyone = self.pools_everyone()
        events: Rows = []
        entries: Rows = []
        games: Rows = []
        self.plan.counts.update(events=0, entries=0, games=0)

        def flush() -> None:
            self.flush(
                (Event, events, "events"), (Entry, entries, "entries"), (Game, games, "games")
            )

        left = self.games
        count = len(sizes)
        for index, size in enumerate(sizes):
            # Spread evenly over the ten years, each at a random day of its stretch.
            start = min(self.span - 3, int(self.span * (index + rng.random()) / count))
            if index == count - 1:
                start = self.span - 3  # the newest ends last week, however few there are
            end = min(start + rng.choice((0, 0, 1, 2)), self.span - 1)
            pool, cumulative = self.pool(min(start // 30, stretches - 1))
            if len(pool) < size:
                pool, cumulative = everyone
            players = self.draw(pool, cumulative, min(size, len(pool)))
            pk = self.base[Event] + index
            for person in players:
                if person.first_played is None:
                    person.first_played = start
            rows = self.play(pk, players, rng)[:left]
            left -= len(rows)
            games.extend(rows)
            entries.extend((pk, p.pk) for p in players)
            region = rng.choice(REGIONS)
            begin = self.day(start)
            control = rng.choice(TIME_CONTROLS)
            events.append(
                (
                    pk,
                    f"{region} {rng.choice(EVENT_NAMES)} {begin:%Y-%m} #{index + 1}",
                    Event.Kind.SWISS.value,
                    begin,
                    self.day(end),
                    ROUNDS,
                    control,
                    # Read from the control as an officer's entry is: a club's rapid
                    # events (25+10, one in five) for a system with a rapid list of its own.
                    time_class_of(control) or STANDARD,
                    True,
                    Event.Status.COMPLETE.value,
                    _noon(begin),
                )
            )
            if len(games) >= WRITE_ROWS:
                flush()
        flush()

    def pools_everyone(self) -> tuple[list[Person], list[float]]:
        return self.people, _cumulative(self.people)

    def draw(self, pool: list[Person], cumulative: list[float], size: int) -> list[Person]:
        """``size`` different players, the keener ones more often."""
        chosen: dict[int, Person] = {}
        while len(chosen) < size:
            for person in self.rng.choices(pool, cum_weights=cumulative, k=2 * size):
                chosen.setdefault(person.pk, person)
                if len(chosen) == size:
                    break
        return list(chosen.values())

    def play(self, event: int, players: list[Person], rng: random.Random) -> list[tuple[Any, ...]]:
        """Five Swiss rounds: pair by score (no rematch where it can be helped), draw results."""
        ranked = sorted(players, key=lambda p: -(p.strength + rng.gauss(0, 100)))
        seed = {p.pk: n for n, p in enumerate(ranked)}
        score = dict.fromkeys(seed, 0.0)
        whites = dict.fromkeys(seed, 0)
        met: set[tuple[int, int]] = set()
        had_bye: set[int] = set()
        rows: list[tuple[Any, ...]] = []
        for round_ in range(1, ROUNDS + 1):
            order = sorted(ranked, key=lambda p: (-score[p.pk], seed[p.pk]))
            if len(order) % 2:
                bye = next((p for p in reversed(order) if p.pk not in had_bye), order[-1])
                order.remove(bye)
                had_bye.add(bye.pk)
                score[bye.pk] += 1
                rows.append((event, round_, None, bye.pk, None, Game.Result.BYE.value, True))
            if round_ == 1:
                half = len(order) // 2
                pairs = list(zip(order[:half], order[half:], strict=True))
            else:
                pairs = _pair(order, met)
            for board, (a, b) in enumerate(pairs, 1):
                if whites[a.pk] > whites[b.pk] or (
                    whites[a.pk] == whites[b.pk] and rng.random() < 0.5
                ):
                    a, b = b, a
                whites[a.pk] += 1
                met.add((a.pk, b.pk))
                met.add((b.pk, a.pk))
                result = _result(a.strength, b.strength, rng)
                white_points, black_points = Game.POINTS[result]
                score[a.pk] += white_points
                score[b.pk] += black_points
                rows.append((event, round_, board, a.pk, b.pk, result, True))
        return rows

    # -- members and subscriptions -----------------------------------------------------

    def make_members_and_subscriptions(self) -> None:
        rng = self.rng
        club = self.club
        first = min([0, *(p.joined for p in self.people)])
        seasons: dict[str, tuple[int, dt.date, dt.date]] = {}
        day = self.day(first)
        while True:
            name, start, end = club.season_for(day)
            seasons[name] = (self.base[Season] + len(seasons), start, end)
            if end >= self.today:
                break
            day = end + dt.timedelta(days=1)
        ordered = sorted(seasons.values(), key=lambda s: s[1])
        current = ordered[-1]
        self.write(Season, [(pk, name, start, end) for name, (pk, start, end) in seasons.items()])
        members: Rows = []
        subscriptions: Rows = []
        self.plan.counts.update(members=0, subscriptions=0)

        def flush() -> None:
            self.flush(
                (Member, members, "members"), (Subscription, subscriptions, "subscriptions")
            )

        for n, person in enumerate(self.people):
            joined = person.joined
            if person.first_played is not None:
                joined = min(joined, person.first_played)
            joined_on = self.day(joined)
            female = rng.random() < 0.2
            given = rng.choice(GIVEN_F if female else GIVEN_M)
            middle = f" {rng.choice('ABCDEFGHJKLMNPRSTW')}." if rng.random() < 0.5 else ""
            name = f"{given}{middle} {rng.choice(SURNAMES)}"
            brings = not person.guest and rng.random() < 0.35
            title = ""
            if brings and person.strength > 2150 and rng.random() < 0.4:
                title = rng.choice(TITLES_F if female else TITLES_M)
            members.append(
                (
                    person.pk,
                    f"{'G' if person.guest else 'M'}{n + 1:05d}",
                    name,
                    name_key(name),
                    dt.date(rng.randint(1945, 2014), rng.randint(1, 12), rng.randint(1, 28))
                    if rng.random() < 0.6
                    else None,
                    ("F" if female else "M") if rng.random() < 0.8 else "",
                    rng.choice(REGIONS) if rng.random() < 0.7 else "",
                    title,
                    str(4_100_000 + person.pk) if title or (brings and rng.random() < 0.3) else "",
                    person.guest,
                    round(min(2700.0, max(400.0, person.strength + rng.gauss(0, 120))))
                    if brings
                    else None,
                    rng.randint(5, 200) if brings else 0,
                    "{}",  # no words brought in (JSON): they follow from the games
                    _noon(joined_on),
                )
            )
            if person.guest:
                continue
            paid = [s for s in ordered if s[2] >= joined_on]
            if person.arrears:
                paid = [s for s in paid if s is not current]
                if paid:
                    paid = paid[: rng.randint(1, len(paid))]
            for pk, start, _ in paid:
                subscriptions.append(
                    (person.pk, pk, min(self.today, max(start, joined_on)), "45.00")
                )
            if len(subscriptions) >= WRITE_ROWS:
                flush()
        flush()
        self.plan.counts.update(
            guests=sum(p.guest for p in self.people),
            arrears=sum(p.arrears for p in self.people),
            seasons=len(seasons),
        )


def _cumulative(people: list[Person]) -> list[float]:
    """The running total of their weights, for ``random.choices``' ``cum_weights``."""
    return list(accumulate(person.weight for person in people))


def _pair(order: list[Person], met: set[tuple[int, int]]) -> list[tuple[Person, Person]]:
    """Top down, each with the next player they have not met (anyone, when all are met)."""
    left = list(order)
    pairs = []
    while left:
        a = left.pop(0)
        at = next((i for i, b in enumerate(left) if (a.pk, b.pk) not in met), 0)
        pairs.append((a, left.pop(at)))
    return pairs


def _result(white: float, black: float, rng: random.Random) -> str:
    """A result with Elo's odds for the hidden strengths: more draws between equals."""
    roll = rng.random()
    if roll < FORFEIT_SHARE:
        return WHITE_FORFEIT_WIN if roll < FORFEIT_SHARE / 2 else BLACK_FORFEIT_WIN
    expected = 1 / (1 + 10 ** ((black - white - WHITE_EDGE) / 400))
    draw = 0.35 * (1 - abs(2 * expected - 1))
    roll = rng.random()
    if roll < expected - draw / 2:
        return WHITE_WIN
    if roll < expected + draw / 2:
        return DRAW
    return BLACK_WIN


def _noon(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC)


# -- writing ------------------------------------------------------------------------------


def _tables(model: type[Model]) -> list[str]:
    tables = [model._meta.db_table]
    history = getattr(model, "history", None)
    if history is not None:
        tables.append(history.model._meta.db_table)
    return tables


def _wipe() -> None:
    """Delete the club's record and what is derived from it (users and settings stay)."""
    quote = connection.ops.quote_name
    models = [*RECORD, RatingPeriod, Member]
    tables = [table for model in models for table in _tables(model)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Rows written earlier in this transaction (a test's) leave deferred foreign-key
            # checks pending, and TRUNCATE refuses to run over them: check them now.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {', '.join(map(quote, tables))} CASCADE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        else:
            for table in tables:
                cursor.execute(f"DELETE FROM {quote(table)}")


def _write(model: type[Model], rows: Rows) -> None:
    if rows:
        bulk_load.insert(model, COLUMNS[model], rows)
