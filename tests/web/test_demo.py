"""load_demo: a believable club to look at, rated through the services, loaded once."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from ratings.management.commands import load_demo
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Member,
    Publication,
    RatingChange,
    RatingRun,
)

from ..conftest import made_once_for_the_class
from ..savepoints import rolled_back

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="class")
def demo(django_db_setup, django_db_blocker) -> Iterator[str]:
    """The demo club, made once for the tests of ``TestTheDemoClub`` (made for each, it
    was 16 times 0.25 to 0.55 s of set-up)."""
    with made_once_for_the_class(django_db_blocker):
        out = io.StringIO()
        call_command("load_demo", "--force", stdout=out)
        yield out.getvalue()


def arrears() -> list[Member]:
    today = timezone.localdate()
    members = Member.objects.active().with_financial(today).filter(is_guest=False)
    return [m for m in members if not m.is_financial and m.subscriptions.exists()]


class TestTheDemoClub:
    """The club load_demo makes, made once for these tests, which read it."""

    def test_the_demo_club_has_sixty_members_and_some_guests(self, demo):
        assert Member.objects.filter(is_guest=False).count() >= 60
        assert Member.objects.filter(is_guest=True).count() >= 3
        assert ClubSettings.load().name == "Riverside Chess Club"

    def test_several_demo_members_are_in_arrears(self, demo):
        assert len(arrears()) >= 5

    def test_the_published_list_has_the_financial_members_and_no_one_else(self, demo):
        published = set(Member.objects.published())
        assert len(published) >= 50
        assert not published & set(arrears())
        assert not any(m.is_guest for m in published)

    def test_the_demo_has_juniors_women_and_titled_players(self, demo):
        today = timezone.localdate()
        ages = [m.age_on(today) for m in Member.objects.exclude(born=None)]
        assert sum(age < 18 for age in ages) >= 8
        assert Member.objects.filter(gender="F").count() >= 10
        assert Member.objects.exclude(title="").exclude(fide_id="").count() >= 2

    def test_every_complete_rated_demo_event_is_rated_in_one_run(self, demo):
        rated = Event.objects.filter(rated=True, status=Event.Status.COMPLETE)
        assert rated.count() >= 10
        assert not rated.filter(rating_changes__isnull=True).exists()
        assert RatingRun.objects.count() == 1

    def test_the_demo_has_every_kind_of_event_byes_forfeits_and_an_unrated_blitz(self, demo):
        kinds = set(Event.objects.values_list("kind", flat=True))
        assert {"club-night", "swiss", "round-robin", "match"} <= kinds
        results = set(Game.objects.values_list("result", flat=True))
        assert Game.Result.BYE in results
        assert results & {Game.Result.WHITE_FORFEIT_WIN, Game.Result.BLACK_FORFEIT_WIN}
        assert Event.objects.filter(rated=False, status=Event.Status.COMPLETE).exists()

    def test_one_demo_event_is_left_for_the_officer_to_finish(self, demo):
        draft = Event.objects.get(status=Event.Status.DRAFT)
        assert draft.games.exists()
        assert draft.games.order_by("-round").first().round < draft.rounds
        assert not RatingChange.objects.filter(event=draft).exists()

    def test_ratings_spread_out_from_the_start_rating(self, demo):
        ratings = [
            m.rating_state.rating
            for m in Member.objects.published().with_state().select_related("rating_state")
        ]
        assert max(ratings) - min(ratings) > 600

    def test_the_demo_officer_is_an_officer_and_staff_but_not_a_superuser(self, demo):
        officer = User.objects.get(username="officer")
        assert officer.check_password("officer-demo-2026")
        assert officer.has_perm("ratings.officer")
        assert officer.has_perm("ratings.change_game")
        assert officer.is_staff and not officer.is_superuser
        assert "officer / officer-demo-2026" in demo

    def test_the_demo_admin_is_a_superuser(self, demo):
        assert User.objects.get(username="admin").is_superuser
        assert "admin / admin-demo-2026" in demo

    def test_load_demo_if_empty_does_nothing_the_second_time_but_print_the_logins(
        self, demo, monkeypatch
    ):
        monkeypatch.setattr(load_demo, "is_demo_database", lambda: True)
        members, games = Member.objects.count(), Game.objects.count()
        out = io.StringIO()
        call_command("load_demo", "--if-empty", stdout=out)
        assert (Member.objects.count(), Game.objects.count()) == (members, games)
        assert "officer / officer-demo-2026" in out.getvalue()

    def test_load_demo_refuses_a_database_with_members(self, demo):
        with pytest.raises(CommandError, match=r"already holds 7[0-9] members"):
            call_command("load_demo", "--force", stdout=io.StringIO())

    def test_the_demo_keeps_rapid_on_a_list_of_its_own(self, demo):
        from ratings.models import RatingList, RatingState

        assert RatingList.objects.get(time_class="rapid", online=False).kept == RatingList.Kept.OWN
        rapid = RatingChange.objects.filter(time_class="rapid")
        assert rapid.values("event").distinct().count() == 4
        assert not rapid.exclude(event__time_class="rapid").exists()
        assert RatingState.objects.filter(time_class="rapid", games__gt=0).count() >= 20

    def test_the_demo_rates_its_lichess_evenings_on_the_online_rapid_list_alone(
        self, client, demo
    ):
        online = RatingChange.objects.filter(time_class="online-rapid")
        assert online.values("event").distinct().count() == 3
        assert not online.exclude(event__online=True).exists()
        assert not RatingChange.objects.filter(event__online=True).exclude(
            time_class="online-rapid"
        )
        published = Publication.objects.get(time_class="online-rapid")
        assert published.entries.filter(rank__isnull=False).count() >= 10
        page = client.get("/ratings/live/", {"list": "online-rapid"}).content.decode()
        assert "Online rapid rating list" in page

    def test_the_demo_publishes_its_lists_before_the_season_and_now(self, demo):
        standard = list(Publication.objects.filter(time_class="standard").order_by("published_at"))
        assert len(standard) == 2
        before, now = standard
        first_event = Event.objects.order_by("start_date").first()
        assert before.day < first_event.start_date
        assert now.day == timezone.localdate()
        assert before.size >= 30 and now.size >= 50
        # Before the season: the ratings members brought, nothing rated yet.
        brought = before.entries.values_list("display", "member__initial_rating")
        assert all(float(shown) == rating for shown, rating in brought)
        assert "4 lists published" in demo

    def test_the_demo_publishes_the_rapid_list_with_its_own_ratings(self, demo):
        rapid = Publication.objects.get(time_class="rapid")
        assert rapid.day == timezone.localdate()
        ranked = rapid.entries.filter(rank__isnull=False)
        assert ranked.count() >= 20
        ratings = dict(ranked.values_list("member_id", "display"))
        live = dict(
            Member.objects.filter(pk__in=ratings, rating_states__time_class="rapid").values_list(
                "pk", "rating_states__display"
            )
        )
        assert ratings == live

    def test_a_visitor_of_the_demo_sees_the_seasons_changes(self, client, demo):
        latest = Publication.objects.filter(time_class="standard").latest("published_at")
        assert "published" in client.get("/ratings/").content.decode()
        page = client.get(f"/ratings/published/{latest.slug}/changes/")
        assert page.status_code == 200
        counts = page.context["counts"]
        assert counts["rose"] >= 10 and counts["fell"] >= 10
        assert page.context["changes"].improvers
        assert '<svg class="changes-chart"' in page.content.decode()
        rapid = Publication.objects.get(time_class="rapid")
        assert client.get(rapid.get_absolute_url()).status_code == 200


def test_load_demo_refuses_a_database_that_is_not_the_demos():
    with pytest.raises(CommandError, match="not the demo's"):
        call_command("load_demo", stdout=io.StringIO())
    assert not Member.objects.exists() and not User.objects.exists()


def test_load_demo_refuses_a_real_club_even_with_if_empty(monkeypatch, officer, alice):
    monkeypatch.setattr(load_demo, "is_demo_database", lambda: True)
    with pytest.raises(CommandError, match="already holds 1 member, 1 login"):
        call_command("load_demo", "--if-empty", stdout=io.StringIO())
    assert list(Member.objects.all()) == [alice]
    assert list(User.objects.values_list("username", flat=True)) == [officer.username]


def test_make_run_serves_the_demo_from_a_database_of_its_own():
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    run = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert "DATABASE_URL=$(DEMO_DATABASE_URL)" in makefile
    assert all("$(RUN_ENV)" in line for line in run.splitlines()[1:] if "manage.py" in line)


def test_the_demo_is_the_same_club_every_time():
    def games() -> list[tuple[str, str, str]]:
        return list(
            Game.objects.order_by("pk").values_list("white__name", "black__name", "result")
        )

    # The first load is undone by rolling its savepoint back, so the second starts from
    # the same empty club. (Deleting the club instead ran the figures' signals for each
    # of its 117 members: 3.5 s of the test's 4.3.)
    with rolled_back():
        call_command("load_demo", "--force", stdout=io.StringIO())
        first = games()
        assert first
    assert not Game.objects.exists()
    call_command("load_demo", "--force", stdout=io.StringIO())
    assert games() == first


def test_the_demo_club_can_be_loaded_on_a_period_system():
    call_command("load_demo", "--force", "--system", "ecf-2020", stdout=io.StringIO())
    assert RatingChange.objects.exists()
