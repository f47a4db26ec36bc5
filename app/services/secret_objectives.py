"""Secret objectives (issue 69): an objective only its side (and the referee) sees, sealed like a fire plan.

A scenario marks an objective `secret_to: <side>` (docs/scenario-format.md), or the referee gives a side one at
set-up; either is kept here (SecretObjective), never on the game's board, which every device reads. As the game
starts each side's are sealed (`seal`): every objective's leaf (rules.core.commitment, the fire plans' scheme)
in a slot drawn at random of a tree of the fixed `PLAN_CAPACITY` leaves, padding in the rest, and the root's
commitment published to every device (on its GameSide, one for each side whether it holds any or not: the tree's
size, the same for every side, tells the other side nothing of how many). The score (app.services.score) counts
a secret objective from when it first scores, and reveals it then (rules.core.score); at the game's end every
one is revealed, and the padding salt with it, so that anyone rebuilds the whole tree (`verification`)."""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import JsonValue
from sqlmodel import Session, col, select

from app.core.db import ids_written
from app.data.models import Game, GameSide, SecretObjective
from app.data.schemas_scenario import ObjectiveFeature
from app.data.schemas_score import ObjectivesVerifiedOut, SecretObjectiveRevealedOut
from app.errors import RuleRefused
from app.services.markers import rules_of
from app.services.seating import new_salt
from app.services.seats import get_side, sides
from rules.core import commitment
from rules.core.commitment import HOW_TO_CHECK, PLAN_CAPACITY
from rules.core.errors import RulesError
from rules.core.vocabulary import SIDES
from rules.table.objectives import Objective, objectives_from_geojson

Feature = dict[str, JsonValue]  # an objective as a scenario writes it (rules.table.objectives)
SECRET = "secret_to"  # the property a scenario marks a secret objective with
_random = random.SystemRandom()  # slots the other side cannot guess


def split(
    collection: Mapping[str, Any] | None,
) -> tuple[Feature | None, dict[str, list[Feature]]]:
    """A scenario's objectives parted: those every device sees (a collection, None for none) and each side's
    secret ones, as written (kept apart from the board as the game is made, `store`)."""
    features = list((collection or {}).get("features") or ())
    secret: dict[str, list[Feature]] = {side: [] for side in SIDES}
    public = []
    for feature in features:
        side = (feature.get("properties") or {}).get(SECRET)
        if (
            side in secret
        ):  # one with no id of its own: a random one (objective-<n> would leave a gap to count)
            secret[side].append({"id": f"secret-{secrets.token_hex(4)}", **feature})
        else:
            public.append(feature)
    kept = {**collection, "features": public} if collection is not None and public else None
    return kept, {s: f for s, f in secret.items() if f}


def store(
    session: Session, game_ids: Iterable[int], secret: Mapping[str, Sequence[ObjectiveFeature]]
) -> None:
    """Each game's secret objectives, each with its own salt (the games of a round: the same objectives): the
    column holds each as its model writes it (the leaf its seal hashes, `seal`)."""
    session.add_all(
        SecretObjective(
            game_id=g, side=side, feature=f.model_dump(mode="json", exclude_none=True), salt=new_salt()
        )
        for g in game_ids
        for side, features in secret.items()
        for f in features
    )


def rows(session: Session, game_ids: Sequence[int]) -> list[SecretObjective]:
    query = select(SecretObjective).where(col(SecretObjective.game_id).in_(ids_written("game_ids")))
    return list(session.exec(query.order_by(col(SecretObjective.id)), params={"game_ids": list(game_ids)}))


def objectives(session: Session, games: Sequence[Game]) -> dict[int, list[Objective]]:
    """Each game's secret objectives (read for many games in one query), each marked with its side."""
    by_id = {g.pk: g for g in games}
    out: dict[int, list[Objective]] = {g: [] for g in by_id}
    for row in rows(session, list(by_id)) if by_id else []:
        game = by_id[row.game_id]
        made = objectives_from_geojson(
            {"type": "FeatureCollection", "features": [row.feature]},
            game.table_width_cm,
            game.table_length_cm,
        )
        out[row.game_id] += [replace(o, secret_to=row.side) for o in made]
    return out


