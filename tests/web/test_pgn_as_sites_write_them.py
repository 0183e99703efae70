"""PGN files as sites and federations write them: tags without moves, UTCDate, a match's
games in one round, a Site that is each game's URL, FIDE's time-control notations."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings.formats.tournament_files import pgn_events, trf_event
from ratings.models import Event, Game

from ..conftest import TRF_FILES

pytestmark = pytest.mark.django_db


def game(white: str, black: str, result: str, **tags: str) -> str:
    """One game's tags, no moves (as a broadcast exported without moves writes it)."""
    tags = {"Event": "Eastvale Open", "Site": "Eastvale", "Date": "2025.10.07"} | tags
    lines = [f'[{name} "{value}"]' for name, value in tags.items()]
    lines += [f'[White "{white}"]', f'[Black "{black}"]', f'[Result "{result}"]']
    return "\n".join(lines) + "\n"


def write(tmp_path: Path, *games: str, between: str = "\n") -> Path:
    path = tmp_path / "games.pgn"
    path.write_text(between.join(games), encoding="utf-8")
    return path


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_pgn", "--create-missing", *args, stdout=out)
    return out.getvalue()


def results(event: Event) -> list[tuple[int, str, str, str]]:
    return sorted(
        (g.round, g.white.name, g.black.name, g.result)
        for g in event.games.select_related("white", "black")
    )


# -- tags without moves ---------------------------------------------------------------------


@pytest.mark.parametrize("between", ["\n", ""], ids=["a blank line", "no blank line"])
def test_a_file_of_tags_without_moves_is_read_game_by_game(tmp_path, between):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Round="1.1"),
        game("Cara Diaz", "Dan Evans", "1/2-1/2", Round="1.2"),
        game("Ben Carter", "Cara Diaz", "0-1", Round="2.1"),
        between=between,
    )
    events, problems = pgn_events("games.pgn", path.read_bytes())
    assert problems == []
    assert [(e.name, e.rounds, len(e.games), len(e.players)) for e in events] == [
        ("Eastvale Open", 2, 3, 4)
    ]


def test_a_file_of_tags_without_moves_imports_every_game(tmp_path):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Round="1.1"),
        game("Cara Diaz", "Dan Evans", "0-1", Round="1.2"),
    )
    assert "2 games rated" in run(str(path))
    assert results(Event.objects.get()) == [
        (1, "Ana Tuilagi", "Ben Carter", Game.Result.WHITE_WIN),
        (1, "Cara Diaz", "Dan Evans", Game.Result.BLACK_WIN),
    ]


# -- dates ----------------------------------------------------------------------------------


def test_utcdate_dates_a_game_without_a_date_and_the_command_says_so(tmp_path):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Date="????.??.??", UTCDate="2025.10.07"),
        game("Ben Carter", "Ana Tuilagi", "1-0", Date="????.??.??", UTCDate="2025.10.14"),
    )
    out = run(str(path))
    event = Event.objects.get()
    assert (event.start_date, event.end_date) == (dt.date(2025, 10, 7), dt.date(2025, 10, 14))
    assert "2 games dated by the UTCDate tag (no Date tag)" in out


def test_a_file_without_dates_is_refused_naming_date(tmp_path):
    path = write(tmp_path, game("Ana Tuilagi", "Ben Carter", "1-0", Date="????.??.??"))
    with pytest.raises(CommandError, match=r"no date .*import_pgn --date YYYY-MM-DD"):
        run(str(path))
    assert not Event.objects.exists()


def test_import_pgn_date_dates_the_games_that_give_none_and_says_so(tmp_path):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Date="????.??.??", Round="1"),
        game("Ben Carter", "Ana Tuilagi", "0-1", Date="2025.10.14", Round="2"),
    )
    out = run("--date", "2025-10-07", str(path))
    event = Event.objects.get()
    assert (event.start_date, event.end_date) == (dt.date(2025, 10, 7), dt.date(2025, 10, 14))
    assert "1 game gave no date: dated by the date given (--date)" in out


# -- a match in one round ---------------------------------------------------------------------


def knockout_round(tmp_path: Path) -> Path:
    """A knockout's round 4 as TWIC writes it (4.1, 4.2 ... the games of each match), and
    a round 3 of single games beside it."""
    return write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1/2-1/2", Round="3.1"),
        game("Cara Diaz", "Dan Evans", "1-0", Round="3.2"),
        game("Ana Tuilagi", "Cara Diaz", "1/2-1/2", Round="4.1", Date="2025.10.14"),
        game("Cara Diaz", "Ana Tuilagi", "1/2-1/2", Round="4.2", Date="2025.10.15"),
        game("Ana Tuilagi", "Cara Diaz", "1-0", Round="4.3", Date="2025.10.16"),
    )


