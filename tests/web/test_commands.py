"""The commands: imports refuse a bad file whole, by line; exports list who is published."""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from ratings import services
from ratings.models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
    Season,
    Subscription,
)
from tests.factories import MemberFactory, SubscriptionFactory, paid_up

pytestmark = pytest.mark.django_db

MEMBERS_HEADER = "id,name,born,gender,region,title,fide_id,membership\n"
RESULTS_HEADER = "event,date,round,white,black,result\n"


@pytest.fixture
def write(tmp_path: Path):
    def make(text: str, name: str = "file.csv") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return make


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as error:
        call_command(*args, stdout=io.StringIO())
    return str(error.value)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# -- import_members -----------------------------------------------------------------------


def test_import_members_adds_every_column(write):
    run(
        "import_members", write(MEMBERS_HEADER + "R7,Ana Tuilagi,2011-04-02,F,East,WFM,4100001,\n")
    )
    ana = Member.objects.get(member_number="R7")
    assert (ana.name, ana.born, ana.gender, ana.region, ana.title, ana.fide_id) == (
        "Ana Tuilagi",
        dt.date(2011, 4, 2),
        "F",
        "East",
        "WFM",
        "4100001",
    )


def test_import_members_needs_only_id_and_name(write):
    run("import_members", write("id,name\nR7,Ana Tuilagi\nR8,Ben Clarke\n"))
    assert Member.objects.count() == 2


def test_imported_members_have_their_current_state_at_once(write):
    run("import_members", write("id,name\nR7,Ana Tuilagi\n"))
    ana = Member.objects.get(member_number="R7")
    assert RatingState.objects.filter(member=ana).exists()


def test_reimporting_a_member_updates_them_by_id(write, alice):
    run("import_members", write("id,name,region\nA1,Alice Archer-Smith,West\n"))
    alice.refresh_from_db()
    assert (alice.name, alice.region) == ("Alice Archer-Smith", "West")
    assert Member.objects.count() == 1


def test_reimporting_a_member_by_their_number_in_another_case_updates_them(write):
    MemberFactory(member_number="R1056", name="Rua Kahu")
    run("import_members", write("id,name,region\nr1056,Rua Kahu,West\n"))
    (rua,) = Member.objects.all()
    assert (rua.member_number, rua.region) == ("R1056", "West")


def test_reimporting_leaves_columns_absent_from_the_file_alone(write, alice):
    run("import_members", write("id,name\nA1,Alice Archer\n"))
    alice.refresh_from_db()
    assert (alice.gender, alice.region) == ("F", "North")


def test_financial_records_a_subscription_for_the_current_season(write, current_season):
    run("import_members", write("id,name,membership\nR7,Ana Tuilagi,financial\n"))
    ana = Member.objects.get(member_number="R7")
    assert ana.subscriptions.get().season == current_season
    assert Member.objects.published().filter(pk=ana.pk).exists()


def test_financial_twice_keeps_one_subscription(write, alice, current_season):
    paid_up(alice, current_season)
    run("import_members", write("id,name,membership\nA1,Alice Archer,financial\n"))
    assert alice.subscriptions.count() == 1


def test_arrears_removes_only_the_current_seasons_subscription(write, alice, current_season):
    last = Season.for_day(current_season.start - dt.timedelta(days=1))
    paid_up(alice, last, current_season)
    run(
        "import_members",
        write("id,name,membership\nA1,Alice Archer,arrears\n"),
        "--removal-reason=left the club",
    )
    assert list(alice.subscriptions.values_list("season", flat=True)) == [last.pk]
    assert not Member.objects.published().filter(pk=alice.pk).exists()


def test_guest_makes_a_player_a_guest_who_is_never_published(write, current_season):
    run("import_members", write("id,name,membership\nV1,Carlos Mendes,guest\n"))
    carlos = Member.objects.get(member_number="V1")
    assert carlos.is_guest
    assert not Member.objects.published().filter(pk=carlos.pk).exists()


def test_financial_makes_a_guest_a_member(write, current_season):
    MemberFactory(member_number="V1", name="Carlos Mendes", is_guest=True)
    run("import_members", write("id,name,membership\nV1,Carlos Mendes,financial\n"))
    assert Member.objects.published().filter(member_number="V1").exists()


