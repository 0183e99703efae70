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
