"""The record's rules (``ratings/models/rules.py``) on every way into the record: each rule
tried through each path that could break it (the officer's pages, the admin's forms,
inlines and deletes, the CSV, PGN and club-file imports, the services the commands call)
is refused with its message, and nothing is saved (every table counted before and after).
"""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import (
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    Subscription,
)
from ratings.models.record import record_problems
from ratings.services import member_imports, result_imports

from ..conftest import TRF_FILES
from ..factories import EventFactory, GameFactory, MemberFactory
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
NEXT_MONTH = TODAY + dt.timedelta(days=30)
PAST = dt.date(2026, 3, 2)


@pytest.fixture
def record(alice, bob, carol, dave, current_season):
    """A club night played (alice–bob in round 1), a fixture still to come, and an event
    with nothing played; all four entered in each."""
    played = EventFactory(name="Club night", start_date=PAST, rounds=3)
    coming = EventFactory(
        name="Next month", start_date=NEXT_MONTH, rounds=3, kind=Event.Kind.ROUND_ROBIN
    )
    empty = EventFactory(name="Forfeits only", start_date=PAST, rounds=1)
    for event in (played, coming, empty):
        for member in (alice, bob, carol, dave):
            event.entries.create(member=member)
    GameFactory(event=played, round=1, white=alice, black=bob, result="1-0")
    GameFactory(event=empty, round=1, white=carol, black=dave, result="+/-")
    return {"played": played, "coming": coming, "empty": empty}


def counts() -> dict[str, int]:
    """Every table a refused write could have touched, counted."""
    models = (Member, Event, Entry, Game, Subscription, RatingChange, RatingRun)
    counted = {m.__name__: m.objects.count() for m in models}
    counted["complete"] = Event.objects.filter(status=Event.Status.COMPLETE).count()
    return counted


def page_text(response: Any) -> str:
    """What the officer reads: the page, or the page a redirect leads to with its messages."""
    from django.contrib.messages import get_messages

    shown = " ".join(str(m) for m in get_messages(response.wsgi_request))
    return response.content.decode() + shown


def _run(*args: str) -> str:
    try:
        call_command(*args, stdout=io.StringIO())
    except CommandError as error:
        return str(error)
    return "accepted"


def _service(call: Callable[[], Any]) -> str:
    try:
        with transaction.atomic():
            call()
    except ValidationError as error:
        return " ".join(error.messages)
    return "accepted"


def _db(call: Callable[[], Any]) -> str:
    """A write past every check: the database's own constraint refuses it."""
    try:
        with transaction.atomic():
            call()
    except IntegrityError as error:
        return f"refused by the database: {error}"
    return "accepted"


