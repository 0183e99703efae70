"""The databases as their users need them: SQLite in WAL with a busy timeout, PostgreSQL
with a bounded pool of connections."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.db.utils import ConnectionHandler

from clubratings.settings import database


@pytest.fixture
def files(django_db_blocker):
    """Connections of our own to database files (not the test database)."""
    with django_db_blocker.unblock():
        yield


def sqlite_connection(path, alias: str = "file"):
    handler = ConnectionHandler({"default": database(f"sqlite:///{path}")})
    return handler.create_connection("default")


def pragma(wrapper, name: str):
    with wrapper.cursor() as cursor:
        cursor.execute(f"PRAGMA {name}")
        return cursor.fetchone()[0]


def test_sqlite_is_set_for_wal_a_busy_timeout_and_immediate_writes(monkeypatch):
    options = database("sqlite:////tmp/club.sqlite3")["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] == 20
    assert "PRAGMA journal_mode=WAL" in options["init_command"]
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "45")
    assert database("sqlite:////tmp/club.sqlite3")["OPTIONS"]["timeout"] == 45


def test_a_sqlite_file_opens_in_wal_mode_with_the_busy_timeout(tmp_path, monkeypatch, files):
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "7")
    wrapper = sqlite_connection(tmp_path / "club.sqlite3")
    try:
        assert pragma(wrapper, "journal_mode") == "wal"
        assert pragma(wrapper, "busy_timeout") == 7000
        assert pragma(wrapper, "synchronous") == 1  # NORMAL
    finally:
        wrapper.close()


def test_a_second_writer_waits_for_the_first_instead_of_failing(tmp_path, monkeypatch, files):
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "10")
    path = tmp_path / "club.sqlite3"
    first, second = sqlite_connection(path, "first"), sqlite_connection(path, "second")
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (n INTEGER)")
    trying, done = threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def write_second() -> None:
        try:
            with second.cursor() as cursor:  # waits for the first writer's commit, then writes
                trying.set()
                cursor.execute("BEGIN IMMEDIATE")
                cursor.execute("INSERT INTO t VALUES (2)")
                cursor.execute("COMMIT")
        except BaseException as error:
            failed.append(error)
        finally:
            done.set()

    first.inc_thread_sharing()
    second.inc_thread_sharing()
    with first.cursor() as cursor:
        cursor.execute("BEGIN IMMEDIATE")
        cursor.execute("INSERT INTO t VALUES (1)")
        # A reader is not blocked by the writer (WAL) and sees the last committed state.
        with second.cursor() as reading:
            reading.execute("SELECT COUNT(*) FROM t")
            assert reading.fetchone()[0] == 0
        writer = threading.Thread(target=write_second)
        writer.start()
        assert trying.wait(10)
        # Without the busy timeout the second writer fails at once ("database is
        # locked"); with it, it is still waiting while the first holds the lock.
        assert not done.wait(0.3), failed
        cursor.execute("COMMIT")
    writer.join(10)
    assert not failed, failed
    assert pragma(second, "journal_mode") == "wal"
    with second.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM t")
        assert cursor.fetchone()[0] == 2
    first.dec_thread_sharing()
    second.dec_thread_sharing()
    first.close()
    second.close()


@pytest.mark.django_db
def test_the_test_database_runs_with_these_settings():
    """The suite itself runs on them: WAL when the test database is a file (an in-memory
    database has no WAL to be in); the pool on PostgreSQL."""
    if connection.vendor == "sqlite":
        assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        mode = pragma(connection, "journal_mode")
        assert mode == ("memory" if connection.is_in_memory_db() else "wal")
    else:
        assert (
            connection.settings_dict["OPTIONS"].get("pool")
            or connection.settings_dict["CONN_MAX_AGE"]
        )


def test_postgresql_connections_are_a_bounded_pool(monkeypatch):
    config = database("postgres://club@db.example.org/clubratings")
    assert config["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 4, "timeout": 10}
    assert config["CONN_MAX_AGE"] == 0  # Django's pool needs it
    monkeypatch.setenv("DB_POOL_MAX", "12")
    config = database("postgres://club@db.example.org/clubratings")
    assert config["OPTIONS"]["pool"]["max_size"] == 12
    monkeypatch.setenv("DB_POOL_MAX", "0")
    config = database("postgres://club@db.example.org/clubratings")
    assert "pool" not in config["OPTIONS"]
    assert config["CONN_MAX_AGE"] == 60 and config["CONN_HEALTH_CHECKS"]


def test_a_bad_setting_stops_the_app_naming_the_variable(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("DB_POOL_MAX", "lots")
    with pytest.raises(ImproperlyConfigured, match="DB_POOL_MAX"):
        database("postgres://club@db.example.org/clubratings")
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT", "-1")
    with pytest.raises(ImproperlyConfigured, match="SQLITE_BUSY_TIMEOUT"):
        database("sqlite:////tmp/club.sqlite3")
