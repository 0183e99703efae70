"""Online play kept apart: an event is over the board or online, a server's export reads as
online, and by default the club rates no online game on any list, the over-the-board list
as it would be without them (lists of online play: test_online_lists.py)."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings import services
from ratings.engine import SYSTEMS
from ratings.formats.tournament_files import pgn_events, trf_event
from ratings.formats.trf_export import event_to_trf
from ratings.models import ClubSettings, Event, RatingChange, RatingState
from ratings.rules.places_of_play import pgn_online_why

from ..conftest import TRF_FILES
from ..factories import MemberFactory, paid_up
from .test_officer_import import confirm, upload
from .test_rerate import ratings_now

pytestmark = pytest.mark.django_db

PGN_FILES = Path(__file__).resolve().parent.parent / "data" / "pgn"
LICHESS_SWISS = TRF_FILES / "lichess-swiss-2020-05.trf"
LICHESS_GAME = PGN_FILES / "saturs-jannlee-zh-lichess.pgn"
BROADCAST = PGN_FILES / "uzchess-cup-2025-lichess-broadcast.pgn"
OVER_THE_BOARD_PGN = PGN_FILES / "anastasian-lewis.pgn"
#: After the Lichess Swiss (29 May 2020): its import re-rates these.
JUNE = dt.date(2020, 6, 2)


@pytest.fixture
def club_members():
    return [
        paid_up(MemberFactory(name=name, initial_rating=rating, initial_games=30))
        for name, rating in (("Alice Archer", 1600), ("Bob Brown", 1500), ("Carol Clark", 1400))
    ]


def club_on(system_id: str) -> None:
    services.rating_system_set(system_id=system_id)


def rate_all(events) -> None:
    """Rate the club's record as it stands: past periods closed, then from the start."""
    services.periods_close_past(system=ClubSettings.load().engine())
    services.ratings_rerate(services.RerateRequest(reason="the record rated"))


def over_the_board(members) -> dict:
    """The club's members' ratings and every rating change (of anyone)."""
    now = ratings_now()
    ids = {m.pk for m in members}
    return {"states": [s for s in now["states"] if s[0] in ids], "changes": now["changes"]}


def import_trf(*args: str) -> str:
    out = io.StringIO()
    call_command("import_trf", "--create-missing", *args, stdout=out)
    return out.getvalue()


def import_pgn(*args: str) -> str:
    out = io.StringIO()
    call_command("import_pgn", "--create-missing", *args, stdout=out)
    return out.getvalue()


# -- A Lichess file is online, and the club does not rate it on any list. -----------------


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_a_lichess_swiss_imports_online_and_leaves_the_over_the_board_list_as_it_was(
    system_id, club_members, rated_event
):
    alice, bob, carol = club_members
    club_on(system_id)
    rated_event([(1, alice, bob, "1-0"), (2, bob, carol, "1/2-1/2")], date=JUNE, rate=False)
    rate_all(Event.objects.all())
    before = over_the_board(club_members)
    assert before["changes"], "the club's own event is rated"

    out = import_trf(str(LICHESS_SWISS))

    lichess = Event.objects.get(name="Mai 5 Plus 0 Turnier")
    assert lichess.online and lichess.games.exists()
    assert "played online" in out
    assert not RatingChange.objects.filter(event=lichess).exists()
    assert over_the_board(club_members) == before
    # A re-rate of everything agrees: the online games are on no list.
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert over_the_board(club_members) == before
    assert not RatingChange.objects.filter(event=lichess).exists()


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_a_lichess_users_games_import_online_and_are_rated_on_no_list(system_id, club_members):
    club_on(system_id)
    out = import_pgn(str(LICHESS_GAME))
    event = Event.objects.get()
    assert event.online, out
    assert not RatingChange.objects.exists()
    assert not RatingState.objects.filter(last_event=event).exists()


# -- Moving an event between over the board and online re-rates from its place. ----------


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_an_event_moved_online_and_back_re_rates_from_its_place_as_a_full_re_rate_would(
    system_id, club_members, rated_event
):
    alice, bob, carol = club_members
    club_on(system_id)
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2025, 1, 7), rate=False)
    moved = rated_event([(1, bob, carol, "1-0")], date=dt.date(2025, 2, 4), rate=False)
    rated_event([(1, carol, alice, "1-0")], date=dt.date(2025, 3, 4), rate=False)
    rate_all(Event.objects.all())
    assert RatingChange.objects.filter(event=moved).exists()

    previous = services.rating_key(moved)
    moved.online = True
    services.event_save(event=moved, previous=previous, changed=["online"])
    assert not RatingChange.objects.filter(event=moved).exists()
    online = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch, to compare"))
    assert ratings_now() == online

    moved.online = False
    services.event_save(event=moved, previous=previous, changed=["online"])
    assert RatingChange.objects.filter(event=moved).exists()
    back = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch, to compare"))
    assert ratings_now() == back


def test_the_event_form_moves_an_event_online_and_says_what_it_re_rates(
    officer_client, club_members, rated_event
):
    alice, bob, _carol = club_members
    event = rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-event-edit", args=[event.pk])
    form = officer_client.get(url).context["form"]
    data = {name: form[name].value() or "" for name in form.fields}
    data.update(online="on", rated="on", change_reason="Played on Lichess, not in the hall")
    asked = officer_client.post(url, data)
    assert asked.status_code == 200 and asked.context["scope"] is not None
    assert RatingChange.objects.filter(event=event).exists()
    officer_client.post(url, {**data, "confirm": "1"})
    event.refresh_from_db()
    assert event.online
    assert not RatingChange.objects.filter(event=event).exists()


