"""Period systems (acf-1993 here) on the pages: a waiting event's provisional figures for the
officer only, and a member's change shown once per rating period, not once per event."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Game, RatingChange
from ratings.models.breakdowns import breakdown_read

from ..factories import MemberFactory, paid_up, pat_provisional

pytestmark = pytest.mark.django_db

WIN = Game.Result.WHITE_WIN
DRAW = Game.Result.DRAW


@pytest.fixture
def acf(current_season, alice, bob, carol):
    """The club rates by acf-1993; Alice (1800), Bob (1700) and Carol (1600) are
    confirmed (30 games) and paid up."""
    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 1800), (bob, 1700), (carol, 1600)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)


def close_period_of(event):
    system = ClubSettings.load().engine()
    services.period_close(period=services.period_for(event, system))


@pytest.fixture
def waiting(acf, rated_event, alice, bob, carol):
    """Two complete events of rating period 2026-08 (March to June), waiting for it to close:
    Alice beats Bob on 2 Mar; Alice draws with Carol on 6 Apr."""
    first = rated_event(
        [(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 2), rate=False
    )
    rated_event(
        [(1, alice, carol, DRAW)], name="April night", date=dt.date(2026, 4, 6), rate=False
    )
    return first


def provisional_of(response):
    return {row["member"].name: row for row in response.context["provisional"]}


# -- a waiting event: provisional figures for the officer --------------------------------


def test_the_waiting_event_is_not_rated_until_its_period_closes(waiting):
    assert not RatingChange.objects.exists()


def test_the_officer_event_page_shows_the_periods_provisional_figures(officer_client, waiting):
    response = officer_client.get(reverse("ratings:officer-event", args=[waiting.pk]))
    rows = provisional_of(response)
    assert rows["Alice Archer"]["before"] == "1800"
    assert int(rows["Alice Archer"]["after"]) > 1800
    assert [g["opponent"].name for g in rows["Alice Archer"]["games"]] == ["Bob Brown"]
    text = response.content.decode()
    assert "Provisional: published when the period is closed." in text
    assert "Game by game" in text


def test_the_officer_event_page_links_to_closing_the_period(officer_client, waiting):
    response = officer_client.get(reverse("ratings:officer-event", args=[waiting.pk]))
    close = reverse("ratings:officer-period-close", args=["2026-08"])
    assert f'href="{close}"' in response.content.decode()


def test_the_provisional_figures_are_the_whole_periods(officer_client, waiting):
    """Alice's after on the March page counts her April draw too, as the period will."""
    response = officer_client.get(reverse("ratings:officer-event", args=[waiting.pk]))
    provisional = provisional_of(response)["Alice Archer"]["after"]
    close_period_of(waiting)
    published = RatingChange.objects.get(event=waiting, member__name="Alice Archer")
    assert provisional == published.display_after


def test_the_officer_report_of_a_waiting_event_shows_the_provisional_figures(
    officer_client, waiting
):
    response = officer_client.get(reverse("ratings:event-report", args=[waiting.pk]))
    rows = provisional_of(response)
    assert rows["Alice Archer"]["points"] == 1
    assert "Provisional: published when the period is closed." in response.content.decode()


def test_the_public_report_of_a_waiting_event_shows_no_figures(client, officer_client, waiting):
    after = provisional_of(
        officer_client.get(reverse("ratings:officer-event", args=[waiting.pk]))
    )["Alice Archer"]["after"]
    client.logout()
    response = client.get(reverse("ratings:event-report", args=[waiting.pk]))
    text = response.content.decode()
    assert response.context["provisional"] is None
    assert "waits for rating period Mar–Jun 2026, August 2026 list" in text
    assert "Provisional" not in text and ">provisional<" not in text
    assert after not in text


def test_once_the_period_is_closed_the_report_shows_the_published_figures(client, waiting):
    close_period_of(waiting)
    response = client.get(reverse("ratings:event-report", args=[waiting.pk]))
    rows = {row["member"].name: row for row in response.context["rows"]}
    published = RatingChange.objects.get(event=waiting, member__name="Alice Archer")
    assert rows["Alice Archer"]["after"] == published.display_after
    assert response.context["provisional"] is None
    text = response.content.decode()
    assert "Provisional" not in text and ">provisional<" not in text


def test_the_officer_event_page_shows_no_provisional_figures_once_rated(officer_client, waiting):
    close_period_of(waiting)
    response = officer_client.get(reverse("ratings:officer-event", args=[waiting.pk]))
    assert response.context["provisional"] is None
    assert "Provisional" not in response.content.decode()


def test_the_provisional_figures_take_no_query_per_player(
    officer_client, acf, rated_event, current_season
):
    def queries_for(pairs: int) -> int:
        players = [paid_up(MemberFactory(), current_season) for _ in range(2 * pairs)]
        games = [(1, players[i], players[i + 1], WIN) for i in range(0, 2 * pairs, 2)]
        games += [(2, players[i + 1], players[i], DRAW) for i in range(0, 2 * pairs, 2)]
        event = rated_event(games, name=f"Night of {pairs}", date=dt.date(2026, 3, 2), rate=False)
        url = reverse("ratings:officer-event", args=[event.pk])
        officer_client.get(url)  # warm: the session, the club settings
        with CaptureQueriesContext(connection) as queries:
            assert officer_client.get(url).context["provisional"]
        return len(queries)

    assert queries_for(2) == queries_for(8)


# -- the member page: one change per rating period ---------------------------------------


