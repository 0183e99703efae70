"""The published list's figures (its size, the regions of its filter), kept for its readers
(``services.list_figures``): counted by a rating run, moved by each payment and member's
save by that member's difference, forgotten by the writes nobody follows (and counted once
those commit). Whatever the writes, the kept figures are what a count would give."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import services
from ratings.models import (
    ClubSettings,
    Game,
    ListStanding,
    Member,
    PublishedListFigures,
    RatingRun,
    RatingState,
    Season,
    Subscription,
    listing,
    register_size,
)
from ratings.models.listing import published_list_size, published_regions
from ratings.models.rating_lists import lists_kept
from ratings.services import list_figures, list_standings

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """What the list's readers count from here on: "size", "regions"."""
    calls: list[str] = []
    size, regions = listing.published_list_size, listing.published_regions

    def size_counted(**kwargs):
        calls.append("size")
        return size(**kwargs)

    def regions_counted(*args, **kwargs):
        calls.append("regions")
        return regions(*args, **kwargs)

    monkeypatch.setattr(listing, "published_list_size", size_counted)
    monkeypatch.setattr(listing, "published_regions", regions_counted)
    return calls


def list_read(client) -> tuple[int, list[str]]:
    """The list's size and the regions of its filter, as its page gives them."""
    response = client.get(LIST)
    regions = [value for value, _ in response.context["filter"].form["region"].field.choices]
    return response.context["table"].paginator.count, [r for r in regions if r]


def started(work: Callable[[], None], failures: list[BaseException]) -> threading.Thread:
    """``work`` under way in a thread of its own (a connection of its own, closed after);
    what it raises goes in ``failures``."""

    def run() -> None:
        try:
            work()
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def kept() -> dict | None:
    """The figures as kept, less whether the standings hold with them (``standings``)."""
    figures = services.list_figures_kept()
    return None if figures is None else {k: v for k, v in figures.items() if k != "standings"}


def as_counted() -> dict:
    """The figures a count of every published member gives today (and of the officer's
    register: every current member, the guests, the financial)."""
    return {
        "day": timezone.localdate().isoformat(),
        "lists": {tc: list(published_list_size(time_class=tc)) for tc in lists_kept()},
        "regions": published_regions(),
        "register": list(register_size()),
        "seasons": sorted(
            Season.objects.filter(
                start__lte=timezone.localdate(), end__gte=timezone.localdate()
            ).values_list("pk", flat=True)
        ),
    }


def standings_kept() -> set[tuple]:
    """Each member's standing as kept (``ListStanding``): list, member, place, sort keys."""
    return set(ListStanding.objects.values_list("time_class", "member_id", *STANDING_KEYS))


STANDING_KEYS = (
    "place",
    "unrated",
    "rating_value",
    "name",
    "games",
    "region",
    "last_played",
    "born",
    "gender",
)


def standings_ranked() -> set[tuple]:
    """The same, as a fresh ranking of every published member gives them today."""
    rows = set()
    for tc in lists_kept():
        for m in listing.with_ratings(Member.objects.published(), time_class=tc):
            state = m.rating_state
            place = None if m.unrated else m.rank
            keys = (place, m.unrated, m.rating_value, m.name, state.games, m.region)
            rows.add((tc, m.pk, *keys, state.last_played, m.born, m.gender))
    return rows


@pytest.fixture
def rated(current_season, rated_event, alice, bob):
    """Alice (North) paid up and Bob (South) in arrears, both rated: the run kept the list
    as one member, in the North."""
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    assert kept()["lists"]["standard"] == [1, 1]


def test_the_first_reader_after_a_rating_run_reads_what_the_run_counted(client, rated, counted):
    assert list_read(client) == (1, ["North"])
    assert counted == []


def test_a_payment_moves_the_kept_figures_by_its_member(
    client, rated, current_season, bob, counted
):
    services.subscription_record(member=bob, season=current_season)
    assert kept() == as_counted()
    counted.clear()
    assert list_read(client) == (2, ["North", "South"])
    assert counted == []


def test_a_payment_taken_back_moves_them_back(rated, current_season, alice):
    services.subscription_remove(subscription=Subscription.objects.get(member=alice))
    assert kept()["lists"]["standard"] == [0, 0]
    assert kept()["regions"] == []


