"""glicko-2, added in the engine alone, in a small club: chosen on the club settings page,
rated by a full re-rate once its periods close, and run by the comparison of systems."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Comparison, Game, RatingState
from ratings.services import compare
from ratings.services.accounts import administrator_create

from ..factories import paid_up

pytestmark = pytest.mark.django_db

WIN, DRAW = Game.Result.WHITE_WIN, Game.Result.DRAW


@pytest.fixture
def march(rated_event, alice, bob, carol, current_season):
    """March 2026: Alice beats Bob, then draws with Carol; all three paid up."""
    for member in (alice, bob, carol):
        paid_up(member, current_season)
    night = rated_event([(1, alice, bob, WIN)], date=dt.date(2026, 3, 2), name="Night 1")
    rated_event([(1, alice, carol, DRAW)], date=dt.date(2026, 3, 9), name="Night 2")
    return alice, bob, carol, night


def test_the_club_settings_offer_glicko_2(client):
    client.force_login(administrator_create(username="root", password="root-pass-42"))
    form = client.get(reverse("ratings:officer-settings")).context["form"]
    assert ("glicko-2", "Glicko-2 (Glickman's example)") in form.fields["rating_system"].choices


def test_a_club_switched_to_glicko_2_is_re_rated_in_full(march):
    alice, bob, _carol, night = march
    services.rating_system_set(system_id="glicko-2")
    services.period_close(period=services.period_for(night, ClubSettings.load().engine()))
    states = {s.member_id: s for s in RatingState.objects.filter(time_class="standard")}
    # One period, rated together: Alice (a win and a draw) up, Bob (a loss) down.
    assert ClubSettings.load().rating_system == "glicko-2"
    assert states[alice.pk].rating > 1500 > states[bob.pk].rating
    assert states[alice.pk].state["deviation"] < 350
    assert states[alice.pk].display.endswith("p")  # RD still above 110 after two games


def test_the_pages_show_a_glicko_2_rating_and_its_working(client, march):
    alice, _bob, _carol, night = march
    services.rating_system_set(system_id="glicko-2")
    services.period_close(period=services.period_for(night, ClubSettings.load().engine()))
    shown = RatingState.objects.get(member=alice, time_class="standard").display
    listed = client.get(reverse("ratings:list"))
    assert listed.status_code == 200 and shown in listed.content.decode()
    member = client.get(reverse("ratings:member", args=[alice.member_number]))
    assert "provisional" in member.content.decode()
    report = client.get(reverse("ratings:event-report", args=[night.pk]))
    assert "New rating deviation (RD′)" in report.content.decode()


def test_a_glicko_2_report_reads_its_figures_in_glickmans_words_never_as_their_keys(client, march):
    _alice, _bob, _carol, night = march
    services.rating_system_set(system_id="glicko-2")
    services.period_close(period=services.period_for(night, ClubSettings.load().engine()))
    page = client.get(reverse("ratings:event-report", args=[night.pk])).content.decode()
    for key in ("Deviation before", "Volatility after", "Inactive periods", "Opponent deviation"):
        assert key not in page
    assert "Rating deviation as the period opened (RD)" in page and "g(φj)" in page


def test_the_comparison_runs_glicko_2_with_the_others(march):
    comparison = compare.comparison_start(params=None)
    comparison = Comparison.objects.get(pk=comparison.pk)
    if comparison.status == Comparison.Status.QUEUED:  # not run by a commit hook in a test
        compare.comparison_run(comparison=comparison)
    comparison.refresh_from_db()
    glicko = comparison.results["systems"]["glicko-2"]
    assert glicko["games"] == 2
    assert 0 < glicko["deviance"] < 1
