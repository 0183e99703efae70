"""Real tournament files, as pairing programs, sites and federations wrote them
(``tests/data/*/README.md`` names each one's origin and licence): each imported with its
players, titles, rounds, colours and results as the file has them, read here from the
file's own columns; then exported and imported again, unchanged."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import chess.pgn
import pytest
from django.core.management import CommandError, call_command

from ratings.formats.trf_export import event_to_trf
from ratings.models import Event, Game, Member
from ratings.rules import results
from ratings.rules.names import given_surname

from ..conftest import TRF_FILES

pytestmark = pytest.mark.django_db

PGN_FILES = TRF_FILES.parent / "pgn"
#: The real files: every TRF, and the PGN files exported by sites and programs (the
#: hand-written and generated ones of that folder are other tests').
TRFS = sorted(TRF_FILES.glob("*.trf"))
PGNS = [
    PGN_FILES / name
    for name in (
        "nepomniachtchi-liren-game1.pgn",
        "anastasian-lewis.pgn",
        "knightvuillaume-jannlee-zh-lichess.pgn",
        "saturs-jannlee-zh-lichess.pgn",
        "chessbase-empty-line.pgn",
    )
]
#: A date for the files that give none (pairing engines' test files).
DATE = "2025-01-06"

#: The TRF16 title column's codes (FIDE's list), written out.
TITLES = {
    "g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM",
    "gm": "GM", "im": "IM", "fm": "FM", "cm": "CM", "wgm": "WGM", "wim": "WIM", "wfm": "WFM",
    "wcm": "WCM",
}  # fmt: skip
#: A game's result from white's code (TRF16), and a bye's from its code alone.
WHITE_CODE = {
    "1": results.WHITE_WIN,
    "=": results.DRAW,
    "0": results.BLACK_WIN,
    "W": results.WHITE_WIN_UNRATED,
    "D": results.DRAW_UNRATED,
    "L": results.BLACK_WIN_UNRATED,
    "+": results.WHITE_FORFEIT_WIN,
}
BYE_POINTS = {"F": 1, "U": 1, "+": 1, "1": 1, "W": 1, "H": 0.5, "=": 0.5, "D": 0.5}
#: What each code of a player's own round scores (TRF16 and TRF-2026).
SCORES = {"1": 1, "=": 0.5, "0": 0, "+": 1, "-": 0, "W": 1, "D": 0.5, "L": 0, "F": 1, "U": 1}
SCORES |= {"H": 0.5, "Z": 0, " ": 0}
BYES = {1: results.BYE, 0.5: results.HALF_BYE, 0: results.ZERO_BYE}
#: The same game seen with the colours the other way round.
MIRRORED = {
    results.WHITE_WIN: results.BLACK_WIN,
    results.BLACK_WIN: results.WHITE_WIN,
    results.WHITE_WIN_UNRATED: results.BLACK_WIN_UNRATED,
    results.BLACK_WIN_UNRATED: results.WHITE_WIN_UNRATED,
    results.WHITE_FORFEIT_WIN: results.BLACK_FORFEIT_WIN,
    results.BLACK_FORFEIT_WIN: results.WHITE_FORFEIT_WIN,
}


def game_key(round_, white, black, result, colours_known):
    """A game as a comparable row: a game whose colours are not known, in name order."""
    if black is not None and not colours_known and white > black:
        white, black, result = black, white, MIRRORED.get(result, result)
    return (round_, white, black, result, colours_known if black is not None else None)


def points_column(path: Path) -> tuple[int, dict[int, float], dict[int, float]]:
    """A TRF file's player lines (how many), and each player's points twice: as its
    points column (columns 81-84) says, and as the results of its rounds add up. Left out:
    players whose points a TRF-2026 ``299`` line adjusts (its last field names them), and
    a team file's (its points are the team's)."""
    lines = trf_lines(path)
    adjusted = {int(line.split()[-1]) for line in lines if line.startswith("299 ")}
    team = any(line.startswith(("013", "310")) for line in lines)
    column, results = {}, {}
    players = [line for line in lines if line.startswith("001")]
    for line in players:
        rank = int(line[4:8])
        if team or rank in adjusted or not line[80:84].strip():
            continue
        column[rank] = float(line[80:84])
        rest = line.rstrip()
        rounds = range(max(0, (len(rest) - 91 + 9) // 10))
        results[rank] = sum(SCORES[rest[91 + 10 * i : 99 + 10 * i].ljust(8)[7]] for i in rounds)
    return len(players), column, results


def trf_lines(path: Path) -> list[str]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def trf_columns(path: Path):
    """What a TRF file says, read from its columns (FIDE Handbook C.04 Annex 2): each
    player (name as the club writes it, title), the rounds, and each game and bye."""
    lines = trf_lines(path)
    players, slots, declared = {}, {}, 0
    for line in lines:
        if line.startswith(("XXR", "142")) and line[4:].strip().isdigit():
            declared = max(declared, int(line[4:].strip()))  # the rounds: JaVaFo's, TRF-2026's
        if not line.startswith("001"):
            continue
        rank = int(line[4:8])
        players[rank] = (
            given_surname(line[14:47].strip()),
            TITLES.get(line[10:13].strip().lower(), ""),
        )
        rest = line.rstrip()
        for index in range(max(0, (len(rest) - 91 + 9) // 10)):
            slot = rest[91 + 10 * index : 99 + 10 * index].ljust(8)
            opponent = int(slot[:4]) if slot[:4].strip() else 0
            slots[rank, index + 1] = (opponent, slot[5], slot[7])
    games = Counter()
    for (rank, round_), (opponent, colour, code) in slots.items():
        name = players[rank][0]
        if not opponent or code in "HFUZ ":
            games[round_, name, None, BYES[BYE_POINTS.get(code, 0)], None] += 1
            continue
        if colour == "b" or (colour == "-" and slots[opponent, round_][1] == "w"):
            continue  # read from white's line
        if colour == "-" and opponent < rank:
            continue  # colours unknown: read once, from the first line
        if code == "-":
            theirs = slots[opponent, round_][2]
            result = results.BLACK_FORFEIT_WIN if theirs == "+" else results.DOUBLE_FORFEIT
        else:
            result = WHITE_CODE[code]
        known = colour == "w"
        games[game_key(round_, name, players[opponent][0], result, known)] += 1
    rounds = max([declared, *(r for _rank, r in slots)])
    return set(players.values()), games, rounds


def recorded(event: Event):
    """The event as recorded: its players (name, title), games and rounds."""
    players = {(e.member.name, e.member.title) for e in event.entries.select_related("member")}
    games = Counter(
        game_key(
            g.round,
            g.white.name,
            g.black.name if g.black else None,
            g.result,
            g.colours_known,
        )
        for g in event.games.select_related("white", "black")
    )
    return players, games, event.rounds


def run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def round_trip(event: Event, tmp_path: Path) -> Event:
    """The event exported, the original renamed out of the way, the file imported again:
    every player must be the member they already are (no one new)."""
    path = tmp_path / "export.trf"
    path.write_text(event_to_trf(event), encoding="utf-8")
    Event.objects.filter(pk=event.pk).update(name=f"{event.name} (first import)")
    members = Member.objects.count()
    # The same games again: recorded twice only with a reason ("Every game once").
    out = run("import_trf", str(path), "--duplicate-reason", "the export read back")
    assert "(0 new)" in out
    assert Member.objects.count() == members
    return Event.objects.exclude(pk=event.pk).get()


def recorded_points(event: Event, rank_of: dict[str, int]) -> dict[int, float]:
    """Each player's points as the event records its games and byes, by the file's rank."""
    points: Counter[int] = Counter()
    for game in event.games.select_related("white", "black"):
        white, black = Game.POINTS[game.result]
        points[rank_of[game.white.name]] += white
        if game.black is not None:
            points[rank_of[game.black.name]] += black
    return {rank: points[rank] for rank in rank_of.values()}


@pytest.mark.parametrize("path", TRFS, ids=lambda p: p.name)
def test_a_real_trf_files_points_column_adds_up_to_its_results(path):
    """The check on the reading below: a file's own points column agrees with its rounds."""
    _count, column, results = points_column(path)
    assert column == results


