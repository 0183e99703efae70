"""The log of rating runs and the progress of a background re-rate (officers)."""

from __future__ import annotations

urlpatterns: list = []
