"""bench: how fast the club's pages and re-rates are on a big history (docs/performance.md).

Runs against the database configured: point DATABASE_URL at a database of its own
(``sqlite:///bench/bench.sqlite3``, or a PostgreSQL database made for it). An empty one
(or one generated with other arguments) gets a history from ``generate_history`` first.
Prints one line per figure, exactly ``NAME: VALUE UNIT``; what it is doing goes to stderr.

The bench changes the database it measures (a new event, a corrected game, an imported
tournament) and undoes each change afterwards, so the history is the same for the next
run; the runs it logs and the audit trail of its changes stay. Treat the database as
disposable all the same.

The rating figures are measured here, the page figures in ``_bench_pages.py``: each in
the order docs/performance.md lists them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.backends.sqlite3.creation import DatabaseCreation as SQLiteCreation
from django.db.models import Q
from django.test import Client, override_settings
from django.urls import resolve, reverse
from django.utils import timezone

from ratings import services
from ratings.engine import SYSTEMS
from ratings.formats import trf
from ratings.forms import TrfConfirmForm
from ratings.histories.generated import DEFAULT_SEED, MARKER, marker
from ratings.histories.tournament import tournament_report_generate
from ratings.models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingList,
    RatingRun,
    RatingState,
)
from ratings.rules.time_classes import RAPID
from ratings.services.accounts import officer_create
from ratings.services.switches import rating_list_apply, rating_system_apply

from ._bench_pages import PageTimings

OFFICER = "bench-officer"
#: The names of the events the bench adds (and takes out again).
NEW_EVENT = "Bench: new event"
TRF_EVENT = "Bench Open"
NEW_EVENT_PLAYERS = 50
TRF_PLAYERS = 300
TRF_ROUNDS = 7
#: The correction is made to an event about this many days back.
CORRECTION_DAYS_BACK = 365


#: The child process of the memory figure: ``manage.py rerate`` once Django is set up,
#: then its resident size before the re-rate and its high-water mark, in kB.
CHILD = """
import django
django.setup()
from django.core.management import call_command

def kb(key):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(key + ":"))

