"""How long after a rating run's commit its members' standings hold again, with the
worker running: the moments a filtered or re-sorted list page with no previous copy is
read without them. On a copy of a generated history (it rates events: a copy):

    cp bench/m60.sqlite3 /tmp/m60.sqlite3
    DATABASE_URL=sqlite:////tmp/m60.sqlite3 .venv/bin/python scripts/standings_after_run.py \
        --events 10

Starts ``manage.py db_worker``, waits for its first look to write the standings, then
``--events`` times: copies the history's latest event into one dated today (as
scripts/load_setup.py does), marks it complete (``services.event_complete``: it is rated,
its run's last step counts the figures and leaves the standings not holding), and times
from that commit until the worker has written them again, reading the figures' row every
10 ms. Prints each wait, then the median and the longest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")

import django  # noqa: E402

django.setup()

from load_setup import night_copied  # noqa: E402

from ratings import services  # noqa: E402
from ratings.models import Event  # noqa: E402


def holding() -> bool:
    figures = services.list_figures_kept()
    return bool(figures and figures.get("standings"))


def wait_for_holding(limit: float) -> float:
    began = time.monotonic()
    while not holding():
        if time.monotonic() - began > limit:
            raise SystemExit(f"the standings did not hold within {limit:.0f} s: is the worker up?")
        time.sleep(0.01)
    return time.monotonic() - began


def event_copied() -> Event:
    latest = Event.objects.filter(status=Event.Status.COMPLETE).order_by("-end_date", "-pk")[0]
    return night_copied(latest, name="Standings timing night")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--limit", type=float, default=120, help="most seconds to wait")
    args = parser.parse_args()
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        first = wait_for_holding(args.limit)
        print(f"worker's first look wrote them: {first:.2f} s")
        waits = []
        for _ in range(args.events):
            event = event_copied()
            services.event_complete(
                event=event, duplicate_reason="timing: the same night's games copied again"
            )
            waits.append(wait_for_holding(args.limit))
            print(f"{event.name}: standings hold {waits[-1]:.2f} s after its run", flush=True)
            time.sleep(0.37)  # the runs fall at different moments of the worker's look
    finally:
        worker.terminate()
        worker.wait(30)
    print(f"median {statistics.median(waits):.2f} s, longest {max(waits):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
