"""Migration 0050 fills each kept standing's date of birth and gender from its member, so
the standings kept before it hold on for the filtered lists that read them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("ratings", "0049_places2_standings_room_to_move")
AFTER = ("ratings", "0050_filtered_standings_born_gender")


def migrated_to(target: tuple[str, str]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_the_standings_kept_before_it_gain_their_members_birth_date_and_gender() -> None:
    old = migrated_to(BEFORE)
    member = old.get_model("ratings", "Member").objects.create(
        member_number="M1", name="Ann Young", born=dt.date(2013, 4, 5), gender="F"
    )
    old.get_model("ratings", "ListStanding").objects.create(
        time_class="standard", member_id=member.pk, place=1, unrated=0, rating_value=1500
    )
    try:
        standing = migrated_to(AFTER).get_model("ratings", "ListStanding").objects.get()
        assert (standing.born, standing.gender) == (dt.date(2013, 4, 5), "F")
    finally:
        # Back to the app's latest: the migrations after it must be there for the tests
        # this worker runs next.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes("ratings"))
