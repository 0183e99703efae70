"""A multi-event PGN of real tournaments, imported, rated, and checked against its source:
the TRF files it was written from (tests/data/pgn/README.md)."""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from ratings import services
from ratings.formats import trf
from ratings.models import Event, Game, RatingChange
from ratings.rules.names import given_surname

from ..conftest import TRF_FILES

pytestmark = pytest.mark.django_db

PGN = Path(__file__).resolve().parent.parent / "data" / "pgn" / "two-tournaments-from-trf.pgn"
SOURCES = [TRF_FILES / "gros-open-2010.trf", TRF_FILES / "lichess-swiss-2020-05.trf"]


def played(tournament: trf.Tournament) -> dict[tuple[int, str, str], str]:
    """The source's games played over the board: (round, white, black) → result, the
    names as the import stores them (given name first)."""
    return {
        (
            g.round,
            given_surname(tournament.player(g.white).name),
            given_surname(tournament.player(g.black).name),
        ): g.result
        for g in tournament.games()
        if g.black is not None and g.result in Game.PLAYED
    }


def assert_as_the_source_says(event: Event, tournament: trf.Tournament) -> None:
    games = {
        (g.round, g.white.name, g.black.name): g.result
        for g in event.games.select_related("white", "black")
    }
    assert games == played(tournament)
    score: dict[str, float] = defaultdict(float)
    for (_round, white, black), result in games.items():
        score[white] += Game.POINTS[result][0]
        score[black] += Game.POINTS[result][1]
    for player in tournament.players:
        own = sum(
            trf.CODE_POINTS[r.code] for r in player.results if r.code in "1=0" and r.opponent
        )
        assert score.get(given_surname(player.name), 0) == own, player.name
    rated = {name for key in games for name in key[1:]}
    changed = set(RatingChange.objects.filter(event=event).values_list("member__name", flat=True))
    # The Lichess Swiss was played online: kept, rated on no list.
    assert changed == (set() if event.online else rated)


def test_the_command_imports_each_tournament_as_its_source_has_it():
    out = io.StringIO()
    call_command("import_pgn", "--create-missing", str(PGN), stdout=out)
    assert (
        out.getvalue().strip().splitlines()[-1].endswith("145 games rated, 0 unplayed, 2 events")
    )
    for path in SOURCES:
        tournament = trf.parse(path.read_bytes())
        event = Event.objects.get(name=tournament.name.strip())
        assert event.start_date == tournament.start
        assert_as_the_source_says(event, tournament)


def test_the_web_import_takes_each_tournament_in_turn_as_its_source_has_it(officer_client):
    preview = reverse("ratings:officer-import-preview")
    officer_client.post(
        reverse("ratings:officer-import"), {"file": SimpleUploadedFile(PGN.name, PGN.read_bytes())}
    )
    for _ in SOURCES:
        form = officer_client.get(preview).context["form"]
        data = {name: form[name].value() for name in form.fields}
        data["rated"] = "on"
        officer_client.post(preview, data)
    for path in SOURCES:
        tournament = trf.parse(path.read_bytes())
        event = Event.objects.get(name=tournament.name.strip())
        event.status = Event.Status.COMPLETE
        event.save()
    services.ratings_rerate(services.RerateRequest(reason="test: rate the imported events"))
    for path in SOURCES:
        tournament = trf.parse(path.read_bytes())
        assert_as_the_source_says(Event.objects.get(name=tournament.name.strip()), tournament)
