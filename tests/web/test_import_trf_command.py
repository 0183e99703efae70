"""manage.py import_trf: tournament report files imported whole, complete and rated."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from ratings.formats import trf
from ratings.models import Event, Game, Member, RatingChange
from ratings.rules.names import given_surname
from ratings.words.counts import count_phrase

from ..conftest import TRF_FILES
from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

FILES = [
    TRF_FILES / name
    for name in (
        "gros-open-2010.trf",
        "grandmommys-cup-2024.trf",
        "trf26-team.trf",
        "lichess-swiss-2020-05.trf",
    )
]
GROS = FILES[0]
TEAM = FILES[2]


def summary(players: int, new: int, games: int, unplayed: int, events: int) -> str:
    """The command's last line: "imported: 52 players (52 new), 1 game rated, ..."."""
    return (
        f"imported: {count_phrase(players, 'player')} ({new} new), "
        f"{count_phrase(games, 'game')} rated, {unplayed} unplayed, "
        f"{count_phrase(events, 'event')}"
    )


#: Each result's points for white and for black.
POINTS = {
    "1-0": (1, 0),
    "1/2-1/2": (0.5, 0.5),
    "0-1": (0, 1),
    "1-0 nr": (1, 0),
    "1/2-1/2 nr": (0.5, 0.5),
    "0-1 nr": (0, 1),
    "+/-": (1, 0),
    "-/+": (0, 1),
    "-/-": (0, 0),
    "bye": (1, 0),
    "half-bye": (0.5, 0),
    "zero-bye": (0, 0),
}


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_trf", *args, stdout=out)
    return out.getvalue()


def counts(tournament: trf.Tournament) -> tuple[int, int]:
    games = tournament.games()
    rated = sum(g.black is not None and g.result in Game.PLAYED for g in games)
    return rated, len(games) - rated


def test_four_real_files_are_imported_rated_and_scored_as_the_files_say():
    out = run("--create-missing", *map(str, FILES))
    parsed = [trf.parse(path.read_bytes()) for path in FILES]
    players = sum(len(t.players) for t in parsed)
    rated = sum(counts(t)[0] for t in parsed)
    unplayed = sum(counts(t)[1] for t in parsed)
    assert out.strip().splitlines()[-1] == summary(players, players, rated, unplayed, len(FILES))
    assert Event.objects.count() == 4
    # The grandmommy's cup's tie-breaks are not ones the club knows: said, not kept.
    assert "the tie-breaks EDET/P, EMGSB/C1/P, BH:MP/C1/P, MPvGP are not kept" in out
    assert Event.objects.get(name="Grandmommy's Cup").tie_breaks == ""
    for tournament in parsed:
        event = Event.objects.get(name=tournament.name)
        assert event.status == Event.Status.COMPLETE and event.rated
        assert event.start_date == tournament.start
        games = list(event.games.select_related("white", "black"))
        assert len(games) == len(tournament.games())
        assert (
            sum(g.black_id is not None and g.result in Game.PLAYED for g in games)
            == (counts(tournament)[0])
        )
        score: dict[str, float] = {}
        for game in games:
            white, black = POINTS[game.result]
            score[game.white.name] = score.get(game.white.name, 0) + white
            if game.black is not None:
                score[game.black.name] = score.get(game.black.name, 0) + black
        for player in tournament.players:
            own = sum(
                trf.CODE_POINTS[r.code]
                if r.opponent is not None
                else POINTS[trf.BYE_CODES[r.code]][0]
                for r in player.results
            )
            # New members are named "Given Surname" (the file writes the surname first).
            name = given_surname(player.name)
            assert score.get(name, 0) == own, player.name
            if player.points is not None and tournament.name != "Test Team Tournament":
                # (the team file's points are its team matches')
                assert score.get(name, 0) == player.points, player.name
        # Rated: a rating change for every player with a rated game.
        rated_players = {
            p
            for g in games
            if g.result in Game.PLAYED and g.black_id
            for p in (g.white_id, g.black_id)
        }
        changed = set(RatingChange.objects.filter(event=event).values_list("member_id", flat=True))
        if event.online:  # a Lichess export: kept, rated on no list
            assert changed == set()
        else:
            assert changed >= rated_players