def test_making_a_rated_member_a_guest_rerates(write, rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    run("import_members", write("id,name,membership\nB2,Bob Brown,guest\n"))
    # Guests are fixed at 1500 and their opponents score against that.
    assert RatingState.objects.get(member=bob).rating == 1500.0


BAD_MEMBER_ROWS = [
    ("R7,Ana,x,F,,,,\n", "line 3, born: 'x' is not a date YYYY-MM-DD"),
    ("R7,Ana,2011-02-30,F,,,,\n", "line 3, born: '2011-02-30' is not a date YYYY-MM-DD"),
    ("R7,Ana,,X,,,,\n", "line 3, gender: 'X' is not M or F"),
    ("R7,Ana,,,,XM,,\n", "line 3, title: 'XM' is not a FIDE title"),
    ("R7,Ana,,,,,41x,\n", "line 3, fide_id: '41x' is not a FIDE id (digits)"),
    (",Ana,,,,,,\n", "line 3, id: required, but empty"),
    ("R7,,,,,,,\n", "line 3, name: required, but empty"),
    ("R 7,Ana,,,,,,\n", "line 3, id: 'R 7' is not a member id"),
    ("R7,Ana,,,,,,paid\n", "line 3, membership: 'paid' is not one of financial, arrears, guest"),
]


@pytest.mark.parametrize(("row", "message"), BAD_MEMBER_ROWS)
def test_a_bad_member_row_is_refused_with_its_line_and_nothing_is_saved(write, row, message):
    text = MEMBERS_HEADER + "R1,Good Row,,,,,,financial\n" + row
    error = refused("import_members", write(text))
    assert message in error
    assert not Member.objects.exists()
    assert not Subscription.objects.exists()


def test_a_duplicate_id_in_the_file_is_refused(write):
    error = refused("import_members", write("id,name\nR7,Ana\nR8,Ben\nR7,Ann\n"))
    assert "line 4, id: 'R7' is also on line 2" in error


def test_an_unknown_column_is_refused(write):
    error = refused("import_members", write("id,name,nickname\nR7,Ana,Annie\n"))
    assert "line 1: unknown column 'nickname'" in error


def test_a_missing_required_column_is_refused(write):
    assert "line 1: missing column 'name'" in refused("import_members", write("id\nR7\n"))


def test_every_problem_of_a_bad_member_file_is_listed(write, alice):
    text = MEMBERS_HEADER + "R7,Ana,x,F,,,,\nR8,Ben,,Q,,,,\nA1,Alice Changed,,,,,,arrears\n"
    error = refused("import_members", write(text))
    assert "line 2, born" in error
    assert "line 3, gender" in error
    assert "2 problems" in error
    alice.refresh_from_db()
    assert alice.name == "Alice Archer"


def test_a_windows_1252_members_file_is_read_as_that_and_the_command_says_so(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_bytes("id,name\nR6,Ana Tuilagi\nR7,José Álvarez\n".encode("cp1252"))
    out = run("import_members", str(path))
    assert "read as Windows-1252" in out
    assert "on line 3, column 7: “R7,José Álvarez”" in out
    assert Member.objects.get(member_number="R7").name == "José Álvarez"


def test_a_members_file_neither_utf8_nor_windows_1252_is_refused_at_its_line(tmp_path):
    path = tmp_path / "mixed.csv"
    # Line 2 in UTF-8, line 3 in Windows-1252: no one reading gives both names right.
    path.write_bytes("id,name\nR6,Zoë Ng\n".encode() + "R7,José Álvarez\n".encode("cp1252"))
    error = refused("import_members", str(path))
    assert "mixed.csv, line 3: the file is not UTF-8 text: column 7 holds the byte 0xE9" in error
    assert "save the file as UTF-8 (in Excel: “CSV UTF-8 (comma delimited)”)" in error
    assert not Member.objects.filter(member_number__in=["R6", "R7"]).exists()


def test_a_missing_file_is_refused_by_name(tmp_path):
    assert "Cannot read" in refused("import_members", str(tmp_path / "nowhere.csv"))


# -- import_results -----------------------------------------------------------------------


def test_import_results_creates_complete_rated_events_with_entries(write, alice, bob, carol):
    text = RESULTS_HEADER + (
        "Spring Swiss,2026-03-07,1,A1,B2,1-0\n"
        "Spring Swiss,2026-03-07,1,C3,,bye\n"
        "Spring Swiss,2026-03-08,2,C3,A1,½-½\n"
    )
    run("import_results", write(text))
    event = Event.objects.get(name="Spring Swiss")
    assert (event.start_date, event.end_date, event.rounds) == (
        dt.date(2026, 3, 7),
        dt.date(2026, 3, 8),
        2,
    )
    assert event.status == Event.Status.COMPLETE
    assert set(Entry.objects.values_list("member__member_number", flat=True)) == {"A1", "B2", "C3"}
    assert RatingChange.objects.filter(event=event).count() == 3


def test_import_results_of_one_event_says_1_event_and_its_run_does_too(write, alice, bob):
    out = run("import_results", write(RESULTS_HEADER + "Club night,2026-03-03,1,A1,B2,1-0\n"))
    assert out.startswith("1 event imported with 1 game.")
    assert RatingRun.objects.filter(reason="Results imported: 1 event").exists()


def test_import_results_records_forfeits_but_does_not_rate_them(write, alice, bob, carol, dave):
    # Round 2's game is the event's one to rate (forfeits alone are refused: nothing to rate).
    text = RESULTS_HEADER + (
        "Club night,2026-03-03,1,A1,B2,+/-\nClub night,2026-03-03,1,C3,D4,-/+\n"
        "Club night,2026-03-03,2,A1,C3,1-0\n"
    )
    run("import_results", write(text))
    results = set(Game.objects.filter(round=1).values_list("result", flat=True))
    assert results == {Game.Result.WHITE_FORFEIT_WIN, Game.Result.BLACK_FORFEIT_WIN}
    # Bob and Dave played only the forfeits: nothing rated for them.
    assert not RatingChange.objects.filter(member__in=[bob, dave], played__gt=0).exists()


def test_import_results_rates_in_date_order_like_entering_them_by_hand(
    write, rated_event, alice, bob, carol
):
    # The file lists the later event first; rating must still go by date.
    text = RESULTS_HEADER + (
        "Second night,2026-03-10,1,B2,C3,1-0\n"
        "First night,2026-03-03,1,A1,B2,1-0\n"
        "First night,2026-03-03,2,C3,A1,1/2-1/2\n"
    )
    run("import_results", write(text))
    imported = dict(RatingState.objects.values_list("member__member_number", "rating"))
    Event.objects.all().delete()
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, Game.Result.DRAW)],
        date=dt.date(2026, 3, 3),
    )
    rated_event([(1, bob, carol, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 10))
    by_hand = dict(RatingState.objects.values_list("member__member_number", "rating"))
    assert imported == by_hand


def test_importing_into_the_past_rerates_the_later_events(write, rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 10))
    run("import_results", write(RESULTS_HEADER + "Earlier,2026-03-03,1,B2,A1,1-0\n"))
    incremental = dict(RatingState.objects.values_list("member_id", "rating"))
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert dict(RatingState.objects.values_list("member_id", "rating")) == incremental
    assert RatingChange.objects.count() == 4


