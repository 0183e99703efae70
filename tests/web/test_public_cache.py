"""Public pages served from cache (clubratings/cache.py): kept until what they show
changes, conditional GETs answered 304, and never a kept copy for a signed-in reader."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections, transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubratings.cache import public_page
from clubratings.settings import caches
from ratings import services
from ratings.models import Game, Member, RatingState

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db

LIST = "/ratings/"


@pytest.fixture
def night(rated_event, current_season, alice, bob):  # type: ignore[no-untyped-def]
    """Alice and Bob paid up, one rated game between them."""
    for member in (alice, bob):
        paid_up(member, current_season)
    return rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=timezone.localdate())


def test_a_second_public_reader_is_served_the_kept_page_in_one_query(client, night):
    first = client.get(LIST)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(LIST)
    assert again.content == first.content
    # The version is read; the page is not built again.
    assert len(queries) <= 2, [q["sql"] for q in queries]


def test_a_kept_page_is_answered_whole_with_the_versions_query_alone(client, night):
    """Answered at the top of the stack: no session, no club settings, no view."""
    first = client.get(LIST, HTTP_ACCEPT_ENCODING="gzip")
    with CaptureQueriesContext(connection) as queries:
        again = client.get(LIST, HTTP_ACCEPT_ENCODING="gzip")
    assert again.content == first.content and again["Content-Encoding"] == "gzip"
    assert [q["sql"] for q in queries if "publicpagesversion" not in q["sql"]] == []
    assert len(queries) == 1


def test_a_kept_api_answer_is_answered_whole_its_throttle_asked(client, night, settings):
    settings.API_ANON_RATE = "3/min"
    client.get("/api/v1/list")
    with CaptureQueriesContext(connection) as queries:
        again = client.get("/api/v1/list")
    assert again.status_code == 200 and len(queries) == 1
    assert [client.get("/api/v1/list").status_code for _ in range(2)] == [200, 429]


def test_a_reader_not_asking_for_gzip_never_gets_the_compressed_copy(client, night):
    client.get(LIST, HTTP_ACCEPT_ENCODING="gzip")
    plain = client.get(LIST)
    assert not plain.has_header("Content-Encoding") and b"</html>" in plain.content


def test_a_kept_page_keeps_every_security_header(client, night):
    first = client.get(LIST)
    again = client.get(LIST)
    for header in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options"):
        assert again[header] == first[header]


def test_a_write_past_the_model_layer_alone_leaves_the_kept_page(client, night, alice):
    """What shows the page is kept: a change no service announces is not seen (the
    services announce theirs, the tests below)."""
    before = client.get(reverse("ratings:member", args=["A1"])).content
    Member.objects.filter(pk=alice.pk).update(name="Alicia Archer")
    assert client.get(reverse("ratings:member", args=["A1"])).content == before


def test_a_rating_run_changes_the_kept_list(client, night, alice, bob):
    before = client.get(LIST).content.decode()
    shown = round(RatingState.objects.get(member=alice).rating)
    assert str(shown) in before
    game = Game.objects.get(event=night)
    game.result = Game.Result.BLACK_WIN
    game.save()
    services.ratings_rerate(services.RerateRequest(start=night, reason="result corrected"))
    now = round(RatingState.objects.get(member=alice).rating)
    after = client.get(LIST).content.decode()
    assert now != shown and str(now) in after


def test_a_publication_changes_the_kept_list_of_publications(client, night):
    before = client.get(reverse("ratings:publications")).content
    services.list_publish(now=timezone.now())
    assert client.get(reverse("ratings:publications")).content != before


def test_a_payment_changes_the_kept_list(client, night, current_season):
    eve = MemberFactory(member_number="E5", name="Eve Evans", initial_rating=1500)
    assert "Eve Evans" not in client.get(LIST, {"_export": "csv"}).getvalue().decode()
    paid_up(eve, current_season)
    assert "Eve Evans" in client.get(LIST, {"_export": "csv"}).getvalue().decode()


def test_a_member_page_changes_when_the_member_is_saved(client, night, alice):
    client.get(reverse("ratings:member", args=["A1"]))
    alice.name = "Alicia Archer"
    alice.save()
    assert "Alicia Archer" in client.get(reverse("ratings:member", args=["A1"])).content.decode()


@pytest.mark.parametrize(
    "url, query",
    [(LIST, {}), (LIST, {"_export": "csv"}), ("/api/v1/list", {})],
    ids=["list", "list-csv", "api"],
)
def test_a_reader_holding_the_current_copy_gets_304(client, night, url, query):
    first = client.get(url, query)
    assert first["ETag"] and first["Last-Modified"]
    again = client.get(url, query, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (again.status_code, again.content) == (304, b"")
    assert again["ETag"] == first["ETag"]


def test_a_gzipped_pages_weak_etag_still_gets_304(client, night):
    first = client.get(LIST, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')
    again = client.get(LIST, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_an_old_copy_is_sent_again_after_a_change(client, night, current_season):
    etag = client.get(LIST)["ETag"]
    paid_up(MemberFactory(member_number="E5", name="Eve Evans"), current_season)
    assert client.get(LIST, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_an_officer_never_gets_the_public_copy(client, night, officer):
    public = client.get(LIST).content.decode()
    assert "Officer log in" in public
    client.force_login(officer)
    signed_in = client.get(LIST)
    assert "Log out" in signed_in.content.decode() and "Officer log in" not in (
        signed_in.content.decode()
    )
    assert not signed_in.has_header("ETag")


def test_an_officers_page_is_never_kept_for_the_public(client, night, officer):
    client.force_login(officer)
    client.get(LIST)
    client.logout()
    client.cookies.clear()
    assert "Log out" not in client.get(LIST).content.decode()


def test_a_page_carrying_a_form_token_is_not_kept(db):
    rendered = []

    def form_page(request: HttpRequest) -> HttpResponse:
        rendered.append(request)
        return HttpResponse(f'<input name="csrfmiddlewaretoken" value="{get_token(request)}">')

    view = public_page(form_page)
    view(RequestFactory().get("/form/"))
    view(RequestFactory().get("/form/"))
    assert len(rendered) == 2  # rendered for each reader, never served kept


def test_readers_of_a_page_being_rendered_wait_for_its_one_rendering(db, monkeypatch):
    """After a bump, a process's threads render a page once, not once a reader."""
    monkeypatch.setattr(
        "clubratings.cache._version", lambda request: ("7@", timezone.now().replace(microsecond=0))
    )
    rendered = []

    def slow_page(request: HttpRequest) -> HttpResponse:
        rendered.append(request)
        threading.Event().wait(0.3)
        return HttpResponse("the list")

    view = public_page(slow_page)
    answers: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: answers.append(view(RequestFactory().get("/s/")).content))
        for _ in range(4)
    ]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert answers == [b"the list"] * 4 and len(rendered) == 1


