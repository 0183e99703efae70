"""The club's choice of how unpublished members appear on public pages.

"Name them, withhold their ratings" (the default) is today's rule, crawled by
``test_publication``. "Keep them off public pages": no public page, CSV or API answer
carries an unpublished member's name, number or member page; they are an "Unpublished
player" in results, reports and crosstables. The officer still sees everyone.

The night of ``test_publication``: Alice and Carol paid up, Bob in arrears, Gus a guest.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings import publication
from ratings.engine import SYSTEMS
from ratings.models import ClubSettings, Event, Member

from ..factories import paid_up
from .test_publication import figures, night, public_pages, shows  # noqa: F401  (the fixture, shared)

pytestmark = pytest.mark.django_db

#: What would tell who Bob (in arrears) and Gus (a guest) are: names and member numbers.
UNPUBLISHED = ("Bob Brown", "Gus Guest", "B2", "G1")


def named(text: str) -> set[str]:
    """Which of the unpublished members' names and numbers the text carries, each as a
    word of its own (B2 not inside AB23)."""
    return {word for word in UNPUBLISHED if re.search(rf"(?<![\w.]){word}(?!\w)", text)}


def body(response) -> str:
    chunks = response.streaming_content if response.streaming else [response.content]
    return b"".join(chunks).decode()


def choose(choice: str) -> None:
    club = ClubSettings.load()
    club.unpublished_members = choice
    club.save()
    cache.clear()  # a cached public answer was made under the other choice


@pytest.fixture
def kept_off(night):  # noqa: F811
    choose(ClubSettings.Unpublished.KEPT_OFF)
    return night


def test_naming_them_is_the_default(db):
    assert ClubSettings.load().unpublished_members == ClubSettings.Unpublished.NAMED
    assert not publication.keeps_off()


def test_named_unpublished_members_keep_their_names_on_public_pages(client, night):  # noqa: F811
    page = body(client.get(reverse("ratings:event", args=[night.pk])))
    assert {"Bob Brown", "Gus Guest"} <= named(page)
    assert client.get(reverse("ratings:member", args=["B2"])).status_code == 200


@pytest.fixture(params=sorted(SYSTEMS))
def each_system(request):
    """The night rated under each system (the club's choice left to the test)."""
    ClubSettings.objects.update_or_create(pk=1, defaults={"rating_system": request.param})
    return request.getfixturevalue("night")


def crawl(client, event: Event) -> Iterator[tuple[str, dict[str, str], str]]:
    """Every public page and API answer of the night: its URL, query and text."""
    for url, query in public_pages(event):
        response = client.get(url, query)
        assert response.status_code in (200, 302, 404), (url, query)
        yield url, query, body(response)


def test_kept_off_no_public_page_names_or_numbers_an_unpublished_member(client, each_system):
    choose(ClubSettings.Unpublished.KEPT_OFF)
    hidden = figures(*Member.objects.filter(member_number__in=["B2", "G1"]))
    for url, query, text in crawl(client, each_system):
        # What the reader typed comes back to them (the calculator's "no rated member
        # has the number B2", as for any number): it tells them nothing they did not know.
        leaked = named(text) - set(query.values())
        assert not leaked, f"{url}?{query} names {leaked}"
        shown = {f for f in hidden if shows(text, f)}
        assert not shown, f"{url}?{query} shows their ratings {shown}"


def test_named_no_public_page_shows_an_unpublished_members_rating(client, each_system):
    hidden = figures(*Member.objects.filter(member_number__in=["B2", "G1"]))
    seen: set[str] = set()
    for url, query, text in crawl(client, each_system):
        shown = {f for f in hidden if shows(text, f)}
        assert not shown, f"{url}?{query} shows their ratings {shown}"
        seen |= named(text) - set(query.values())
    assert seen == set(UNPUBLISHED)  # named, as the club chose


def test_kept_off_the_event_page_lists_them_as_unpublished_players(client, kept_off):
    page = body(client.get(reverse("ratings:event", args=[kept_off.pk])))
    assert page.count(publication.UNPUBLISHED_PLAYER) == 2
    assert "Alice Archer" in page and not named(page)


def test_kept_off_the_event_report_shows_unpublished_players(client, kept_off):
    page = body(client.get(reverse("ratings:event-report", args=[kept_off.pk])))
    assert publication.UNPUBLISHED_PLAYER in page
    assert "Alice Archer" in page and not named(page)
    assert reverse("ratings:member", args=["B2"]) not in page


def test_kept_off_the_crosstable_shows_unpublished_players(client, kept_off):
    page = body(client.get(reverse("ratings:event-crosstable", args=[kept_off.pk])))
    assert page.count(publication.UNPUBLISHED_PLAYER) == 2
    assert "Carol Chen" in page and not named(page)


def test_kept_off_the_crosstable_csv_has_no_name_or_number(client, kept_off):
    response = client.get(reverse("ratings:event-crosstable-csv", args=[kept_off.pk]))
    rows = list(csv.DictReader(io.StringIO(body(response))))
    players = {(row["Player"], row["Member number"]) for row in rows}
    assert players == {
        ("Alice Archer", "A1"),
        ("Carol Chen", "C3"),
        (publication.UNPUBLISHED_PLAYER, ""),
    }
    assert len(rows) == 4


def test_kept_off_their_member_page_is_not_found(client, kept_off):
    assert client.get(reverse("ratings:member", args=["B2"])).status_code == 404
    assert client.get(reverse("ratings:member", args=["G1"])).status_code == 404
    assert client.get(reverse("ratings:member-history-csv", args=["B2"])).status_code == 404
    assert client.get(reverse("ratings:member", args=["A1"])).status_code == 200


def test_kept_off_a_published_members_page_names_no_unpublished_opponent(client, kept_off):
    page = body(client.get(reverse("ratings:member", args=["A1"])))
    assert publication.UNPUBLISHED_PLAYER in page  # Alice played Bob and Gus
    assert "Carol Chen" in page and not named(page)


def test_kept_off_the_api_event_names_and_numbers_no_unpublished_player(client, kept_off):
    answer = client.get(f"/api/v1/events/{kept_off.pk}").json()
    players = {(p["name"], p["member"]) for p in answer["players"]}
    assert players == {
        ("Alice Archer", "A1"),
        ("Carol Chen", "C3"),
        (publication.UNPUBLISHED_PLAYER, None),
    }
    numbers = {g["white"] for g in answer["games"]} | {g["black"] for g in answer["games"]}
    assert numbers == {"A1", "C3", None}


def test_kept_off_the_api_answers_for_a_member_as_their_page_does(client, kept_off):
    assert client.get("/api/v1/members/B2").status_code == 404
    assert client.get("/api/v1/members/B2/history").status_code == 404
    assert client.get("/api/v1/members/A1").json()["member"] == "A1"


def test_kept_off_the_officer_sees_every_name(officer_client, kept_off):
    for name in ("event", "event-report", "event-crosstable"):
        page = body(officer_client.get(reverse(f"ratings:{name}", args=[kept_off.pk])))
        assert {"Bob Brown", "Gus Guest"} <= named(page), name
        assert publication.UNPUBLISHED_PLAYER not in page, name
    assert officer_client.get(reverse("ratings:member", args=["B2"])).status_code == 200


def test_kept_off_a_member_who_pays_is_named_again(client, kept_off, current_season):
    paid_up(Member.objects.get(member_number="B2"), current_season)
    cache.clear()
    page = body(client.get(reverse("ratings:event", args=[kept_off.pk])))
    assert "Bob Brown" in page and page.count(publication.UNPUBLISHED_PLAYER) == 1


def test_the_club_settings_form_explains_both_choices(admin_client, club):
    page = body(admin_client.get(reverse("admin:ratings_clubsettings_change", args=[club.pk])))
    for _value, label in ClubSettings.Unpublished.choices:
        assert label in page
    assert "Unpublished player" in page  # the help says how they then appear


def test_a_caller_holding_a_named_answer_gets_the_kept_off_one(client, night):  # noqa: F811
    url = f"/api/v1/events/{night.pk}"
    first = client.get(url)
    assert "Bob Brown" in body(first)
    choose(ClubSettings.Unpublished.KEPT_OFF)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and not named(body(again))
