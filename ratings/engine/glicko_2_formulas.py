"""glicko-2's formulas: Mark Glickman's "Example of the Glicko-2 system" steps 2 to 8, each
written once under his name for it (μ, φ, g(φ), E, v, Δ, the Illinois algorithm for σ′,
φ*, φ′, μ′, and back to r′ and RD′). Plain functions of floats: ``glicko_2`` reads a
rating period's games and calls them; the tests check them against the document's
figures one by one.
"""

from __future__ import annotations

import math
import sys

#: Step 2: the Glicko-2 scale is the rating's, less 1500, over 173.7178.
SCALE = 173.7178
CENTRE = 1500.0
#: Step 5: the convergence tolerance of the iteration for σ′ (the document's ε).
EPSILON = 0.000001


def mu(r: float) -> float:
    """Step 2: μ = (r − 1500) / 173.7178."""
    return (r - CENTRE) / SCALE


def phi(rd: float) -> float:
    """Step 2: φ = RD / 173.7178."""
    return rd / SCALE


def rating_of(mu_: float) -> float:
    """Step 8: r′ = 173.7178 μ′ + 1500."""
    return SCALE * mu_ + CENTRE


def deviation_of(phi_: float) -> float:
    """Step 8: RD′ = 173.7178 φ′."""
    return SCALE * phi_


def g(phi_: float) -> float:
    """Step 3: g(φ) = 1 / √(1 + 3φ²/π²)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi_ * phi_ / (math.pi * math.pi))


def E(mu_: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(μ, μj, φj) = 1 / (1 + exp(−g(φj)(μ − μj)))."""
    return expected(mu_, mu_j, g(phi_j))


def expected(mu_: float, mu_j: float, g_j: float) -> float:
    """E with the opponent's g(φj) worked out already: a period reads each opponent's
    g(φj) in every game against them, and each game's E in four formulas."""
    exponent = -g_j * (mu_ - mu_j)
    if exponent > 700:  # a difference no rating list holds; exp would overflow
        return 0.0
    return 1.0 / (1.0 + math.exp(exponent))


def v(information: float) -> float:
    """Step 3: the estimated variance of the rating from the game outcomes alone,
    v = [Σ g(φj)² E(1 − E)]⁻¹, from that sum (``information``, gathered game by game as
    a period's games are read: ``Played``)."""
    return 1.0 / information if information > 0 else math.inf


def delta(v_: float, improvement: float) -> float:
    """Step 4: the estimated improvement, Δ = v Σ g(φj)(sj − E), from that sum
    (``improvement``, which step 7's μ′ reads too: worked out once)."""
    return v_ * improvement


def volatility_after(sigma: float, delta_: float, phi_: float, v_: float, tau: float) -> float:
    """Step 5: the new volatility σ′, by the Illinois algorithm (a regula falsi that
    halves the stale end's value), to the document's tolerance ε (no further: its
    figures are the document's).

    f's first term is the same over Δ², φ² + v and eˣ all divided by one scale, so where
    Δ² or φ² + v is beyond what a float holds comfortably (a win over a player tens of
    thousands of points above: v and Δ some 10⁸⁰), they are read divided by the larger
    of them: eˣ(Δ² − φ² − v − eˣ)/(eˣ + φ² + v)² squared at x = ln(Δ² − φ² − v) was an
    OverflowError that ended the whole run. Below that (every period a rating list
    holds) the scale is 1 and f is the document's, to the last digit."""
    a = math.log(sigma * sigma)
    phi2, delta2, tau2 = phi_ * phi_, delta_ * delta_, tau * tau
    # What f reads that does not move with x, summed in the document's order: worked out
    # once, the same figures as f written whole.
    above, below = delta2 - phi2 - v_, phi2 + v_
    log_scale = 0.0
    if not (abs(delta_) < _ROOMY and below < _ROOMY):
        log_delta2 = 2.0 * math.log(abs(delta_)) if delta_ else -math.inf
        log_scale = max(log_delta2, math.log(below))
        delta2 = math.exp(log_delta2 - log_scale)
        below = math.exp(math.log(below) - log_scale)
        above = delta2 - below
    exp = math.exp

    def f_document(x: float) -> float:
        """f(x) = eˣ(Δ² − φ² − v − eˣ) / 2(φ² + v + eˣ)² − (x − a)/τ²."""
        ex = exp(x)
        return ex * (above - ex) / (2.0 * (below + ex) ** 2) - (x - a) / tau2

    def f_scaled(x: float) -> float:
        """f with Δ², φ² + v and eˣ divided by the scale, its first term as the share
        eˣ/(φ² + v + eˣ) (at most 1) of (Δ² − φ² − v − eˣ)/2(φ² + v + eˣ): no product
        past a float. Where eˣ is past any float beside the scaled Δ² (e⁷⁰⁰), that term
        is about −1/2: capping x there changes nothing of f."""
        ex = exp(min(x - log_scale, 700.0))
        share = ex / (below + ex)
        return share * ((above - ex) / (below + ex)) / 2.0 - (x - a) / tau2

    f = f_scaled if log_scale else f_document

    big_a = a
    if delta2 > below:
        # No σ′ beyond the largest whose σ′² is a float (e^354.9): step 6 squares it.
        big_b = min(math.log(above) + log_scale, _LARGEST_X)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    if f_a * f_b > 0:  # the root is past the largest σ′ a float squares: that σ′
        return math.exp(big_b / 2.0)
    while abs(big_b - big_a) > EPSILON and f_b != f_a:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


#: Step 5: Δ and φ² + v below this, f is read as the document writes it (eˣ, at most
#: Δ², squared stays well within a float); at or above, divided by a scale.
_ROOMY = 1e50
#: Step 5: the largest x whose eˣ (σ′²) is a float.
_LARGEST_X = math.log(sys.float_info.max)


def phi_star(phi_: float, sigma: float) -> float:
    """Step 6: the pre-period deviation, φ* = √(φ² + σ′²); also a whole period without
    games (the document's "if the player does not compete", with σ unchanged)."""
    return math.sqrt(phi_ * phi_ + sigma * sigma)


def phi_after(phi_star_: float, v_: float) -> float:
    """Step 7: φ′ = 1 / √(1/φ*² + 1/v)."""
    return 1.0 / math.sqrt(1.0 / (phi_star_ * phi_star_) + 1.0 / v_)


def mu_after(mu_: float, phi_after_: float, improvement: float) -> float:
    """Step 7: μ′ = μ + φ′² Σ g(φj)(sj − E), from that sum."""
    return mu_ + phi_after_ * phi_after_ * improvement
