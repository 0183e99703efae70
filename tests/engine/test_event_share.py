"""A period system's change is the whole period's, stored on each of its events: the part
one event made (``RatingSystem.event_share``) sums, over the period's events, to the
period's change before it is rounded; none where the change is a performance rating, and
none for a per-event system."""

from __future__ import annotations

from datetime import date

from ratings.engine import AcfState, EcfState, Event, Game, PlayerState, get_system, rate


def shares(system_id: str, players: list[PlayerState], events: list[Event], pid: str):
    result = rate(system_id, players=players, events=events, params={})
    system = get_system(system_id)
    parts = []
    change = None
    for event in result.events:
        for found in event.changes:
            if found.player == pid:
                lines = [{"opponent_rating": g.opponent_rating, **g.detail} for g in found.games]
                parts.append(system.event_share(found.detail, lines))
                change = found.after - found.before
    return parts, change


def test_ecf_a_months_events_parts_make_its_change():
    players = [
        EcfState(pid, rating=r, games=30, category="full", avg_opp=r, points=15.0,
                 last_played=date(2024, 1, 15))
        for pid, r in (("ann", 1800.0), ("ben", 1700.0), ("cat", 1600.0))
    ]  # fmt: skip
    events = [
        Event(id="e1", date=date(2024, 3, 2), games=(Game("ann", "ben", 0.0),)),
        Event(id="e2", date=date(2024, 3, 9), games=(Game("ann", "cat", 0.5),)),
    ]
    parts, change = shares("ecf-2020", players, events, "ann")
    assert len(parts) == 2 and None not in parts
    assert abs(sum(parts) - change) <= 0.5  # the month's sum, rounded once


def test_acf_a_periods_events_parts_make_a_confirmed_players_change():
    players = [
        AcfState(pid, rating=r, games=30, status="confirmed")
        for pid, r in (("ann", 1800.0), ("ben", 1700.0), ("cat", 1600.0))
    ]
    events = [
        Event(id="e1", date=date(2026, 3, 4), games=(Game("ann", "cat", 0.0),)),
        Event(id="e2", date=date(2026, 4, 8), games=(Game("ann", "ben", 0.5),)),
    ]
    parts, change = shares("acf-1993", players, events, "ann")
    assert len(parts) == 2 and None not in parts
    assert abs(sum(parts) - change) <= 0.5


def test_a_per_event_system_has_no_part_but_its_change():
    players = [PlayerState("ann", rating=1500.0), PlayerState("ben", rating=1500.0)]
    events = [Event(id="e1", date=date(2026, 3, 4), games=(Game("ann", "ben", 1.0),))]
    parts, _change = shares("nz-club-elo", players, events, "ann")
    assert parts == [None]