def test_a_payment_for_a_season_gone_by_moves_nothing(rated, bob):
    past = Season.objects.create(name="1999", start=dt.date(1999, 1, 1), end=dt.date(1999, 12, 31))
    services.subscription_record(member=bob, season=past)
    assert kept()["lists"]["standard"] == [1, 1]


def test_a_member_moving_region_moves_the_regions(rated, alice):
    alice.region = "East"
    alice.save()
    assert kept()["regions"] == ["East"]


def test_a_member_made_a_guest_leaves_the_list(rated, alice):
    alice.is_guest = True
    alice.save()
    assert kept() == as_counted()
    assert kept()["lists"]["standard"] == [0, 0]


def test_a_new_member_who_brings_a_rating_and_pays_joins_it(rated, current_season):
    carol = MemberFactory(name="Carol Chen", region="West", initial_rating=1800, initial_games=30)
    services.subscription_record(member=carol, season=current_season)
    assert kept() == as_counted()
    assert kept()["regions"] == ["North", "West"]


def test_a_payment_moved_to_another_member_moves_both(rated, alice, bob):
    payment = Subscription.objects.get(member=alice)
    payment.member = bob
    payment.save()
    assert kept() == as_counted()
    assert kept()["regions"] == ["South"]


def test_a_payment_rolled_back_with_its_savepoint_moves_nothing(rated, current_season, bob):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.subscription_record(member=bob, season=current_season)
        raise RuntimeError
    assert kept()["lists"]["standard"] == [1, 1]


def test_renewals_forget_the_figures(rated, current_season, bob):
    services.subscriptions_renew(members=[bob], season=current_season)
    assert kept() is None


@pytest.fixture
def large(monkeypatch):
    """Lists as large as those whose readers are given the last count's figures while
    they are counted again (some 10,000 members and more): here, every list."""
    monkeypatch.setattr(list_figures, "LAST_COUNT_FROM", 0)


def test_the_reader_moments_after_a_forgetting_write_reads_the_last_count(
    client, rated, large, current_season, bob, counted
):
    services.subscriptions_renew(members=[bob], season=current_season)  # its count to come
    assert list_read(client) == (1, ["North"])
    assert counted == []


def test_the_page_with_the_last_count_s_figures_is_kept_by_no_cache(
    client, rated, large, current_season, bob
):
    services.subscriptions_renew(members=[bob], season=current_season)
    assert "no-store" in client.get(LIST)["Cache-Control"]


def test_a_smaller_club_s_reader_counts_them_the_moment_after(client, rated, current_season, bob):
    services.subscriptions_renew(members=[bob], season=current_season)
    assert list_read(client) == (2, ["North", "South"])


def test_its_rows_are_today_s_published_members_whatever_the_figures(
    client, rated, large, current_season, alice, bob
):
    PublishedListFigures.objects.update(
        figures={**kept(), "lists": {"standard": [5, 5]}, "forgotten": timezone.now().isoformat()}
    )
    Subscription.objects.filter(member=alice).delete()  # out of the list, unfollowed
    rows = client.get(LIST).context["table"].page.object_list
    assert [row.record.pk for row in rows] == []


def test_figures_forgotten_longer_than_a_count_takes_are_counted_by_the_reader(
    client, rated, large, current_season, bob, counted
):
    services.subscriptions_renew(members=[bob], season=current_season)
    long_ago = timezone.now() - dt.timedelta(seconds=list_figures.LAST_COUNT_SERVED + 1)
    figures = {**PublishedListFigures.objects.get().figures, "forgotten": long_ago.isoformat()}
    PublishedListFigures.objects.update(figures=figures)
    assert list_read(client) == (2, ["North", "South"])
    response = client.get(LIST)
    assert "no-store" not in response.get("Cache-Control", "")


def test_a_second_forgetting_write_keeps_when_they_were_first_forgotten(
    rated, current_season, bob
):
    services.subscriptions_renew(members=[bob], season=current_season)
    first = PublishedListFigures.objects.get().figures["forgotten"]
    current_season.save()  # forgets them again
    assert PublishedListFigures.objects.get().figures["forgotten"] == first


