"""What a rating change stores, and the game lines pages show: those the engine gives.

A per-event system's change stores no breakdown; pages work its lines and figures out
again (ratings/pages/game_lines.py). A period system's change stores them packed, and
pages read its lines with the games. Either way the event report and the member page
show what the engine gives for the same event in a run over the whole history.
"""

from __future__ import annotations

import datetime as dt
import json
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import services
from ratings.engine import SYSTEMS, EventResult, GameLine
from ratings.models import ClubSettings, Event, Game, Member, RatingChange, RatingList
from ratings.models.breakdowns import breakdown_json, breakdown_packed
from ratings.pages import game_lines
from ratings.pages.events import change_rows, preview_changes, saved_changes

from ..factories import MemberFactory
from ..savepoints import rolled_back
from .test_rerate_property import _correct, _record, club_of, edits, event_rows

pytestmark = pytest.mark.django_db

FIRST_DAY = dt.date(2024, 1, 1)  # well in the past: period systems close these periods
#: (day, games as (white, black, result, round)) of a small club's history: common
#: opponents, a draw, a forfeit, a guest coming in part-way.
HISTORY = [
    (0, [(0, 1, "1-0", 1), (2, 3, "1/2-1/2", 1), (0, 2, "0-1", 2), (1, 3, "1-0", 2)]),
    (20, [(1, 2, "1-0", 1), (3, 0, "1/2-1/2", 1), (4, 1, "0-1", 2), (2, 0, "+/-", 2)]),
    (20, [(4, 3, "1-0", 1), (0, 4, "0-1", 2)]),
    (75, [(5, 0, "1-0", 1), (1, 2, "1/2-1/2", 1), (5, 1, "0-1", 2), (0, 2, "1-0", 2)]),
    (200, [(3, 5, "1-0", 1), (4, 2, "0-1", 1), (3, 4, "1/2-1/2", 2), (5, 0, "1-0", 3)]),
]


def _club_history(system_id: str, params: dict | None = None) -> list[Event]:
    """The history rated event by event as an officer completes them, under ``system_id``."""
    services.rating_system_set(system_id=system_id, params=params or {})
    members = [
        MemberFactory(
            member_number=f"P{i}", initial_rating=rating, initial_games=games, is_guest=i == 5
        )
        for i, (rating, games) in enumerate(
            [(None, 0), (1600, 30), (None, 0), (1400, 8), (1900, 60), (None, 0)]
        )
    ]
    events = []
    for day, games in HISTORY:
        date = FIRST_DAY + dt.timedelta(days=day)
        event = Event.objects.create(
            name=f"Event {len(events)}",
            start_date=date,
            end_date=date,
            rounds=3,
            status=Event.Status.COMPLETE,
        )
        for white, black, result, round_ in games:
            Game.objects.create(
                event=event,
                round=round_,
                white=members[white],
                black=members[black],
                result=result,
            )
            event.entries.get_or_create(member=members[white])
            event.entries.get_or_create(member=members[black])
        events.append(event)
        if SYSTEMS[system_id].period_based:
            services.periods_close_past(system=SYSTEMS[system_id]())
        services.ratings_rerate(
            services.RerateRequest(start=event, changed=event, reason="completed")
        )
    return events


def _engine_results(events: list[Event]) -> dict[int, EventResult]:
    """Each event's result in one run of the engine over the whole history."""
    system = ClubSettings.load().engine()
    ordered = sorted(events, key=services.rating_key)
    result = system.rate(
        services.states_before(None, system).values(), services.engine_events(ordered)
    )
    return {int(e.id): e for e in result.events}


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_the_event_report_shows_the_engines_lines_and_figures(system_id):
    events = _club_history(system_id)
    engine = _engine_results(events)
    system = ClubSettings.load().engine()
    for event in events:
        shown = change_rows(saved_changes(event, system=system), system=system)
        assert shown == change_rows(preview_changes(engine[event.pk]), system=system), event.name
        played = event.games.filter(result__in=Game.PLAYED).count()
        assert sum(len(row["games"]) for row in shown) == 2 * played


