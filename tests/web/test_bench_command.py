"""bench: on a tiny generated history it prints every figure as NAME: VALUE UNIT, and leaves
the history as it found it."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from ratings import services
from ratings.engine import SYSTEMS
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
    RatingList,
    RatingState,
)
from ratings.rules.time_classes import RAPID, STANDARD
from tests.factories import MemberFactory

#: The imported tournament's players: 300 by default, 20 here. The tests check the command
#: and its figures' names, not the figures; the import's pages are the same at any size.
FEW_PLAYERS = ["--trf-players", "20"]
FIGURE = re.compile(r"^([a-z0-9_]+): (\d+(?:\.\d+)?) (s|ms|MB)$")
REQUIRED = {
    "full_rerate_1m_s",
    "full_rerate_cpu_s",
    "full_rerate_peak_mb",
    "new_event_s",
    "correction_s",
    "list_page_ms",
    "list_page_cached_ms",
    "list_page_after_payment_ms",
    "payment_ms",
    "list_page_recounted_ms",
    "list_figures_count_ms",
    "list_page_while_counted_ms",
    "list_standings_write_ms",
    "list_last_page_ms",
    "list_csv_s",
    "member_page_ms",
    "live_region_ms",
    "live_juniors_ms",
    "live_women_ms",
    "live_sort_name_ms",
    "live_sort_desc_rating_ms",
    "live_recounted_ms",
    "calculator_ms",
    "officer_members_ms",
    "officer_members_arrears_ms",
    "officer_members_search_ms",
    "officer_members_recounted_ms",
    "trf_import_s",
}


@pytest.mark.django_db(transaction=True)  # the memory figure's child process reads the database
def test_every_figure_is_printed_as_name_value_unit():
    # SQLite's test database is in memory: no child process can open it.
    memory = connection.vendor != "sqlite"
    out, err = io.StringIO(), io.StringIO()
    args = ["--members", "80", "--games", "400", "--seed", "3", "--repeat", "2", *FEW_PLAYERS]
    call_command("bench", *args, *([] if memory else ["--no-memory"]), stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    figures = {}
    for line in lines:
        match = FIGURE.match(line)
        assert match, f"not NAME: VALUE UNIT: {line!r}"
        figures[match.group(1)] = match.group(3)
    assert REQUIRED - ({"full_rerate_peak_mb"} if not memory else set()) <= figures.keys()
    assert figures["list_page_ms"] == "ms" and figures["list_csv_s"] == "s"
    assert "generate_s" in figures  # the empty database got a history first
    # What the bench added (a new event, an imported tournament) is gone again.
    assert (Member.objects.count(), Game.objects.count()) == (80, 400)
    assert not Event.objects.filter(name__startswith="Bench").exists()
    # ... and the ratings are those of the history as it stands.
    assert not RatingChange.objects.filter(event__name__startswith="Bench").exists()
    states = RatingState.objects.order_by("member", "time_class")
    ratings = list(states.values_list("member", "time_class", "rating", "last_event"))
    services.ratings_rerate(services.RerateRequest(reason="check"))
    assert list(states.values_list("member", "time_class", "rating", "last_event")) == ratings

    # A second run reuses the history: here ecf-2020's, measured with its rapid list of its
    # own (its rating body keeps rapid play apart).
    out = io.StringIO()
    # Without the untimed GETs: the first run took the path with them.
    again = [*args, "--no-memory", "--no-warm-up", "--system", "ecf-2020"]
    call_command("bench", *again, stdout=out, stderr=err)
    assert "generate_s" not in out.getvalue()
    assert "Reusing the history" in err.getvalue()
    rapid = RatingList.objects.get(time_class=RAPID)
    assert (rapid.kept, rapid.rating_system) == (RatingList.Kept.OWN, "ecf-2020")
    assert RatingChange.objects.filter(time_class=RAPID).exists()
    assert RatingChange.objects.filter(time_class=STANDARD).exists()

    # The pages alone, on the history as it is rated: no re-rate, event or import.
    out = io.StringIO()
    call_command("bench", *again[:-2], "--pages-only", stdout=out, stderr=err)
    names = {FIGURE.match(line).group(1) for line in out.getvalue().splitlines()}  # type: ignore[union-attr]
    assert {"list_page_ms", "list_page_recounted_ms", "officer_members_search_ms"} <= names
    assert not names & {"full_rerate_1m_s", "new_event_s", "correction_s", "trf_import_s"}


@pytest.mark.django_db
def test_a_club_the_generator_did_not_make_is_not_wiped():
    MemberFactory(name="Real Member")
    with pytest.raises(CommandError, match="generate_history did not make"):
        call_command("bench", "--members", "80", "--games", "400", stdout=io.StringIO())
    assert Member.objects.filter(name="Real Member").exists()


SYSTEM_FIGURE = re.compile(r"^([a-z0-9-]+)\.([a-z0-9_]+): (\d+(?:\.\d+)?) (s|ms|MB)$")


@pytest.mark.django_db(transaction=True)
def test_every_system_is_measured_under_its_own_prefix():
    out, err = io.StringIO(), io.StringIO()
    # No untimed GET before each timed one: the test before took that path, and here the
    # figures' names are the subject (each page is still got, and answers 200, per system).
    args = ["--members", "80", "--games", "600", "--seed", "5", "--repeat", "1", "--no-memory"]
    args += ["--no-warm-up"]
    call_command("bench", *args, *FEW_PLAYERS, "--system", "all", stdout=out, stderr=err)
    figures: dict[str, set[str]] = {}
    for line in out.getvalue().splitlines():
        if line.startswith("generate_s:"):
            continue
        match = SYSTEM_FIGURE.match(line)
        assert match, f"not SYSTEM.NAME: VALUE UNIT: {line!r}"
        figures.setdefault(match.group(1), set()).add(match.group(2))
    assert figures.keys() == set(SYSTEMS)
    for system_id, names in figures.items():
        assert REQUIRED - {"full_rerate_peak_mb"} <= names, system_id
    # The club is left on the last system measured, rated as a full re-rate rates it.
    assert ClubSettings.load().rating_system == sorted(SYSTEMS)[-1]
    assert not Event.objects.filter(name__startswith="Bench").exists()


def test_the_imported_tournament_pairs_every_player_each_round():
    with pytest.raises(CommandError, match="an even number"):
        call_command("bench", "--trf-players", "21", stdout=io.StringIO())
