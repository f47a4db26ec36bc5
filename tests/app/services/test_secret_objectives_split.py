"""A scenario's secret objectives parted from its public ones as a game is made (app.services.secret_objectives):
the board keeps the public ones as written; a secret one with no id of its own gets a random one (objective-<n>
would leave a gap in the public numbering that counts it)."""

from __future__ import annotations

import re

from app.services.secret_objectives import split


def test_a_scenarios_secret_objectives_leave_the_board_each_to_its_side() -> None:
    def point(name: str, **more: str) -> dict[str, object]:
        props = {"name": name, "vp": 1, "scored": "game_end", **more}
        return {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [10, 10]},
            "properties": props,
        }

    bridge, orders = point("Bridge"), point("Orders", secret_to="defender")
    public, secret = split({"type": "FeatureCollection", "features": [orders, bridge]})
    assert public == {"type": "FeatureCollection", "features": [bridge]}
    assert list(secret) == ["defender"] and re.fullmatch(
        r"secret-[0-9a-f]{8}", str(secret["defender"][0]["id"])
    )
    assert split({"type": "FeatureCollection", "features": [orders]})[0] is None
    assert split(None) == (None, {})
