"""The parsers of what officers upload and paste, fed arbitrary text (hypothesis).

Whatever the text, each parser answers with its own refusal (a list of problems, the
TRF reader's ``TrfError``, a form's errors), never another exception: a page never
answers 500 and a command never prints a traceback. Where the app also writes the
format (CSV cells, the TRF export), what it writes reads back as it was.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import os
import time

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.formats import trf
from ratings.formats.members_csv import Problem, read_table
from ratings.formats.trf_export import event_to_trf, starting_order
from ratings.forms import (
    PasteRoundForm,
    paste_line_split,
    paste_unknown_result,
    paste_versus,
    read_spaced_result,
)
from ratings.models import Event, Game, Member
from ratings.services.member_imports import members_check
from ratings.services.result_imports import results_check

from ..factories import EventFactory, MemberFactory

#: Modest for the suite; FUZZ_EXAMPLES=2000 for a longer hunt.
FAST = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Text as it comes: any character, with the ones files are made of more often.
text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list(',"\n\r\t\x00 -/½=+01abAB.:;\u200b\u202e\x1b')),
    ),
    max_size=300,
)


# -- CSV ---------------------------------------------------------------------------------


@FAST
@given(data=st.one_of(text, st.binary(max_size=300)))
def test_any_text_read_as_a_csv_table_gives_rows_or_problems_never_an_error(data) -> None:  # type: ignore[no-untyped-def]
    table, problems = read_table(data, columns=("id", "name"), required=("id",))
    assert all(isinstance(p, Problem) and p.line >= 1 for p in problems)
    assert table.rows or problems


@pytest.mark.django_db
@FAST
@given(data=text)
def test_any_text_checked_as_a_members_or_results_file_gives_problems_never_an_error(
    data: str,
) -> None:
    for check, header in (
        (members_check, "id,name\n"),
        (results_check, "event,date,round,white,black,result\n"),
    ):
        for body in (data, header + data):
            _, problems = check(body)
            assert all(isinstance(p, Problem) and p.line >= 1 for p in problems)


cell = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\r\n\x00"), max_size=20
).map(str.strip)


@FAST
@given(rows=st.lists(st.tuples(cell, cell), min_size=1, max_size=8))
def test_cells_written_as_csv_read_back_as_they_were(rows: list[tuple[str, str]]) -> None:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "name"])
    writer.writerows(rows)
    table, problems = read_table(out.getvalue(), columns=("id", "name"), required=("id",))
    kept = [r for r in rows if any(c.strip() for c in r)]  # blank rows are skipped
    if not kept:
        return
    assert problems == []
    assert [(row["id"], row["name"]) for _, row in table.rows] == kept


# -- the TRF reader and writer ------------------------------------------------------------

trf_line = st.one_of(
    text.map(lambda t: t.split("\n")[0]),
    st.tuples(
        st.sampled_from(["001", "012", "022", "042", "052", "062", "092", "122", "132", "XXR"]),
        st.text(
            alphabet=st.sampled_from(list(" 0123456789wb-=+WDLHFUZ/.,abc\u200b")), max_size=120
        ),
    ).map(" ".join),
)


@FAST
@given(lines=st.lists(trf_line, max_size=12))
def test_any_text_read_as_a_tournament_file_gives_a_tournament_or_a_trf_error(
    lines: list[str],
) -> None:
    try:
        tournament = trf.parse("\n".join(lines))
    except trf.TrfError as error:
        assert error.problems
        return
    tournament.games()  # the games of a file it read are there to be read
    assert tournament.rounds >= 0


@FAST
@given(data=st.binary(max_size=400))
def test_any_bytes_read_as_a_tournament_file_never_raise_another_error(data: bytes) -> None:
    with contextlib.suppress(trf.TrfError):
        trf.parse(data)


RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-", "1-0 nr", "0-1 nr", "1/2-1/2 nr"]
BYES = ["bye", "half-bye", "zero-bye"]

#: Rounds of pairings: each pair (i, j, result) or bye (i, None, result), of player indexes.
events = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.permutations(range(n)).flatmap(
                lambda order: st.tuples(
                    st.just(order),
                    st.lists(st.sampled_from(RESULTS), min_size=n // 2, max_size=n // 2),
                    st.sampled_from(BYES),
                )
            ),
            min_size=1,
            max_size=4,
        ),
    )
)


@pytest.mark.django_db
@FAST
@given(event=events, colours_known=st.booleans())
def test_an_exported_tournament_file_reads_back_to_the_same_games(
    event: tuple[int, list], colours_known: bool
) -> None:
    n, rounds = event
    with transaction.atomic():
        players = [
            MemberFactory(name=f"Player{chr(65 + i)} Fuzz", initial_rating=1400 + 10 * i)
            for i in range(n)
        ]
        day = dt.date(2026, 3, 2)
        record = EventFactory(name="Fuzz open", start_date=day, end_date=day, rounds=len(rounds))
        for member in players:
            record.entries.create(member=member)
        for number, (order, results, bye) in enumerate(rounds, start=1):
            for board, result in enumerate(results):
                white, black = players[order[2 * board]], players[order[2 * board + 1]]
                Game.objects.create(
                    event=record,
                    round=number,
                    board=board + 1,
                    white=white,
                    black=black,
                    result=result,
                    colours_known=colours_known,
                )
            if n % 2:
                Game.objects.create(
                    event=record, round=number, white=players[order[-1]], black=None, result=bye
                )
        tournament = trf.parse(event_to_trf(record))
        rank = {m.pk: i for i, m in enumerate(starting_order(record), start=1)}
        expected = _games(record.games.all(), rank, colours_known)
        transaction.set_rollback(True)
    assert tournament.name == "Fuzz open"
    assert tournament.start == day
    assert tournament.rounds == len(rounds)
    assert len(tournament.players) == n
    got = {
        (g.round, frozenset((g.white, g.black)), _as_white(g, colours_known))
        for g in tournament.games()
    }
    assert got == expected


def _games(games, rank, colours_known: bool) -> set:  # type: ignore[no-untyped-def,type-arg]
    out = set()
    for g in games:
        black = rank[g.black_id] if g.black_id else None
        record = trf.TrfGame(g.round, rank[g.white_id], black, g.result, colours_known)
        out.add((g.round, frozenset((rank[g.white_id], black)), _as_white(record, colours_known)))
    return out


FLIP = {
    "1-0": "0-1",
    "0-1": "1-0",
    "+/-": "-/+",
    "-/+": "+/-",
    "1-0 nr": "0-1 nr",
    "0-1 nr": "1-0 nr",
}


def _as_white(game: trf.TrfGame, colours_known: bool) -> tuple[int, str]:
    """The game's result from its lower-ranked player's side when colours are not
    known (the file then cannot say who had white), else from white's."""
    if colours_known or game.black is None or game.white < game.black:
        return game.white, game.result
    return game.black, FLIP.get(game.result, game.result)


