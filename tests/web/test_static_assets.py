"""What a page costs to load: compressed HTML, a description for search results, and only
the stylesheet and script the site uses (Bootstrap trimmed to its classes, no bundle)."""

from __future__ import annotations

import gzip
import importlib.util
import re
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')


@pytest.fixture(autouse=True)
def _a_club_started(officer):
    """The club has its officer's login, so the home page is the club's, not the first-run
    page a fresh install greets its first visitor with."""


def _trim_script():
    spec = importlib.util.spec_from_file_location("trim", ROOT / "scripts/trim_bootstrap.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_page_is_sent_gzip_compressed_to_a_browser_that_asks(client):
    response = client.get(reverse("ratings:list"), headers={"accept-encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert b"<h1" in gzip.decompress(response.content)


def test_a_page_is_sent_plain_to_a_client_that_does_not_ask(client):
    response = client.get(reverse("ratings:list"))
    assert not response.has_header("Content-Encoding")


def test_the_compressed_page_masks_its_csrf_token_afresh_each_time(client):
    """BREACH guesses a secret repeated across responses: the token never repeats."""
    url = reverse("login")
    tokens = {
        re.search(
            r'name="csrfmiddlewaretoken" value="([^"]+)"',
            gzip.decompress(client.get(url, headers={"accept-encoding": "gzip"}).content).decode(),
        ).group(1)  # type: ignore[union-attr]
        for _ in range(3)
    }
    assert len(tokens) == 3


@pytest.mark.parametrize("name", ["ratings:home", "ratings:list", "ratings:events", "login"])
def test_a_public_page_has_a_meta_description(client, name):
    page = client.get(reverse(name)).content.decode()
    assert DESCRIPTION.search(page)


def test_a_member_page_describes_that_member(client, alice):
    page = client.get(reverse("ratings:member", args=[alice.member_number])).content.decode()
    assert "Alice Archer" in DESCRIPTION.search(page).group(1)  # type: ignore[union-attr]


def test_an_admin_page_has_a_meta_description(admin_client):
    page = admin_client.get(reverse("admin:index")).content.decode()
    assert DESCRIPTION.search(page)


def test_pages_load_the_trimmed_bootstrap_and_no_bootstrap_script(client):
    page = client.get(reverse("ratings:home")).content.decode()
    assert "bootstrap.site.css" in page
    assert "bootstrap.min.css" not in page
    assert "bootstrap.bundle" not in page


def test_the_trimmed_bootstrap_is_up_to_date_with_the_templates():
    """A class a template starts to use is in the stylesheet (run scripts/trim_bootstrap.py)."""
    trim = _trim_script()
    assert trim.TARGET.read_text(encoding="utf-8") == trim.build()


def test_the_trim_keeps_a_used_class_and_drops_an_unused_one():
    trim = _trim_script()
    css = ".btn{color:red}.carousel{color:blue}@media (min-width:1px){.btn,.carousel{x:y}}"
    assert trim.trim(css, {"btn"}) == ".btn{color:red}@media (min-width:1px){.btn{x:y}}"
