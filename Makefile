# The one entry point: `make run` serves the demo club (in demo.sqlite3), `make serve` the
# club's own database, `make test` passes every test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8000

.PHONY: run serve backup restore test test-fast lint format bench bench-engine migrations-check browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The demo as an officer sees the site: DEBUG off (the site's own "Not found" and error
# pages), LOCAL_DEMO on (plain http on this machine, the static files served from the
# project's folders). `make run DEBUG=True` shows Django's debug pages instead.
# The demo lives in a database of its own (DEMO_DATABASE_URL), never the club's
# DATABASE_URL: `make serve` serves the club's, and load_demo fills no other.
DEBUG ?= False
DEMO_DATABASE_URL ?= sqlite:///$(CURDIR)/demo.sqlite3
RUN_ENV := LOCAL_DEMO=True DEBUG=$(DEBUG) DATABASE_URL=$(DEMO_DATABASE_URL) DEMO_DATABASE_URL=$(DEMO_DATABASE_URL)
run: $(STAMP)
	$(RUN_ENV) $(PY) manage.py migrate --noinput
	$(RUN_ENV) $(PY) manage.py load_demo --if-empty
	@# The worker runs long re-rates in the background; it stops with the server.
	$(RUN_ENV) $(PY) manage.py db_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(RUN_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

# Production on this machine: gunicorn (gunicorn.conf.py) and the background worker
# together, after migrating and collecting the static files; stopping it stops both.
serve: $(STAMP)
	VENV=$(VENV) bash scripts/serve.sh

# The whole database in one file (docs/deployment.md, "Backups"); BACKUP names it.
BACKUP ?= backups/club-$(shell date -u +%Y%m%d-%H%M%S).backup
backup: $(STAMP)
	$(PY) manage.py backup $(BACKUP)

# A backup into the empty database DATABASE_URL names, then migrated to this code.
restore: $(STAMP)
	@test -n "$(FROM)" || { echo "usage: make restore FROM=backups/FILE.backup"; exit 2; }
	$(PY) manage.py restore $(FROM)
	$(PY) manage.py migrate --noinput

# The tests in parallel (pytest-xdist): a worker per core, each with its own test database
# (test_gw0, test_gw1, ...) and, for the browser tests, its own live server.
# `make test PYTEST_WORKERS=0` runs them in one process (a debugger, a print).
# The tests go out in sixteens: xdist's own chunks grow to a quarter of what is left, and
# one held every browser test while the other worker ran out (docs/development.md).
PYTEST_WORKERS ?= auto
PYTEST_DIST ?= load --maxschedchunk 16
# Byte code kept for the tests even where the environment says not (PYTHONDONTWRITEBYTECODE,
# set on this project's machines): each worker compiled and rewrote every test module
# again (13 s of collection, 5 s with it kept), and CI's second run (PostgreSQL) and every
# later one reuse it. __pycache__ is ignored by git.
test test-fast: export PYTHONDONTWRITEBYTECODE =
test: $(STAMP) browser
	$(PY) manage.py makemigrations --check --dry-run >/dev/null
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist $(PYTEST_DIST) $(PYTEST_ARGS)

# Everything but the browser tests, for a quick loop.
test-fast: $(STAMP)
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist $(PYTEST_DIST) -m "not browser" $(PYTEST_ARGS)

# Debian's Chromium for the browser tests (Playwright never downloads a browser here).
browser:
	@bash scripts/ensure-chromium.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The club's own figures (docs/performance.md) on a database of their own: a generated
# history of 1,000,000 games, made on the first run and reused after. BENCH_ARGS passes
# options on (BENCH_ARGS="--games 100000"); BENCH_DATABASE_URL another database.
BENCH_DATABASE_URL ?= sqlite:///bench/bench.sqlite3
bench: $(STAMP)
	mkdir -p bench
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench $(BENCH_ARGS)

# The engine's command line alone, every system (no database).
bench-engine: $(STAMP)
	$(PY) scripts/bench.py

migrations-check: $(STAMP)
	$(PY) manage.py makemigrations --check --dry-run

# The demo, the venv and the collected files; never the club's own database (db.sqlite3).
clean:
	rm -rf $(VENV) demo.sqlite3 demo.sqlite3-wal demo.sqlite3-shm staticfiles