@pytest.mark.parametrize("path", TRFS, ids=lambda p: p.name)
def test_a_real_trf_file_is_imported_as_it_is_written_and_comes_back_unchanged(path, tmp_path):
    players, games, rounds = trf_columns(path)
    count, column, _results = points_column(path)
    run("import_trf", "--create-missing", "--date", DATE, str(path))
    event = Event.objects.get()
    assert recorded(event) == (players, games, rounds)
    assert event.entries.count() == count  # every player line, one entry
    lines = [line for line in trf_lines(path) if line.startswith("001")]
    rank_of = {given_surname(line[14:47].strip()): int(line[4:8]) for line in lines}
    if len(rank_of) == count:  # names one each: points read back by name
        points = recorded_points(event, rank_of)
        assert {rank: points[rank] for rank in column} == column
    rated = sum(n for key, n in games.items() if key[2] is not None and key[3] in Game.PLAYED)
    assert event.games.filter(result__in=Game.PLAYED, black__isnull=False).count() == rated
    again = round_trip(event, tmp_path)
    assert recorded(again) == (players, games, rounds)
    assert (again.kind, again.time_class, again.rated) == (
        event.kind,
        event.time_class,
        event.rated,
    )
    assert (again.start_date, again.end_date) == (event.start_date, event.end_date)


