#!/usr/bin/env bash
# scripts/load.py at a club's size (issue 40): 60,000 members, 200,000 games on PostgreSQL,
# 50 readers and an officer completing an event every five seconds, in one command.
#
#     scripts/load_club.sh                    # database load60 on 127.0.0.1, made if absent
#     DB=load60b MEMBERS=60000 GAMES=200000 SECONDS=60 WRITE_EVERY=5 THINK=0 READERS=50 \
#         scripts/load_club.sh
#
# Makes the database once (migrate, generate_history, VACUUM ANALYZE: some three minutes
# on a quiet machine), then each run adds that run's events to rate (load_setup.py) and
# runs scripts/load.py --serve on it: make serve on a free port, stopped at the end. The
# figures are load.py's NAME: VALUE UNIT lines; the load average is printed before and
# after. Exits non-zero on any error (any answer but 200, the officer's redirects aside).
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-load60}
HOST=${PGHOST:-127.0.0.1}
MEMBERS=${MEMBERS:-60000}
GAMES=${GAMES:-200000}
SECONDS_READ=${SECONDS:-60}
WRITE_EVERY=${WRITE_EVERY:-5}
READERS=${READERS:-50}
THINK=${THINK:-0}  # a reader's mean seconds on a page (0: as fast as answered)
PASSWORD=load-test-2026
export DATABASE_URL=postgres://postgres@$HOST:5432/$DB
python=.venv/bin/python

if ! psql -h "$HOST" -U postgres -lqt | cut -d'|' -f1 | grep -qw "$DB"; then
    createdb -h "$HOST" -U postgres "$DB"
fi
$python manage.py migrate -v0
if [ "$($python manage.py shell -v0 -c 'from ratings.models import Member; print(Member.objects.count())')" = 0 ]; then
    $python manage.py generate_history --members "$MEMBERS" --games "$GAMES" --seed 7
    psql -q -h "$HOST" -U postgres "$DB" -c "VACUUM ANALYZE"
fi
# One event a write, and one to spare: the officer stops when the readers do.
events=$((SECONDS_READ / WRITE_EVERY + 1))
setup=$($python scripts/load_setup.py --password "$PASSWORD" --events "$events")
echo "$setup" | tail -3
rate=()
for pk in $(echo "$setup" | sed -n 's/^events: //p'); do rate+=(--rate-event "$pk"); done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
$python scripts/load.py --serve --readers "$READERS" --think "$THINK" --seconds "$SECONDS_READ" \
    --officer "olivia:$PASSWORD" --officer-delay 5 --write-every "$WRITE_EVERY" \
    "${rate[@]}" || status=$?
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
