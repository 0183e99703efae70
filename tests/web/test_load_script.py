"""scripts/load.py, run tiny against a live server: readers read the public pages and the
API, and the figures come out as ``NAME: VALUE UNIT`` lines."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

from ratings.models import Game

from ..factories import paid_up

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
