"""Exporting an event as a FIDE TRF file: read back, it is the same event."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

from ratings import services
from ratings.engine.codec import TITLES
from ratings.formats import trf
from ratings.formats.trf_export import CODES, event_to_trf, starting_order, trf_name
from ratings.models import Event, Game, Member

from ..conftest import TRF_FILES

pytestmark = pytest.mark.django_db

FILES = sorted(TRF_FILES.glob("*.trf"))

#: What one player did in one round: (opponent, colour, own result). The opponent is
#: None for a bye; the colour is "w", "b", or "-" when not known; the result is the
#: player's own TRF code for a game, the bye (a Game.Result value) for a bye.
Round = tuple[object, str, str]
#: The reader takes a blank round as a zero-point bye, so no game and an absence are one.
ABSENT: Round = (None, "-", Game.Result.ZERO_BYE)


def _view(games, player=lambda rank: rank) -> dict[tuple[object, int], Round]:
    """Each player's rounds from games (``trf.TrfGame`` or ``Game``), the absences left out."""
    rounds: dict[tuple[object, int], Round] = {}
    for game in games:
        white = player(game.white) if isinstance(game, trf.TrfGame) else game.white_id
        black = game.black if isinstance(game, trf.TrfGame) else game.black_id
        if black is None:
            if game.result != Game.Result.ZERO_BYE:
                rounds[white, game.round] = (None, "-", game.result)
            continue
        black = player(black) if isinstance(game, trf.TrfGame) else black
        known = game.colours_known
        white_code, black_code = CODES[game.result]
        rounds[white, game.round] = (black, "w" if known else "-", white_code)
        rounds[black, game.round] = (white, "b" if known else "-", black_code)
    return rounds


def _import(tournament: trf.Tournament) -> tuple[Event, dict[int, Member]]:
    """The file imported as the web import does it, every player a new member."""
    event = Event(
        name=tournament.name[:120] or "Imported tournament",
        start_date=tournament.start or dt.date(2026, 1, 10),
        end_date=tournament.end or tournament.start or dt.date(2026, 1, 10),
        rounds=max(tournament.rounds, 1),
        time_control=tournament.time_control[:40],
    )
    players = {
        p.rank: Member(
            member_number=f"T{p.rank}",
            name=p.name,
            fide_id=p.fide_id if p.fide_id.isdigit() else "",
            title=p.title if p.title in TITLES else "",
            gender={"m": "M", "w": "F", "f": "F"}.get(p.sex, ""),
            initial_rating=p.rating,
        )
        for p in tournament.players
    }
    games = [(g.round, g.white, g.black, g.result, g.colours_known) for g in tournament.games()]
    return services.trf_import(event=event, games=games, players=players), players


def _read_back(event: Event) -> tuple[trf.Tournament, list[Member]]:
    back = trf.parse(event_to_trf(event).encode("utf-8"))
    order = starting_order(event)
    assert [p.rank for p in back.players] == list(range(1, len(order) + 1))
    return back, order


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_file_imported_then_exported_reads_back_as_the_same_tournament(path):
    original = trf.parse(path.read_bytes())
    event, players = _import(original)
    back, order = _read_back(event)

    # The players: as many, each with their name (written "Surname, Given"), FIDE id,
    # title and sex. Their starting ranks are the export's own (by rating, then name):
    # the club does not keep a file's ranks, so players are compared as members.
    assert len(back.players) == len(original.players)
    assert [p.name for p in back.players] == [trf_name(m.name)[:33] for m in order]
    assert sorted(m.name for m in order) == sorted(p.name for p in original.players)
    for member, read in zip(order, back.players, strict=True):
        assert (read.fide_id, read.title) == (member.fide_id, member.title)
        assert read.sex == {"M": "m", "F": "w"}.get(member.gender, "")
    # The rounds: the same number (the file's declared ones too, through XXR).
    assert back.rounds == original.rounds == event.rounds

    # Each player's every round: opponent, colour, result. Not kept: a one-point bye's
    # kind (F and U are both the club's one-point bye, written F), a game-result code
    # written with no opponent (read as the bye it scores), and which line of an
    # unknown-colour game held it first. The team records of trf26-team.trf are not
    # held by an event either: its players and their games are.
    by_rank = {p.rank: p for p in back.players}
    member_of_back = {rank: order[rank - 1].pk for rank in by_rank}
    member_of_original = {rank: member.pk for rank, member in players.items()}
    expected = _view(original.games(), member_of_original.__getitem__)
    got = _view(back.games(), member_of_back.__getitem__)
    assert got == expected
    assert got == _view(event.games.all())

    # The points on each line are the games' (the files' own points can differ: some
    # count rounds they do not list, or an acceleration). The games are read once, not
    # once a player (the cup: 249 players, 2,456 games each time, 80 % of the test).
    games = list(event.games.all())
    for rank, player in by_rank.items():
        member = member_of_back[rank]
        own = sum(
            Game.POINTS[g.result][0 if g.white_id == member else 1]
            for g in games
            if member in (g.white_id, g.black_id)
        )
        assert player.points == own


