"""The officer's members page at a big club: each URL's wall time, queries and SQLite VM
instructions (thousands; the progress handler's count, which does not depend on the
machine's load), the load beside them (issue 40).

    DATABASE_URL=sqlite:////tmp/places2.sqlite3 .venv/bin/python scripts/members_page_bench.py \
        /officer/members/ "/officer/members/?status=arrears&page=50"

``SHOW=1`` prints each statement's instructions and milliseconds. Run it on a bench
database of its own (``generate_history``, or a copy of the bench's): it adds a login.
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

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from ratings.services.accounts import officer_create  # noqa: E402

settings.ALLOWED_HOSTS = ["*"]
ticks = [0]


def tick() -> int:
    ticks[0] += 1
    return 0


def main(urls: list[str]) -> None:
    user = User.objects.filter(username="bench-members-page").first() or officer_create(
        username="bench-members-page", password=None
    )
    client = Client()
    client.force_login(user)
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        connection.connection.set_progress_handler(tick, 1000)
    for url in urls:
        client.get(url)  # warm
        ticks[0] = 0
        statements: list[tuple[int, float, str]] = []

        def wrap(execute, sql, params, many, context, statements=statements):
            before, clock = ticks[0], time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                statements.append((ticks[0] - before, (time.perf_counter() - clock) * 1000, sql))

        clock = time.perf_counter()
        with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(wrap):
            response = client.get(url)
        ms = (time.perf_counter() - clock) * 1000
        print(
            f"{url}: {response.status_code} {ms:.0f} ms, {len(queries)} queries, "
            f"{ticks[0]}k instructions, load {os.getloadavg()[0]:.1f}"
        )
        if os.environ.get("SHOW"):
            for k, statement_ms, sql in statements:
                print(f"    {k}k {statement_ms:.1f} ms {sql[:160]}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["/officer/members/"])
