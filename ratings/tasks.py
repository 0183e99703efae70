"""Background work for the task worker (django-tasks; `manage.py db_worker` runs it).

Re-rates too long to hold a page (``services.ratings_rerate_soon`` decides), comparisons
of the systems, and every mail message (``services/notifications.py``). A long members
file's task lives beside its service (``services/member_import_jobs.py``): the layers
keep services from importing this module.
"""

from __future__ import annotations

from typing import Any

from django_tasks import task

from . import services
from .models import Comparison, RatingRun
from .models.club import club_time_zone_activate
from .services.compare import comparison_run


@task()
def rerate_in_background(
    *, run_pk: int, start: list[Any] | None, members: list[int] | None = None
) -> int:
    """Carry out the queued re-rate ``run_pk`` from ``start`` ([end, start, pk] or None).

    ``members``: pks of members rewritten even if no event from ``start`` on has them.
    """
    club_time_zone_activate()
    run = RatingRun.objects.get(pk=run_pk)
    if run.status != RatingRun.Status.QUEUED:
        return run.pk  # already carried out (a worker retried it): nothing to do
    services.rerate_run(run=run, start=services.position_from_json(start), members=members or ())
    return run.pk


@task()
def compare_in_background(*, comparison_pk: int) -> int:
    """Run the queued comparison of systems ``comparison_pk`` (services/compare.py)."""
    club_time_zone_activate()
    comparison = Comparison.objects.get(pk=comparison_pk)
    if comparison.status != Comparison.Status.QUEUED:
        return comparison.pk  # already carried out (a worker retried it)
    comparison_run(comparison=comparison)
    return comparison.pk


@task()
def mail_deliver_in_background(*, message_pk: int) -> str:
    """Send the logged mail message ``message_pk``, or queue its retry."""
    from .services.notifications import mail_deliver

    return mail_deliver(message_pk=message_pk)
