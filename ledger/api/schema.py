"""OpenAPI post-processing (drf-spectacular hook): say what the API really accepts.

- Request bodies of the API's own serializers refuse unknown fields: ``additionalProperties: false``.
- The calculator's body (HAND_FORMAT.md) is an object of known top-level fields, also closed.
- The Idempotency-Key header is 1-100 visible ASCII characters.
"""
from __future__ import annotations

from typing import Any

from scoring import MODIFIERS, PATTERNS

from ledger import bounds
from ledger.web.http_limits import API_MAX_BODY
from ledger.web.idempotency import HEADER, MAX_KEY_LENGTH

def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SEAT = {"type": "integer", "minimum": 0, "description": "A seat, 0 … players − 1 in play order."}
NULLABLE_SEAT = {**SEAT, "nullable": True}
EVENTS = {"type": "array", "items": _ref("HandEvent"), "maxItems": bounds.MAX_EVENTS}
READY = {"type": "object", "additionalProperties": _ref("ReadyEntry"),
         "description": "For 查叫, keyed by seat (as a string): each ready player's tiles or quick-entry fan."}

#: The hand record (HAND_FORMAT.md) described, so a generated client can build a hand and read its result.
HAND_COMPONENTS: dict[str, dict[str, Any]] = {
    "KongEvent": {
        "type": "object", "description": "A kong (杠): 直杠 direct, 补杠 added, 暗杠 concealed.",
        "properties": {"type": {"type": "string", "enum": ["kong"]}, "player": SEAT,
                       "kind": {"type": "string", "enum": ["direct", "added", "concealed"]},
                       "from": {**SEAT, "description": "The discarder of a direct kong (direct only)."},
                       "tile": {"type": "string", "description": "The kong's tile, e.g. 9p (optional)."}},
        "required": ["type", "player", "kind"], "additionalProperties": False,
    },
    "Winner": {
        "type": "object",
        "description": "One winner of a win event: tiles (and melds), from which pattern and roots are found, "
                       "or quick entry: pattern and roots.",
        "properties": {"player": SEAT,
                       "tiles": {"type": "string", "description": "Concealed tiles, the winning tile included."},
                       "melds": {"type": "array", "items": {"type": "string"}, "description": "555p a pong, 7777s a kong."},
                       "pattern": {"type": "string", "enum": sorted(PATTERNS)},
                       "roots": {"type": "integer", "minimum": 0},
                       "flags": {"type": "array", "items": {"type": "string", "enum": sorted(MODIFIERS)}}},
        "required": ["player"], "additionalProperties": False,
    },
    "WinEvent": {
        "type": "object", "description": "A win: on a discard (from the discarder) or self-drawn (from null).",
        "properties": {"type": {"type": "string", "enum": ["win"]},
                       "from": {**NULLABLE_SEAT, "description": "The discarder, the robbed player, or null for a "
                                                                "self-draw."},
                       "winners": {"type": "array", "items": _ref("Winner"), "minItems": 1}},
        "required": ["type", "from", "winners"], "additionalProperties": False,
    },
    "HandEvent": {"oneOf": [_ref("KongEvent"), _ref("WinEvent")],
                  "discriminator": {"propertyName": "type", "mapping": {
                      "kong": "#/components/schemas/KongEvent", "win": "#/components/schemas/WinEvent"}}},
    "ReadyEntry": {
        "type": "object", "description": "A ready hand at 查叫: its 13 tiles' worth (tiles, melds) or a fan.",
        "properties": {"tiles": {"type": "string"}, "melds": {"type": "array", "items": {"type": "string"}},
                       "fan": {"type": "integer", "minimum": 0}},
        "additionalProperties": False,
    },
    "HandRecord": {
        "type": "object",
        "description": "A hand record (HAND_FORMAT.md): base, rules, dealer, events, exhausted, ready, hua_zhu.",
        "properties": {"base": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                       "rules": {"type": "object", "additionalProperties": True,
                                 "description": "Rule options by name (RULES.md §8-§10)."},
                       "dealer": SEAT, "events": EVENTS, "exhausted": {"type": "boolean"}, "ready": READY,
                       "hua_zhu": {"type": "array", "items": SEAT}},
        "additionalProperties": False,
    },
    "ScoredWin": {
        "type": "object",
        "properties": {"event": {"type": "integer"}, "player": SEAT, "from": NULLABLE_SEAT,
                       "pattern": {"type": "string"}, "roots": {"type": "integer"},
                       "flags": {"type": "array", "items": {"type": "string"}},
                       "fan": {"type": "integer"}, "multiplier": {"type": "integer"}},
        "required": ["event", "player", "from", "pattern", "roots", "flags", "fan", "multiplier"],
    },
    "ScoredReady": {
        "type": "object",
        "properties": {"waits": {"type": "array", "items": {"type": "string"}}, "fan": {"type": "integer"}},
        "required": ["waits", "fan"],
    },
    "HandPayment": {
        "type": "object",
        "properties": {"event": {"type": "integer", "nullable": True}, "from": SEAT, "to": SEAT,
                       "amount": {"type": "string", "description": "An exact decimal."},
                       "reason": {"type": "string", "enum": ["kong", "self_draw", "discard", "cha_jiao",
                                                             "kong_refund", "hua_zhu", "call_transfer"]}},
        "required": ["event", "from", "to", "amount", "reason"],
    },
    "HandResult": {
        "type": "object", "description": "The scoring engine's output (HAND_FORMAT.md): wins, ready, payments, net.",
        "properties": {"wins": {"type": "array", "items": _ref("ScoredWin")},
                       "ready": {"type": "object", "additionalProperties": _ref("ScoredReady")},
                       "payments": {"type": "array", "items": _ref("HandPayment")},
                       "net": {"type": "array", "items": {"type": "string"}},
                       "next_dealer": SEAT},
        "required": ["wins", "ready", "payments", "net", "next_dealer"],
    },
}
RECORD = _ref("HandRecord")
#: Binary downloads: their own media type first, then application/octet-stream, which stock generators read as bytes.
BINARY = {"type": "string", "format": "binary"}
ANALYSE = {
    "type": "object",
    "properties": {"tiles": {"type": "string"}, "melds": {"type": "array", "items": {"type": "string"}},
                   "ready": {"type": "boolean"}},
    "required": ["tiles"],
}