def test_the_officer_s_list_never_reads_the_last_count(
    officer_client, rated, large, current_season, bob
):
    services.subscriptions_renew(members=[bob], season=current_season)
    response = officer_client.get(reverse("ratings:officer-ratings"))
    assert response.context["last_count"] is False


@pytest.mark.django_db(transaction=True)
def test_renewals_have_them_counted_once_committed(rated, current_season, bob):
    services.subscriptions_renew(members=[bob], season=current_season)
    assert kept() == as_counted()
    assert kept()["lists"]["standard"] == [2, 2]


def test_a_season_s_dates_changed_forget_them(rated, current_season):
    current_season.end = timezone.localdate() - dt.timedelta(days=1)
    current_season.save()
    assert kept() is None


def test_figures_kept_on_another_day_are_not_read(client, rated):
    PublishedListFigures.objects.filter(pk=1).update(
        figures={"day": "2001-01-01", "lists": {"standard": [99, 99]}, "regions": ["X"]}
    )
    assert list_read(client) == (1, ["North"])


def test_figures_kept_yesterday_hold_today_under_the_same_seasons(client, rated, counted):
    yesterday = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    PublishedListFigures.objects.filter(pk=1).update(
        figures={**kept(), "day": yesterday, "lists": {"standard": [7, 7]}}
    )
    assert list_read(client)[0] == 7
    assert counted == []


def test_figures_out_of_date_since_a_season_ended_at_midnight_are_read_as_last_counted(
    client, rated, large, current_season, monkeypatch
):
    # The figures' seasons covered yesterday; today the season covering it has ended.
    # On a season's first day (1 January, for this club) it begins yesterday too: else it
    # would end before it began, and have covered no day at all.
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    current_season.start = min(current_season.start, yesterday)
    current_season.end = yesterday
    current_season.save()
    list_figures.list_figures_keep()
    PublishedListFigures.objects.update(
        figures={**as_counted(), "day": yesterday.isoformat(), "seasons": [current_season.pk]}
    )
    monkeypatch.setattr(list_figures, "LAST_COUNT_SERVED", 24 * 60 * 60)  # since midnight
    last = services.list_figures_read()[0]
    assert last is not None and last["seasons"] == [current_season.pk]
    monkeypatch.setattr(list_figures, "LAST_COUNT_SERVED", 0)
    assert services.list_figures_read()[0] is None


def test_figures_kept_before_a_season_began_are_counted_again(client, rated, current_season):
    PublishedListFigures.objects.filter(pk=1).update(
        figures={**kept(), "day": "2001-01-01", "seasons": [], "lists": {"standard": [7, 7]}}
    )
    assert kept() is None
    assert list_read(client) == (1, ["North"])


def test_the_worker_counts_figures_kept_on_another_day(client, rated, counted):
    PublishedListFigures.objects.filter(pk=1).update(
        figures={"day": "2001-01-01", "lists": {"standard": [99, 99]}, "regions": ["X"]}
    )
    assert services.list_figures_refresh()
    counted.clear()
    assert list_read(client) == (1, ["North"])
    assert counted == []


def test_the_worker_counts_figures_a_write_forgot(rated):
    PublishedListFigures.objects.filter(pk=1).update(figures=None)
    assert services.list_figures_refresh()
    assert kept() == as_counted()


def test_the_worker_leaves_current_figures_alone(rated, counted):
    services.list_figures_refresh()  # the standings the run left to it
    counted.clear()
    assert not services.list_figures_refresh()
    assert counted == []


def test_the_worker_writes_the_standings_a_rating_run_left_to_it(rated, alice):
    assert not services.list_figures_kept()["standings"]
    assert services.list_figures_refresh()
    assert services.list_figures_kept()["standings"]
    assert standings_kept() == standings_ranked()


def test_a_member_renamed_keeps_the_standings_holding(rated, alice):
    services.list_figures_refresh()
    alice.name = "Alice Zed"
    alice.save()
    assert services.list_figures_kept()["standings"]
    assert standings_kept() == standings_ranked()


def test_a_payment_that_puts_a_member_on_the_list_places_everyone_in_its_transaction(
    rated, current_season, bob
):
    services.list_figures_refresh()
    services.subscription_record(member=bob, season=current_season)
    assert services.list_figures_kept()["standings"]
    assert standings_kept() == standings_ranked()


