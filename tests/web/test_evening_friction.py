"""The officer's evening without the snags (issue 41, "the evening's friction"): results read
alike wherever they are typed, the new event's kind from the club's habit, a pasted round
that offers to enter the players it names, one member number pattern, "paid tonight" near
a season's end, the home page's list sentence, a correction's reason, a merge in the runs
log, and a help page of the site's own."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.forms import GridForm
from ratings.forms.calculator import CalculatorGameForm
from ratings.models import ClubSettings, Event, Member, RatingPeriod, RatingRun, Subscription
from ratings.pages.events import usual_kinds
from ratings.rules.results import DRAW

from ..factories import EventFactory, MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_29_november(monkeypatch):
    """Today is 29 November 2026: the club's 2026 season ends in a month."""
    day = dt.date(2026, 11, 29)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: day)
    return day


# -- results typed alike ------------------------------------------------------------------


def test_the_grid_reads_a_draw_typed_as_the_round_page_reads_it(alice, bob):
    form = GridForm({f"g_{alice.pk}_{bob.pk}": "d"}, players=[alice, bob])
    assert form.is_valid(), form.errors
    assert form.results() == {(alice.pk, bob.pk): DRAW}


def test_the_calculator_reads_equals_as_a_draw():
    form = CalculatorGameForm({"rating": "1500", "result": "="}, members=Member.objects.none())
    assert form.is_valid(), form.errors
    assert form.cleaned_data["result"] == "0.5"


def test_the_grid_and_calculator_menus_carry_the_round_pages_keys(alice, bob):
    grid = GridForm(players=[alice, bob])
    keys = json.loads(grid.fields[f"g_{alice.pk}_{bob.pk}"].widget.attrs["data-result-keys"])
    assert (keys["1"], keys["="], keys["0"]) == ("1", "=", "0")
    calculator = CalculatorGameForm(members=Member.objects.none())
    keys = json.loads(calculator.fields["result"].widget.attrs["data-result-keys"])
    assert (keys["1"], keys["="], keys["0"]) == ("1", "0.5", "0")


# -- the new event's kind -----------------------------------------------------------------


def test_the_usual_kind_is_the_one_the_club_plays_most_on_that_weekday():
    tuesday, saturday = dt.date(2026, 11, 3), dt.date(2026, 11, 7)
    for week in range(3):
        EventFactory(kind=Event.Kind.CLUB_NIGHT, start_date=tuesday + dt.timedelta(weeks=week))
    EventFactory(kind=Event.Kind.ROUND_ROBIN, start_date=saturday)
    by_day, usual = usual_kinds()
    assert by_day[2] == Event.Kind.CLUB_NIGHT and by_day[6] == Event.Kind.ROUND_ROBIN
    assert usual == Event.Kind.CLUB_NIGHT


def test_the_new_event_form_defaults_to_todays_habit_not_the_last_saved(
    officer_client, on_29_november
):
    # 29 November 2026 is a Sunday: the club's Sundays are round robins; its last event,
    # saved after them, a Swiss on a Friday.
    for week in (1, 2):
        EventFactory(
            kind=Event.Kind.ROUND_ROBIN, start_date=on_29_november - dt.timedelta(weeks=week)
        )
    EventFactory(kind=Event.Kind.SWISS, start_date=dt.date(2026, 11, 27))
    EventFactory(kind=Event.Kind.SWISS, start_date=dt.date(2026, 11, 20))
    EventFactory(kind=Event.Kind.SWISS, start_date=dt.date(2026, 11, 13))
    form = officer_client.get(reverse("ratings:officer-event-add")).context["form"]
    assert form.initial["kind"] == Event.Kind.ROUND_ROBIN
    assert json.loads(form.fields["kind"].widget.attrs["data-kind-by-weekday"])["5"] == "swiss"


# -- players for an event -----------------------------------------------------------------


def test_add_players_takes_member_numbers_separated_by_spaces(officer_client, alice, bob, carol):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"entries-players": "A1 B2\nc3"},
    )
    assert set(event.players.all()) == {alice, bob, carol}


def test_a_name_of_two_words_is_still_one_name(officer_client, alice, bob):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"entries-players": "Alice Archer, B2"},
    )
    assert set(event.players.all()) == {alice, bob}


def _paste(client, event, text, **extra):
    return client.post(
        reverse("ratings:officer-round-paste", args=[event.pk]),
        {"round": 1, "text": text, "preview": "1", **extra},
    )


def test_a_pasted_round_names_each_player_not_in_the_event_once(
    officer_client, alice, bob, carol, dave
):
    event = EventFactory(rounds=3)
    event.entries.create(member=alice)
    text = "Alice Archer - Bob Brown 1-0\nCarol Chen - Dave Dunn 0-1\nB2 - C3 ="
    response = _paste(officer_client, event, text)
    form = response.context["form"]
    assert form.addable == [bob, carol, dave]
    errors = form.errors["text"]
    assert errors == [
        "3 players named here are in the club but not in this event yet: "
        "“Enter them and preview” enters them in one go."
    ]
    page = response.content.decode()
    assert page.count("Bob Brown (B2)") == 1
    assert 'name="add_players"' in page


def test_one_click_enters_them_and_previews_the_round(officer_client, alice, bob, carol, dave):
    event = EventFactory(rounds=3)
    text = "A1 - B2 1-0\nC3 - D4 ½-½"
    response = _paste(officer_client, event, text, add_players="1")
    assert set(event.players.all()) == {alice, bob, carol, dave}
    assert [(p.white, p.black) for p in response.context["preview"]] == [
        (alice, bob),
        (carol, dave),
    ]
    assert not event.games.exists()  # previewed, not saved