def test_a_dry_run_saves_nothing_and_says_what_it_would_do():
    out = run("--dry-run", "--create-missing", str(GROS))
    rated, unplayed = counts(trf.parse(GROS.read_bytes()))
    assert out.strip().splitlines()[-1] == summary(52, 52, rated, unplayed, 1).replace(
        "imported", "would import"
    )
    assert not Event.objects.exists() and not Member.objects.exists()


def test_players_who_match_no_member_stop_it_with_their_list():
    MemberFactory(name="Garry Kasparov")
    with pytest.raises(CommandError) as error:
        run(str(TEAM))
    message = str(error.value)
    assert "1 player(s) match no member" in message
    assert "trf26-team.trf, line 14: Polgar, Judith" in message
    assert "Kasparov" not in message
    assert not Event.objects.exists()
    assert Member.objects.count() == 1


def test_create_missing_makes_members_and_as_guests_makes_guests():
    kasparov = MemberFactory(name="Garry Kasparov")
    out = run("--as-guests", str(TEAM))
    assert out.strip().splitlines()[-1].startswith("imported: 2 players (1 new)")
    polgar = Member.objects.get(name="Judith Polgar")
    # A guest's number is in the club's pattern, as a member's (one pattern, the club's).
    assert (
        polgar.is_guest and polgar.member_number == f"M{int(kasparov.member_number[1:]) + 1:04d}"
    )
    assert set(Event.objects.get().players.all()) == {kasparov, polgar}
    out = run("--create-missing", str(GROS))
    assert out.strip().splitlines()[-1].startswith("imported: 52 players (52 new)")
    created = Member.objects.exclude(pk__in=[kasparov.pk, polgar.pk])
    assert created.count() == 52 and not created.filter(is_guest=True).exists()
    assert all(n.startswith("M") for n in created.values_list("member_number", flat=True))


def test_importing_the_same_file_again_creates_nothing_and_says_so():
    run("--create-missing", str(GROS))
    before = (Event.objects.count(), Member.objects.count(), Game.objects.count())
    out = run("--create-missing", str(GROS))
    assert f'{GROS}: already imported as "XX Open Internacional de Gros" (2010-09-24); ' in out
    assert (
        out.strip().splitlines()[-1]
        == "imported: 0 players (0 new), 0 games rated, 0 unplayed, 0 events"
    )
    assert (Event.objects.count(), Member.objects.count(), Game.objects.count()) == before


