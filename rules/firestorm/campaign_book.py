"""Firestorm's campaign as its rule set declares it (rules.core.campaign.Campaign, `Firestorm.campaign`): the
pure state machine of rules.firestorm.campaign, the map of rules.firestorm.data as the page draws it, and the
table battles of rules.firestorm.table_battle. The app reads it through the registry."""

from __future__ import annotations

from rules.core.campaign import Campaign, CampaignMap
from rules.firestorm import campaign, data, table_battle
from rules.firestorm.ruleset import RULES, Firestorm

CAMPAIGN = Campaign(
    ruleset_id=Firestorm.id,
    name=RULES,
    sides=data.SIDES,
    state=campaign.CampaignState,
    legal_action=campaign.LegalAction,
    event=campaign.CampaignEvent,
    action=campaign.Action,
    new=campaign.new_campaign,
    check=campaign.check_state,
    legal_actions=campaign.legal_actions,
    dice_needed=campaign.dice_needed,
    apply=campaign.apply,
    result=campaign.result,
    load_map=data.load_adjacency,
    map=CampaignMap(
        areas=data.AREAS,
        area_names=data.AREA_NAMES,
        terrain=data.TERRAIN,
        vp_areas=data.VP_AREAS,
        supply={str(side): edge for side, edge in data.SUPPLY.items()},
        battles=data.BATTLES,
        last_turn=data.LAST_TURN,
        troops=data.TROOP_BY_ID,
        kind_labels=data.KIND_LABELS,
    ),
    table_battle=table_battle.table_battle,
    offer_of_game=table_battle.offer_of_game,
    outcome=table_battle.TableOutcome,
)
Firestorm.campaign = CAMPAIGN
