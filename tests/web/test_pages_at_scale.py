"""A member's page and the officer's events: the same queries however long the history."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import services
from ratings.engine import SYSTEMS
from ratings.models import ClubSettings, Entry, Event, Game, RatingChange
from ratings.models.breakdowns import breakdown_is_packed

from ..factories import EventFactory, MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

EVENTS = reverse("ratings:officer-events")


def queries(client, url: str, **query: object) -> tuple[int, object]:
    """The queries of a page as built: the histories here are written in bulk, past the
    version the cached public pages are kept under, so the cache is emptied first."""
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, query)
    assert response.status_code == 200
    return len(captured), response


def history(member, opponents, count: int, start: int = 0) -> None:
    """``count`` rated events of three games each for ``member``, made in bulk."""
    first = dt.date(2020, 1, 1)
    events = Event.objects.bulk_create(
        [
            Event(
                name=f"Night {n}",
                start_date=first + dt.timedelta(days=n),
                end_date=first + dt.timedelta(days=n),
                rounds=3,
                status=Event.Status.COMPLETE,
            )
            for n in range(start, start + count)
        ]
    )
    games, entries, changes = [], [], []
    for n, event in enumerate(events, start):
        rating = 1500.0 + n
        lines = []
        for rnd, opponent in enumerate(opponents[:3], 1):
            games.append(Game(event=event, round=rnd, white=member, black=opponent, result="1-0"))
            entries.append(Entry(event=event, member=opponent))
            lines.append(
                {
                    "round": rnd,
                    "opponent": str(opponent.pk),
                    "opponent_rating": 1500.0,
                    "score": 1.0,
                    "expected": 0.5,
                    "change": 1.0,
                    "rated": True,
                }
            )
        entries.append(Entry(event=event, member=member))
        changes.append(
            RatingChange(
                event=event,
                member=member,
                before=rating - 3,
                after=rating,
                display_before=str(int(rating - 3)),
                display_after=str(int(rating)),
                played=3,
                score=3,
                breakdown={"games": lines},
                event_end=event.end_date,
                event_start=event.start_date,
            )
        )
    Game.objects.bulk_create(games)
    Entry.objects.bulk_create(entries, ignore_conflicts=True)
    RatingChange.objects.bulk_create(changes)


@pytest.fixture
def busy(current_season):

    member = paid_up(MemberFactory(member_number="BUSY", name="Busy Bee"), current_season)
    rating_state(member, rating=1500, display="1500", games=3)
    opponents = [paid_up(MemberFactory(), current_season) for _ in range(3)]
    return member, opponents


@pytest.mark.parametrize("page", [1, 2, "last"])
def test_a_members_page_takes_the_same_queries_with_ten_times_the_games(client, busy, page):
    member, opponents = busy
    url = member.get_absolute_url()
    history(member, opponents, 60)
    few, response = queries(client, url, page=page)
    history(member, opponents, 540, start=60)
    many, response = queries(client, url, page=page)
    assert many == few
    assert len(response.context["events"]) == 25
    assert len(response.context["games"]) == 75  # the page's events' games only


def rated_history(member, opponents, count: int, start: int = 0) -> None:
    """``count`` events of six rounds on two boards (the member on the first), made in bulk
    and rated as the club's system rates them."""
    first = dt.date(2020, 1, 1)
    events = Event.objects.bulk_create(
        [
            Event(
                name=f"Night {n}",
                start_date=first + dt.timedelta(days=3 * n),
                end_date=first + dt.timedelta(days=3 * n),
                rounds=6,
                status=Event.Status.COMPLETE,
            )
            for n in range(start, start + count)
        ]
    )
    games, entries = [], []
    for n, event in enumerate(events, start):
        for rnd in range(1, 7):
            them = [opponents[(n + rnd + i) % len(opponents)] for i in range(3)]
            result = "1-0" if (n + rnd) % 3 else "0-1"
            games.append(
                Game(event=event, round=rnd, board=1, white=member, black=them[0], result=result)
            )
            games.append(
                Game(
                    event=event, round=rnd, board=2, white=them[1], black=them[2], result="1/2-1/2"
                )
            )
        entries += [Entry(event=event, member=m) for m in [member, *opponents]]
    Game.objects.bulk_create(games)
    Entry.objects.bulk_create(entries, ignore_conflicts=True)
    services.periods_close_past(system=ClubSettings.load().engine())
    services.ratings_rerate(services.RerateRequest(reason="rated in bulk"))


#: Systems whose lines the member page reads in each way: a per-event system's worked out
#: again (nz-club-elo rates only the member's games, st-charles the whole events), a
#: period system's stored packed and read with the games.
LINES_READ = ["nz-club-elo", "st-charles", "acf-1993", "ecf-2020"]


