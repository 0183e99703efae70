"""Period systems read right: a period is never closed before it starts nor before an
earlier one with events; periods are named by their dates; a report says its change is
the period's; acf-1993's markers are no ratings to take a change between."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import ClubSettings, Event, Game, Publication, RatingPeriod, RatingRun
from ratings.rules.period_names import period_name
from ratings.words import figures

from ..factories import paid_up

pytestmark = pytest.mark.django_db

WIN = Game.Result.WHITE_WIN


@pytest.fixture
def ecf(current_season, alice, bob):  # type: ignore[no-untyped-def]
    services.rating_system_set(system_id="ecf-2020")
    for member, rating in ((alice, 1800), (bob, 1700)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)


def months_ago(n: int) -> dt.date:
    today = timezone.localdate().replace(day=1)
    year, month = divmod(today.year * 12 + today.month - 1 - n, 12)
    return dt.date(year, month + 1, 3)


def close_page(client, label):  # type: ignore[no-untyped-def]
    return reverse("ratings:officer-period-close", args=[label])


def test_a_period_that_has_not_started_cannot_be_closed(officer_client, ecf):
    label = ClubSettings.load().engine().period_of(timezone.localdate() + dt.timedelta(days=70))
    page = officer_client.get(close_page(officer_client, label)).content.decode()
    assert "has not started" in page
    assert "Confirm: close" not in page
    officer_client.post(close_page(officer_client, label))
    assert not RatingPeriod.objects.filter(label=label, closed_at__isnull=False).exists()


def test_a_period_cannot_be_closed_while_an_earlier_one_with_events_is_open(
    officer_client, ecf, rated_event, alice, bob
):
    system = ClubSettings.load().engine()
    earlier, later = months_ago(3), months_ago(2)
    rated_event([(1, alice, bob, WIN)], name="Earlier", date=earlier, rate=False)
    rated_event([(1, bob, alice, WIN)], name="Later", date=later, rate=False)
    label = system.period_of(later)
    response = officer_client.post(close_page(officer_client, label))
    assert response.status_code == 409
    page = response.content.decode()
    assert f"{earlier:%B %Y} is still open and has complete events: close it first." in page
    assert not RatingPeriod.objects.filter(closed_at__isnull=False).exists()


def test_the_service_refuses_too(ecf):
    system = ClubSettings.load().engine()
    label = system.period_of(timezone.localdate() + dt.timedelta(days=70))
    start, end = system.period_bounds(label)
    with pytest.raises(services.PeriodRefused):
        services.period_close(
            period=RatingPeriod(system=system.id, label=label, start=start, end=end)
        )


def test_closing_the_earlier_period_first_is_allowed(officer_client, ecf, rated_event, alice, bob):
    system = ClubSettings.load().engine()
    rated_event([(1, alice, bob, WIN)], name="Earlier", date=months_ago(3), rate=False)
    label = system.period_of(months_ago(3))
    response = officer_client.post(close_page(officer_client, label))
    assert response.status_code == 302
    assert RatingPeriod.objects.get(label=label).is_closed


def test_closing_the_current_period_early_warns(officer_client, ecf):
    label = ClubSettings.load().engine().period_of(timezone.localdate())
    page = officer_client.get(close_page(officer_client, label)).content.decode()
    assert "Closing early." in page
    assert "Confirm: close" in page


def test_the_close_page_counts_the_periods_own_events(
    officer_client, ecf, rated_event, alice, bob
):
    rated_event([(1, alice, bob, WIN)], name="Night", date=months_ago(2), rate=False)
    label = ClubSettings.load().engine().period_of(months_ago(2))
    page = officer_client.get(close_page(officer_client, label)).content.decode()
    assert "Closing it rates its 1 event and publishes the new list" in page


@pytest.mark.parametrize(
    ("system", "label", "name"),
    [
        ("ecf-2020", "2026-07", "July 2026"),
        ("acf-1993", "2026-12", "Jul–Oct 2026, December 2026 list"),
        ("acf-1993", "2027-04", "Nov 2026–Feb 2027, April 2027 list"),
    ],
)
def test_periods_are_named_by_their_dates(system, label, name):
    from ratings.engine import get_system

    start, end = get_system(system, {}).period_bounds(label)
    assert period_name(system, label, start, end) == name


def test_an_event_report_of_a_period_system_says_the_change_is_the_periods(
    client, ecf, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, WIN)], name="Night", date=months_ago(3), rate=False)
    services.periods_close_past(system=ClubSettings.load().engine())
    services.ratings_rerate(services.RerateRequest(reason="test"))
    page = client.get(reverse("ratings:event-report", args=[event.pk])).content.decode()
    assert "The change is the rating period" in page
    assert "Period&#x27;s change" in page or "Period's change" in page


@pytest.mark.parametrize(
    ("before", "after", "shown"),
    [("2303", "2304", 1), ("1486p", "1530p", 44), ("8 R", "1 R", None), ("8 R", "1486p", None)],
)
def test_the_change_shown_is_the_difference_of_the_figures_shown(before, after, shown):
    assert figures.shown_change(before, after) == shown


def test_a_new_acf_players_headline_says_not_yet_rated(client, current_season, alice, bob):
    services.rating_system_set(system_id="acf-1993")
    paid_up(alice, current_season)
    page = client.get(alice.get_absolute_url()).content.decode()
    assert "Not yet rated" in page
    assert "more games to play before a rating is listed" in page


# -- A period is named by its dates wherever it is said, never by its label. ---------------


@pytest.fixture
def acf(current_season, alice, bob):  # type: ignore[no-untyped-def]
    """acf-1993, whose label names a period by the month its list appears ("2026-12" for
    Jul–Oct 2026): Alice (1800) and Bob (1700) confirmed and paid up."""
    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 1800), (bob, 1700)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)


@pytest.fixture
def closed_acf_period(officer_client, acf, rated_event, alice, bob):  # type: ignore[no-untyped-def]
    """An acf-1993 period of one event, closed on its page: the response and the period."""
    event = rated_event([(1, alice, bob, WIN)], name="Night", date=months_ago(6), rate=False)
    period = services.period_for(event, ClubSettings.load().engine())
    response = officer_client.post(close_page(officer_client, period.label))
    return response, RatingPeriod.objects.get(label=period.label)


def messages_of(client, response) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(m) for m in client.get(response["Location"]).context["messages"]]


def test_closing_a_period_names_it_by_its_dates_and_counts_one_event_as_1_event(
    officer_client, closed_acf_period
):
    response, period = closed_acf_period
    (message,) = messages_of(officer_client, response)
    assert message.startswith(
        f"Rating period {period.name} closed: 1 event rated, and the list published: "
    )
    assert period.label not in message


def test_a_period_closed_already_is_named_by_its_dates(officer_client, closed_acf_period):
    _response, period = closed_acf_period
    again = officer_client.post(close_page(officer_client, period.label))
    assert f"Rating period {period.name} is closed already." in messages_of(officer_client, again)


def test_the_run_that_closes_a_period_gives_the_periods_name_as_its_reason(closed_acf_period):
    _response, period = closed_acf_period
    assert RatingRun.objects.filter(reason=f"Rating period {period.name} closed").exists()
    assert not RatingRun.objects.filter(reason__contains=period.label).exists()


def test_the_published_list_names_the_closed_period_by_its_dates_and_so_does_the_note(
    officer_client, closed_acf_period
):
    response, period = closed_acf_period
    publication = Publication.objects.get()
    assert response["Location"] == publication.get_absolute_url()
    assert publication.note == f"Rating period {period.name} closed."
    text = officer_client.get(response["Location"]).content.decode()
    assert f"Rating period {period.name} closed." in text
    assert f"period {period.label}" not in text


# -- The close page and the complete page after an early close say what they do. ---------


def test_after_an_early_close_an_event_completed_in_the_period_is_rated_with_it_not_before_it(
    officer_client, ecf, rated_event, alice, bob
):
    today = timezone.localdate()
    first = today.replace(day=1)
    rated_event([(1, alice, bob, WIN)], name="First night", date=first, rate=False)
    label = ClubSettings.load().engine().period_of(today)
    officer_client.post(close_page(officer_client, label))
    second = rated_event([(1, bob, alice, WIN)], name="Second night", date=today, rate=False)
    Event.objects.filter(pk=second.pk).update(status=Event.Status.DRAFT)
    page = officer_client.get(reverse("ratings:officer-event-complete", args=[second.pk]))
    text = page.content.decode()
    assert (
        "Confirming rates this event, re-rates the 1 event of its rating period already "
        "rated (a period is rated as a whole)."
    ) in text
    assert "dated before" not in text


def test_the_close_page_says_nothing_of_events_rated_again_when_no_later_period_is_closed(
    officer_client, ecf, rated_event, alice, bob
):
    rated_event([(1, alice, bob, WIN)], name="Night", date=months_ago(2), rate=False)
    label = ClubSettings.load().engine().period_of(months_ago(2))
    text = officer_client.get(close_page(officer_client, label)).content.decode()
    assert "Closing it rates its 1 event and publishes the new list.</p>" in text
    assert "0 event" not in text


def test_the_close_page_counts_the_events_of_later_closed_periods_it_rates_again(
    officer_client, ecf, rated_event, alice, bob
):
    system = ClubSettings.load().engine()
    rated_event([(1, alice, bob, WIN)], name="Later night", date=months_ago(2), rate=False)
    officer_client.post(close_page(officer_client, system.period_of(months_ago(2))))
    rated_event([(1, bob, alice, WIN)], name="Earlier night", date=months_ago(3), rate=False)
    page = officer_client.get(close_page(officer_client, system.period_of(months_ago(3))))
    assert (
        "Closing it rates its 1 event and publishes the new list; the 1 event of the "
        "periods closed after it is rated again after them."
    ) in page.content.decode()


def test_the_periods_page_counts_an_events_one_player_as_1_player(
    officer_client, ecf, rated_event, alice
):
    rated_event([(1, alice, None, Game.Result.BYE)], name="Quiet night", date=months_ago(2))
    page = officer_client.get(reverse("ratings:officer-periods")).content.decode()
    assert "· 1 player</span>" in page


def test_a_period_written_out_anywhere_is_its_name(admin_client, closed_acf_period):
    _response, period = closed_acf_period
    assert str(period) == period.name != period.label
    page = admin_client.get(reverse("admin:ratings_ratingperiod_changelist")).content.decode()
    assert period.name in page
