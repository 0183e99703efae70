"""The crosstable ranks players level on points by the event's tie-breaks, shows each as a
column (on the page and in its CSV), and the TRF export names them (202 and 212)."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.formats.trf_export import event_to_trf
from ratings.models import Event, Game
from ratings.pages import events as pages

from ..factories import EventFactory, GameFactory, MemberFactory

pytestmark = pytest.mark.django_db


def swiss(**fields):  # type: ignore[no-untyped-def]
    """Two rounds: Adam and Zed both on 1½, Zed's opponents the stronger (Buchholz 2.5
    against 1.5); Xavier on 1, Yusuf on 0."""
    event = EventFactory(name="Spring Swiss", rounds=2, **fields)
    adam, xavier, yusuf, zed = (
        MemberFactory(name=n) for n in ("Adam Ames", "Xavier Xu", "Yusuf Yilmaz", "Zed Zane")
    )
    for round_, white, black, result in [
        (1, adam, yusuf, Game.Result.WHITE_WIN),
        (1, zed, xavier, Game.Result.WHITE_WIN),
        (2, xavier, yusuf, Game.Result.WHITE_WIN),
        (2, adam, zed, Game.Result.DRAW),
    ]:
        GameFactory(event=event, round=round_, white=white, black=black, result=result)
    for member in (adam, xavier, yusuf, zed):
        event.entries.create(member=member)
    return event


def crosstable_csv(client, event) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    response = client.get(reverse("ratings:event-crosstable-csv", args=[event.pk]))
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_players_level_on_points_are_ranked_by_buchholz_not_by_name(client):
    rows = crosstable_csv(client, swiss())
    assert [(r["#"], r["Player"]) for r in rows[:2]] == [("1", "Zed Zane"), ("2", "Adam Ames")]


def test_a_swiss_crosstable_shows_buchholz_cut_1_buchholz_and_sonneborn_berger(client):
    zed, adam, *_ = crosstable_csv(client, swiss())
    assert (zed["BH-C1"], zed["BH"], zed["SB"]) == ("1.5", "2.5", "1.75")
    assert (adam["BH-C1"], adam["BH"], adam["SB"]) == ("1.5", "1.5", "0.75")


def test_the_crosstable_page_has_a_column_for_each_tie_break(client):
    event = swiss()
    page = client.get(reverse("ratings:event-crosstable", args=[event.pk])).content.decode()
    for head, name in (("BH-C1", "Buchholz Cut-1"), ("BH", "Buchholz"), ("SB", "Sonneborn")):
        assert f'title="{name}' in page and f">{head}</abbr>" in page


def test_the_event_chooses_its_own_tie_breaks(client):
    zed, adam, *_ = crosstable_csv(client, swiss(tie_breaks="WIN,SB"))
    assert [k for k in zed if k in ("BH-C1", "BH", "SB", "Wins")] == ["Wins", "SB"]
    assert (zed["Wins"], adam["Wins"]) == ("1", "1")


def test_a_round_robin_ranks_by_direct_encounter_first(client):
    """Alice, Bob and Carol level on 2 points: Alice beat Bob, Bob beat Carol, Carol beat
    Alice; level on the direct encounter too (1 each), then on Sonneborn-Berger and wins:
    in name order. Dave, who lost all three, is last, alone: no direct encounter to read."""
    event = EventFactory(name="Quads", kind=Event.Kind.ROUND_ROBIN, rounds=3)
    alice, bob, carol, dave = (
        MemberFactory(name=n) for n in ("Alice Archer", "Bob Brown", "Carol Chen", "Dave Dunn")
    )
    for round_, white, black, result in [
        (1, alice, bob, Game.Result.WHITE_WIN),
        (1, carol, dave, Game.Result.WHITE_WIN),
        (2, bob, carol, Game.Result.WHITE_WIN),
        (2, alice, dave, Game.Result.WHITE_WIN),
        (3, carol, alice, Game.Result.WHITE_WIN),
        (3, dave, bob, Game.Result.BLACK_WIN),
    ]:
        GameFactory(event=event, round=round_, white=white, black=black, result=result)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    rows = crosstable_csv(client, event)
    assert [k for k in rows[0] if k in ("DE", "SB", "Wins")] == ["DE", "SB", "Wins"]
    assert [(r["Player"], r["DE"]) for r in rows] == [
        ("Alice Archer", "1"),
        ("Bob Brown", "1"),
        ("Carol Chen", "1"),
        ("Dave Dunn", ""),
    ]


def test_the_events_page_places_a_tie_on_points_as_its_crosstable_does(client):
    """Zed and Adam level on 1½, Zed ahead on Buchholz: 1st and 2nd on both pages, not
    "1=" on the event's page."""
    event = swiss()
    page = client.get(reverse("ratings:event", args=[event.pk])).context["players"]
    table = client.get(reverse("ratings:event-crosstable", args=[event.pk])).context["rows"]
    on_page = [(str(row["place"]), row["member"].name) for row in page]
    on_crosstable = [(str(row["place"]), row["member"].name) for row in table]
    assert on_page == on_crosstable
    assert on_page[:2] == [("1", "Zed Zane"), ("2", "Adam Ames")]


