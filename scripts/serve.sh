#!/usr/bin/env bash
# `make serve`: production serving on this machine. Migrates, collects the static files,
# then runs gunicorn (gunicorn.conf.py) and the background worker (manage.py db_worker)
# together. When either stops, or on Ctrl-C / SIGTERM, both are stopped.
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

"$PY" manage.py db_worker &
pids+=("$!")
"$VENV/bin/gunicorn" -c gunicorn.conf.py &
pids+=("$!")

# The first to stop ends the other (the EXIT trap), with its status.
status=0
wait -n "${pids[@]}" || status=$?
echo "serve: a process stopped (status $status); stopping the other" >&2
exit "$status"