def _round(rows: list[tuple[Member, Member | None, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data[f"g-{i}-white"] = white.pk
        data[f"g-{i}-black"] = black.pk if black else ""
        data[f"g-{i}-result"] = result
    return data


def _admin_game(client: Any, event: Event, white: Member, black: Member | None, round_=1) -> str:
    url = reverse("admin:ratings_game_add")
    data = {
        "event": event.pk,
        "round": round_,
        "white": white.pk,
        "black": black.pk if black else "",
        "result": "1-0",
        "colours_known": "on",
    }
    return page_text(client.post(url, data))


def _admin_inline_games(
    client: Any, event: Event, rows: list[tuple[int, Member, Member]], **fields: Any
) -> str:
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(client.get(url))
    data.update(fields)
    total = int(data["games-TOTAL_FORMS"])
    for i, (round_, white, black) in enumerate(rows, start=total):
        data.update(
            {
                f"games-{i}-round": round_,
                f"games-{i}-white": white.pk,
                f"games-{i}-black": black.pk,
                f"games-{i}-result": "1-0",
                f"games-{i}-colours_known": "on",
                f"games-{i}-event": event.pk,
            }
        )
    data["games-TOTAL_FORMS"] = total + len(rows)
    return page_text(client.post(url, data))


def _csv_results(client: Any, text: str) -> str:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.post(
        reverse("ratings:officer-import-results"),
        {"file": SimpleUploadedFile("results.csv", text.encode())},
    )
    return page_text(client.post(reverse("ratings:officer-import-results-preview")))


def _csv_members(client: Any, text: str) -> str:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.post(
        reverse("ratings:officer-import-register"),
        {"file": SimpleUploadedFile("members.csv", text.encode())},
    )
    return page_text(client.post(reverse("ratings:officer-import-register-preview")))


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _trf_line(rank: int, name: str, rounds: str = "") -> str:
    """A TRF16 player line (columns 1-89), then its rounds (column 92 on)."""
    return f"001 {rank:>4}      {name:<33}{'':33} 0.0 {rank:>4}{rounds}"


def _trf_without_games() -> str:
    """A pairing program's file before round 1: the players, the rounds to come, no game."""
    players = [_trf_line(1, "Newman, Nora"), _trf_line(2, "Oldham, Otto")]
    return "\n".join(["012 Spring open", f"042 {PAST:%Y/%m/%d}", *players, "XXR 5"]) + "\n"


def _trf_forfeits_only() -> str:
    """A file whose one game was a forfeit: nothing between two players to rate."""
    players = [
        _trf_line(1, "Newman, Nora", "     2 w +"),
        _trf_line(2, "Oldham, Otto", "     1 b -"),
    ]
    return "\n".join(["012 Spring open", f"042 {PAST:%Y/%m/%d}", *players]) + "\n"


def _pgn(white: str, black: str, day: dt.date, round_: str = "1", event: str = "Cup") -> str:
    return (
        f'[Event "{event}"]\n[Site "Club"]\n[Date "{day:%Y.%m.%d}"]\n[Round "{round_}"]\n'
        f'[White "{white}"]\n[Black "{black}"]\n[Result "1-0"]\n\n1-0\n\n'
    )


# -- each rule, each path --------------------------------------------------------------------

TWICE = "has two games in round 1"
SELF = "cannot play themselves"
TOO_EARLY = "results can be entered once it has started"
NOTHING = "no game between two players to rate"
PAID_ON = "check the year"
PAID_1900 = "before 1900"
NEGATIVE = "cannot be negative"
NAME = "must contain a letter"
GAMES = "100,000"


def _paste_twice(c, r, m):
    url = reverse("ratings:officer-round-paste", args=[r["played"].pk])
    return page_text(c.post(url, {"round": 2, "text": "A1 - B2 1-0\nA1 - C3 0-1", "save": "1"}))


CASES: dict[str, tuple[str, Callable[..., str]]] = {
    # A player at most once a round.
    "twice/round page": (
        "twice in this round",
        lambda c, r, m, t: page_text(
            c.post(
                reverse("ratings:officer-round", args=[r["played"].pk, 2]),
                _round([(m["alice"], m["bob"], "1-0"), (m["alice"], m["carol"], "0-1")]),
            )
        ),
    ),
    "twice/pasted round": (
        "is already paired on line 1",
        lambda c, r, m, t: _paste_twice(c, r, m),
    ),
    "twice/admin game": (
        TWICE,
        lambda c, r, m, t: _admin_game(c, r["played"], m["carol"], m["alice"]),
    ),
    "twice/admin inline": (
        "has two games in round 2",
        lambda c, r, m, t: _admin_inline_games(
            c, r["played"], [(2, m["carol"], m["dave"]), (2, m["dave"], m["bob"])]
        ),
    ),
    "twice/results csv": (
        "already plays in round 1",
        lambda c, r, m, t: _csv_results(
            c,
            f"event,date,round,white,black,result\nCup,{PAST},1,A1,B2,1-0\nCup,{PAST},1,A1,C3,0-1\n",
        ),
    ),
    "twice/pgn command": (
        "already plays round 1",
        lambda c, r, m, t: _run(
            "import_pgn",
            _file(
                t,
                "cup.pgn",
                _pgn("Archer, Alice", "Brown, Bob", PAST)
                + _pgn("Archer, Alice", "Chen, Carol", PAST),
            ),
        ),
    ),
    "twice/service": (
        TWICE,
        lambda c, r, m, t: _service(
            lambda: services.games_replace(
                event=r["played"],
                rounds=[2],
                games=[
                    Game(round=1, white=m["carol"], black=m["alice"], result="1-0"),
                ],
            )
        ),
    ),
    # No one plays themselves.
    "self/round page": (
        SELF,
        lambda c, r, m, t: page_text(
            c.post(
                reverse("ratings:officer-round", args=[r["played"].pk, 2]),
                _round([(m["carol"], m["carol"], "1-0")]),
            )
        ),
    ),
    "self/admin game": (
        SELF,
        lambda c, r, m, t: _admin_game(c, r["played"], m["carol"], m["carol"], 2),
    ),
    "self/results csv": (
        "themselves",
        lambda c, r, m, t: _csv_results(
            c, f"event,date,round,white,black,result\nCup,{PAST},1,A1,A1,1-0\n"
        ),
    ),
    "self/database": (
        "refused by the database",
        lambda c, r, m, t: _db(
            lambda: Game.objects.create(
                event=r["played"], round=2, white=m["carol"], black=m["carol"], result="1-0"
            )
        ),
    ),
    # A game's players are entered in its event: an entry with games stays.
    "entry/admin delete": (
        "delete those first",
        lambda c, r, m, t: page_text(
            c.post(
                reverse(
                    "admin:ratings_entry_delete",
                    args=[r["played"].entries.get(member=m["alice"]).pk],
                ),
                {"post": "yes"},
            )
        ),
    ),
    "entry/admin inline delete": (
        "delete those first",
        lambda c, r, m, t: _admin_inline_entries_delete(c, r["played"], m["alice"]),
    ),
    "entry/officer remove": (
        "has games here",
        lambda c, r, m, t: page_text(
            c.post(
                reverse(
                    "ratings:officer-event-player-remove", args=[r["played"].pk, m["alice"].pk]
                )
            )
        ),
    ),
    "entry/service": (
        "delete those first",
        lambda c, r, m, t: _service(
            lambda: services.entry_remove(entry=r["played"].entries.get(member=m["alice"]))
        ),
    ),
    # Results only once an event has started.
    "early/round page": (
        TOO_EARLY,
        lambda c, r, m, t: page_text(
            c.post(
                reverse("ratings:officer-round", args=[r["coming"].pk, 1]),
                _round([(m["alice"], m["bob"], "1-0")]),
            )
        ),
    ),
    "early/pasted round": (
        TOO_EARLY,
        lambda c, r, m, t: page_text(
            c.post(
                reverse("ratings:officer-round-paste", args=[r["coming"].pk]),
                {"round": 1, "text": "A1 - B2 1-0", "save": "1"},
            )
        ),
    ),
    "early/grid": (
        TOO_EARLY,
        lambda c, r, m, t: page_text(
            c.post(reverse("ratings:officer-grid", args=[r["coming"].pk]), {})
        ),
    ),
    "early/admin game": (
        TOO_EARLY,
        lambda c, r, m, t: _admin_game(c, r["coming"], m["alice"], m["bob"]),
    ),
    "early/admin inline": (
        TOO_EARLY,
        lambda c, r, m, t: _admin_inline_games(c, r["coming"], [(1, m["alice"], m["bob"])]),
    ),
    "early/results csv": (
        TOO_EARLY,
        lambda c, r, m, t: _csv_results(
            c, f"event,date,round,white,black,result\nCup,{NEXT_MONTH},1,A1,B2,1-0\n"
        ),
    ),
    "early/results command": (
        TOO_EARLY,
        lambda c, r, m, t: _run(
            "import_results",
            _file(
                t, "r.csv", f"event,date,round,white,black,result\nCup,{NEXT_MONTH},1,A1,B2,1-0\n"
            ),
        ),
    ),
    "early/pgn command": (
        TOO_EARLY,
        lambda c, r, m, t: _run(
            "import_pgn", _file(t, "cup.pgn", _pgn("Archer, Alice", "Brown, Bob", NEXT_MONTH))
        ),
    ),
    "early/trf command": (
        TOO_EARLY,
        lambda c, r, m, t: _run(
            "import_trf",
            str(TRF_FILES / "dutch-2025-c5.trf"),  # a file that gives no dates of its own
            "--date",
            str(NEXT_MONTH),
            "--create-missing",
        ),
    ),
    "early/web trf": (TOO_EARLY, lambda c, r, m, t: _web_trf(c, NEXT_MONTH)),
    "early/web pgn": (
        TOO_EARLY,
        lambda c, r, m, t: _web_trf(
            c, NEXT_MONTH, _pgn("Archer, Alice", "Brown, Bob", PAST).encode(), "cup.pgn"
        ),
    ),
    "early/service": (
        TOO_EARLY,
        lambda c, r, m, t: _service(
            lambda: services.games_replace(
                event=r["coming"],
                rounds=[1],
                games=[Game(round=1, white=m["alice"], black=m["bob"], result="1-0")],
            )
        ),
    ),
    # Nothing to rate is not "complete and rated"; nor is an event still to come.
    "nothing/officer complete": (
        NOTHING,
        lambda c, r, m, t: page_text(
            c.post(reverse("ratings:officer-event-complete", args=[r["empty"].pk]))
        ),
    ),
    "nothing/officer complete still to come": (
        TOO_EARLY,
        lambda c, r, m, t: page_text(
            c.post(reverse("ratings:officer-event-complete", args=[r["coming"].pk]))
        ),
    ),
    "nothing/admin change": (
        NOTHING,
        lambda c, r, m, t: _admin_inline_games(c, r["empty"], [], status="complete"),
    ),
    "nothing/admin add": (
        "has no games yet",
        lambda c, r, m, t: page_text(
            c.post(
                reverse("admin:ratings_event_add"),
                {
                    "name": "Ready made",
                    "kind": "swiss",
                    "start_date": str(PAST),
                    "end_date": str(PAST),
                    "rounds": 1,
                    "time_class": "standard",
                    "rated": "on",
                    "status": "complete",
                    "games-TOTAL_FORMS": 0,
                    "games-INITIAL_FORMS": 0,
                    "entries-TOTAL_FORMS": 0,
                    "entries-INITIAL_FORMS": 0,
                },
            )
        ),
    ),
    "nothing/service": (
        NOTHING,
        lambda c, r, m, t: _service(lambda: services.event_complete(event=r["empty"])),
    ),
    # No command makes a complete event without games: each file is refused whole.
    "nothing/trf command, players and no games": (
        "has no games",
        lambda c, r, m, t: _run(
            "import_trf", _file(t, "empty.trf", _trf_without_games()), "--create-missing"
        ),
    ),
    "nothing/trf command, forfeits only": (
        NOTHING,
        lambda c, r, m, t: _run(
            "import_trf", _file(t, "forfeits.trf", _trf_forfeits_only()), "--create-missing"
        ),
    ),
    "nothing/results command, byes only": (
        NOTHING,
        lambda c, r, m, t: _run(
            "import_results",
            _file(t, "r.csv", f"event,date,round,white,black,result\nCup,{PAST},1,A1,,bye\n"),
        ),
    ),
    "nothing/results command, forfeits only": (
        NOTHING,
        lambda c, r, m, t: _run(
            "import_results",
            _file(t, "r.csv", f"event,date,round,white,black,result\nCup,{PAST},1,A1,B2,+/-\n"),
        ),
    ),
    "nothing/web results, byes only": (
        NOTHING,
        lambda c, r, m, t: _csv_results(
            c, f"event,date,round,white,black,result\nCup,{PAST},1,A1,,bye\n"
        ),
    ),
    "nothing/pgn command, no games": (
        "no games",
        lambda c, r, m, t: _run("import_pgn", _file(t, "empty.pgn", "\n")),
    ),
    # Payments within sensible dates, amounts of 0 or more.
    "payment year 1/member page": (
        PAID_1900,
        lambda c, r, m, t: _payment_page(c, m["dave"], "0001-01-01", "20"),
    ),
    "payment year 9999/member page": (
        PAID_ON,
        lambda c, r, m, t: _payment_page(c, m["dave"], "9999-12-31", "20"),
    ),
    "payment negative/member page": (
        NEGATIVE,
        lambda c, r, m, t: _payment_page(c, m["dave"], str(TODAY), "-5"),
    ),
    "payment year 1/renewals": (
        PAID_1900,
        lambda c, r, m, t: _renewal(c, m["dave"], "0001-01-01", "20"),
    ),
    "payment year 9999/renewals": (
        PAID_ON,
        lambda c, r, m, t: _renewal(c, m["dave"], "9999-12-31", "20"),
    ),
    "payment negative/renewals": (
        NEGATIVE,
        lambda c, r, m, t: _renewal(c, m["dave"], str(TODAY), "-5"),
    ),
    "payment year 1/admin": (
        PAID_1900,
        lambda c, r, m, t: _admin_payment(c, m["dave"], "0001-01-01", "20"),
    ),
    "payment negative/admin": (
        NEGATIVE,
        lambda c, r, m, t: _admin_payment(c, m["dave"], str(TODAY), "-5"),
    ),
    "payment year 9999/service": (
        PAID_ON,
        lambda c, r, m, t: _service(
            lambda: services.subscription_record(
                member=m["dave"], season=_season(), paid_on=dt.date(9999, 12, 31)
            )
        ),
    ),
    "payment negative/renew service": (
        NEGATIVE,
        lambda c, r, m, t: _service(
            lambda: services.subscriptions_renew(
                members=[m["dave"]], season=_season(), amount=__import__("decimal").Decimal(-5)
            )
        ),
    ),
    "payment negative/database": (
        "refused by the database",
        lambda c, r, m, t: _db(
            lambda: Subscription.objects.create(member=m["dave"], season=_season(), amount=-5)
        ),
    ),
    # Ratings, games and counts within bounds.
    "games 10^30/members csv": (
        GAMES,
        lambda c, r, m, t: _csv_members(c, f"id,name,games\nR9,Ana Tuilagi,{10**30}\n"),
    ),
    "games 10^30/members command": (
        GAMES,
        lambda c, r, m, t: _run(
            "import_members", _file(t, "m.csv", f"id,name,games\nR9,Ana Tuilagi,{10**30}\n")
        ),
    ),
    "games 10^30/admin member": (
        GAMES,
        lambda c, r, m, t: _admin_member(c, name="Ana Tuilagi", initial_games=10**30),
    ),
    "rating 15000/members csv": (
        "is not a rating",
        lambda c, r, m, t: _csv_members(c, "id,name,rating\nR9,Ana Tuilagi,15000\n"),
    ),
    "rating 15000/admin member": (
        "at most 3500",
        lambda c, r, m, t: _admin_member(c, name="Ana Tuilagi", initial_rating=15000),
    ),
    "rating 15000/database": (
        "refused by the database",
        lambda c, r, m, t: _db(
            lambda: Member.objects.create(member_number="R9", name="Ana", initial_rating=15000)
        ),
    ),
    "rounds 500/admin inline": (
        "less than or equal to 99",
        lambda c, r, m, t: _admin_inline_games(c, r["played"], [], rounds=500),
    ),
    # A member's name has a letter.
    "name/officer member form": (
        NAME,
        lambda c, r, m, t: page_text(
            c.post(
                reverse("ratings:officer-member-add"),
                {"name": "12345", "member_number": "R9", "initial_games": 0},
            )
        ),
    ),
    "name/admin member": (NAME, lambda c, r, m, t: _admin_member(c, name="12345")),
    "name/members csv": (NAME, lambda c, r, m, t: _csv_members(c, "id,name\nR9,12345\n")),
    "name/members command": (
        NAME,
        lambda c, r, m, t: _run("import_members", _file(t, "m.csv", "id,name\nR9,12345\n")),
    ),
    "name/pgn new player": (
        NAME,
        lambda c, r, m, t: _run(
            "import_pgn",
            _file(t, "cup.pgn", _pgn("12345", "Brown, Bob", PAST)),
            "--create-missing",
        ),
    ),
}


def _web_trf(client: Any, start: dt.date, data: bytes | None = None, name="gros.trf") -> str:
    """The web import of a tournament file (TRF or PGN), its dates typed as ``start``."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = data or (TRF_FILES / "gros-open-2010.trf").read_bytes()
    client.post(reverse("ratings:officer-import"), {"file": SimpleUploadedFile(name, data)})
    form = client.get(reverse("ratings:officer-import-preview")).context["form"]
    posted = {field: form[field].value() for field in form.fields}
    posted = {k: v for k, v in posted.items() if v is not None}
    posted.update(start_date=str(start), end_date=str(start), rated="on")
    return page_text(client.post(reverse("ratings:officer-import-preview"), posted))


def _season():
    from ratings.models import Season

    return Season.for_day(TODAY)


def _payment_page(client: Any, member: Member, paid_on: str, amount: str) -> str:
    return page_text(
        client.post(
            reverse("ratings:officer-member-subscribe", args=[member.pk]),
            {"season": str(_season().pk), "paid_on": paid_on, "amount": amount},
        )
    )


def _renewal(client: Any, member: Member, paid_on: str, amount: str) -> str:
    return page_text(
        client.post(
            reverse("ratings:officer-renew"),
            {
                "season": str(_season().pk),
                "paid_on": paid_on,
                "amount": amount,
                "members": [member.pk],
            },
        )
    )


def _admin_payment(client: Any, member: Member, paid_on: str, amount: str) -> str:
    return page_text(
        client.post(
            reverse("admin:ratings_subscription_add"),
            {
                "member": member.pk,
                "season": _season().pk,
                "paid_on": paid_on,
                "amount": amount,
            },
        )
    )


def _admin_member(client: Any, **fields: Any) -> str:
    url = reverse("admin:ratings_member_add")
    data = admin_form(client.get(url))
    data.update({"member_number": "R9", "initial_games": 0, **fields})
    return page_text(client.post(url, data))


def _admin_inline_entries_delete(client: Any, event: Event, member: Member) -> str:
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(client.get(url))
    for i in range(int(data["entries-TOTAL_FORMS"])):
        if str(data.get(f"entries-{i}-member")) == str(member.pk):
            data[f"entries-{i}-DELETE"] = "on"
    return page_text(client.post(url, data))


@pytest.fixture
def officer_admin_client(client, django_user_model):
    """One login for both: the officer's pages and the admin (a superuser)."""
    user = django_user_model.objects.create_superuser("chief", "chief@example.org", "pw")
    client.force_login(user)
    return client


@pytest.mark.parametrize("case", list(CASES))
def test_every_rule_is_refused_on_every_path_with_its_message_and_nothing_saved(
    case, officer_admin_client, record, alice, bob, carol, dave, tmp_path
):
    message, attempt = CASES[case]
    members = {"alice": alice, "bob": bob, "carol": carol, "dave": dave}
    before = counts()
    said = attempt(officer_admin_client, record, members, tmp_path)
    assert message in said, said[-2000:]
    assert counts() == before


def test_the_rules_say_nothing_of_a_record_that_keeps_them(record):
    record["empty"].delete()  # rated with only a forfeit: the one event that breaks a rule
    assert record_problems() == []


@pytest.mark.django_db(transaction=True)
def test_a_club_document_breaking_a_rule_is_refused_by_import_club(tmp_path, alice, bob):
    """import_club: a member named "12345" in the document is refused, nothing stored."""
    path = tmp_path / "club.json"
    call_command("export_club", str(path), stdout=io.StringIO())
    document = json.loads(path.read_text())
    for row in document["tables"]["ratings.member"]:
        row["fields"]["name"] = "12345"
    path.write_text(json.dumps(document))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="must contain a letter"):
        call_command("import_club", str(path), "--no-check", stdout=io.StringIO())
    assert not Member.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_club_document_with_a_complete_rated_event_without_games_is_refused_by_import_club(
    tmp_path, alice, bob
):
    event = EventFactory(name="Ready made", start_date=PAST, rated=True)
    # Past the model's rules, as a document written by hand (or by another program) can be.
    Event.objects.filter(pk=event.pk).update(status=Event.Status.COMPLETE)
    path = tmp_path / "club.json"
    call_command("export_club", str(path), stdout=io.StringIO())
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match=NOTHING):
        call_command("import_club", str(path), "--no-check", stdout=io.StringIO())
    assert not Event.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_club_document_with_hidden_characters_in_a_region_is_refused_by_import_club(
    tmp_path, alice, bob
):
    path = tmp_path / "club.json"
    call_command("export_club", str(path), stdout=io.StringIO())
    document = json.loads(path.read_text())
    for row in document["tables"]["ratings.member"]:
        row["fields"]["region"] = "\u202eNorth"
    path.write_text(json.dumps(document))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match=r"region / state: .*U\+202E"):
        call_command("import_club", str(path), "--no-check", stdout=io.StringIO())
    assert not Member.objects.exists()


