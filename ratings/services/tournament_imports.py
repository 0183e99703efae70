"""Tournament files saved: their players matched to members, and the command-line imports
(``import_trf``, ``import_pgn``): every file checked first, then all saved and rated in one
transaction, or nothing.

The files are read by ``formats.tournament_files``; the web TRF import
(``forms.TrfConfirmForm``) uses the same matcher, ``match_players``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .. import services
from ..engine.codec import TITLES
from ..formats.tournament_files import FileEvent, FilePlayer, event_time_class
from ..models import (
    ClubSettings,
    Event,
    Game,
    Member,
    next_member_numbers,
    rules,
)
from ..rules import tiebreaks
from ..rules.brought_in import brought_in_problem
from ..rules.duplicates import Duplicates
from ..rules.names import SUFFIXES, folded, given_surname, name_key, written_in_files
from ..rules.people import Person, PossibleDuplicate
from ..rules.text import TIME_CONTROL_LENGTH
from ..words.counts import count_phrase
from .duplicates import EventIn, duplicates_find
from .members import possible_duplicates_find

# -- players of tournament files --------------------------------------------------------


_WORD = re.compile(r"\w+")
#: The words a suffix is written as however the name spelled it ("Jun." is "Jr."): the
#: only words of a name's key that need not be in the name itself.
_SUFFIX_WORDS = frozenset(w for s in SUFFIXES.values() for w in _WORD.findall(folded(s)))


def _written_words(key: str) -> frozenset[str] | None:
    """The words every name with this key holds as written (its key's, suffixes aside),
    or None when there are none to tell by."""
    words = frozenset(w for w in key.split() if w not in _SUFFIX_WORDS)
    return words or None


class _Candidate(NamedTuple):
    """A member as the matcher reads them."""

    pk: int
    name: str
    fide_id: str
    member_number: str


class _NameSieve:
    """Which members' names can match a file's names: those holding all of some file
    name's written words (``_written_words``). Telling so is a few set lookups a member,
    where reading the name apart (``name_key``) is the costly part on a large club."""

    def __init__(self, names: Iterable[str]) -> None:
        self.every = False
        self.by_word: dict[str, list[frozenset[str]]] = {}
        for name in names:
            words = _written_words(name_key(name))
            if words is None:
                self.every = True
                continue
            self.by_word.setdefault(min(words), []).append(words)

    def may_match(self, name: str) -> bool:
        if self.every:
            return True
        held = set(_WORD.findall(folded(name)))
        return any(words <= held for word in held for words in self.by_word.get(word, ()))


def match_players(players: Iterable[tuple[Any, str, str]]) -> dict[Any, Member]:
    """Members for a file's players, given as (key, name, FIDE id): by FIDE id first, then
    by member number (a player named by their number), then by the one member of that name.

    Names match whatever their case, accents or order ("Mirzoev Azer", "Azer Mirzoev",
    "MIRZOEV, Azer"; "Garcia, Rosa" and "Rosa García": ``rules.names.name_key``); a
    member whose FIDE id differs from the player's is another person. The web
    import (``TrfConfirmForm``) and the ``import_trf``/``import_pgn`` commands share it.

    Only the names that can match are read apart (``name_key``, the costly part on a
    large club): a member's name holds each word of its key as written, suffixes aside,
    so one without all of some file name's words matches no one by name (``_NameSieve``).
    """
    players = list(players)
    sieve = _NameSieve(name for _, name, _ in players)
    # Plain rows, the matched members read whole at the end: 20,000 model objects cost
    # more than the matching.
    members = [
        _Candidate(*row)
        for row in Member.objects.active().values_list("pk", "name", "fide_id", "member_number")
    ]
    by_id: dict[str, list[_Candidate]] = {}
    by_name: dict[str, list[_Candidate]] = {}
    by_number: dict[str, _Candidate] = {}
    for member in members:
        if member.fide_id:
            by_id.setdefault(member.fide_id.lstrip("0"), []).append(member)
        if sieve.may_match(member.name):
            by_name.setdefault(name_key(member.name), []).append(member)
        by_number[member.member_number.lower()] = member
    out: dict[Any, _Candidate] = {}
    for key, name, fide_id in players:
        fide_id = fide_id.lstrip("0")
        same_id = by_id.get(fide_id, []) if fide_id else []
        if len(same_id) == 1:
            out[key] = same_id[0]
            continue
        numbered = by_number.get(name.strip().lower())
        if numbered is not None and not (
            fide_id and numbered.fide_id and numbered.fide_id.lstrip("0") != fide_id
        ):
            out[key] = numbered
            continue
        named = [
            m
            for m in by_name.get(name_key(name), [])
            if not (fide_id and m.fide_id and m.fide_id.lstrip("0") != fide_id)
        ]
        if len(named) == 1:
            out[key] = named[0]
    found = Member.objects.in_bulk({m.pk for m in out.values()})
    return {key: found[m.pk] for key, m in out.items() if m.pk in found}


_FEDERATION = re.compile(r"^[A-Z]{3}$")
_BORN = re.compile(r"^(\d{4})(?:[/.-](\d{1,2})[/.-](\d{1,2}))?$")


def file_member_fields(*, name: str, federation: str = "", born: str = "") -> dict[str, Any]:
    """A new member's name, federation and birth as a tournament file gives them: the name
    as the club writes it, and the file's own form when that would not give it back
    ("Mirzoev Azer": ``rules.names.written_in_files``); a full date of birth, or the year
    alone when the file gives no more ("1990", "1990/00/00"); a date or year out of
    bounds (a placeholder "0000", a year to come) is left out rather than kept wrong."""
    fields: dict[str, Any] = {
        "name": given_surname(name),
        "name_in_files": written_in_files(name)[: Member._meta.get_field("name").max_length],
    }
    federation = federation.strip().upper()
    if _FEDERATION.match(federation):
        fields["federation"] = federation
    found = _BORN.match(born.strip())
    if found is None:
        return fields
    today = timezone.localdate()  # the club's day, as the member form reads it
    year, month, day = (int(part) if part else 0 for part in found.groups())
    if not rules.EARLIEST_DATE.year <= year <= today.year:
        return fields
    fields["birth_year"] = year
    try:
        date = dt.date(year, month, day) if month and day else None
    except ValueError:
        date = None
    if date is not None and date <= today:
        fields["born"] = date
    return fields


def players_possible_duplicates(
    players: Iterable[tuple[str, str, str, str]], *, matched: Iterable[int] = ()
) -> list[PossibleDuplicate]:
    """A tournament file's players, given as (where, name, FIDE id, birth as written), that
    may be one person with another of its players or with a member they were not matched
    to (``rules.people``); ``matched`` are the members the file's players are already."""
    coming = [
        Person(
            ref=where,
            name=given_surname(name),
            fide_id=fide_id if fide_id.strip().isdigit() else "",
            born=file_member_fields(name=name, born=born).get("born"),
            where=where,
        )
        for where, name, fide_id, born in players
    ]
    return possible_duplicates_find(coming=coming, matched=matched)


class FilesRefused(Exception):
    """Tournament files with problems: nothing was saved. One problem a line."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(
            f"Refused, nothing saved ({count_phrase(count, 'problem')}):\n"
            + "\n".join(self.problems)
        )


@dataclass
class FilesReport:
    players: int = 0
    new: int = 0
    games: int = 0
    unplayed: int = 0
    events: int = 0
    dry_run: bool = False
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{'would import' if self.dry_run else 'imported'}: "
            f"{count_phrase(self.players, 'player')} ({self.new} new), "
            f"{count_phrase(self.games, 'game')} rated, {self.unplayed} unplayed, "
            f"{count_phrase(self.events, 'event')}"
        )


def _is_rated_game(result: str, black: int | None) -> bool:
    return black is not None and result in Game.PLAYED


def files_import(
    events: Sequence[FileEvent],
    *,
    problems: Sequence[str] = (),
    create_missing: bool = False,
    as_guests: bool = False,
    dry_run: bool = False,
    user: Any = None,
    ratings_games: int | None = None,
    duplicate_reason: str = "",
) -> FilesReport:
    """Import events read from tournament files, complete and rated, all or nothing.

    Players are matched to members by ``match_players`` (as the web import does); those
    who match no one stop the import unless ``create_missing`` (new members) or
    ``as_guests`` (new guests). An event already recorded (same name, start and end) is
    left alone and said so. ``problems`` are those found reading the files: any problem
    raises ``FilesRefused`` listing them all, nothing saved. A new player starts from the
    file's rating with ``ratings_games`` games behind it; a rating the club's system would
    drop without them (acf-1993, ecf-2020) is a problem naming what is missing.

    An event whose games are already recorded in another event (``rules.duplicates``, one
    query for every file) is refused unless ``duplicate_reason`` says why they are to be
    recorded again; the reason is kept with each such event. Fewer matches are notes.
    """
    problems = list(problems)
    report = FilesReport(dry_run=dry_run)
    todo: list[tuple[FileEvent, dict[int, Member | None]]] = []
    seen: dict[tuple[str, dt.date, dt.date], str] = {}
    rating_field = Member._meta.get_field("initial_rating")
    system = ClubSettings.load().engine()
    if ratings_games is not None and (problem := rules.games_problem(ratings_games)):
        problems.append(f"--ratings-games {ratings_games}: {problem}")
    for event in events:
        key = (event.name, event.start, event.end)
        existing = Event.objects.filter(
            name=event.name, start_date=event.start, end_date=event.end
        ).first()
        if existing is not None:
            report.notes.append(
                f'{event.source}: already imported as "{existing.name}" '
                f"({existing.start_date}); nothing done"
            )
            continue
        if key in seen:
            report.notes.append(
                f'{event.source}: the same event as {seen[key]} ("{event.name}", '
                f"{event.start}); nothing done"
            )
            continue
        seen[key] = event.source
        report.notes += event.notes
        try:  # the event form's rules: name, dates in order, no mistyped year
            Event(name=event.name, start_date=event.start, end_date=event.end).clean()
        except ValidationError as error:
            for messages in error.message_dict.values():
                problems += [f"{event.source}: {m}" for m in messages]
        # The record's rules: results once the event has started; new members' names.
        recorded = Event(name=event.name, start_date=event.start, end_date=event.end)
        if problem := rules.results_too_early_problem(recorded):
            problems.append(f"{event.source}: {problem}")
        # Recorded complete: never an event without games, nor a rated one with nothing
        # to rate (a pairing program's file before round 1, a file of byes).
        if problem := rules.imported_event_problem(
            event.name,
            games=len(event.games),
            played=sum(_is_rated_game(g[3], g[2]) for g in event.games),
            rated=event.rated,
        ):
            problems.append(f"{event.source}: {problem}")
        if event.online and any(p.rating is not None for p in event.players):
            # A server's ratings (Lichess's, chess.com's) are no rating over the board:
            # a new player from an online event starts without one.
            for player in event.players:
                player.rating = None
            report.notes.append(
                f"{event.source}: played online: the file's ratings are the server's, "
                "not brought in"
            )
        matches = match_players((p.key, p.name, p.fide_id) for p in event.players)
        missing = [p for p in event.players if p.key not in matches]
        if missing and not (create_missing or as_guests):
            problems.append(
                f"{event.source}: {len(missing)} player(s) match no member "
                "(give --create-missing or --as-guests to add them):"
            )
            problems += [f"{event.source}, {p.where}: {p.name}" for p in missing]
        twice: dict[int, FilePlayer] = {}
        for player in event.players:
            member = matches.get(player.key)
            if member is None:
                if (create_missing or as_guests) and player.rating is not None:
                    try:
                        rating_field.run_validators(player.rating)
                    except ValidationError as error:
                        problems.append(
                            f"{event.source}, {player.where}: {player.name}'s rating "
                            f"{player.rating}: {' '.join(error.messages)}"
                        )
                    brought = {"initial_rating": player.rating, "initial_games": ratings_games}
                    if dropped := brought_in_problem(system, brought):
                        problems.append(
                            f"{event.source}, {player.where}: {player.name}'s rating "
                            f"{player.rating}: {dropped} Give --ratings-games N (the games "
                            "behind the file's ratings)."
                        )
                continue
            if member.pk in twice:
                other = twice[member.pk]
                problems.append(
                    f"{event.source}, {player.where}: {player.name} and {other.name} "
                    f"({other.where}) are both member {member.member_number}"
                )
            twice[member.pk] = player
        new_names: dict[str, FilePlayer] = {}
        for player in missing:
            if problem := rules.member_name_problem(given_surname(player.name)):
                problems.append(f"{event.source}, {player.where}: {player.name}: {problem}")
            other = new_names.setdefault(name_key(player.name), player)
            if other is not player and _new_key(other) == _new_key(player):
                problems.append(
                    f"{event.source}, {player.where}: {player.name} has the name of "
                    f"{other.name} ({other.where}) and matches no member: which is which?"
                )
        report.notes += [
            f"{event.source}: {pair}"
            for pair in players_possible_duplicates(
                ((p.where, p.name, p.fide_id, p.born) for p in event.players),
                matched=[m.pk for m in matches.values()],
            )
        ]
        todo.append((event, {p.key: matches.get(p.key) for p in event.players}))
    duplicates = _duplicates(todo)
    for (event, _), found in zip(todo, duplicates, strict=True):
        if found.is_duplicate and not duplicate_reason.strip():
            problems.append(
                f"{event.source}: {found.words()} Check that event; to record these games "
                'again all the same, say why with --duplicate-reason "...".'
            )
        elif found.found:
            report.notes.append(f"{event.source}: {found.words()}")
    if problems:
        raise FilesRefused(problems)
    # Players new here, by FIDE id (one id, one person, whatever each file calls them),
    # else by name, across the files: one new member each.
    new_members: dict[str, Member] = {}
    members: set[int] = set()
    for event, matched in todo:
        for player in event.players:
            member = matched[player.key]
            if member is not None:
                members.add(member.pk)
            elif _new_key(player) not in new_members:
                new_members[_new_key(player)] = Member(
                    **file_member_fields(
                        name=player.name, federation=player.federation, born=player.born
                    ),
                    is_guest=as_guests and not create_missing,
                    fide_id=player.fide_id if player.fide_id.isdigit() else "",
                    title=player.title if player.title in TITLES else "",
                    gender={"m": "M", "w": "F", "f": "F"}.get(player.sex.lower(), ""),
                    initial_rating=player.rating,
                    initial_games=(ratings_games or 0) if player.rating is not None else 0,
                )
        report.games += sum(_is_rated_game(g[3], g[2]) for g in event.games)
        report.unplayed += sum(not _is_rated_game(g[3], g[2]) for g in event.games)
    report.players = len(members) + len(new_members)
    report.new = len(new_members)
    report.events = len(todo)
    if dry_run or not todo:
        return report
    numbers = iter(next_member_numbers(len(new_members)))  # the club's pattern
    for member in new_members.values():
        member.member_number = next(numbers)
    with transaction.atomic():
        saved = []
        for (event, matched), found in zip(todo, duplicates, strict=True):
            players = {p.key: matched[p.key] or new_members[_new_key(p)] for p in event.players}
            record = Event(
                name=event.name,
                kind=event.kind,
                start_date=event.start,
                end_date=event.end,
                rounds=min(max(event.rounds, 1), 99),
                time_control=event.time_control[:TIME_CONTROL_LENGTH],
                time_class=event.time_class or event_time_class(event.time_control, event.name),
                tie_breaks=tiebreaks.codes_text(event.tie_breaks),
                status=Event.Status.COMPLETE,
                rated=event.rated,
                online=event.online,
                duplicate_reason=duplicate_reason.strip() if found.is_duplicate else "",
            )
            saved.append(
                services.trf_import(event=record, games=event.games, players=players, user=user)
            )
        saved.sort(key=services.rating_key)
        system = ClubSettings.load().engine()
        services.periods_close_past(system=system)
        services.ratings_update(
            services.RerateRequest(
                start=saved[0],
                user=user,
                reason=f"Tournament files imported: {count_phrase(len(saved), 'event')}",
            )
        )
    return report


def _duplicates(todo: Sequence[tuple[FileEvent, dict[Any, Member | None]]]) -> list[Duplicates]:
    """Each event's games already recorded in another event, as its players are matched
    (players new to the club have no games yet), in one query."""

    def member_id(matched: dict[Any, Member | None], key: Any) -> int | None:
        member = matched.get(key)
        return member.pk if member is not None else None

    return duplicates_find(
        events=[
            EventIn(
                start=event.start,
                end=event.end,
                games=[
                    (r, member_id(matched, w), member_id(matched, b), result)
                    for r, w, b, result, _ in event.games
                ],
            )
            for event, matched in todo
        ]
    )


def _new_key(player: FilePlayer) -> str:
    """Who a player new to the club is, across files: their FIDE id, else their name."""
    fide_id = player.fide_id.lstrip("0")
    return f"id {fide_id}" if fide_id.isdigit() else f"name {name_key(player.name)}"