def test_every_event_of_the_demo_club_reads_back_as_its_games():
    call_command("load_demo", "--force", stdout=io.StringIO())
    events = list(Event.objects.all())
    assert events
    for event in events:
        back, order = _read_back(event)
        member_of_back = {p.rank: order[p.rank - 1].pk for p in back.players}
        assert sorted(member_of_back.values()) == sorted(
            event.entries.values_list("member_id", flat=True)
        ), event.name
        assert back.rounds == event.rounds, event.name
        assert back.start == event.start_date and back.end == event.end_date, event.name
        stored = _view(event.games.all())
        assert _view(back.games(), member_of_back.__getitem__) == stored, event.name
        # Pairs, colours and results the other way too: every stored game is a game read.
        assert sum(1 for g in event.games.all() if g.result != Game.Result.ZERO_BYE) == sum(
            1 for g in back.games() if g.result != Game.Result.ZERO_BYE
        ), event.name


def test_every_result_and_unknown_colours_read_back(alice, bob, carol, dave):
    event = Event.objects.create(
        name="All results", start_date=dt.date(2026, 3, 1), end_date=dt.date(2026, 3, 1), rounds=12
    )
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    played = [r for r in Game.Result.values if r not in Game.BYES]
    for round_, result in enumerate(played, start=1):
        pairs = ((alice, bob), (carol, dave)) if round_ % 2 else ((bob, carol), (dave, alice))
        for white, black in pairs:
            Game.objects.create(
                event=event, round=round_, white=white, black=black, result=result,
                colours_known=white != dave,  # dave's games as white: colours not known
            )  # fmt: skip
    Game.objects.filter(round=3, white=carol).delete()  # carol and dave: no game in round 3
    bye_round = len(played) + 1  # dave: no game; rounds 11 and 12 not played yet
    for member, result in zip((alice, bob, carol), Game.BYES, strict=True):
        Game.objects.create(event=event, round=bye_round, white=member, result=result)
    assert {g.result for g in event.games.all()} == set(Game.Result.values)
    back, order = _read_back(event)
    member_of_back = {p.rank: order[p.rank - 1].pk for p in back.players}
    assert back.rounds == 12
    assert _view(back.games(), member_of_back.__getitem__) == _view(event.games.all())
    assert sum(not g.colours_known for g in back.games()) == 4


def test_the_lines_have_fides_columns(alice, bob):
    alice.fide_id, alice.initial_rating, alice.title = "5001234", 1834.4, "WFM"
    alice.born = dt.date(1990, 2, 3)
    alice.save()
    event = Event.objects.create(
        name="Spring Swiss",
        start_date=dt.date(2026, 3, 1),
        end_date=dt.date(2026, 3, 8),
        rounds=3,
        time_control="60+30",
    )
    for member in (alice, bob):
        event.entries.create(member=member)
    Game.objects.create(event=event, round=1, white=bob, black=alice, result="0-1")
    Game.objects.create(event=event, round=3, white=alice, result=Game.Result.HALF_BYE)
    # The tie-break lines (202, 212) are test_crosstable_tie_breaks.py's.
    lines = [x for x in event_to_trf(event).splitlines() if x[:4] not in ("202 ", "212 ")]
    assert lines[:8] == [
        "012 Spring Swiss",
        "042 2026/03/01",
        "052 2026/03/08",
        "062 2",
        "072 1",  # players with a FIDE rating written
        "082 0",
        "092 Individual: Swiss-System",
        "122 60+30",
    ]

    # FIDE's columns (1-based): rank 5-8, sex 10, title 11-13, name 15-47, rating 49-52,
    # federation 54-56, FIDE id 58-68, born 70-79, points 81-84, place 86-89, then from
    # column 92 ten columns a round: opponent, colour, result.
    def columns(line):
        spans = ((4, 8), (9, 10), (10, 13), (14, 47), (48, 52), (53, 56), (57, 68), (69, 79))
        spans += ((80, 84), (85, 89), (91, 99), (101, 109), (111, 119))
        return [line.ljust(119)[a:b].strip() for a, b in spans]

    assert columns(lines[8]) == [
        "1", "w", "WFM", "Archer, Alice", "1834", "", "5001234", "1990/02/03",
        "1.5", "1", "2 b 1", "", "0000 - H",
    ]  # fmt: skip
    assert columns(lines[9]) == [
        "2", "m", "", "Brown, Bob", "", "", "", "", "0.0", "2", "1 w 0", "", "",
    ]  # fmt: skip
    assert lines[9].endswith("  0.0    2     1 w 0")  # no blank rounds after the last
    assert lines[10] == "XXR 3"


