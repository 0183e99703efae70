"""HTTP caching of the read API: every answer kept whole and served again until the
public pages' version moves (``clubratings.cache``), with an ETag and Last-Modified,
and 304 when the caller's copy is current.

The API answers every caller alike (an officer's session changes nothing), so its
answers are kept for all. The throttle still counts every caller: it is asked before a
kept answer (or a 304) is served, as the operation itself asks it before answering.
"""

from __future__ import annotations

from typing import Any

from ninja.decorators import decorate_view

from clubratings.cache import public_page

#: Seconds a cache may serve an answer without asking again.
MAX_AGE = 60


def _kept(run: Any) -> Any:
    operation = getattr(run, "__self__", None)
    checks = getattr(operation, "_run_checks", None)
    return public_page(run, everyone=True, max_age=MAX_AGE, checks=checks)


#: Put on every operation: kept answers, ETag, Last-Modified, Cache-Control, 304s.
cacheable = decorate_view(_kept)
