"""Real headless Chromium (Debian's package) driven by Playwright; never a downloaded browser.

Where /usr/bin/chromium is missing the browser tests skip, saying so (``make test``
installs it first where it can: scripts/ensure-chromium.sh).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# around it are ordinary blocking calls, which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(
            f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium); "
            "`make test` installs it where it can"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


#: Where each open browser context's live server answers, for the session cookie below.
_SERVED_AT: dict[object, str] = {}


def log_in_as(page, user) -> None:
    """``user``'s session given to the browser as a cookie, for a test whose subject is
    not the login form: the form's three page loads (the page, the login page, the post
    and its redirect) cost a second or more each time under load. The form itself is
    walked by the tests that are about logging in (test_club_of_many_people,
    test_officer_workflow's evening, test_password_reset)."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": _SERVED_AT[page.context]}]
    )


def log_in_through_the_form(page, username: str, password: str) -> None:
    """``username`` logged in as a person does, on the login page (for the tests whose
    subject the login is; ``log_in_as`` for the others)."""
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()


def _csp_violations(page) -> list[str]:
    """Collects what the Content-Security-Policy refuses on ``page`` (Chromium says so in
    the console): a page must work under the policy as it is."""
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return violations


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, base_url=live_server.url
    )
    _SERVED_AT[context] = live_server.url
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations = _csp_violations(page)
    yield page
    del _SERVED_AT[context]
    context.close()
    assert violations == [], "the Content-Security-Policy refused something"


@pytest.fixture
def phone_page(browser, live_server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    _SERVED_AT[context] = live_server.url
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations = _csp_violations(page)
    yield page
    del _SERVED_AT[context]
    context.close()
    assert violations == [], "the Content-Security-Policy refused something"
