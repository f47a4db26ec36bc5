"""Flanders Fields visibility distances: how far a viewer sees a target, by class and cover."""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import Field

from rules.core.resolution import Evaluation
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields.book.common import FFRequest
from rules.flanders_fields.ruleset import FlandersFields, cite

SRC_VISIBILITY = cite("VISIBILITY DISTANCES (IN CENTIMETRES)")

Viewer = Literal["infantry", "artillery", "vehicle"]
TargetClass = Literal["open", "cover", "buildings-vehicles-heavy-artillery"]

# Viewer rows, columns "Infantry & Field Artillery in Open", "Infantry & Field Artillery in Cover",
# "Buildings, Fieldworks, Vehicles & Heavy Artillery":
# "Infantry (including MGs)* 100 30 or until fired 150 / Artillery 200 100 250 / Vehicles (Tanks etc.) 50
# 10 or until fired 100"
VISIBILITY_CM: dict[str, dict[str, int]] = {
    "infantry": {"open": 100, "cover": 30, "buildings-vehicles-heavy-artillery": 150},
    "artillery": {"open": 200, "cover": 100, "buildings-vehicles-heavy-artillery": 250},
    "vehicle": {"open": 50, "cover": 10, "buildings-vehicles-heavy-artillery": 100},
}
# "Once Infantry and Field artillery have opened fire from cover they may be seen at a range of 50."
SEEN_FIRING_CM = 50


def visibility_cm(viewer: str, target: str, target_has_fired: bool) -> int:
    """Distance at which `viewer` sees `target`. Having fired from cover makes a target visible at 50 cm;
    it never shortens a longer sight (artillery sees troops in cover at 100)."""
    base = VISIBILITY_CM[viewer][target]
    if target == "cover" and target_has_fired:
        return max(base, SEEN_FIRING_CM)
    return base


class VisibilityRequest(FFRequest):
    viewer: Viewer = Field(description="Who looks: infantry (including MGs), artillery or a vehicle.")
    target: TargetClass = Field(
        description="open / cover: infantry and field artillery in the open or in cover; "
        "buildings-vehicles-heavy-artillery: buildings, fieldworks, vehicles and heavy artillery."
    )
    target_has_fired: bool = Field(
        default=False, description="The target (in cover) has opened fire: it may be seen at 50 cm."
    )


@FlandersFields.resolver
class Visibility(Resolver[VisibilityRequest]):
    id = "visibility"
    summary = "Visibility distance (cm) by viewer and target; no dice"
    Request = VisibilityRequest
    examples = (
        {"period": "mid", "viewer": "infantry", "target": "cover", "target_has_fired": True},
        {"period": "late", "viewer": "artillery", "target": "open"},
    )

    def dice(self, req: VisibilityRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: VisibilityRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        distance = visibility_cm(req.viewer, req.target, req.target_has_fired)
        notes: list[str] = []
        if req.target == "cover" and req.viewer != "artillery":
            notes.append(
                f"{VISIBILITY_CM[req.viewer]['cover']} cm, or {SEEN_FIRING_CM} cm once the target has fired."
            )
        if req.viewer == "infantry":
            notes.append("Infantry and machine guns can see further than they can fire.")
        return Evaluation(
            key=f"{distance}cm",
            outcome={"distance_cm": distance},
            total=distance,
            sources=(SRC_VISIBILITY,),
            details={"notes": notes},
        )


class VisibilityTable(TypedDict):
    """VISIBILITY: how far each viewer sees each target, in cover until it fires, and the targets' words."""

    source: str
    distances_cm: dict[str, dict[str, int]]
    cover_until_fired: dict[str, str]
    seen_firing_from_cover_cm: int
    targets: dict[str, str]


def visibility_table() -> VisibilityTable:
    return {
        "source": SRC_VISIBILITY,
        "distances_cm": VISIBILITY_CM,
        "cover_until_fired": {"infantry": "30 or until fired", "vehicle": "10 or until fired"},
        "seen_firing_from_cover_cm": SEEN_FIRING_CM,
        "targets": {
            "open": "Infantry & Field Artillery in Open",
            "cover": "Infantry & Field Artillery in Cover",
            "buildings-vehicles-heavy-artillery": "Buildings, Fieldworks, Vehicles & Heavy Artillery",
        },
    }


FlandersFields.dataset("visibility-distances", "Visibility distances in cm by viewer and target")(
    lambda _period: visibility_table()
)
