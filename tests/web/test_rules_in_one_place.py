"""The club's rules in one place each: no module outside the engine branches on a rating
system's id; rating periods are asked one way (``RatingPeriod.objects``); financial status,
the unrated newcomer and the membership words are each defined once."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.engine import SYSTEMS
from ratings.formats.members_csv import MEMBERSHIPS
from ratings.models import ClubSettings, Event, Member, Membership, RatingPeriod
from ratings.rules import publication

from ..factories import MemberFactory, SeasonFactory, paid_up

RATINGS = Path(__file__).resolve().parents[2] / "ratings"

WIN = "1-0"


def _system_ids_named(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(RATINGS.parent)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in SYSTEMS
    ]


def test_no_module_outside_the_engine_names_a_rating_system() -> None:
    """What a system says about itself is asked of it (``RatingSystem``'s hooks), never
    chosen by its id: a new system is added in the engine alone."""
    outside = [
        path
        for path in RATINGS.rglob("*.py")
        if not path.is_relative_to(RATINGS / "engine")
        and not path.is_relative_to(RATINGS / "migrations")
    ]
    assert outside
    assert [hit for path in outside for hit in _system_ids_named(path)] == []


# -- rating periods -----------------------------------------------------------------------


@pytest.fixture
def ecf(db):  # type: ignore[no-untyped-def]
    services.rating_system_set(system_id="ecf-2020")
    return ClubSettings.load().engine()


def test_the_period_of_an_event_is_its_systems_dates_until_it_is_saved(
    ecf, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, WIN)], date=dt.date(2026, 3, 14), rate=False)
    period = RatingPeriod.objects.for_event(event)
    assert period is not None and period.pk is None
    assert (period.label, period.start, period.end) == (
        "2026-03",
        dt.date(2026, 3, 1),
        dt.date(2026, 3, 31),
    )


def test_a_saved_period_is_the_one_an_event_finds(ecf, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, WIN)], date=dt.date(2026, 3, 14), rate=False)
    saved = RatingPeriod.objects.labelled("2026-03", system=ecf)
    saved.save()
    assert RatingPeriod.objects.for_event(event) == saved


def test_a_per_event_system_has_no_period(db, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, WIN)], rate=False)
    assert RatingPeriod.objects.for_event(event) is None


def test_a_periods_events_are_those_ending_within_its_dates_in_rating_order(
    ecf, rated_event, alice, bob
):
    last = rated_event([(1, alice, bob, WIN)], name="Last", date=dt.date(2026, 3, 31), rate=False)
    first = rated_event([(1, bob, alice, WIN)], name="First", date=dt.date(2026, 3, 1), rate=False)
    rated_event([(1, bob, alice, WIN)], name="April", date=dt.date(2026, 4, 1), rate=False)
    period = RatingPeriod.objects.labelled("2026-03", system=ecf)
    assert list(period.events()) == [first, last]


def test_a_period_has_ended_only_after_its_last_day(ecf):
    period = RatingPeriod.objects.labelled("2026-03", system=ecf)
    assert not period.has_ended(dt.date(2026, 3, 31))
    assert period.has_ended(dt.date(2026, 4, 1))
    assert not period.has_started(dt.date(2026, 2, 28))


def test_the_list_stands_on_its_latest_closed_period(ecf):
    for label, closed in (("2026-01", True), ("2026-02", True), ("2026-03", False)):
        period = RatingPeriod.objects.labelled(label, system=ecf)
        period.closed_at = timezone.now() if closed else None
        period.save()
    assert RatingPeriod.objects.of_list(ecf).last_closed().label == "2026-02"


def test_the_periods_of_some_events_are_each_once_in_date_order(ecf, rated_event, alice, bob):
    for day in (dt.date(2026, 4, 2), dt.date(2026, 3, 5), dt.date(2026, 3, 20)):
        rated_event([(1, alice, bob, WIN)], name=f"{day}", date=day, rate=False)
    periods = RatingPeriod.objects.of_events(Event.objects.all(), system=ecf)
    assert [p.label for p in periods] == ["2026-03", "2026-04"]


def test_closing_past_periods_leaves_the_current_one_open(ecf, rated_event, alice, bob):
    today = timezone.localdate()
    rated_event([(1, alice, bob, WIN)], name="Tonight", date=today, rate=False)
    assert services.periods_close_past(system=ecf, today=today) == []
    assert not RatingPeriod.objects.closed().exists()


# -- financial, newcomers, membership words --------------------------------------------------


@pytest.fixture
def register(db, alice, bob, carol):  # type: ignore[no-untyped-def]
    """Alice paid this season, Bob did not, Carol is a guest."""
    paid_up(alice, SeasonFactory(name="now", start=timezone.localdate(), end=timezone.localdate()))
    carol.is_guest = True
    carol.save()
    return {"alice": alice, "bob": bob, "carol": carol}


@pytest.mark.parametrize("each", [False, True])
def test_financial_is_the_same_per_member_and_for_the_register(register, each):
    """The paid-up members listed once (``each`` False), or each member asked in turn (the
    register's page: its rows and a search's counts)."""
    annotated = {m.pk: m.is_financial for m in Member.objects.with_financial(each=each)}
    for member in register.values():
        assert member.is_financial_on() == annotated[member.pk]
    assert annotated[register["alice"].pk] and not annotated[register["bob"].pk]


def test_each_members_standing_is_the_register_filter_that_shows_them(register):
    for name, standing in (
        ("alice", Membership.FINANCIAL),
        ("bob", Membership.ARREARS),
        ("carol", Membership.GUEST),
    ):
        member = register[name]
        assert member.membership_on() == standing
        shown = services.members_with_membership(Member.objects.all(), status=standing)
        assert list(shown) == [member]


def test_the_members_file_takes_the_words_the_register_filters_by():
    assert tuple(services.MEMBERSHIP_FILTERS) == MEMBERSHIPS


def test_why_a_rating_is_unpublished_uses_the_membership_words():
    assert publication.reason_of(merged=False, guest=False, financial=False) == "no: in arrears"
    assert publication.reason_of(merged=False, guest=True, financial=True) == "no: guest"


def test_a_newcomer_is_neither_listed_nor_given_a_figure_on_the_register(
    officer_client, alice, dave
):
    """Dave joined with no rating and has not played; Alice brought one in."""
    alice.initial_rating, alice.initial_games = 1800, 30
    alice.save()
    services.ratings_rerate(services.RerateRequest(reason="ratings brought in"))
    newcomers = {m.pk for m in Member.objects.with_newcomer() if m.is_newcomer}
    listed = set(Member.objects.listable().values_list("pk", flat=True))
    assert newcomers == {dave.pk}
    assert listed == {alice.pk}
    page = officer_client.get(reverse("ratings:officer-members")).content.decode()
    dave_row = page[page.index("Dave Dunn") :].split("</tr>")[0]
    assert "–" in dave_row and "1800" in page


# -- a rating brought in ------------------------------------------------------------------


def test_a_status_brought_in_is_the_one_acf_starts_from(db):
    pat = MemberFactory(
        initial_rating=1500, initial_games=30, brought_in={"status": "provisional"}
    )
    state = services.member_initial_state(pat, SYSTEMS["acf-1993"]())
    assert state.status == "provisional"


def test_another_systems_word_brought_in_is_kept_but_not_read(db):
    pat = MemberFactory(initial_rating=1500, initial_games=30, brought_in={"category": "partial"})
    state = services.member_initial_state(pat, SYSTEMS["acf-1993"]())
    # acf-1993's state has no category to carry it: the system keeps its own fields only.
    assert state.status is None and not hasattr(state, "category")


@pytest.mark.parametrize(
    ("system_id", "asked"),
    [
        ("acf-1993", {"brought_in_status"}),
        ("ecf-2020", {"brought_in_category"}),
        ("nz-club-elo", set()),
    ],
)
def test_the_member_form_asks_only_for_the_word_the_clubs_system_reads(db, system_id, asked):
    from ratings.forms.members import MemberForm

    services.rating_system_set(system_id=system_id)
    fields = set(MemberForm().fields) & {"brought_in_status", "brought_in_category"}
    assert fields == asked
