"""FIDE's rating list read into the record: each member with a FIDE id gets FIDE's
ratings, title and federation from the list FIDE publishes each month.

``fide_list_check`` reads the file (``formats.fide_list``) once, streaming: a real list
has about 1.9 million lines, so only the lines of the club's members' FIDE ids are parsed
and kept; it saves nothing and says what saving would change. ``fide_ratings_save`` saves
those players' figures in one transaction, a few statements whatever the club's size.
Members whose id is not on the list keep what they had (FIDE drops a player who has left
it; a wrong id is the officer's to correct). Shared by the officer's upload page and
the ``import_fide_list`` command.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import IO, Any

from django.db import transaction
from django.utils import timezone

from ..formats.fide_list import (
    FideList,
    FidePlayer,
    fide_list_is_xml,
    fide_list_open,
    fide_list_read,
    fide_list_read_xml,
    kind_of_name,
)
from ..models import FideRating, Member
from ..words.counts import count_phrase
from .public_pages import public_pages_changed

#: The club's members by FIDE id: each one's primary key, name and number.
ClubIds = dict[str, list[tuple[int, str, str]]]

#: What a list says of a player besides the ratings, kept on ``FideRating`` as it is.
_DETAILS = ("name", "federation", "title", "women_title", "born", "inactive")


class FideListRefused(Exception):
    """The file cannot be read as FIDE's list: nothing was saved."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class FideLine:
    """One member's line of the list beside what the club held of it."""

    member_id: int
    member_name: str
    member_number: str
    player: FidePlayer
    #: The ratings held before, for the time controls the file rates (None: none held).
    before: dict[str, int | None]
    is_new: bool

    @property
    def changed(self) -> list[str]:
        """The time controls whose rating the list changes."""
        return [k for k, rating in self.player.ratings.items() if self.before.get(k) != rating]

    @property
    def figures(self) -> list[tuple[str, int | None, int | None]]:
        """Each time control the list rates: what was held, what the list says."""
        return [(k, self.before.get(k), rating) for k, rating in self.player.ratings.items()]


