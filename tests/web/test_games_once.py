"""Every game once: games already recorded in another event are found at every preview,
naming that event, and saved again only with the officer's reason, kept with the event."""

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings.models import Entry, Event, Game
from ratings.rules.duplicates import RecordedGame, compare, fingerprint
from ratings.services.duplicates import EventIn, duplicates_find

from ..conftest import TRF_FILES
from ..factories import EventFactory

pytestmark = pytest.mark.django_db

GROS = TRF_FILES / "gros-open-2010.trf"
PGN = Path(__file__).resolve().parent.parent / "data" / "pgn"
DAY = dt.date(2026, 3, 10)
REASON = "The second section file holds the first section games, checked with the arbiter."


# -- the rule --------------------------------------------------------------------------


def recorded(*games, event=1, start=DAY, end=DAY):
    return [
        RecordedGame(event=event, name="Club night", start=start, end=end, print=fingerprint(**g))
        for g in games
    ]


def test_a_game_with_the_colours_swapped_and_the_result_turned_is_the_same_game():
    white_won = fingerprint(round=1, white=7, black=3, result="1-0")
    assert white_won == fingerprint(round=1, white=3, black=7, result="0-1")
    assert white_won != fingerprint(round=1, white=3, black=7, result="1-0")


def test_a_game_matches_only_on_overlapping_dates_and_in_the_same_round():
    game = {"round": 2, "white": 1, "black": 2, "result": "1/2-1/2"}
    coming = [fingerprint(**game)]
    assert compare(games=coming, start=DAY, end=DAY, recorded=recorded(game)).matched == 1
    later = DAY + dt.timedelta(days=1)
    assert compare(games=coming, start=later, end=later, recorded=recorded(game)).matched == 0
    other_round = {**game, "round": 3}
    assert compare(games=coming, start=DAY, end=DAY, recorded=recorded(other_round)).matched == 0


def test_one_coincidental_game_among_many_is_shown_but_is_not_a_duplicate():
    coming = [fingerprint(round=1, white=i, black=i + 100, result="1-0") for i in range(1, 11)]
    held = recorded({"round": 1, "white": 1, "black": 101, "result": "1-0"})
    found = compare(games=coming, start=DAY, end=DAY, recorded=held)
    assert found.found and found.matched == 1 and not found.is_duplicate


def test_three_matching_games_or_half_of_them_are_a_duplicate():
    coming = [fingerprint(round=1, white=i, black=i + 100, result="1-0") for i in range(1, 21)]
    held = recorded(
        *({"round": 1, "white": i, "black": i + 100, "result": "1-0"} for i in (1, 2, 3))
    )
    assert compare(games=coming, start=DAY, end=DAY, recorded=held).is_duplicate
    two = coming[:4]
    half = recorded(*({"round": 1, "white": i, "black": i + 100, "result": "1-0"} for i in (1, 2)))
    assert compare(games=two, start=DAY, end=DAY, recorded=half).is_duplicate


def test_a_game_twice_in_one_event_matches_a_recorded_game_once():
    game = {"round": 1, "white": 1, "black": 2, "result": "1-0"}
    found = compare(
        games=[fingerprint(**game), fingerprint(**game)],
        start=DAY,
        end=DAY,
        recorded=recorded(game),
    )
    assert found.matched == 1 and found.overlaps[0].games == 1


# -- a TRF on the web ------------------------------------------------------------------


def upload_trf(client, path=GROS):
    return client.post(
        reverse("ratings:officer-import"), {"file": SimpleUploadedFile("t.trf", path.read_bytes())}
    )


def confirm(client, **changes):
    preview = client.get(reverse("ratings:officer-import-preview"))
    form = preview.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update(rated="on", **changes)
    return client.post(reverse("ratings:officer-import-preview"), data)


def test_a_trf_uploaded_again_renamed_is_flagged_at_the_preview_naming_the_first(
    officer_client,
):
    upload_trf(officer_client)
    confirm(officer_client)
    first = Event.objects.get()
    upload_trf(officer_client)
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "These games are already recorded" in page
    assert reverse("ratings:officer-event", args=[first.pk]) in page
    assert first.name in page


def test_a_trf_confirmed_again_without_a_reason_is_refused_at_the_field_and_saves_nothing(
    officer_client,
):
    upload_trf(officer_client)
    confirm(officer_client)
    games = Game.objects.count()
    upload_trf(officer_client)
    response = confirm(officer_client, name="Gros open, second section")
    assert response.status_code == 200
    assert response.context["form"].errors["duplicate_reason"]
    assert "rename" not in " ".join(response.context["form"].errors["duplicate_reason"])
    assert Event.objects.count() == 1 and Game.objects.count() == games


