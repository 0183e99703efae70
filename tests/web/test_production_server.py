"""Production serving: gunicorn's settings, bounded database connections, `make serve`."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import runpy
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def gunicorn_settings(monkeypatch, **env: str) -> dict:
    for name in (
        "GUNICORN_WORKERS",
        "GUNICORN_THREADS",
        "GUNICORN_TIMEOUT",
        "GUNICORN_GRACEFUL_TIMEOUT",
        "PORT",
        "GUNICORN_CONTROL_SOCKET",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_runs_a_threaded_worker_a_core_by_default(monkeypatch):
    conf = gunicorn_settings(monkeypatch)
    assert conf["workers"] == multiprocessing.cpu_count()
    # Four requests at a time a process: no more than the pool's four connections.
    assert (conf["worker_class"], conf["threads"]) == ("gthread", 4)
    assert conf["wsgi_app"] == "clubratings.wsgi:application"
    assert conf["accesslog"] == "-"
    assert conf["bind"] == "127.0.0.1:8000"
    assert conf["timeout"] == 30 and conf["graceful_timeout"] == 30


def test_gunicorn_settings_come_from_the_environment(monkeypatch):
    conf = gunicorn_settings(
        monkeypatch,
        GUNICORN_WORKERS="3",
        GUNICORN_THREADS="2",
        GUNICORN_TIMEOUT="60",
        GUNICORN_GRACEFUL_TIMEOUT="10",
        PORT="8123",
    )
    assert (conf["workers"], conf["threads"]) == (3, 2)
    assert (conf["timeout"], conf["graceful_timeout"]) == (60, 10)
    assert conf["bind"] == "127.0.0.1:8123"


def test_gunicorn_opens_no_control_socket_by_default(monkeypatch):
    """gunicorn's default control socket is one path for all its instances of a user
    (~/.gunicorn/gunicorn.ctl): a second `make serve` would take it from the first."""
    conf = gunicorn_settings(monkeypatch)
    assert conf["control_socket_disable"] is True
    assert "control_socket" not in conf


def test_an_instance_given_its_own_control_socket_opens_that_one(monkeypatch, tmp_path):
    path = str(tmp_path / "club.ctl")
    conf = gunicorn_settings(monkeypatch, GUNICORN_CONTROL_SOCKET=path)
    assert conf["control_socket_disable"] is False
    assert conf["control_socket"] == path


def test_gunicorn_itself_reads_the_control_socket_settings(tmp_path):
    """The settings' names are gunicorn's own (27: ``control_socket``,
    ``control_socket_disable``), as its --print-config shows them taken."""

    def printed(**env: str) -> dict[str, str]:
        environ = {k: v for k, v in os.environ.items() if k != "GUNICORN_CONTROL_SOCKET"}
        out = subprocess.run(
            [str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py", "--print-config"],
            cwd=ROOT,
            env={**environ, **env},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        pairs = (line.split("=", 1) for line in out.splitlines() if "=" in line)
        return {key.strip(): value.strip() for key, value in pairs}

    assert printed()["control_socket_disable"] == "True"
    own = printed(GUNICORN_CONTROL_SOCKET=str(tmp_path / "club.ctl"))
    assert (own["control_socket_disable"], own["control_socket"]) == (
        "False",
        str(tmp_path / "club.ctl"),
    )


def _setting(name: str, **env: str) -> str:
    code = (
        "import django, os; django.setup(); from django.conf import settings; "
        f"print(settings.DATABASES['default'][{name!r}])"
    )
    environ = {k: v for k, v in os.environ.items() if k not in ("CONN_MAX_AGE", "DATABASE_URL")}
    environ.update(DJANGO_SETTINGS_MODULE="clubratings.settings", **env)
    out = subprocess.run(
        [sys.executable, "-c", code], env=environ, cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


POSTGRES = "postgres://club@db.invalid/club"


def test_database_connections_come_from_a_bounded_pool_by_default():
    assert _setting("CONN_MAX_AGE", DATABASE_URL=POSTGRES) == "0"
    assert "'max_size': 4" in _setting("OPTIONS", DATABASE_URL=POSTGRES)


def test_without_a_pool_connections_are_kept_for_conn_max_age_from_the_environment():
    plain = {"DATABASE_URL": POSTGRES, "DB_POOL_MAX": "0"}
    assert _setting("CONN_MAX_AGE", **plain) == "60"
    assert _setting("CONN_MAX_AGE", **plain, CONN_MAX_AGE="0") == "0"
    assert _setting("CONN_MAX_AGE", **plain, CONN_MAX_AGE="15") == "15"
    assert _setting("CONN_HEALTH_CHECKS", **plain) == "True"


def test_a_sqlite_connection_is_kept_for_conn_max_age_too():
    """Opening the file again costs each request more than a kept page takes."""
    assert _setting("CONN_MAX_AGE", DATABASE_URL="sqlite:////tmp/x.sqlite3") == "60"
    assert (
        _setting("CONN_MAX_AGE", DATABASE_URL="sqlite:////tmp/x.sqlite3", CONN_MAX_AGE="0") == "0"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str, deadline: float):
    while True:
        try:
            return urllib.request.urlopen(url, timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _stop(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def test_make_serve_runs_gunicorn_and_the_worker_and_stops_both(migrated_sqlite_file):
    port = _free_port()
    env = {
        **os.environ,
        "VENV": str(VENV_BIN.parent),
        "PORT": str(port),
        "GUNICORN_WORKERS": "1",
        # Migrated already: serve.sh's own migrate finds nothing to do, as on a restart.
        "DATABASE_URL": f"sqlite:///{migrated_sqlite_file}",
        "DEBUG": "True",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    process = subprocess.Popen(
        ["bash", "scripts/serve.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        page = _get(f"http://127.0.0.1:{port}/ratings/", time.monotonic() + 90)
        assert page.status == 200
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        children = subprocess.run(
            ["pgrep", "-g", str(process.pid), "-a", "-f", "db_worker|gunicorn"],
            capture_output=True,
            text=True,
        ).stdout
        assert "db_worker" in children and "gunicorn" in children
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    finally:
        _stop(process)
    assert '"GET /ratings/ HTTP/1.1" 200' in output  # the access log, on standard output
    left = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True)
    assert left.stdout.strip() == ""  # the worker and gunicorn stopped with it


def _workers(group: int) -> list[str]:
    found = subprocess.run(
        ["pgrep", "-g", str(group), "-f", "manage.py db_worker"], capture_output=True, text=True
    )
    return found.stdout.split()


def test_make_serve_starts_a_worker_that_dies_again_and_the_site_stays_up(migrated_sqlite_file):
    port = _free_port()
    env = {
        **os.environ,
        "VENV": str(VENV_BIN.parent),
        "PORT": str(port),
        "GUNICORN_WORKERS": "1",
        # Migrated already: serve.sh's own migrate finds nothing to do, as on a restart.
        "DATABASE_URL": f"sqlite:///{migrated_sqlite_file}",
        "DEBUG": "True",
        "WORKER_RESTART_SECONDS": "0.5",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    process = subprocess.Popen(
        ["bash", "scripts/serve.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert _get(f"http://127.0.0.1:{port}/ratings/", time.monotonic() + 90).status == 200
        deadline = time.monotonic() + 30
        while not (first := _workers(process.pid)):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        os.kill(int(first[0]), signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not (again := _workers(process.pid)) or again == first:
            assert time.monotonic() < deadline, "no worker was started again"
            time.sleep(0.2)
        assert process.poll() is None
        assert _get(f"http://127.0.0.1:{port}/ratings/", time.monotonic() + 10).status == 200
    finally:
        _stop(process)
