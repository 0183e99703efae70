"""`make run`'s server: the demo as an officer will see the site, its own pages included."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_runs_the_server_with(port: int, database: str) -> str:
    """The line `make run` serves with (``make -n`` prints it without running it), on the
    demo database ``database`` (a URL)."""
    out = subprocess.run(
        [
            "make",
            "-n",
            "run",
            f"PORT={port}",
            f"PY={sys.executable}",
            f"DEMO_DATABASE_URL={database}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "DEBUG"},
    ).stdout
    return next(line for line in out.splitlines() if "runserver" in line)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@contextlib.contextmanager
def demo_server(database: Path):
    """The server `make run` starts, on the migrated SQLite file ``database``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "LOCAL_DEMO")}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    port = free_port()
    server = subprocess.Popen(
        make_runs_the_server_with(port, env["DATABASE_URL"]),
        shell=True,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        # Waited for until it answers, a minute at most: ``runserver`` checks the project
        # and starts its reloader's child before it listens, 3 s on a quiet machine and
        # several times that beside the other tests' worker. Ten seconds of tries, then
        # the test went on regardless, and failed at its first page.
        deadline = time.monotonic() + 60
        while True:
            try:
                get(base + "/")
                break
            except OSError:
                assert server.poll() is None, "the demo server stopped before it answered"
                assert time.monotonic() < deadline, "the demo server did not answer in 60 s"
                time.sleep(0.1)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


def test_the_demo_shows_the_sites_own_not_found_page_and_still_serves_its_static_files(
    migrated_sqlite_file,
):
    with demo_server(migrated_sqlite_file) as base:
        assert get(base + "/")[0] == 200
        status, page = get(base + "/no-such-page/")
        assert status == 404
        assert "There is no page at this address" in page
        assert "Django tried these URL patterns" not in page  # not the debug page
        assert get(base + "/static/css/app.css")[0] == 200
