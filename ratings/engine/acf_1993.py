"""Placeholder until the module lands (being written now)."""

from __future__ import annotations

from .nz_club_elo import NzClubElo


class Acf1993(NzClubElo):
    id = "acf-1993"
