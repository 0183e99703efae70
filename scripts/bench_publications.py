"""Times publishing the list and reading publications (docs/performance.md).

Run on a database of its own holding a generated history (it deletes every publication
there, before and after it):

    DATABASE_URL=sqlite:////tmp/lists.sqlite3 .venv/bin/python manage.py shell -v0 \
        < scripts/bench_publications.py
"""

import statistics
import time
from collections.abc import Callable

from django.conf import settings
from django.test import Client

from ratings import services
from ratings.models import Publication, RatingState

settings.DEBUG = False  # as production: no query log


def timed(action: Callable[[], object], runs: int = 5) -> tuple[float, float, float]:
    """The median, the fastest and the slowest of ``runs`` runs, in seconds."""
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), min(seconds), max(seconds)


def shown(name: str, figures: tuple[float, float, float], digits: int = 3) -> str:
    median, low, high = figures
    return f"{name}: median {median:.{digits}f} s ({low:.{digits}f}-{high:.{digits}f})"


Publication.objects.all().delete()
made: list[Publication] = []
figures = timed(lambda: made.append(services.list_publish(note="measured")))
print(shown("publish", figures, 2) + f", {made[-1].size} members")
# 500 members' live ratings moved, then a publication to compare with the one before.
moved = made[-1].entries.values("member_id")[:500]
RatingState.objects.filter(member__in=moved).update(display="1", rating=1)
newer = services.list_publish(note="after")
client = Client(HTTP_HOST="localhost")
url = newer.get_absolute_url()
pages = [
    ("live list page 1 (for comparison)", "/ratings/live/"),
    ("publication page 1", url),
    ("publication last page", f"{url}?page={newer.size // 50 + 1}"),
    ("publication page sorted by name", f"{url}?sort=name&page=100"),
    ("publication U16 filter", f"{url}?age=U16"),
    ("changes page", f"{url}changes/"),
    ("API publication page 100", f"/api/v1/publications/{newer.slug}?page=100"),
    ("API live list page 1", "/api/v1/list"),
]
for name, page in pages:
    client.get(page)  # warm
    print(shown(name, timed(lambda p=page: client.get(p))))


def whole_csv() -> None:
    response = client.get(f"{url}?_export=csv")
    b"".join(response.streaming_content)


print(shown("publication CSV", timed(whole_csv, 3), 2))
Publication.objects.all().delete()