def test_a_game_added_in_the_admin_enters_its_players(admin_client, record, alice):
    newcomer = MemberFactory(member_number="N1", name="Nina Newcomer")
    _admin_game(admin_client, record["played"], newcomer, alice, round_=2)
    assert record["played"].entries.filter(member=newcomer).exists()


def test_an_event_still_to_come_offers_no_mark_complete(officer_client, record):
    page = officer_client.get(reverse("ratings:officer-event", args=[record["coming"].pk]))
    html = page.content.decode()
    assert TOO_EARLY in html
    assert reverse("ratings:officer-event-complete", args=[record["coming"].pk]) not in html


def test_a_deletion_in_the_admin_keeps_its_reason(admin_client, record, alice, bob):
    game = record["played"].games.get()
    url = reverse("admin:ratings_game_delete", args=[game.pk])
    assert 'name="change_reason"' in admin_client.get(url).content.decode()
    admin_client.post(url, {"post": "yes", "change_reason": "entered twice"})
    assert not Game.objects.filter(pk=game.pk).exists()
    assert Game.history.filter(id=game.pk, history_type="-").get().history_change_reason == (
        "entered twice"
    )


def test_the_members_import_refuses_a_name_without_a_letter_by_line(db):
    _, problems = member_imports.members_check("id,name\nR1,Ana\nR2,12345\n")
    assert [str(p) for p in problems] == [
        "line 3, name: A member's name must contain a letter (this one is only digits or signs)."
    ]


