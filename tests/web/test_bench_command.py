"""bench: on a tiny generated history it prints every figure as NAME: VALUE UNIT, and leaves
the history as it found it."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from ratings import services
from ratings.models import Event, Game, Member, RatingChange, RatingState
from tests.factories import MemberFactory

FIGURE = re.compile(r"^([a-z0-9_]+): (\d+(?:\.\d+)?) (s|ms|MB)$")
REQUIRED = {
    "full_rerate_1m_s",
    "full_rerate_peak_mb",
    "new_event_s",
    "correction_s",
    "list_page_ms",
    "list_last_page_ms",
    "list_csv_s",
    "member_page_ms",
    "calculator_ms",
    "trf_import_s",
}


@pytest.mark.django_db(transaction=True)  # the memory figure's child process reads the database
def test_every_figure_is_printed_as_name_value_unit():
    # SQLite's test database is in memory: no child process can open it.
    memory = connection.vendor != "sqlite"
    out, err = io.StringIO(), io.StringIO()
    args = ["--members", "80", "--games", "400", "--seed", "3", "--repeat", "2"]
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
    services.ratings_rerate(reason="check")
    assert list(states.values_list("member", "time_class", "rating", "last_event")) == ratings

    # A second run reuses the history.
    out = io.StringIO()
    call_command("bench", *args, "--no-memory", stdout=out, stderr=err)
    assert "generate_s" not in out.getvalue()
    assert "Reusing the history" in err.getvalue()


@pytest.mark.django_db
def test_a_club_the_generator_did_not_make_is_not_wiped():
    MemberFactory(name="Real Member")
    with pytest.raises(CommandError, match="generate_history did not make"):
        call_command("bench", "--members", "80", "--games", "400", stdout=io.StringIO())
    assert Member.objects.filter(name="Real Member").exists()