base = kb("VmRSS")
call_command("rerate")
print("memory:", base, kb("VmHWM"))
"""


class Command(BaseCommand):
    help = (
        "Measure the re-rates and the pages on a generated history (made first if the "
        "database has none): prints NAME: VALUE UNIT lines."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1_000_000, help="default 1,000,000")
        parser.add_argument("--members", type=int, default=20_000, help="default 20,000")
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="Measure the history the database holds, whatever its size or origin.",
        )
        parser.add_argument(
            "--pages-only",
            action="store_true",
            help="Time the pages alone, on the history as it is rated (no re-rate, event, "
            "correction or import): the pages of a large history (ten million games) "
            "without its long runs.",
        )
        parser.add_argument(
            "--no-memory",
            action="store_true",
            help="Skip the peak memory of a re-rate (a child process; tests use this).",
        )
        parser.add_argument(
            "--repeat", type=int, default=5, help="Runs of each page, the median kept (5)."
        )
        parser.add_argument(
            "--warm-up",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="GET each page once, untimed, before its timed GETs (default); the tests "
            "pass --no-warm-up where their subject is the figures' names, not their values.",
        )
        parser.add_argument(
            "--trf-players",
            type=int,
            default=TRF_PLAYERS,
            help=f"Players of the imported tournament, an even number (default {TRF_PLAYERS}); "
            "the tests import a few, their subject being the command, not the figure.",
        )
        parser.add_argument(
            "--system",
            choices=[*sorted(SYSTEMS), "all"],
            help="Switch the club to this system (all: each in turn) and measure it, its "
            "figures named SYSTEM.NAME; without it, the club's own system, names bare.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["trf_players"] < 2 or options["trf_players"] % 2:
            raise CommandError("--trf-players: an even number, 2 or more (each round pairs all).")
        # Production settings where they change the figures: no SQL logged (DEBUG), every
        # re-rate in this process rather than queued for a worker.
        hosts = [*settings.ALLOWED_HOSTS, "testserver"]
        # WhiteNoise warns of an uncollected static folder: nothing the figures depend on.
        warnings.filterwarnings("ignore", "No directory at", UserWarning)
        with override_settings(DEBUG=False, RERATE_FOREGROUND_SECONDS=1e9, ALLOWED_HOSTS=hosts):
            Bench(self, options).run()


class Bench(PageTimings):
    def __init__(self, command: BaseCommand, options: dict[str, Any]) -> None:
        self.command = command
        self.options = options
        self.repeat = max(1, options["repeat"])
        self.warm_up = options.get("warm_up", True)
        self.rng = random.Random(options["seed"])
        self.client = Client()
        #: Before each figure's name: "ecf-2020." when measuring a system by --system.
        self.prefix = ""

    def say(self, message: str) -> None:
        self.command.stderr.write(message)

    def figure(self, name: str, value: float, unit: str) -> None:
        digits = {"ms": 1, "s": 2, "MB": 0}[unit]
        self.command.stdout.write(f"{self.prefix}{name}: {value:.{digits}f} {unit}")
        self.command.stdout.flush()

    def run(self) -> None:
        self.history()
        if self.options.get("pages_only"):
            self.pages()
            return
        chosen = self.options.get("system")
        systems = sorted(SYSTEMS) if chosen == "all" else [chosen] if chosen else [None]
        for system_id in systems:
            if system_id is not None:
                self.system_set(system_id)
                self.prefix = f"{system_id}."
            self.leftovers()
            self.full_rerate()
            if not self.options["no_memory"]:
                self.peak_memory()
            self.new_event()
            self.correction()
            self.pages()
            self.trf_import()

    def system_set(self, system_id: str) -> None:
        """Make ``system_id`` the club's system, with its rapid list kept as its rating body
        keeps it; rates nothing (the full re-rate measured next does)."""
        self.say(f"The club's system: {system_id}.")
        rating_system_apply(pending={"rating_system": system_id, "system_params": {}})
        # A system whose standard list reads the rapid one (its rating body keeps rapid play
        # on a list of its own) is measured so: the history's 25+10 events go to it.
        reads_rapid = SYSTEMS[system_id].reads_rapid_list
        kept = RatingList.Kept.OWN if reads_rapid else RatingList.Kept.STANDARD
        rating_list_apply(
            pending={
                "rating_list": {
                    "time_class": RAPID,
                    "kept": kept,
                    "rating_system": system_id,
                    "system_params": {},
                }
            }
        )

    # -- the history ----------------------------------------------------------------------

    def history(self) -> None:
        members, games, seed = (self.options[k] for k in ("members", "games", "seed"))
        name = ClubSettings.load().name
        has = Member.objects.exists()
        if has and self.options["reuse"]:
            self.say(f"Measuring the history here ({name}).")
            return
        if has and name == marker(members=members, games=games, seed=seed):
            self.say(f"Reusing the history here ({name}).")
            return
        if has and not name.startswith(MARKER):
            raise CommandError(
                f"This database holds a club ({name}) that generate_history did not make: "
                "the bench would wipe it. Point DATABASE_URL at a database of its own "
                "(e.g. sqlite:///bench/bench.sqlite3), or pass --reuse to measure it as it is."
            )
        self.say(f"Generating {members} members, {games} games (seed {seed})...")
        clock = time.perf_counter()
        call_command(
            "generate_history",
            members=members,
            games=games,
            seed=seed,
            rate=False,
            force=has,
            stdout=self.command.stderr,
        )
        self.figure("generate_s", time.perf_counter() - clock, "s")

    def leftovers(self) -> None:
        """What an interrupted run left: its new event or imported tournament."""
        events = list(Event.objects.filter(name__in=[NEW_EVENT, TRF_EVENT]).in_rating_order())
        if not events:
            return
        rated = [e for e in events if e.rating_changes.exists()]
        self.say(f"Taking out {len(events)} event(s) an interrupted run left...")
        Entry.objects.filter(event__in=events).delete()
        Game.objects.filter(event__in=events).delete()
        position = services.rating_key(rated[0]) if rated else None
        for event in events:
            event.delete()
        if position is not None:
            services.ratings_rerate(
                services.RerateRequest(start=position, reason="bench: leftovers taken out")
            )

    # -- re-rates ---------------------------------------------------------------------------

    def full_rerate(self) -> None:
        system = ClubSettings.load().engine()
        services.periods_close_past(system=system)
        self.say("Full re-rate...")
        clock, cpu = time.perf_counter(), time.process_time()
        run = services.ratings_rerate(services.RerateRequest(reason="bench: full re-rate"))
        self.figure("full_rerate_1m_s", time.perf_counter() - clock, "s")
        # This process's own CPU time: on a machine other work shares, the wall time says
        # more about the load than about the re-rate (on PostgreSQL the server's work is
        # not in it).
        self.figure("full_rerate_cpu_s", time.process_time() - cpu, "s")
        self.say(f"  {run.events_rated} events, {run.games_rated} games with {system.id}")
        self.rating_tables_vacuum()

    def rating_tables_vacuum(self) -> None:
        """On PostgreSQL, vacuum and analyse the tables a full re-rate rewrote, as
        production's autovacuum does within a minute or so.

        Every rating row is new: the old ones are dead rows and the planner's statistics
        are those of before. A server with autovacuum off (a test server) would have the
        pages read a states table many times its size after a few re-rates, and plan
        every later query from stale figures.
        """
        if connection.vendor != "postgresql":
            return
        # VACUUM cannot run in a transaction (a test's): there, the statistics alone.
        command = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
        with connection.cursor() as cursor:
            for model in (RatingChange, RatingState):
                table = connection.ops.quote_name(model._meta.db_table)
                cursor.execute(f"{command} {table}")

    def peak_memory(self) -> None:
        """The peak memory of ``manage.py rerate`` in a child process, over what it holds
        once Django is set up: the memory a full re-rate takes on top of the running app.

        Read by the child from its own /proc/self/status (VmHWM, VmRSS). Not from
        getrusage: Linux hands a process's high-water mark on through exec, so a child of
        this (big) process would report this process's size as its own peak.
        """
        url = _database_url()
        if url is None:
            raise CommandError("An in-memory database: no child process sees it (--no-memory).")
        if not Path("/proc/self/status").exists():
            raise CommandError("Peak memory is read from /proc (Linux): pass --no-memory.")
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DEBUG": "False",
            "SECRET_KEY": settings.SECRET_KEY,
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": os.environ.get(
                "DJANGO_SETTINGS_MODULE", "clubratings.settings"
            ),
        }
        self.say("Full re-rate in a child process (manage.py rerate), for its memory...")
        clock = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", CHILD],
            cwd=settings.BASE_DIR,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - clock
        base, peak = map(int, done.stdout.split("memory:")[-1].split())
        self.figure("full_rerate_peak_mb", (peak - base) / 1024, "MB")
        self.figure("full_rerate_rss_mb", peak / 1024, "MB")
        self.figure("full_rerate_child_s", seconds, "s")
        self.rating_tables_vacuum()  # the child's re-rate rewrote them again

    def new_event(self) -> None:
        """A 50-player, 5-round event today, completed and rated (then taken out again)."""
        today = timezone.localdate()
        pool = list(
            Member.objects.active()
            .with_state()
            # A Q: ``rating_state`` is with_state's FilteredRelation, which django-stubs
            # cannot see in a keyword filter.
            .filter(Q(rating_state__isnull=False))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        players = self.rng.sample(pool, min(NEW_EVENT_PLAYERS, len(pool)))
        event = Event.objects.create(
            name=NEW_EVENT,
            kind=Event.Kind.SWISS,
            start_date=today,
            end_date=today,
            rounds=5,
            rated=True,
            status=Event.Status.DRAFT,
        )
        Entry.objects.bulk_create(Entry(event=event, member_id=pk) for pk in players)
        games = []
        for round_ in range(1, 6):
            order = players[:]
            self.rng.shuffle(order)
            for board, at in enumerate(range(0, len(order) - 1, 2), 1):
                games.append(
                    Game(
                        event=event,
                        round=round_,
                        board=board,
                        white_id=order[at],
                        black_id=order[at + 1],
                        result=self.rng.choice(Game.PLAYED),
                    )
                )
        Game.objects.bulk_create(games)
        position = services.rating_key(event)
        self.say(f"New event: {len(players)} players, {len(games)} games, completing...")
        clock = time.perf_counter()
        run = services.event_complete(event=event)
        if run is None:  # a period system: the event waits for its period, closed here
            period = services.period_for(event, ClubSettings.load().engine())
            assert period is not None
            run = services.period_close(period=period)
        seconds = time.perf_counter() - clock
        rated = RatingChange.objects.filter(event=event).count()
        if run.status != RatingRun.Status.DONE or rated != len(players):
            raise CommandError(f"The new event was not rated: {rated} of {len(players)} ratings.")
        self.figure("new_event_s", seconds, "s")
        self.say("  taking it out again (re-rate from its place)...")
        event.delete()
        services.ratings_rerate(
            services.RerateRequest(start=position, reason="bench: new event taken out")
        )

    def correction(self) -> None:
        """One game's result changed in an event a year back, then changed back."""
        back = timezone.localdate() - dt.timedelta(days=CORRECTION_DAYS_BACK)
        event = (
            Event.objects.filter(rated=True, status=Event.Status.COMPLETE, end_date__lte=back)
            .order_by("-end_date", "-start_date", "-pk")
            .first()
        ) or Event.objects.filter(rated=True, status=Event.Status.COMPLETE).in_rating_order()[0]
        game = (
            event.games.filter(result__in=Game.PLAYED, black__isnull=False)
            .order_by("round", "board", "pk")
            .first()
        )
        if game is None:
            raise CommandError(f"{event} has no played game to correct.")
        was = game.result
        other = Game.Result.BLACK_WIN if was == Game.Result.WHITE_WIN else Game.Result.WHITE_WIN
        later = Event.objects.filter(
            services.rateable_q(ClubSettings.load().engine()), end_date__gte=event.end_date
        )
        self.say(
            f"Correction: {event} ({event.end_date}), round {game.round}: {was} to {other}; "
            f"{later.count()} events to re-rate..."
        )
        times = []
        for result in (other, was):
            games = [
                Game(
                    round=g.round,
                    board=g.board,
                    white_id=g.white_id,
                    black_id=g.black_id,
                    result=result if g.pk == game.pk else g.result,
                    colours_known=g.colours_known,
                )
                for g in event.games.filter(round=game.round).order_by("board", "pk")
            ]
            clock = time.perf_counter()
            run = services.games_replace(event=event, games=games, rounds=[game.round])
            times.append(time.perf_counter() - clock)
            stored = event.games.get(pk=game.pk).result
            if run is None or run.status != RatingRun.Status.DONE or stored != result:
                raise CommandError("The corrected game was not re-rated in this process.")
        self.say(f"  change {times[0]:.2f}s, change back {times[1]:.2f}s")
        self.figure("correction_s", statistics.median(times), "s")

    # -- TRF import ---------------------------------------------------------------------------

    def trf_import(self) -> None:
        """A 300-player (``--trf-players``), 7-round file through the officer's pages:
        upload, preview, confirm."""
        officer = officer_create(username=OFFICER, password=None)
        self.client.force_login(officer)
        text = tournament_report_generate(
            rng=self.rng, name=TRF_EVENT, players=self.options["trf_players"], rounds=TRF_ROUNDS
        )
        times = []
        for _ in range(max(1, min(self.repeat, 3))):
            times.append(self.import_once(text))
        self.figure("trf_import_s", statistics.median(times), "s")
        self.client.logout()

    def import_once(self, text: str) -> float:
        before = Member.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        upload = reverse("ratings:officer-import")
        preview = reverse("ratings:officer-import-preview")
        clock = time.perf_counter()
        response = self.client.post(
            upload, {"file": SimpleUploadedFile("bench.trf", text.encode())}
        )
        self.expect(response, 302, "upload")
        response = self.client.get(preview)
        self.expect(response, 200, "preview")
        seconds = time.perf_counter() - clock
        # What the officer's browser sends back: the page's choices as they stand (the
        # matches it proposes), read here outside the timing.
        form = TrfConfirmForm(tournament=trf.parse(text))
        # An empty box is sent as "", as a browser sends it.
        values = {name: form[name].value() for name in form.fields}
        data = {name: "" if value is None else value for name, value in values.items()}
        data["rated"] = "on"
        clock = time.perf_counter()
        response = self.client.post(preview, data)
        seconds += time.perf_counter() - clock
        self.expect(response, 302, "confirm")
        event = Event.objects.get(pk=resolve(response["Location"]).kwargs["pk"])
        matched = event.entries.filter(member__pk__lte=before).count()
        games = event.games.count()
        self.say(f"  imported {event}: {matched} players matched, {games} games; taking it out")
        event.delete()
        Member.objects.filter(pk__gt=before).delete()
        return seconds

    def expect(self, response: Any, status: int, step: str) -> None:
        if response.status_code != status:
            raise CommandError(f"TRF import, {step}: status {response.status_code}")


def _database_url() -> str | None:
    """The database this process uses, as a DATABASE_URL a child process can use."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        name = str(db["NAME"])
        if SQLiteCreation.is_in_memory_db(db["NAME"]) or name.startswith("file:"):
            return None
        return f"sqlite:///{Path(name).resolve()}"
    if connection.vendor == "postgresql":
        auth = db["USER"] or ""
        if db["PASSWORD"]:
            auth += f":{db['PASSWORD']}"
        host = db["HOST"] or "localhost"
        port = f":{db['PORT']}" if db["PORT"] else ""
        return f"postgres://{auth}{'@' if auth else ''}{host}{port}/{db['NAME']}"
    return None
