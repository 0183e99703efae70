"""db_worker: django-tasks' database worker, which also takes over runs whose worker died.

Beside the queue, a thread looks every heartbeat (``RERATE_HEARTBEAT_SECONDS``) for a
rating run whose worker has stopped (``services.runs_take_over``): a worker killed
mid-run, or its machine restarted; for a comparison of systems whose worker stopped
(``compare.comparisons_take_over``); and for a members file it was reading or saving
(``member_import_jobs.member_imports_take_over``). Such a run saved nothing; it is queued
again and this worker (or another) carries it out from the start. A worker started after
the old one died does the same at once. And every second it looks at the published
lists' figures (``services.list_figures_refresh``, a one-row read when they hold): counted
when they are not current (on the morning a season starts or ends, or after a write whose
own count failed), so that the list's readers do not each count them; each member's
standing written again when a rating run left them not holding, so that a list filtered or
sorted another way is read from them again a second after the run rather than a heartbeat.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.db import connection
from django_tasks_db.management.commands import db_worker

from ratings.services.compare import comparisons_take_over
from ratings.services.list_figures import list_figures_refresh
from ratings.services.member_import_jobs import member_imports_take_over
from ratings.services.runs import heartbeat_seconds, runs_take_over

log = logging.getLogger("ratings")

#: How often the worker looks at the published lists' figures. Between a rating run's
#: commit and this look's writing the standings again (1.1-1.2 s at ten million games), a
#: filtered or re-sorted list page with no previous copy is read without them (74-480 ms
#: at ten million, against 17-40): a look every heartbeat (5 s) left up to 6 s of that.
FIGURES_LOOK_SECONDS = 1.0


def _watch(stop: threading.Event) -> None:
    """Take dead workers' runs over, now and every heartbeat, and look at the lists'
    figures every ``FIGURES_LOOK_SECONDS``, until ``stop`` is set."""
    takeover_due = 0.0
    while True:
        if time.monotonic() >= takeover_due:
            takeover_due = time.monotonic() + heartbeat_seconds()
            try:
                runs_take_over()
                comparisons_take_over()
                member_imports_take_over()
            except Exception:  # a database gone for a moment: try again at the next heartbeat
                log.exception("looking for runs whose worker stopped")
        try:
            list_figures_refresh()
        except Exception:  # SQLite busy with a long writer: that write counts them
            log.warning("the published lists' figures were not counted", exc_info=True)
        finally:
            # Kept between looks as a request's is (CONN_MAX_AGE), not opened every second.
            connection.close_if_unusable_or_obsolete()
        if stop.wait(min(FIGURES_LOOK_SECONDS, heartbeat_seconds())):
            return


class Command(db_worker.Command):
    help = db_worker.Command.help + ", taking over rating runs whose worker died"

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(stop,), name="run-takeover", daemon=True)
        watcher.start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
