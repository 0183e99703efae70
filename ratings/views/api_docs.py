"""The read API's documentation page: the OpenAPI description rendered on the server
(no script, no CDN: the strict CSP holds), with a link to the description itself."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from ..api import api


def _type_of(schema: dict[str, Any]) -> str:
    """A schema in a few words: "integer", "string (date)", "PublicationList", "a | b"."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " or ".join(_type_of(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"list of {_type_of(schema.get('items', {}))}"
    if "enum" in schema:
        return " / ".join(str(v) for v in schema["enum"])
    kind = str(schema.get("type", "any"))
    return f"{kind} ({schema['format']})" if "format" in schema else kind


def _plain(text: str) -> str:
    """A docstring's reST quoting (``name``) read as plain words."""
    return text.replace("``", "")


def api_docs(request: HttpRequest) -> HttpResponse:
    spec = api.get_openapi_schema()
    base = reverse("api:api-root")
    operations = []
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            responses = []
            for status, answer in operation.get("responses", {}).items():
                content = answer.get("content", {}).get("application/json", {})
                responses.append((status, _type_of(content.get("schema", {}))))
            operations.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "description": _plain(operation.get("description", "")),
                    "tag": (operation.get("tags") or [""])[0],
                    "parameters": [
                        {
                            "name": p["name"],
                            "in": p["in"],
                            "required": p.get("required", False),
                            "type": _type_of(p.get("schema", {})),
                            "default": p.get("schema", {}).get("default"),
                        }
                        for p in operation.get("parameters", [])
                    ],
                    "responses": responses,
                    "example": path if "{" not in path else None,
                }
            )
    schemas = [
        {
            "name": name,
            "description": schema.get("description", ""),
            "fields": [
                (field, _type_of(prop), field in schema.get("required", []))
                for field, prop in schema.get("properties", {}).items()
            ],
        }
        for name, schema in spec.get("components", {}).get("schemas", {}).items()
    ]
    return render(
        request,
        "ratings/public/api_docs.html",
        {
            "spec": spec,
            "base": base.rstrip("/"),
            "operations": operations,
            "schemas": schemas,
            "openapi_url": reverse("api:openapi-json"),
            "rate": __import__("django.conf").conf.settings.API_ANON_RATE,
        },
    )
