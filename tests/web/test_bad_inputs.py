"""A catalogue of bad inputs, as a careless user or an attacker types them.

Every form and import of the app, each bad input: refused with a message at the field
(or the line) it concerns, and nothing saved (every table of the record counted before
and after). Control characters, zero-width names, NUL, huge numbers, impossible dates,
the years 1 and 9999, a player twice, a player against themselves...
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from ratings.models import (
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
    Season,
    Subscription,
)

from ..factories import EventFactory, MemberFactory, SubscriptionFactory

pytestmark = pytest.mark.django_db

MODELS = (Member, Subscription, Season, Event, Entry, Game, RatingChange, RatingState, RatingRun)


def days_from_today(days: int) -> Callable[[], str]:
    """A date field's value, read as the test posts it: ``days`` from the club's today
    (Django's time zone, the forms' own). A date read as the module is imported is
    yesterday's for a test that runs after midnight, and the machine's date
    (``dt.date.today()``) is not the club's for hours of each day where its zone is not
    the club's: "born tomorrow" was then born today, and allowed."""
    return lambda: (timezone.localdate() + dt.timedelta(days=days)).isoformat()


def posted(data: dict[str, Any]) -> dict[str, Any]:
    """The form's data with each date worked out now (``days_from_today``)."""
    return {key: value() if callable(value) else value for key, value in data.items()}


HUGE = "9" * 40
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
CONTROL = "\x07\x08\x1b\x7f"


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def club(alice, bob, carol, dave, current_season):  # type: ignore[no-untyped-def]
    """Four paid-up members and a draft Swiss of three rounds they all entered."""
    for member in (alice, bob, carol, dave):
        SubscriptionFactory(member=member, season=current_season)
    day = timezone.localdate() - dt.timedelta(days=2)
    event = EventFactory(name="Club night", start_date=day, end_date=day, rounds=3)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def refused(response: Any, field: str, message: str, form: str = "form") -> None:
    """The page came back (200) with ``message`` among ``field``'s errors."""
    assert response.status_code == 200, response.get("Location")
    errors = response.context[form].errors
    found = errors.get(field, []) if hasattr(errors, "get") else []
    assert any(message in str(e) for e in found), dict(errors)


# -- the officer's member form -----------------------------------------------------------

MEMBER = {
    "name": "Erin Evans",
    "member_number": "E5",
    "born": "1990-05-01",
    "gender": "F",
    "region": "North",
    "title": "",
    "fide_id": "",
    "initial_rating": "1500",
    "initial_games": "0",
}

MEMBER_CASES = {
    "empty name": ({"name": ""}, "name", "required"),
    "name of spaces": ({"name": "   "}, "name", "required"),
    "name of zero-width characters": ({"name": ZERO_WIDTH}, "name", "must contain letters"),
    "name of control characters": ({"name": CONTROL}, "name", "must contain letters"),
    "name with a control character": ({"name": "Erin\x1b[31m Evans"}, "name", "control"),
    "name with a NUL": ({"name": "Erin\x00Evans"}, "name", "Null characters"),
    "name with a line break": ({"name": "Erin\nEvans"}, "name", "control"),
    "name that overrides the text direction": (
        {"name": "Erin \u202eSnave"},
        "name",
        "control",
    ),
    "name too long": ({"name": "E" * 121}, "name", "at most 120"),
    "region with a control character": ({"region": "North\x1b[2J"}, "region", "control"),
    "region with a line break": ({"region": "North\nSouth"}, "region", "control"),
    "region that overrides the text direction": (
        {"region": "\u202eNorth"},
        "region",
        "invisible characters (here U+202E)",
    ),
    "number taken (another case)": ({"member_number": "a1"}, "member_number", "Another member"),
    "number with a space": ({"member_number": "E 5"}, "member_number", "Letters, digits"),
    "number with a NUL": ({"member_number": "E\x005"}, "member_number", "Null characters"),
    "number empty": ({"member_number": ""}, "member_number", "required"),
    "born in the future": (
        {"born": days_from_today(1)},
        "born",
        "future",
    ),
    "born in year 1": ({"born": "0001-01-01"}, "born", "before 1900"),
    "born in 9999": ({"born": "9999-12-31"}, "born", "future"),
    "born on 30 February": ({"born": "2000-02-30"}, "born", "valid date"),
    "born as text": ({"born": "yesterday"}, "born", "valid date"),
    "gender not M or F": ({"gender": "X"}, "gender", "valid choice"),
    "title not FIDE's": ({"title": "GMX"}, "title", "valid choice"),
    "FIDE id not digits": ({"fide_id": "12a4"}, "fide_id", "digits only"),
    "FIDE id too long": ({"fide_id": "1" * 13}, "fide_id", "at most 12"),
    "rating below 0": ({"initial_rating": "-100"}, "initial_rating", "below 0"),
    "rating huge": ({"initial_rating": HUGE}, "initial_rating", "at most 3500"),
    "rating infinite": ({"initial_rating": "inf"}, "initial_rating", "Enter a number"),
    "rating not a number": ({"initial_rating": "NaN"}, "initial_rating", "Enter a number"),
    "games below 0": ({"initial_games": "-1"}, "initial_games", "below 0"),
    "games huge": ({"initial_games": HUGE}, "initial_games", "at most 100,000"),
    "games a fraction": ({"initial_games": "2.5"}, "initial_games", "whole number"),
}


