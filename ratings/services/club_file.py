"""The whole club as one JSON document, and back: ``export_club`` / ``import_club``.

The document's shape (written from plain rows, read and checked back) is
``formats.club_file``'s; here, what goes into it and loading it into a database.

The document holds every table of the club: the settings, seasons, members,
subscriptions, events, entries, games, rating periods, the ratings derived from them
(states, changes, runs), the audit trail (the history of every record, the admin's log)
and the accounts that trail names. Rows keep their primary keys, so every reference holds;
users, groups, permissions and content types are named by their natural keys (username,
name, app and model), which differ between databases. It restores into an empty
database of either kind (SQLite or PostgreSQL).

The import loads the rows exactly as written, then re-rates every event from the games
and checks that the ratings come out equal to the document's (inside a savepoint rolled
back afterwards, so the database holds the document's rows and nothing else). Any
problem refuses the import, nothing saved.

Not in the document: sessions, login throttling (axes), queued background tasks: the
running site's, not the club's.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder

from ..formats.club_file import ClubFileRefused, club_write
from ..models import ClubSettings, RatingChange, RatingState
from ..models.record import record_problems
from ..words.counts import count_phrase
from .rerate import RerateRequest
from .rerate_rows import insert_rows
from .runs import ratings_rerate

#: Rows a query reads or writes at a time.
BATCH = 2000
#: The tables of other apps that belong to the club: accounts first (the rest name them).
OTHER_TABLES = ("auth.group", "auth.user", "admin.logentry")


@dataclass
class ClubFileReport:
    tables: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    checked: bool = False
    events_rated: int = 0
    imported: bool = False

    def __str__(self) -> str:
        counts = ", ".join(f"{count} {label}" for label, count in self.tables.items() if count)
        check = ""
        if self.imported:
            check = (
                f"; ratings re-derived from {count_phrase(self.events_rated, 'event')}: equal"
                if self.checked
                else "; ratings not re-derived (--no-check)"
            )
        rows = count_phrase(sum(self.tables.values()), "row")
        return f"{rows} ({counts}) in {self.seconds:.1f}s{check}"


def club_models() -> list[type[models.Model]]:
    """Every table of the club, in the order they load: accounts, then the ratings app's
    own (every model it has, the history models too), then the admin's log."""
    first = [apps.get_model(label) for label in OTHER_TABLES[:2]]
    ratings = sorted(
        apps.get_app_config("ratings").get_models(), key=lambda m: m._meta.label_lower
    )
    return [*first, *ratings, apps.get_model(OTHER_TABLES[2])]


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _migrations() -> dict[str, str]:
    """The last migration applied of each app the document's tables belong to."""
    applied: dict[str, str] = {}
    recorder = MigrationRecorder(connection)
    for app, name in sorted(recorder.applied_migrations()):
        if app in {"ratings", "auth", "admin", "contenttypes"}:
            applied[app] = max(applied.get(app, ""), name)
    return applied


# -- export --------------------------------------------------------------------------------


def _rows(model: type[models.Model]) -> Iterator[dict[str, Any]]:
    """The table's rows as Django's serializer writes them (pk, fields), in pk order, a
    batch at a time (each batch's many-to-many read in one query)."""
    many = [
        f.name
        for f in model._meta.many_to_many
        # Every many-to-many has its through model once the apps are loaded.
        if f.remote_field.through._meta.auto_created  # type: ignore[union-attr]
    ]
    queryset = model._default_manager.order_by("pk").prefetch_related(*many)
    last = None
    while True:
        batch = list((queryset if last is None else queryset.filter(pk__gt=last))[:BATCH])
        if not batch:
            return
        last = batch[-1].pk
        for row in serializers.serialize(
            "python", batch, use_natural_foreign_keys=True, use_natural_primary_keys=False
        ):
            del row["model"]
            yield row


