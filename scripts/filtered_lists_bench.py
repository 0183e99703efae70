"""The live list filtered by region, age group and women at a big club, each URL read the
way it was before (among every published member: ``FilteredStandings.of`` answering
None) and from the kept standings: SQLite VM instructions (thousands; the progress
handler's count, which does not depend on the machine's load; 0 on PostgreSQL), queries
and wall time of one uncached GET after a warming one, the load beside them (issue 40).

    DATABASE_URL=sqlite:////tmp/filtered60.sqlite3 .venv/bin/python scripts/filtered_lists_bench.py

URLs may be given ("{region}": the club's first region). It writes the standings first
where they do not hold (the worker's look), so run it on a bench database of its own.
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

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402

from ratings import services  # noqa: E402
from ratings.models import Member  # noqa: E402
from ratings.pages import lists  # noqa: E402

URLS = [
    "/ratings/live/",
    "/ratings/live/?region={region}",
    "/ratings/live/?region={region}&page=40",
    "/ratings/live/?region={region}&sort=name&page=3",
    "/ratings/live/?age=U16",
    "/ratings/live/?age=U16&sort=-games",
    "/ratings/live/?women=on",
    "/ratings/live/?women=on&sort=-rating",
    "/ratings/live/?women=on&region={region}&sort=-last_played",
]


def measured(client: Client, url: str) -> tuple[int, int, float]:
    """Instructions (thousands), queries and milliseconds of one uncached GET."""
    cache.clear()
    client.get(url)  # warming
    cache.clear()
    ticks = [0]

    def tick() -> int:
        ticks[0] += 1
        return 0

    connection.ensure_connection()
    raw = connection.connection
    if connection.vendor == "sqlite":
        raw.set_progress_handler(tick, 1000)
    with CaptureQueriesContext(connection) as queries:
        clock = time.perf_counter()
        response = client.get(url)
        seconds = time.perf_counter() - clock
    if connection.vendor == "sqlite":
        raw.set_progress_handler(None, 0)
    assert response.status_code == 200, (url, response.status_code)
    return ticks[0], len(queries), seconds * 1000


def main() -> None:
    region = Member.objects.exclude(region="").order_by().values_list("region", flat=True)[0]
    if not (services.list_figures_kept() or {}).get("standings"):
        clock = time.perf_counter()
        services.list_figures_refresh()
        print(f"standings written: {time.perf_counter() - clock:.1f} s")
    kept_of = lists.FilteredStandings.of
    client = Client()
    for url in [u.format(region=region) for u in sys.argv[1:] or URLS]:
        figures = []
        for way in ("before", "kept"):
            lists.FilteredStandings.of = kept_of if way == "kept" else lambda *a, **k: None  # type: ignore[method-assign,assignment]
            instructions, queries, ms = measured(client, url)
            figures.append(f"{way} {instructions:,} k, {queries} q, {ms:.0f} ms")
        load = os.getloadavg()[0]
        print(f"{url}: {'; '.join(figures)} (load {load:.1f})", flush=True)
    lists.FilteredStandings.of = kept_of  # type: ignore[method-assign]


if __name__ == "__main__":
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["*"]):
        main()