# -- the pasted round ---------------------------------------------------------------------


@FAST
@given(line=text)
def test_any_pasted_line_is_split_or_not_quickly_never_an_error(line: str) -> None:
    started = time.perf_counter()
    ended = paste_line_split(line)
    if ended is None:
        paste_unknown_result(line)
    else:
        players, spelled = ended
        assert read_spaced_result(spelled) is not None
        paste_versus(players)
    assert time.perf_counter() - started < 0.5


@pytest.mark.django_db
@FAST
@given(pasted=text, number=st.one_of(st.integers(), text))
def test_any_pasted_round_gives_pairings_or_errors_never_an_error(pasted, number) -> None:  # type: ignore[no-untyped-def]
    event = Event.objects.first() or _paste_event()
    form = PasteRoundForm({"round": str(number), "text": pasted}, event=event)
    if form.is_valid():
        assert form.cleaned_data["text"]
    else:
        assert form.errors


def _paste_event() -> Event:
    event = EventFactory(name="Club night", rounds=3)
    for number, name in (("A1", "Alice Archer"), ("B2", "Bob Brown"), ("C3", "Carol Chen")):
        event.entries.create(member=MemberFactory(member_number=number, name=name))
    return event


def test_members_are_not_left_behind_by_the_fuzzing(db) -> None:  # type: ignore[no-untyped-def]
    # The round-trip rolls each example back: nothing it made survives it.
    assert not Member.objects.filter(name__endswith=" Fuzz").exists()
