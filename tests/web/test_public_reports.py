"""The booklet's reports: top players, juniors, women, improvers, active players by region."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import ClubSettings, Member, RatingChange, RatingPeriod

from ..factories import EventFactory, MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
YEAR = TODAY.year


def member(season, name: str, display: str, rating: float | None = None, **fields) -> Member:
    """A paid-up member with a current rating."""
    m = paid_up(MemberFactory(name=name, **fields), season)
    if rating is None:
        digits = "".join(c for c in display if c.isdigit())
        rating = float(digits) if len(digits) > 2 else None
    rating_state(m, display=display, rating=rating, games=30)
    return m


def report(client, slug: str, **params):
    return client.get(reverse("ratings:report", args=[slug]), params)


def names(response) -> list[str]:
    return [
        row.record["name"] if isinstance(row.record, dict) else row.record.name
        for row in response.context["table"].rows
    ]


def played(m: Member, day: dt.date, before: float, after: float, games: int = 3) -> None:
    event = EventFactory(start_date=day, end_date=day)
    RatingChange.objects.create(
        event=event,
        member=m,
        before=before,
        after=after,
        display_before=f"{before:.0f}",
        display_after=f"{after:.0f}",
        played=games,
        score=1,
    )


def test_the_index_lists_every_report(client):
    text = client.get(reverse("ratings:reports")).content.decode()
    for title in (
        "Top players",
        "Top under 20",
        "Top under 16",
        "Top under 12",
        "Top women",
        "Top improvers",
        "Active players by region",
    ):
        assert title in text


# -- top players ------------------------------------------------------------------------


def test_top_players_are_the_strongest_published_members_provisional_included(
    client, current_season
):
    member(current_season, "Strong", "2100")
    member(current_season, "Settling", "1900p")
    member(current_season, "Newcomer", "4 R")
    MemberFactory(name="Unpaid")  # in arrears: rated, never in a report
    rating_state(Member.objects.get(name="Unpaid"), display="2300", rating=2300)
    assert names(report(client, "top")) == ["Strong", "Settling"]


def test_top_players_stop_at_twenty(client, current_season):
    for n in range(25):
        member(current_season, f"P{n:02d}", str(1000 + n))
    assert len(names(report(client, "top"))) == 20


# -- juniors and women ------------------------------------------------------------------


@pytest.fixture
def juniors(current_season):
    member(current_season, "Adult", "2000", born=dt.date(YEAR - 40, 5, 1))
    member(current_season, "Nineteen", "1800", born=dt.date(YEAR - 20, 1, 2))
    member(current_season, "Fifteen", "1600", born=dt.date(YEAR - 16, 1, 2))
    member(current_season, "Eleven", "1200", born=dt.date(YEAR - 12, 1, 2))
    member(current_season, "Twelve", "1300", born=dt.date(YEAR - 12, 1, 1))


def test_top_under_20_goes_by_age_at_the_start_of_the_year(client, juniors):
    assert names(report(client, "under-20")) == ["Nineteen", "Fifteen", "Twelve", "Eleven"]


def test_top_under_16(client, juniors):
    assert names(report(client, "under-16")) == ["Fifteen", "Twelve", "Eleven"]


def test_top_under_12_leaves_out_who_turned_12_on_new_years_day(client, juniors):
    assert names(report(client, "under-12")) == ["Eleven"]


def test_junior_reports_show_the_age_at_the_start_of_the_year(client, juniors):
    lines = report(client, "under-12", _export="csv").content.decode().splitlines()
    assert lines[0] == "#,Rating,Marker,Name,Region,Age"
    assert lines[1] == "1,1200,,Eleven,,11"


def test_top_women(client, current_season):
    member(current_season, "Wendy", "1700", gender="F")
    member(current_season, "Walter", "1900", gender="M")
    assert names(report(client, "women")) == ["Wendy"]


# -- improvers --------------------------------------------------------------------------


def test_top_improvers_rank_by_rating_gained_over_the_last_three_months(client, current_season):
    soon = TODAY - dt.timedelta(days=30)
    big = member(current_season, "Big gain", "1700")
    small = member(current_season, "Small gain", "1550")
    played(big, soon, 1500, 1600)
    played(big, TODAY - dt.timedelta(days=10), 1600, 1700)
    played(small, soon, 1500, 1550)
    response = report(client, "improvers")
    assert names(response) == ["Big gain", "Small gain"]
    assert [row.record["gain"] for row in response.context["table"].rows] == [200, 50]


def test_an_improvers_gain_is_the_difference_of_the_ratings_shown(client, current_season):
    """1500.4 shown as 1500, then 1510.6 shown as 1511: a gain of 11, as the member's page
    reads it, not the unrounded 10.2's 10."""
    steady = member(current_season, "Steady", "1511")
    played(steady, TODAY - dt.timedelta(days=20), 1500.4, 1510.6)
    response = report(client, "improvers")
    assert [row.record["gain"] for row in response.context["table"].rows] == [11]


def test_provisional_players_are_not_among_the_improvers(client, current_season):
    settling = member(current_season, "Settling", "1486p")
    unofficial = member(current_season, "Unofficial", "412*")
    partial = member(current_season, "Partial", "1540P")
    for m in (settling, unofficial, partial):
        played(m, TODAY - dt.timedelta(days=5), 1000, 1400)
    assert names(report(client, "improvers")) == []