def club_export(*, out: IO[str]) -> ClubFileReport:
    """Write the whole club to ``out`` as one JSON document; one table read at a time."""
    clock = time.perf_counter()
    report = ClubFileReport()
    with transaction.atomic():  # one consistent snapshot of every table
        report.tables = club_write(
            out=out,
            head={
                "exported": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "database": connection.vendor,
                "migrations": _migrations(),
            },
            tables=((_label(model), _rows(model)) for model in club_models()),
        )
    report.seconds = time.perf_counter() - clock
    return report


# -- import --------------------------------------------------------------------------------


def _not_empty() -> list[str]:
    """What the database already holds, table by table (the club's settings at their
    defaults, which any page creates on first sight, count as nothing)."""
    held = []
    for model in club_models():
        queryset = model._default_manager.all()
        if model is ClubSettings:
            default = ClubSettings()
            queryset = queryset.exclude(
                name=default.name,
                rating_system=default.rating_system,
                system_params=default.system_params,
                season_start_month=default.season_start_month,
            )
        count = queryset.count()
        if count:
            meta = model._meta
            phrase = count_phrase(count, str(meta.verbose_name), str(meta.verbose_name_plural))
            held.append(((meta.model_name or "").startswith("historical"), phrase))
    return [text for _history, text in sorted(held, key=lambda h: h[0])]  # the record first


def club_import(
    *,
    document: dict[str, Any],
    check: bool = True,
    progress: Callable[[str], None] | None = None,
) -> ClubFileReport:
    """Load the document into this (empty) database, all or nothing; ``check``: re-rate
    from the games and refuse unless the ratings equal the document's."""

    say = progress or (lambda message: None)
    clock = time.perf_counter()
    report = ClubFileReport(imported=True)
    tables = document["tables"]
    known = {_label(model): model for model in club_models()}
    unknown = sorted(set(tables) - set(known))
    if unknown:
        raise ClubFileRefused(
            f"The document has tables this app does not: {', '.join(unknown)} (written by "
            "another version of the app?)."
        )
    ours = _migrations()
    theirs = document.get("migrations", {})
    if theirs.get("ratings") and theirs["ratings"] != ours.get("ratings"):
        raise ClubFileRefused(
            f"The document was written at migration ratings.{theirs['ratings']}, this database "
            f"is at ratings.{ours.get('ratings')}: import it with the version of the app that "
            "wrote it, then upgrade (manage.py migrate)."
        )
    try:
        _load_all(document, known, check=check, report=report, say=say)
    except DatabaseError as error:  # a row the database refuses (on PostgreSQL at commit)
        raise ClubFileRefused(f"The document's rows cannot be stored: {error}") from None
    report.seconds = time.perf_counter() - clock
    return report


def _load_all(
    document: dict[str, Any],
    known: dict[str, type[models.Model]],
    *,
    check: bool,
    report: ClubFileReport,
    say: Callable[[str], None],
) -> None:
    tables = document["tables"]
    with transaction.atomic():
        held = _not_empty()
        if held:
            raise ClubFileRefused(
                "The database is not empty: it holds "
                + ", ".join(held)
                + ". import_club restores into an empty database only: create a new one, "
                "run manage.py migrate, then import_club."
            )
        ClubSettings.objects.all().delete()  # the defaults a page made: the document's win
        for label, model in known.items():
            rows = tables.get(label, [])
            say(f"{label}: {count_phrase(len(rows), 'row')}")
            report.tables[label] = _load(model, rows)
        _reset_sequences(list(known.values()))
        if connection.vendor == "sqlite":
            # Referential integrity, checked now (SQLite defers it to this call).
            try:
                connection.check_constraints()
            except Exception as error:
                raise ClubFileRefused(
                    f"The document's rows do not hold together: {error}"
                ) from None
        # The record's rules (``models.rules``): what a form or import would refuse.
        broken = record_problems()
        if broken:
            raise ClubFileRefused(
                "The document's record breaks the club's rules: " + " ".join(broken)
            )
        if check:
            say("re-rating every event to check the ratings")
            report.events_rated = _check_ratings()
            report.checked = True