@pytest.fixture
def alices_periods(acf, rated_event, alice, bob, carol):
    """Alice plays twice in period 2026-08 (beats Bob, draws with Carol) and once in
    2026-12 (beats Carol); both periods closed."""
    march = rated_event([(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 4))
    rated_event([(1, alice, carol, DRAW)], name="June night", date=dt.date(2026, 6, 24))
    july = rated_event([(1, alice, carol, WIN)], name="July night", date=dt.date(2026, 7, 8))
    close_period_of(march)
    close_period_of(july)
    return alice


def member_page(client, member):
    return client.get(reverse("ratings:member", args=[member.member_number]))


def events_table(response) -> str:
    text = response.content.decode()
    return text.split('class="table table-sm table-striped events"')[1].split("</table>")[0]


def test_the_member_page_groups_the_events_under_their_rating_period(client, alices_periods):
    groups = member_page(client, alices_periods).context["event_groups"]
    assert [(g["period"], [e.name for e, _c in g["events"]]) for g in groups] == [
        ("2026-12", ["July night"]),
        ("2026-08", ["June night", "March night"]),
    ]


def test_the_member_page_shows_a_periods_change_once(client, alices_periods):
    table = events_table(member_page(client, alices_periods))
    august = RatingChange.objects.filter(member=alices_periods, period="2026-08")
    assert august.count() == 2  # the period's figures, repeated on each event by design
    change = august.first()
    assert table.count(f"{change.display_before} → </span>{change.display_after}") == 1
    assert table.count("change-up") + table.count("change-down") == 2  # one per period
    assert table.count("in period Mar–Jun 2026, August 2026 list") == 2


def test_the_member_page_counts_a_periods_games_and_score(client, alices_periods):
    groups = member_page(client, alices_periods).context["event_groups"]
    august = next(g for g in groups if g["period"] == "2026-08")
    assert (august["played"], august["score"]) == (2, 1.5)


def test_the_member_chart_has_one_point_per_rating_period(client, alices_periods):
    chart = str(member_page(client, alices_periods).context["chart"])
    assert chart.count("<circle") == 3  # her rating before, then 2026-08 and 2026-12
    assert "Mar–Jun 2026, August 2026 list (June night, March night)" not in chart
    assert "Mar–Jun 2026, August 2026 list (March night, June night)" in chart


def test_the_member_charts_points_name_their_period_by_its_dates_not_its_label(
    client, alices_periods
):
    chart = str(member_page(client, alices_periods).context["chart"])
    assert "<title>before Mar–Jun 2026, August 2026 list:" in chart
    assert "<title>Jul–Oct 2026, December 2026 list (July night):" in chart
    assert "period 20" not in chart


def test_an_event_waiting_for_its_period_shows_no_figures_on_the_member_page(
    client, acf, rated_event, alice, bob
):
    rated_event([(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 4))
    table = events_table(member_page(client, alice))
    assert "waiting for period Mar–Jun 2026, August 2026 list" in table
    assert "not closed yet" in table
    assert "change-up" not in table


def test_a_per_event_system_shows_each_events_own_change(
    client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 4))
    rated_event([(1, alice, bob, WIN)], name="April night", date=dt.date(2026, 4, 1))
    table = events_table(member_page(client, alice))
    assert table.count("change-up") == 2
    assert "period" not in table


# -- a rating brought in provisional, under nine games: the booklet's notation ------------


@pytest.fixture
def pat_brought_in(acf, rated_event, current_season, alice, bob):
    """Pat brought in at 1500, provisional, from 8 games; the Autumn Cup (Mar–Jun 2026,
    closed): Pat draws with Alice (1800) and beats Bob (1700), both confirmed."""
    pat = pat_provisional(current_season)
    event = rated_event(
        [(1, alice, pat, DRAW), (2, pat, bob, WIN)],
        name="Autumn Cup",
        date=dt.date(2026, 3, 2),
        rate=False,
    )
    close_period_of(event)
    return pat, event


def test_a_provisional_rating_brought_in_from_8_games_is_listed_as_1_R_before_the_period(
    pat_brought_in,
):
    """The booklet: under nine games a provisional player shows the games still to play
    ("1 R"), not the rating; the status brought in is kept (provisional, from a history of
    8 games at 1500), and the period's two rated games publish it (10 games: "1586p")."""
    pat, event = pat_brought_in
    change = RatingChange.objects.get(member=pat, event=event)
    assert (change.display_before, change.display_after) == ("1 R", "1586p")
    assert breakdown_read(change.breakdown)["status_before"] == "provisional"


def test_games_against_a_provisional_player_under_nine_games_rate_no_one_else(
    client, pat_brought_in, alice, bob
):
    """The booklet: a provisional rating is used to rate others only once published (nine
    games). At the period's opening Pat had 8: Alice's and Bob's games against Pat count
    for nothing, and the report says Pat was not rated."""
    _pat, event = pat_brought_in
    for member in (alice, bob):
        change = RatingChange.objects.get(member=member, event=event)
        assert (change.played, change.before, change.after) == (0, change.after, change.after)
    page = client.get(reverse("ratings:event-report", args=[event.pk])).content.decode()
    assert page.count('Pat Provisional <span class="small">(not rated)</span>') == 2


def test_the_report_shows_a_dash_for_the_change_of_a_player_with_no_rating_before(
    client, pat_brought_in
):
    _pat, event = pat_brought_in
    html = client.get(reverse("ratings:event-report", args=[event.pk])).content.decode()
    row = html[html.index(">Pat Provisional</a>") :].split("</tr>")[0]
    assert '<span title="no rating before to take a change from">–</span>' in row
