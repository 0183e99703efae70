"""An error page's title says it is an error, and which: a screen reader announces the
title first, and a tab or a bookmark shows only the title."""

from __future__ import annotations

import re

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from ..factories import officer_user

pytestmark = pytest.mark.django_db


def title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found, "the page has no title"
    return " ".join(found.group(1).split())


def test_a_page_not_found_is_titled_as_error_404(client, db):
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert title(page.content.decode()).startswith("Not found (error 404) · ")


def test_an_officer_page_refused_is_titled_as_error_403(client, db):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("visitor"))
    page = client.get(reverse("ratings:officer-members"))
    assert page.status_code == 403
    assert title(page.content.decode()).startswith("Not allowed (error 403) · ")


def test_a_form_sent_without_its_token_is_titled_as_error_403(db):
    page = Client(enforce_csrf_checks=True).post(reverse("login"), {"username": "x"})
    assert page.status_code == 403
    assert title(page.content.decode()).startswith("Form not accepted (error 403) · ")


def test_a_server_error_is_titled_as_error_500(db):
    page = server_error(RequestFactory().get("/"))
    assert title(page.content.decode()) == "Server error (error 500) · Club Ratings"


# -- A form that comes back with errors: "Error: " leads its page's title (WCAG 3.3.1) -----


def test_an_officer_form_sent_with_errors_is_titled_error(client, db):
    client.force_login(officer_user())
    page = client.post(reverse("ratings:officer-event-add"), {"name": ""})
    assert page.status_code == 200
    assert title(page.content.decode()).startswith("Error: ")


def test_an_officer_form_not_yet_sent_is_not_titled_error(client, db):
    client.force_login(officer_user())
    page = client.get(reverse("ratings:officer-event-add"))
    assert not title(page.content.decode()).startswith("Error")


def test_a_login_refused_is_titled_error(client, db):
    page = client.post(reverse("login"), {"username": "nobody", "password": "wrong"})
    assert page.status_code == 200
    assert title(page.content.decode()).startswith("Error: ")


def test_the_calculator_asked_with_a_game_left_blank_is_titled_error(client, club):
    page = client.get(
        reverse("ratings:calculator"),
        {
            "go": "1",
            "p-rating": "1500",
            "g-TOTAL_FORMS": 1,
            "g-INITIAL_FORMS": 0,
            "g-0-result": "1",
        },
    )
    assert "error-summary" in page.content.decode()
    assert title(page.content.decode()).startswith("Error: ")
