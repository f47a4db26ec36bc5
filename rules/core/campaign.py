"""A rule set's campaign, declared beside its game: the pure state machine of a campaign played over a map of
areas (its state's model, how one is set up, checked, moved on by an action and its dice, and scored), the
map as its page draws it, and the table battles it sends to games. The rule set names it on its class
(`RuleSet.campaign`); the app's campaign services, routes and pages read it through the registry
(rules.registry.the_campaign) and import no rule set's package.

The state is the rule set's own pydantic model (`state`); the app reads it as that model where it types a
request or an answer, and otherwise hands it back to these functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

# A campaign's state, a table battle, its result's offer: the rule set's own records (typed where they are made).
CampaignState = Any
TableBattle = Any
ResultOffer = Any
TableOutcome = Any


class Troop(Protocol):
    """A troop of the campaign as the page names it: its name, kind and brigade ("": none)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def brigade(self) -> str: ...


@dataclass(frozen=True, kw_only=True)
class CampaignMap:
    """The map as the campaign's page draws it: its areas (in order), their names, terrain, victory points and
    supply edges by side; the battles of each turn and the last turn; the troops and the words of their kinds."""

    areas: tuple[str, ...]
    area_names: Mapping[str, str]
    terrain: Mapping[str, str]
    vp_areas: Mapping[str, int]
    supply: Mapping[str, tuple[str, ...]]
    battles: Mapping[int, int]
    last_turn: int
    troops: Mapping[str, Troop]
    kind_labels: Mapping[str, str]


@dataclass(frozen=True, kw_only=True)
class Campaign:
    """What a rule set's campaign declares, in one record (see the module's docstring)."""

    ruleset_id: str
    name: str  # a new campaign's default name
    sides: tuple[str, ...]
    state: type[BaseModel]
    # The shapes of one legal action and of one event `apply` answers (TypedDicts the app's answers type as), and
    # of one action `apply` takes (its models, the log's entries typed as).
    legal_action: object
    event: object
    action: object
    new: Callable[[Mapping[str, Sequence[str]] | None, Mapping[str, str] | None], CampaignState]
    check: Callable[[CampaignState], None]
    legal_actions: Callable[[CampaignState], Sequence[Mapping[str, Any]]]
    dice_needed: Callable[[CampaignState, Mapping[str, Any]], int]
    apply: Callable[[CampaignState, Mapping[str, Any], Sequence[int]], tuple[CampaignState, list[Any]]]
    result: Callable[[CampaignState], Mapping[str, Any]]
    load_map: Callable[[], Mapping[str, tuple[str, ...]]]
    map: CampaignMap
    table_battle: Callable[[CampaignState, int], TableBattle]
    offer_of_game: Callable[[TableOutcome, Any, TableBattle], ResultOffer]
    outcome: Callable[..., TableOutcome]
