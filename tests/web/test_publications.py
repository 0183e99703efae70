"""Publications: the published list frozen on its date, read and compared as a visitor would."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import ClubSettings, Game, Member, Publication, RatingList, RatingRun

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")
LIVE = reverse("ratings:live-list")
PUBLISH = reverse("ratings:officer-publish")
MARCH = timezone.make_aware(dt.datetime(2026, 3, 5, 12, 0))
APRIL = timezone.make_aware(dt.datetime(2026, 4, 5, 12, 0))


def rows_of(response) -> list[tuple[str, str, str, int]]:  # type: ignore[no-untyped-def]
    """The page's rows as a visitor reads them: place, name, rating, games."""
    return [
        (str(e.rank or ""), e.member.name, e.display, e.games)
        for e in response.context["table"].page.object_list.data
    ]


def csv_rows(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    body = b"".join(response.streaming_content).decode()
    return list(csv.reader(io.StringIO(body)))


@pytest.fixture
def club_of_four(seasons_2026_and_today, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    """Alice, Bob and Carol paid up; Dave in arrears; all four rated."""
    for member in (alice, bob, carol):
        paid_up(member, *seasons_2026_and_today)
    rating_state(alice, rating=1600, display="1600", games=30)
    rating_state(bob, rating=1500, display="1500", games=20)
    rating_state(carol, rating=1400, display="1400p", games=3)
    rating_state(dave, rating=1700, display="1700", games=40)
    return alice, bob, carol, dave


def test_a_publication_freezes_who_rating_mark_games_and_place(club_of_four):
    _alice, _bob, _carol, _dave = club_of_four
    publication = services.list_publish(note="March list", now=MARCH)
    frozen = list(
        publication.entries.order_by("position").values_list(
            "member__name", "rank", "rating", "display", "games"
        )
    )
    assert frozen == [
        ("Alice Archer", 1, 1600.0, "1600", 30),
        ("Bob Brown", 2, 1500.0, "1500", 20),
        ("Carol Chen", 3, 1400.0, "1400p", 3),
    ]
    assert (publication.slug, publication.size, publication.note) == (
        "2026-03-05",
        3,
        "March list",
    )


def test_members_in_arrears_and_guests_are_left_off_a_publication(
    club_of_four, seasons_2026_and_today
):
    guest = paid_up(MemberFactory(name="Gus Guest", is_guest=True), *seasons_2026_and_today)
    rating_state(guest, rating=1800, display="1800", games=10)
    publication = services.list_publish(now=MARCH)
    names = set(publication.entries.values_list("member__name", flat=True))
    assert "Dave Dunn" not in names and "Gus Guest" not in names


def test_an_unranked_mark_is_published_without_a_place(club_of_four):
    alice = club_of_four[0]
    rating_state(alice, rating=1600, display="4 R", games=2, usable=False)
    publication = services.list_publish(now=MARCH)
    entry = publication.entries.get(member=alice)
    assert (entry.rank, entry.display, entry.position) == (None, "4 R", 3)


def test_a_second_publication_on_one_day_has_an_address_of_its_own(club_of_four):
    first = services.list_publish(now=MARCH)
    second = services.list_publish(now=MARCH + dt.timedelta(hours=2))
    assert (first.slug, second.slug) == ("2026-03-05", "2026-03-05-2")


def test_publishing_is_refused_while_a_rerate_is_running(club_of_four):
    RatingRun.objects.create(reason="Big correction", system="nz-club-elo")
    with pytest.raises(services.PublishRefused, match="re-rate is still running"):
        services.list_publish(now=MARCH)
    assert not Publication.objects.exists()


def test_the_public_list_shows_the_latest_publication_with_the_live_list_a_click_away(
    client, club_of_four
):
    alice = club_of_four[0]
    services.list_publish(now=MARCH)
    rating_state(alice, rating=1650, display="1650", games=31)
    response = client.get(LIST)
    assert rows_of(response)[0] == ("1", "Alice Archer", "1600", 30)
    page = response.content.decode()
    assert "published 5 Mar 2026" in page
    assert f'href="{LIVE}">Live list</a>' in page
    live = client.get(LIVE)
    assert "Live ratings" in live.content.decode()
    assert live.context["table"].page.object_list.data[0].rating_state.display == "1650"


def test_a_club_that_publishes_continuously_shows_the_live_list_only(client, club_of_four):
    services.list_publish(now=MARCH)
    ClubSettings.objects.update(live_list_only=True)
    response = client.get(LIST)
    assert response.context.get("publication") is None
    assert "Live list" not in response.content.decode()


def test_before_the_first_publication_the_list_is_the_live_one_and_says_so(client, club_of_four):
    response = client.get(LIST)
    assert response.context["live"] is True
    assert "no list has been published yet" in response.content.decode()


def table_rows(html: str, css: str) -> list[list[str]]:
    """The rows of the page's table of class ``css`` as the visitor reads them: each
    cell's text, tags left out."""
    found = re.search(rf'<table class="[^"]*\b{css}\b[^"]*"(.*?)</table>', html, re.S)
    assert found, f"no table {css!r} on the page"
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", found.group(1), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        if cells:
            rows.append([unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells])
    return rows


def list_rows(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """A list page's rows as printed: place, name, rating, games."""
    return [row[:4] for row in table_rows(response.content.decode(), "rating-list")]


def summary(html: str) -> dict[str, int]:
    """The changes page's counts as printed: "2 rose", "1 new on the list"..."""
    items = re.findall(r"<strong[^>]*>(\d+)</strong> ([a-z ]+)</li>", html)
    return {words: int(count) for count, words in items}


def test_publish_twice_with_a_correction_between_and_read_both_and_the_changes(
    client, rated_event, seasons_2026_and_today, alice, bob, carol, dave
):
    for member in (alice, bob, carol):
        paid_up(member, *seasons_2026_and_today)
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (1, carol, dave, "1-0")])
    march = services.list_publish(note="March", now=MARCH)
    # A correction as the officer makes it: the result was the other way round. Live
    # ratings change, March's do not.
    games = list(event.games.order_by("pk"))
    games[0].result = Game.Result.BLACK_WIN
    run = services.games_replace(
        event=event, games=games, rounds=None, reason="Result entered the wrong way round"
    )
    assert run is not None and run.events_rated == 1
    dave_paid = paid_up(dave, *seasons_2026_and_today)  # Dave pays: he enters the April list
    assert dave_paid in Member.objects.published()
    Member.objects.filter(pk=carol.pk).update(is_guest=True)  # Carol leaves it
    april = services.list_publish(note="April", now=APRIL)

    march_page = client.get(march.get_absolute_url())
    assert list_rows(march_page) == [
        ["1", "Alice Archer", "1516", "1"],
        ["1", "Carol Chen", "1516", "1"],  # ties share a place
        ["3", "Bob Brown", "1484", "1"],
    ]
    assert "have changed since it was published" in march_page.content.decode()
    april_page = client.get(april.get_absolute_url())
    assert list_rows(april_page) == [
        ["1", "Bob Brown", "1516", "1"],
        ["2", "Alice Archer", "1484", "1"],
        ["2", "Dave Dunn", "1484", "1"],
    ]
    assert [row[4] for row in table_rows(april_page.content.decode(), "rating-list")] == [
        "+32",
        "-32",
        "new",
    ]
    assert "have not changed since" in april_page.content.decode()

    changes = client.get(reverse("ratings:publication-changes", args=[april.slug]))
    assert changes.status_code == 200
    html = changes.content.decode()
    assert summary(html) == {"new on the list": 1, "no longer on it": 1, "rose": 1, "fell": 1}
    assert [row[:3] for row in table_rows(html, "entrants")] == [["2", "Dave Dunn", "1484"]]
    assert table_rows(html, "leavers") == [["Carol Chen", "1516"]]
    assert [row[:4] for row in table_rows(html, "rises")] == [["Bob Brown", "1484", "1516", "+32"]]
    assert [row[:4] for row in table_rows(html, "falls")] == [
        ["Alice Archer", "1516", "1484", "-32"]
    ]
    assert '<svg class="changes-chart"' in html


def test_who_left_the_list_is_listed_with_no_reason(client, club_of_four, seasons_2026_and_today):
    services.list_publish(now=MARCH)
    dave = club_of_four[3]
    bob = club_of_four[1]
    bob.subscriptions.all().delete()  # Bob falls into arrears
    paid_up(dave, *seasons_2026_and_today)
    april = services.list_publish(now=APRIL)
    page = client.get(reverse("ratings:publication-changes", args=[april.slug]))
    text = page.content.decode()
    assert "Bob Brown" in text
    assert "arrears" not in text and "subscription" not in text


def test_improvers_are_official_ratings_only(club_of_four):
    alice, _bob, carol, _ = club_of_four
    march = services.list_publish(now=MARCH)
    rating_state(alice, rating=1650, display="1650", games=35)
    rating_state(carol, rating=1500, display="1500p", games=8)
    april = services.list_publish(now=APRIL)
    from ratings.pages.publication_changes import Changes

    changes = Changes(newer=april, older=march)
    assert [e.member.name for e in changes.rises] == ["Carol Chen", "Alice Archer"]
    assert [e.member.name for e in changes.improvers] == ["Alice Archer"]


def _changes_page(client, publication, **query):  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:publication-changes", args=[publication.slug]), query)


def _moves_rows(html: str, css: str) -> list[list[str]]:
    """A moves table's rows as the visitor reads them: name, before, after, change."""
    return [row[:4] for row in table_rows(html, css)]


def test_a_moves_change_is_the_difference_of_the_figures_shown(client, club_of_four):
    alice = club_of_four[0]
    rating_state(alice, rating=2302.6, display="2303", games=30)
    march = services.list_publish(now=MARCH)
    rating_state(alice, rating=2304.4, display="2304", games=31)  # 1.8 up, shown 1 up
    april = services.list_publish(now=APRIL)
    html = _changes_page(client, april).content.decode()
    assert _moves_rows(html, "rises") == [["Alice Archer", "2303", "2304", "+1"]]
    assert march.entries.get(member=alice).display == "2303"
    # The list's own "Change" column, since the publication before: the same +1.
    april_rows = table_rows(client.get(april.get_absolute_url()).content.decode(), "rating-list")
    assert [row[1:5] for row in april_rows if row[1] == "Alice Archer"] == [
        ["Alice Archer", "2304", "31", "+1"]
    ]


def test_rises_and_falls_are_ordered_and_counted_by_the_change_shown(client, club_of_four):
    alice, bob, carol, _ = club_of_four
    rating_state(alice, rating=1600.6, display="1601", games=30)
    rating_state(bob, rating=1500.4, display="1500", games=20)
    rating_state(carol, rating=1400.4, display="1400p", games=3)
    services.list_publish(now=MARCH)
    rating_state(alice, rating=1603.4, display="1603", games=31)  # 2.8 up, shown 2 up
    rating_state(bob, rating=1503.0, display="1503", games=21)  # 2.6 up, shown 3 up
    rating_state(carol, rating=1400.2, display="1400p", games=4)  # 0.2 down, shown the same
    april = services.list_publish(now=APRIL)
    page = _changes_page(client, april)
    html = page.content.decode()
    assert _moves_rows(html, "rises") == [
        ["Bob Brown", "1500", "1503", "+3"],
        ["Alice Archer", "1601", "1603", "+2"],
    ]
    assert _moves_rows(html, "falls") == [["None."]]
    assert (page.context["counts"]["rose"], page.context["counts"]["fell"]) == (2, 0)


def test_changes_since_a_publication_of_another_list_are_refused(client, club_of_four):
    alice, bob, *_ = club_of_four
    RatingList.objects.create(time_class="rapid", kept=RatingList.Kept.OWN)
    for member, rating in ((alice, 1450), (bob, 1550)):
        rating_state(member, time_class="rapid", rating=rating, display=str(rating), games=5)
    standard = services.list_publish(now=MARCH)
    rapid = services.list_publish(now=MARCH, time_class="rapid")
    assert _changes_page(client, standard, since=rapid.slug).status_code == 404
    assert _changes_page(client, rapid, since=standard.slug).status_code == 404
    later = services.list_publish(now=APRIL)
    assert _changes_page(client, later, since=standard.slug).status_code == 200


def _risers(count: int, seasons, *, display: str) -> list[Member]:  # type: ignore[no-untyped-def]
    return [
        rating_state(
            paid_up(MemberFactory(name=f"Riser {n:02d}"), *seasons),
            rating=1200,
            display=display.format(1200),
            games=5,
        ).member
        for n in range(count)
    ]


def test_the_improvers_have_a_chart_where_the_rises_chart_leaves_them_out(
    client, club_of_four, seasons_2026_and_today
):
    alice = club_of_four[0]
    provisional = _risers(10, seasons_2026_and_today, display="{}p")
    services.list_publish(now=MARCH)
    for member in provisional:  # ten provisional ratings rise 200: they fill the rises' chart
        rating_state(member, rating=1400, display="1400p", games=8)
    rating_state(alice, rating=1650, display="1650", games=35)  # the one improver: +50
    april = services.list_publish(now=APRIL)
    page = _changes_page(client, april)
    assert "Alice Archer" not in str(page.context["chart"])
    chart = str(page.context["improvers_chart"])
    assert 'aria-labelledby="improvers-title"' in chart
    assert "<title>Alice Archer: +50</title>" in chart
    assert page.content.decode().count('<svg class="changes-chart"') == 2


def test_the_improvers_have_no_chart_repeating_the_rises_chart(client, club_of_four):
    alice, bob, *_ = club_of_four
    services.list_publish(now=MARCH)
    rating_state(alice, rating=1650, display="1650", games=35)
    rating_state(bob, rating=1530, display="1530", games=25)
    april = services.list_publish(now=APRIL)
    page = _changes_page(client, april)
    assert [e.member.name for e in page.context["changes"].improvers] == [
        "Alice Archer",
        "Bob Brown",
    ]
    assert "<title>Alice Archer: +50</title>" in str(page.context["chart"])
    assert page.context["improvers_chart"] == ""
    assert page.content.decode().count('<svg class="changes-chart"') == 1


def test_every_publication_downloads_as_csv_by_its_date(client, club_of_four):
    publication = services.list_publish(now=MARCH)
    response = client.get(publication.get_absolute_url(), {"_export": "csv"})
    assert 'filename="rating-list-published-2026-03-05.csv"' in response["Content-Disposition"]
    rows = csv_rows(response)
    assert rows[0][:6] == ["rank", "id", "name", "rating", "marker", "games"]  # the list's
    assert [r[:6] for r in rows[1:]] == [
        ["1", "A1", "Alice Archer", "1600", "", "30"],
        ["2", "B2", "Bob Brown", "1500", "", "20"],
        ["3", "C3", "Carol Chen", "1400", "p", "3"],
    ]


def test_a_date_finds_the_list_as_it_stood_that_day(client, club_of_four):
    march = services.list_publish(now=MARCH)
    services.list_publish(now=APRIL)
    index = reverse("ratings:publications")
    assert client.get(index, {"on": "2026-03-31"})["Location"] == march.get_absolute_url()
    assert client.get(index, {"on": "2026-03-01"})["Location"] == index
    assert client.get(index, {"on": "31/03"})["Location"] == index


def test_a_publication_filters_like_the_list_and_keeps_each_members_place_on_it(
    client, club_of_four
):
    publication = services.list_publish(now=MARCH)
    response = client.get(publication.get_absolute_url(), {"women": "on"})
    assert rows_of(response) == [
        ("1", "Alice Archer", "1600", 30),
        ("3", "Carol Chen", "1400p", 3),
    ]


def test_a_members_page_shows_their_published_ratings_by_date(client, club_of_four):
    alice = club_of_four[0]
    services.list_publish(now=MARCH)
    rating_state(alice, rating=1650, display="1650", games=35)
    services.list_publish(now=APRIL)
    response = client.get(alice.get_absolute_url())
    shown = [(e.publication.day, e.display) for e in response.context["published_ratings"]]
    assert shown == [(dt.date(2026, 4, 5), "1650"), (dt.date(2026, 3, 5), "1600")]
    assert "On the published lists" in response.content.decode()


def test_an_unpublished_members_page_shows_no_published_ratings(client, club_of_four):
    bob = club_of_four[1]
    services.list_publish(now=MARCH)
    bob.subscriptions.all().delete()
    response = client.get(bob.get_absolute_url())
    assert "published_ratings" not in response.context
    assert "1500" not in response.content.decode()


# -- the officer publishes --------------------------------------------------------------


def test_the_officer_publishes_with_a_note(officer_client, club_of_four):
    response = officer_client.post(PUBLISH, {"note": "End of the summer season"})
    publication = Publication.objects.get()
    assert response["Location"] == publication.get_absolute_url()
    assert publication.note == "End of the summer season"
    assert publication.published_by.username == "olivia"


def test_a_refused_publication_says_why_at_the_form(officer_client, club_of_four):
    RatingRun.objects.create(reason="Big correction", system="nz-club-elo")
    response = officer_client.post(PUBLISH, {"note": "x"})
    assert response.status_code == 200
    assert "re-rate is still running" in response.content.decode()
    assert not Publication.objects.exists()


def test_only_an_officer_publishes(client, club_of_four):
    response = client.post(PUBLISH, {"note": "x"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Publication.objects.exists()


# -- at a federation's size ------------------------------------------------------------


def _club(count: int, seasons, start: int = 0) -> None:  # type: ignore[no-untyped-def]
    for n in range(start, start + count):
        member = paid_up(
            MemberFactory(member_number=f"S{n:04d}", name=f"Player {n:04d}"), *seasons
        )
        rating_state(member, rating=2000 - n, display=str(2000 - n), games=10)


def _queries(client, url: str, **query: object) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, query)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    ("view", "query"),
    [
        ("publication", {}),
        ("publication", {"page": 2, "sort": "name"}),
        ("publication", {"_export": "csv"}),
        ("publication-changes", {}),
        ("list", {}),
    ],
)
def test_publication_pages_take_the_same_queries_with_twice_the_members(
    client, seasons_2026_and_today, view, query
):
    _club(60, seasons_2026_and_today)
    services.list_publish(now=MARCH)
    first = services.list_publish(now=APRIL)
    url = reverse(f"ratings:{view}", args=[first.slug] if view != "list" else [])
    few = _queries(client, url, **query)
    Publication.objects.all().delete()
    _club(60, seasons_2026_and_today, start=60)
    services.list_publish(now=MARCH)
    second = services.list_publish(now=APRIL)
    url = reverse(f"ratings:{view}", args=[second.slug] if view != "list" else [])
    assert _queries(client, url, **query) == few


def test_closing_a_rating_period_publishes_the_list_it_leaves_in_one_confirmation(
    officer_client, seasons_2026_and_today, rated_event, alice, bob
):
    services.rating_system_set(system_id="acf-1993")
    for member in (alice, bob):
        member.initial_rating, member.initial_games = 1800, 30
        member.save()
        paid_up(member, *seasons_2026_and_today)
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], rate=False)
    system = ClubSettings.load().engine()
    period = services.period_for(event, system)
    label = period.label
    close = reverse("ratings:officer-period-close", args=[label])
    form = officer_client.get(close).content.decode()
    assert f"Confirm: close {period.name} and publish the list" in form
    assert f"Rating period {period.name} closed." in form  # the note, to change or keep
    response = officer_client.post(close, {"note": "Winter period closed."})
    publication = Publication.objects.get()
    assert response["Location"] == publication.get_absolute_url()
    assert (publication.period.label, publication.note) == (label, "Winter period closed.")
    assert publication.period.is_closed
    message = officer_client.get(response["Location"]).content.decode()
    assert f"Rating period {period.name} closed: 1 event rated, and the list published" in message
