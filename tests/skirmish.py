"""A minimal skirmish rule set (a few dozen lines of `GameRules`, its own state fields, no Flanders Fields word):
the second rule set the app and the golden play scripts play, to prove the game hook is the rule set's own."""

from __future__ import annotations

from pydantic import Field

from rules.core.acts import Act, MoveStand, PlaceMarker, RecoverMarker
from rules.core.errors import Refusal
from rules.core.game import Answer, Book, GameRules
from rules.core.records import AddToState, Change, SetState, Snapshot, StandAct, StandEdit, StateField
from rules.core.resolution import Evaluation
from rules.core.rolls import Outcome
from rules.core.ruleset import Context, Resolver, ResolveRequest, RuleSet
from rules.core.turn import Step

ID = "skirmish-test"
SOURCE = "Skirmish test rules: PINS"


BOTH = ("attacker", "defender")


BOUND = "Skirmish test rules: THE BOUND"
STEPS = (
    Step("orders", 1, "1", "Orders", BOUND, "both sides give orders and rally", (), ("rally",), sides=BOTH),
    Step("attacker-moves", 2, "2", "Attacker moves", BOUND, "the attacker moves", sides=("attacker",)),
    Step("defender-moves", 3, "3", "Defender moves", BOUND, "the defender moves", sides=("defender",)),
)


class SkirmishGame(GameRules):
    """A bound: both sides give orders (and rally), then the attacker moves, then the defender. Pins placed by
    hand, a second one shaking the unit; a shaken unit does not move until it rallies."""

    book = Book(
        ruleset_id=ID,
        bound=True,
        turn_word="bound",
        turn_source=BOUND,
        ordered_acts=frozenset({"move-stands"}),
        state_fields=(
            StateField("pins", "Pins", 0, counter=True, maximum=9, filter="Pinned"),
            StateField("shaken", "Shaken", badge="SHAKEN", filter="Shaken"),
        ),
        marker_field="pins",
    )

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return STEPS

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        if isinstance(act, PlaceMarker):
            return Answer(pinned(snapshot, act.unit_id, act.count))
        if isinstance(act, RecoverMarker):
            gone = "the pin was removed meanwhile"
            return Answer((AddToState("a pin removed", SOURCE, act.unit_id, "pins", -1, gone),))
        return super().play(snapshot, act)

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        """A shaken unit does not move until it rallies."""
        if isinstance(act, MoveStand) and snapshot.unit(act.unit_id).shaken:
            name = snapshot.unit(act.unit_id).name
            return (
                Refusal(
                    f"{name} is shaken: rally it first.", f"a shaken unit may not move ({SOURCE})", SOURCE
                ),
            )
        return ()

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        unit = snapshot.unit(unit_id)
        return (StandAct("Rally", "rally", unit_id, f"{unit.name} is pinned"),) if unit.pins else ()

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        if (
            resolver_id != "rally"
            or outcome.unit_id is None
            or outcome.resolution["outcome_key"] != "rallied"
        ):
            return ()
        return (
            SetState("rallied", SOURCE, outcome.unit_id, "pins", 0),
            SetState("rallied", SOURCE, outcome.unit_id, "shaken", False),
        )


def pinned(snapshot: Snapshot, unit_id: int, count: int) -> tuple[Change, ...]:
    """Pins placed on a unit by hand: a second shakes it."""
    unit = snapshot.unit(unit_id)
    added: list[Change] = [AddToState(f"{count} pin on {unit.name}", SOURCE, unit_id, "pins", count)]
    if unit.pins + count >= 2 and not unit.shaken:
        added.append(SetState(f"{unit.name} is shaken", SOURCE, unit_id, "shaken", True))
    return tuple(added)


SKIRMISH_GAME = SkirmishGame()


class Skirmish(RuleSet):
    """The rule set, owning its game (registered for a test's time: `with registry.registered(Skirmish)`)."""

    id = ID
    name = "Skirmish (test)"
    source = SOURCE
    game = SKIRMISH_GAME


class RallyRequest(ResolveRequest):
    pins: int = Field(default=0, ge=0, le=9, description="Pins on the unit rallying.")


@Skirmish.resolver
class Rally(Resolver[RallyRequest]):
    id = "rally"
    summary = "A pinned unit rallies on 4+"
    Request = RallyRequest

    def evaluate(self, req: RallyRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        rallied = dice[0] >= 4
        key = "rallied" if rallied else "still-pinned"
        return Evaluation(key, key, total=dice[0], sources=(SOURCE,))
