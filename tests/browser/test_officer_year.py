"""An officer's year in Chromium: subscriptions kept on the officer's pages, a club brought
in from a members CSV with its ratings, a period closed early refused; and the pages
these touch at phone and desktop widths."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ratings import services
from ratings.models import ClubSettings, Event, Game, Member, Subscription

from ..factories import EventFactory, MemberFactory, SeasonFactory, officer_user, paid_up
from ..web.test_officer_import import CLUB_NIGHT
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_officer_records_and_takes_back_a_payment(page, current_season, alice, bob):
    officer_user()
    paid_up(bob, current_season)
    log_in(page)
    page.goto("/officer/members/")
    page.get_by_role("link", name="In arrears").click()
    page.get_by_role("link", name="Alice Archer").click()
    page.get_by_role("button", name="Record payment").click()
    page.wait_for_selector("text=Alice Archer has paid for")
    assert page.locator(".subscription-audit").get_by_text("Payment recorded").is_visible()
    page.get_by_role("link", name=f"Remove the payment for {current_season.name}").click()
    page.get_by_label("Reason").fill("recorded against the wrong member")
    page.get_by_role("button", name="Remove the payment").click()
    page.wait_for_selector("text=in arrears for it")
    audit = page.locator(".subscription-audit")
    assert audit.get_by_text("Payment removed").is_visible()
    assert audit.get_by_text("reason: recorded against the wrong member").is_visible()
    assert not alice.is_financial_on()


def test_an_officer_renews_last_seasons_members_at_once(page, alice, bob, carol):
    today = timezone.localdate()
    name, start, _end = ClubSettings.load().season_for(today)
    last = SeasonFactory(
        name="last", start=start - dt.timedelta(days=365), end=start - dt.timedelta(days=1)
    )
    paid_up(alice, last)
    paid_up(bob, last)
    officer_user()
    log_in(page)
    page.goto("/officer/members/")
    page.get_by_role("link", name="Renew subscriptions").click()
    assert page.get_by_label("Alice Archer").is_checked()
    assert not page.get_by_label("Carol Chen").is_checked()
    page.get_by_label("Bob Brown").uncheck()
    page.get_by_role("button", name="Record the ticked members").click()
    page.wait_for_selector("text=1 member recorded as paid")
    assert list(
        Subscription.objects.filter(season__name=name).values_list("member__name", flat=True)
    ) == ["Alice Archer"]


def test_an_officer_brings_a_club_in_from_a_members_csv_with_ratings(page, tmp_path):
    officer_user()
    club = tmp_path / "club.csv"
    club.write_text(
        "\ufeffid;name;rating;games;membership\n"
        "R2001;Ana Tuilagi;1450;36;financial\n"
        "R2002;Mikhail Petrov;2105;240;arrears\n",
        encoding="utf-8",
    )
    log_in(page)
    page.goto("/officer/import/members/")
    page.get_by_label("CSV file").set_input_files(str(club))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_url("**/import/members/preview/")
    assert page.get_by_text("2 new members").is_visible()
    assert not Member.objects.exists()
    page.get_by_role("button", name="Confirm: import 2 members").click()
    page.wait_for_url("**/officer/members/")
    assert page.get_by_role("link", name="Ana Tuilagi").is_visible()
    assert (
        Member.objects.get(member_number="R2002").rating_states.get(time_class="standard").rating
        == 2105
    )


def test_a_members_csv_with_problems_is_refused_by_line(page, tmp_path):
    officer_user()
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name,rating\nR1,Ana,abc\nR2,,1500\n", encoding="utf-8")
    log_in(page)
    page.goto("/officer/import/members/")
    page.get_by_label("CSV file").set_input_files(str(bad))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_selector(".csv-problems")
    assert page.get_by_text("Nothing has been saved").is_visible()
    assert page.locator(".csv-problems tbody tr").count() == 2
    assert page.get_by_role("button", name="Confirm").count() == 0


def test_closing_a_period_before_it_starts_is_refused(page, club):
    services.rating_system_set(system_id="ecf-2020")
    officer_user()
    label = ClubSettings.load().engine().period_of(timezone.localdate() + dt.timedelta(days=70))
    log_in(page)
    page.goto(f"/officer/periods/{label}/close/")
    assert page.locator(".period-refused").get_by_text("has not started").is_visible()
    assert page.get_by_role("button", name="Confirm").count() == 0


@pytest.fixture
def year(current_season, alice, bob, carol, dave, rated_event):  # type: ignore[no-untyped-def]
    paid_up(alice, current_season)
    paid_up(carol, current_season)
    dave.is_guest = True
    dave.save()
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], name="Autumn rapid")
    EventFactory(name="Club championship", kind=Event.Kind.ROUND_ROBIN)
    officer_user()
    return alice.subscriptions.get()


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_the_pages_of_the_officers_year_read_well(request, width, year, alice, tmp_path):
    page = request.getfixturevalue("phone_page" if width == "phone" else "page")
    log_in(page)
    pages = {
        "members-arrears": "/officer/members/?status=arrears",
        "member": f"/officer/members/{alice.pk}/",
        "member-add": "/officer/members/add/",
        "renew": "/officer/subscriptions/renew/",
        "subscription-remove": f"/officer/members/{alice.pk}/subscriptions/{year.pk}/remove/",
        "import-members": "/officer/import/members/",
        "import-results": "/officer/import/results/",
        "events-public": "/events/",
        "event-add": "/officer/events/add/",
    }
    for url in pages.values():
        response = page.goto(url)
        assert response.status == 200, url
        assert page.locator("h1").count() == 1, url
    members = tmp_path / "members.csv"
    members.write_text(
        "id,name,gender,rating,games,membership\nA1,Alice Archer,F,1600,40,financial\n"
        "R9,Rangi Parata,M,1720,55,arrears\nR10,Mere,F,abc,3,\n",
        encoding="utf-8",
    )
    page.goto("/officer/import/members/")
    page.get_by_label("CSV file").set_input_files(str(members))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_selector(".csv-problems")
    members.write_text(
        "id,name,gender,rating,games,membership\nA1,Alice Archer,F,1600,40,financial\n"
        "R9,Rangi Parata,M,1720,55,arrears\n",
        encoding="utf-8",
    )
    page.goto("/officer/import/members/")
    page.get_by_label("CSV file").set_input_files(str(members))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_selector(".csv-preview")
    page.goto("/officer/events/add/")
    page.get_by_label("Name").fill("Autumn rapid")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector(".event-warnings")


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_an_officer_matches_a_trf_player_by_hand(request, width, tmp_path):
    page = request.getfixturevalue("phone_page" if width == "phone" else "page")
    officer_user()
    jane = MemberFactory(member_number="R5", name="Janet Doe-Smith")
    john = MemberFactory(name="John Smith")
    trf_file = tmp_path / "club.trf"
    trf_file.write_bytes(CLUB_NIGHT)
    log_in(page)
    page.goto("/officer/import/")
    page.get_by_label("Tournament report file (TRF)").set_input_files(str(trf_file))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_url("**/import/preview/")
    assert page.get_by_text("2 players, 1 round, 1 game.").is_visible()
    assert page.get_by_text("1-0: 1").is_visible()
    page.get_by_label("Doe, Jane: or this member").fill("r5")
    page.get_by_role("button", name="Import: create the event").click()
    page.wait_for_selector("text=Club night imported: 2 players, 1 game.")
    event = Event.objects.get(name="Club night")
    assert set(event.entries.values_list("member__name", flat=True)) == {
        "John Smith",
        jane.name,
    }
    game = event.games.get()
    assert (game.round, game.white, game.black, game.result) == (1, john, jane, "1-0")
