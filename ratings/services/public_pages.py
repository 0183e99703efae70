"""The public pages' version: read by every cached public page, bumped by every change.

``public_pages_changed`` is the one place a change to what the public reads is told to
the cache: the re-rate calls it, and ``ratings.signals`` calls it on every save or delete
of the club's records (a member, a payment, an event, a game, a publication, the club's
settings); a post that wrote to the record without calling it calls it too, once it
has answered (``clubratings.cache.PublicPagesChangedMiddleware``: the writes that go past
the model layer), and a post that wrote nothing of it (a refused form, the sign-in) not.

Inside a transaction the bump is written in that transaction, so it becomes visible
with the change itself: no reader sees the new data under the old number and keeps it.
When another transaction holds the version's row (a long re-rate), this one does not
wait for it: its bump is written just after it commits instead, or, the row still held,
left to the holder, whose own bump commits after this change is seen. A page rendered
between a commit and its bump is stored under the old number, which no reader asks for
again. Nothing waits for the row (on PostgreSQL; SQLite has one writer at a time anyway).

A change that withdraws something from the public (``hides=True``: an erasure, a member
made a guest or merged, the club keeping unpublished members off, a payment, result or
publication removed, a comparison withdrawn) also moves the withdrawals' count
(``PublicPagesWithdrawal``), in its own transaction like the version. The count is in
every cached page's key, so it retires them even while a re-rate holds the version's
row; and a page's previous copy, served to readers while its new version renders, is
served only under the count it was rendered under: after a withdrawal, readers wait for
the page or render it, never see the copy that shows what was withdrawn. Its row is
waited for (two withdrawals at once are rare, and neither may be seen before it shows).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import F
from django.utils import timezone

from ..models import PublicPagesVersion, PublicPagesWithdrawal

_ROW = 1


def public_pages_version() -> tuple[int, dt.datetime | None]:
    """The number every cached public page is keyed on, and when it last moved."""
    row = PublicPagesVersion.objects.filter(pk=_ROW).values_list("number", "changed_at").first()
    return (0, None) if row is None else row


def public_pages_withdrawn() -> int:
    """How many writes have withdrawn something from the public (``hides``)."""
    number = PublicPagesWithdrawal.objects.filter(pk=_ROW).values_list("number", flat=True)
    return number.first() or 0


def _withdraw_now() -> None:
    moved = PublicPagesWithdrawal.objects.filter(pk=_ROW).update(
        number=F("number") + 1, withdrawn_at=timezone.now()
    )
    if not moved:
        try:
            with transaction.atomic():
                PublicPagesWithdrawal.objects.create(
                    pk=_ROW, number=1, withdrawn_at=timezone.now()
                )
        except IntegrityError:  # another process made the row meanwhile
            _withdraw_now()


def _withdrawn(using: str) -> None:
    """Move the withdrawals' count with this change: in its transaction (so it shows
    with the change, never before nor after), once a transaction."""
    connection = connections[using]
    if not connection.in_atomic_block:
        with transaction.atomic(using=using):
            _withdraw_now()
        return
    in_a_test = getattr(connection.atomic_blocks[0], "_from_testcase", False)
    if not in_a_test and _marked(connection, "_public_pages_withdrawn"):
        return
    _withdraw_now()
    _mark(connection, "_public_pages_withdrawn")


def _bump_now() -> None:
    now = timezone.now()
    moved = PublicPagesVersion.objects.filter(pk=_ROW).update(
        number=F("number") + 1, changed_at=now
    )
    if not moved:
        try:
            with transaction.atomic():
                PublicPagesVersion.objects.create(pk=_ROW, number=1, changed_at=now)
        except IntegrityError:  # another process made the row meanwhile
            _bump_now()


def _bump_unless_held(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Move the number in the current transaction; False, without waiting, when another
    transaction holds its row (a long re-rate): that one moves it as it commits."""
    connection = connections[using]
    if connection.features.has_select_for_update_skip_locked:
        rows = PublicPagesVersion.objects.select_for_update(skip_locked=True).filter(pk=_ROW)
        mine = list(rows.values_list("pk", flat=True))
        if not mine and PublicPagesVersion.objects.filter(pk=_ROW).exists():
            return False  # made, and held by another
    _bump_now()
    return True


def _bump_after_commit() -> None:
    """After a commit: moved now, or by the transaction holding the row as it commits,
    which is after this one's changes are seen."""
    with transaction.atomic():
        _bump_unless_held()


def _mark(connection: Any, name: str) -> None:
    """Mark this transaction, as it stands, as having done ``name`` (``_marked``)."""
    setattr(connection, name, (connection.run_on_commit, list(connection.savepoint_ids)))


def _marked(connection: Any, name: str) -> bool:
    """Done earlier in this transaction, by a savepoint still standing. The transaction
    is told by its list of on-commit callbacks (a new list for each transaction);
    a rolled-back savepoint took its work with it, so its marker no longer holds."""
    marker = getattr(connection, name, None)
    if marker is None:
        return False
    callbacks, savepoints = marker
    return bool(
        callbacks is connection.run_on_commit
        and connection.savepoint_ids[: len(savepoints)] == savepoints
    )


def _bumped_already(connection: Any) -> bool:
    """Bumped earlier in this transaction, by a savepoint still standing."""
    return _marked(connection, "_public_pages_bumped")


def public_pages_changed(*, using: str = DEFAULT_DB_ALIAS, hides: bool = False) -> None:
    """Retire every cached public page: what the public reads has changed (or is changing
    in this transaction). Never waits for another transaction, but for another's
    withdrawal when ``hides``: the change withdraws something from the public, and no
    reader is to be served a page's previous copy that still shows it. (The published
    lists' figures are kept apart: ``services.list_figures``.)"""
    if hides:
        _withdrawn(using)
    connection = connections[using]
    if not connection.in_atomic_block:
        with transaction.atomic(using=using):
            # Held: the holder moves it as it commits, after this change is seen.
            _bump_unless_held(using)
        return
    # Once a transaction is enough: the bump shows with all of it. Not so in a test's
    # transaction (it never commits, and its pages are read inside it).
    in_a_test = getattr(connection.atomic_blocks[0], "_from_testcase", False)
    if not in_a_test and (
        _bumped_already(connection)
        or any(entry[1] is _bump_after_commit for entry in connection.run_on_commit)
    ):
        return
    if not _bump_unless_held(using):
        # The holder may commit before this one: move it again once this one has.
        transaction.on_commit(_bump_after_commit, using=using)
        return
    _mark(connection, "_public_pages_bumped")