def test_a_payment_taken_back_moves_the_places_below_up_in_its_transaction(
    rated, current_season, alice, bob
):
    services.subscription_record(member=bob, season=current_season)
    services.list_figures_refresh()
    services.subscription_remove(subscription=alice.subscriptions.get())
    assert services.list_figures_kept()["standings"]
    assert standings_kept() == standings_ranked()


def test_a_list_too_long_to_place_in_a_payment_is_left_to_the_worker(
    rated, current_season, bob, monkeypatch
):
    services.list_figures_refresh()
    monkeypatch.setattr(list_standings, "PLACES_MOVED_NOW", 0)
    services.subscription_record(member=bob, season=current_season)
    assert not services.list_figures_kept()["standings"]
    services.list_figures_refresh()
    assert standings_kept() == standings_ranked()


def test_the_worker_keeps_the_rows_of_members_whose_standing_held(
    rated, current_season, alice, bob
):
    """Only the rows that moved are written: a member whose keys held keeps their row."""
    carol = paid_up(MemberFactory(initial_rating=1200, initial_games=30), current_season)
    services.list_figures_refresh()
    rows = dict(ListStanding.objects.values_list("member_id", "pk"))
    RatingState.objects.filter(member=alice).update(rating=F("rating") + 500)
    services.list_figures_keep()  # a rating run's count: the standings left to the worker
    services.list_figures_refresh()
    assert standings_kept() == standings_ranked()
    assert ListStanding.objects.get(member=carol).pk == rows[carol.pk]


def test_the_worker_writes_the_standings_a_few_members_at_a_time(
    rated, current_season, alice, monkeypatch
):
    """Each transaction writes the rows of a span of members (SQLite's one writer is held
    no longer); together they are the list's."""
    monkeypatch.setattr(list_standings, "STANDINGS_BATCH", 1)
    paid_up(MemberFactory(initial_rating=1200, initial_games=30), current_season)
    services.list_figures_refresh()
    RatingState.objects.filter(member=alice).update(rating=F("rating") - 500)
    services.list_figures_keep()
    assert services.list_figures_refresh()
    assert standings_kept() == standings_ranked()


@pytest.mark.django_db(transaction=True)  # the look closes its connection
def test_the_worker_looks_every_heartbeat(rated):
    from ratings.management.commands.db_worker import _watch

    PublishedListFigures.objects.filter(pk=1).update(figures=None)
    stop = threading.Event()
    stop.set()  # one look, then stop
    _watch(stop)
    assert kept() == as_counted()


@pytest.mark.django_db(transaction=True)
def test_the_worker_writes_a_runs_standings_within_a_look_not_a_heartbeat(
    rated, settings, monkeypatch
):
    """A rating run leaves the standings not holding; the worker's next look at the
    figures (every second) writes them, while dead runs are looked for every heartbeat."""
    from ratings.management.commands import db_worker

    settings.RERATE_HEARTBEAT_SECONDS = 600
    monkeypatch.setattr(db_worker, "FIGURES_LOOK_SECONDS", 0.05)
    looked_for_dead_runs = []
    monkeypatch.setattr(db_worker, "runs_take_over", lambda: looked_for_dead_runs.append(1))
    stop = threading.Event()
    watcher = threading.Thread(target=db_worker._watch, args=(stop,))

    def written_by_a_look() -> bool:
        deadline = timezone.now() + dt.timedelta(seconds=20)
        while not services.list_figures_kept()["standings"] and timezone.now() < deadline:
            stop.wait(0.05)
        return services.list_figures_kept()["standings"]

    services.list_figures_keep()  # as a run's last step: the standings do not hold
    assert not services.list_figures_kept()["standings"]
    watcher.start()
    try:
        assert written_by_a_look()  # the worker's first look, as it starts
        # The next run, a moment later: its standings not holding (as before the worker
        # started, not asked again here: the worker may write them between two lines).
        services.list_figures_keep()
        assert written_by_a_look()  # long before the next heartbeat
    finally:
        stop.set()
        watcher.join()
    assert standings_kept() == standings_ranked()
    assert looked_for_dead_runs == [1]