def test_an_officer_downloads_the_file(officer_client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    event.name = "Club Night: 12 May"
    event.save()
    response = officer_client.get(reverse("ratings:officer-event-trf", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="club-night-12-may.trf"'
    assert len(trf.parse(response.content).players) == 2
    page = officer_client.get(reverse("ratings:officer-event", args=[event.pk]))
    assert reverse("ratings:officer-event-trf", args=[event.pk]) in page.content.decode()


def test_the_file_is_for_officers_only(client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    url = reverse("ratings:officer-event-trf", args=[event.pk])
    assert client.get(url)["Location"] == f"/accounts/login/?next={url}"
    client.force_login(User.objects.create_user("member", password="x"))
    assert client.get(url).status_code == 403


# -- what a pairing program needs: the rounds (XXR) and the first colour (XXC) ------------


def _fixture(rounds: int, *members: Member) -> Event:
    event = Event.objects.create(
        name="Spring Swiss",
        start_date=dt.date(2026, 3, 1),
        end_date=dt.date(2026, 3, 29),
        rounds=rounds,
    )
    for member in members:
        event.entries.create(member=member)
    return event


def _extension_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("XXR", "XXC"))]


def test_an_event_with_no_games_yet_is_downloaded_with_its_rounds_and_first_colour(
    officer_client, alice, bob, carol, dave
):
    """bbpPairings (and JaVaFo) pair round 1 from the file only when told the rounds and
    the colour of round 1's top board."""
    event = _fixture(5, alice, bob, carol, dave)
    response = officer_client.get(reverse("ratings:officer-event-trf", args=[event.pk]))
    text = response.content.decode()
    assert _extension_lines(text) == ["XXR 5", "XXC white1"]
    players = [line for line in text.splitlines() if line.startswith("001")]
    assert len(players) == 4 and all(len(line) <= 89 for line in players)  # no rounds yet
    back = trf.parse(response.content)
    assert (len(back.players), back.rounds, back.games()) == (4, 5, [])


def test_the_first_colour_is_the_top_seeds_colour_in_round_1(alice, bob, carol, dave):
    for rating, member in zip((2000, 1900, 1800, 1700), (alice, bob, carol, dave), strict=True):
        member.initial_rating = rating
        member.save()
    event = _fixture(5, alice, bob, carol, dave)
    Game.objects.create(event=event, round=1, white=carol, black=alice, result="0-1")
    Game.objects.create(event=event, round=1, white=bob, black=dave, result="1-0")
    assert _extension_lines(event_to_trf(event)) == ["XXR 5", "XXC black1"]


def test_the_first_colour_is_read_as_pairing_programs_read_it_when_the_top_seed_sat_out(
    alice, bob, carol, dave
):
    """The top seed absent in round 1: the first colour is taken from the next player who
    played, turned round for each player above them without one (bbpPairings' rule)."""
    for rating, member in zip((2000, 1900, 1800, 1700), (alice, bob, carol, dave), strict=True):
        member.initial_rating = rating
        member.save()
    event = _fixture(5, alice, bob, carol, dave)
    Game.objects.create(event=event, round=1, white=bob, black=carol, result="1-0")
    assert _extension_lines(event_to_trf(event)) == ["XXR 5", "XXC white1"]
    # Round 1 played with colours not known by the top seed: the second seed's black in
    # round 1 says the top board had white.
    Game.objects.create(
        event=event, round=1, white=alice, black=dave, result="1-0", colours_known=False
    )
    Game.objects.filter(white=bob).update(white=carol, black=bob)
    assert _extension_lines(event_to_trf(event)) == ["XXR 5", "XXC white1"]
    Game.objects.filter(white=carol).update(white=bob, black=carol)
    assert _extension_lines(event_to_trf(event)) == ["XXR 5", "XXC black1"]