def pgn_headers(path: Path):
    """What a PGN file says: each game's players (as the club writes them), titles,
    round (the tag's number, or 1 for a file's one game without one) and result."""
    games, players = Counter(), set()
    with path.open(encoding="utf-8-sig") as stream:
        while (headers := chess.pgn.read_headers(stream)) is not None:
            round_text = headers.get("Round", "?").split(".")[0]
            round_ = int(round_text) if round_text.isdigit() else 1
            names = []
            for colour in ("White", "Black"):
                name = given_surname(headers[colour])
                names.append(name)
                players.add((name, TITLES.get(headers.get(f"{colour}Title", "").lower(), "")))
            games[round_, names[0], names[1], results.PGN[headers["Result"]], True] += 1
    return players, games, max(r for r, *_ in games)


@pytest.mark.parametrize("path", PGNS, ids=lambda p: p.name)
def test_a_real_pgn_file_is_imported_as_it_is_written_and_comes_back_unchanged(path, tmp_path):
    expected = pgn_headers(path)
    run("import_pgn", "--create-missing", str(path))
    event = Event.objects.get()
    assert recorded(event) == expected
    again = round_trip(event, tmp_path)
    assert recorded(again) == expected
    assert (again.kind, again.time_class, again.rated) == (
        event.kind,
        event.time_class,
        event.rated,
    )


def test_a_real_pairing_programs_file_before_round_1_is_refused_by_the_import(capsys):
    """bbpPairings' input for round 1 (players, XXR, XXC, no game): an import records an
    event complete, so a file without results is refused, naming it, and nothing saved."""
    path = TRF_FILES / "before-round-1" / "chesspairing-bbp-8p5r-input.trf"
    _count, column, _results = points_column(path)
    assert set(column.values()) == {0.0}  # no one has a point: no round played
    with pytest.raises(CommandError, match="BBP Reference Tournament has no games"):
        run("import_trf", "--create-missing", str(path))
    assert not Event.objects.exists() and not Member.objects.exists()


def test_the_files_are_at_least_seventeen_trf_and_four_pgn():
    assert len(TRFS) >= 17 and len(PGNS) >= 4