@pytest.mark.django_db(transaction=True)
def test_the_first_payment_on_a_new_day_has_them_counted_once_it_commits(
    rated, current_season, bob
):
    PublishedListFigures.objects.filter(pk=1).update(
        figures={"day": "2001-01-01", "lists": {"standard": [99, 99]}, "regions": ["X"]}
    )
    services.subscription_record(member=bob, season=current_season)
    assert kept() == as_counted()


@pytest.mark.django_db(transaction=True)
def test_a_save_outside_any_transaction_has_them_counted_at_once(rated, current_season, bob):
    Subscription.objects.create(member=bob, season=current_season)
    assert kept() == as_counted()
    assert kept()["lists"]["standard"] == [2, 2]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time")
@pytest.mark.django_db(transaction=True)
def test_a_run_s_count_waits_for_a_payment_under_way(rated, current_season, bob):
    paying, counting = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def pay() -> None:
        with transaction.atomic():
            services.subscription_record(member=bob, season=current_season)
            paying.set()
            counting.wait(timeout=5)  # the count has begun, and waits on the row

    payment = started(pay, failures)
    assert paying.wait(timeout=30)
    threading.Timer(0.5, counting.set).start()
    services.list_figures_keep()
    payment.join(timeout=30)
    assert failures == []
    assert kept()["lists"]["standard"] == [2, 2]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time")
@pytest.mark.django_db(transaction=True)
def test_the_worker_never_waits_for_a_write_holding_the_figures(rated, current_season, bob):
    PublishedListFigures.objects.filter(pk=1).update(figures=None)
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                PublishedListFigures.objects.select_for_update().get(pk=1)
                holding.set()
                done.wait(timeout=10)
        finally:
            connection.close()

    writer = threading.Thread(target=hold)
    writer.start()
    try:
        assert holding.wait(timeout=30)
        assert not services.list_figures_refresh()  # at once: the write counts them
    finally:
        done.set()
        writer.join(timeout=30)
    assert kept() is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time")
@pytest.mark.django_db(transaction=True)
def test_a_payment_never_waits_for_a_system_switch_rating_in_the_background(
    rated, current_season, bob
):
    """A queued switch is made in its run's transaction, before it rates: the settings'
    save leaves the figures to the run's count at its end, not holding their row."""
    run = RatingRun.objects.create(
        status=RatingRun.Status.QUEUED,
        reason="Rating system set to st-charles",
        pending={"rating_system": "st-charles", "system_params": {}},
    )
    rating, paid = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def report(percent: int, message: str) -> None:
        if not rating.is_set():  # the switch is made: the run rates on once Bob has paid
            rating.set()
            paid.wait(timeout=10)

    def carry_out() -> None:
        services.ratings_rerate(
            services.RerateRequest(reason=run.reason), run=run, progress=report
        )

    switch = started(carry_out, failures)
    try:
        assert rating.wait(timeout=30)
        with transaction.atomic():
            services.subscription_record(member=bob, season=current_season)
        # Bob's payment came through while the run rated: its switch is not committed yet.
        assert ClubSettings.load().rating_system == "nz-club-elo"
    finally:
        paid.set()
        switch.join(timeout=30)
    assert failures == []
    assert ClubSettings.load().rating_system == "st-charles"
    assert kept() == as_counted() and kept()["lists"]["standard"] == [2, 2]


# -- whatever the writes: the kept figures are the count ------------------------------------

REGIONS = ["North", "South", "East", ""]
BORN = [None, dt.date(1970, 5, 1), dt.date(2015, 2, 3)]
writes = st.lists(
    st.one_of(
        st.tuples(st.just("pay"), st.integers(0, 4), st.booleans()),
        st.tuples(st.just("take back"), st.integers(0, 4), st.none()),
        st.tuples(st.just("region"), st.integers(0, 4), st.sampled_from(REGIONS)),
        st.tuples(st.just("guest"), st.integers(0, 4), st.booleans()),
        st.tuples(st.just("move payment"), st.integers(0, 4), st.integers(0, 4)),
        st.tuples(st.just("join"), st.integers(1000, 2400), st.sampled_from(REGIONS)),
        st.tuples(st.just("leave"), st.integers(0, 4), st.none()),
        st.tuples(st.just("renew"), st.integers(0, 4), st.none()),
        st.tuples(st.just("rate"), st.integers(0, 4), st.integers(0, 4)),
        st.tuples(st.just("merge"), st.integers(0, 4), st.integers(0, 4)),
        st.tuples(st.just("rename"), st.integers(0, 4), st.sampled_from(["Aa", "Zz"])),
        st.tuples(st.just("erase"), st.integers(0, 4), st.none()),
        st.tuples(st.just("born"), st.integers(0, 4), st.sampled_from(BORN)),
        st.tuples(st.just("gender"), st.integers(0, 4), st.sampled_from(["F", "M", ""])),
    ),
    min_size=1,
    max_size=8,
)


