"""Screenshots of every page at phone and desktop widths, and PDFs of the print views.

The pictures are taken here, by an engineer who wants to look at the pages, and never by
the tests: a screenshot checks nothing and costs a browser test a second or two. Like the
browser tests, it drives Debian's Chromium (/usr/bin/chromium) through Playwright.

Serve the demo first (``manage.py load_demo --if-empty`` then ``runserver 127.0.0.1:8123``),
then::

    .venv/bin/python scripts/screenshots.py [--base http://127.0.0.1:8123] [--out /tmp/shots]
                                            [--only NAME ...] [--pdf-only]

Writes ``<out>/<name>-phone.png``, ``<out>/<name>-desktop.png``, ``<out>/pdf/<name>.pdf`` and
``<out>/pdf/<name>-<page>.png`` (when pdftoppm is installed), and prints the pages whose
content is wider than the window (sideways scrolling on a phone) with the widest culprits.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
# As tests/browser/conftest.py starts it.
CHROMIUM_ARGS = [
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
TRF = Path(__file__).resolve().parents[1] / "tests/data/trf/gros-open-2010.trf"
OFFICER = ("officer", "officer-demo-2026")
ADMIN = ("admin", "admin-demo-2026")

# name, path, who (None, "officer", "admin"); {member}, {event}, ... filled in from the demo.
PAGES = [
    ("home", "/", None),
    ("list", "/ratings/", None),
    ("list-sorted", "/ratings/?sort=name&active=on", None),
    ("list-print", "/ratings/?per_page=500", None),  # what the list's Print button prints
    ("member", "/members/{member}/", None),
    ("event", "/events/{done}/", None),
    ("reports", "/reports/", None),
    *[
        (f"report-{slug}", f"/reports/{slug}/", None)
        for slug in ("top", "under-20", "under-16", "under-12", "women", "improvers", "active")
    ],
    ("calculator", "/calculator/", None),
    ("calculator-result", "calc", None),
    ("login", "/accounts/login/", None),
    ("live-list", "/ratings/live/", None),
    ("publications", "/ratings/published/", None),
    ("compare-public", "/compare/", None),
    ("api-docs", "/api/v1/docs/", None),
    ("officer-home", "/officer/", "officer"),
    ("officer-ratings", "/officer/ratings/", "officer"),
    ("officer-members", "/officer/members/", "officer"),
    ("officer-member-add", "/officer/members/add/", "officer"),
    ("officer-member", "/officer/members/{member_pk}/", "officer"),
    ("officer-events", "/officer/events/", "officer"),
    ("officer-event-add", "/officer/events/add/", "officer"),
    ("officer-event-draft", "/officer/events/{draft}/", "officer"),
    ("officer-event-done", "/officer/events/{done}/", "officer"),
    ("officer-event-edit", "/officer/events/{draft}/edit/", "officer"),
    ("officer-event-players", "/officer/events/{draft}/players/", "officer"),
    ("officer-round-1", "/officer/events/{draft}/rounds/1/", "officer"),
    ("officer-round-3", "/officer/events/{draft}/rounds/3/", "officer"),
    ("officer-paste", "/officer/events/{draft}/paste/", "officer"),
    ("officer-grid", "/officer/events/{rr}/grid/", "officer"),
    ("officer-complete", "/officer/events/{draft}/complete/", "officer"),
    ("officer-periods", "/officer/periods/", "officer"),
    ("officer-import", "/officer/import/", "officer"),
    ("officer-import-preview", "import", "officer"),
    ("event-report", "/events/{done}/report/", "officer"),
    ("event-crosstable", "/events/{done}/crosstable/", "officer"),
    ("event-crosstable-rr", "/events/{rr}/crosstable/", "officer"),
    ("officer-publish", "/officer/publish/", "officer"),
    ("officer-compare", "/officer/compare/", "officer"),
    ("runs", "/officer/runs/", "officer"),
    ("run", "/officer/runs/{run}/", "officer"),
    ("admin-games", "/admin/ratings/game/", "admin"),
    ("admin-game-history", "/admin/ratings/game/{game}/history/", "admin"),
]
PDFS = [
    "list",
    "list-print",
    "report-top",
    "report-improvers",
    "event",
    "member",
    "event-report",
    "event-crosstable",
    "event-crosstable-rr",
]
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}  # the browser tests' two widths

OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && r.width > 0 && !el.closest('.table-responsive')) {
      wide.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
        ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' ' + Math.round(r.right));
    }
  }
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 6)};
}"""