@dataclass
class FideListPreview:
    """What saving a list would do: the list's time controls and month, the club's
    members on it, those whose FIDE id it lacks, and its problems (nothing is saved
    while it has any)."""

    kinds: tuple[str, ...] = ()
    month: dt.date | None = None
    lines: int = 0
    members: list[FideLine] = field(default_factory=list)
    not_on_list: list[tuple[str, str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> list[FideLine]:
        return [line for line in self.members if line.changed or line.is_new]

    def players_data(self) -> list[dict[str, Any]]:
        """The members' lines as plain data, kept between the preview and its confirmation
        (the session), so the file is read once."""
        return [asdict(line.player) for line in self.members]


@dataclass
class FideListReport:
    kinds: tuple[str, ...]
    month: dt.date
    linked: int = 0
    changed: int = 0

    def __str__(self) -> str:
        kinds = ", ".join(self.kinds)
        return (
            f"FIDE's list of {self.month:%Y-%m} ({kinds}): "
            f"{count_phrase(self.linked, 'member')} on it, "
            f"{count_phrase(self.changed, 'FIDE rating')} changed."
        )


def _club_ids() -> ClubIds:
    """The club's members by FIDE id (without leading zeros): one query."""
    by_id: ClubIds = {}
    rows = Member.objects.active().exclude(fide_id="")
    for pk, name, number, fide_id in rows.values_list("pk", "name", "member_number", "fide_id"):
        by_id.setdefault(fide_id.lstrip("0"), []).append((pk, name, number))
    return by_id


def _month(found: FideList, month: dt.date | None) -> tuple[dt.date, list[str]]:
    """The list's month: its header's (a single list's), else the one given, else this one."""
    if found.month and month and found.month != month.replace(day=1):
        return found.month, [
            f"line 1: this is FIDE's list of {found.month:%Y-%m}, not of {month:%Y-%m}: "
            "choose the month the file says, or upload that month's list"
        ]
    chosen = found.month or month or timezone.localdate()
    return chosen.replace(day=1), []


def fide_list_check(
    *,
    stream: IO[bytes],
    filename: str = "",
    kind: str | None = None,
    month: dt.date | None = None,
) -> FideListPreview:
    """Read FIDE's list (its text or its zip) for the club's members and say what saving
    it would change; saves nothing. ``kind``: a single list's time control, when its file
    name does not say it; ``month``: the list's, when its header does not say it."""
    try:
        text, inner_name = fide_list_open(stream)
    except ValueError as error:
        return FideListPreview(problems=[str(error)])
    kind = kind or kind_of_name(inner_name or "") or kind_of_name(filename)
    club = _club_ids()
    read = fide_list_read_xml if fide_list_is_xml(text) else fide_list_read
    found = read(text, kind=kind, wanted=club.keys())
    preview = FideListPreview(kinds=found.kinds, lines=found.lines)
    preview.problems = found.problem_lines()
    preview.month, month_problems = _month(found, month)
    preview.problems += month_problems
    if not found.kinds:
        return preview
    _fill(preview, found.players, club)
    return preview


def fide_list_kept(
    *, players: Sequence[FidePlayer], kinds: Sequence[str], month: dt.date, lines: int = 0
) -> FideListPreview:
    """The preview of players read before (kept between the preview and its confirmation)
    against the record as it stands now."""
    preview = FideListPreview(kinds=tuple(kinds), month=month, lines=lines)
    _fill(preview, players, _club_ids())
    return preview


def _fill(
    preview: FideListPreview,
    players: Sequence[FidePlayer],
    club: ClubIds,
) -> None:
    preview.members = _lines(players, club)
    on_list = {p.fide_id for p in players}
    preview.not_on_list = sorted(
        (name, number, fide_id)
        for fide_id, members in club.items()
        if fide_id not in on_list
        for _, name, number in members
    )


def _lines(players: Iterable[FidePlayer], club: ClubIds) -> list[FideLine]:
    players = list(players)
    held = {
        row.member_id: row
        for row in FideRating.objects.filter(
            member_id__in=[pk for p in players for pk, _, _ in club.get(p.fide_id, [])]
        )
    }
    lines = []
    for player in players:
        for pk, name, number in club.get(player.fide_id, []):
            before = held.get(pk)
            lines.append(
                FideLine(
                    member_id=pk,
                    member_name=name,
                    member_number=number,
                    player=player,
                    before={k: before.rating(k) if before else None for k in player.ratings},
                    is_new=before is None,
                )
            )
    return sorted(lines, key=lambda line: line.member_name.lower())


def fide_players_from_data(data: Iterable[dict[str, Any]]) -> list[FidePlayer]:
    """The players ``FideListPreview.players_data`` kept, back as the reader gave them."""
    return [FidePlayer(**row) for row in data]


def fide_ratings_save(
    *, players: Sequence[FidePlayer], kinds: Sequence[str], month: dt.date
) -> FideListReport:
    """Save the list's figures for the club's members among ``players`` (matched again
    by FIDE id, as the record stands now), all at once: each member's FIDE row is made or
    updated, for the time controls the list rates; the others stay as they were."""
    report = FideListReport(kinds=tuple(kinds), month=month)
    with transaction.atomic():
        lines = _lines(players, _club_ids())
        held = {
            row.member_id: row
            for row in FideRating.objects.filter(member_id__in=[line.member_id for line in lines])
        }
        made: list[FideRating] = []
        updated: list[FideRating] = []
        for line in lines:
            row = held.get(line.member_id) or FideRating(member_id=line.member_id)
            row.fide_id = line.player.fide_id
            for name in _DETAILS:
                setattr(row, name, getattr(line.player, name))
            for kind in kinds:
                setattr(row, kind, line.player.ratings.get(kind))
                setattr(row, f"{kind}_month", month)
            (updated if row.pk else made).append(row)
            report.changed += len(line.changed)
        FideRating.objects.bulk_create(made, batch_size=500)
        fields = ["fide_id", *_DETAILS, *kinds, *(f"{kind}_month" for kind in kinds), "updated"]
        now = timezone.now()
        for row in updated:
            row.updated = now
        FideRating.objects.bulk_update(updated, fields, batch_size=500)
        report.linked = len(lines)
        if lines:
            # Members' pages show FIDE's ratings, and the list may (``fide_on_list``).
            public_pages_changed()
    return report


def fide_list_import(
    *,
    stream: IO[bytes],
    filename: str = "",
    kind: str | None = None,
    month: dt.date | None = None,
) -> FideListReport:
    """Read and save FIDE's list at once (the command): refused whole, nothing saved,
    when the file has any problem."""
    preview = fide_list_check(stream=stream, filename=filename, kind=kind, month=month)
    if preview.problems:
        raise FideListRefused(preview.problems)
    assert preview.month is not None
    return fide_ratings_save(
        players=[line.player for line in preview.members], kinds=preview.kinds, month=preview.month
    )