def give_objective(
    session: Session, game: Game, side: str, feature: ObjectiveFeature, public: Sequence[Objective]
) -> str:
    """The referee gives `side` a secret objective at set-up (a 422 naming the field of a bad one, a 409 once
    the game has started: its side's seal is published then). Its id is drawn at random (a number would count
    the side's secret objectives); answers it."""
    if game.status != "setup":
        raise RuleRefused("the game has started: secret objectives are given at set-up")
    if rules_of(
        game
    ).book.score_kept:  # the hostile pass: one given to a Vimy Ridge game never showed nor scored
        raise RuleRefused("these rules keep their own score: a secret objective would never score")
    held = [r for r in rows(session, [game.pk]) if r.side == side]
    if len(held) >= PLAN_CAPACITY:
        raise RulesError("objective", f"a side holds at most {PLAN_CAPACITY} secret objectives")
    # A give sent twice (a double tap, a replay, two devices) kept twice scored one objective twice (session
    # 23's hostile pass): a side's secret objectives are told apart by their names.
    name = _name_of(feature.properties.name)
    if name and any(
        _name_of(ObjectiveFeature.model_validate(r.feature).properties.name) == name for r in held
    ):
        raise RulesError(
            "name", f"the {side} already holds a secret objective of that name: give this one another"
        )
    properties = feature.properties.model_copy(update={"secret_to": side})
    body = feature.model_copy(update={"id": f"secret-{secrets.token_hex(4)}", "properties": properties})
    others = [o.as_geojson() for o in public] + [r.feature for r in rows(session, [game.pk])]
    features = [*others, body.model_dump(mode="json", exclude_none=True)]
    collection = {"type": "FeatureCollection", "features": features}
    objectives_from_geojson(collection, game.table_width_cm, game.table_length_cm, where="objective")
    store(session, [game.pk], {side: [body]})
    session.flush()
    return str(body.id)


def give(
    session: Session, game: Game, side: str, feature: Mapping[str, Any], public: Sequence[Objective]
) -> str:
    """`give_objective` of one as the referee's page posts it, a scenario's mapping (app.pages.secret_objective_form,
    until the page hands over its model)."""
    return give_objective(session, game, side, ObjectiveFeature.model_validate(feature), public)


def _name_of(name: str) -> str:
    """An objective's name as two are told apart (its case and outer spaces aside)."""
    # Unseen characters (a zero-width space) left out: "Farm\u200b" read "Farm" twice (the hostile pass).
    return "".join(c for c in name if unicodedata.category(c) != "Cf").strip().casefold()


def seal(session: Session, game: Game) -> None:
    """As the game starts: each side's secret objectives sealed in random slots of a full tree, its
    commitment published (`commitments`) and its padding salt kept until the game is over."""
    held = rows(session, [game.pk])
    for side in SIDES:
        mine = [r for r in held if r.side == side]
        for row, slot in zip(mine, _random.sample(range(PLAN_CAPACITY), len(mine)), strict=True):
            row.slot = slot
            session.add(row)
        padding = new_salt()
        leaves = commitment.plan_leaves(((r.slot, r.feature, r.salt) for r in mine), padding)
        root = commitment.plan_commitment(game.pk, side, leaves)
        kept = get_side(session, game.pk, side)
        kept.objectives_commitment, kept.objectives_leaves, kept.objectives_salt = root, leaves, padding
        session.add(kept)
    session.flush()


def seals(session: Session, game_id: int) -> dict[str, GameSide]:
    """Each side's row holding its seal, once sealed (none before the game starts)."""
    return {s.side: s for s in sides(session, game_id) if s.objectives_commitment is not None}


def commitments(session: Session, game_id: int) -> dict[str, str]:
    """Each side's published commitment (none before the game starts): what every device reads."""
    return {side: s.objectives_commitment or "" for side, s in seals(session, game_id).items()}


def verification(
    session: Session, game: Game, side: str, revealed: set[str], whole: bool
) -> ObjectivesVerifiedOut:
    """`side`'s secret objectives checked against its commitment: each revealed one (`revealed`: by id) by its
    leaf and the hashes on its way to the root, nothing of the others; `whole` (the game over, or its own side
    and the referee): every one, and the whole tree rebuilt from the padding salt."""
    sealed = seals(session, game.pk).get(side)
    if sealed is None:
        raise RuleRefused("the secret objectives are sealed as the game starts: nothing to check yet")
    mine = [r for r in rows(session, [game.pk]) if r.side == side]
    shown = [r for r in mine if whole or str(r.feature.get("id")) in revealed]
    levels = commitment.tree_levels(sealed.objectives_leaves)
    items: list[SecretObjectiveRevealedOut] = []
    for row in shown:
        assert row.slot is not None  # sealed: every one has its slot
        leaf = commitment.leaf_of(row.feature, row.salt)
        path = commitment.auth_path(levels, row.slot)
        root = commitment.commitment_of(game.pk, side, commitment.root_from_path(leaf, row.slot, path))
        items.append(
            SecretObjectiveRevealedOut(
                objective=ObjectiveFeature.model_validate(row.feature),
                salt=row.salt,
                slot=row.slot,
                leaf=leaf,
                path=path,
                root=root,
                verified=root == sealed.objectives_commitment,
            )
        )
    recomputed = items[0].root if items else None  # each revealed one's path gives the root
    if whole:
        leaves = commitment.plan_leaves(((r.slot, r.feature, r.salt) for r in mine), sealed.objectives_salt)
        recomputed = commitment.plan_commitment(game.pk, side, leaves)
    return ObjectivesVerifiedOut(
        side=side,
        commitment=sealed.objectives_commitment or "",
        recomputed=recomputed,
        verified=recomputed == sealed.objectives_commitment and all(i.verified for i in items),
        capacity=PLAN_CAPACITY,
        padding_salt=sealed.objectives_salt if whole else None,
        items=items,
        how_to_check=HOW_TO_CHECK,
    )
