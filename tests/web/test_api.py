"""The open read API: answers that match the OpenAPI description and the pages' figures,
withholding exactly what the pages withhold; cacheable; throttled."""

from __future__ import annotations

import datetime as dt
from typing import Any

import jsonschema
import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Game, Member, RatingList

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

API = "/api/v1"
MARCH = timezone.make_aware(dt.datetime(2026, 3, 5, 12, 0))


@pytest.fixture(autouse=True)
def _fresh_throttle():  # type: ignore[no-untyped-def]
    cache.clear()  # the throttle counts callers in the cache
    yield
    cache.clear()


@pytest.fixture
def spec(client) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def checked(client, spec, path: str, template: str, **query: object) -> Any:  # type: ignore[no-untyped-def]
    """GET ``path`` and check the answer against the description of ``template``."""
    response = client.get(f"{API}{path}", query)
    operation = spec["paths"][f"{API}{template}"]["get"]
    described = operation["responses"][str(response.status_code)]
    schema = described["content"]["application/json"]["schema"]
    jsonschema.Draft202012Validator({**schema, "components": spec["components"]}).validate(
        response.json()
    )
    return response


@pytest.fixture
def club(rated_event, seasons_2026_and_today, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    """Alice, Bob and Carol paid up; Dave in arrears; one rated event of all four."""
    for member in (alice, bob, carol):
        paid_up(member, *seasons_2026_and_today)
    event = rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (1, carol, dave, Game.Result.BLACK_WIN)]
    )
    return event


def test_the_description_is_openapi_and_names_every_operation(spec):
    assert spec["openapi"].startswith("3.")
    assert {path.removeprefix(API) for path in spec["paths"]} == {
        "/list",
        "/publications",
        "/publications/latest",
        "/publications/{slug}",
        "/members/{number}",
        "/members/{number}/history",
        "/events",
        "/events/{pk}",
    }
    assert all(set(methods) == {"get"} for methods in spec["paths"].values())


def test_the_live_list_matches_the_page_and_its_description(client, spec, club):
    answer = checked(client, spec, "/list", "/list").json()
    page = client.get(reverse("ratings:live-list"))
    on_page = [
        (str(m.rank), m.member_number, m.rating_state.display)
        for m in page.context["table"].page.object_list.data
    ]
    assert [(str(r["rank"]), r["member"], r["rating"]) for r in answer["results"]] == on_page
    assert "D4" not in {r["member"] for r in answer["results"]}  # Dave is in arrears


def test_the_live_list_filters_like_the_page(client, spec, club):
    answer = checked(client, spec, "/list", "/list", women=True).json()
    page = client.get(reverse("ratings:live-list"), {"women": "on"})
    assert [(r["rank"], r["name"]) for r in answer["results"]] == [
        (m.rank, m.name) for m in page.context["table"].page.object_list.data
    ]
    assert [r["name"] for r in answer["results"]] == ["Alice Archer", "Carol Chen"]


def test_a_filtered_live_list_gives_each_member_their_place_on_the_whole_list(client, spec, club):
    whole = {
        r["name"]: r["rank"] for r in checked(client, spec, "/list", "/list").json()["results"]
    }
    answer = checked(client, spec, "/list", "/list", name="bob").json()
    assert [(r["name"], r["rank"]) for r in answer["results"]] == [
        ("Bob Brown", whole["Bob Brown"])
    ]
    assert whole["Bob Brown"] != 1


def test_a_filtered_publication_gives_each_member_their_place_as_published(client, spec, club):
    publication = services.list_publish(now=MARCH)
    path = f"/publications/{publication.slug}"
    whole = {
        r["name"]: r["rank"]
        for r in checked(client, spec, path, "/publications/{slug}").json()["results"]
    }
    answer = checked(client, spec, path, "/publications/{slug}", name="bob").json()
    assert [(r["name"], r["rank"]) for r in answer["results"]] == [
        ("Bob Brown", whole["Bob Brown"])
    ]
    assert whole["Bob Brown"] != 1


