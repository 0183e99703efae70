"""Placeholder until the module lands (being written now)."""

from __future__ import annotations

from .nz_club_elo import NzClubElo


class Ecf2020(NzClubElo):
    id = "ecf-2020"
