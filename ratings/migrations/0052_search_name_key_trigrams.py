"""The members' name keys indexed by their trigrams on PostgreSQL, so a name search
(``models.name_search``: each word anywhere in the key, ``LIKE '%smith%'``) reads the
members holding the word rather than every member's key (issue 40, item 5). The number
it also matches (``member_number__iexact``: ``UPPER(member_number) = UPPER(...)``) is
indexed as it is asked, so the two conditions, ORed, are read together down the two
indexes.

The trigram index takes each member written at once (``fastupdate = off``): members are
written seldom and searched often, and a list of them pending until the next vacuum would
be read whole by every search meanwhile (and priced so by the planner, which then reads
every member instead).

SQLite has no trigram index: there the search reads every member's key, as before (some
30 ms at 60,000 members, docs/performance.md); the migration does nothing on it.
"""

from django.db import migrations

INDEXES = (
    "CREATE INDEX IF NOT EXISTS member_name_key_trigrams"
    " ON ratings_member USING gin (name_key gin_trgm_ops) WITH (fastupdate = off)",
    "CREATE INDEX IF NOT EXISTS member_number_upper ON ratings_member (upper(member_number))",
)


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for statement in INDEXES:
        schema_editor.execute(statement)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # The extension stays: something else in the database may use it.
    schema_editor.execute("DROP INDEX IF EXISTS member_name_key_trigrams")
    schema_editor.execute("DROP INDEX IF EXISTS member_number_upper")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0051_merge_runlock")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
