"""Club Ratings settings: one file, read from the environment.

Every value has a working development default (SQLite in the project folder, DEBUG on);
production sets SECRET_KEY, DEBUG=False, ALLOWED_HOSTS and DATABASE_URL (docs/deployment.md).
A malformed value stops the app at start-up with a message naming the variable.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.getenv(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {value!r}")


def envint(name: str, default: str) -> int:
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", "True")
# `make run`: the demo on this machine over plain http, with DEBUG off so that an officer
# trying it sees the site's own pages (a missing page is the site's "Not found", never
# Django's debug page with the settings on it), yet with the development defaults below.
LOCAL_DEMO = envbool("LOCAL_DEMO", "False")
_DEVELOPMENT = DEBUG or LOCAL_DEMO
_DEV_SECRET = "dev-only-secret-key-change-me-in-production-0123456789abcdef"
SECRET_KEY = os.getenv("SECRET_KEY", _DEV_SECRET if _DEVELOPMENT else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if _DEVELOPMENT else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# A form refused for its token (an old page, cookies blocked) gets the site's own page.
CSRF_FAILURE_VIEW = "clubratings.security.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    # Before django_tasks_db: its `db_worker` command is ratings' own, which takes over
    # the rating runs of a worker that died.
    "ratings",
    "django_tasks",
    "django_tasks_db",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy on every response.
    "clubratings.security.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A kept public page answered whole here, compressed once, with one query (the
    # version's): none of the stack below is run for it (clubratings/cache.py).
    "clubratings.cache.KeptPublicPagesMiddleware",
    # Pages compressed (a list page shrinks about tenfold); below WhiteNoise, which serves
    # the static files compressed ahead. BREACH: the one secret a page carries is the CSRF
    # token, which Django masks afresh on every response, and Django's GZipMiddleware pads
    # each response with random bytes; the session id is never in a page (docs/deployment.md,
    # "Compressed pages").
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the request's own writes: a post that wrote to the record, and did not say so
    # itself, retires the cached public pages (a refused form or the sign-in does not).
    "clubratings.cache.PublicPagesChangedMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Early, before any view reads the path or the query: control characters refused.
    "clubratings.security.RefuseControlCharactersMiddleware",
    # The officer's and admin's pages (and any page a login sees more on): no-store.
    "clubratings.security.PrivatePagesMiddleware",
    # The club's time zone (ClubSettings.time_zone) decides "today" in every view.
    "ratings.middleware.ClubTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # A re-rate a page would wait too long for goes to the background worker.
    "ratings.middleware.rerate_policy",
    # SQLite: a save that waited out a rating run's write lock is told so, not a 500.
    "clubratings.busy.DatabaseBusyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its refusal page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubratings.urls"
WSGI_APPLICATION = "clubratings.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ratings.context_processors.club",
                "ratings.context_processors.rating_lists",
            ],
        },
    },
]

DATABASE_URL = os.getenv("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
# The demo club's own database: `make run` serves it, and `load_demo` fills no other
# (without --force), so the demo's members and logins never land in a real club's.
DEMO_DATABASE_URL = os.getenv("DEMO_DATABASE_URL", f"sqlite:///{BASE_DIR / 'demo.sqlite3'}")


def database(url: str) -> dj_database_url.DBConfig:
    """The default database from its URL, tuned for how the app uses it (docs/deployment.md).

    SQLite: WAL, so the list is read while a re-rate writes; writers take the write lock
    when their transaction starts (IMMEDIATE) and wait for it up to SQLITE_BUSY_TIMEOUT
    seconds, rather than fail with "database is locked" when a read turns into a write.
    PostgreSQL: a pool of at most DB_POOL_MAX connections a process (psycopg_pool), or,
    with DB_POOL_MAX=0, one connection a thread kept for 60 seconds.
    """
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from None
    options = config.setdefault("OPTIONS", {})
    if config["ENGINE"] == "django.db.backends.sqlite3":
        timeout = envint("SQLITE_BUSY_TIMEOUT", "20")
        if timeout < 0:
            raise ImproperlyConfigured(f"SQLITE_BUSY_TIMEOUT must be 0 or more, got {timeout}")
        options.update(
            transaction_mode="IMMEDIATE",
            timeout=timeout,
            init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        )
    elif config["ENGINE"] == "django.db.backends.postgresql":
        pool_max = envint("DB_POOL_MAX", "4")
        if pool_max < 0:
            raise ImproperlyConfigured(f"DB_POOL_MAX must be 0 or more, got {pool_max}")
        if pool_max:
            # A pool hands connections out per request; Django requires CONN_MAX_AGE 0.
            options["pool"] = {"min_size": 1, "max_size": pool_max, "timeout": 10}
            config["CONN_MAX_AGE"] = 0
            config["CONN_HEALTH_CHECKS"] = False
    return config


DATABASES = {"default": database(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Persistent connections: each of a gunicorn worker's threads holds at most one
# connection, kept CONN_MAX_AGE seconds (0: closed after each request) and
# checked before reuse. SQLite's too: opening the file again costs a request about 3 ms
# (the schema read afresh), more than a kept public page takes to answer; a restore copies
# into the same file, so a kept connection reads the restored club. A connection pool, if
# the DATABASES block sets one, needs CONN_MAX_AGE 0, so it is left alone.
_database = DATABASES["default"]
if not _database.get("OPTIONS", {}).get("pool"):
    _database["CONN_MAX_AGE"] = envint("CONN_MAX_AGE", "60")
    _database["CONN_HEALTH_CHECKS"] = True

# django-axes first: it refuses a login (even with the right password) once the same
# username has failed AXES_FAILURE_LIMIT times from the same address, for
# AXES_COOLOFF_MINUTES; a successful login clears the count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = envbool("AXES_ENABLED", "True")
AXES_USERNAME_CALLABLE = "clubratings.security.axes_username"
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "5")
AXES_COOLOFF_TIME = dt.timedelta(minutes=envint("AXES_COOLOFF_MINUTES", "15"))
# Username and address together: a stranger guessing an officer's password is stopped
# without locking the officer out from their own machine.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "clubratings.security.locked_out"
# Behind a reverse proxy every request comes from the proxy's address: with
# PROXY_COUNT proxies in front (each appending to X-Forwarded-For), the client's
# address is read from that header instead.
PROXY_COUNT = envint("PROXY_COUNT", "0")
# The read API's throttle counts the client's address behind as many proxies, never a
# forwarded address a client could write itself.
NINJA_NUM_PROXIES = PROXY_COUNT


def caches(url: str) -> dict[str, dict[str, object]]:
    """CACHE_URL as Django's CACHES. Empty or ``locmem://``: each process's own memory (no
    server; what a one-machine club needs); ``redis://HOST:PORT/DB`` (or ``rediss://``):
    a Redis shared by every process (needs the ``redis`` package);
    ``memcached://HOST:PORT``: a Memcached (needs ``pymemcache``); ``dummy://``: none.
    The public pages and the read API are kept there (clubratings/cache.py), and the
    API's throttle counts callers there."""
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme in ("", "locmem"):
        # Pages are 10-100 kB: some thousands of them stay well within a worker's memory.
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": rest or "club-ratings",
                "OPTIONS": {"MAX_ENTRIES": envint("CACHE_MAX_ENTRIES", "2000")},
            }
        }
    if scheme in ("redis", "rediss"):
        return {
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        }
    if scheme in ("memcached", "pymemcache"):
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
                "LOCATION": rest.rstrip("/"),
            }
        }
    if scheme == "dummy":
        return {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    raise ImproperlyConfigured(
        f"CACHE_URL must start locmem://, redis://, rediss://, memcached:// or dummy://, "
        f"got {url!r}"
    )


CACHES = caches(os.getenv("CACHE_URL", "").strip())


def email(url: str, *, development: bool) -> dict[str, Any]:
    """EMAIL_URL as Django's EMAIL_* settings (dj-email-url's URL forms; that package has
    had no release since 2022, and this is all of it the club needs).

    ``smtp://USER:PASSWORD@HOST:PORT`` (``?tls=True`` for STARTTLS, ``?ssl=True`` or
    ``smtps://`` for TLS from the start, ``?timeout=SECONDS``); user and password
    percent-encoded. ``console://``: printed by the process that sends it (the worker).
    ``locmem://``: kept in memory (tests). ``file:///PATH``: a file a message.
    ``dummy://``: dropped. ``anymail://BACKEND``: an anymail provider's backend, e.g.
    ``anymail://anymail.backends.postmark.EmailBackend`` (its own settings in ANYMAIL).
    Empty: the console while developing or trying the demo (``make run`` prints its
    mail), SMTP on this machine's port 25 in production, so that with no mail server
    each message is retried and then logged as failed (not printed and logged as sent).
    """
    # Django's own defaults, each overridden by what the URL says.
    out: dict[str, Any] = {
        "EMAIL_HOST": "localhost",
        "EMAIL_PORT": 25,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
        "EMAIL_TIMEOUT": None,
        "EMAIL_FILE_PATH": "",
    }
    if not url:
        url = "console://" if development else "smtp://localhost:25"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL is not a mail URL: {error}") from None
    scheme = parts.scheme.lower()
    simple = {
        "console": "django.core.mail.backends.console.EmailBackend",
        "locmem": "django.core.mail.backends.locmem.EmailBackend",
        "dummy": "django.core.mail.backends.dummy.EmailBackend",
    }
    if scheme in simple:
        return out | {"EMAIL_BACKEND": simple[scheme]}
    if scheme == "file":
        if not parts.path:
            raise ImproperlyConfigured("EMAIL_URL file:/// needs a folder, e.g. file:///tmp/mail")
        return out | {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": parts.path,
        }
    if scheme == "anymail":
        backend = parts.netloc + parts.path
        if not backend.startswith("anymail.backends."):
            raise ImproperlyConfigured(
                f"EMAIL_URL anymail:// names an anymail backend, e.g. "
                f"anymail://anymail.backends.postmark.EmailBackend, got {url!r}"
            )
        return out | {"EMAIL_BACKEND": backend}
    if scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured(
            "EMAIL_URL must start smtp://, smtps://, console://, locmem://, file://, "
            f"dummy:// or anymail://, got {parts.scheme + '://' if parts.scheme else url!r}"
        )
    if not parts.hostname:
        raise ImproperlyConfigured(f"EMAIL_URL names no mail server: {url!r}")
    query = {key.lower(): values[-1] for key, values in parse_qs(parts.query).items()}

    def flag(name: str) -> bool:
        value = query.get(name, "false").strip().lower()
        if value not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            raise ImproperlyConfigured(f"EMAIL_URL's {name} must be true or false, got {value!r}")
        return value in ("1", "true", "yes", "on")

    use_ssl = scheme == "smtps" or flag("ssl")
    use_tls = flag("tls")
    if use_ssl and use_tls:
        raise ImproperlyConfigured("EMAIL_URL: tls (STARTTLS) and ssl cannot both be on")
    timeout: float | None = None
    if "timeout" in query:
        try:
            timeout = float(query["timeout"])
        except ValueError:
            raise ImproperlyConfigured(
                f"EMAIL_URL's timeout must be a number of seconds, got {query['timeout']!r}"
            ) from None
    return out | {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if use_ssl else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
        # A worker never waits forever on a silent server: the message is retried.
        "EMAIL_TIMEOUT": timeout if timeout is not None else 30.0,
    }


# The club's mail (docs/deployment.md, "Mail"): how it leaves (EMAIL_URL), and from whom when the
# club's settings name no sender. Every message is queued for the worker after the
# transaction commits and logged (ratings.models.MailMessage).
_EMAIL = email(os.getenv("EMAIL_URL", "").strip(), development=_DEVELOPMENT)
EMAIL_BACKEND: str = _EMAIL["EMAIL_BACKEND"]
EMAIL_HOST: str = _EMAIL["EMAIL_HOST"]
EMAIL_PORT: int = _EMAIL["EMAIL_PORT"]
EMAIL_HOST_USER: str = _EMAIL["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD: str = _EMAIL["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS: bool = _EMAIL["EMAIL_USE_TLS"]
EMAIL_USE_SSL: bool = _EMAIL["EMAIL_USE_SSL"]
EMAIL_TIMEOUT: float | None = _EMAIL["EMAIL_TIMEOUT"]
EMAIL_FILE_PATH: str = _EMAIL["EMAIL_FILE_PATH"]
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "ratings@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A message the mail server refused for now (SMTP error, connection lost) is tried this
# many times in all, waiting MAIL_RETRY_SECONDS, then twice that, and so on, then logged
# as failed.
MAIL_ATTEMPTS = envint("MAIL_ATTEMPTS", "5")
MAIL_RETRY_SECONDS = envint("MAIL_RETRY_SECONDS", "60")
if MAIL_ATTEMPTS < 1 or MAIL_RETRY_SECONDS < 0:
    raise ImproperlyConfigured("MAIL_ATTEMPTS must be 1 or more, MAIL_RETRY_SECONDS 0 or more")

# Requests an anonymous caller of the read API may make (django-ninja's rate: N/s, N/min,
# N/hour, N/day); more are answered 429. Counted in the cache (CACHE_URL: each
# process's own unless shared).
API_ANON_RATE = os.environ.get("API_ANON_RATE", "120/min")
AXES_CLIENT_IP_CALLABLE = "clubratings.security.client_ip"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "ratings:officer-home"
LOGOUT_REDIRECT_URL = "ratings:list"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.getenv("TIME_ZONE", "UTC")
USE_I18N = True
# 24-hour times everywhere, the admin included (Django's English formats are 12-hour).
FORMAT_MODULE_PATH = ["clubratings.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if _DEVELOPMENT
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# WhiteNoise serves the static files: from the project's folders while developing or
# trying the demo (no collectstatic), from STATIC_ROOT in production.
WHITENOISE_USE_FINDERS = _DEVELOPMENT

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

# A re-rate expected to take longer than this many seconds runs in the background.
# The estimate is the last runs' pace slowed by the machine's load now
# (services.rerate_in_the_page), and a page never waits for more than
# RERATE_FOREGROUND_GAMES games however fast the last runs went.
RERATE_FOREGROUND_SECONDS = float(os.getenv("RERATE_FOREGROUND_SECONDS", "2"))
RERATE_FOREGROUND_GAMES = envint("RERATE_FOREGROUND_GAMES", "20000")
# A worker carrying a run out says it is alive this often; a run silent for the lapse
# (and holding no lock) lost its worker, and another worker takes it over.
RERATE_HEARTBEAT_SECONDS = float(os.getenv("RERATE_HEARTBEAT_SECONDS", "5"))
RERATE_HEARTBEAT_LAPSE = float(os.getenv("RERATE_HEARTBEAT_LAPSE", "30"))
# A members CSV of more rows than this is read and saved by the worker, its page following
# it (a 60,000-row register took 36 s to read and 129 s to save inside the request);
# a shorter one is read and saved in the page, as ever.
MEMBER_IMPORT_FOREGROUND_ROWS = envint("MEMBER_IMPORT_FOREGROUND_ROWS", "2000")
# A list page (published, live, filtered) of a list of at most this many rows carries the
# list's other rows too, hidden on screen, so that the browser's own Print prints the
# whole list (ratings/pages/list_print.py); a longer list's page loads the whole list as
# printing starts (static/js/public.js). 0: never carried.
PRINT_WHOLE_LIST_ROWS = envint("PRINT_WHOLE_LIST_ROWS", "300")

# Background re-rates: queued in the database, run by `manage.py db_worker` (make run
# starts it). TASKS_BACKEND=immediate runs them in the request instead (tests, no worker).
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if os.getenv("TASKS_BACKEND", "database") == "immediate"
        else "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}

if not _DEVELOPMENT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "True")
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
    "loggers": {"ratings": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
