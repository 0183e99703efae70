#!/usr/bin/env python3
"""Readers on the public pages while an officer rates an event: requests, errors, p50/p95.

    python scripts/load.py --serve --readers 50 --seconds 30      # make serve, the demo club
    python scripts/load.py --url http://127.0.0.1:8010 --readers 50 --seconds 30 \
        --page /ratings/ --page / --page /members/M00042/ \
        --officer olivia:PASSWORD --rate-event 8000

Only the standard library (threads and http.client), so it runs anywhere the app runs.
``--serve`` starts the production server itself (``make serve`` on a free port: gunicorn
and the worker) on DATABASE_URL, or on the demo club (demo.sqlite3, loaded if empty)
when none is set, waits until it answers, and stops it at the end; ``--url`` reads a
server already running. Without ``--page``, the readers read the list, the home page, a
member's page, an event's report and the API's list (the member and the event found
through the API).

Each reader opens one keep-alive connection and asks for the pages in turn for
``--seconds``: as fast as the server answers, or with ``--think`` seconds on each page
on average (a person reading it) before the next. With ``--officer`` and ``--rate-event`` one more
client logs in as that officer, a few seconds in, and marks the event complete (which
rates it), as the officer's page does; several ``--rate-event`` are completed one after
another, ``--write-every`` seconds apart (``scripts/load_club.sh``: 60,000 members, 50
readers, a write every five seconds, in one command). Any answer but 200 (or the
officer's redirects), and any connection error, is an error. The figures end with
``NAME: VALUE UNIT`` lines (``served_rps``, ``served_p50_ms``, ``served_p95_ms``,
``served_errors``, ``officer_wait_s``, ``officer_writes``, ``officer_wait_max_s``);
docs/performance.md has them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Client:
    """One keep-alive connection with its cookies (enough for Django's login and CSRF)."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str, dict[str, str]]:
        headers = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{self.host}:{self.port}{path}"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.connection.close()  # the next request opens a new connection
            raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, text, {k.lower(): v for k, v in response.getheaders()}

    def read(self, path: str) -> int:
        """A reader's GET, as a browser asks (gzip accepted), the body read and dropped:
        the readers share the server's cores, so they spend as little as they can. A
        kept-alive connection the server closed while the reader read (gunicorn's
        ``keepalive`` seconds) is opened again and the GET asked once more, as a
        browser does."""
        for again in (True, False):
            reused = self.connection.sock is not None
            try:
                self.connection.request("GET", path, headers=self.reading)
                response = self.connection.getresponse()
                response.read()
                return response.status
            except (ConnectionError, http.client.RemoteDisconnected) as error:
                self.connection.close()
                if not (again and reused):
                    raise error
            except (OSError, http.client.HTTPException):
                self.connection.close()  # the next request opens a new connection
                raise
        raise AssertionError("unreachable")

    @property
    def reading(self) -> dict[str, str]:
        return {"Host": f"{self.host}:{self.port}", "Accept-Encoding": "gzip"}


def _csrf(page: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if not match:
        raise SystemExit("load: no CSRF token on the page (is the URL right?)")
    return match.group(1)


def reader(
    url: str,
    pages: list[str],
    stop: float,
    think: float,
    times: dict[str, list[float]],
    errors: dict[str, int],
    lock: threading.Lock,
) -> None:
    client = Client(url)
    chance = random.Random()
    i = chance.randrange(len(pages))
    time.sleep(chance.uniform(0, think))  # readers arrive spread out, not all at once
    while time.monotonic() < stop:
        page = pages[i % len(pages)]
        i += 1
        started = time.monotonic()
        try:
            status = client.read(page)
        except (OSError, http.client.HTTPException):
            status = 0
        took = time.monotonic() - started
        with lock:
            if status == 200:
                times[page].append(took)
            else:
                errors[page] += 1
        if think:
            # A reader reads the page before the next: think time drawn around its mean.
            time.sleep(min(chance.expovariate(1 / think), max(0.0, stop - time.monotonic())))


def officer(
    url: str,
    login: str,
    events: list[int],
    delay: float,
    every: float,
    stop: float,
    report: dict[str, object],
) -> None:
    """Log in and mark each event complete (it is rated), as the officer's page does: the
    first ``delay`` seconds in, the next ``every`` seconds after the one before began, as
    long as the readers read (``stop``)."""
    time.sleep(delay)
    username, _, password = login.partition(":")
    client = Client(url)
    _, page, _ = client.request("GET", "/accounts/login/")
    status, _, headers = client.request(
        "POST",
        "/accounts/login/",
        {"username": username, "password": password, "csrfmiddlewaretoken": _csrf(page)},
    )
    if status != 302:
        report["error"] = f"login refused (HTTP {status})"
        return
    waits: list[float] = []
    report["waits"] = waits
    for n, event in enumerate(events):
        began = time.monotonic()
        if n and began >= stop:
            break
        path = f"/officer/events/{event}/complete/"
        status, page, _ = client.request("GET", path)
        if status != 200:
            report["error"] = f"GET {path}: HTTP {status}"
            return
        started = time.monotonic()
        form = {"csrfmiddlewaretoken": _csrf(page)}
        if 'name="duplicate_reason"' in page:
            # load_setup.py's events are copies of one night: the page asks why the games
            # are recorded again, as it asks the officer.
            form["duplicate_reason"] = "A load test: the same night's games copied again"
        status, _, headers = client.request("POST", path, form)
        waits.append(time.monotonic() - started)
        report["seconds"] = waits[0]
        report["status"] = status
        report["location"] = headers.get("location", "")
        if status != 302:
            report["error"] = f"POST {path}: HTTP {status}"
            return
        time.sleep(max(0.0, began + every - time.monotonic()))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``make serve`` on a free port, as production runs (gunicorn and the worker), its
    output in ``log``; returns it and its URL once it answers."""
    port = _free_port()
    env = dict(os.environ)
    python = str(ROOT / ".venv" / "bin" / "python")
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = env.get("DEMO_DATABASE_URL", f"sqlite:///{ROOT / 'demo.sqlite3'}")
        demo = {**env, "LOCAL_DEMO": "True", "DEBUG": "False"}
        subprocess.run(
            [python, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=demo,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [python, "manage.py", "load_demo", "--if-empty"],
            cwd=ROOT,
            env=demo,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    env.update(
        PORT=str(port),
        DEBUG="False",
        # Plain http on this machine (no TLS redirect), as `make run` serves the demo.
        LOCAL_DEMO="True",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(40),
        # Every reader comes from 127.0.0.1: the API's per-address throttle would
        # refuse them as one caller.
        API_ANON_RATE=env.get("LOAD_API_ANON_RATE", "1000000/min"),
    )
    with open(log, "wb") as output:
        server = subprocess.Popen(
            ["make", "serve"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped whole at the end
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"load: make serve stopped (status {server.returncode}); see {log}")
        try:
            if Client(url).request("GET", "/")[0] == 200:
                return server, url
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.5)
    stop(server)
    raise SystemExit(f"load: make serve did not answer within 180 s; see {log}")


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the server this script started (its process group: gunicorn and the worker)."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=40)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def default_pages(url: str) -> list[str]:
    """The list, the home page, a member's page, an event's report and the API's list."""
    client = Client(url)
    pages = ["/ratings/", "/"]
    status, text, _ = client.request("GET", "/api/v1/list?per_page=1")
    rows = json.loads(text).get("results", []) if status == 200 else []
    if rows:
        pages.append(f"/members/{urllib.parse.quote(rows[0]['member'])}/")
    status, text, _ = client.request("GET", "/api/v1/events?per_page=1")
    events = json.loads(text).get("results", []) if status == 200 else []
    if events:
        pages.append(f"/events/{events[0]['id']}/report/")
    return [*pages, "/api/v1/list"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument(
        "--serve",
        action="store_true",
        help="start make serve on a free port (DATABASE_URL, or the demo club) and stop it "
        "at the end, instead of reading --url",
    )
    parser.add_argument(
        "--serve-log", default="load-serve.log", help="where --serve's server writes"
    )
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a reader spends on a page before the next (0: none, as fast "
        "as the server answers)",
    )
    parser.add_argument(
        "--page", action="append", help="a page to read (repeat); default /ratings/"
    )
    parser.add_argument("--officer", help="USER:PASSWORD of the officer who rates an event")
    parser.add_argument(
        "--rate-event",
        type=int,
        action="append",
        help="the pk of an event the officer completes (repeat: one after another, "
        "--write-every apart)",
    )
    parser.add_argument("--officer-delay", type=float, default=5.0, help="seconds before rating")
    parser.add_argument(
        "--write-every",
        type=float,
        default=5.0,
        help="seconds from one event's completion to the next (several --rate-event)",
    )
    args = parser.parse_args(argv)
    server = None
    if args.serve:
        server, args.url = serve(Path(args.serve_log))
        print(f"serving: make serve at {args.url}")
    try:
        return measure(args)
    finally:
        if server is not None:
            stop(server)


def measure(args: argparse.Namespace) -> int:
    pages = args.page or default_pages(args.url)

    times: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds
    threads = [
        threading.Thread(
            target=reader, args=(args.url, pages, stop, args.think, times, errors, lock)
        )
        for _ in range(args.readers)
    ]
    rated: dict[str, object] = {}
    if args.officer and args.rate_event:
        threads.append(
            threading.Thread(
                target=officer,
                args=(
                    args.url,
                    args.officer,
                    args.rate_event,
                    args.officer_delay,
                    args.write_every,
                    stop,
                    rated,
                ),
            )
        )
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started

    total = sum(len(v) for v in times.values()) + sum(errors.values())
    print(
        f"readers: {args.readers} (think {args.think:g} s), {elapsed:.1f} s, {total} requests, "
        f"{sum(errors.values())} errors, {total / elapsed:.0f} requests/s"
    )
    print(f"{'page':<40} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for page in pages:
        done = times.get(page, [])
        if done:
            p50 = statistics.median(done) * 1000
            p95 = percentile(done, 0.95) * 1000
            top = max(done) * 1000
            print(
                f"{page:<40} {len(done) + errors[page]:>8} {errors[page]:>6} "
                f"{p50:>7.0f} {p95:>7.0f} {top:>7.0f}"
            )
        else:
            print(f"{page:<40} {errors[page]:>8} {errors[page]:>6}       -       -       -")
    if args.officer and args.rate_event:
        if "error" in rated:
            print(f"officer: {rated['error']}")
        waits = rated.get("waits") or []
        assert isinstance(waits, list)
        if waits:
            print(
                f"officer: rated {len(waits)} of {len(args.rate_event)} events, each in "
                f"{', '.join(f'{w:.2f}' for w in waits)} s (last -> {rated.get('location')})"
            )
    served = [took for done in times.values() for took in done]
    print(f"served_rps: {len(served) / elapsed:.1f} req/s")
    print(f"served_p50_ms: {statistics.median(served) * 1000 if served else 0:.0f} ms")
    print(f"served_p95_ms: {percentile(served, 0.95) * 1000 if served else 0:.0f} ms")
    print(f"served_errors: {sum(errors.values())} requests")
    if "seconds" in rated:
        waits = rated["waits"]
        assert isinstance(waits, list)
        print(f"officer_wait_s: {rated['seconds']:.2f} s")
        print(f"officer_writes: {len(waits)} events")
        print(f"officer_wait_max_s: {max(waits):.2f} s")
    failed = sum(errors.values()) or "error" in rated
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