@pytest.mark.parametrize("case", list(MEMBER_CASES))
def test_the_member_form_refuses_a_bad_input_at_its_field(case, officer_client, club) -> None:  # type: ignore[no-untyped-def]
    changes, field, message = MEMBER_CASES[case]
    before = counts()
    response = officer_client.post(
        reverse("ratings:officer-member-add"), posted({**MEMBER, **changes})
    )
    refused(response, field, message)
    assert counts() == before


# -- the event form ----------------------------------------------------------------------

EVENT = {
    "name": "Autumn rapid",
    "kind": "swiss",
    "start_date": days_from_today(0),
    "end_date": days_from_today(0),
    "rounds": "5",
    "time_control": "G/15",
    "rated": "on",
}

EVENT_CASES = {
    "empty name": ({"name": ""}, "name", "required"),
    "name of zero-width characters": ({"name": ZERO_WIDTH}, "name", "must contain letters"),
    "name with a control character": ({"name": "Autumn\x07 rapid"}, "name", "control"),
    "name with a NUL": ({"name": "Autumn\x00rapid"}, "name", "Null characters"),
    "kind unknown": ({"kind": "blitz-ish"}, "kind", "valid choice"),
    "start in year 1": ({"start_date": "0001-01-01"}, "start_date", "before 1900"),
    "end in 9999": ({"end_date": "9999-12-31"}, "end_date", "more than a year ahead"),
    "end before start": (
        {"end_date": days_from_today(-1)},
        "end_date",
        "cannot end before",
    ),
    "date on 31 April": ({"start_date": "2026-04-31"}, "start_date", "valid date"),
    "no rounds": ({"rounds": "0"}, "rounds", "greater than or equal to 1"),
    "100 rounds": ({"rounds": "100"}, "rounds", "less than or equal to 99"),
    "rounds huge": ({"rounds": HUGE}, "rounds", "less than or equal to 99"),
    "rounds a fraction": ({"rounds": "2.5"}, "rounds", "whole number"),
    "time control too long": ({"time_control": "x" * 41}, "time_control", "at most 40"),
    "time control with a control character": (
        {"time_control": "G/15\x07"},
        "time_control",
        "control",
    ),
    "time control that overrides the text direction": (
        {"time_control": "G/\u202e51"},
        "time_control",
        "invisible characters (here U+202E)",
    ),
}


@pytest.mark.parametrize("case", list(EVENT_CASES))
def test_the_event_form_refuses_a_bad_input_at_its_field(case, officer_client, club) -> None:  # type: ignore[no-untyped-def]
    changes, field, message = EVENT_CASES[case]
    before = counts()
    response = officer_client.post(
        reverse("ratings:officer-event-add"), posted({**EVENT, **changes})
    )
    refused(response, field, message)
    assert counts() == before


# -- a round's page ----------------------------------------------------------------------


def _round(rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"g-{i}-{key}"] = value
    return data