def _figures(game: dict) -> tuple:
    return game["expected"], game["change"]


def _tenths(line: GameLine) -> float | None:
    """A game's own change as the member page shows it (ecf-2020's is its increment)."""
    change = line.detail.get("increment") if line.change is None else line.change
    return None if change is None else round(change, 1) + 0.0


#: Every system, and nz-club-elo moving ratings game by game: a member's lines then need
#: the whole event rated again (``rates_players_apart`` is false), not just their games.
MEMBER_PAGE_CASES = [(system_id, {}) for system_id in sorted(SYSTEMS)] + [
    ("nz-club-elo", {"update": "game"})
]


@pytest.mark.parametrize(("system_id", "params"), MEMBER_PAGE_CASES)
def test_the_member_page_shows_the_engines_game_lines(officer_client, system_id, params):
    events = _club_history(system_id, params)
    engine = _engine_results(events)
    for member in Member.objects.all():
        response = officer_client.get(member.get_absolute_url())
        shown = sorted(
            (g["event"].pk, g["opponent"].pk, g["score"], g["opponent_rating"], *_figures(g))
            for g in response.context["games"]
        )
        expected = sorted(
            (
                pk,
                int(line.opponent),
                line.score,
                line.opponent_rating,
                line.expected,
                _tenths(line),
            )
            for pk, result in engine.items()
            for change in result.changes
            if change.player == str(member.pk)
            for line in change.games
        )
        assert shown and shown == expected, member


def test_a_per_event_systems_change_stores_no_game_lines(rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    assert list(RatingChange.objects.values_list("breakdown", flat=True)) == [{}, {}]


@pytest.mark.parametrize("system_id", ["acf-1993", "ecf-2020"])
def test_a_period_systems_change_stores_its_figures_and_lines_packed(system_id):
    events = _club_history(system_id)
    engine = _engine_results(events)
    stored = RatingChange.objects.values_list("event_id", "member_id", "breakdown")
    assert stored
    for event_id, member_id, breakdown in stored:
        change = next(c for c in engine[event_id].changes if c.player == str(member_id))
        # The engine's figures and each game's rating used, nothing the games give.
        assert breakdown == breakdown_packed(change)


def test_a_breakdown_is_kept_as_compact_json_text():
    _club_history("ecf-2020")
    with connection.cursor() as cursor:
        cursor.execute("SELECT breakdown FROM ratings_ratingchange")
        stored = [text for (text,) in cursor.fetchall()]
    # Text on PostgreSQL too (jsonb would keep each number in 8 to 12 bytes).
    assert stored and all(isinstance(text, str) and text.startswith("[") for text in stored)
    assert all(json.dumps(json.loads(text), separators=(",", ":")) == text for text in stored)


def test_a_period_change_whose_games_changed_since_shows_no_lines_until_it_is_rated_again():
    event = _club_history("acf-1993")[0]
    system = ClubSettings.load().engine()
    first = event.games.get(round=1, white__member_number="P0")  # P0 beat P1
    Game.objects.filter(pk=first.pk).update(result=Game.Result.BLACK_WIN)
    shown = {c["player"]: c["breakdown"] for c in saved_changes(event, system=system)}
    # Their stored figures, not lines that would not add up to them; the others' lines.
    assert "games" not in shown[first.white_id] and "Sa" in shown[first.white_id]
    # P1's game with P0 was not rated (P0 had no rating): the correction changes none of
    # P1's figures (a change stores its rated games' score), so P1's lines still add up
    # to them, the game shown as corrected and not rated.
    corrected = [
        line for line in shown[first.black_id]["games"] if line["opponent"] == str(first.white_id)
    ]
    assert [(line["score"], line.get("rated", True)) for line in corrected] == [(1, False)]
    assert all("games" in b for pk, b in shown.items() if pk != first.white_id)
    services.ratings_rerate(services.RerateRequest(start=event, changed=event, reason="corrected"))
    assert all("games" in c["breakdown"] for c in saved_changes(event, system=system))


def test_a_change_whose_games_changed_since_shows_no_lines_until_it_is_rated_again(
    rated_event, alice, bob, carol
):
    event = rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, Game.Result.DRAW)]
    )
    # A result corrected, its re-rate still to come: Alice's and Bob's lines would not add
    # up to their stored changes, so none are shown; Carol's draw with Alice still does.
    Game.objects.filter(event=event, round=1).update(result=Game.Result.BLACK_WIN)
    system = ClubSettings.load().engine()
    shown = {c["player"]: c["breakdown"].get("games") for c in saved_changes(event, system=system)}
    assert shown[alice.pk] is None and shown[bob.pk] is None
    assert [line["score"] for line in shown[carol.pk]] == [0.5]
    services.ratings_rerate(services.RerateRequest(start=event, changed=event, reason="corrected"))
    lines = [line for c in saved_changes(event, system=system) for line in c["breakdown"]["games"]]
    assert len(lines) == 4


