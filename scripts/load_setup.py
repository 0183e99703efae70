"""Get a generated history ready for scripts/load.py: an officer, and an event to rate.

    DATABASE_URL=postgres://postgres@127.0.0.1/load14 .venv/bin/python scripts/load_setup.py \
        --officer olivia --password 'load-test-2026'

Copies the pairings and results of the history's latest event into a new event dated
today (``--events N``: N of them), its results all entered but not yet complete: marking
it complete (what the officer does in scripts/load.py) rates it. Prints the new events'
pks and the paths of a published member's page and the event's report, to read during
the run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from ratings.models import Entry, Event, Game, Member  # noqa: E402
from ratings.services.accounts import officer_create  # noqa: E402


def night_copied(latest: Event, *, name: str) -> Event:
    """A new event dated today, with ``latest``'s entries, pairings and results, not yet
    complete: marking it complete rates it."""
    today = timezone.localdate()
    with transaction.atomic():
        event = Event.objects.create(
            name=f"{name} {Event.objects.count() + 1}",
            kind=latest.kind,
            start_date=today,
            end_date=today,
            rounds=latest.rounds,
            status=Event.Status.DRAFT,
        )
        Entry.objects.bulk_create(
            Entry(event=event, member_id=m)
            for m in latest.entries.values_list("member_id", flat=True)
        )
        Game.objects.bulk_create(
            Game(
                event=event,
                round=g.round,
                board=g.board,
                white_id=g.white_id,
                black_id=g.black_id,
                result=g.result,
            )
            for g in latest.games.all()
        )
    return event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--officer", default="olivia")
    parser.add_argument("--password", required=True)
    parser.add_argument(
        "--events", type=int, default=1, help="events to rate, each a copy (default 1)"
    )
    args = parser.parse_args()
    if not User.objects.filter(username=args.officer).exists():  # a second run: made
        officer_create(username=args.officer, password=args.password)
    latest = Event.objects.filter(status=Event.Status.COMPLETE).order_by("-end_date", "-pk")[0]
    events = []
    for _ in range(args.events):
        event = night_copied(latest, name="Load test night")
        events.append(event)
        print(f"event {event.pk}: {event.games.count()} games, {event.entries.count()} players")
    print(f"events: {' '.join(str(e.pk) for e in events)}")
    member = Member.objects.published().listable().order_by("pk").first()
    print(f"event {event.pk}: {event.games.count()} games, {event.entries.count()} players")
    print(f"member page: /members/{member.member_number}/" if member else "no published member")
    print(f"report of the latest event: /events/{latest.pk}/report/")


if __name__ == "__main__":
    main()