def _game(white: Member | None, black: Member | None, result: str, **more: Any) -> dict[str, Any]:
    return {
        "white": white.pk if white else "",
        "black": black.pk if black else "",
        "result": result,
        **more,
    }


ROUND_CASES = {
    # case: (rows as (white, black, result, extra) by fixture name, the row, field, message)
    "self-pairing": ([("alice", "alice", "1-0")], 0, "black", "cannot play themselves"),
    "a player twice in the round": (
        [("alice", "bob", "1-0"), ("carol", "alice", "0-1")],
        1,
        "black",
        "already paired on board 1",
    ),
    "no result": ([("alice", "bob", "")], 0, "result", "Enter the result"),
    "result not one": ([("alice", "bob", "2-0")], 0, "result", "Not a result"),
    "result with a NUL": ([("alice", "bob", "1-0\x00")], 0, "result", "Not a result"),
    "a bye with black": ([("alice", "bob", "bye")], 0, "result", "one player only"),
    "a game without black": ([("alice", None, "1-0")], 0, "black", "Choose black"),
    "a player not in the event": ([("alice", "erin", "1-0")], 0, "black", "not in this event"),
    "a player number that is text": ([("alice", "x", "1-0")], 0, "black", "not in this event"),
    "a player number huge": ([("alice", HUGE, "1-0")], 0, "black", "not in this event"),
    "board 0": ([("alice", "bob", "1-0", {"board": "0"})], 0, "board", "from 1 to 32767"),
    "board huge": ([("alice", "bob", "1-0", {"board": HUGE})], 0, "board", "from 1 to 32767"),
    "board text": ([("alice", "bob", "1-0", {"board": "first"})], 0, "board", "from 1 to 32767"),
}


@pytest.mark.parametrize("case", list(ROUND_CASES))
def test_a_rounds_page_refuses_a_bad_row_at_its_field(case, officer_client, club, request) -> None:  # type: ignore[no-untyped-def]
    rows, index, field, message = ROUND_CASES[case]
    erin = MemberFactory(member_number="E5", name="Erin Evans")  # not in the event

    def pk(name: str | None) -> Any:
        if name is None:
            return ""
        if name == "erin":
            return erin.pk
        if name in ("alice", "bob", "carol", "dave"):
            return request.getfixturevalue(name).pk
        return name  # a tampered value, sent as it is

    data = _round(
        [
            {"white": pk(r[0]), "black": pk(r[1]), "result": r[2], **(r[3] if len(r) > 3 else {})}
            for r in rows
        ]
    )
    before = counts()
    response = officer_client.post(reverse("ratings:officer-round", args=[club.pk, 1]), data)
    assert response.status_code == 200
    errors = response.context["formset"].forms[index].errors
    assert any(message in e for e in errors.get(field, [])), dict(errors)
    assert counts() == before


def test_a_rounds_page_refuses_a_round_past_the_events_last(
    officer_client, club, alice, bob
) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    url = reverse("ratings:officer-round", args=[club.pk, 4])
    response = officer_client.post(url, _round([_game(alice, bob, "1-0")]))
    assert response.status_code == 404
    assert counts() == before


def test_a_rounds_page_refuses_a_huge_formset(officer_client, club, alice, bob) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    data = _round([_game(alice, bob, "1-0")])
    data["g-TOTAL_FORMS"] = "1000000"
    response = officer_client.post(reverse("ratings:officer-round", args=[club.pk, 1]), data)
    assert response.status_code == 200
    assert response.context["formset"].non_form_errors()
    assert counts() == before


# -- a pasted round ----------------------------------------------------------------------

PASTE_CASES = {
    "self-pairing": ("A1 - A1 1-0", "Line 1: Alice Archer cannot play themselves"),
    "a player twice": (
        "A1 - B2 1-0\nC3 - A1 0-1",
        "Line 2: Alice Archer is already paired on line 1",
    ),
    "an unknown player": ("A1 - Z9 1-0", "Line 1:"),
    "a bad result": ("A1 - B2 3-0", "Line 1:"),
    "no result": ("A1 - B2", "Line 1: write it as"),
    "a bye with two players": ("A1 - B2 bye", "Line 1: “A1 - B2” is not a member of the club"),
    "a NUL": ("A1 - B2 1-0\x00", "Null characters"),
    "control characters only": (CONTROL, "Line 1:"),
    "zero-width characters only": (ZERO_WIDTH, "Line 1:"),
    "a long line that backtracks": ("1-0 " * 2000, "Line 1:"),
    "nothing": ("\n\n  \n", "required"),
}


