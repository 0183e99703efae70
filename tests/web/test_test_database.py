"""The test database the tests run on is the club's database as the migrations make it,
whether this process migrated it or copied another's (tests/migrated_once.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db


def test_the_test_database_has_every_migration_applied() -> None:
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


def test_the_content_types_cached_are_the_ones_in_the_test_database() -> None:
    member_type = ContentType.objects.get_by_natural_key("ratings", "member")
    assert Permission.objects.filter(content_type=member_type, codename="view_member").exists()


def test_what_a_class_makes_once_is_made_as_a_test_makes_it_and_undone_after(
    django_db_blocker, settings, monkeypatch
) -> None:
    """``made_once_for_the_class`` runs before a test's autouse fixtures: it sets what they
    set itself (here undone first, as it is before a class's first test)."""
    from ratings.models import Member
    from ratings.services import runs

    from ..conftest import FAST_AND_IN_PROCESS, made_once_for_the_class
    from ..factories import MemberFactory

    settings.TASKS = {}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    monkeypatch.setattr(runs.os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    with made_once_for_the_class(django_db_blocker):
        MemberFactory(member_number="M1")
        assert {name: getattr(settings, name) for name in FAST_AND_IN_PROCESS} == (
            FAST_AND_IN_PROCESS
        )
        assert runs.os.getloadavg() == (0.0, 0.0, 0.0)
        assert Member.objects.filter(member_number="M1").exists()
    assert not Member.objects.filter(member_number="M1").exists()
