"""One rating run at a time: corrections during a run wait their turn, and a new system is
what the site names only once the ratings stored are its own."""

from __future__ import annotations

import io
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from ratings import services
from ratings.models import ClubSettings, Event, Game, RatingRun
from ratings.services import rerate, rerate_chain, runs

from .test_rerate import full_rerate, ratings_now

POSTGRES_ONLY = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite takes one writer at a time: a correction waits at BEGIN IMMEDIATE",
)


@pytest.fixture(autouse=True)
def _an_officer_waiting_on_the_page():
    """Every save here is made as a page makes it: a re-rate too long for it is queued."""
    with services.rerates_for_a_page():
        yield


@pytest.fixture
def slow_club(settings):
    """Every re-rate counts as long, so each goes to the background."""
    settings.RERATE_FOREGROUND_SECONDS = 0


def _queued_runs_carried_out() -> None:
    """What the worker does: every queued run, in the order queued."""
    while run := RatingRun.objects.filter(status=RatingRun.Status.QUEUED).order_by("pk").first():
        services.rerate_run(run=run, start=services.position_from_json(run.start))


# -- the site names a new system once its ratings are stored ------------------------------


@pytest.mark.django_db
def test_a_queued_switch_leaves_the_old_system_named_over_the_old_ratings(
    client, slow_club, rated_event, alice, bob, django_capture_on_commit_callbacks
):
    rated_event([(1, alice, bob, "1-0")])
    before = ratings_now()
    with django_capture_on_commit_callbacks(execute=False):
        run = services.rating_system_set(system_id="st-charles")
    assert run.status == RatingRun.Status.QUEUED
    assert ClubSettings.load().rating_system == "nz-club-elo"
    assert ratings_now() == before
    assert "NZ" in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_site_names_the_new_system_once_its_run_has_stored_its_ratings(
    client, slow_club, rated_event, alice, bob, django_capture_on_commit_callbacks
):
    rated_event([(1, alice, bob, "1-0")])
    with django_capture_on_commit_callbacks(execute=True):
        run = services.rating_system_set(system_id="st-charles", params={"start_rating": 1200})
    run.refresh_from_db()
    club = ClubSettings.load()
    assert run.status == RatingRun.Status.DONE
    assert (club.rating_system, club.system_params) == ("st-charles", {"start_rating": 1200})
    assert club.get_rating_system_display() in client.get("/").content.decode()
    assert ratings_now() == full_rerate()


@pytest.mark.django_db
def test_a_switch_whose_run_fails_leaves_the_old_system_and_its_ratings(
    slow_club, rated_event, alice, bob, django_capture_on_commit_callbacks, monkeypatch
):
    rated_event([(1, alice, bob, "1-0")])
    before = ratings_now()
    with django_capture_on_commit_callbacks(execute=False):
        run = services.rating_system_set(system_id="st-charles")

    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(rerate_chain.Chain, "rate", broken)
    with pytest.raises(RuntimeError):
        services.rerate_run(run=run, start=None)
    assert ClubSettings.load().rating_system == "nz-club-elo"
    assert ratings_now() == before


@pytest.mark.django_db
def test_the_admin_switch_saves_the_rest_of_the_settings_at_once_and_the_system_with_its_run(
    admin_client, slow_club, rated_event, alice, bob, django_capture_on_commit_callbacks
):
    from .test_rerate import admin_form

    rated_event([(1, alice, bob, "1-0")])
    url = f"/admin/ratings/clubsettings/{ClubSettings.load().pk}/change/"
    data = admin_form(admin_client.get(url))
    data.update(rating_system="st-charles", system_params="{}", name="Riverside CC")
    data["_confirm_rerate"] = "1"
    with django_capture_on_commit_callbacks(execute=False) as queued:
        page = admin_client.post(url, data, follow=True).content.decode()
    assert "name St. Charles (CXR-style, per game) once its ratings are stored" in page
    club = ClubSettings.load()
    assert (club.name, club.rating_system) == ("Riverside CC", "nz-club-elo")
    for callback in queued:
        callback()
    assert ClubSettings.load().rating_system == "st-charles"


# -- a correction during a run --------------------------------------------------------------