def test_a_knockout_match_in_one_round_is_kept_game_by_game_with_the_other_games(tmp_path):
    out = run(str(knockout_round(tmp_path)))
    assert "1 match" in out and "5 games rated" in out
    assert results(Event.objects.get()) == sorted(
        [
            (3, "Ana Tuilagi", "Ben Carter", Game.Result.DRAW),
            (3, "Cara Diaz", "Dan Evans", Game.Result.WHITE_WIN),
            (4, "Ana Tuilagi", "Cara Diaz", Game.Result.DRAW),
            (4, "Ana Tuilagi", "Cara Diaz", Game.Result.WHITE_WIN),
            (4, "Cara Diaz", "Ana Tuilagi", Game.Result.DRAW),
        ]
    )


def test_a_player_against_two_opponents_in_one_round_is_still_refused(tmp_path):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Round="1.1"),
        game("Ana Tuilagi", "Cara Diaz", "1-0", Round="1.2"),
    )
    with pytest.raises(CommandError, match="Ana Tuilagi already plays round 1"):
        run(str(path))
    assert not Event.objects.exists()


def test_the_web_import_keeps_every_game_of_a_match(officer_client, tmp_path):
    preview = reverse("ratings:officer-import-preview")
    data = knockout_round(tmp_path).read_bytes()
    upload = SimpleUploadedFile("knockout.pgn", data)
    assert (
        officer_client.post(reverse("ratings:officer-import"), {"file": upload})["Location"]
        == preview
    )
    form = officer_client.get(preview).context["form"]
    choices = {name: form[name].value() for name in form.fields} | {"rated": "on"}
    officer_client.post(preview, choices)
    assert results(Event.objects.get())[2:] == sorted(
        [
            (4, "Ana Tuilagi", "Cara Diaz", Game.Result.DRAW),
            (4, "Ana Tuilagi", "Cara Diaz", Game.Result.WHITE_WIN),
            (4, "Cara Diaz", "Ana Tuilagi", Game.Result.DRAW),
        ]
    )


# -- events and sites -------------------------------------------------------------------------


def test_games_whose_site_is_the_games_url_are_one_event_by_their_event(tmp_path):
    path = write(
        tmp_path,
        game(
            "ana_t", "ben_c", "1-0", Event="Rated blitz game", Site="https://lichess.org/AbCd1234"
        ),
        game(
            "ben_c", "ana_t", "0-1", Event="Rated blitz game", Site="https://lichess.org/EfGh5678"
        ),
        game(
            "cara_d", "ana_t", "1-0", Event="Rated blitz game", Site="https://lichess.org/IjKl9012"
        ),
    )
    events, problems = pgn_events("games.pgn", path.read_bytes())
    assert problems == []
    assert [(e.name, len(e.games)) for e in events] == [("Rated blitz game", 3)]


def test_one_event_at_two_halls_sharing_players_is_one_event(tmp_path):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Site="Hall A", Round="1.1"),
        game("Cara Diaz", "Dan Evans", "1-0", Site="Hall B", Round="1.2"),
        game("Ana Tuilagi", "Cara Diaz", "1-0", Site="Hall B", Round="2.1"),
    )
    events, problems = pgn_events("games.pgn", path.read_bytes())
    assert problems == []
    assert [(e.name, len(e.games)) for e in events] == [("Eastvale Open", 3)]


def test_one_event_at_two_sites_without_a_player_in_common_stays_two(tmp_path):
    path = write(
        tmp_path,
        game("Ana Tuilagi", "Ben Carter", "1-0", Site="Eastvale"),
        game("Cara Diaz", "Dan Evans", "1-0", Site="Westvale"),
    )
    events, _problems = pgn_events("games.pgn", path.read_bytes())
    assert sorted(e.name for e in events) == [
        "Eastvale Open (Eastvale)",
        "Eastvale Open (Westvale)",
    ]


# -- the time control read --------------------------------------------------------------------


def test_import_pgn_says_what_it_read_the_time_control_as(tmp_path):
    path = write(tmp_path, game("Ana Tuilagi", "Ben Carter", "1-0", TimeControl="90/40+30"))
    out = run(str(path))
    assert "time control 90/40+30 read as standard" in out
    assert Event.objects.get().time_class == "standard"


def test_import_trf_says_what_it_read_the_time_control_as(tmp_path):
    text = (TRF_FILES / "lichess-swiss-2020-05.trf").read_text(encoding="utf-8")
    lines = [("122 90/40+30" if line.startswith("122") else line) for line in text.splitlines()]
    path = tmp_path / "classical.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    event, _problems = trf_event(str(path), path.read_bytes())
    assert event is not None
    assert any("time control 90/40+30 read as standard" in note for note in event.notes)


def test_a_blank_line_among_one_games_tags_keeps_them_one_game(tmp_path):
    path = write(
        tmp_path,
        # As ChessBase writes it: a blank line after the Event tag.
        '[Event "Eastvale Open"]\n\n[Site "Eastvale"]\n[Date "2025.10.07"]\n[Round "1"]\n'
        '[White "Ana Tuilagi"]\n[Black "Ben Carter"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n',
        game("Cara Diaz", "Dan Evans", "0-1", Round="1"),
    )
    events, problems = pgn_events("games.pgn", path.read_bytes())
    assert problems == []
    assert [(e.name, len(e.games)) for e in events] == [("Eastvale Open", 2)]
