"""A comparison's verdict: which system predicted a list's games best, by how much, and
whether that is more than chance (a paired bootstrap resampling whole events)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.measures import paired_bootstrap

#: A system is put forward as best only on expectations of its own: one that had none for
#: more than this share of the games (counted at 0.5, as everyone-equal would) is left out.
MOST_FILLED_IN = 0.10
#: Fewer events than this and no interval is worth giving: too few games to tell.
FEWEST_EVENTS = 10


def verdict(
    systems: Mapping[str, Mapping[str, Any]],
    event_games: list[int],
    event_deviance: Mapping[str, list[float]],
) -> dict[str, Any]:
    """Which system predicted the list's games best, by how much, and whether that is
    more than chance (``paired_bootstrap`` of its deviance against each other system's).

    ``best``: the lowest deviance per game among the systems with expectations of their
    own; ``beyond_chance``: whether it beat every other such system by more than chance;
    ``against``: each other system's difference (best − other, negative: best better)
    and interval; ``filled_in``: the systems left out, with their share of fill-ins.
    """
    filled_in = {}
    candidates = []
    for sid, data in systems.items():
        games = data["games"] or 0
        if not games:
            continue
        share = 1 - data["expected_games"] / games
        if share > MOST_FILLED_IN:
            filled_in[sid] = share
        else:
            candidates.append((data["deviance"], sid))
    result: dict[str, Any] = {
        "best": None,
        "beyond_chance": False,
        "against": {},
        "filled_in": filled_in,
        "events": len(event_games),
        "games": sum(event_games),
        "too_few": len(event_games) < FEWEST_EVENTS,
    }
    if not candidates:
        return result
    candidates.sort()
    best = candidates[0][1]
    result["best"] = best
    if len(candidates) < 2 or result["too_few"]:
        return result
    against = {}
    for _, other in candidates[1:]:
        difference = paired_bootstrap(event_games, event_deviance[best], event_deviance[other])
        against[other] = {
            "mean": difference.mean,
            "low": difference.low,
            "high": difference.high,
            "beyond_chance": difference.beyond_chance,
        }
    result["against"] = against
    result["beyond_chance"] = all(d["beyond_chance"] for d in against.values())
    return result