def _ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref", "")
    return ref.rsplit("/", 1)[-1] if ref else None


def _type_hand_fields(components: dict[str, Any]) -> None:
    """The hand entry's events and ready, a hand's record and result: described, not bare objects."""
    for name, schema in components.items():
        properties = schema.get("properties", {})
        if name in HAND_COMPONENTS or not properties:
            continue
        if "events" in properties and properties["events"].get("type") == "array":
            properties["events"] = {**EVENTS, "maxItems": properties["events"].get("maxItems", bounds.MAX_EVENTS)}
        if "ready" in properties and "events" in properties:
            properties["ready"] = READY
        if "record" in properties and "result" in properties:
            properties["record"] = {**RECORD, "description": "The hand record with base, rules and dealer."}
            properties["result"] = _ref("HandResult")


def _downloads(path: str, operation: dict[str, Any]) -> None:
    """Text downloads are text (a stock generator reads them as str); binary ones also as octet-stream (bytes)."""
    content = operation.get("responses", {}).get("200", {}).get("content", {})
    for media in list(content):
        if content[media].get("schema") != BINARY:
            continue
        if media.startswith("text/"):
            content[media]["schema"] = {"type": "string"}
        elif media != "application/octet-stream":
            content["application/octet-stream"] = {"schema": BINARY}


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.update(HAND_COMPONENTS)
    _type_hand_fields(components)
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            _downloads(path, operation)
            if path == "/api/score/":
                for media in operation.get("responses", {}).get("200", {}).get("content", {}).values():
                    media["schema"] = _ref("HandResult")
            body = operation.get("requestBody", {}).get("content", {})
            if path == "/api/score/" and "*/*" in body:
                # The calculator reads any body as JSON (ledger.web.http_limits.AnyTypeJSONParser): documented as JSON.
                body["application/json"] = body.pop("*/*")
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
