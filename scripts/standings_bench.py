"""The worker's look keeping each member's standing again (``list_figures_keep(standings=
True)``) and a payment that moves a place, at a big club: wall time, SQLite VM
instructions (thousands, independent of the load) and the load beside them, each step in
a transaction rolled back (issue 40).

    DATABASE_URL=sqlite:////tmp/places2.sqlite3 .venv/bin/python scripts/standings_bench.py \
        rebuild pay event all

``rebuild``: nothing moved since the last look; ``pay``: a member in arrears, 2,000th of
them by rating, pays (the standings kept first); ``event``: 300 members' ratings moved,
then the look; ``all``: every rating moved (a whole re-rate), then the look. On
PostgreSQL, ``VACUUM ratings_liststanding`` between runs: rolled-back runs leave the
table's free space full of dead rows. ``SHOW=1`` prints each statement.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.db.models import F  # noqa: E402
from django.utils import timezone  # noqa: E402

from ratings import services  # noqa: E402
from ratings.models import Member, RatingState, Season, listing  # noqa: E402

ticks = [0]


def tick() -> int:
    ticks[0] += 1
    return 0


def timed(label: str, step: Callable[[], object]) -> None:
    ticks[0] = 0
    statements: list[tuple[int, float, str]] = []

    def wrap(execute, sql, params, many, context):
        before, clock = ticks[0], time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append((ticks[0] - before, (time.perf_counter() - clock) * 1000, sql))

    clock = time.perf_counter()
    with transaction.atomic(), connection.execute_wrapper(wrap):
        step()
        ms = (time.perf_counter() - clock) * 1000
        kept = services.list_figures_kept()
        holding = bool(kept and kept.get("standings"))
        print(
            f"{label}: {ms:.0f} ms, {ticks[0]}k instructions, "
            f"load {os.getloadavg()[0]:.1f}, standings holding: {holding}"
        )
        transaction.set_rollback(True)
    if os.environ.get("SHOW"):
        for k, statement_ms, sql in statements:
            if k > 50 or statement_ms > 5:
                print(f"    {k}k {statement_ms:.0f} ms {sql[:150]}")


def alone(label: str, step: Callable[[], object]) -> None:
    ticks[0] = 0
    clock = time.perf_counter()
    step()
    print(f"  {label}: {(time.perf_counter() - clock) * 1000:.0f} ms, {ticks[0]}k instructions")


def main(steps: list[str]) -> None:
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        connection.connection.set_progress_handler(tick, 1000)
    if "rebuild" in steps:
        timed("the look, nothing moved", lambda: services.list_figures_keep(standings=True))
    if "pay" in steps:
        season = Season.for_day(timezone.localdate())
        arrears = Member.objects.active().filter(is_guest=False)
        arrears = arrears.exclude(subscriptions__season=season)
        member = listing.with_ratings(arrears, ranked=False).order_by("-rating_value")[2000]

        def pay() -> None:
            services.list_figures_keep(standings=True)
            alone(
                "the payment alone",
                lambda: services.subscription_record(member=member, season=season),
            )

        timed("a payment putting a member on the list (after a look)", pay)
    for step, share in (("event", 300), ("all", None)):
        if step not in steps:
            continue

        def moved(share: int | None = share) -> None:
            states = RatingState.objects.filter(time_class="standard", rating__isnull=False)
            if share is not None:
                ids = list(states.order_by("?").values_list("pk", flat=True)[:share])
                states = RatingState.objects.filter(pk__in=ids)
            states.update(rating=F("rating") + 7.5)
            alone("the look alone", lambda: services.list_figures_keep(standings=True))

        timed(f"ratings moved ({step}), then the look", moved)


if __name__ == "__main__":
    main(sys.argv[1:] or ["rebuild"])
