"""Every response carries a strict Content-Security-Policy and a Permissions-Policy, and
no page needs more than the policy allows: no inline script, style or event attribute."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.urls import reverse

from ratings.models import Game, RatingRun

from ..factories import paid_up
from .test_officer_access import officer_urls

pytestmark = pytest.mark.django_db

#: What a page would need 'unsafe-inline' for.
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.IGNORECASE
)


def test_a_public_page_has_a_strict_content_security_policy(client):
    response = client.get(reverse("ratings:list"))
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]


def test_a_public_page_denies_the_camera_microphone_and_position(client):
    policy = client.get(reverse("ratings:list"))["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy


def test_the_admin_has_the_same_headers(admin_client, club):
    for url in (
        reverse("admin:index"),
        reverse("admin:ratings_clubsettings_change", args=[club.pk]),
    ):
        response = admin_client.get(url)
        assert response.status_code == 200
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert "camera=()" in response["Permissions-Policy"]


@pytest.fixture
def record(rated_event, club, current_season, alice, bob, carol):
    paid_up(alice, current_season)
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, "1/2-1/2")])
    return event


def _assert_no_inline(response, url):
    if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
        return
    found = INLINE.search(response.content.decode())
    assert found is None, f"{url}: {found.group()!r} needs an inline allowance"


def test_no_public_or_officer_page_needs_an_inline_script_or_style(officer_client, record, alice):
    public = [
        reverse("ratings:home"),
        reverse("ratings:list"),
        reverse("ratings:member", args=[alice.member_number]),
        reverse("ratings:event", args=[record.pk]),
        reverse("ratings:reports"),
        reverse("ratings:report", args=["top"]),
        reverse("ratings:calculator"),
        reverse("login"),
    ]
    assert RatingRun.objects.exists()
    for url in [*public, *officer_urls(record, alice)]:
        _assert_no_inline(officer_client.get(url), url)


def test_no_admin_page_needs_an_inline_script_or_style(admin_client, record):
    def url(model, view, *args):
        opts = model._meta
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=args)

    pages = [reverse("admin:index")]
    for model in admin.site._registry:
        pages += [url(model, "changelist"), url(model, "add")]
        obj = model.objects.first()
        if obj is None:
            continue
        pages += [url(model, "change", obj.pk), url(model, "delete", obj.pk)]
        if hasattr(obj, "history"):
            pages.append(url(model, "history", obj.pk))
            pages.append(url(model, "simple_history", obj.pk, obj.history.latest().history_id))
    for page in pages:
        _assert_no_inline(admin_client.get(page, follow=True), page)
