"""Officer pages are behind the login and the officer permission; reports are public."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ratings.models import Game, RatingRun
from ratings.views import officer, runs

pytestmark = pytest.mark.django_db

PUBLIC = {"event-report", "event-crosstable"}


OFFICER_PATTERNS = [*officer.urlpatterns, *runs.urlpatterns]


def _urls(event, member):
    kwargs = {"pk": event.pk, "member": member.pk, "number": 1, "label": "2026-Q1"}
    run = RatingRun.objects.first()
    for pattern in OFFICER_PATTERNS:
        if pattern.name in PUBLIC:
            continue
        names = pattern.pattern.regex.groupindex
        values = {**kwargs, "pk": run.pk} if pattern in runs.urlpatterns else kwargs
        yield reverse(f"ratings:{pattern.name}", kwargs={k: values[k] for k in names})


def test_every_officer_page_sends_a_visitor_to_the_login_page(client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    urls = list(_urls(event, alice))
    assert len(urls) == len(OFFICER_PATTERNS) - len(PUBLIC)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/accounts/login/?next={url}", url


def test_a_logged_in_member_without_the_officer_permission_is_refused(
    client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    client.force_login(User.objects.create_user("member", password="x"))
    for url in _urls(event, alice):
        assert client.get(url).status_code == 403, url


def test_the_refusal_says_the_login_is_not_an_officers(client):
    client.force_login(User.objects.create_user("member", password="x"))
    page = client.get(reverse("ratings:officer-home"))
    assert page.status_code == 403
    assert "not a ratings officer" in page.content.decode()


def test_the_admin_logs_in_through_the_one_login_page(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert client.get(response["Location"])["Location"] == "/accounts/login/?next=/admin/"


def test_the_report_and_crosstable_of_an_event_are_public(client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    for name in PUBLIC:
        response = client.get(reverse(f"ratings:{name}", args=[event.pk]))
        assert response.status_code == 200
        assert "Alice Archer" in response.content.decode()