@pytest.mark.parametrize("system_id", LINES_READ)
def test_a_members_page_takes_the_same_queries_with_ten_times_the_rated_events(
    client, current_season, system_id
):
    services.rating_system_set(system_id=system_id)
    member = paid_up(MemberFactory(initial_rating=1500, initial_games=40), current_season)
    opponents = [
        paid_up(MemberFactory(initial_rating=1400 + 20 * i, initial_games=40), current_season)
        for i in range(6)
    ]
    url = member.get_absolute_url()
    rated_history(member, opponents, 3)
    few, response = queries(client, url)
    assert len(response.context["games"]) == 18
    rated_history(member, opponents, 40, start=10)
    many, response = queries(client, url)
    stored = RatingChange.objects.values_list("breakdown", flat=True)
    if SYSTEMS[system_id].period_based:
        assert all(breakdown_is_packed(b) for b in stored)
    else:
        assert set(map(str, stored)) == {"{}"}
    assert len(response.context["games"]) == 25 * 6
    assert all(game["opponent_rating"] is not None for game in response.context["games"])
    assert many == few


def test_a_members_page_pages_its_events_and_charts_the_whole_history(client, busy):
    member, opponents = busy
    history(member, opponents, 60)
    url = member.get_absolute_url()
    first = client.get(url)
    assert [e.name for e, _ in first.context["events"]][:2] == ["Night 59", "Night 58"]
    assert "Events 1–25 of 60, newest first." in first.content.decode()
    assert 'href="?page=2"' in first.content.decode()
    last = client.get(url, {"page": 3})
    assert [e.name for e, _ in last.context["events"]] == [f"Night {n}" for n in range(9, -1, -1)]
    assert {g["event"].name for g in last.context["games"]} == {f"Night {n}" for n in range(10)}
    chart = str(last.context["chart"])
    # The start, then one point after each of the 60 events: on every page alike.
    assert chart.count('<circle class="point"') == 61
    assert chart == str(first.context["chart"])


def test_the_pager_under_the_games_lists_the_pages_as_the_one_under_the_events(client, busy):
    member, opponents = busy
    history(member, opponents, 60)
    text = client.get(member.get_absolute_url(), {"page": 2}).content.decode()
    events, games = (
        re.findall(r'class="page-link"[^>]*>([^<]+)<', nav)
        for nav in re.findall(r'aria-label="Pages of (?:events|games)">(.*?)</nav>', text, re.S)
    )
    # Once the games' pager listed no page: the first pager had read them all.
    assert games == events == ["Newer", "1", "2", "3", "Older"]


def test_a_members_page_reads_its_events_by_key_not_joined_with_every_event(client, busy):
    """Joined, PostgreSQL hashed every event of the club to sort a member's few hundred, in
    two of the page's statements (22-40 ms each at ten million games); read by key, each of
    theirs is an index probe."""
    member, opponents = busy
    history(member, opponents, 30)
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        client.get(member.get_absolute_url())
    joined = [q["sql"] for q in captured if re.search(r'JOIN "?ratings_event"? ', q["sql"])]
    assert joined == []


def test_a_long_history_charts_a_bounded_number_of_points(client, busy):
    member, opponents = busy
    history(member, opponents, 400)
    response = client.get(member.get_absolute_url())
    chart = str(response.context["chart"])
    assert chart.count('<circle class="point"') <= 120
    assert "<title>Night 399: 1899 (" in chart  # the last event's rating is always drawn
    assert len(response.content) < 200_000


def test_the_event_list_takes_the_same_queries_with_ten_times_the_events(officer_client, busy):
    member, opponents = busy
    history(member, opponents, 60)
    for sort in ("", "name", "-player_count", "games_count"):
        few, _ = queries(officer_client, EVENTS, sort=sort)
        many_events = Event.objects.count()
        history(member, opponents, 10, start=many_events + 1000)
        more, _ = queries(officer_client, EVENTS, sort=sort, page=2)
        assert more == few, sort


def test_the_event_list_counts_the_players_and_games_of_its_page(
    officer_client, rated_event, alice, bob, carol
):
    rated_event([(1, alice, bob, Game.Result.DRAW), (1, carol, None, Game.Result.BYE)])
    EventFactory(name="Draft night")
    table = officer_client.get(EVENTS).context["table"]
    rows = {row.record.name: row for row in table.page.object_list}
    assert rows["Club night"].get_cell_value("player_count") == 3
    assert rows["Club night"].get_cell_value("games_count") == 2
    assert "Rated" in rows["Club night"].get_cell("status")
    assert rows["Draft night"].get_cell_value("player_count") == 0
    assert "Entering results" in rows["Draft night"].get_cell("status")
    by_players = officer_client.get(EVENTS, {"sort": "-player_count"}).context["table"]
    assert [row.record.name for row in by_players.page.object_list] == [
        "Club night",
        "Draft night",
    ]