def test_improvement_before_the_period_does_not_count_unless_asked_for(client, current_season):
    old_hand = member(current_season, "Old hand", "1800")
    played(old_hand, TODAY - dt.timedelta(days=150), 1600, 1800)
    assert names(report(client, "improvers")) == []
    assert names(report(client, "improvers", since="6")) == ["Old hand"]


def test_a_period_systems_improvers_are_those_of_the_last_closed_period(
    client, current_season, monkeypatch
):
    from ratings.engine import SYSTEMS

    monkeypatch.setattr(SYSTEMS["acf-1993"], "period_based", True)
    ClubSettings.objects.update(rating_system="acf-1993")
    RatingPeriod.objects.create(
        system="acf-1993",
        label="2026-1",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 4, 30),
        closed_at=timezone.now(),
    )
    in_period = member(current_season, "In period", "1700")
    later = member(current_season, "Later", "1800")
    played(in_period, dt.date(2026, 2, 1), 1500, 1700)
    played(later, dt.date(2026, 6, 1), 1500, 1800)
    response = report(client, "improvers")
    assert names(response) == ["In period"]
    assert "rating period Jan–Apr 2026" in response.content.decode()


# -- active players by region -----------------------------------------------------------


def test_active_players_are_grouped_by_region_with_their_games_this_period(client, current_season):
    north_a = member(current_season, "North A", "1500", region="North")
    north_b = member(current_season, "North B", "1700", region="North")
    south = member(current_season, "South A", "1600", region="South")
    idle = member(current_season, "Idle", "1900", region="North")
    played(north_a, TODAY - dt.timedelta(days=20), 1500, 1500, games=4)
    played(north_b, TODAY - dt.timedelta(days=20), 1700, 1700, games=2)
    played(north_b, TODAY - dt.timedelta(days=5), 1700, 1700, games=3)
    played(south, TODAY - dt.timedelta(days=5), 1600, 1600, games=1)
    played(idle, TODAY - dt.timedelta(days=200), 1900, 1900, games=9)
    lines = report(client, "active", _export="csv").content.decode().splitlines()
    assert lines == [
        "Region,Rating,Marker,Name,Games",
        "North,1700,,North B,5",
        "North,1500,,North A,4",
        "South,1600,,South A,1",
    ]


# -- printing and downloading -----------------------------------------------------------


def test_every_report_downloads_as_csv(client, current_season):
    member(current_season, "Wendy", "1700", gender="F", born=dt.date(YEAR - 10, 3, 3))
    for slug in ("top", "under-20", "under-16", "under-12", "women", "improvers", "active"):
        response = report(client, slug, _export="csv")
        assert response["Content-Type"].startswith("text/csv"), slug
        assert f'filename="{slug}-' in response["Content-Disposition"]


def test_a_report_page_says_what_it_covers_and_offers_print_and_csv(client, current_season):
    member(current_season, "Strong", "2100")
    text = report(client, "top").content.decode()
    assert "data-print" in text
    assert "_export=csv" in text
    assert "Club Elo (NZ club rules)" in text


def test_an_unknown_report_is_not_found(client):
    assert report(client, "top-octogenarians").status_code == 404


def csv_of(client, slug: str) -> list[dict[str, str]]:
    import csv
    import io

    text = report(client, slug, _export="csv").content.decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_a_report_csv_keeps_the_rating_a_number_and_its_marker_in_a_column_of_its_own(
    client, current_season
):
    member(current_season, "Confirmed", "1486")
    member(current_season, "Settling", "1500p")
    rows = csv_of(client, "top")
    assert [(r["Name"], r["Rating"], r["Marker"]) for r in rows] == [
        ("Settling", "1500", "p"),
        ("Confirmed", "1486", ""),
    ]


@pytest.mark.parametrize(
    "display, figure, marker",
    [("1540P", "1540", "P"), ("412*", "412", "*"), ("1486p", "1486", "p"), ("1516", "1516", "")],
)
def test_each_systems_marker_comes_apart_from_its_rating_in_a_report_csv(
    client, current_season, display, figure, marker
):
    member(current_season, "Marked", display)
    (row,) = csv_of(client, "top")
    assert (row["Rating"], row["Marker"]) == (figure, marker)


def test_a_marker_standing_for_no_rating_yet_leaves_the_rating_blank_in_a_report_csv(
    client, current_season
):
    for name, display in (("Counting down", "4 R"), ("Unrated", "Unr")):
        m = member(current_season, name, display, rating=1200, region="North")
        played(m, TODAY - dt.timedelta(days=5), 1200, 1200, games=2)
    rows = csv_of(client, "active")
    assert {(r["Name"], r["Rating"], r["Marker"]) for r in rows} == {
        ("Counting down", "", "4 R"),
        ("Unrated", "", "Unr"),
    }


def test_a_report_csvs_ratings_sort_as_numbers(client, current_season):
    for name, display in (("Nine hundred", "900"), ("Twelve hundred", "1200p")):
        m = member(current_season, name, display, region="North")
        played(m, TODAY - dt.timedelta(days=5), 1000, 1000, games=2)
    rows = csv_of(client, "active")
    assert sorted(float(r["Rating"]) for r in rows) == [900.0, 1200.0]


def test_a_report_csv_neutralises_a_name_a_spreadsheet_would_run_as_a_formula(
    client, current_season
):
    member(current_season, "-2+3", "2100")
    lines = report(client, "top", _export="csv").content.decode().splitlines()
    assert "'-2+3" in lines[1]
    assert ",-2+3," not in lines[1]