def _load(model: type[models.Model], rows: list[dict[str, Any]]) -> int:
    """Insert the table's rows as written (their pks kept), a batch at a time; with no
    signals (a member's rating state comes from the document, not from post_save)."""
    label = _label(model)
    objects = []
    many: list[tuple[models.Model, dict[str, Any]]] = []
    try:
        for row in serializers.deserialize(
            "python", ({"model": label, **row} for row in rows), handle_forward_references=False
        ):
            objects.append(row.object)
            if row.m2m_data:
                many.append((row.object, row.m2m_data))
    except serializers.base.DeserializationError as error:
        raise ClubFileRefused(f"{label}: {error}") from None
    if many or not objects:
        with _timestamps_as_written(model):
            model._default_manager.bulk_create(objects, batch_size=BATCH)
    else:
        # The rows straight in (COPY on PostgreSQL, a prepared INSERT on SQLite), each
        # value as the field writes it: bulk_create would stamp auto_now dates and, on
        # PostgreSQL, spend a fifth of the import quoting arrays of text.
        fields = model._meta.concrete_fields
        insert_rows(
            model,
            [f.column for f in fields],
            [
                tuple(f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields)
                for obj in objects
            ],
        )
    for obj, relations in many:
        for name, values in relations.items():
            getattr(obj, name).set(values)
    return len(objects)


@contextmanager
def _timestamps_as_written(model: type[models.Model]) -> Iterator[None]:
    """A row's ``auto_now``/``auto_now_add`` dates as the document has them: Django would
    stamp them with the time of the import."""
    stamped = [
        (f, f.auto_now, f.auto_now_add)  # type: ignore[attr-defined]  # a date or time field, as asked
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    for f, _now, _add in stamped:
        f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for f, now, add in stamped:
            f.auto_now, f.auto_now_add = now, add  # type: ignore[attr-defined]


def _reset_sequences(tables: list[type[models.Model]]) -> None:
    """PostgreSQL: the next pk of each table after the largest loaded (SQLite needs nothing)."""
    statements = connection.ops.sequence_reset_sql(no_style(), tables)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


class _Rollback(Exception):
    pass


def ratings_snapshot() -> dict[str, Any]:
    """The derived ratings, by member and list and by (event, member, list): what a re-rate
    must give again."""
    states = {
        (member, time_class): row
        for member, time_class, *row in RatingState.objects.values_list(
            "member_id",
            "time_class",
            "rating",
            "display",
            "games",
            "last_played",
            "last_event_id",
        ).iterator(chunk_size=BATCH)
    }
    changes = {
        (event, member, time_class): row
        for event, member, time_class, *row in RatingChange.objects.values_list(
            "event_id",
            "member_id",
            "time_class",
            "before",
            "after",
            "display_before",
            "display_after",
            "played",
            "score",
            "period",
        ).iterator(chunk_size=BATCH)
    }
    return {"states": states, "changes": changes}


def ratings_differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Where two snapshots differ (floats to a millionth), the first few."""

    def same(x: Any, y: Any) -> bool:
        if isinstance(x, float) and isinstance(y, float):
            return abs(x - y) < 1e-6
        return bool(x == y)

    out = []
    for kind in ("states", "changes"):
        left, right = a[kind], b[kind]
        for key in sorted(set(left) | set(right), key=str):
            x, y = left.get(key), right.get(key)
            if x is None or y is None or not all(map(same, x, y)):
                out.append(f"{kind[:-1]} {key}: {x} in the document, {y} re-derived")
    return out


def _check_ratings() -> int:
    """Re-rate everything from the games, compare with the document's ratings, roll the
    re-rate back: the database keeps the document's rows exactly."""
    loaded = ratings_snapshot()
    try:
        with transaction.atomic():
            run = ratings_rerate(
                RerateRequest(start=None, reason="import_club: checking the ratings")
            )
            derived = ratings_snapshot()
            raise _Rollback
    except _Rollback:
        pass
    differences = ratings_differences(loaded, derived)
    if differences:
        shown = "\n".join(differences[:20])
        raise ClubFileRefused(
            f"The ratings re-derived from the games differ from the document's in "
            f"{count_phrase(len(differences), 'place')}, nothing saved:\n{shown}"
        )
    return run.events_rated