def test_a_publication_matches_its_page_and_its_description(client, spec, club, carol):
    publication = services.list_publish(now=MARCH)
    rating_state(carol, rating=1900, display="1900", games=9)  # live moves on
    answer = checked(
        client, spec, f"/publications/{publication.slug}", "/publications/{slug}"
    ).json()
    page = client.get(publication.get_absolute_url())
    on_page = [
        (str(e.rank), e.member.member_number, e.display, e.games)
        for e in page.context["table"].page.object_list.data
    ]
    rows = [(str(r["rank"]), r["member"], r["rating"], r["games"]) for r in answer["results"]]
    assert rows == on_page
    assert answer["publication"]["slug"] == "2026-03-05"
    latest = checked(client, spec, "/publications/latest", "/publications/latest").json()
    assert latest["results"] == answer["results"]
    index = checked(client, spec, "/publications", "/publications").json()
    assert [p["slug"] for p in index["results"]] == ["2026-03-05"]


def test_no_publication_yet_is_a_404_with_a_reason(client, spec, club):
    response = checked(client, spec, "/publications/latest", "/publications/latest")
    assert response.status_code == 404
    assert response.json()["detail"] == "No list has been published yet."


def test_a_published_member_has_the_figures_of_their_page(client, spec, club, alice):
    services.list_publish(now=MARCH)
    answer = checked(client, spec, "/members/A1", "/members/{number}").json()
    page = client.get(alice.get_absolute_url())
    assert answer["published"] is True
    assert answer["rating"]["rating"] == page.context["state"].display == "1516"
    assert answer["rating"]["status"] == page.context["status"]
    assert [(p["date"], p["rating"]) for p in answer["published_ratings"]] == [
        ("2026-03-05", "1516")
    ]
    history = checked(client, spec, "/members/A1/history", "/members/{number}/history").json()
    assert [(h["rating_before"], h["rating_after"], h["change"]) for h in history["results"]] == [
        ("1500", "1516", 16.0)
    ]


def test_an_unpublished_member_is_withheld_as_their_page_withholds_them(client, spec, club, dave):
    answer = checked(client, spec, "/members/D4", "/members/{number}").json()
    page = client.get(dave.get_absolute_url())
    assert "Rating not published" in page.content.decode()
    assert (answer["published"], answer["rating"], answer["published_ratings"]) == (
        False,
        None,
        [],
    )
    history = checked(client, spec, "/members/D4/history", "/members/{number}/history").json()
    row = history["results"][0]
    assert (row["rating_before"], row["rating_after"], row["change"]) == (None, None, None)
    assert (row["games"], row["score"]) == (1, 1.0)  # he played: the event's page says so


def test_an_event_gives_results_and_the_published_players_changes(client, spec, club):
    answer = checked(client, spec, f"/events/{club.pk}", "/events/{pk}").json()
    page = client.get(club.get_absolute_url())
    by_number = {p["member"]: p for p in answer["players"]}
    for player in page.context["players"]:
        row = by_number[player["member"].member_number]
        assert (row["place"], row["points"]) == (player["place"], player["points"])
        shown = player["change"]
        assert row["rating_after"] == (shown.display_after if shown else None)
    assert by_number["D4"]["rating_after"] is None and by_number["D4"]["points"] == 1.0
    assert by_number["C3"]["rating_before"] == "1500"
    assert len(answer["games"]) == 2
    index = checked(client, spec, "/events", "/events", name="club").json()
    assert [e["id"] for e in index["results"]] == [club.pk]