def demo_ids() -> dict[str, str]:
    """The demo's member with most history, the draft, the longest rated Swiss, a run."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubratings.settings")
    django.setup()
    from django.db.models import Count

    from ratings.models import Event, Game, Member, RatingRun

    member = Member.objects.annotate(n=Count("rating_changes")).order_by("-n").first()
    events = Event.objects.order_by("-start_date", "-pk")
    draft = events.filter(status="draft").first()
    done = events.filter(status="complete", kind="swiss", rated=True).order_by("-rounds").first()
    rr = events.filter(kind="round-robin").first()
    run = RatingRun.objects.order_by("-pk").first()
    game = Game.objects.order_by("-pk").first()
    return {
        "member": member.member_number,
        "member_pk": str(member.pk),
        "draft": str(draft.pk) if draft else "0",
        "done": str(done.pk) if done else "0",
        "rr": str(rr.pk) if rr else "0",
        "run": str(run.pk) if run else "0",
        "game": str(game.pk) if game else "0",
    }


def log_in(page: Page, base: str, who: tuple[str, str]) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", who[0])
    page.fill("input[name=password]", who[1])
    page.click("form [type=submit]")
    page.wait_for_load_state()


def pick_member(page: Page, name: str, nth: int) -> None:
    """Type into a calculator member box until its search offers members; take one."""
    box = page.locator(f"input[name={name}]")
    for query in ("an", "ar", "er", "in", "on"):
        box.fill("")
        box.press_sequentially(query)
        try:
            page.wait_for_function(
                "document.querySelectorAll('#member-options option').length > 0", timeout=3000
            )
        except Exception:  # nothing found for these letters: try others
            continue
        offered = page.locator("#member-options option").evaluate_all(
            "options => options.map(o => o.value)"
        )
        box.fill(offered[min(nth, len(offered) - 1)])
        return


def open_page(page: Page, base: str, path: str) -> None:
    if path == "calc":
        page.goto(base + "/calculator/")
        pick_member(page, "p-member", 0)
        rows = page.locator(".game-row")
        for i in range(min(rows.count(), 3)):
            if page.locator(f"input[name=g-{i}-opponent]").count():
                pick_member(page, f"g-{i}-opponent", 1 + i)
            page.locator(f"[name=g-{i}-result]").select_option(index=1 + i % 3)
        page.get_by_role("button", name="Work it out").click()
        page.wait_for_load_state()
    elif path == "import":
        page.goto(base + "/officer/import/")
        page.set_input_files("input[type=file]", str(TRF))
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_load_state()
    else:
        page.goto(base + path)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8123")
    parser.add_argument("--out", default="/tmp/shots")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--pdf-only", action="store_true")
    parser.add_argument("--no-pdf", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    (out / "pdf").mkdir(parents=True, exist_ok=True)
    ids = demo_ids()
    pages = [(n, p.format(**ids), w) for n, p, w in PAGES]
    if args.only:
        pages = [row for row in pages if any(re.fullmatch(o, row[0]) for o in args.only)]

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        contexts = {}
        for who in (None, "officer", "admin"):
            for size, (w, h) in SIZES.items():
                ctx = browser.new_context(
                    viewport={"width": w, "height": h},
                    is_mobile=size == "phone",
                    has_touch=size == "phone",
                )
                p = ctx.new_page()
                p.set_default_timeout(15_000)
                if who:
                    log_in(p, args.base, OFFICER if who == "officer" else ADMIN)
                contexts[who, size] = p
        for name, path, who in pages:
            for size in SIZES:
                if args.pdf_only:
                    break
                page = contexts[who, size]
                try:
                    open_page(page, args.base, path)
                except Exception as error:
                    print(f"{name} {size}: FAILED {error}")
                    continue
                page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=True)
                if size == "phone":
                    info = page.evaluate(OVERFLOW_JS)
                    if info["scroll"] > info["width"]:
                        print(f"{name}: {info['scroll']}px wide on a phone: {info['wide']}")
            if name in PDFS and not args.no_pdf:
                page = contexts[who, "desktop"]
                open_page(page, args.base, path)
                page.emulate_media(media="print")
                pdf = out / "pdf" / f"{name}.pdf"
                page.pdf(path=str(pdf), format="A4", print_background=False)
                page.emulate_media(media="screen")
                if shutil.which("pdftoppm"):
                    subprocess.run(
                        ["pdftoppm", "-png", "-r", "60", str(pdf), str(out / "pdf" / name)],
                        check=True,
                    )
        browser.close()
    print(f"written to {out}")


if __name__ == "__main__":
    main()