def test_the_results_import_refuses_an_event_still_to_come_by_line(alice, bob):
    _, problems = result_imports.results_check(
        f"event,date,round,white,black,result\nCup,{NEXT_MONTH},1,A1,B2,1-0\n"
    )
    assert len(problems) == 1 and TOO_EARLY in str(problems[0])


def test_deleting_a_selection_in_the_admin_asks_and_keeps_its_reason(admin_client, record):
    games = list(record["played"].games.values_list("pk", flat=True))
    url = reverse("admin:ratings_game_changelist")
    asked = admin_client.post(url, {"action": "delete_selected", "_selected_action": games})
    assert 'name="change_reason"' in asked.content.decode()
    admin_client.post(
        url,
        {
            "action": "delete_selected",
            "_selected_action": games,
            "post": "yes",
            "change_reason": "a round entered twice",
        },
    )
    assert not Game.objects.filter(pk__in=games).exists()
    reasons = Game.history.filter(id__in=games, history_type="-")
    assert set(reasons.values_list("history_change_reason", flat=True)) == {
        "a round entered twice"
    }


def test_players_swapped_between_two_games_in_the_admins_inline_are_accepted(
    admin_client, record, alice, bob, carol, dave
):
    event = record["played"]
    GameFactory(event=event, round=1, white=carol, black=dave, result="0-1")
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(admin_client.get(url))
    for i in range(int(data["games-TOTAL_FORMS"])):
        if str(data[f"games-{i}-black"]) == str(bob.pk):
            data[f"games-{i}-black"] = dave.pk
        elif str(data[f"games-{i}-black"]) == str(dave.pk):
            data[f"games-{i}-black"] = bob.pk
    assert admin_client.post(url, data).status_code == 302
    pairs = set(event.games.values_list("white__name", "black__name"))
    assert pairs == {("Alice Archer", "Dave Dunn"), ("Carol Chen", "Bob Brown")}
