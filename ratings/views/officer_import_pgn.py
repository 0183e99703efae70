"""A PGN file on the import pages: its events, previewed and confirmed one at a time.

A TRF file is one event; a PGN file may hold several (one per Event and Site). The
session keeps the file, the event on show and those already imported, so after each
confirmation the preview moves on to the next event of the file.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from ..formats import trf
from ..formats.pgn import pgn_tournaments


def stored_tournaments(stored: dict[str, Any]) -> list[trf.Tournament]:
    """The uploaded file's events (checked on upload: they read again without problems)."""
    if stored.get("format") == "pgn":
        return pgn_tournaments(
            stored["text"].encode("utf-8"), event_name=stored.get("event_name", "")
        )
    return [trf.parse(stored["text"])]


def stored_event(request: HttpRequest, stored: dict[str, Any], count: int) -> int:
    """The event on show: the one chosen by ``?event=N`` (1 to count), else the session's."""
    chosen = request.GET.get("event", "")
    if chosen.isdigit() and 1 <= int(chosen) <= count:
        stored["event"] = int(chosen) - 1
        request.session.modified = True
    index = int(stored.get("event", 0))
    return index if 0 <= index < count else 0


def next_event(request: HttpRequest, stored: dict[str, Any], index: int, count: int) -> bool:
    """Mark the event imported and show the next one not yet imported; False when none is left."""
    done = sorted({*stored.get("done", []), index})
    left = [i for i in range(count) if i not in done]
    if not left:
        return False
    stored.update(done=done, event=next((i for i in left if i > index), left[0]))
    request.session.modified = True
    return True


def event_choices(
    stored: dict[str, Any], tournaments: list[trf.Tournament], index: int
) -> list[dict[str, Any]]:
    """The file's events for the preview's list (empty for a file of one event)."""
    if len(tournaments) < 2:
        return []
    done = set(stored.get("done", []))
    return [
        {
            "number": i + 1,
            "name": t.name,
            "start": t.start,
            "games": len(t.games()),
            "current": i == index,
            "done": i in done,
        }
        for i, t in enumerate(tournaments)
    ]