def event_page_queries(client, event: Event) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("ratings:event", args=[event.pk])).status_code == 200
    return len(queries.captured_queries)


def test_the_events_page_takes_the_same_queries_however_many_players(client):
    small = swiss()
    large = swiss()
    for round_ in (1, 2):
        for _ in range(6):
            game = GameFactory(event=large, round=round_)
            large.entries.create(member=game.white)
            large.entries.create(member=game.black)
    assert event_page_queries(client, large) == event_page_queries(client, small)


def crosstable_queries(event: Event) -> int:
    with CaptureQueriesContext(connection) as queries:
        table = pages.event_crosstable(event=event, viewer=AnonymousUser())
        assert all(row["tie_breaks"] for row in table["rows"])
    return len(queries.captured_queries)


def test_the_crosstable_takes_the_same_queries_however_many_players():
    small = swiss()
    large = swiss()
    for round_ in (1, 2):
        for _ in range(6):
            game = GameFactory(event=large, round=round_)
            large.entries.create(member=game.white)
            large.entries.create(member=game.black)
    assert large.entries.count() == 28
    assert crosstable_queries(large) == crosstable_queries(small)


def test_an_unknown_tie_break_is_refused_at_its_field(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-event-add"),
        {
            "name": "Autumn Swiss",
            "kind": Event.Kind.SWISS,
            "start_date": "2026-03-03",
            "rounds": "5",
            "rated": "on",
            "tie_breaks": "BH/C1, Koya",
        },
    )
    assert response.status_code == 200
    assert "“Koya” is not a tie-break the club knows" in str(response.context["form"].errors)
    assert not Event.objects.exists()


def test_tie_breaks_typed_with_dashes_are_kept_as_fide_writes_them(officer_client):
    officer_client.post(
        reverse("ratings:officer-event-add"),
        {
            "name": "Autumn Swiss",
            "kind": Event.Kind.SWISS,
            "start_date": "2026-03-03",
            "rounds": "5",
            "rated": "on",
            "tie_breaks": "bh-m1, sb de",
        },
    )
    assert Event.objects.get().tie_breaks == "BH/M1,SB,DE"


def test_the_admin_offers_the_events_tie_breaks(admin_client):
    event = EventFactory()
    page = admin_client.get(reverse("admin:ratings_event_change", args=[event.pk]))
    assert 'name="tie_breaks"' in page.content.decode()


def test_the_trf_export_names_the_tie_breaks_and_ranks_by_them():
    text = event_to_trf(swiss())
    lines = text.splitlines()
    assert "202 BH/C1 BH SB" in lines
    assert "212 PTS BH/C1 BH SB" in lines
    ranks = {line[14:47].strip(): int(line[85:89]) for line in lines if line.startswith("001")}
    assert (ranks["Zane, Zed"], ranks["Ames, Adam"]) == (1, 2)


def test_a_player_with_games_but_no_entry_has_a_row_on_the_crosstable(client):
    """Entries are kept by the writers, not a constraint: one deleted in the admin leaves
    its player's games, whose row the crosstable still gives."""
    event = swiss()
    event.entries.filter(member__name="Yusuf Yilmaz").delete()
    response = client.get(reverse("ratings:event-crosstable", args=[event.pk]))
    assert response.status_code == 200
    assert [row["member"].name for row in response.context["rows"]] == [
        "Zed Zane",
        "Adam Ames",
        "Xavier Xu",
        "Yusuf Yilmaz",
    ]