def committed() -> None:
    """As if the transaction had committed here: its on-commit work done (a test's
    transaction never commits)."""
    hooks, connection.run_on_commit = connection.run_on_commit, []
    for _, hook, _ in hooks:
        hook()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(writes=writes)
def test_the_kept_figures_are_a_count_s_after_every_write(writes):
    season = Season.for_day(timezone.localdate())
    past = Season.objects.get_or_create(
        name="1999", defaults={"start": dt.date(1999, 1, 1), "end": dt.date(1999, 12, 31)}
    )[0]
    with transaction.atomic():
        members = [
            # Two ratings tied: a tie shares its place, and the places below it skip one.
            MemberFactory(
                region=REGIONS[i % 4], initial_rating=1500 + 100 * (i % 3), initial_games=30
            )
            for i in range(5)
        ]
        paid_up(members[0], season), paid_up(members[1], season)
        services.list_figures_keep(standings=True)
        committed()
        for write in writes:
            _write(write, members, season, past)
            committed()
            assert kept() == as_counted(), write
            if not services.list_figures_kept()["standings"]:
                # A rating run (or a count after a write nobody follows) left the
                # standings to the worker, which writes them at its next look.
                services.list_figures_refresh()
            assert standings_kept() == standings_ranked(), write
        transaction.set_rollback(True)


def _write(write: tuple, members: list[Member], season: Season, past: Season) -> None:
    kind, a, b = write
    living = [m for m in members if Member.objects.filter(pk=m.pk).exists()]
    if not living:
        return
    member = Member.objects.get(pk=living[a % len(living)].pk)
    other = Member.objects.get(pk=living[(b if isinstance(b, int) else 0) % len(living)].pk)
    if kind == "pay" and not member.subscriptions.filter(season=season if b else past).exists():
        services.subscription_record(member=member, season=season if b else past)
    elif kind == "take back" and (payment := member.subscriptions.first()):
        services.subscription_remove(subscription=payment)
    elif kind == "region":
        member.region = b
        member.save()
    elif kind == "born":
        member.born = b
        member.save()
    elif kind == "gender":
        member.gender = b
        member.save()
    elif kind == "rename":
        member.name = f"{b} {member.pk}"
        member.save()
    elif kind == "erase" and member.merged_into_id is None:
        services.member_erase(member=member, reason="asked", by=None)
    elif kind == "guest":
        member.is_guest = b
        member.save()
    elif kind == "move payment" and (payment := member.subscriptions.first()):
        if not other.subscriptions.filter(season=payment.season).exists():
            payment.member = other
            payment.save()
    elif kind == "join":
        members.append(MemberFactory(region=b, initial_rating=a, initial_games=30))
    elif kind == "leave" and not (member.entries.exists() or member.merged_from.exists()):
        member.delete()
    elif kind == "renew":
        services.subscriptions_renew(members=[member], season=season)
    elif kind == "rate" and member != other:
        from ..factories import EventFactory, GameFactory

        event = EventFactory(status="complete", start_date=dt.date(2026, 3, 2))
        GameFactory(event=event, white=member, black=other)
        event.entries.create(member=member), event.entries.create(member=other)
        services.ratings_rerate(services.RerateRequest(start=event, reason="rated"))
    elif kind == "merge" and member != other and not other.merged_into_id:
        if services.merge_problem([other, member]):
            return
        services.members_merge(sources=[member], target=other)


