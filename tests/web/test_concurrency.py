"""Two officers at once, on PostgreSQL (SQLite takes one writer at a time by design)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from ratings import services
from ratings.models import Event, Game

from ..factories import EventFactory, MemberFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="SQLite queues writers at BEGIN IMMEDIATE"
    ),
]


def test_two_officers_saving_the_same_empty_round_at_once_pair_it_once():
    alice, bob, carol, dave = (MemberFactory() for _ in range(4))
    event = EventFactory(status=Event.Status.DRAFT, rounds=3)
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def save() -> None:
        try:
            games = [
                Game(round=1, board=1, white=alice, black=bob, result="1-0"),
                Game(round=1, board=2, white=carol, black=dave, result="0-1"),
            ]
            barrier.wait()
            services.games_replace(event=Event.objects.get(pk=event.pk), games=games, rounds=[1])
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    officers = [threading.Thread(target=save) for _ in range(2)]
    for officer in officers:
        officer.start()
    for officer in officers:
        officer.join(timeout=60)
    assert failures == []
    assert Game.objects.filter(event=event, round=1).count() == 2