def test_a_name_the_club_does_not_know_is_said_once_with_its_lines(officer_client, alice, bob):
    event = EventFactory(rounds=3)
    event.entries.create(member=alice)
    event.entries.create(member=bob)
    text = "A1 - Zed Zonk 1-0\nZed Zonk - B2 0-1"
    errors = _paste(officer_client, event, text).context["form"].errors["text"]
    assert errors == [
        "Lines 1, 2: “Zed Zonk” is not a member of the club: add them on the event's "
        "players page, then paste again."
    ]


# -- member numbers -----------------------------------------------------------------------


def test_the_quick_form_numbers_a_new_member_as_the_add_form_suggests(officer_client):
    for number in ("H033", "H034", "H035"):
        MemberFactory(member_number=number)
    suggested = officer_client.get(reverse("ratings:officer-member-add")).context["form"]
    assert suggested.fields["member_number"].initial == "H036"
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]), {"quick-name": "Nora New"}
    )
    assert Member.objects.get(name="Nora New").member_number == "H036"


# -- paid tonight -------------------------------------------------------------------------


def test_paid_tonight_asks_which_season_when_this_one_ends_within_two_months(
    officer_client, on_29_november
):
    form = officer_client.get(reverse("ratings:officer-member-add")).context["form"]
    choices = dict(form.fields["paid_tonight"].choices)
    assert choices["current"] == "This season, 2026 (ends 31 December 2026)"
    assert choices["next"] == "Next season, 2027 (from 1 January 2027)"


def test_paid_tonight_for_the_next_season_records_the_next_season(officer_client, on_29_november):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "Nora New", "quick-paid_tonight": "next"},
    )
    paid = Subscription.objects.get(member__name="Nora New")
    assert (paid.season.name, paid.season.start) == ("2027", dt.date(2027, 1, 1))


def test_paid_tonight_is_a_box_in_the_middle_of_a_season(officer_client, monkeypatch):
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: dt.date(2026, 6, 1))
    form = officer_client.get(reverse("ratings:officer-member-add")).context["form"]
    assert form.fields["paid_tonight"].label == "Paid this season's subscription today"


# -- the home page's sentence -------------------------------------------------------------


def test_a_period_closed_before_its_end_is_not_said_to_be_at_its_close(
    officer_client, on_29_november
):
    services.rating_system_set(system_id="acf-1993")
    system = ClubSettings.load().engine()
    period = RatingPeriod.unsaved(
        system=system, time_class="standard", label=system.period_of(on_29_november)
    )
    period.closed_at = timezone.now()
    period.save()
    MemberFactory()  # something to list, so the home page is not the first-run page
    page = officer_client.get(reverse("ratings:home")).content.decode()
    assert "at the close of" not in page
    assert f"The list stands on rating period {period.name}" in page
    assert "before its last day" in page


def test_a_period_system_with_none_closed_names_the_one_running(officer_client, on_29_november):
    services.rating_system_set(system_id="ecf-2020")
    page = officer_client.get(reverse("ratings:home")).content.decode()
    assert "No rating period has been closed yet" in page
    assert "The period now running, November 2026, ends on 30 November 2026" in page


# -- corrections and merges ---------------------------------------------------------------


def test_a_members_correction_on_the_officers_page_needs_its_reason(officer_client, alice):
    url = reverse("ratings:officer-member", args=[alice.pk])
    form = officer_client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "mail_wanted"}
    data.update(name="Alicia Archer", change_reason="")
    response = officer_client.post(url, data)
    assert "Say why: the reason is kept in the history" in response.content.decode()
    alice.refresh_from_db()
    assert alice.name == "Alice Archer"


def test_a_correction_in_the_admin_needs_its_reason(admin_client, alice):
    url = reverse("admin:ratings_member_change", args=[alice.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {
        k: v
        for k, v in form.initial.items()
        if v is not None and k not in ("mail_wanted", "created", "id")
    }
    data.update(
        {
            "name": "Alicia Archer",
            "change_reason": "",
            "subscriptions-TOTAL_FORMS": "0",
            "subscriptions-INITIAL_FORMS": "0",
        }
    )
    response = admin_client.post(url, data)
    assert "Say why: the reason is kept in the history" in response.content.decode()
    alice.refresh_from_db()
    assert alice.name == "Alice Archer"


def test_a_merge_that_re_rates_nothing_is_in_the_runs_log(officer, alice):
    duplicate = MemberFactory(name="Alice Archer", member_number="A1b")
    services.members_merge(sources=[duplicate], target=alice, user=officer)
    run = RatingRun.objects.get()
    assert run.reason == "Alice Archer (A1b) merged into Alice Archer (A1)"
    assert run.status == RatingRun.Status.DONE and run.events_rated == 0


# -- help ---------------------------------------------------------------------------------


def test_the_help_page_explains_every_system_from_the_engine(client):
    page = client.get(reverse("ratings:help")).content.decode()
    assert "21 points are at risk in a decisive game" in page  # st-charles' rules
    assert "Not yet rated: 4 more games to play" in page  # acf-1993's "4 R" marker
    assert "docs/" not in page


def test_the_start_page_points_to_the_help_page_not_a_repository_path(client):
    page = client.get(reverse("ratings:club-start")).content.decode()
    assert reverse("ratings:help") in page
    assert "docs/rating-systems.md" not in page


def test_the_officers_pages_link_to_help(officer_client):
    page = officer_client.get(reverse("ratings:officer-events")).content.decode()
    assert f'href="{reverse("ratings:help")}"' in page
