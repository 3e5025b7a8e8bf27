"""Safe by default (issue 9, hole 6): DEBUG off, no built-in secret, check --deploy clean, logs, CSP, no inline script."""
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.test import Client, RequestFactory

from ledger.api.errors import server_error

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"DEBUG": "false", "ALLOWED_HOSTS": "ledger.example.com", "HTTPS": "true"}


def run(code, **env):
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "HTTPS")}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True,
                          text=True, check=True).stdout.strip()


SETTINGS = "import os; os.environ['DJANGO_SETTINGS_MODULE']='ledger.settings'; from django.conf import settings; "


def test_debug_is_off_unless_set(tmp_path):
    assert run(SETTINGS + "print(settings.DEBUG)", SECRET_KEY_FILE=str(tmp_path / "k")) == "False"
    assert run(SETTINGS + "print(settings.DEBUG)", DEBUG="true", SECRET_KEY_FILE=str(tmp_path / "k")) == "True"


def test_the_dev_command_turns_debug_on():
    assert "DEBUG=${DEBUG:-true}" in (ROOT / "scripts" / "run").read_text()


def test_without_a_secret_key_one_is_generated_once_and_kept_private(tmp_path):
    path = tmp_path / "secret"
    first = run(SETTINGS + "print(settings.SECRET_KEY)", SECRET_KEY_FILE=str(path))
    second = run(SETTINGS + "print(settings.SECRET_KEY)", SECRET_KEY_FILE=str(path))
    assert first == second == path.read_text() and len(first) >= 50
    assert path.stat().st_mode & 0o077 == 0
    assert "dev-only" not in (ROOT / "ledger" / "settings.py").read_text()


def test_the_secret_key_from_the_environment_wins(tmp_path):
    assert run(SETTINGS + "print(settings.SECRET_KEY)", SECRET_KEY="k" * 60, SECRET_KEY_FILE=str(tmp_path / "k")) == "k" * 60


def test_check_deploy_is_clean_with_the_production_settings_of_the_readme():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                            env={**env, **PRODUCTION, "SECRET_KEY": secrets.token_urlsafe(50)},
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_server_errors_are_logged_to_stderr_with_their_traceback():
    handlers = settings.LOGGING["handlers"]
    for name in ("django.request", "ledger"):
        logger = settings.LOGGING["loggers"][name]
        assert logger["level"] in ("ERROR", "WARNING") and handlers[logger["handlers"][0]]["stream"] == "ext://sys.stderr"


def test_a_500_under_the_api_is_json_even_outside_drf():
    response = server_error(RequestFactory().get("/api/nights/"))
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    assert list(__import__("json").loads(response.content)) == ["errors"]


def test_pages_send_a_content_security_policy_with_scripts_from_self_only(db):
    response = Client().get("/login/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy


def test_no_template_holds_inline_script():
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template
        assert not re.search(r"\son[a-z]+\s*=", text), template


def test_postgresql_lends_connections_from_a_pool_unless_a_server_keeps_them(tmp_path):
    """PG_POOL (default 4) for the README's uvicorn; CONN_MAX_AGE (a WSGI server's kept connections) or PG_POOL=0
    turns it off; both at once is refused here, as Django would refuse it at the first query."""
    code = SETTINGS + "d = settings.DATABASES['default']; print(d['CONN_MAX_AGE'], d['OPTIONS'].get('pool'))"
    env = {k: v for k, v in os.environ.items() if k not in ("CONN_MAX_AGE", "PG_POOL", "SECRET_KEY", "DEBUG")}
    env.update(DATABASE_URL="postgres://postgres@127.0.0.1:5432/any", SECRET_KEY_FILE=str(tmp_path / "k"),
               DJANGO_SETTINGS_MODULE="ledger.settings")

    def read(**more):
        return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, **more}, capture_output=True,
                              text=True)
    assert read().stdout.strip() == "0 {'min_size': 2, 'max_size': 4, 'timeout': 20}"
    assert read(PG_POOL="8").stdout.strip() == "0 {'min_size': 2, 'max_size': 8, 'timeout': 20}"
    assert read(CONN_MAX_AGE="60").stdout.strip() == "60 None"
    assert read(PG_POOL="0").stdout.strip() == "0 None"
    refused = read(CONN_MAX_AGE="60", PG_POOL="4")
    assert refused.returncode != 0 and "PG_POOL and CONN_MAX_AGE exclude each other" in refused.stderr
