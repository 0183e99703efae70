"""manage.py import_pgn: the games of a PGN file, from their headers, complete and rated."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings.models import Event, Game, Member, RatingChange

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

PGN = Path(__file__).resolve().parent.parent / "data" / "pgn"
TWO = PGN / "two-events.pgn"
UNFINISHED = PGN / "unfinished.pgn"


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_pgn", *args, stdout=out)
    return out.getvalue()


def last(out: str) -> str:
    return out.strip().splitlines()[-1]


def test_one_event_per_event_and_site_with_its_games_and_results():
    out = run("--create-missing", str(TWO))
    assert last(out) == "imported: 4 players (4 new), 9 games rated, 0 unplayed, 2 events"
    cup = Event.objects.get(name="Eastvale Autumn Cup 2025")
    assert (cup.start_date, cup.end_date, cup.rounds) == (
        dt.date(2025, 10, 7),
        dt.date(2025, 10, 21),
        3,
    )
    assert cup.status == Event.Status.COMPLETE and cup.rated
    rapid = Event.objects.get(name="Southbank Rapid")
    assert (rapid.start_date, rapid.end_date, rapid.rounds) == (
        dt.date(2025, 11, 15),
        dt.date(2025, 11, 15),
        2,
    )
    games = {
        (g.round, g.white.name, g.black.name): g.result
        for g in cup.games.select_related("white", "black")
    }
    assert games == {
        (1, "Mikhail Petrov", "Ana Tuilagi"): Game.Result.WHITE_WIN,
        (1, "Carlos Mendes", "Grace Okafor"): Game.Result.DRAW,
        (2, "Ana Tuilagi", "Carlos Mendes"): Game.Result.BLACK_WIN,
        (2, "Grace Okafor", "Mikhail Petrov"): Game.Result.DRAW,
        (3, "Mikhail Petrov", "Carlos Mendes"): Game.Result.WHITE_WIN,
        (3, "Grace Okafor", "Ana Tuilagi"): Game.Result.BLACK_WIN,
    }
    assert rapid.games.count() == 3
    assert Member.objects.get(name="Mikhail Petrov").fide_id == "4130545"
    assert RatingChange.objects.filter(event=rapid).count() == 4


def test_players_are_matched_as_the_trf_import_matches_them():
    petrov = MemberFactory(name="Someone Else", fide_id="4130545")
    ana = MemberFactory(name="Ana Tuilagi")
    grace = MemberFactory(name="GRACE OKAFOR")
    carlos = MemberFactory(name="Carlos Mendes")
    out = run(str(TWO))
    assert last(out) == "imported: 4 players (0 new), 9 games rated, 0 unplayed, 2 events"
    assert set(Event.objects.get(name="Southbank Rapid").players.all()) == {
        petrov,
        ana,
        grace,
        carlos,
    }


def test_unmatched_players_stop_it_with_their_list():
    MemberFactory(name="Ana Tuilagi")
    with pytest.raises(CommandError) as error:
        run(str(TWO))
    message = str(error.value)
    assert "3 player(s) match no member" in message
    assert "game 1: Petrov, Mikhail" in message
    assert "Tuilagi" not in message
    assert not Event.objects.exists() and Member.objects.count() == 1


def test_a_game_without_a_result_is_refused_by_its_number():
    with pytest.raises(CommandError) as error:
        run("--create-missing", str(UNFINISHED))
    assert f"{UNFINISHED}, game 4 (Okafor, Grace - Petrov, Mikhail): no result (*)" in str(
        error.value
    )
    assert not Event.objects.exists() and not Member.objects.exists()


def test_event_puts_every_game_in_one_event_in_date_order():
    out = run("--create-missing", "--event", "Club games 2025", str(TWO))
    assert last(out) == "imported: 4 players (4 new), 9 games rated, 0 unplayed, 1 event"
    event = Event.objects.get()
    assert event.name == "Club games 2025"
    assert (event.start_date, event.end_date, event.rounds) == (
        dt.date(2025, 10, 7),
        dt.date(2025, 11, 15),
        5,
    )
    assert sorted(event.games.values_list("round", flat=True)) == [1, 1, 2, 2, 3, 3, 4, 4, 5]


def test_a_dry_run_saves_nothing():
    out = run("--dry-run", "--create-missing", str(TWO))
    assert last(out) == "would import: 4 players (4 new), 9 games rated, 0 unplayed, 2 events"
    assert not Event.objects.exists() and not Member.objects.exists()


def test_importing_the_same_file_again_creates_nothing_and_says_so():
    run("--create-missing", str(TWO))
    out = run("--create-missing", str(TWO))
    assert 'already imported as "Southbank Rapid" (2025-11-15); nothing done' in out
    assert last(out) == "imported: 0 players (0 new), 0 games rated, 0 unplayed, 0 events"
    assert Event.objects.count() == 2 and Game.objects.count() == 9


def test_a_file_without_games_is_refused(tmp_path):
    path = tmp_path / "empty.pgn"
    path.write_bytes(b"")
    with pytest.raises(CommandError) as error:
        run(str(path))
    assert "no games: not a PGN file" in str(error.value)
