"""Who plays whom: a round robin's schedule, where a grid's games go, rematches in a Swiss.

Plain functions over players and games, used by the officer's result pages and the demo
club alike; nothing here reads a request or writes the database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from . import results

if TYPE_CHECKING:
    from ..models import Game

Player = TypeVar("Player")


@dataclass(frozen=True)
class GridGame:
    """A game of a round robin's grid where the schedule puts it: its round, board and
    colours, and its result with white first (the view records it as a ``Game``)."""

    round: int
    board: int | None
    white_id: int
    black_id: int
    result: str


def round_robin_schedule(
    players: Sequence[Player],
) -> dict[int, list[tuple[Player, Player | None]]]:
    """Who meets whom in each round of a round robin (the circle method, colours alternating).

    Every pair meets once, in ``len(players) - 1`` rounds (one more with an odd number).
    With an odd number of players the one paired with ``None`` sits the round out.
    """
    seats: list[Player | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    schedule: dict[int, list[tuple[Player, Player | None]]] = {}
    fixed, rest = seats[-1], seats[:-1]
    for r in range(n - 1):
        turn = rest[r:] + rest[:r]
        pairs = [(turn[0], fixed) if r % 2 == 0 else (fixed, turn[0])]
        pairs += [(turn[i], turn[-i]) for i in range(1, n // 2)]
        games: list[tuple[Player, Player | None]] = []
        for white, black in pairs:
            if white is None:
                white, black = black, None
            if white is not None:
                games.append((white, black))
        schedule[r + 1] = games
    return schedule


def grid_games(
    *,
    players: Sequence[int],
    cells: Mapping[tuple[int, int], str],
    existing: Mapping[frozenset[int], Game],
    sitting: Iterable[tuple[int, int]],
    rounds: int,
) -> list[GridGame]:
    """A round robin's games from its grid: a pair keeps its round and colours, or takes
    the schedule's.

    ``players`` are the players' keys in the schedule's order; ``cells`` the grid's
    results, ``(row, column)`` to the result with the row player as white; ``existing``
    the games already between two players, by pair; ``sitting`` (round, player) of the
    byes entered on the round pages. A new pair whose scheduled round already has one of
    them busy (a round entered on its page in another order, or a bye there) goes to the
    first round where both are free, so nobody plays twice in a round.
    """
    slot: dict[frozenset[int], tuple[int, int, int]] = {}
    for scheduled, pairs in round_robin_schedule(players).items():
        for seat, (first, second) in enumerate(pairs, start=1):
            if second is not None:
                slot[frozenset((first, second))] = (scheduled, seat, first)
    wanted = [
        (row, col, result, existing.get(frozenset((row, col))))
        for (row, col), result in cells.items()
    ]
    busy: dict[int, set[int]] = defaultdict(set)
    boards: dict[int, set[int]] = defaultdict(set)
    for number, player in sitting:
        busy[number].add(player)
    for _, _, _, old in wanted:
        if old is not None:
            busy[old.round].update(p for p in (old.white_id, old.black_id) if p is not None)
            if old.board is not None:
                boards[old.round].add(old.board)
    games = []
    board: int | None
    # New pairs in the schedule's order, so a grid filled in from scratch is the schedule.
    for row, col, result, old in sorted(wanted, key=lambda w: slot[frozenset((w[0], w[1]))]):
        if old is not None:
            number, board, white = old.round, old.board, old.white_id
        else:
            number, board, white = slot[frozenset((row, col))]
            pair = {row, col}
            if busy[number] & pair:
                free = [n for n in range(1, rounds + 1) if not busy[n] & pair]
                number = free[0] if free else number
            if board in boards[number]:
                board = max(boards[number]) + 1
            busy[number].update(pair)
            boards[number].add(board)
        if white != row:
            result = results.flipped(result)
        black = col if white == row else row
        games.append(
            GridGame(round=number, board=board, white_id=white, black_id=black, result=result)
        )
    return games


def rematches(
    games: Iterable[tuple[int, int, int]], number: int
) -> list[tuple[tuple[int, int], list[int]]]:
    """The pairs of round ``number`` who also met in another round, each with those rounds.

    ``games`` are (round, white, black) of the event's games between two players. A
    Swiss pairs nobody twice, so a rematch there is more often a slip of the pen.
    """
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for round_, white, black in games:
        met[frozenset((white, black))].append(round_)
    return [
        ((min(pair), max(pair)), sorted(r for r in rounds if r != number))
        for pair, rounds in met.items()
        if number in rounds and len(rounds) > 1
    ]
