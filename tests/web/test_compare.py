"""Which system fits the club (issue 19): the comparison run, its pages and who sees them."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ratings.engine import SYSTEMS
from ratings.models import Comparison, ComparisonRating, Game, RatingChange, RatingState
from ratings.services import compare

from ..factories import MemberFactory, SubscriptionFactory

pytestmark = pytest.mark.django_db
WIN, DRAW = Game.Result.WHITE_WIN, Game.Result.DRAW


@pytest.fixture
def history(rated_event, alice, bob, carol, current_season):
    """Two club nights: Alice beats Bob, then draws with him; Carol beats Alice.
    Alice and Bob are paid up (published); Carol is not."""
    for member in (alice, bob):
        SubscriptionFactory(member=member, season=current_season)
    rated_event([(1, alice, bob, WIN)], date=dt.date(2026, 3, 2), name="Night 1")
    rated_event([(1, alice, bob, DRAW), (2, carol, alice, WIN)], date=dt.date(2026, 3, 9))
    return alice, bob, carol


def run() -> Comparison:
    comparison = compare.comparison_start(params=None)
    comparison = Comparison.objects.get(pk=comparison.pk)
    if comparison.status == Comparison.Status.QUEUED:  # not run by a commit hook in a test
        compare.comparison_run(comparison=comparison)
    comparison.refresh_from_db()
    return comparison


def snapshot():
    changes = list(RatingChange.objects.order_by("pk").values_list("member", "before", "after"))
    states = list(RatingState.objects.order_by("pk").values_list("member", "rating", "updated"))
    return changes, states


def test_a_comparison_leaves_the_live_ratings_untouched(history):
    before = snapshot()
    comparison = run()
    assert comparison.status == Comparison.Status.DONE
    assert snapshot() == before


def test_expected_scores_come_from_the_ratings_before_each_event(history):
    # nz-club-elo: night 1 at 1500 each, E 0.5, Alice wins: deviance log10 2 = 0.301030.
    # After it Alice 1516, Bob 1484 (K 32 x 0.5). Night 2 Alice v Bob, E(Alice) =
    # 1 / (1 + 10^(-32/400)) = 0.545922, a draw: -(0.5 log10 0.545922 + 0.5 log10 0.454078)
    # = 0.5 (0.262868 + 0.342871) = 0.302869; Carol (1500) v Alice (1516): E(Carol) =
    # 1 / (1 + 10^(16/400)) = 0.476990, Carol wins: -log10 0.476990 = 0.321490.
    # Mean (0.301030 + 0.302869 + 0.321490) / 3 = 0.308463.
    e = 1 / (1 + 10 ** (-32 / 400))
    assert e == pytest.approx(0.545922, abs=1e-6)
    nz = run().results["systems"]["nz-club-elo"]
    assert nz["games"] == 3
    assert nz["deviance"] == pytest.approx(0.308463, abs=1e-6)
    assert run().results["baseline"]["deviance"] == pytest.approx(math.log10(2))


def test_members_are_ranked_among_the_published_only(history):
    alice, bob, carol = history
    comparison = run()
    ranks = dict(
        ComparisonRating.objects.filter(comparison=comparison, system="nz-club-elo").values_list(
            "member", "rank"
        )
    )
    assert ranks[carol.pk] is None
    assert {ranks[alice.pk], ranks[bob.pk]} == {1, 2}


def test_the_officer_starts_a_comparison_and_reads_its_results(
    officer_client, history, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the task, once committed
        response = officer_client.post(reverse("ratings:compare"), {})
    comparison = Comparison.objects.get()
    assert response.url == reverse("ratings:compare-detail", args=[comparison.pk])
    page = officer_client.get(response.url)
    comparison.refresh_from_db()
    assert comparison.status == Comparison.Status.DONE
    assert b"How well each system predicted" in page.content
    assert page.content.count(b'class="calibration-chart"') == len(SYSTEMS)
    assert b"Everyone equal (0.5)" in page.content


def test_trial_parameters_are_run_and_shown(
    officer_client, history, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        officer_client.post(reverse("ratings:compare"), {"params_nz_club_elo": '{"k_new": 24}'})
    comparison = Comparison.objects.get()
    assert comparison.params["nz-club-elo"] == {"k_new": 24}
    page = officer_client.get(reverse("ratings:compare-detail", args=[comparison.pk]))
    assert b"{&quot;k_new&quot;: 24}" in page.content


def test_bad_trial_parameters_are_refused_at_their_system_and_nothing_starts(
    officer_client, history
):
    response = officer_client.post(
        reverse("ratings:compare"), {"params_st_charles": '{"divisor": 0, "colour": 1}'}
    )
    assert response.status_code == 200
    assert Comparison.objects.count() == 0
    errors = response.context["form"].errors["params_st_charles"]
    assert any("divisor" in e for e in errors) and any("colour" in e for e in errors)


def test_the_public_page_is_not_found_until_the_officer_publishes(client, officer_client, history):
    comparison = run()
    assert client.get(reverse("ratings:compare-public")).status_code == 404
    officer_client.post(reverse("ratings:compare-publish", args=[comparison.pk]), {"publish": "1"})
    assert client.get(reverse("ratings:compare-public")).status_code == 200
    officer_client.post(reverse("ratings:compare-publish", args=[comparison.pk]), {"publish": "0"})
    assert client.get(reverse("ratings:compare-public")).status_code == 404


def test_the_public_page_shows_no_unpublished_member(client, history):
    alice, _bob, carol = history
    comparison = run()
    compare.comparison_publish(comparison=comparison, publish=True)
    page = client.get(reverse("ratings:compare-public"))
    assert alice.name.encode() in page.content
    assert carol.name.encode() not in page.content
    chart = client.get(reverse("ratings:compare-public"), {"member": carol.member_number})
    assert carol.name.encode() not in chart.content
    assert b"No published member has the number" in chart.content


def test_a_members_chart_draws_a_line_per_system(client, history):
    alice = history[0]
    compare.comparison_publish(comparison=run(), publish=True)
    page = client.get(reverse("ratings:compare-public"), {"member": alice.member_number})
    # Every system but acf-1993 (ecf-2020 a P rating after the month), which gives no
    # rating yet: no opponent had a usable one, so no game counted.
    assert page.content.count(b'<polyline class="line series-') == len(SYSTEMS) - 1


def test_a_members_chart_is_found_by_their_number_in_any_case(client, history):
    alice = history[0]
    compare.comparison_publish(comparison=run(), publish=True)
    page = client.get(reverse("ratings:compare-public"), {"member": alice.member_number.lower()})
    assert b"No published member has the number" not in page.content
    assert page.content.count(b'<polyline class="line series-') == len(SYSTEMS) - 1


@pytest.mark.parametrize(
    "name", ["compare", "compare-detail", "compare-status", "compare-publish"]
)
def test_officer_pages_need_the_officer_permission(client, history, name):
    comparison = run()
    url = reverse(f"ratings:{name}", args=[] if name == "compare" else [comparison.pk])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(User.objects.create_user("member", password="pw-12345678"))
    assert client.get(url).status_code == 403


def test_the_status_reports_progress_for_the_progress_bar(officer_client, history):
    comparison = run()
    data = officer_client.get(reverse("ratings:compare-status", args=[comparison.pk])).json()
    assert data["status"] == "done" and data["progress"] == 100 and data["finished"]


def test_the_switch_links_to_the_club_settings_with_the_system_chosen(admin_client, history):
    comparison = run()
    page = admin_client.get(reverse("ratings:compare-detail", args=[comparison.pk]))
    link = next(s["url"] for s in page.context["switches"] if "St. Charles" in s["title"])
    settings_page = admin_client.get(link)
    assert settings_page.context["adminform"].form["rating_system"].value() == "st-charles"


def test_an_officer_who_may_not_change_the_settings_is_told_who_switches(officer_client, history):
    comparison = run()
    page = officer_client.get(reverse("ratings:compare-detail", args=[comparison.pk]))
    assert b"Only the administrator can change" in page.content


def test_the_officer_home_links_to_the_comparison(officer_client):
    page = officer_client.get(reverse("ratings:officer-home"))
    assert reverse("ratings:compare").encode() in page.content


def _club_of(size, rated_event, season):
    members = MemberFactory.create_batch(size)
    for member in members:
        SubscriptionFactory(member=member, season=season)
    for week in range(1, 4):
        pairs = list(zip(members[::2], members[1::2], strict=True))
        rated_event(
            [(1, white, black, WIN if week % 2 else DRAW) for white, black in pairs],
            date=dt.date(2026, 2, week * 7),
        )


@pytest.mark.parametrize("size", [10, 40])
def test_the_results_pages_read_a_fixed_number_of_queries(
    size, officer_client, client, rated_event, current_season, django_assert_max_num_queries
):
    _club_of(size, rated_event, current_season)
    comparison = run()
    differ = comparison.results["differ"]
    assert differ  # members ranked differently under some system
    compare.comparison_publish(comparison=comparison, publish=True)
    detail = reverse("ratings:compare-detail", args=[comparison.pk])
    with django_assert_max_num_queries(20):
        assert officer_client.get(detail).status_code == 200
    with django_assert_max_num_queries(16):
        assert client.get(reverse("ratings:compare-public")).status_code == 200


def test_a_queued_comparison_shows_its_progress_bar(officer_client, history):
    comparison = compare.comparison_start(params=None)  # the worker has not taken it up
    page = officer_client.get(reverse("ratings:compare-detail", args=[comparison.pk]))
    assert b'id="compare-progress"' in page.content
    assert b"Waiting for the worker" in page.content


def test_a_comparison_in_progress_announces_its_status_to_a_screen_reader(officer_client, history):
    comparison = compare.comparison_start(params=None)
    page = officer_client.get(reverse("ratings:compare-detail", args=[comparison.pk]))
    assert (
        b'<p role="status" aria-live="polite" aria-atomic="true"><span data-field="status">'
        in page.content
    )


def test_the_command_compares_now_and_prints_the_measures(history):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("compare_systems", "--params", '{"nscl": {"start_rating": 800}}', stdout=out)
    comparison = Comparison.objects.get()
    assert comparison.status == Comparison.Status.DONE
    assert comparison.params["nscl"] == {"start_rating": 800}
    assert "Everyone equal (0.5)" in out.getvalue() and "0.3010" in out.getvalue()


def test_the_command_refuses_unknown_parameters_and_runs_nothing(history):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="colour"):
        call_command("compare_systems", "--params", '{"nscl": {"colour": 1}}')
    assert not Comparison.objects.exists()


def test_the_home_page_links_to_the_comparison_once_published(client, history):
    comparison = run()
    assert reverse("ratings:compare-public").encode() not in client.get("/").content
    compare.comparison_publish(comparison=comparison, publish=True)
    assert reverse("ratings:compare-public").encode() in client.get("/").content