def test_a_change_is_the_difference_of_the_figures_given(
    client, spec, rated_event, seasons_2026_and_today, alice, bob
):
    """As on the pages: 1400.4 (given as "1400") to 1410.63 ("1411") is +11, not the
    unrounded +10.23, in the member's history and in the event's answer."""
    paid_up(alice, *seasons_2026_and_today)
    Member.objects.filter(pk=alice.pk).update(initial_rating=1400.4, initial_games=40)
    services.ratings_rerate(services.RerateRequest(reason="a rating brought in"))
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    history = checked(client, spec, "/members/A1/history", "/members/{number}/history").json()
    assert [(h["rating_before"], h["rating_after"], h["change"]) for h in history["results"]] == [
        ("1400", "1411", 11.0)
    ]
    answer = checked(client, spec, f"/events/{event.pk}", "/events/{pk}").json()
    player = next(p for p in answer["players"] if p["member"] == "A1")
    assert (player["rating_before"], player["rating_after"], player["change"]) == (
        "1400",
        "1411",
        11.0,
    )


# -- a list of its own: rapid -------------------------------------------------------------


@pytest.fixture
def rapid_club(rated_event, seasons_2026_and_today, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    """Rapid kept on a list of its own. A standard night (Alice beats Bob) and a rapid
    afternoon of five: Alice, Bob and Carol paid up, Dave in arrears, Gus a paid-up guest.
    Returns the rapid event."""
    for member in (alice, bob, carol):
        paid_up(member, *seasons_2026_and_today)
    gus = paid_up(
        MemberFactory(member_number="G1", name="Gus Guest", is_guest=True), *seasons_2026_and_today
    )
    services.rating_list_set(rating_list=RatingList(time_class="rapid", kept=RatingList.Kept.OWN))
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], name="Club night")
    return rated_event(
        [
            (1, bob, alice, Game.Result.WHITE_WIN),
            (1, carol, dave, Game.Result.BLACK_WIN),
            (2, gus, bob, Game.Result.DRAW),
            (2, alice, carol, Game.Result.DRAW),
            (3, dave, gus, Game.Result.WHITE_WIN),
            (3, carol, bob, Game.Result.BLACK_WIN),
        ],
        date=dt.date(2026, 3, 7),
        name="Saturday Rapid",
        time_class="rapid",
    )


def rapid_page(client, url: str):  # type: ignore[no-untyped-def]
    return client.get(url, {"list": "rapid"})


def test_the_rapid_list_matches_its_page_and_its_description(client, spec, rapid_club):
    answer = checked(client, spec, "/list", "/list", time_class="rapid").json()
    page = rapid_page(client, reverse("ratings:live-list"))
    on_page = [
        (str(m.rank), m.member_number, m.rating_state.display)
        for m in page.context["table"].page.object_list.data
    ]
    assert [(str(r["rank"]), r["member"], r["rating"]) for r in answer["results"]] == on_page
    assert [r["member"] for r in answer["results"]] == ["B2", "A1", "C3"]  # not G1 nor D4
    assert answer["time_class"] == "rapid"
    standard = checked(client, spec, "/list", "/list").json()
    assert standard["results"][0]["member"] == "A1"  # the standard list: Alice leads


def test_the_latest_rapid_publication_matches_its_page_and_its_description(
    client, spec, rapid_club
):
    standard = services.list_publish(now=MARCH)
    rapid = services.list_publish(now=MARCH, time_class="rapid")
    answer = checked(
        client, spec, "/publications/latest", "/publications/latest", time_class="rapid"
    ).json()
    assert answer["publication"]["slug"] == rapid.slug == "2026-03-05-rapid"
    assert answer["publication"]["time_class"] == "rapid"
    page = client.get(rapid.get_absolute_url())
    on_page = [
        (str(e.rank), e.member.member_number, e.display, e.games)
        for e in page.context["table"].page.object_list.data
    ]
    rows = [(str(r["rank"]), r["member"], r["rating"], r["games"]) for r in answer["results"]]
    assert rows == on_page
    latest_standard = checked(client, spec, "/publications/latest", "/publications/latest")
    assert latest_standard.json()["publication"]["slug"] == standard.slug
    assert latest_standard.json()["results"] != answer["results"]


