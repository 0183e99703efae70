"""nz-club-elo: a club's Elo ratings (seed 000).

Rules: expected score 1 / (1 + 10^((Rb - Ra) / 400)); K 32, or 16 once a player
has played more than 30 rated games; new players start at 1500; guests are fixed
at 1500; no rating below 1000; at most 32 points a game; ratings are worked out
after each rated event from the ratings before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import (
    Event,
    EventResult,
    GameLine,
    Parameter,
    PlayerChange,
    PlayerState,
    RatingSystem,
    round_half_up,
    whole,
    with_changes,
)


class NzClubElo(RatingSystem):
    id = "nz-club-elo"
    title = "Club Elo (NZ club rules)"
    parameters = (
        Parameter("start_rating", 1500.0, "rating given to every new player", minimum=0),
        Parameter("guest_rating", 1500.0, "fixed rating used for guests", minimum=0),
        Parameter("k_new", 32.0, "K-factor until a player has passed k_games games", minimum=0),
        Parameter("k_established", 16.0, "K-factor once a player has passed k_games", minimum=0),
        Parameter(
            "k_games",
            30,
            "K drops once a player has played MORE than this many rated games",
            minimum=0,
        ),
        Parameter("floor", 1000.0, "no rating drops below this", minimum=0),
        Parameter("max_per_game", 32.0, "most a rating can move in one game", minimum=0),
        Parameter(
            "update",
            "event",
            "'event': every game of an event on the ratings before it (the text's "
            "'after each rated event'); 'game': ratings move after every game",
            choices=("event", "game"),
        ),
        Parameter("decimals", 2, "ratings are kept to this many decimal places", minimum=0),
    )

    def prepare(self, player: PlayerState) -> PlayerState:
        if player.guest:
            return with_changes(player, rating=float(self.params["guest_rating"]))
        if player.rating is None:
            return with_changes(player, rating=float(self.params["start_rating"]))
        return player

    def display(self, player: PlayerState) -> str:
        return "" if player.rating is None else str(whole(player.rating))

    def k_factor(self, games_played: int) -> float:
        p = self.params
        return float(p["k_established"] if games_played > p["k_games"] else p["k_new"])

    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        return [self._rate_event(players, event) for event in events]

    def _rate_event(self, players: dict[str, PlayerState], event: Event) -> EventResult:
        p = self.params
        cap = float(p["max_per_game"])
        by_game = p["update"] == "game"
        before = {pid: players[pid] for g in event.games for pid in (g.a, g.b)}
        # K is judged once per event from the games played before it ('game' mode:
        # before each game).
        k = {pid: self.k_factor(state.games) for pid, state in before.items()}
        played_so_far = {pid: state.games for pid, state in before.items()}
        current = {pid: float(state.rating or 0.0) for pid, state in before.items()}
        lines: dict[str, list[GameLine]] = {pid: [] for pid in before}
        games = event.games
        if by_game:
            games = tuple(sorted(games, key=lambda g: g.round or 0))
        delta = dict.fromkeys(before, 0.0)
        for game in games:
            ra = current[game.a] if by_game else float(before[game.a].rating or 0.0)
            rb = current[game.b] if by_game else float(before[game.b].rating or 0.0)
            ea = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
            for pid, opp, own, theirs, score, expected in (
                (game.a, game.b, ra, rb, game.score, ea),
                (game.b, game.a, rb, ra, 1.0 - game.score, 1.0 - ea),
            ):
                if by_game:
                    k[pid] = self.k_factor(played_so_far[pid])
                    played_so_far[pid] += 1
                change = k[pid] * (score - expected)
                change = max(-cap, min(cap, change))
                if before[pid].guest:
                    change = 0.0
                delta[pid] += change
                if by_game:
                    current[pid] = self._bounded(own + change)
                lines[pid].append(
                    GameLine(
                        opponent=opp,
                        score=score,
                        opponent_rating=theirs,
                        expected=round(expected, 4),
                        change=round(change, 2),
                        round=game.round,
                        detail={"k": k[pid]},
                    )
                )
        changes = []
        for pid, state in before.items():
            old = float(state.rating or 0.0)
            if state.guest:
                new = old
            elif by_game:
                new = round_half_up(current[pid], int(p["decimals"]))
            else:
                new = round_half_up(self._bounded(old + delta[pid]), int(p["decimals"]))
            played = len(lines[pid])
            players[pid] = with_changes(state, rating=new, games=state.games + played)
            score = sum(line.score for line in lines[pid])
            expected = sum(line.expected or 0.0 for line in lines[pid])
            changes.append(
                PlayerChange(
                    player=pid,
                    before=old,
                    after=new,
                    display_before=self.display(state),
                    display_after=self.display(players[pid]),
                    games=lines[pid],
                    detail={
                        "k": k[pid],
                        "played": played,
                        "score": score,
                        "expected": round(expected, 4),
                        **({"guest": True} if state.guest else {}),
                    },
                )
            )
        return EventResult(id=event.id, period=None, changes=changes)

    def _bounded(self, rating: float) -> float:
        return max(float(self.params["floor"]), rating)