@pytest.mark.django_db
def test_a_correction_inside_a_transaction_while_the_ratings_lock_is_taken_is_queued_behind(
    rated_event, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    event = rated_event([(1, alice, bob, "1-0")])
    monkeypatch.setattr(runs, "ratings_lock_take", lambda *, wait: False)
    monkeypatch.setattr(rerate, "ratings_lock_take", lambda *, wait: False)
    with django_capture_on_commit_callbacks(execute=False), transaction.atomic():
        run = services.ratings_rerate(
            services.RerateRequest(start=event, changed=event, reason="a correction")
        )
    assert run.status == RatingRun.Status.QUEUED
    assert run.message == runs.WAITING_BEHIND


def _club_of(games: int) -> list[Event]:
    call_command(
        "generate_history",
        "--members",
        str(games // 40),
        "--games",
        str(games),
        "--seed",
        "11",
        stdout=io.StringIO(),
    )
    return list(Event.objects.order_by("end_date", "pk"))


def _round_corrected(event: Event) -> list[Game]:
    """The event's first round with its first game's result turned round (or back)."""
    games = list(event.games.filter(round=1).order_by("board", "pk"))
    first = next(g for g in games if g.black_id is not None)
    win, loss = Game.Result.WHITE_WIN, Game.Result.BLACK_WIN
    return [
        Game(
            round=g.round,
            board=g.board,
            white_id=g.white_id,
            black_id=g.black_id,
            result=(loss if g.result == win else win) if g.pk == first.pk else g.result,
        )
        for g in games
    ]


@POSTGRES_ONLY
@pytest.mark.django_db(transaction=True)
def test_corrections_during_a_system_switch_never_deadlock_and_leave_a_full_re_rate(
    settings, monkeypatch
):
    """The measured deadlock: the background run of a switch holds the ratings while the
    officer saves a corrected round, whose re-rate is short enough to run in the page
    (its event's row locked, then waiting for the run, which waits for that row). 20
    tries, each with the correction landing mid-run: no deadlock, no error, a full
    re-rate's ratings after."""
    events = _club_of(3_000)
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)  # this test is the worker
    # The switch's run rates this small club in a blink: held as it saves the current
    # ratings (after its progress says it has rated) until the correction is saved or
    # waits for a lock, it is still running when the correction lands, however fast the
    # re-rate gets.
    write_states = rerate_chain.Chain.write_states
    corrected = threading.Event()

    def write_states_after_the_correction(chain: rerate_chain.Chain, *, everyone: bool) -> None:
        if threading.current_thread().name == "switch":
            deadline = time.monotonic() + 30
            while not corrected.wait(0.01) and time.monotonic() < deadline:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
                    if cursor.fetchone()[0]:
                        break  # the correction waits for the run
        write_states(chain, everyone=everyone)

    monkeypatch.setattr(rerate_chain.Chain, "write_states", write_states_after_the_correction)
    tries, overlapped, seconds = 20, 0, []
    failures: list[BaseException] = []
    for n in range(tries):
        settings.RERATE_FOREGROUND_SECONDS = 0  # the switch goes to the background
        with transaction.atomic():
            run = services.rating_system_set(system_id="nz-club-elo", params={"k_new": 30 + n % 2})
        assert run.status == RatingRun.Status.QUEUED
        settings.RERATE_FOREGROUND_SECONDS = 1000  # the correction would re-rate now
        corrected.clear()
        event = events[len(events) // 3 + n % (len(events) // 2)]

        def switch(run: RatingRun = run) -> None:
            try:
                services.rerate_run(run=run, start=None)
            except BaseException as error:
                failures.append(error)
            finally:
                connection.close()

        def correct(event: Event = event, run: RatingRun = run) -> None:
            try:
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    progress = RatingRun.objects.get(pk=run.pk).progress
                    if progress >= 10:
                        break
                    time.sleep(0.01)
                services.games_replace(
                    event=Event.objects.get(pk=event.pk),
                    games=_round_corrected(event),
                    rounds=[1],
                    reason="score sheet misread",
                )
            except BaseException as error:
                failures.append(error)
            finally:
                corrected.set()
                connection.close()

        clock = time.monotonic()
        officers = [
            threading.Thread(target=switch, name="switch"),
            threading.Thread(target=correct),
        ]
        for officer in officers:
            officer.start()
        for officer in officers:
            officer.join(timeout=120)
        seconds.append(time.monotonic() - clock)
        run.refresh_from_db()
        assert failures == [], failures
        assert run.status == RatingRun.Status.DONE
        behind = RatingRun.objects.filter(status=RatingRun.Status.QUEUED).count()
        overlapped += behind > 0  # the correction came while the run held the lock
        _queued_runs_carried_out()
        stored = ratings_now()
        assert stored == full_rerate(), f"try {n + 1}: the stored ratings are not a full re-rate"
        assert ClubSettings.load().system_params == {"k_new": 30 + n % 2}
    print(f"{tries} tries, {overlapped} queued behind the run, {max(seconds):.1f}s at most")
    assert overlapped >= tries // 2


@pytest.mark.django_db
def test_a_lists_new_system_queued_is_made_with_its_ratings(
    slow_club, rated_event, alice, bob, django_capture_on_commit_callbacks
):
    from ratings.models import RatingList

    rapid = RatingList.objects.create(time_class="rapid", kept=RatingList.Kept.OWN)
    rated_event([(1, alice, bob, "1-0")], time_class="rapid")
    services.ratings_rerate(services.RerateRequest(reason="rapid list"))
    rapid.rating_system = "st-charles"
    with django_capture_on_commit_callbacks(execute=False) as queued:
        run = services.rating_list_set(rating_list=rapid)
    assert run.status == RatingRun.Status.QUEUED
    assert RatingList.objects.get(time_class="rapid").rating_system == "nz-club-elo"
    for callback in queued:
        callback()
    assert RatingList.objects.get(time_class="rapid").rating_system == "st-charles"
    assert ratings_now() == full_rerate()


@pytest.mark.django_db
def test_a_save_that_waited_out_a_runs_write_lock_says_nothing_was_saved(
    officer_client, rated_event, alice, bob, monkeypatch
):
    from django.db import OperationalError
    from django.urls import reverse

    event = rated_event([(1, alice, bob, "1-0")])

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "games_replace", locked)
    data = {"g-TOTAL_FORMS": "1", "g-INITIAL_FORMS": "0"}
    data.update({"g-0-white": alice.pk, "g-0-black": bob.pk, "g-0-result": "0-1"})
    response = officer_client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "Nothing was saved" in response.content.decode()
    assert "database is locked" not in response.content.decode()