def _report_queries(client, event: Event) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("ratings:event-report", args=[event.pk]))
    assert response.status_code == 200
    return len(captured)


def test_the_event_report_takes_the_same_queries_with_ten_times_the_players(client, rated_event):
    def swiss(size: int, day: int) -> Event:
        players = [MemberFactory() for _ in range(size)]
        games = [
            (round_, players[i], players[(i + round_) % size], Game.Result.WHITE_WIN)
            for round_ in (1, 2, 3)
            for i in range(0, size, 2)
        ]
        return rated_event(games, date=dt.date(2026, 3, day), name=f"Swiss {size}")

    few = _report_queries(client, swiss(4, 2))
    many = _report_queries(client, swiss(40, 3))
    assert many == few


def test_a_players_first_event_is_worked_out_from_the_state_they_came_in_with(rated_event):
    guest = MemberFactory(is_guest=True, born=dt.date(1990, 5, 17), gender="F", title="WFM")
    rated = MemberFactory(initial_rating=1750, initial_games=40, born=dt.date(2001, 2, 3))
    event = rated_event([(1, guest, rated, Game.Result.DRAW)])
    system = ClubSettings.load().engine()
    before = game_lines._states_before([event.pk], system)[event.pk]
    assert before == {
        member.pk: services.member_initial_state(member, system) for member in (guest, rated)
    }


def test_migration_0016_drops_a_per_event_clubs_lines_and_keeps_a_period_clubs(
    rated_event, alice, bob
):
    drop = import_module("ratings.migrations.0016_rating_changes_without_game_lines")
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    old = {"k": 16, "lines": {"keys": ["opponent"], "rows": [["1"]]}}
    RatingChange.objects.update(breakdown=old)
    ClubSettings.objects.update(rating_system="acf-1993")
    drop.drop_game_lines(django_apps, None)
    assert list(RatingChange.objects.values_list("breakdown", flat=True)) == [old, old]
    ClubSettings.objects.update(rating_system="st-charles")
    drop.drop_game_lines(django_apps, None)
    assert list(RatingChange.objects.values_list("breakdown", flat=True)) == [{}, {}]


@pytest.mark.parametrize(
    ("standard", "rapid", "emptied"),
    [("nz-club-elo", "acf-1993", "standard"), ("ecf-2020", "st-charles", "rapid")],
)
def test_migration_0016_decides_list_by_list(rated_event, alice, bob, standard, rapid, emptied):
    drop = import_module("ratings.migrations.0016_rating_changes_without_game_lines")
    RatingList.objects.update_or_create(
        time_class="rapid", defaults={"kept": "own", "rating_system": rapid}
    )
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    RatingChange.objects.filter(member=bob).update(time_class="rapid")  # a row on each list
    old = {"k": 16, "lines": {"keys": ["opponent"], "rows": [["1"]]}}
    RatingChange.objects.update(breakdown=old)
    ClubSettings.objects.update(rating_system=standard)
    drop.drop_game_lines(django_apps, None)
    for time_class, breakdown in RatingChange.objects.values_list("time_class", "breakdown"):
        assert breakdown == ({} if time_class == emptied else old), time_class