def test_a_trf_confirmed_again_with_a_reason_is_saved_and_keeps_the_reason(officer_client):
    upload_trf(officer_client)
    confirm(officer_client)
    upload_trf(officer_client)
    response = confirm(officer_client, name="Gros open, second section", duplicate_reason=REASON)
    assert response.status_code == 302
    second = Event.objects.get(name="Gros open, second section")
    assert second.duplicate_reason == REASON
    assert second.history.first().duplicate_reason == REASON
    page = officer_client.get(reverse("ratings:officer-event", args=[second.pk]))
    assert REASON in page.content.decode()


def test_the_same_games_in_a_pgn_file_are_flagged_at_its_preview_and_need_a_reason(
    officer_client,
):
    upload_trf(officer_client)
    confirm(officer_client)
    first = Event.objects.get()
    games = Game.objects.count()
    officer_client.post(
        reverse("ratings:officer-import"),
        {"file": SimpleUploadedFile("t.pgn", (PGN / "two-tournaments-from-trf.pgn").read_bytes())},
    )
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "These games are already recorded" in page
    assert reverse("ratings:officer-event", args=[first.pk]) in page
    response = confirm(officer_client, name="Gros from the PGN")
    assert response.context["form"].errors["duplicate_reason"]
    assert Event.objects.count() == 1 and Game.objects.count() == games
    response = confirm(officer_client, name="Gros from the PGN", duplicate_reason=REASON)
    assert Event.objects.get(name="Gros from the PGN").duplicate_reason == REASON


# -- the commands ----------------------------------------------------------------------


def renamed_copy(tmp_path, path=GROS, name="Gros open, second section"):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines = [f"012 {name}\n" if line.startswith("012") else line for line in lines]
    copy = tmp_path / "renamed.trf"
    copy.write_text("".join(lines), encoding="utf-8")
    return copy


def test_import_trf_refuses_a_renamed_file_of_games_recorded_without_a_reason(tmp_path):
    call_command("import_trf", str(GROS), "--create-missing", stdout=io.StringIO())
    games = Game.objects.count()
    with pytest.raises(CommandError) as error:
        call_command("import_trf", str(renamed_copy(tmp_path)), stdout=io.StringIO())
    assert "--duplicate-reason" in str(error.value)
    assert "XX Open Internacional de Gros" in str(error.value)
    assert Event.objects.count() == 1 and Game.objects.count() == games


def test_import_trf_with_a_reason_records_them_again_and_keeps_the_reason(tmp_path):
    call_command("import_trf", str(GROS), "--create-missing", stdout=io.StringIO())
    call_command(
        "import_trf",
        str(renamed_copy(tmp_path)),
        "--duplicate-reason",
        REASON,
        stdout=io.StringIO(),
    )
    assert Event.objects.get(name="Gros open, second section").duplicate_reason == REASON


def test_import_pgn_refuses_games_recorded_from_a_trf_without_a_reason():
    call_command("import_trf", str(GROS), "--create-missing", stdout=io.StringIO())
    with pytest.raises(CommandError) as error:
        call_command(
            "import_pgn",
            str(PGN / "two-tournaments-from-trf.pgn"),
            "--create-missing",
            stdout=io.StringIO(),
        )
    assert "--duplicate-reason" in str(error.value)
    assert Event.objects.count() == 1


# -- a results file --------------------------------------------------------------------

# The club night's two games again, one written from the other side (Bob with white).
RESULTS_AGAIN = (
    "event,date,round,white,black,result\n"
    "Tuesday games,2026-03-02,1,B2,A1,0-1\n"
    "Tuesday games,2026-03-02,1,C3,D4,1/2-1/2\n"
)


@pytest.fixture
def club_night(rated_event, alice, bob, carol, dave):
    return rated_event([(1, alice, bob, "1-0"), (1, carol, dave, "1/2-1/2")])


def upload_results(client, text=RESULTS_AGAIN):
    return client.post(
        reverse("ratings:officer-import-results"),
        {"file": SimpleUploadedFile("results.csv", text.encode())},
    )


def test_a_results_file_of_games_recorded_is_flagged_at_the_preview(officer_client, club_night):
    upload_results(officer_client)
    page = officer_client.get(reverse("ratings:officer-import-results-preview"))
    text = page.content.decode()
    assert "These games are already recorded" in text
    assert reverse("ratings:officer-event", args=[club_night.pk]) in text


def test_a_results_file_of_games_recorded_is_refused_without_a_reason(officer_client, club_night):
    upload_results(officer_client)
    response = officer_client.post(reverse("ratings:officer-import-results-preview"))
    assert response.status_code == 200
    assert response.context["form"].errors["duplicate_reason"]
    assert Event.objects.count() == 1