def test_import_results_on_a_period_system_publishes_past_periods(write, club, alice, bob):
    services.rating_system_set(system_id="acf-1993")
    run("import_results", write(RESULTS_HEADER + "Old event,2025-03-03,1,A1,B2,1-0\n"))
    assert RatingChange.objects.filter(event__name="Old event").count() == 2


def test_import_results_reads_a_member_number_in_any_case(write, alice, bob):
    run("import_results", write(RESULTS_HEADER + "Club night,2026-03-03,1,a1,b2,1-0\n"))
    game = Game.objects.get()
    assert (game.white, game.black) == (alice, bob)


def test_a_member_number_in_another_case_still_cannot_play_twice_in_a_round(write, alice, bob):
    text = RESULTS_HEADER + "E,2026-03-03,1,A1,B2,1-0\nE,2026-03-03,1,a1,C9,1-0\n"
    error = refused("import_results", write(text))
    assert "line 3, white: 'A1' already plays in round 1 of 'E' (line 2)" in error


def test_an_event_already_in_the_database_is_refused(write, alice, bob):
    run("import_results", write(RESULTS_HEADER + "Club night,2026-03-03,1,A1,B2,1-0\n"))
    error = refused(
        "import_results", write(RESULTS_HEADER + "Club night,2026-03-03,1,B2,A1,1-0\n")
    )
    assert "line 2, event: an event called 'Club night' is already recorded" in error
    assert "rename" not in error
    assert Game.objects.count() == 1


