"""The worker's look writing each member's standing again (``list_figures_refresh``) after
a rating run's count, as SQLite's one writer sees it: SQLite VM instructions (thousands,
independent of the load) and milliseconds of the whole look and of each transaction
holding the writer's lock (what an officer's write waits for at most), and the load.
Commits: run it on a copy of the club (issue 40, branch runlock).

    DATABASE_URL=sqlite:////tmp/copy.sqlite3 .venv/bin/python scripts/standings_look_bench.py all

``all``: every rating moved by one point (a whole re-rate) before the run's count;
``same``: nothing moved. ``SHOW=1`` prints each statement over 20 k instructions.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402

from ratings import services  # noqa: E402
from ratings.models import RatingState  # noqa: E402

ticks = [0]
held: list[tuple[int, float]] = []  # each transaction holding the writer: k instr., ms
statements: list[tuple[int, float, str]] = []


def tick() -> int:
    ticks[0] += 1
    return 0


def main(mode: str) -> None:
    connection.ensure_connection()
    connection.connection.set_progress_handler(tick, 1000)
    begin, commit = connection._start_transaction_under_autocommit, connection._commit
    since: dict[str, float] = {}

    def begun() -> None:  # BEGIN IMMEDIATE: the writer's lock taken
        since.update(ticks=ticks[0], clock=time.perf_counter())
        begin()

    def committed() -> None:
        commit()
        if since:
            held.append((ticks[0] - since["ticks"], (time.perf_counter() - since["clock"]) * 1000))
            since.clear()

    connection._start_transaction_under_autocommit = begun
    connection._commit = committed

    def wrap(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        before, clock = ticks[0], time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append((ticks[0] - before, (time.perf_counter() - clock) * 1000, sql))

    RatingState.objects.update(rating=F("rating") + (1 if mode == "all" else 0))
    services.list_figures_keep()  # the run's count: the standings left to the worker
    held.clear()
    ticks[0] = 0
    clock = time.perf_counter()
    with connection.execute_wrapper(wrap):
        marked = services.list_figures_refresh()
    ms = (time.perf_counter() - clock) * 1000
    if os.environ.get("SHOW"):
        for instructions, took, sql in statements:
            if instructions > 20:
                print(f"{instructions:>7} k {took:>7.0f} ms  {sql[:100]}")
    longest, mark = max(held, default=(0, 0.0)), held[-1] if held else (0, 0.0)
    print(
        f"{mode}: look {ticks[0]:,} k instr., {ms:.0f} ms (marked holding: {marked}); "
        f"{len(held)} writer's transactions, the longest {longest[0]:,} k, {longest[1]:.0f} ms; "
        f"the last (the mark) {mark[0]:,} k, {mark[1]:.0f} ms; "
        f"load {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "all")
