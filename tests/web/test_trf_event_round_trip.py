"""An event exported as a TRF file and imported again is the same event: its kind, whether
it is rated, and the list (time class) it is rated on."""

from __future__ import annotations

import pytest

from ratings.formats import trf
from ratings.formats.tournament_files import trf_event
from ratings.formats.trf_export import event_to_trf
from ratings.models import Event
from ratings.rules.time_classes import BLITZ, RAPID, STANDARD

from ..factories import EventFactory, GameFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", [k for k, _ in Event.Kind.choices])
@pytest.mark.parametrize(
    ("time_class", "rated"), [(STANDARD, True), (RAPID, True), (BLITZ, False)]
)
def test_kind_rated_and_list_come_back_from_the_file(kind, time_class, rated, alice, bob):
    event = EventFactory(kind=kind, time_class=time_class, rated=rated, time_control="")
    GameFactory(event=event, white=alice, black=bob, round=1)
    event.entries.create(member=alice)
    event.entries.create(member=bob)
    read, problems = trf_event("export.trf", event_to_trf(event).encode())
    assert not problems and read is not None
    assert (read.kind, read.time_class, read.rated) == (kind, time_class, rated)


def test_an_events_tie_breaks_come_back_from_its_file(alice, bob):
    from ratings.services.tournament_imports import files_import

    event = EventFactory(name="Autumn Swiss", tie_breaks="SB,WIN,BH/M1")
    GameFactory(event=event, white=alice, black=bob, round=1)
    event.entries.create(member=alice)
    event.entries.create(member=bob)
    read, _problems = trf_event("export.trf", event_to_trf(event).encode())
    assert read is not None
    event.delete()
    files_import([read], problems=[], create_missing=False)
    assert Event.objects.get(name="Autumn Swiss").tie_break_codes == ("SB", "WIN", "BH/M1")


def test_fide_092_words_give_the_kind_without_the_clubs_lines():
    from ratings.forms import KIND_FROM_TRF

    def kind(words: str) -> str:
        return next((k for w, k in KIND_FROM_TRF if w in words.lower()), Event.Kind.SWISS)

    assert kind("Individual: Swiss-System") == Event.Kind.SWISS
    assert kind("Individual: Round Robin") == Event.Kind.ROUND_ROBIN
    assert kind("Individual: Club night") == Event.Kind.CLUB_NIGHT
    assert kind("Individual: Match") == Event.Kind.MATCH
    assert kind("Team: League / interclub") == Event.Kind.LEAGUE


def test_a_file_without_the_clubs_lines_says_nothing_of_them():
    tournament = trf.parse("012 Open\n" + "001    1      A" + "\n")
    assert (tournament.time_class, tournament.rated) == ("", None)


def test_every_demo_event_comes_back_from_its_file_the_same_event():
    import io

    from django.core.management import call_command

    call_command("load_demo", "--force", stdout=io.StringIO())
    events = list(Event.objects.all())
    assert len(events) >= 40
    for event in events:
        read, problems = trf_event(f"{event.name}.trf", event_to_trf(event).encode())
        assert not problems and read is not None, event.name
        assert (read.name, read.kind, read.time_class, read.rated) == (
            event.name,
            event.kind,
            event.time_class,
            event.rated,
        ), event.name
        assert (read.start, read.end, read.rounds) == (
            event.start_date,
            event.end_date,
            event.rounds,
        ), event.name
