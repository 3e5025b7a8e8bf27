"""OpenAPI post-processing (drf-spectacular hook): say what the API really accepts.

- Request bodies of the API's own serializers refuse unknown fields: ``additionalProperties: false``.
- The calculator's body (HAND_FORMAT.md) is an object of known top-level fields, also closed.
- The Idempotency-Key header is 1-100 visible ASCII characters.
"""
from __future__ import annotations

from typing import Any

from .. import bounds
from ..http_limits import API_MAX_BODY
from ..idempotency import HEADER, MAX_KEY_LENGTH

RECORD = {
    "type": "object",
    "description": "A hand record (HAND_FORMAT.md): base, rules, dealer, events, exhausted, ready, hua_zhu.",
    "properties": {
        "base": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "rules": {"type": "object"},
        "dealer": {"type": "integer"},
        "events": {"type": "array", "items": {"type": "object"}, "maxItems": bounds.MAX_EVENTS},
        "exhausted": {"type": "boolean"},
        "ready": {"type": "object"},
        "hua_zhu": {"type": "array", "items": {"type": "integer"}},
    },
    "additionalProperties": False,
}
ANALYSE = {
    "type": "object",
    "properties": {"tiles": {"type": "string"}, "melds": {"type": "array", "items": {"type": "string"}},
                   "ready": {"type": "boolean"}},
    "required": ["tiles"],
}


def _ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref", "")
    return ref.rsplit("/", 1)[-1] if ref else None


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    components = result.get("components", {}).get("schemas", {})
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {})
            for media in body.values():
                name = _ref_name(media.get("schema", {}))
                if name and name in components:
                    components[name]["additionalProperties"] = False
                if path == "/api/score/":
                    media["schema"] = RECORD
                elif path == "/api/analyse/":
                    media["schema"] = ANALYSE
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "header" and parameter.get("name") == HEADER:
                    parameter["schema"] = {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH,
                                           "pattern": "^[!-~]+$"}
    result.setdefault("info", {})["description"] = (
        result.get("info", {}).get("description", "")
        + f" Errors are always {{\"errors\": [{{\"path\", \"message\"}}]}} in the request's Accept-Language;"
        f" bodies are JSON of at most {API_MAX_BODY} bytes.")
    return result