BAD_RESULT_ROWS = [
    ("E,2026-03-03,1,A1,Z9,1-0\n", "line 3, black: no member has the id 'Z9'"),
    ("E,2026-03-03,1,Z9,B2,1-0\n", "line 3, white: no member has the id 'Z9'"),
    ("E,2026-03-03,1,C3,C3,1-0\n", "line 3, black: 'C3' cannot play themselves"),
    ("E,2026-03-03,1,A1,C3,0-1\n", "line 3, white: 'A1' already plays in round 1 of 'E' (line 2)"),
    ("E,2026-03-03,1,C3,B2,2-0\n", "line 3, result: '2-0' is not a result"),
    ("E,03/03/2026,2,C3,B2,1-0\n", "line 3, date: '03/03/2026' is not a date YYYY-MM-DD"),
    ("E,2026-03-03,0,C3,D4,1-0\n", "line 3, round: '0' is not a round number (1 to 99)"),
    ("E,2026-03-03,two,C3,D4,1-0\n", "line 3, round: 'two' is not a round number (1 to 99)"),
    ("E,2026-03-03,1,C3,,1-0\n", "line 3, black: required, but empty (only a bye has no black)"),
    ("E,2026-03-03,1,C3,D4,bye\n", "line 3, black: a bye has one player: leave black empty"),
    (",2026-03-03,1,C3,D4,1-0\n", "line 3, event: required, but empty"),
    # The event form's rule: a mistyped year would re-rate everything from it.
    ("E,0001-01-01,2,C3,D4,1-0\n", "line 3, date: 1 Jan 1: before 1900."),
    ("E,1899-12-31,2,C3,D4,1-0\n", "line 3, date: 31 Dec 1899: before 1900."),
    ("E,9999-12-31,2,C3,D4,1-0\n", "line 3, date: 31 Dec 9999 is more than a year ahead"),
]


@pytest.mark.parametrize(("row", "message"), BAD_RESULT_ROWS)
def test_a_bad_result_row_is_refused_with_its_line_and_nothing_is_saved(
    write, alice, bob, carol, dave, row, message
):
    text = RESULTS_HEADER + "E,2026-03-03,1,A1,B2,1-0\n" + row
    error = refused("import_results", write(text))
    assert message in error
    assert not Event.objects.exists()
    assert not Game.objects.exists()


def test_every_problem_of_a_bad_results_file_is_listed_by_line(write, alice, bob):
    text = (
        RESULTS_HEADER
        + "E,2026-13-01,1,A1,B2,1-0\nE,2026-03-03,2,A1,X1,1-0\nE,2026-03-03,x,A1,B2,1-0\n"
    )
    error = refused("import_results", write(text))
    lines = [line.split(",")[0] for line in error.splitlines()[1:]]
    assert lines == ["line 2", "line 3", "line 4"]


def test_an_unknown_results_column_is_refused(write):
    error = refused("import_results", write("event,date,round,white,black,result,board\n"))
    assert "line 1: unknown column 'board'" in error


# -- what no import lets through -------------------------------------------------------------


def test_an_unterminated_quote_in_a_members_file_is_refused_at_its_line(write):
    text = 'id,name\nR7,Ana\nR8,"Ben Clarke\nR9,Cat\nR10,Dan\n'
    error = refused("import_members", write(text))
    assert 'line 3, name: a quote (") opened on this line is not closed' in error
    assert not Member.objects.exists()


def test_an_unterminated_quote_in_a_results_file_is_refused_at_its_line(write, alice, bob):
    text = (
        RESULTS_HEADER
        + 'E,2026-03-03,1,A1,B2,1-0\n"E,2026-03-03,2,B2,A1,0-1\nF,2026-03-04,1,A1,B2,1-0\n'
    )
    error = refused("import_results", write(text))
    assert 'line 3, event: a quote (") opened on this line is not closed' in error
    assert not Event.objects.exists()


def test_an_unterminated_quote_on_the_last_line_is_refused(write):
    error = refused("import_members", write('id,name\nR7,Ana\nR8,"Ben Clarke'))
    assert 'line 3: a quote (") opened on this line is never closed' in error


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,name\nR7,Ana\nR8,Ben\x00Clarke\n", "line 3, name: holds a NUL character"),
        ("id,name\nR7\x00,Ana\n", "line 2, id: holds a NUL character"),
    ],
)
def test_a_nul_character_in_a_members_file_is_refused_at_its_line(write, text, message):
    assert message in refused("import_members", write(text))
    assert not Member.objects.exists()


def test_a_nul_character_in_a_results_file_is_refused_at_its_line(write, alice, bob):
    text = RESULTS_HEADER + "E,2026-03-03,1,A1,B2,1-0\nE\x00,2026-03-03,2,B2,A1,0-1\n"
    assert "line 3, event: holds a NUL character" in refused("import_results", write(text))
    assert not Event.objects.exists()


def test_a_member_name_without_letters_is_refused_at_its_line(write):
    error = refused("import_members", write("id,name\nR7,Ana\nR8,\u200b\u200b\n"))
    assert "line 3, name: A name must contain letters" in error
    assert not Member.objects.exists()


def test_an_event_name_without_letters_is_refused_at_its_line(write, alice, bob):
    text = RESULTS_HEADER + "\u2060,2026-03-03,1,A1,B2,1-0\n"
    assert "line 2, event: A name must contain letters" in refused("import_results", write(text))
    assert not Event.objects.exists()


