#!/usr/bin/env bash
# `make serve`: production serving on this machine. Migrates, collects the static files,
# then runs gunicorn (gunicorn.conf.py) and the background worker (manage.py db_worker)
# together. The worker is kept running: when it dies (killed, out of memory) it is started
# again after a moment, and takes over the rating run it was carrying out; the site stays
# up. When gunicorn stops, or on Ctrl-C / SIGTERM, both are stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY="$VENV/bin/python"

"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput >/dev/null

pids=()
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The worker under a restart loop of its own: a worker that dies is started again
# (WORKER_RESTART_SECONDS later), and its run is taken over (docs/deployment.md, "Rating
# runs and dying workers"). The loop ends when serve stops it.
worker_loop() {
  local child=""
  trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM INT
  while true; do
    "$PY" manage.py db_worker &
    child=$!
    status=0
    wait "$child" || status=$?
    echo "serve: the background worker stopped (status $status); starting it again" >&2
    sleep "${WORKER_RESTART_SECONDS:-2}"
  done
}
worker_loop &
pids+=("$!")
"$VENV/bin/gunicorn" -c gunicorn.conf.py &
gunicorn=$!
pids+=("$gunicorn")

# gunicorn stopping ends the worker too (the EXIT trap), with its status.
status=0
wait "$gunicorn" || status=$?
echo "serve: gunicorn stopped (status $status); stopping the worker" >&2
exit "$status"
