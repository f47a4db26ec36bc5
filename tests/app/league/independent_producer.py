"""Another club's tool, not firestep: it makes and signs a firestep-result/3 bundle from the published JSON Schema
and docs/result-format.md alone, with json, hashlib and `cryptography`'s Ed25519 (issue 70). It imports nothing
from the app or the rules (test_result_format.py checks its imports), so a bundle it makes that the app accepts
shows the written format is enough to produce one."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


def canonical(value: Any) -> bytes:
    """docs/result-format.md's canonical JSON: keys sorted by code point, no spaces, UTF-8 unescaped."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sha256_hex(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def produce(
    schema: dict[str, Any], key: Ed25519PrivateKey, ruleset: str, ruleset_hash: str
) -> dict[str, Any]:
    """A confirmed game of round 2, table 3, played to its end: its record a small log ending the game, names
    and an event name that need UTF-8 and escaping, a payload with a fraction."""
    fmt = schema["properties"]["format"]["const"]
    signed = [
        f for f in schema["required"] if f not in ("signature", "record")
    ]  # the schema's, as the doc says
    ended = {
        "winner": "defender",
        "points": {"attacker": 2, "defender": 5},
        "losses": {"attacker": 4, "defender": 1},
    }
    record = {
        "log": [
            [1, 1, "attacker", "orders", "unit-moved", "attacker", {"x": 12.5, "unit": "1/RIR 261"}, None],
            [2, 3, "defender", "end", "game-finished", "referee", {"why": 'the "bridge" held — Zoë'}, None],
        ],
        "ended": ended,
    }
    body = {
        "format": fmt,
        "club": "Cercle de Mons",
        "public_key": key.public_key().public_bytes_raw().hex(),
        "event": 'Autumn "Mons" day — round two',
        "event_id": 41,
        "round": 2,
        "table": 3,
        "ruleset": ruleset,
        "ruleset_hash": ruleset_hash,
        "period": "",
        "scenario": "",  # no scenario: its hash is the empty object's
        "scenario_hash": sha256_hex({}),
        "forces_hash": sha256_hex({"attacker": "Zoë's list", "defender": "Bob's list"}),
        "players": {"attacker": ["Zoë", "Mons"], "defender": ["Bob", "Arras"]},
        "result": {**ended, "reason": "the game ended"},
        "settled": "confirmed",
        "log_hash": sha256_hex(record),
        "log_entries": len(record["log"]),
    }
    assert sorted(body) == sorted(signed), "the schema's fields are the ones this tool signs"
    return {**body, "signature": key.sign(canonical(body)).hex(), "record": record}