def test_a_members_rapid_rating_and_history_match_their_page(client, spec, rapid_club, bob):
    rapid = services.list_publish(now=MARCH, time_class="rapid")
    services.list_publish(now=MARCH)
    answer = checked(client, spec, "/members/B2", "/members/{number}", time_class="rapid")
    answer = answer.json()
    page = rapid_page(client, bob.get_absolute_url())
    state = page.context["state"]
    assert state.time_class == "rapid"
    assert answer["rating"]["rating"] == state.display
    assert (answer["rating"]["games"], answer["rating"]["status"]) == (
        state.games,
        page.context["status"],
    )
    assert [(p["publication"], p["rating"]) for p in answer["published_ratings"]] == [
        (e.publication.slug, e.display) for e in page.context["published_ratings"]
    ]
    assert [p["publication"] for p in answer["published_ratings"]] == [rapid.slug]
    history = checked(
        client, spec, "/members/B2/history", "/members/{number}/history", time_class="rapid"
    ).json()
    on_page = [
        (event.pk, change.display_before, change.display_after)
        for event, change in page.context["events"]
        if change is not None and change.time_class == "rapid"
    ]
    assert [(h["event"], h["rating_before"], h["rating_after"]) for h in history["results"]] == (
        on_page
    )
    assert [h["event_name"] for h in history["results"]] == ["Saturday Rapid"]


def test_a_guest_and_a_member_in_arrears_are_withheld_from_an_event_as_its_page_does(
    client, spec, rapid_club
):
    answer = checked(client, spec, f"/events/{rapid_club.pk}", "/events/{pk}").json()
    page = client.get(rapid_club.get_absolute_url())
    by_number = {p["member"]: p for p in answer["players"]}
    for row in page.context["players"]:
        player = by_number[row["member"].member_number]
        change = row["change"]
        assert player["published"] is (change is not None)
        assert (player["rating_before"], player["rating_after"]) == (
            (change.display_before, change.display_after) if change else (None, None)
        )
        assert (player["place"], player["points"]) == (row["place"], row["points"])
    withheld = {number for number, p in by_number.items() if not p["published"]}
    assert withheld == {"D4", "G1"}
    assert all(by_number[n]["change"] is None for n in withheld)
    assert (by_number["D4"]["points"], by_number["G1"]["points"]) == (2.0, 0.5)


@pytest.mark.parametrize("number", ["D4", "G1"])
@pytest.mark.parametrize("time_class", ["standard", "rapid"])
def test_a_guest_and_a_member_in_arrears_are_withheld_from_the_member_endpoints(
    client, spec, rapid_club, number, time_class
):
    services.list_publish(now=MARCH, time_class="rapid")
    member = Member.objects.get(member_number=number)
    page = client.get(member.get_absolute_url(), {"list": time_class})
    assert "Rating not published" in page.content.decode()
    assert "status" not in page.context
    answer = checked(
        client, spec, f"/members/{number}", "/members/{number}", time_class=time_class
    ).json()
    assert (answer["published"], answer["rating"], answer["published_ratings"]) == (
        False,
        None,
        [],
    )
    history = checked(
        client,
        spec,
        f"/members/{number}/history",
        "/members/{number}/history",
        time_class=time_class,
    ).json()
    assert history["published"] is False
    rows = history["results"]
    assert [r["event_name"] for r in rows] == (["Saturday Rapid"] if time_class == "rapid" else [])
    for row in rows:  # they played, as the event's page says; their figures are withheld
        assert (row["rating_before"], row["rating_after"], row["change"]) == (None, None, None)
        assert row["games"] == 2


def test_an_officers_session_sees_no_more_than_the_public(officer_client, spec, club):
    answer = checked(officer_client, spec, "/members/D4", "/members/{number}").json()
    assert answer["rating"] is None


def test_an_unknown_member_or_page_is_a_clear_404(client, spec, club):
    response = checked(client, spec, "/members/NOPE", "/members/{number}")
    assert response.status_code == 404
    response = client.get(f"{API}/list", {"page": 9})
    assert (response.status_code, response.json()["detail"]) == (404, "page: there is 1 page.")
    response = checked(client, spec, "/list", "/list", per_page=501)
    assert (response.status_code, response.json()["detail"]) == (
        422,
        "per_page: Input should be less than or equal to 500",
    )


