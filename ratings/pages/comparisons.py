"""What a finished comparison shows: the measures, the top of each system's list side by
side, the members whose rank differs most, and a member's ratings over time.

A fixed number of queries whatever the club's size; members' ratings appear only for
members published today (as on the list), whoever reads.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from ..engine import SYSTEMS
from ..models import Comparison, ComparisonRating, Member
from ..rules.rating_lists import LIST_ORDER, list_name
from ..rules.time_classes import STANDARD
from ..services.compare_verdict import MOST_FILLED_IN
from ..words.counts import count_phrase

#: Places shown of each system's list.
TOP = 20
#: Members shown "whose ratings differ most".
DIFFER_SHOWN = 15
#: The figures of the measures table: (key in the results, heading, recent?)
MEASURES = (
    ("deviance", "Deviance per game"),
    ("recent_deviance", "Deviance, last 12 months"),
    ("rmse", "RMSE per player-month"),
    ("recent_rmse", "RMSE, last 12 months"),
)


def short_title(system_id: str) -> str:
    """A system's name without its gloss: "Club Elo" for "Club Elo (NZ club rules)"."""
    return SYSTEMS[system_id].title.split(" (")[0]


def system_order(comparison: Comparison) -> list[str]:
    """The club's system first, then the others in the registry's order."""
    club = comparison.club_system
    return [club] * (club in SYSTEMS) + [sid for sid in SYSTEMS if sid != club]


@dataclass
class MeasureRow:
    system: str | None  # None: everyone equal
    title: str
    short: str
    figures: list[tuple[float | None, bool]]  # (value, best in its column)
    expected_share: float | None
    params: str = ""  # the parameters tried, as JSON (none: "")
    current: bool = False


def measure_rows(
    comparison: Comparison, results: dict[str, Any] | None = None
) -> list[MeasureRow]:
    """One row per system, then the baseline, for one list's ``results`` (default: the
    standard list's). Marked best: only the deviance of the system the verdict says
    predicted best by more than chance; a figure within chance of another's, or resting on
    fill-in expectations, is no best."""
    results = comparison.results or {} if results is None else results
    systems = results.get("systems", {})
    verdict = results.get("verdict") or {}
    marked = verdict.get("best") if verdict.get("beyond_chance") else None
    rows = []
    for sid in system_order(comparison):
        data = systems.get(sid)
        if data is None:
            continue
        games = data["games"] or 0
        rows.append(
            MeasureRow(
                sid,
                SYSTEMS[sid].title,
                short_title(sid),
                [(data[key], sid == marked and key == "deviance") for key, _ in MEASURES],
                data["expected_games"] / games if games else None,
                json.dumps(comparison.params[sid]) if comparison.params.get(sid) else "",
                sid == comparison.club_system,
            )
        )
    base = results.get("baseline")
    if base:
        rows.append(
            MeasureRow(
                None,
                "Everyone equal (0.5)",
                "Everyone equal (0.5)",
                [(base[k], False) for k, _ in MEASURES],
                None,
            )
        )
    return rows


