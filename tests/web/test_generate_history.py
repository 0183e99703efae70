"""generate_history: the club it draws has the asked shape, is the same for the same seed, and
fills an empty database only (unless told to wipe it)."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.utils import timezone

from ratings.models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    ListStanding,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
    Subscription,
)
from ratings.models.listing import published_list_size
from ratings.services.list_figures import list_figures_kept
from tests.factories import MemberFactory

pytestmark = pytest.mark.django_db

SMALL = ["--members", "60", "--games", "400", "--seed", "1"]


def generate(*args: str) -> str:
    out = io.StringIO()
    call_command("generate_history", *args, stdout=out)
    return out.getvalue()


def snapshot() -> dict[str, list[tuple[object, ...]]]:
    """The club as plain values, ids left out (a wiped database may number it afresh)."""
    number = dict(Member.objects.values_list("pk", "member_number"))
    events = {
        pk: i for i, pk in enumerate(Event.objects.order_by("pk").values_list("pk", flat=True))
    }
    return {
        "members": list(
            Member.objects.order_by("member_number").values_list(
                "member_number", "name", "born", "gender", "region", "title", "is_guest",
                "initial_rating", "initial_games",
            )
        ),
        "subscriptions": sorted(
            (number[m], s) for m, s in Subscription.objects.values_list("member", "season__name")
        ),
        "events": list(
            Event.objects.order_by("pk").values_list("name", "start_date", "end_date", "rounds")
        ),
        "games": [
            (events[e], r, b, number[w], number.get(k), res)
            for e, r, b, w, k, res in Game.objects.order_by("pk").values_list(
                "event", "round", "board", "white", "black", "result"
            )
        ],
    }  # fmt: skip


def test_the_club_has_the_asked_size_and_shape():
    out = generate(*SMALL, "--no-rate")
    assert "400 games" in out
    assert Member.objects.count() == 60
    guests = Member.objects.filter(is_guest=True)
    assert guests.count() == 1  # 2 % of 60
    assert not Subscription.objects.filter(member__in=guests).exists()
    unpaid = Member.objects.with_financial().filter(is_guest=False, is_financial=False)
    assert unpaid.count() == 6  # 10 % in arrears
    assert Member.objects.published().count() == 60 - 1 - 6
    assert Game.objects.count() == 400
    events = list(Event.objects.annotate(size=Count("entries")).order_by("end_date", "pk"))
    assert {(e.kind, e.status, e.rated, e.rounds) for e in events} == {
        (Event.Kind.SWISS, Event.Status.COMPLETE, True, 5)
    }
    # Every event but the last (cut to make the games asked for) has 40 to 60 players.
    assert all(40 <= e.size <= 60 for e in events[:-1])
    today = timezone.localdate()
    assert events[-1].end_date >= today - dt.timedelta(days=31)
    assert events[0].start_date >= today - dt.timedelta(days=3660)
    # Everyone who played is entered, and no one played twice in a round.
    entered = set(Entry.objects.values_list("event", "member"))
    games = Game.objects.values_list("event", "white", "black")
    for event, white, black in games:
        assert (event, white) in entered
        assert black is None or (event, black) in entered
    per_round = Game.objects.values("event", "round", "white").annotate(n=Count("pk"))
    assert max(row["n"] for row in per_round) == 1
    assert Game.objects.filter(result__in=Game.PLAYED).count() > 350
    assert Member.objects.exclude(initial_rating=None).exists()
    # Generated, not an officer's changes: no audit trail, no ratings yet.
    assert not Member.history.exists() and not Game.history.exists()
    assert not RatingChange.objects.exists()
    assert ClubSettings.load().name == "Generated history: 60 members, 400 games, seed 1"


def test_the_same_seed_gives_the_same_club_and_another_seed_another():
    generate(*SMALL, "--no-rate")
    first = snapshot()
    generate(*SMALL, "--no-rate", "--force")
    assert snapshot() == first
    generate("--members", "60", "--games", "400", "--seed", "2", "--no-rate", "--force")
    assert snapshot()["games"] != first["games"]


def test_written_a_few_rows_at_a_time_the_club_is_the_same(monkeypatch):
    generate(*SMALL, "--no-rate")
    whole = snapshot()
    monkeypatch.setattr("ratings.histories.generated.WRITE_ROWS", 7)
    generate(*SMALL, "--no-rate", "--force")
    assert snapshot() == whole


def test_it_rates_the_history_by_default():
    out = generate(*SMALL)
    assert "rated: 4 events" in out
    run = RatingRun.objects.get()
    assert (run.status, run.reason) == (RatingRun.Status.DONE, "generated history")
    assert run.games_rated == Game.objects.filter(result__in=Game.PLAYED).count()
    assert RatingState.objects.count() == 60
    assert RatingChange.objects.values("event").distinct().count() == Event.objects.count()


def test_a_database_with_members_is_refused_unless_wiped():
    MemberFactory(name="Real Member")
    with pytest.raises(CommandError, match="already has members"):
        generate(*SMALL)
    generate(*SMALL, "--no-rate", "--force")
    assert not Member.objects.filter(name="Real Member").exists()
    assert Member.objects.count() == 60


def test_records_made_afterwards_get_new_ids():
    """PostgreSQL's sequences are moved past the ids written."""
    generate(*SMALL, "--no-rate")
    member = MemberFactory(name="Joined Later")
    event = Event.objects.create(
        name="Later", start_date=timezone.localdate(), end_date=timezone.localdate()
    )
    Game.objects.create(event=event, round=1, white=member, result=Game.Result.BYE)
    assert Member.objects.count() == 61


def test_the_rated_history_is_served_with_each_members_standing_kept():
    """As the worker keeps them after a rating run: otherwise the first officer's run waits
    on the figures' row while the worker builds every standing."""
    generate(*SMALL)
    members, _ = published_list_size(time_class="standard")
    assert members > 0
    assert ListStanding.objects.filter(time_class="standard").count() == members
    assert list_figures_kept()["standings"]