def damaged(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


LINES = GROS.read_bytes().splitlines(keepends=True)
PLAYER_LINES = [i for i, line in enumerate(LINES) if line.startswith(b"001")]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("truncated", "who has no player line"),
        ("bad result", "disagrees"),
        ("unknown player", "who has no player line"),
    ],
)
def test_a_damaged_file_is_refused_by_line_and_nothing_is_saved(tmp_path, damage, message):
    lines = list(LINES)
    if damage == "truncated":
        lines = lines[: PLAYER_LINES[len(PLAYER_LINES) // 2]]
    elif damage == "bad result":
        i = PLAYER_LINES[0]
        line = lines[i].decode("latin-1")
        # the first round's result code (column 98) of the first player
        code = line[98]
        other = {"1": "0", "0": "1", "=": "1"}.get(code, "=")
        lines[i] = (line[:98] + other + line[99:]).encode("latin-1")
    else:
        i = PLAYER_LINES[0]
        line = lines[i].decode("latin-1")
        lines[i] = (line[:91] + " 999" + line[95:]).encode("latin-1")
    path = damaged(tmp_path, "damaged.trf", b"".join(lines))
    with pytest.raises(CommandError) as error:
        run("--create-missing", str(GROS), path)
    text = str(error.value)
    assert "nothing saved" in text and message in text
    assert f"{path}: Line " in text
    assert not Event.objects.exists() and not Member.objects.exists()


def test_a_file_in_the_wrong_encoding_is_refused(tmp_path):
    path = damaged(tmp_path, "utf16.trf", GROS.read_bytes().decode("latin-1").encode("utf-16"))
    with pytest.raises(CommandError) as error:
        run("--create-missing", path)
    assert f"{path}: the file is UTF-16 text" in str(error.value)
    assert not Event.objects.exists()


def test_a_file_that_is_not_a_report_is_refused(tmp_path):
    path = damaged(tmp_path, "notes.trf", b"Hello\nthis is not a report\n")
    with pytest.raises(CommandError) as error:
        run(path)
    assert "no player (001) lines" in str(error.value)


def test_players_match_by_fide_id_then_member_number_then_name(tmp_path):
    by_id = MemberFactory(name="Somebody Else", fide_id="13400304")
    by_number = MemberFactory(member_number="R2001", name="Ana Tuilagi")
    by_name = MemberFactory(name="John Smith")

    def line(rank, name, fide, points, opponent, colour, result):  # TRF16 columns
        return (
            f"001 {rank:>4}      {name:<33} 1500     {fide:>11}            {points:>4.1f} "
            f"{rank:>4}  {opponent:>4} {colour} {result}\n"
        )

    text = (
        "012 Club night\n042 2026/03/03\n"
        + line(1, "Mirzoev Azer", "13400304", 1, "2", "w", "1")
        + line(2, "r2001", "", 0, "1", "b", "0")
        + line(3, "SMITH, John", "", 1, "0000", "-", "U")
    )
    path = damaged(tmp_path, "club.trf", text.encode())
    out = run(path)
    assert last_line(out) == "imported: 3 players (0 new), 1 game rated, 1 unplayed, 1 event"
    assert set(Event.objects.get().players.all()) == {by_id, by_number, by_name}


def last_line(out: str) -> str:
    return out.strip().splitlines()[-1]


def test_a_player_new_in_two_files_is_one_new_member(tmp_path):
    text = GROS.read_bytes().replace(b"XX Open Internacional de Gros", b"XXI Open de Gros")
    second = damaged(tmp_path, "gros-again.trf", text)
    out = run("--create-missing", str(GROS), second)
    rated, unplayed = counts(trf.parse(GROS.read_bytes()))
    assert last_line(out) == summary(52, 52, 2 * rated, 2 * unplayed, 2)
    assert Member.objects.count() == 52
    assert Event.objects.count() == 2


def test_the_same_file_twice_in_one_run_is_imported_once():
    out = run("--create-missing", str(GROS), str(GROS))
    assert f"{GROS}: the same event as {GROS}" in out
    assert last_line(out).endswith(", 1 event")
    assert Event.objects.count() == 1


DUTCH = TRF_FILES / "dutch-2025-c5.trf"  # a pairing engine's file: no 042, no round dates


def test_a_file_without_dates_is_refused_and_named_with_the_way_to_date_it():
    with pytest.raises(CommandError) as error:
        run("--create-missing", str(DUTCH))
    assert f"{DUTCH}: no start date" in str(error.value)
    assert "--date YYYY-MM-DD" in str(error.value)
    assert not Event.objects.exists()


def test_date_gives_a_file_without_dates_its_date_and_the_summary_is_as_usual():
    out = run("--create-missing", "--date", "2025-03-04", str(DUTCH))
    event = Event.objects.get()
    assert (event.start_date.isoformat(), event.end_date.isoformat()) == ("2025-03-04",) * 2
    tournament = trf.parse(DUTCH.read_bytes())
    assert out.strip().endswith(summary(6, 6, *counts(tournament), 1))


def test_date_leaves_a_dated_file_its_own_date():
    run("--create-missing", "--date", "2025-03-04", str(GROS))
    assert Event.objects.get().start_date.isoformat() == "2010-09-24"


def test_date_that_is_not_a_date_is_refused():
    with pytest.raises(CommandError, match="'2025-02-30' is not a date"):
        run("--create-missing", "--date", "2025-02-30", str(DUTCH))