@pytest.mark.parametrize("system_id", ["acf-1993", "ecf-2020"])
def test_migration_0019_packs_a_period_clubs_breakdowns_as_a_re_rate_writes_them(system_id):
    pack = import_module("ratings.migrations.0019_period_breakdowns_packed")
    events = _club_history(system_id)
    engine = _engine_results(events)
    written = dict(RatingChange.objects.values_list("pk", "breakdown"))
    rows = RatingChange.objects.values_list("pk", "event_id", "member_id")
    # As the code before it stored them: whole, lines as rows under keys.
    for pk, event_id, member_id in rows:
        change = next(c for c in engine[event_id].changes if c.player == str(member_id))
        RatingChange.objects.filter(pk=pk).update(breakdown=breakdown_json(change))
    pack.pack_breakdowns(django_apps, None)
    assert dict(RatingChange.objects.values_list("pk", "breakdown")) == written


def test_migration_0019_leaves_a_breakdown_it_cannot_pack_and_going_back_empties_the_packed(
    rated_event, alice, bob
):
    pack = import_module("ratings.migrations.0019_period_breakdowns_packed")
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    unknown = {"k": 16, "lines": {"keys": ["opponent", "score"], "rows": [["1", 1.0]]}}
    older = {"status_before": "new", "status_after": "new", "calculation": "performance"}
    older |= {"played": 1, "Sa": 1.0, "NG": 1, "TS": 1.0, "AR": None}
    older |= {"percentage": None, "Dp": None, "Rp": None}
    older["games"] = [{"opponent": "1", "score": 1.0, "opponent_rating": None, "rated": False}]
    first, second = RatingChange.objects.order_by("pk")
    RatingChange.objects.filter(pk=first.pk).update(breakdown=unknown)
    RatingChange.objects.filter(pk=second.pk).update(breakdown=older)
    pack.pack_breakdowns(django_apps, None)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.breakdown == unknown
    assert second.breakdown == [
        2,
        "new",
        "new",
        "performance",
        1,
        1,
        1,
        1,
        None,
        None,
        None,
        None,
        [None],
    ]
    pack.empty_packed(django_apps, None)
    assert list(RatingChange.objects.order_by("pk").values_list("breakdown", flat=True)) == [
        unknown,
        {},
    ]


@pytest.fixture
def members(db, system_id: str) -> list[Member]:
    """The property test's club (``test_rerate_property``), made once a test."""
    return club_of(system_id)


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history=st.lists(event_rows, min_size=2, max_size=6), corrections=edits)
def test_after_any_corrections_the_report_shows_what_a_full_run_of_the_engine_gives(
    members, system_id, history, corrections
):
    with rolled_back():
        events = _record(history, members, system_id)
        for edit in corrections:
            _correct(events, edit)
        system = ClubSettings.load().engine()
        rated = list(services.rateable_events(system))
        engine = _engine_results(rated)
        for event in rated:
            # These events have no entries, so rows tie on their names: put in one order.
            saved = change_rows(saved_changes(event, system=system), system=system)
            previewed = change_rows(preview_changes(engine[event.pk]), system=system)
            shown, given = sorted(saved, key=_canonical), sorted(previewed, key=_canonical)
            assert shown == given, event.name


def _canonical(row: dict) -> str:
    """A row as text whatever the order of its dicts' keys (jsonb sorts them by length)."""
    return json.dumps(row, sort_keys=True, default=str)
