"""The read API keeps its OpenAPI description: schemathesis generates requests from the
whole schema (every operation, parameters in and out of their bounds) and checks each
answer against it: no server error, every status documented, every body its schema.
Run in process through the WSGI application (no network), on a small rated club."""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from ratings import services
from ratings.api import api
from ratings.models import Game

from ..factories import MemberFactory, paid_up

API = "/api/v1"

#: The schema as the API serves it at ``/api/v1/openapi.json``, built where the view builds
#: it (a request would need the database, which collection may not touch); every case is
#: then sent through the WSGI application like any request.
schema = schemathesis.openapi.from_dict(
    json.loads(json.dumps(api.get_openapi_schema(path_prefix=API), default=str))
)
schema.app = get_wsgi_application()


@pytest.fixture
def rated_club(db, rated_event, current_season, alice, bob, carol, dave, settings):  # type: ignore[no-untyped-def]
    """A club with a published list, a merged record, and members and events to find."""
    settings.API_ANON_RATE = "100000/min"  # the run is one caller asking many times
    cache.clear()
    for member in (alice, bob, carol):
        paid_up(member, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (1, carol, dave, Game.Result.DRAW)])
    MemberFactory(member_number="OLD", merged_into=alice)
    services.list_publish()
    # As Django's test client does: requests through the WSGI handler must not close the
    # test's database connection (its transaction holds the club above).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_answer_keeps_the_description(case, rated_club):  # type: ignore[no-untyped-def]
    # The WSGI test client asks for gzip and would hand schemathesis the compressed bytes;
    # a real client decompresses them, as the answers here are read uncompressed.
    case.call_and_validate(headers={"Accept-Encoding": "identity"})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/events/abc", "/api/v1/nothing", "/api/v2/list", "/api/"]
)
def test_any_path_under_api_answers_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"] == f"No such API path: {path}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "named"), [({"page": 0}, "page"), ({"per_page": 0}, "per_page")]
)
def test_a_parameter_out_of_bounds_is_a_422_naming_it(client, query, named):
    response = client.get(f"{API}/events", query)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(f"{named}: ")
