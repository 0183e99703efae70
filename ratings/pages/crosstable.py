"""An event's standings and crosstable, from its games: points, places and the cells.

Read by the event's page, its rating report and its crosstable (and whatever exports
them); what the public may see of the players' ratings is ``ratings.rules.publication``'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db.models import Q, QuerySet

from ..models import Event, Game, Member
from ..rules import results, tiebreaks


def event_scores(
    event: Event, read: Sequence[Game] | None = None
) -> tuple[dict[int, float], dict[int, int]]:
    """Each player's points (byes and forfeits included) and games, by member key: from
    the games ``read`` already, else from one query of its own."""
    points: dict[int, float] = defaultdict(float)
    games: dict[int, int] = defaultdict(int)
    rows = (
        ((g.white_id, g.black_id, g.result) for g in read)
        if read is not None
        else event.games.values_list("white_id", "black_id", "result")
    )
    for white, black, result in rows:
        white_points, black_points = results.POINTS[result]
        points[white] += white_points
        games[white] += 1
        if black is not None:
            points[black] += black_points
            games[black] += 1
    return points, games


def event_players_of(event: Event, games: Sequence[Game]) -> QuerySet[Member]:
    """The event's players: the entered, and any player of its ``games`` not entered (an
    entry deleted in the admin: entries are kept by the writers, not a constraint), so
    that every opponent is ranked and has a row."""
    in_games = {pk for g in games for pk in (g.white_id, g.black_id) if pk is not None}
    return Member.objects.filter(Q(entries__event=event) | Q(pk__in=in_games)).distinct()


def event_standing(
    event: Event,
    players: Sequence[Member],
    games: Sequence[Game],
    *,
    ratings: dict[int, float | None] | None = None,
) -> tiebreaks.Standing:
    """The players ranked by points, then by the event's tie-breaks (those level on all of
    them by name), from games already read: no query of its own. ``ratings``: the
    opponents' ratings the reader may see, for the average rating of opponents."""
    by_name = sorted(players, key=lambda m: m.name)
    return tiebreaks.standing(
        [m.pk for m in by_name],
        tiebreaks.results_of((g.round, g.white_id, g.black_id, g.result) for g in games),
        event.tie_break_codes,
        round_robin=event.kind == Event.Kind.ROUND_ROBIN,
        ratings=ratings,
        rounds=max((g.round for g in games), default=0),
    )


def tie_break_figure(code: str, value: object) -> str:
    """A tie-break's figure as the crosstable writes it: points as they fall (12.5, 9.75),
    counts and ratings whole, nothing where there is none."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def crosstable_cells(
    players: Sequence[Member], games: Iterable[Game], event: Event
) -> list[list[str]]:
    """Each player's row of the crosstable, ``players`` in the table's order.

    A round robin is a grid (a column per opponent, the player's points against them, an
    ``f`` for a forfeit); any other event a column per round (the opponent's place,
    colour and points: ``3w1``), byes as the vocabulary marks them.
    """
    place = {m.pk: i for i, m in enumerate(players, start=1)}
    by_player: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for game in games:
        w, b = (results.POINTS_MARK[p] for p in results.POINTS[game.result])
        if game.black_id is None:
            by_player[game.white_id][-game.round].append(results.BYE_MARK[game.result])
            continue
        forfeit = "f" if game.result not in results.PLAYED else ""
        by_player[game.white_id][game.black_id].append(w + forfeit)
        by_player[game.black_id][game.white_id].append(b + forfeit)
        by_player[game.white_id][-game.round].append(f"{place[game.black_id]}w{w}{forfeit}")
        by_player[game.black_id][-game.round].append(f"{place[game.white_id]}b{b}{forfeit}")
    rows = []
    grid = is_grid(event)
    for member in players:
        cells = by_player[member.pk]
        if grid:
            rows.append(
                ["×" if m.pk == member.pk else " ".join(cells.get(m.pk, [])) for m in players]
            )
        else:
            rows.append([" ".join(cells.get(-n, [])) for n in range(1, event.rounds + 1)])
    return rows


def is_grid(event: Event) -> bool:
    """A round robin's crosstable is a grid of players; any other event's, of rounds."""
    return event.kind == Event.Kind.ROUND_ROBIN