@pytest.mark.parametrize("case", list(PASTE_CASES))
def test_a_pasted_round_refuses_a_bad_line_naming_it(case, officer_client, club) -> None:  # type: ignore[no-untyped-def]
    text, message = PASTE_CASES[case]
    before = counts()
    url = reverse("ratings:officer-round-paste", args=[club.pk])
    response = officer_client.post(url, {"round": "1", "text": text, "save": "1"})
    refused(response, "text", message)
    assert counts() == before


@pytest.mark.parametrize(
    ("number", "message"),
    [("0", "greater than or equal to 1"), ("4", "has 3 rounds"), (HUGE, "has 3 rounds")],
)
def test_a_pasted_round_refuses_a_round_the_event_does_not_have(  # type: ignore[no-untyped-def]
    number, message, officer_client, club
) -> None:
    before = counts()
    url = reverse("ratings:officer-round-paste", args=[club.pk])
    response = officer_client.post(url, {"round": number, "text": "A1 - B2 1-0", "save": "1"})
    refused(response, "round", message)
    assert counts() == before


# -- a round robin's grid ----------------------------------------------------------------


def test_the_grid_refuses_a_cell_that_is_not_a_result(officer_client, club, alice, bob) -> None:  # type: ignore[no-untyped-def]
    club.kind = Event.Kind.ROUND_ROBIN
    club.save()
    first, second = sorted((alice, bob), key=lambda m: (m.name, m.member_number))
    cell = f"g_{first.pk}_{second.pk}"
    before = counts()
    response = officer_client.post(reverse("ratings:officer-grid", args=[club.pk]), {cell: "2"})
    refused(response, cell, "Not a result")
    assert counts() == before


def test_the_grid_refuses_more_players_than_its_rounds_allow(
    officer_client, club, alice, bob
) -> None:  # type: ignore[no-untyped-def]
    club.kind = Event.Kind.ROUND_ROBIN
    club.rounds = 2  # four players need three rounds
    club.save()
    first, second = sorted((alice, bob), key=lambda m: (m.name, m.member_number))
    before = counts()
    url = reverse("ratings:officer-grid", args=[club.pk])
    response = officer_client.post(url, {f"g_{first.pk}_{second.pk}": "1"})
    assert response.status_code == 200
    assert "need 3 rounds" in str(response.context["form"].non_field_errors())
    assert counts() == before


# -- a tournament report file (TRF) ------------------------------------------------------

TRF_GOOD = (
    "012 Autumn Open\n"
    "042 2026/03/02\n"
    "052 2026/03/02\n"
    "001    1 m    Archer, Alice                     1500 NZL             2000/01/01"
    "  1.0    1     2 w 1\n"
    "001    2 m    Brown, Bob                        1500 NZL             2000/01/01"
    "  0.0    2     1 b 0\n"
)

TRF_CASES = {
    "empty file": (b"", "empty"),
    "a NUL": (TRF_GOOD.replace("Autumn", "Aut\x00umn").encode(), "NUL"),
    "UTF-16": (TRF_GOOD.encode("utf-16"), "UTF-16"),
    "binary": (bytes(range(256)) * 4, ""),
    "not a TRF": (b"name,rating\nAlice,1500\n", ""),
    "a truncated player line": (TRF_GOOD[:-3].encode(), "Line 5: Brown, Bob, round 1"),
    "a control character": (TRF_GOOD.replace("Autumn", "Aut\x1bumn").encode(), "Line 1:"),
    "a player named in zero-width characters": (
        TRF_GOOD.replace("Archer, Alice    ", "\u200b" * 17).encode(),
        "Line 4:",
    ),
    "a player name written backwards": (
        TRF_GOOD.replace("Archer, Alice", "Archer,\u202eAlice").encode(),
        "Line 4:",
    ),
    "results the two lines disagree on": (
        TRF_GOOD.replace("1.0    1     2 w 1", "1.0    1     2 w 0").encode(),
        "",
    ),
    "an opponent with no line": (TRF_GOOD.replace("2 w 1", "9 w 1").encode(), ""),
    "100 rounds": (
        TRF_GOOD.replace("2 w 1\n", "2 w 1" + "  0000 - Z" * 99 + "\n")
        .replace("2 b 0\n", "2 b 0" + "  0000 - Z" * 99 + "\n")
        .encode(),
        "",
    ),
}


