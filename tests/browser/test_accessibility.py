"""WCAG 2.2 AA on every page: axe-core checks every URL of the site (the permission
matrix's list) at 1280 and at 390 px, each once, as the role that sees most of it (a
visitor, the officer, the administrator), and each form both empty and answered with its
errors (an empty POST). A tournament director's and a treasurer's own menu is checked as
theirs.

axe-core comes from the PyPI package axe-playwright-python (its axe.min.js, no CDN); it
is put into each page as it opens by the browser context (an init script, through
Playwright), which the Content-Security-Policy does not see. One browser page per part of
a role's pages, each URL loaded once and checked at both widths (the viewport resized, no
reload). axe's own runs are most of the time (docs/development.md, "The test loop").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings
from django.db import transaction
from django.test import Client

from ..web.matrix_club import Club, build_club, every_pattern, url_for
from ..web.test_permission_matrix import TABLE, production_tasks

__all__ = ["production_tasks"]  # the fixture, used by name

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = (1280, 390)

#: What axe checks: WCAG 2.0, 2.1 and 2.2, levels A and AA (2.2's: target size), and the
#: best practices the issue names (headings in order, landmarks, a page's one main heading).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    "resultTypes": ["violations"],
    # Before a rule that needs them, axe "preloads" both its assets by default: the media's
    # metadata (no-autoplay-audio) and the CSSOM, every style sheet read and parsed again
    # (Bootstrap's 230 kB among them) on every run, for css-orientation-lock alone, an
    # experimental rule these tags do not run. Asked for the media only, the same rules
    # run with what they read: a third of axe's time on the officer's admin pages
    # (``test_no_rule_axe_runs_here_needs_the_cssom`` keeps it true of axe's next version).
    "preload": {"assets": ["media"]},
}

#: axe's results as the check reads them: the violations alone. The rest (every rule's
#: passes and inapplicable, one node each) was 50 kB a run to send back over Playwright.
AXE_RUN = "options => axe.run(document, options).then((results) => results.violations)"

#: A form that has fields to fill: one that can come back with errors. A confirmation
#: (delete, remove, mark complete) is a button whose POST is the deed itself.
FIELDS = (
    "form[method=post i] :is(input:not([type=hidden]):not([type=submit]):not([type=button]),"
    " select, textarea)"
)


def takes_input(page, key: str) -> bool:
    return not key.endswith("_delete") and page.locator(FIELDS).count() > 0


@dataclass
class Findings:
    pages: int = 0
    runs: int = 0
    by_rule: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, where: str, violations: list[dict[str, Any]]) -> None:
        self.runs += 1
        for violation in violations:
            for node in violation["nodes"]:
                target = " ".join(str(t) for t in node["target"])
                self.by_rule[violation["id"]].append(f"{where}: {target} {node['html'][:120]}")

    def report(self) -> str:
        lines = [f"{self.count()} failing elements in {self.runs} runs on {self.pages} pages"]
        for rule, nodes in sorted(self.by_rule.items()):
            lines.append(f"{rule} ({len(nodes)}):")
            lines += [f"  {node}" for node in nodes[:15]]
            if len(nodes) > 15:
                lines.append(f"  ... and {len(nodes) - 15} more")
        return "\n".join(lines)

    def count(self) -> int:
        return sum(len(nodes) for nodes in self.by_rule.values())


def check(page, where: str, findings: Findings) -> None:
    """axe at each width on the page as loaded."""
    findings.pages += 1
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        findings.add(f"{where} @{width}", page.evaluate(AXE_RUN, AXE_OPTIONS))
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})


def is_html(response) -> bool:
    return response is not None and "text/html" in response.headers.get("content-type", "")


SUBMIT_EMPTY = """() => {
  const token = document.querySelector('form[method=post] input[name=csrfmiddlewaretoken]');
  const form = document.createElement('form');
  form.method = 'post';
  form.action = location.href;
  if (token) form.append(token.cloneNode());
  document.body.append(form);
  form.submit();
}"""


def goto(page, url: str):
    """The page at url, or None for a file the browser downloads (a CSV)."""
    from playwright.sync_api import Error

    try:
        return page.goto(url)
    except Error as error:
        if "Download is starting" in error.message:
            return None
        raise


def log_in(context, live_server, club: Club, role: str) -> None:
    user = club.users[role]
    if user is None:
        return
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


def columns(key: str, role: str) -> tuple[str, str]:
    get, post = TABLE[key][role].split()
    return get, post


#: A tournament director's and a treasurer's pages are the officer's, showing less: the
#: same templates (``test_a_helpers_pages_left_to_the_officer_use_no_template_of_their_own``
#: checks it) without the officer's buttons. The officer's run checks each of them with
#: all it shows; a helper's run checks what is theirs alone, their menu, on their home
#: pages and on one form of theirs, empty and with its errors.
HELPERS_OWN = {
    "director": {"ratings:home", "ratings:officer-home", "ratings:officer-round"},
    "treasurer": {"ratings:home", "ratings:officer-home", "ratings:officer-member"},
}


def theirs(key: str, role: str) -> bool:
    """Whether the role's run checks the page: the visitor every page it may open; the
    officer the pages a visitor may not (a public page differs for them only by the menu,
    checked on the home page); a director and a treasurer their menu (``HELPERS_OWN``); the
    administrator the pages the officer may not open, or only reads (the admin's forms)."""
    if key == "ratings:home" or role == "anonymous":
        return True
    if role in HELPERS_OWN:
        return key in HELPERS_OWN[role]
    if role == "officer":
        return columns(key, "anonymous")[0] != "ok"
    return columns(key, "officer") != columns(key, role)


def _model(key: str) -> str:
    """The admin's model a page is of (its list, forms and history kept in one part, so a
    page reached again by a redirect is seen once), else the key."""
    if key.startswith("admin/"):  # admin/<app>/<model>/<path:object_id>/
        return "_".join(key.split("/")[1:3])
    for kind in ("_changelist", "_simple_history", "_history", "_add", "_delete", "_change"):
        if key.startswith("admin:") and key.endswith(kind) and key != "admin:password_change":
            return key.removeprefix("admin:").removesuffix(kind)
    return key


#: The admin's history and delete pages are Django's templates (and the club's few of its
#: own), each reused for every model: 44 pages, 88 axe runs, over the officer's and the
#: administrator's runs. The runs check one page of each kind, as its role sees it;
#: ``test_every_admin_history_and_delete_page_is_made_as_a_checked_one_is`` shows every
#: other model's page made of the same templates as one of these, and of no other.
#: (A ``_simple_history`` page, a record as it was, is a change form: each model its own
#: fields, all checked.)
REPRESENTATIVES = {
    "admin:ratings_member_history": "the audit trail (django-simple-history's list)",
    "admin:ratings_season_history": "Django's own history, for a model without the trail",
    "admin:ratings_event_delete": "an event's deletion: the re-rate, the members it brought in",
    "admin:ratings_game_delete": "the club's deletion page: the re-rate, the reason asked",
    "admin:ratings_member_delete": "a deletion refused: related records the role may not delete",
    "admin:auth_group_delete": "Django's deletion page, with related records listed",
    "admin:axes_accessattempt_delete": "Django's deletion page, nothing related",
}


def stood_for(key: str) -> bool:
    """Whether the page is an admin's history or delete page a representative's stands for."""
    if not key.startswith("admin:") or key.endswith("_simple_history"):
        return False
    return key.endswith(("_history", "_delete")) and key not in REPRESENTATIVES


#: Pages a test checks at most. The officer's hundred and forty pages in one test took
#: 145 s on a quiet machine, and xdist gives a test whole to one worker: the run's last
#: minutes went on one worker finishing it. In parts of about 20 pages (30 to 100 s at a
#: load of 12 to 21, under 40 s quiet), a worker short of tests takes the next part.
PAGES_PER_PART = 20


@cache
def parts(role: str) -> tuple[tuple[str, ...], ...]:
    """The keys the role's run checks, in the matrix's order, in parts: an admin's model
    is not split between parts."""
    groups: dict[str, list[str]] = {}
    for pattern in every_pattern():
        if stood_for(pattern.key):
            continue
        if columns(pattern.key, role)[0] == "ok" and theirs(pattern.key, role):
            groups.setdefault(_model(pattern.key), []).append(pattern.key)
    total = sum(len(keys) for keys in groups.values())
    found: list[list[str]] = [[] for _ in range(-(-total // PAGES_PER_PART))]
    done = 0
    for keys in groups.values():  # each group in the part its middle falls in
        found[int((done + len(keys) / 2) * len(found) / total)] += keys
        done += len(keys)
    return tuple(tuple(keys) for keys in found)


ROLES = ("anonymous", "director", "treasurer", "officer", "administrator")


@pytest.mark.parametrize(
    ("role", "part"),
    [
        pytest.param(role, number, id=f"{role}-{number + 1}")
        for role in ROLES
        for number in range(len(parts(role)))
    ],
)
def test_every_page_passes_axe_at_both_widths(
    browser, live_server, role: str, part: int, production_tasks
) -> None:
    club = build_club()
    context = browser.new_context(base_url=live_server.url)
    # axe in every document the context opens, before its own scripts: no 500 kB sent
    # over Playwright's pipe and evaluated again for each of a run's hundred-odd pages.
    context.add_init_script(script=AXE_SCRIPT)
    log_in(context, live_server, club, role)
    page = context.new_page()
    page.set_default_timeout(15_000)
    findings = Findings()
    seen: set[str] = set()
    with_forms: list[tuple[str, str]] = []
    patterns = {pattern.key: pattern for pattern in every_pattern()}
    for key in parts(role)[part]:
        post = columns(key, role)[1]
        url = url_for(patterns[key], club)
        response = goto(page, url)
        if not is_html(response) or page.url in seen:
            continue
        seen.add(page.url)
        check(page, f"GET {url}", findings)
        if post == "ok" and takes_input(page, key):
            with_forms.append((key, url))
    # The forms with their errors last: an empty POST may still act (retry a run).
    for _key, url in with_forms:
        page.goto(url)
        with page.expect_navigation() as answer:
            page.evaluate(SUBMIT_EMPTY)
        response = answer.value
        if response.request.method == "POST" and response.status == 200 and is_html(response):
            check(page, f"POST {url}", findings)
    context.close()
    assert findings.pages > 0
    assert findings.count() == 0, findings.report()


def _templates(club: Club, role: str, method: str, url: str) -> set[str]:
    user = club.users[role]
    assert user is not None
    client = Client()
    client.force_login(user)
    with transaction.atomic():  # rolled back: an empty POST's deed never stays
        response = client.get(url) if method == "GET" else client.post(url, {})
        transaction.set_rollback(True)
    return {template.name for template in response.templates if template.name}


def test_a_helpers_pages_left_to_the_officer_use_no_template_of_their_own(
    production_tasks,
) -> None:
    """Every page a director or a treasurer may open and a member may not, other than their
    own (``HELPERS_OWN``), is checked by the officer's run, and is made for them, empty and
    with its errors, of templates the officer's page is made of too."""
    club = build_club()
    patterns = {pattern.key: pattern for pattern in every_pattern()}
    left, own_templates = [], []
    for role in HELPERS_OWN:
        for key, pattern in patterns.items():
            get, post = columns(key, role)
            if get != "ok" or columns(key, "member")[0] == "ok" or theirs(key, role):
                continue
            left.append(key)
            assert theirs(key, "officer") and columns(key, "officer") == ("ok", "ok"), key
            url = url_for(pattern, club)
            for method in ("GET", "POST") if post == "ok" else ("GET",):
                extra = _templates(club, role, method, url) - _templates(
                    club, "officer", method, url
                )
                if extra:
                    own_templates.append(f"{role} {method} {url}: {sorted(extra)}")
    assert left and own_templates == [], "\n".join(own_templates)


def test_every_admin_history_and_delete_page_is_made_as_a_checked_one_is(
    production_tasks,
) -> None:
    """An admin's history or delete page the officer's or the administrator's run leaves
    out (``stood_for``) is made, as that role sees it, of exactly the templates of a page
    the runs check (``REPRESENTATIVES``): a model given a template of its own is checked
    again, by being named a representative."""
    club = build_club()
    patterns = {pattern.key: pattern for pattern in every_pattern()}
    checked: dict[str, frozenset[str]] = {}
    for role in ("officer", "administrator"):
        for key in (key for part in parts(role) for key in part if key in REPRESENTATIVES):
            checked[key] = frozenset(_templates(club, role, "GET", url_for(patterns[key], club)))
    assert checked.keys() == REPRESENTATIVES.keys()  # each in a run
    left, unlike = 0, []
    for role in ("officer", "administrator"):
        for key, pattern in patterns.items():
            if not stood_for(key) or columns(key, role)[0] != "ok" or not theirs(key, role):
                continue
            left += 1
            templates = frozenset(_templates(club, role, "GET", url_for(pattern, club)))
            if templates not in checked.values():
                unlike.append(f"{role} {key}: {sorted(templates)}")
    assert left and unlike == [], "\n".join(unlike)


#: The rules the matrix's tags run that wait for preloaded assets, and what each reads:
#: no-autoplay-audio the media's metadata (its check, no-autoplay-audio-evaluate).
PRELOADING = {"no-autoplay-audio": "media"}

RULES_WAITING_FOR_ASSETS = "() => axe._audit.rules.filter((r) => r.preload).map((r) => r.id)"

ALL_RULES_RUN = """options => axe.run(document, options).then((results) =>
  [results.passes, results.violations, results.incomplete, results.inapplicable]
    .flat().map((rule) => rule.id))"""


def test_no_rule_axe_runs_here_needs_the_cssom(browser) -> None:
    """The matrix asks axe to preload the media alone (``AXE_OPTIONS``), not the CSSOM:
    of the rules its tags run, those that wait for preloaded assets are ``PRELOADING``'s,
    which read the media. A later axe with a rule of these tags that reads the style
    sheets fails this, until the CSSOM is asked for again."""
    page = browser.new_page()
    page.set_content("<!doctype html><html lang=en><title>A page</title><main><h1>A page</h1>")
    page.evaluate(AXE_SCRIPT)
    ran = set(page.evaluate(ALL_RULES_RUN, AXE_OPTIONS))
    waiting = set(page.evaluate(RULES_WAITING_FOR_ASSETS))
    page.close()
    assert len(ran) > 50  # the tags' rules, not an empty run
    assert ran & waiting == PRELOADING.keys()
    assert set(PRELOADING.values()) == set(AXE_OPTIONS["preload"]["assets"])


def test_the_first_run_page_passes_axe_at_both_widths(browser, live_server) -> None:
    """The page a fresh install greets its first visitor with (it is "Not found" once a
    login exists, so the matrix's club never sees it): empty, and sent with its errors."""
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    findings = Findings()
    page.goto("/start/")
    check(page, "GET /start/", findings)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the club").click()
    assert page.locator(".error-summary").count() == 1  # the page came back with errors
    check(page, "POST /start/", findings)
    context.close()
    assert findings.count() == 0, findings.report()


def test_the_csrf_failure_page_passes_axe_at_both_widths(browser, live_server) -> None:
    """The site's own page for a form sent without its token (an old tab, cookies
    blocked): no URL of its own, so the matrix never opens it."""
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    findings = Findings()
    page.goto("/accounts/login/")
    with page.expect_navigation() as answer:
        page.evaluate(
            """() => {
              document.querySelectorAll('input[name=csrfmiddlewaretoken]')
                .forEach((input) => input.remove());
              document.querySelector('form[method=post]').submit();
            }"""
        )
    assert answer.value.status == 403
    assert page.get_by_role("heading", name="The form could not be sent").count() == 1
    check(page, "POST /accounts/login/ without its token", findings)
    context.close()
    assert findings.count() == 0, findings.report()


#: Where the focus is, if on a control of the page's form that asks for something, and the
#: outline drawn around it; 'left' once the focus has left the page's last control (one
#: call a Tab, not two: 560 Tabs over the officer's forms).
FOCUSED_CONTROL = """() => {
  const e = document.activeElement;
  if (e === document.body) return 'left';
  if (!e.closest('form[method=post i]') || !e.matches('input, select, textarea, button')) {
    return null;
  }
  const s = getComputedStyle(e);
  return {control: `${e.tagName.toLowerCase()}#${e.id || e.name || e.textContent.trim()}`,
          style: s.outlineStyle, width: parseFloat(s.outlineWidth)};
}"""


def test_in_forced_colours_every_control_of_the_officers_forms_shows_its_focus(
    browser, live_server, production_tasks
) -> None:
    """Windows High Contrast drops box-shadows and the page's colours: each field, box and
    button of every form the officer fills in, reached by Tab, keeps an outline of its own
    (WCAG 2.4.7). One width: forced colours change no layout."""
    club = build_club()
    context = browser.new_context(base_url=live_server.url)
    log_in(context, live_server, club, "officer")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.emulate_media(forced_colors="active")
    unseen: list[str] = []
    forms = 0
    for pattern in every_pattern():
        get, post = columns(pattern.key, "officer")
        # The officer's own pages (a visitor may not open them); the admin's are Django's.
        if get != "ok" or post != "ok":
            continue
        if not theirs(pattern.key, "officer") or pattern.key == "ratings:home":
            continue
        url = url_for(pattern, club)
        # Known by its address without loading it (83 of the 121 pages, 15 s of the test's
        # 23 s of loading); an address that leads into the admin is still left out below.
        if "/admin/" in url:
            continue
        if not is_html(goto(page, url)) or "/admin/" in page.url:
            continue
        if not takes_input(page, pattern.key):
            continue
        forms += 1
        seen: set[str] = set()
        for _ in range(150):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUSED_CONTROL)
            if focused == "left":
                break
            if focused is None:
                continue
            if focused["control"] in seen:
                break  # round again: every control of the page met
            seen.add(focused["control"])
            if focused["style"] == "none" or focused["width"] < 2:
                unseen.append(f"{url}: {focused['control']}")
    context.close()
    assert forms > 0
    assert unseen == [], "\n".join(unseen)