def test_a_results_file_of_games_recorded_is_saved_with_a_reason_kept(officer_client, club_night):
    upload_results(officer_client)
    response = officer_client.post(
        reverse("ratings:officer-import-results-preview"), {"duplicate_reason": REASON}
    )
    assert response.status_code == 302
    assert Event.objects.get(name="Tuesday games").duplicate_reason == REASON


def test_import_results_refuses_games_recorded_without_a_reason(tmp_path, club_night):
    path = tmp_path / "results.csv"
    path.write_text(RESULTS_AGAIN)
    with pytest.raises(CommandError) as error:
        call_command("import_results", str(path), stdout=io.StringIO())
    assert "Club night" in str(error.value) and "line 2" in str(error.value)
    assert Event.objects.count() == 1
    call_command("import_results", str(path), "--duplicate-reason", REASON, stdout=io.StringIO())
    assert Event.objects.get(name="Tuesday games").duplicate_reason == REASON


# -- a pasted round --------------------------------------------------------------------


@pytest.fixture
def second_event(club_night, alice, bob, carol, dave):
    event = EventFactory(name="Tuesday games", rounds=1)
    for member in (alice, bob, carol, dave):
        Entry.objects.create(event=event, member=member)
    return event


def paste(client, event, **more):
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": "B2 - A1 0-1\nC3 - D4 ½-½", **more})


def test_a_pasted_round_of_games_recorded_is_flagged_at_its_preview(
    officer_client, club_night, second_event
):
    page = paste(officer_client, second_event, preview="1").content.decode()
    assert "These games are already recorded" in page
    assert reverse("ratings:officer-event", args=[club_night.pk]) in page


def test_a_pasted_round_of_games_recorded_is_saved_only_with_a_reason(
    officer_client, club_night, second_event
):
    response = paste(officer_client, second_event, save="1")
    assert response.context["form"].errors["duplicate_reason"]
    assert not second_event.games.exists()
    response = paste(officer_client, second_event, save="1", duplicate_reason=REASON)
    assert response.status_code == 302
    assert second_event.games.count() == 2
    second_event.refresh_from_db()
    assert second_event.duplicate_reason == REASON
    assert second_event.history.first().history_change_reason.startswith("games recorded again")


# -- completing an event ---------------------------------------------------------------


@pytest.fixture
def entered_again(second_event, alice, bob, carol, dave):
    """The club night's games entered in another event of the same day."""
    Game.objects.create(event=second_event, round=1, white=bob, black=alice, result="0-1")
    Game.objects.create(event=second_event, round=1, white=carol, black=dave, result="1/2-1/2")
    return second_event


def complete_url(event):
    return reverse("ratings:officer-event-complete", args=[event.pk])


def test_completing_an_event_of_games_recorded_warns_naming_the_other_event(
    officer_client, club_night, entered_again
):
    page = officer_client.get(complete_url(entered_again)).content.decode()
    assert "These games are already recorded" in page
    assert reverse("ratings:officer-event", args=[club_night.pk]) in page


def test_completing_an_event_of_games_recorded_needs_a_reason(
    officer_client, club_night, entered_again
):
    response = officer_client.post(complete_url(entered_again))
    assert response.context["form"].errors["duplicate_reason"]
    entered_again.refresh_from_db()
    assert not entered_again.is_complete and not entered_again.rating_changes.exists()
    officer_client.post(complete_url(entered_again), {"duplicate_reason": REASON})
    entered_again.refresh_from_db()
    assert entered_again.is_complete and entered_again.duplicate_reason == REASON


def test_an_event_keeping_a_reason_already_is_completed_without_asking_again(
    officer_client, club_night, entered_again
):
    entered_again.duplicate_reason = REASON
    entered_again.save()
    page = officer_client.get(complete_url(entered_again))
    assert REASON in page.content.decode()
    assert "duplicate_reason" not in page.content.decode()  # not asked again
    officer_client.post(complete_url(entered_again))
    entered_again.refresh_from_db()
    assert entered_again.is_complete


def test_the_games_of_every_event_coming_in_are_compared_in_one_query(
    club_night, alice, bob, carol, dave, django_assert_num_queries
):
    day = club_night.start_date
    games = [(1, bob.pk, alice.pk, "0-1"), (1, carol.pk, dave.pk, "1/2-1/2")]
    events = [EventIn(start=day, end=day, games=games * 50) for _ in range(20)]
    with django_assert_num_queries(1):
        found = duplicates_find(events=events)
    assert [f.matched for f in found] == [2] * 20
