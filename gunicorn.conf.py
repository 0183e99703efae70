"""gunicorn's settings for Club Ratings in production (`make serve`, or `gunicorn -c
gunicorn.conf.py`). Each is read from the environment, with a default that suits a small
club's server; docs/deployment.md, "The production server", says more.

Workers are gunicorn's threaded workers (gthread): one a core, GUNICORN_THREADS requests
at a time each, and a reader's keep-alive connection kept open between its pages (a sync
worker closes it after every answer; opening it again cost more than a kept page takes).
A thread holds at most one database connection at a time: from its process's pool
(DB_POOL_MAX, no smaller than the threads), or its own (SQLite, DB_POOL_MAX=0).
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
# One process a core, each serving a few requests at once: a kept public page is mostly
# waiting on the network, and fewer processes contend less for two cores (the demo club,
# 50 readers: 170 requests/s with 5 sync workers, 640 with 2 x 4 threads).
workers = _int("GUNICORN_WORKERS", multiprocessing.cpu_count())
worker_class = "gthread"
threads = _int("GUNICORN_THREADS", 4)
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
# gunicorn's control socket (gunicornc) is one path for every gunicorn of a user
# (~/.gunicorn/gunicorn.ctl): a second `make serve` on the machine would take it from the
# first. None unless GUNICORN_CONTROL_SOCKET names this instance's own.
_control_socket = os.getenv("GUNICORN_CONTROL_SOCKET", "").strip()
control_socket_disable = not _control_socket
if _control_socket:
    control_socket = _control_socket
