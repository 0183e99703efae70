"""The admin opens for every model; derived ratings are read-only; settings are one row."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib import admin
from django.urls import reverse

from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
)

from ..factories import MemberFactory, SubscriptionFactory, paid_up
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def record(rated_event, club, alice, bob, carol, season):
    """One of everything: a rated event with games and entries, a subscription, a run."""
    paid_up(alice, season)
    SubscriptionFactory(member=bob, season=season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (2, carol, alice, Game.Result.DRAW)])
    return club


def _url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_registered_model_opens_its_list_add_and_change_pages(admin_client, record):
    for model, model_admin in admin.site._registry.items():
        response = admin_client.get(_url(model, "changelist"), follow=True)
        assert response.status_code == 200, model
        if model_admin.has_add_permission(response.wsgi_request):
            assert admin_client.get(_url(model, "add")).status_code == 200, model
        obj = model_admin.get_queryset(response.wsgi_request).first()
        if obj is not None:
            assert admin_client.get(_url(model, "change", obj.pk)).status_code == 200, model
            history = admin_client.get(_url(model, "history", obj.pk))
            assert history.status_code == 200, model


def test_every_model_of_the_club_is_registered():
    from django.apps import apps

    models = apps.get_app_config("ratings").get_models()
    unregistered = {m.__name__ for m in models if m not in admin.site._registry}
    assert {name for name in unregistered if not name.startswith("Historical")} == set()


@pytest.mark.parametrize("model", [RatingState, RatingChange, RatingRun])
def test_derived_ratings_can_be_viewed_but_not_added_changed_or_deleted(
    admin_client, record, model
):
    obj = model.objects.first()
    page = admin_client.get(_url(model, "change", obj.pk))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.get(_url(model, "add")).status_code == 403
    assert admin_client.get(_url(model, "delete", obj.pk)).status_code == 403


def test_club_settings_is_one_row_with_no_add_or_delete(admin_client, club):
    assert admin_client.get(_url(ClubSettings, "add")).status_code == 403
    assert admin_client.get(_url(ClubSettings, "delete", club.pk)).status_code == 403
    response = admin_client.get(_url(ClubSettings, "changelist"))
    assert response.url == _url(ClubSettings, "change", club.pk)


@pytest.mark.parametrize("model", [Member, Event, Game, RatingChange, RatingRun])
def test_admin_lists_do_not_query_per_row(
    admin_client, record, rated_event, model, django_assert_max_num_queries
):
    members = MemberFactory.create_batch(20)
    for week in range(1, 6):
        pairs = zip(members[::2], members[1::2], strict=True)
        rated_event(
            [(1, white, black, Game.Result.DRAW) for white, black in pairs],
            date=dt.date(2026, 4, week),
        )
    with django_assert_max_num_queries(15):
        assert admin_client.get(_url(model, "changelist")).status_code == 200


def test_adding_a_member_in_the_admin_under_a_members_name_warns(admin_client, alice):
    url = reverse("admin:ratings_member_add")
    data = admin_form(admin_client.get(url))
    data.update(member_number="A7", name="Alice Archer", initial_games=0)
    response = admin_client.post(url, data, follow=True)
    assert Member.objects.filter(member_number="A7").exists()
    shown = [str(m) for m in response.context["messages"]]
    assert any("Another member is also called Alice Archer (A1)" in m for m in shown)


def test_a_requests_pending_rerate_keeps_the_earliest_place_noted(rf):
    from ratings.admin.base import pending_rerate

    request = rf.post("/admin/")
    for start in [(dt.date(2026, 3, 2), dt.date(2026, 3, 2), 7), None]:
        pending_rerate(request).note(start)
    pending_rerate(request).note((dt.date(2026, 1, 5), dt.date(2026, 1, 5), 3))
    assert pending_rerate(request).start == (dt.date(2026, 1, 5), dt.date(2026, 1, 5), 3)
    assert pending_rerate(rf.post("/admin/")).start is None  # another request owes nothing


def test_a_pending_rerate_with_nothing_noted_runs_nothing(rf, club):
    from ratings.admin.base import PendingRerate

    runs = RatingRun.objects.count()
    PendingRerate().rerate(rf.post("/admin/"), "nothing changed")
    assert RatingRun.objects.count() == runs