def test_a_merged_record_redirects_to_the_member_it_joined(client, club, alice):
    old = MemberFactory(member_number="OLD", merged_into=alice)
    response = client.get(f"{API}/members/{old.member_number}")
    assert (response.status_code, response["Location"]) == (302, f"{API}/members/A1")


def test_a_member_number_in_another_case_redirects_to_the_members_own(client, club, alice):
    response = client.get(f"{API}/members/a1")
    assert (response.status_code, response["Location"]) == (302, f"{API}/members/A1")
    assert client.get(response["Location"]).json()["name"] == "Alice Archer"


def test_a_members_history_in_another_case_redirects_keeping_the_query(client, club, alice):
    response = client.get(f"{API}/members/a1/history", {"page": 1, "per_page": 5})
    assert response.status_code == 302
    assert response["Location"] == f"{API}/members/A1/history?page=1&per_page=5"


def test_answers_carry_an_etag_and_a_304_spares_the_body(client, club):
    first = client.get(f"{API}/list")
    assert first["ETag"] and first["Last-Modified"]
    assert "max-age=60" in first["Cache-Control"]
    again = client.get(f"{API}/list", HTTP_IF_NONE_MATCH=first["ETag"])
    assert (again.status_code, again.content) == (304, b"")
    since = client.get(f"{API}/list", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304


def test_a_change_to_the_record_gives_a_new_etag(client, club, seasons_2026_and_today):
    first = client.get(f"{API}/list")["ETag"]
    paid_up(MemberFactory(member_number="E5", name="Eve"), *seasons_2026_and_today)
    assert client.get(f"{API}/list", HTTP_IF_NONE_MATCH=first).status_code == 200


def test_a_publication_gives_a_new_etag(client, club):
    first = client.get(f"{API}/publications")["ETag"]
    services.list_publish(now=MARCH)
    assert client.get(f"{API}/publications")["ETag"] != first


def test_anonymous_callers_are_throttled(client, club, settings):
    settings.API_ANON_RATE = "3/min"
    codes = [client.get(f"{API}/events").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


def test_the_docs_page_documents_every_operation_without_a_script(client, spec):
    response = client.get(reverse("ratings:api-docs"))
    page = response.content.decode()
    assert response.status_code == 200
    for path in spec["paths"]:
        assert f"<code>{path}</code>" in page
    assert "<script>" not in page and "cdn" not in page.lower()


def _directives(header: str) -> dict[str, str | None]:
    """Cache-Control's directives as RFC 9111 writes them: a name, or a name=value."""
    pairs = [d.strip().partition("=") for d in header.split(",")]
    return {name: (value if sep else None) for name, sep, value in pairs}


# Directives that take no argument (RFC 9111 §5.2.2), and those that take delta-seconds.
NO_ARGUMENT = {"public", "must-revalidate", "no-store", "no-transform", "proxy-revalidate"}
SECONDS = {"max-age", "s-maxage"}


@pytest.mark.parametrize("path", ["/list", "/events"])
def test_an_answer_s_cache_control_is_valid(client, club, path):
    directives = _directives(client.get(f"{API}{path}")["Cache-Control"])
    assert directives["public"] is None and directives["max-age"] == "60"
    for name, value in directives.items():
        assert (name in NO_ARGUMENT and value is None) or (
            name in SECONDS and value is not None and value.isdigit()
        ), f"{name}={value}"


def test_a_public_page_s_cache_control_is_valid(client, club):
    directives = _directives(client.get(reverse("ratings:list"))["Cache-Control"])
    for name, value in directives.items():
        assert (name in NO_ARGUMENT and value is None) or (
            name in SECONDS and value is not None and value.isdigit()
        ), f"{name}={value}"