def test_the_day_changing_retires_the_kept_page(client, night, monkeypatch):
    """Who is published follows the calendar: tomorrow's page is tomorrow's."""
    etag = client.get(LIST)["ETag"]
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: tomorrow)
    assert client.get(LIST)["ETag"] != etag


@pytest.mark.django_db(transaction=True)
def test_a_save_never_waits_for_a_long_re_rate_holding_the_version(alice):
    """PostgreSQL: a re-rate's transaction holds the version's row until it commits; a
    save meanwhile leaves the bump to it (or to just after its own commit), never waits."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes one writer at a time: the save waits at BEGIN anyway")
    holding, done = threading.Event(), threading.Event()

    def long_re_rate() -> None:
        with transaction.atomic():
            services.public_pages_changed()
            holding.set()
            done.wait(20)
        connections.close_all()

    rerate = threading.Thread(target=long_re_rate)
    rerate.start()
    assert holding.wait(20)
    before = services.public_pages_version()[0]
    with transaction.atomic():
        alice.name = "Alicia Archer"
        alice.save()
    services.public_pages_changed()  # the safety net, outside any transaction
    assert rerate.is_alive()  # the save came through while the re-rate still holds it
    done.set()
    rerate.join()
    assert services.public_pages_version()[0] > before


@pytest.mark.parametrize(
    "url, backend",
    [
        ("", "locmem.LocMemCache"),
        ("redis://cache.example:6379/1", "redis.RedisCache"),
        ("memcached://cache.example:11211", "memcached.PyMemcacheCache"),
        ("dummy://", "dummy.DummyCache"),
    ],
)
def test_cache_url_names_the_cache(url, backend):
    assert caches(url)["default"]["BACKEND"] == f"django.core.cache.backends.{backend}"


def test_a_cache_url_of_an_unknown_kind_stops_the_app_naming_it():
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        caches("mongodb://cache.example")