def _names(titles: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"


def verdict_sentences(results: dict[str, Any], rating_list: str = STANDARD) -> list[str]:
    """The verdict on one list in plain words: which system predicted its games best, by
    how much, and whether that is more than chance on this many games (the interval of
    ``services.compare_verdict.verdict``); then the systems left out for resting on fill-ins."""
    verdict = results.get("verdict")
    games = results.get("games", 0)
    if verdict is None:
        return ["This comparison was worked out before verdicts were given: run it again."]
    if not games:
        return [f"No rated game on the {list_name(rating_list).lower()} yet: nothing to compare."]
    systems = results["systems"]
    played = (
        f"{count_phrase(verdict['games'], 'game')} in {count_phrase(verdict['events'], 'event')}"
    )
    sentences = []
    best = verdict.get("best")
    filled_in = verdict.get("filled_in", {})
    # The verdict speaks of the systems put forward: said so whenever others were left
    # out, or "lowest" reads as the table's, which a system left out may beat.
    among = " of the systems put forward" if filled_in else ""
    if best is None:
        sentences.append(
            "No system had expectations of its own for enough of the games to be put forward."
        )
    elif verdict.get("too_few") or not verdict.get("against"):
        sentences.append(
            f"{short_title(best)} had the lowest deviance per game{among} "
            f"({systems[best]['deviance']:.4f}), but {played} are too few to tell the "
            "systems apart."
        )
    else:
        against = verdict["against"]
        runner = min(against, key=lambda sid: systems[sid]["deviance"])
        gap = against[runner]
        lower = -gap["mean"]
        next_best = (
            "the next best of those put forward"
            if any(systems[sid]["deviance"] < systems[runner]["deviance"] for sid in filled_in)
            else "the next best"
        )
        if verdict.get("beyond_chance"):
            sentences.append(
                f"{short_title(best)} predicted the club's results best{among}: its deviance per "
                f"game is {lower:.4f} lower than {short_title(runner)}'s, {next_best} "
                f"(95 % interval {-gap['high']:.4f} to {-gap['low']:.4f} lower). That is more "
                f"than chance on {played}."
            )
        else:
            close = [short_title(best)] + [
                short_title(sid)
                for sid in sorted(against, key=lambda sid: systems[sid]["deviance"])
                if not against[sid]["beyond_chance"]
            ]
            sentences.append(
                f"Too few games to tell: {short_title(best)} had the lowest deviance per game"
                f"{among}, "
                f"{lower:.4f} lower than {short_title(runner)}'s, but the 95 % interval of the "
                f"difference ({-gap['high']:+.4f} to {-gap['low']:+.4f}) includes none at all. "
                f"On {played}, {_names(close)} are within chance of each other."
            )
    if best is not None:
        # A system left out that the table shows lower: why it is not the one named.
        lower_left_out = [
            sid
            for sid in system_order_of(systems)
            if sid in filled_in and systems[sid]["deviance"] < systems[best]["deviance"]
        ]
        if lower_left_out:
            figures = ", ".join(f"{systems[sid]['deviance']:.4f}" for sid in lower_left_out)
            sentences.append(
                f"{_names([short_title(sid) for sid in lower_left_out])} had lower deviance "
                f"per game ({figures}) but rest on fill-ins for over {MOST_FILLED_IN:.0%} of "
                f"their games, so {'is' if len(lower_left_out) == 1 else 'are'} not put "
                "forward."
            )
    baseline = (results.get("baseline") or {}).get("deviance")
    if best is not None and baseline is not None and systems[best]["deviance"] >= baseline:
        sentences.append(
            f"No system predicted better than rating everyone equal ({baseline:.4f} per game)."
        )
    for sid in system_order_of(systems):
        share = verdict.get("filled_in", {}).get(sid)
        if share is not None:
            sentences.append(
                f"Not put forward: {short_title(sid)}, which had no rating of its own for a "
                f"player in {share:.0%} of the games (those count at 0.5, as “everyone equal” "
                "would)."
            )
    return sentences


def system_order_of(systems: dict[str, Any]) -> list[str]:
    return [sid for sid in SYSTEMS if sid in systems]


@dataclass
class ListSection:
    """One list's part of the comparison: its verdict and its measures."""

    rating_list: str
    name: str
    results: dict[str, Any]
    verdict: list[str]
    rows: list[MeasureRow]


def list_sections(comparison: Comparison) -> list[ListSection]:
    """Each list compared on its own games, standard first. A comparison from before the
    lists were compared apart shows its one table, with no verdict."""
    results = comparison.results or {}
    lists = results.get("lists") or {STANDARD: results}
    return [
        ListSection(
            rating_list,
            list_name(rating_list),
            data,
            verdict_sentences(data, rating_list),
            measure_rows(comparison, data),
        )
        for rating_list, data in sorted(lists.items(), key=lambda item: LIST_ORDER.index(item[0]))
    ]


@dataclass
class Place:
    member: Member
    display: str
    rank: int
    move: int | None  # places up (+) or down (-) against the club's system; None: unranked

    @property
    def size(self) -> int:
        return abs(self.move or 0)


def top_lists(comparison: Comparison, top: int = TOP) -> list[tuple[str, str, list[Place]]]:
    """(system, short title, places) for each system: its top ``top`` published members, with
    their move against the club's system. One query a system, and one for the moves."""
    published = Member.objects.published().values("pk")
    lists: list[tuple[str, str, list[ComparisonRating]]] = []
    for sid in system_order(comparison):
        rows = list(
            ComparisonRating.objects.filter(
                comparison=comparison, system=sid, rank__isnull=False, member__in=published
            )
            .select_related("member")
            .only("rank", "display", "member__name", "member__member_number")
            .order_by("rank", "member__name")[:top]
        )
        lists.append((sid, short_title(sid), rows))
    shown = {row.member_id for _, _, rows in lists for row in rows}
    club_ranks = dict(
        ComparisonRating.objects.filter(
            comparison=comparison, system=comparison.club_system, member__in=shown
        ).values_list("member_id", "rank")
    )
    result = []
    for sid, title, rows in lists:
        places = []
        for row in rows:
            reference = club_ranks.get(row.member_id)
            move = None if reference is None or row.rank is None else reference - row.rank
            places.append(Place(row.member, row.display, row.rank or 0, move))
        result.append((sid, title, places))
    return result


@dataclass
class Differ:
    member: Member
    places: list[tuple[int | None, str]]  # (rank, display) per system, in system_order
    spread: int


def differ_most(comparison: Comparison, shown: int = DIFFER_SHOWN) -> list[Differ]:
    """The published members whose rank differs most between the systems (one query)."""
    order = (comparison.results or {}).get("differ", [])
    if not order:
        return []
    systems = system_order(comparison)
    rows = ComparisonRating.objects.filter(
        comparison=comparison,
        member__in=order,
        system__in=systems,
    ).filter(member__in=Member.objects.published().values("pk"))
    by_member: dict[int, dict[str, ComparisonRating]] = {}
    members: dict[int, Member] = {}
    for row in rows.select_related("member").only(
        "member_id", "system", "rank", "display", "member__name", "member__member_number"
    ):
        by_member.setdefault(row.member_id, {})[row.system] = row
        members[row.member_id] = row.member
    result = []
    for pk in order:
        if pk not in by_member:
            continue
        mine = by_member[pk]
        places = [(mine[s].rank, mine[s].display) if s in mine else (None, "") for s in systems]
        ranks = [r for r, _ in places if r is not None]
        result.append(Differ(members[pk], places, max(ranks) - min(ranks) if ranks else 0))
        if len(result) == shown:
            break
    return result


def member_series(
    comparison: Comparison, member: Member
) -> list[tuple[str, list[tuple[dt.date, float]]]]:
    """(system title, [(first of month, rating), ...]) for each system, in system_order."""
    rows = {
        r.system: r.history
        for r in ComparisonRating.objects.filter(comparison=comparison, member=member).only(
            "system", "history"
        )
    }
    return [
        (
            short_title(sid),
            [(dt.date.fromordinal(int(day)), float(rating)) for day, rating in rows.get(sid, [])],
        )
        for sid in system_order(comparison)
    ]


def member_choices(comparison: Comparison) -> list[Member]:
    """Members to pick for the chart: the published top of the club's system's list."""
    return [
        row.member
        for row in ComparisonRating.objects.filter(
            comparison=comparison,
            system=comparison.club_system,
            rank__isnull=False,
            member__in=Member.objects.published().values("pk"),
        )
        .select_related("member")
        .only("member__name", "member__member_number")
        .order_by("rank", "member__name")[:50]
    ]
