"""Every page leads to the public pages; every officer page leads to the officer's pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["ratings:home", "ratings:list", "ratings:reports"])
def test_every_public_page_links_to_the_reports_and_the_calculator(client, officer, page):
    # ``officer``: a club already started (a fresh install's home is its first-run page).
    html = client.get(reverse(page)).content.decode()
    assert f'href="{reverse("ratings:reports")}"' in html
    assert f'href="{reverse("ratings:calculator")}"' in html


def test_officer_pages_link_to_the_reports_and_the_calculator_too(officer_client):
    html = officer_client.get(reverse("ratings:officer-events")).content.decode()
    assert f'href="{reverse("ratings:reports")}"' in html
    assert f'href="{reverse("ratings:calculator")}"' in html


def test_the_officer_pages_link_to_the_log_of_rating_runs(officer_client):
    html = officer_client.get(reverse("ratings:officer-members")).content.decode()
    assert f'href="{reverse("ratings:runs")}"' in html


def test_the_officer_home_links_each_recent_run_to_its_page(officer_client, officer):
    run = services.ratings_rerate(services.RerateRequest(user=officer, reason="from scratch"))
    html = officer_client.get(reverse("ratings:officer-home")).content.decode()
    assert f'href="{reverse("ratings:run", args=[run.pk])}"' in html