def test_an_online_events_page_says_the_club_does_not_rate_online_games(
    client, club_members, rated_event
):
    alice, bob, _carol = club_members
    event = rated_event([(1, alice, bob, "1-0")])
    previous = services.rating_key(event)
    event.online = True
    services.event_save(event=event, previous=previous, changed=["online"])
    page = client.get(reverse("ratings:event", args=[event.pk])).content.decode()
    assert "played online; the club does not rate online games" in page
    report = client.get(reverse("ratings:event-report", args=[event.pk])).content.decode()
    assert "played online; the club does not rate online games" in report


# -- The web import's preview shows where it was played, and the officer may change it. --


def test_the_preview_reads_a_lichess_file_as_online_and_says_why(officer_client):
    upload(officer_client, LICHESS_SWISS, name=LICHESS_SWISS.name)
    preview = officer_client.get(reverse("ratings:officer-import-preview"))
    assert preview.context["form"]["online"].value() == "online"
    page = preview.content.decode()
    assert "Read as online: its place (line 022) is lichess.org" in page
    confirm(officer_client)
    assert Event.objects.get().online


def test_the_officer_may_import_a_lichess_file_as_over_the_board(officer_client):
    upload(officer_client, LICHESS_SWISS, name=LICHESS_SWISS.name)
    confirm(officer_client, online="over-the-board")
    assert not Event.objects.get().online


def test_a_club_file_reads_as_over_the_board_and_may_be_imported_online(officer_client):
    upload(officer_client)
    preview = officer_client.get(reverse("ratings:officer-import-preview"))
    assert preview.context["form"]["online"].value() == "over-the-board"
    confirm(officer_client, online="online")
    assert Event.objects.get().online


# -- The commands: as the file says, unless --online or --over-the-board. ---------------


def test_import_trf_over_the_board_overrides_a_lichess_file():
    out = import_trf("--over-the-board", str(LICHESS_SWISS))
    assert not Event.objects.get().online
    assert "played over the board, as --over-the-board says" in out
    assert RatingChange.objects.exists()


def test_import_pgn_online_makes_a_club_file_online():
    import_pgn("--online", str(OVER_THE_BOARD_PGN))
    assert Event.objects.get().online
    assert not RatingChange.objects.exists()


def test_import_pgn_reads_a_club_file_as_over_the_board_by_default():
    import_pgn(str(OVER_THE_BOARD_PGN))
    assert not Event.objects.get().online


# -- What the files say. ----------------------------------------------------------------


@pytest.mark.parametrize(
    "tags",
    [
        {"Site": "https://lichess.org/l95HJ3fQ"},
        {"Site": "https://www.chess.com/game/live/123"},
        {"Site": "Chess.com", "Link": "https://www.chess.com/game/live/98765"},
        {"Site": "?", "LichessURL": "https://lichess.org/abcdEFGH"},
        {"Event": "Hourly SuperBlitz Arena"},
        {"Variant": "Crazyhouse"},
    ],
)
def test_a_servers_tags_say_a_game_was_played_online(tags):
    assert pgn_online_why(tags)


@pytest.mark.parametrize(
    "tags",
    [
        {"Site": "Wijk aan Zee NED"},
        {"Variant": "Standard"},
        {"Variant": "Chess960"},
        # A broadcast relays a game played over the board.
        {"Site": "https://lichess.org/broadcast/uzchess-cup/round-1/abc"},
        {
            "Site": "https://lichess.org/abcdEFGH",
            "BroadcastURL": "https://lichess.org/broadcast/x",
        },
    ],
)
def test_a_board_games_tags_do_not(tags):
    assert pgn_online_why(tags) is None


def test_a_lichess_broadcast_of_a_board_tournament_reads_as_over_the_board():
    events, _problems = pgn_events("uzchess.pgn", BROADCAST.read_bytes(), event_name="UzChess")
    assert [e.online for e in events] == [False]


@pytest.mark.parametrize("online", [True, False])
def test_the_trf_export_keeps_where_the_event_was_played(online, club_members, rated_event):
    alice, bob, _carol = club_members
    event = rated_event([(1, alice, bob, "1-0")])
    Event.objects.filter(pk=event.pk).update(online=online)
    club = ClubSettings.load()
    club.city = "Wellington"
    club.save()
    text = event_to_trf(Event.objects.get(pk=event.pk))
    read, problems = trf_event("back.trf", text.encode())
    assert problems == [] and read is not None
    assert read.online is online


def test_the_settings_page_says_online_games_are_not_rated_by_default(admin_client):
    page = admin_client.get(reverse("ratings:officer-settings")).content.decode()
    assert "Online games: not rated (kept in the record, on no list)" in page


def test_the_api_says_which_events_were_played_online(client, club_members, rated_event):
    alice, bob, _carol = club_members
    board = rated_event([(1, alice, bob, "1-0")], name="Club night")
    online = rated_event([(1, bob, alice, "1-0")], name="Lichess arena", rate=False)
    Event.objects.filter(pk=online.pk).update(online=True)
    index = client.get("/api/v1/events").json()["results"]
    assert {e["id"]: e["online"] for e in index} == {board.pk: False, online.pk: True}
