"""scripts/load.py, run tiny against a live server: readers read the public pages and the
API, and the figures come out as ``NAME: VALUE UNIT`` lines."""

from __future__ import annotations

import datetime as dt
import re
import runpy
from pathlib import Path

import pytest

from ratings.models import Event, Game

from ..factories import officer_user, paid_up

LOAD = Path(__file__).resolve().parents[2] / "scripts" / "load.py"


@pytest.fixture
def night(transactional_db, rated_event, current_season, alice, bob):  # type: ignore[no-untyped-def]
    for member in (alice, bob):
        paid_up(member, current_season)
    return rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])


def test_two_readers_for_two_seconds_report_their_figures(live_server, night, capsys):
    load = runpy.run_path(str(LOAD))
    status = load["main"](["--url", live_server.url, "--readers", "2", "--seconds", "2"])
    out = capsys.readouterr().out
    figures = dict(re.findall(r"^(served_\w+): ([\d.]+) ", out, re.MULTILINE))
    assert status == 0, out
    assert float(figures["served_rps"]) > 0
    assert int(figures["served_errors"]) == 0
    assert 0 < float(figures["served_p50_ms"]) <= float(figures["served_p95_ms"])
    # The pages read by default: the list, the home page, a member, an event, the API.
    for page in ("/ratings/", "/members/A1/", f"/events/{night.pk}/report/", "/api/v1/list"):
        assert page in out


def test_the_officer_completes_each_event_in_turn(
    live_server, night, rated_event, alice, bob, capsys
):
    officer_user(password="load-test-2026")
    nights = [
        rated_event([(1, alice, bob, Game.Result.DRAW)], date=day, rate=False)
        for day in (dt.date(2026, 3, 9), dt.date(2026, 3, 16))
    ]
    Event.objects.filter(pk__in=[e.pk for e in nights]).update(status=Event.Status.DRAFT)
    load = runpy.run_path(str(LOAD))
    # No readers: SQLite's in-memory test database locks a table a writer holds.
    readers = ["--url", live_server.url, "--readers", "0", "--seconds", "5", "--page", "/"]
    writes = ["--officer", "olivia:load-test-2026", "--officer-delay", "0", "--write-every", "0.2"]
    status = load["main"]([*readers, *writes, *(f"--rate-event={e.pk}" for e in nights)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "officer_writes: 2 events" in out
    assert not Event.objects.filter(status=Event.Status.DRAFT).exists()
