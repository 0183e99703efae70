"""Work undone by a savepoint rolled back: a hypothesis example that starts from one club
made once a test, a class's data made once, a load undone to be made again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction


@contextmanager
def rolled_back() -> Iterator[None]:
    """The block in a savepoint rolled back after it, pass or fail. For a hypothesis
    example: the next starts from the club as the test made it (its system, its members),
    as the first one did; cheaper than deleting an example's rows and making the members
    again (their saves count the lists' figures: a quarter of an example's time)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)
