"""Hypothesis examples that start from one club made once a test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction


@contextmanager
def rolled_back() -> Iterator[None]:
    """One example in a savepoint rolled back after it, pass or fail: the next starts from
    the club as the test made it (its system, its members), as the first one did. Cheaper
    than deleting an example's rows and making the members again (their saves count the
    lists' figures: a quarter of an example's time), and nothing is left behind."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)