@pytest.mark.parametrize("case", list(TRF_CASES))
def test_a_bad_tournament_file_is_refused_at_the_upload(case, officer_client, club) -> None:  # type: ignore[no-untyped-def]
    content, message = TRF_CASES[case]
    before = counts()
    upload = SimpleUploadedFile("autumn.trf", content, content_type="text/plain")
    response = officer_client.post(reverse("ratings:officer-import"), {"file": upload})
    refused(response, "file", message)
    assert counts() == before


def test_a_good_tournament_file_passes_the_upload(officer_client, club) -> None:  # type: ignore[no-untyped-def]
    # The catalogue's bad files are its good file spoiled: the good one must pass.
    upload = SimpleUploadedFile("autumn.trf", TRF_GOOD.encode(), content_type="text/plain")
    response = officer_client.post(reverse("ratings:officer-import"), {"file": upload})
    assert response.status_code == 302, response.context["form"].errors


# -- the public calculator ---------------------------------------------------------------

CALCULATOR_CASES = {
    "rating below 0": ({"p-rating": "-5", "p-games": "10"}, "player_form", "rating"),
    "rating huge": ({"p-rating": HUGE, "p-games": "10"}, "player_form", "rating"),
    "rating NaN": ({"p-rating": "nan", "p-games": "10"}, "player_form", "rating"),
    "games below 0": ({"p-rating": "1500", "p-games": "-1"}, "player_form", "games"),
    "games huge": ({"p-rating": "1500", "p-games": HUGE}, "player_form", "games"),
    "an unknown member": ({"p-member": "Z9"}, "player_form", "member"),
}
# A NUL in the calculator's query (a GET form) is refused before the page reads it: a
# bad request, as any query's control character (tests/web/test_fuzz.py).


@pytest.mark.parametrize("case", list(CALCULATOR_CASES))
def test_the_calculator_refuses_a_bad_input_at_its_field(case, client, club) -> None:  # type: ignore[no-untyped-def]
    player, form, field = CALCULATOR_CASES[case]
    query = {
        "go": "1",
        "g-TOTAL_FORMS": "1",
        "g-INITIAL_FORMS": "0",
        "g-0-rating": "1500",
        "g-0-result": "1",
        **player,
    }
    before = counts()
    response = client.get(reverse("ratings:calculator"), query)
    assert response.status_code == 200
    assert response.context[form].errors.get(field), dict(response.context[form].errors)
    assert response.context["outcome"] is None
    assert counts() == before


# -- the admin (corrections) -------------------------------------------------------------


@pytest.fixture
def admin_client_(client, db):  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("root", "root@example.org", "x"))
    return client


ADMIN_MEMBER_CASES = {
    "name of zero-width characters": ({"name": ZERO_WIDTH}, "name", "must contain letters"),
    "name with a control character": ({"name": "Erin\x07 Evans"}, "name", "control"),
    "rating huge": ({"initial_rating": HUGE}, "initial_rating", "at most 3500"),
    "born in year 1": ({"born": "0001-01-01"}, "born", "before 1900"),
}


@pytest.mark.parametrize("case", list(ADMIN_MEMBER_CASES))
def test_the_admins_member_form_refuses_a_bad_input_at_its_field(
    case, admin_client_, club
) -> None:  # type: ignore[no-untyped-def]
    changes, field, message = ADMIN_MEMBER_CASES[case]
    data = {**MEMBER, **changes, "merged_into": ""}
    before = counts()
    response = admin_client_.post(reverse("admin:ratings_member_add"), data)
    refused(response, field, message, form="adminform")
    assert counts() == before
