"""Officer pages are behind the login and the officer permission; reports are public."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ratings.models import Game, RatingRun
from ratings.urls import urlpatterns

pytestmark = pytest.mark.django_db

PUBLIC = {"event-report", "event-crosstable"}

# Every page under /officer/ in the one URL table.
OFFICER_PATTERNS = [p for p in urlpatterns if str(p.pattern).startswith("officer/")]


def officer_urls(event, member):
    kwargs = {
        "pk": event.pk,
        "member": member.pk,
        "number": 1,
        "label": "2026-Q1",
        "subscription": 1,
        "merge": 1,
    }
    run = RatingRun.objects.first()
    for pattern in OFFICER_PATTERNS:
        if pattern.name in PUBLIC:
            continue
        names = pattern.pattern.regex.groupindex
        values = {**kwargs, "pk": run.pk} if pattern.name.startswith("run") else kwargs
        yield reverse(f"ratings:{pattern.name}", kwargs={k: values[k] for k in names})


def test_every_officer_page_sends_a_visitor_to_the_login_page(client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    urls = list(officer_urls(event, alice))
    assert len(urls) == len(OFFICER_PATTERNS)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/accounts/login/?next={url}", url
        # Where it sends them is the login page, its heading the page's own (the menu's
        # link is named the same), as tests/browser/test_officer_login.py sees it.
        login = client.get(response["Location"])
        assert login.status_code == 200, url
        assert re.search(r"<h1[^>]*>Officer log in</h1>", login.content.decode()), url


def test_a_logged_in_member_without_the_officer_permission_is_refused(
    client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    client.force_login(User.objects.create_user("member", password="x"))
    for url in officer_urls(event, alice):
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


# -- login throttling (django-axes) -----------------------------------------------------


def _log_in(client, password, address="10.0.0.7"):
    return client.post(
        reverse("login"), {"username": "olivia", "password": password}, REMOTE_ADDR=address
    )


@pytest.fixture
def olivia(db):
    from ..factories import officer_user

    return officer_user("olivia", "correct-horse-42")


def test_the_login_page_refuses_even_the_right_password_after_too_many_failures(
    client, settings, olivia
):
    assert settings.AXES_ENABLED
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _log_in(client, "wrong").status_code == 200  # the form, with its error
    response = _log_in(client, "wrong")
    assert response.status_code == 429

    response = _log_in(client, "correct-horse-42")

    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed log-ins" in text
    assert "even with the right password" in text
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("ratings:officer-home")).status_code == 302


def test_a_username_longer_than_any_login_is_refused_as_a_wrong_login(client, db):
    """Counted under its first 255 characters, the column's size: not a 500 on PostgreSQL."""
    from axes.models import AccessAttempt

    response = client.post(reverse("login"), {"username": "8" * 400, "password": "x"})
    assert response.status_code == 200 and response.context["form"].errors
    assert AccessAttempt.objects.get().username == "8" * 255


def test_a_lockout_is_for_the_username_from_that_address_only(client, settings, olivia):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _log_in(client, "wrong")
    response = _log_in(client, "correct-horse-42", address="10.0.0.8")
    assert response.status_code == 302
    assert client.get(reverse("ratings:officer-home")).status_code == 200


def test_a_right_password_before_the_limit_logs_in_and_clears_the_count(client, settings, olivia):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _log_in(client, "wrong")
    assert _log_in(client, "correct-horse-42").status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _log_in(client, "wrong").status_code == 200
    assert _log_in(client, "correct-horse-42").status_code == 302


def test_behind_a_proxy_the_lockout_counts_the_client_address_the_proxy_saw(rf, settings):
    from clubratings.security import client_ip

    request = rf.post("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 10.1.1.1")
    assert client_ip(request) == "127.0.0.1"
    settings.PROXY_COUNT = 1
    assert client_ip(request) == "10.1.1.1"  # the spoofed left entry is never used
