"""gunicorn's settings for Club Ratings in production (`make serve`, or `gunicorn -c
gunicorn.conf.py`). Each is read from the environment, with a default that suits a small
club's server; README.md, "Production", says more.

Workers are gunicorn's sync workers, one request at a time each: a worker holds at most
one database connection, so the web server holds at most GUNICORN_WORKERS of them.
"""

from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.getenv(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, got {value!r}") from None


wsgi_app = "clubratings.wsgi:application"
# Behind the proxy, on the loopback: HOST=0.0.0.0 for a container.
bind = f"{os.getenv('HOST', '127.0.0.1')}:{_int('PORT', 8000)}"
# gunicorn's own rule of thumb: two per core, plus one.
workers = _int("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1)
worker_class = "sync"
threads = 1
# A request running longer than this is killed (a long re-rate runs in the background
# worker, never in a request); on a restart, a worker gets this long to finish.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = 5
# The access log and errors to standard output and error, for the process manager.
accesslog = "-"
errorlog = "-"
loglevel = os.getenv("GUNICORN_LOG_LEVEL", "info")
# Only a proxy on this machine may say the request came over HTTPS (X-Forwarded-Proto).
forwarded_allow_ips = os.getenv("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# The worker heartbeat in memory, not on a disk that may be slow.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
