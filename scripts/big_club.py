"""Fill an empty database with a federation-sized history, for measuring the pages.

    DATABASE_URL=sqlite:////tmp/big.sqlite3 .venv/bin/python manage.py migrate
    DATABASE_URL=sqlite:////tmp/big.sqlite3 .venv/bin/python scripts/big_club.py \
        --members 20000 --games 1000000

Everything is bulk-created (no history rows, no engine run): members (10% guests, 15% in
arrears), this season's and last season's subscriptions, events of 20 players and 5
rounds, their entries and games, a rating change per player per event with a breakdown
shaped like the engine's, and a rating state per player. Member 1 ("Busy Player", number
BIG00001) plays in every seventh event, so their page has thousands of games.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")

import django

django.setup()

from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from ratings.models import (  # noqa: E402
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingState,
    Season,
    Subscription,
)

FIRST = "Ana Ben Carla Dmitri Eva Farid Greta Hemi Ines Jun Kiri Lars Mia Nikau".split()  # noqa: SIM905
LAST = "Archer Brown Chen Dunn Evans Fox Gray Hill Ito Jones Kaur Lee Moana".split()  # noqa: SIM905
REGIONS = ["North", "South", "East", "West", "Central", "Islands", ""]
PLAYERS = 20
ROUNDS = 5


def build(members: int, games: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    today = timezone.localdate()
    this_season = Season.for_day(today)
    last_season = Season.for_day(this_season.start - dt.timedelta(days=1))
    t0 = time.perf_counter()
    people = []
    for n in range(1, members + 1):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}-{n}"
        if n == 1:
            name = "Busy Player"
        people.append(
            Member(
                member_number=f"BIG{n:05d}",
                name=name,
                region=rng.choice(REGIONS),
                gender=rng.choice("MF"),
                born=dt.date(rng.randint(1940, 2018), rng.randint(1, 12), rng.randint(1, 28)),
                is_guest=n > 1 and rng.random() < 0.10,
            )
        )
    Member.objects.bulk_create(people, batch_size=5000)
    people = list(Member.objects.filter(member_number__startswith="BIG").order_by("pk"))
    subs = []
    for i, member in enumerate(people):
        if member.is_guest:
            continue
        subs.append(Subscription(member=member, season=last_season, paid_on=last_season.start))
        if i == 0 or rng.random() >= 0.15:
            subs.append(Subscription(member=member, season=this_season, paid_on=this_season.start))
    Subscription.objects.bulk_create(subs, batch_size=5000)
    print(f"{len(people)} members, {len(subs)} subscriptions: {time.perf_counter() - t0:.1f}s")

    per_event = PLAYERS // 2 * ROUNDS
    n_events = max(1, games // per_event)
    first_day = today - dt.timedelta(days=365 * 20)
    step = (today - first_day).days / n_events
    events = [
        Event(
            name=f"Big event {i + 1}",
            kind=Event.Kind.SWISS,
            start_date=first_day + dt.timedelta(days=int(i * step)),
            end_date=first_day + dt.timedelta(days=int(i * step)),
            rounds=ROUNDS,
            status=Event.Status.COMPLETE,
        )
        for i in range(n_events)
    ]
    Event.objects.bulk_create(events, batch_size=5000)
    events = list(Event.objects.filter(name__startswith="Big event ").order_by("start_date", "pk"))
    ids = [m.pk for m in people]
    busy = ids[0]
    rating = {pk: 1200.0 + rng.random() * 1000 for pk in ids}
    played = dict.fromkeys(ids, 0)
    last: dict[int, tuple[Event, float]] = {}
    t1 = time.perf_counter()
    entries: list[Entry] = []
    game_rows: list[Game] = []
    changes: list[RatingChange] = []

    def flush(force: bool = False) -> None:
        if force or len(game_rows) >= 50000:
            with transaction.atomic():
                Entry.objects.bulk_create(entries, batch_size=5000)
                Game.objects.bulk_create(game_rows, batch_size=5000)
                RatingChange.objects.bulk_create(changes, batch_size=2000)
            entries.clear()
            game_rows.clear()
            changes.clear()

    for number, event in enumerate(events):
        field = rng.sample(ids[1:], PLAYERS)
        if number % 7 == 0:
            field[0] = busy
        lines: dict[int, list[dict]] = {pk: [] for pk in field}
        for rnd in range(1, ROUNDS + 1):
            rng.shuffle(field)
            for board in range(PLAYERS // 2):
                white, black = field[2 * board], field[2 * board + 1]
                result = rng.choice(["1-0", "0-1", "1/2-1/2"])
                game_rows.append(
                    Game(
                        event=event,
                        round=rnd,
                        board=board + 1,
                        white_id=white,
                        black_id=black,
                        result=result,
                    )
                )
                points = Game.POINTS[result]
                for me, them, score in ((white, black, points[0]), (black, white, points[1])):
                    expected = 1 / (1 + 10 ** ((rating[them] - rating[me]) / 400))
                    lines[me].append(
                        {
                            "round": rnd,
                            "opponent": str(them),
                            "opponent_rating": round(rating[them], 1),
                            "score": score,
                            "expected": round(expected, 3),
                            "change": round(20 * (score - expected), 2),
                            "rated": True,
                        }
                    )
        for pk in field:
            entries.append(Entry(event=event, member_id=pk))
            before = rating[pk]
            delta = sum(line["change"] for line in lines[pk])
            after = before + delta
            rating[pk] = after
            played[pk] += ROUNDS
            changes.append(
                RatingChange(
                    event=event,
                    member_id=pk,
                    before=before,
                    after=after,
                    display_before=str(round(before)),
                    display_after=str(round(after)),
                    played=ROUNDS,
                    score=sum(line["score"] for line in lines[pk]),
                    breakdown={"games": lines[pk], "k": 20},
                    state_after={"id": str(pk), "rating": after, "games": played[pk]},
                    event_end=event.end_date,
                    event_start=event.start_date,
                )
            )
            last[pk] = (event, delta)
        flush()
        if number % 2000 == 0:
            print(f"  event {number}/{n_events}: {time.perf_counter() - t1:.0f}s", flush=True)
    flush(force=True)
    print(f"{n_events} events, {n_events * per_event} games: {time.perf_counter() - t1:.1f}s")
    states = []
    for pk in ids:
        if pk in last:
            event, delta = last[pk]
            display = str(round(rating[pk]))
            states.append(
                RatingState(
                    member_id=pk,
                    rating=rating[pk],
                    display=display,
                    games=played[pk],
                    state={"id": str(pk), "rating": rating[pk], "games": played[pk]},
                    last_event=event,
                    last_played=event.end_date,
                    last_change=delta,
                    usable=True,
                )
            )
    RatingState.objects.bulk_create(states, batch_size=5000)
    print(f"{len(states)} rating states; total {time.perf_counter() - t0:.1f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=20000)
    parser.add_argument("--games", type=int, default=1000000)
    args = parser.parse_args()
    if Member.objects.exists():
        sys.exit("The database already has members: use an empty one.")
    build(args.members, args.games)


if __name__ == "__main__":
    main()
