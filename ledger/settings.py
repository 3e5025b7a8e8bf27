"""Settings of the ledger: SQLite by default, PostgreSQL through DATABASE_URL."""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    """Read a yes/no setting from the environment; fail loudly on anything else."""
    value = os.environ.get(name, default).lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


# Safe by default (issue 9): DEBUG only when asked for (scripts/run sets DEBUG=true).
DEBUG = envbool("DEBUG", "false")


def secret_key() -> str:
    """SECRET_KEY from the environment; else one generated once and kept in an ignored file (never built in)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        import secrets
        key = secrets.token_urlsafe(50)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process wrote it first
            return path.read_text().strip()
        with os.fdopen(fd, "w") as handle:
            handle.write(key)
        return key


SECRET_KEY = secret_key()
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]
if DEBUG and "ALLOWED_HOSTS" not in os.environ:
    # A debug server on 0.0.0.0 serves the phones on the local network by this machine's names and addresses.
    from ledger.web.lan import local_hosts
    ALLOWED_HOSTS += local_hosts()

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "ledger",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ledger.web.middleware.ApiSlashMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "ledger.web.middleware.ChineseFirstMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "ledger.web.http_limits.BodyLimitMiddleware",
    "ledger.web.security.ContentSecurityPolicyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ledger.views.language.AccountLanguageMiddleware",
    "ledger.web.middleware.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: the page it puts in for a bare 405 goes out through the others (messages, frame options, caching).
    "ledger.web.middleware.FormAddressMiddleware",
]

ROOT_URLCONF = "ledger.urls"
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
                "django.template.context_processors.i18n",
            ],
        },
    },
]
WSGI_APPLICATION = "ledger.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0"))),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction begins (no "database is locked" on upgrade) and wait for it.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "ledger.web.passwords.MinimumLengthValidator"},  # worded in Chinese and English
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Request bodies: 64 KiB a request, the backup import 16 MiB (ledger/web/http_limits.py, which enforces the per-path
# limits while the body arrives); Django's own bound is the largest of them, so a backup reaches the import.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024 * 1024
# Failed sign-ins are throttled per username and per address (ledger/web/login_throttle.py).
AUTHENTICATION_BACKENDS = ["ledger.web.login_throttle.ThrottledModelBackend"]
LOGIN_FAILURES_PER_USER = int(os.environ.get("LOGIN_FAILURES_PER_USER", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS", "20"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
# The default cache is a database table, shared by every worker process. Rate limits count elsewhere:
# ledger/web/counters.py (Redis with REDIS_URL, else a table of their own), each step atomic.
# "pieces": rendered HTML without a form (hand cards, audit rows, the group page's body) and the statistics, under
# keys made of what they were computed from (immutable ids, the group's generations, language), so an entry is never
# stale and each worker may keep its own; the oldest go first past MAX_ENTRIES (about 1 KB each).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "ledger_cache",
                      "OPTIONS": {"MAX_ENTRIES": 10000}},
          "pieces": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ledger-pieces",
                     "TIMEOUT": None, "OPTIONS": {"MAX_ENTRIES": 5000}}}

# Simplified Chinese by default; English on request (the language switch or Accept-Language).
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60  # the language switch outlives the browser session (and follows the account)
# One catalogue per area (so work on groups, evenings and statistics never edits the same file); the first wins.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "groups",
                BASE_DIR / "locale" / "evenings", BASE_DIR / "locale" / "stats",
                BASE_DIR / "locale" / "offline"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Shanghai")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The few Pyodide files the table page's engine needs offline, from the pinned npm package (package.json).
STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder",
                       "django.contrib.staticfiles.finders.AppDirectoriesFinder",
                       "ledger.views.engine_files.PyodideFinder"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
                    if not DEBUG else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "night-list"
LOGOUT_REDIRECT_URL = "login"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",  # first: unauthenticated calls get 401
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PARSER_CLASSES": ["ledger.web.http_limits.BoundedJSONParser"],
    # JSON only: the API's answers are the documents of HAND_FORMAT.md, whatever a browser's Accept header asks
    # (DRF's browsable pages answered a browser with HTML, a CSRF cookie included).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "ledger.api.errors.exception_handler",
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "成都麻将记账 Chengdu mahjong ledger API",
    "DESCRIPTION": "Record nights of 血战到底, score hands (HAND_FORMAT.md), totals and settlement.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request and response components apart: a read-only field (the token's `token`) is never asked of a client.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "ledger.api.schema.postprocess"],
}
# API throttles (ledger/api/throttles.py): the calculator per address, writes per user. The calculator's limit is
# a flood guard, not a quota: a club's phones on one Wi-Fi share one public address (20 tables previewing every
# change), and 20 requests a second is a small share of what four workers serve.
LEDGER_THROTTLE_RATES = {"calculator": os.environ.get("THROTTLE_CALCULATOR", "1200/min"),
                         "write": os.environ.get("THROTTLE_WRITES", "120/min")}

# Behind HTTPS (production): HTTPS=true turns on redirects, secure cookies and HSTS.
HTTPS = envbool("HTTPS", "false")
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS
if envbool("BEHIND_PROXY", "false"):  # a reverse proxy that terminates TLS and sets X-Forwarded-Proto
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
                           "frame-ancestors 'none'; form-action 'self'")

# Errors go to stderr: 500s with their traceback (django.request, ledger.api), whatever DEBUG says.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "plain"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "django.security": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        "ledger": {"handlers": ["stderr"], "level": os.environ.get("LOG_LEVEL", "WARNING"), "propagate": False},
    },
}
WHITENOISE_USE_FINDERS = True  # serve static files without collectstatic too (tests, scripts/run)
WHITENOISE_AUTOREFRESH = DEBUG

# Live pages (Django Channels, served by uvicorn: ledger.asgi). One process needs nothing more: the channel
# layer is in memory. With REDIS_URL, several processes share the events (channels-redis); REDIS_PREFIX keeps
# this app's keys apart from anything else on that Redis.
ASGI_APPLICATION = "ledger.asgi.application"
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "ledger")
if REDIS_URL:
    # A socket's consumer waits for its messages with BZPOPMIN of 5 s (channels-redis' brpop_timeout); redis-py 8
    # reads every reply within socket_timeout, 5 s by default, so an idle socket's wait could time out first and
    # the socket dropped with a TimeoutError (seen in bench/bench_capacity.py): the read is given 15 s. Each open
    # socket holds one connection of the process's pool while it waits, and redis-py's pool holds 100 by default:
    # the 101st socket of a worker failed (MaxConnectionsError); REDIS_MAX_CONNECTIONS per worker, 2000 by default.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                  "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15, "max_connections":
                                                        int(os.environ.get("REDIS_MAX_CONNECTIONS", "2000"))}],
                                             "prefix": REDIS_PREFIX}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Database connections. On PostgreSQL, Django's connection pool (psycopg_pool, Django 5.1): each request borrows
# one of at most PG_POOL connections of its process (default 4; 2 kept open), checked before it is lent, and gives it
# back when it ends; a request waits (at most 20 s) while all are lent. Served under ASGI (uvicorn, as the README
# serves the app) each request runs in a thread of its own, so a connection kept by its thread (CONN_MAX_AGE) is never
# reused: without the pool every request opened one (a new PostgreSQL backend) and nothing bounded them
# (bench/README.md, stop 28: the capacity run's save p95 891 ms without, 210 ms with). 4, not more: after a database
# restart psycopg_pool waits 1, 2, 4 s between the dropped connections it discards, so a worker's first request waits
# at most about 7 s, inside the 20 s, rather than a 500 (tests/web/test_db_reconnect.py). CONN_MAX_AGE (seconds a
# thread keeps its connection, "none" for ever; for a WSGI server, whose threads live as long as it does) or PG_POOL=0
# turns the pool off; CONN_HEALTH_CHECKS then checks a kept connection before reuse. SQLite: a connection a request.
_postgresql = DATABASES["default"]["ENGINE"].endswith("postgresql")
_conn_max_age = os.environ.get("CONN_MAX_AGE", "0")
PG_POOL = int(os.environ.get("PG_POOL", "4" if _conn_max_age == "0" else "0")) if _postgresql else 0
DATABASES["default"]["CONN_MAX_AGE"] = None if _conn_max_age.lower() == "none" else int(_conn_max_age)
if PG_POOL and DATABASES["default"]["CONN_MAX_AGE"] != 0:
    raise ImproperlyConfigured("PG_POOL and CONN_MAX_AGE exclude each other: set one of them (README)")
DATABASES["default"]["CONN_HEALTH_CHECKS"] = envbool(
    "CONN_HEALTH_CHECKS", "true" if DATABASES["default"]["CONN_MAX_AGE"] != 0 or PG_POOL else "false")
if PG_POOL:
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": min(2, PG_POOL), "max_size": PG_POOL,
                                                               "timeout": 20}
# Prepared statements on PostgreSQL (Django's documented OPTIONS for psycopg 3): parameters bound by the server
# (`server_side_binding`), and a statement a connection has run five times (`prepare_threshold`, psycopg's default)
# prepared, so PostgreSQL parses and plans it once per connection: 7-19% more hands a second under load
# (bench/README.md, stop 27). PG_PREPARED=false turns both off (Django's defaults), e.g. behind a pooler in
# transaction mode, which cannot keep a connection's prepared statements.
if _postgresql and envbool("PG_PREPARED", "true"):
    DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 5})