def a_run_counts_as_the_worker_writes(monkeypatch, alice) -> None:
    """Once the worker has written the standings (before it marks them holding), a rating
    run moves Alice up and counts the figures."""
    write = list_standings.standings_write
    moved: list[bool] = []

    def written_then_rated(*args, **kwargs) -> None:
        write(*args, **kwargs)
        if not moved:
            moved.append(True)
            RatingState.objects.filter(member=alice).update(rating=F("rating") + 500)
            services.list_figures_keep()

    monkeypatch.setattr(list_standings, "standings_write", written_then_rated)


def test_standings_written_as_a_run_moved_the_list_are_not_marked_holding(
    rated, alice, monkeypatch
):
    monkeypatch.setattr(list_figures, "STANDINGS_TRIES", 1)
    a_run_counts_as_the_worker_writes(monkeypatch, alice)
    assert not services.list_figures_refresh()
    assert not services.list_figures_kept()["standings"]
    assert kept() == as_counted()


def test_the_worker_writes_again_what_a_run_moved_as_it_wrote(rated, alice, monkeypatch):
    a_run_counts_as_the_worker_writes(monkeypatch, alice)
    assert services.list_figures_refresh()
    assert services.list_figures_kept()["standings"]
    assert standings_kept() == standings_ranked()


#: Where the worker is held as it writes the standings: PostgreSQL, inside the transaction
#: writing a list's rows (placed, not committed); SQLite, whose one writer a transaction
#: holds from its BEGIN, once the rows are written and before they are marked holding.
HELD_IN = "standings_place" if connection.vendor == "postgresql" else "standings_write"


@pytest.mark.django_db(transaction=True)
def test_an_event_rated_while_the_worker_writes_the_standings_never_waits_for_it(
    rated, rated_event, alice, bob, monkeypatch
):
    """The worker's standings write (60,000 members: seconds) holds nothing a rating run's
    count needs: the run ends while it writes, and the standings the worker marks holding
    are the list as the run left it."""
    writing, written = threading.Event(), threading.Event()
    write = getattr(list_standings, HELD_IN)

    def written_then_held(*args, **kwargs) -> None:
        write(*args, **kwargs)
        writing.set()
        written.wait(timeout=30)

    monkeypatch.setattr(list_standings, HELD_IN, written_then_held)
    failures: list[BaseException] = []
    worker = started(services.list_figures_refresh, failures)
    try:
        assert writing.wait(timeout=30)
        rating = started(
            lambda: rated_event([(1, bob, alice, Game.Result.WHITE_WIN)], name="Rapid night"),
            failures,
        )
        rating.join(timeout=15)
        rated_meanwhile = not rating.is_alive()
    finally:
        written.set()
        worker.join(timeout=60)
        rating.join(timeout=60)
    assert rated_meanwhile, "the event's rating waited for the worker's standings"
    assert failures == []
    assert kept() == as_counted()
    if not services.list_figures_kept()["standings"]:
        services.list_figures_refresh()  # the worker's next look
    assert standings_kept() == standings_ranked()


# -- what a count of the list costs, whatever the club's size ----------------------------


def sqlite_plan(counted: Callable[[], object]) -> list[str]:
    """SQLite's plan for each query ``counted`` makes, step by step."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own plan")
    with CaptureQueriesContext(connection) as made:
        counted()
    with connection.cursor() as cursor:
        return [
            step
            for query in made.captured_queries
            for *_, step in cursor.execute(f"EXPLAIN QUERY PLAN {query['sql']}").fetchall()
        ]


@pytest.mark.parametrize(
    "counted",
    [
        lambda: published_list_size(time_class="standard"),
        lambda: Member.objects.published().count(),
    ],
    ids=["the list's size", "the published members"],
)
def test_the_published_members_are_read_by_their_own_keys_not_down_the_merged_index(
    rated, counted
):
    """Nearly every member is not merged: ``merged_into IS NULL`` sent SQLite (no
    statistics on the members) down that index, a seek in it before each member's row
    (the list's size at 60,000 members 93 ms against 56 by the members' own keys)."""
    plan = sqlite_plan(counted)
    assert not [step for step in plan if "merged_into" in step], plan
    assert any("INTEGER PRIMARY KEY" in step for step in plan), plan
