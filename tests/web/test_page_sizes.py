"""A page size or page number in the address is read tolerantly on every list: a bad one is
the page's own size or the first page, one past the end the last page; never a 500."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from ratings.presentation.paging import MOST_PER_PAGE, page_number, page_size

from .matrix_club import build_club, every_pattern, url_for

pytestmark = pytest.mark.django_db

#: In the address of every page but the admin (whose lists page with ``p``, its own way).
BAD = ["-1", "0", "abc", "99999999999999999999999"]


@pytest.mark.parametrize("text", ["-1", "0", "abc", "", None, "2.5"])
def test_a_page_size_not_a_whole_number_from_1_is_the_page_s_own(text) -> None:
    assert page_size(text, default=50) == 50


def test_a_page_size_past_the_most_is_the_most_and_one_within_is_kept() -> None:
    assert page_size("99999999999999999999999", default=50) == MOST_PER_PAGE
    assert page_size("7", default=50) == 7


@pytest.mark.parametrize("text", ["abc", "", None])
def test_a_page_number_not_a_number_is_the_first_page(text) -> None:
    assert page_number(text) == 1


@pytest.mark.parametrize("text", ["0", "-1", "99999999999999999999999"])
def test_a_page_number_under_1_or_past_any_list_is_past_the_end(text) -> None:
    assert page_number(text) > 1


@pytest.mark.parametrize("role", ["anonymous", "officer"])
def test_no_list_answers_500_to_a_bad_page_size_or_number(role) -> None:
    club = build_club()
    client = Client(raise_request_exception=False)
    if club.users[role] is not None:
        client.force_login(club.users[role])
    failed = []
    for pattern in every_pattern():
        if pattern.route.startswith("admin"):
            continue
        url = url_for(pattern, club)
        join = "&" if "?" in url else "?"
        for value in BAD:
            for name in ("per_page", "page"):
                with transaction.atomic():
                    response = client.get(f"{url}{join}{name}={value}")
                    transaction.set_rollback(True)
                if response.status_code >= 500:
                    failed.append(f"{url}{join}{name}={value}: {response.status_code}")
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("name", ["ratings:list", "ratings:officer-members"])
def test_a_negative_page_size_shows_the_list_at_its_own_size(officer_client, name) -> None:
    response = officer_client.get(reverse(name) + "?per_page=-1")
    assert response.status_code == 200
    assert response.context["table"].paginator.per_page == 50
