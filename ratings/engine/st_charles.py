"""Placeholder until the module lands (being written now)."""

from __future__ import annotations

from .nz_club_elo import NzClubElo


class StCharles(NzClubElo):
    id = "st-charles"