def test_a_quoted_cell_that_closes_on_its_line_is_read(write):
    run("import_members", write('id,name\nR7,"Tuilagi, Ana"\n'))
    assert Member.objects.get().name == "Tuilagi, Ana"


# -- set_rating_system and rerate -----------------------------------------------------------


def test_set_rating_system_switches_the_club_and_rerates(rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    out = run("set_rating_system", "nz-club-elo", "--params", '{"k_new": 16}')
    assert ClubSettings.load().system_params == {"k_new": 16}
    assert RatingState.objects.get(member=alice).rating == 1508.0
    assert "re-rated 1 event," in out


def test_set_rating_system_refuses_an_unknown_parameter(club):
    error = refused("set_rating_system", "nz-club-elo", "--params", '{"kk": 1}')
    assert "kk: unknown parameter" in error
    assert ClubSettings.load().system_params == {}


def test_set_rating_system_refuses_params_that_are_not_json(club):
    assert "--params is not JSON" in refused("set_rating_system", "nz-club-elo", "--params", "{")


def test_set_rating_system_refuses_a_parameter_of_thousands_of_digits_with_a_message(club):
    huge = '{"floor": ' + "9" * 5000 + "}"
    error = refused("set_rating_system", "nz-club-elo", "--params", huge)
    assert "a number of more than 30 digits" in error


def test_set_rating_system_refuses_an_unknown_system(club):
    assert "invalid choice" in refused("set_rating_system", "elo-2000")


def test_rerate_rates_everything_and_says_how_much(rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    RatingState.objects.all().delete()
    out = run("rerate")
    assert RatingState.objects.get(member=alice).rating == 1516.0
    assert "Re-rated 1 event, 1 game" in out


# -- export_ratings -----------------------------------------------------------------------


@pytest.fixture
def rated_club(rated_event, alice, bob, carol, dave, current_season):
    """Alice and Bob paid up; Carol in arrears; Dave a guest."""
    last = Season.for_day(current_season.start - dt.timedelta(days=1))
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    SubscriptionFactory(member=carol, season=last)
    dave.is_guest = True
    dave.save()
    day = timezone.localdate() - dt.timedelta(days=1)
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (1, carol, dave, Game.Result.WHITE_WIN)],
        date=day,
    )


def test_export_lists_the_financial_members_only(rated_club):
    rows = csv_rows(run("export_ratings"))
    assert [(r["rank"], r["id"], r["rating"]) for r in rows] == [
        ("1", "A1", "1516"),
        ("2", "B2", "1484"),
    ]


def test_export_all_marks_why_the_others_are_unpublished(rated_club):
    rows = {r["id"]: r for r in csv_rows(run("export_ratings", "--all"))}
    assert {k: (r["rank"], r["unpublished"]) for k, r in rows.items()} == {
        "A1": ("1", ""),
        "C3": ("", "arrears"),
        "D4": ("", "guest"),
        "B2": ("2", ""),
    }


def test_export_gives_equal_ratings_the_same_rank(rated_event, alice, bob, carol, current_season):
    for member in (alice, bob, carol):
        paid_up(member, current_season)
    rated_event([(1, alice, bob, Game.Result.DRAW), (1, carol, None, Game.Result.BYE)])
    rows = csv_rows(run("export_ratings"))
    assert [r["rank"] for r in rows] == ["1", "1"]


class ClosedPipe(io.StringIO):
    """Standard output whose reader has gone (`export_ratings | head`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_export_stops_quietly_when_its_reader_stops_reading(rated_club, capsys):
    call_command("export_ratings", stdout=ClosedPipe())
    assert capsys.readouterr().err == ""


def test_export_piped_into_a_closed_pipe_exits_without_a_traceback(migrated_sqlite_file):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{migrated_sqlite_file}"}
    manage = [sys.executable, str(Path(__file__).resolve().parents[2] / "manage.py")]
    reader, writer = os.pipe()
    os.close(reader)  # like `| head` once it has read its lines
    done = subprocess.run(
        [*manage, "export_ratings", "--all"],
        env=env,
        stdout=writer,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")


def test_export_neutralises_a_name_a_spreadsheet_would_run_as_a_formula(
    rated_event, alice, current_season
):
    paid_up(alice, current_season)
    tab = paid_up(MemberFactory(member_number="T1", name="\t=cmd"), current_season)
    rated_event([(1, alice, tab, Game.Result.DRAW)])
    rows = {r["id"]: r for r in csv_rows(run("export_ratings"))}
    assert rows["T1"]["name"] == "'\t=cmd"
    assert rows["A1"]["name"] == "Alice Archer"
