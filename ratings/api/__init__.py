"""The open read API, ``/api/v1/``: read-only JSON of the lists, members and events
(django-ninja: the OpenAPI description comes from the schemas in ``schemas.py``).

Public: it answers every caller as the public pages answer a visitor, whatever their
login (an officer's session changes nothing here), under the same publication rule
(``ratings.rules.publication``). Anonymous callers are throttled (``API_ANON_RATE``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import ValidationError
from ninja.throttling import AnonRateThrottle

from . import events, lists, members


class AnonymousThrottle(AnonRateThrottle):
    """django-ninja's throttle of anonymous callers at ``settings.API_ANON_RATE``, read at
    each request (so a changed setting takes effect without rebuilding the API)."""

    def __init__(self) -> None:
        super().__init__(settings.API_ANON_RATE)

    def allow_request(self, request: HttpRequest) -> bool:
        if self.rate != settings.API_ANON_RATE:
            self.rate = settings.API_ANON_RATE
            self.num_requests, self.duration = self.parse_rate(self.rate)
        return bool(super().allow_request(request))


#: The answers every operation may give besides its own, each with a JSON ``{"detail":
#: "..."}`` body (``schemas.Problem``) but 304 (no body) and 302 (a member's number in
#: another case, or a merged record: ``Location`` is the member's own).
COMMON_ANSWERS = {
    304: "Not modified: the answer the caller holds (If-None-Match, If-Modified-Since) "
    "is still current. No body.",
    400: "A query the API cannot read.",
    404: "Nothing here: no such member, event, publication or page.",
    422: "A parameter outside its bounds or of the wrong type (the detail names it).",
    429: "Too many requests from this address (API_ANON_RATE): wait and ask again.",
}
#: What a text parameter may hold: no control character (``Cc``: U+0000-U+001F and
#: U+007F-U+009F), which the site refuses in any address before a view reads it
#: (``clubratings.security.RefuseControlCharactersMiddleware``).
NO_CONTROL_CHARACTERS = r"^[^\u0000-\u001f\u007f-\u009f]*$"
REDIRECT = "The member's own record: their number in its own case, or the record a "
"merged duplicate joined (Location)."


def _text_without_controls(schema: dict[str, Any]) -> None:
    """Say of a free text parameter (an optional one's text too) what it may not hold."""
    if schema.get("type") == "string" and "enum" not in schema:
        schema.setdefault("pattern", NO_CONTROL_CHARACTERS)
    for choice in schema.get("anyOf", []):
        _text_without_controls(choice)


class ReadAPI(NinjaAPI):
    """The API with every status it answers described, each error's JSON body included."""

    def get_openapi_schema(self, *args: Any, **kwargs: Any) -> Any:
        schema = super().get_openapi_schema(*args, **kwargs)
        problem = {"$ref": "#/components/schemas/Problem"}
        schema.setdefault("components", {}).setdefault("schemas", {}).setdefault(
            "Problem",
            {
                "title": "Problem",
                "type": "object",
                "properties": {"detail": {"title": "Detail", "type": "string"}},
                "required": ["detail"],
            },
        )
        for path, operations in schema["paths"].items():
            for operation in operations.values():
                answers = operation.setdefault("responses", {})
                for status, description in COMMON_ANSWERS.items():
                    answer = answers.setdefault(status, {"description": description})
                    if status != 304:
                        answer.setdefault("content", {"application/json": {"schema": problem}})
                for parameter in operation.get("parameters", []):
                    _text_without_controls(parameter.get("schema", {}))
                if "{number}" in path:
                    answers.setdefault(302, {"description": REDIRECT})
        return schema


api = ReadAPI(
    title="Club Ratings read API",
    version="1",
    description=(
        "Read-only JSON of the club's published lists, members and events. Every answer "
        "carries an ETag and Last-Modified (send If-None-Match or If-Modified-Since for "
        "a 304); lists are paged with `page` and `per_page` (at most 500)."
    ),
    urls_namespace="api",
    docs_url=None,
    openapi_url="/openapi.json",
    throttle=[AnonymousThrottle()],
)


@api.exception_handler(ValidationError)
def invalid_parameter(request: HttpRequest, error: ValidationError) -> HttpResponse:
    """A parameter refused by its schema: 422 with one sentence naming it, in the same
    ``{"detail": "..."}`` shape as every other error."""
    problems = []
    for found in error.errors:
        where = ".".join(str(part) for part in found.get("loc", ()) if part != "query")
        problems.append(f"{where}: {found.get('msg', 'not valid')}" if where else found["msg"])
    return api.create_response(request, {"detail": "; ".join(problems)}, status=422)


api.add_router("/", lists.router)
api.add_router("/", members.router)
api.add_router("/", events.router)


def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Any other path under ``/api/``: the API's JSON 404, never the site's HTML page."""
    return JsonResponse({"detail": f"No such API path: {request.path}"}, status=404)
