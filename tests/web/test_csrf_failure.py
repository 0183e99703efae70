"""A form refused for its security token gets the site's own page (CSRF_FAILURE_VIEW):
in the site's layout and style, under its CSP, saying what to do; 403, nothing saved."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Member

pytestmark = pytest.mark.django_db


def test_a_form_sent_without_its_token_gets_the_sites_own_403_page(officer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(officer)
    response = client.post(
        reverse("ratings:officer-member-add"), {"name": "Erin Evans", "member_number": "E5"}
    )
    assert response.status_code == 403
    assert [t.name for t in response.templates][:2] == ["403_csrf.html", "base.html"]
    page = response.content.decode()
    assert "The form could not be sent" in page and "reload the page" in page
    assert "Forbidden <span>(403)" not in page  # Django's own page
    # Rendered with the request, as every page of the site: its navigation knows the
    # reader (Django's own view renders the template without them).
    assert "Log out olivia" in page
    assert "Content-Security-Policy" in response.headers
    assert not Member.objects.exists()


def test_a_sign_in_without_its_token_is_told_to_open_the_login_again(officer):
    response = Client(enforce_csrf_checks=True).post(
        reverse("login"), {"username": "olivia", "password": "correct-horse-42"}
    )
    assert response.status_code == 403
    assert reverse("login") in response.content.decode()
    assert "_auth_user_id" not in response.wsgi_request.session
