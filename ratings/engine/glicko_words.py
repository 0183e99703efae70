"""How glicko-2's figures read on the pages: the labels of a change's breakdown and of a
game's line, in the words and letters of Glickman's "Example of the Glicko-2 system"
(glicko.net/glicko/glicko2.pdf). Data, apart from the rules (``glicko_2.py``)."""

from __future__ import annotations

from .base import RatingSystem

#: The figures of a change: the period's games, the rating deviation (RD) and volatility
#: (σ) it opened and closed with, and the two quantities of steps 3 and 4 (v and Δ, on
#: the Glicko-2 scale, as the document works them out).
_SHARED = RatingSystem.detail_labels
DETAIL_LABELS = {
    "played": _SHARED["played"],
    "score": _SHARED["score"],
    "inactive_periods": "Periods without games before this one",
    "deviation_before": "Rating deviation as the period opened (RD)",
    "volatility_before": "Volatility (σ)",
    "variance": "Estimated variance (v, Glicko-2 scale)",
    "improvement": "Estimated improvement (Δ, Glicko-2 scale)",
    "deviation_after": "New rating deviation (RD′)",
    "volatility_after": "New volatility (σ′)",
    **_SHARED,
}
#: Each game's opponent: their RD as the period opened, and g(φj), the weight their RD
#: gives the game (step 3).
LINE_LABELS = {"opponent_deviation": "Their RD", "g": "g(φj)"}
