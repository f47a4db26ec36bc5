"""The page of counters' panels built for one seat (issue 67), in the types of app.pages.counters_parts: each
counter read once from the reader's unit dict (`Counter`); the card read from the act pipeline's own answers,
`app.services.card.stand_card` (what this counter may do now, and why not) and `app.services.resolve.ask` (the
odds, nothing written), a result from the roll's own event, each taken into its types where it is read."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace

from sqlmodel import Session

from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Game, Unit
from app.errors import Refused
from app.pages.counters_parts import (
    ActLink,
    ActsArea,
    Card,
    Choice,
    Counter,
    CounterButton,
    Done,
    Edit,
    EditOffer,
    FieldValue,
    Greyed,
    Group,
    Need,
    Offered,
    OfferLine,
    OptionSpec,
    PlaceForm,
    Play,
    ResultFor,
    SetupGroup,
    SetupRow,
    StandAct,
    TurnPanel,
    Want,
    as_int,
    natural,
    refusal,
)
from app.pages.counters_play import play_area
from app.pages.templates import humanise, rule_state
from app.services import card as card_service
from app.services import counters, result, turns, unit_names
from app.services import events as events_service
from app.services import units as units_service
from app.services.counters import CounterBoardView
from app.services.markers import rules_of
from app.services.result import GameResult
from app.services.seating import Viewer
from app.services.undo import undo_refused
from rules.core.consequences import outcome_words, said
from rules.core.errors import NotFoundError, RulesError
from rules.core.records import AddToState, Change, SetState


@dataclass(frozen=True)
class Panels:
    """The page of counters' panels as one seat reads them: what `_counters_panel.html` reads."""

    game: Game
    role: str
    want: Want
    board: CounterBoardView
    turn_panel: TurnPanel
    groups: tuple[Group, ...]
    loaded: int
    setup: tuple[SetupGroup, ...]
    card: Card | None
    result_line: GameResult | None  # None until the game is over

    def context(self) -> dict[str, object]:
        """The template's names, each a part of the panels."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


class Builder:
    """The panels of one seat showing one `Want`, read from the game once."""

    def __init__(self, session: Session, game: Game, viewer: Viewer, want: Want) -> None:
        self.session, self.game, self.viewer, self.want = session, game, viewer, want
        self.rules = rules = rule_state(game.ruleset)
        self.board = counters.counter_board(session, game)
        self.sides = {
            s: rules.side_name(s, humanise(n) if (n := getattr(game, f"{s}_nation")) else s.capitalize())
            for s in ("attacker", "defender")
        }
        read = units_service.reader(game, viewer)
        # Read once: the turn's needs (result.turn_now) read the same rows.
        rows = self.rows = units_service.list_units(session, game.pk)
        names, full = unit_names.plain_names(rows), unit_names.names(rows)
        self.units = {u.pk: self._counter(read, u, names[u.pk] or full[u.pk][1], full[u.pk][0]) for u in rows}
        parents = {c.parent_id for c in self.units.values()}
        self.counters = [c for c in self.units.values() if c.id not in parents]
        self.first = viewer.role if viewer.role in self.sides else game.side_to_move or "attacker"
        self.status = game.status
        self.play: Play | None = None
        self.needs_of: dict[int, str] = {}  # what the step still needs, by the counter whose card settles it

    def build(self) -> Panels:
        offered = self._offered()
        self.play = self._play(offered)
        turn = self._turn()
        return Panels(
            game=self.game,
            role=self.viewer.role,
            want=self.want,
            board=self.board,
            turn_panel=turn,
            groups=self._groups(),
            loaded=len(self.counters),
            setup=self._setup(turn.status),
            card=self._card(offered),
            result_line=result.game_result(self.session, self.game.pk),
        )

    # -- a counter -----------------------------------------------------------------------------------------
    def _counter(self, read: units_service.Reader, row: Unit, short: str, full: str) -> Counter:
        """The counter as the seat reads it (its fields through `read`), its words worked out once."""
        u = read(row)
        board, marker = self.board, self.rules.marker
        flag, other = board.flipped
        set_ = [f for f in other if u.get(f) not in (None, "")]
        face = other if flag and u.get(flag) and len(set_) == len(other) else board.values
        states: list[str] = []
        on_counter: list[str] = []
        if marker is not None and u.get(marker.name):
            states.append(f"{marker.label} {u[marker.name]}")
            on_counter.append(states[-1])
        for f in self.rules.card:
            if f is marker or f.name in board.values or f.name == board.place_field or not u.get(f.name):
                continue
            words = {"count": f"{f.label} {u[f.name]}", "flag": f.label}
            states.append(words.get(f.kind, f"{f.label}: {u[f.name]}"))
            if f.kind == "flag":
                on_counter.append(states[-1])
        if mark := board.marks.get(u["id"]):
            states.append(mark)
            on_counter.append(mark)
        return Counter(
            id=int(u["id"]),
            side=str(u["side"]),
            killed=bool(u["killed"]),
            parent_id=u["parent_id"],
            level=str(u["level"]),
            version=int(u["version"]),
            short=short,
            full=full,
            place=str(u.get(board.place_field) or ""),
            printed="-".join(str(u[f]) for f in face if u.get(f) not in (None, "")),
            on_counter=tuple(on_counter),
            states=tuple(states),
            group_word=str(u.get(board.group_field) or "") if board.group_field else "",
        )

    def tapped(self, uid: int) -> str:
        play = self.play
        if play is None:
            return "selected" if uid == self.want.unit else ""
        if uid == play.target:
            return "target"
        return "attacking" if uid == self.want.unit or uid in self.want.joined else ""

    def go_tap(self, c: Counter) -> str:
        """What tapping a counter does: in a roll, take it as the target or join it (or leave); else open its card
        (or close it)."""
        w, play = self.want, self.play
        if play is not None and play.done is None and not play.act.on_enemy and not c.killed:
            roller = self.units.get(w.unit or 0)
            if roller is not None and c.side != roller.side and play.act.target:
                return w.query(target=c.id, dice=(), done=None)
            if roller is not None and c.side == roller.side and c.id != roller.id and play.act.joined:
                joined = tuple(j for j in w.joined if j != c.id) if c.id in w.joined else (*w.joined, c.id)
                return w.query(joined=joined, dice=())
        opened = w.unit == c.id and play is None
        return Want(w.group, None if opened else c.id).query()

    def button(self, c: Counter, with_place: bool) -> CounterButton:
        word = humanise(self.board.place_word)
        return CounterButton(
            id=c.id,
            side=c.side,
            side_name=self.sides.get(c.side, c.side),
            killed=c.killed,
            name=c.short,
            printed=c.printed,
            place=f"{word} {c.place}" if with_place and c.place else "",
            said=" · ".join(c.on_counter),
            tapped=self.tapped(c.id),
            go=self.go_tap(c),
        )

    def _sorted(self, cs: list[Counter]) -> list[Counter]:
        return sorted(cs, key=lambda c: (c.side != self.first, natural(c.short)))

    def _groups(self) -> tuple[Group, ...]:
        board, live = self.board, [c for c in self.counters if not c.killed]
        out: list[Group] = []

        def group(title: str, note: str, cs: list[Counter], with_place: bool, key: str) -> None:
            out.append(Group(title, note, key, tuple(self.button(c, with_place) for c in self._sorted(cs))))

        if self.want.group != "group":
            places: dict[str, list[Counter]] = {}
            for c in (c for c in live if c.place):
                places.setdefault(c.place, []).append(c)
            for k in sorted(places, key=natural):
                word = humanise(board.place_word)
                group(f"{word} {k}", board.places.get(k, ""), places[k], False, f"place-{k}")
            if off := [c for c in live if not c.place]:
                group(f"Not on a {board.place_word}", "", off, False, "off")
        else:
            groups: dict[str, tuple[str, str, list[Counter]]] = {}  # by key: its title, side and counters
            for c in live:
                if board.group_field:
                    key, title = f"{c.side}:{c.group_word}", c.group_word or "Others"
                else:
                    above = self._group_of(c)
                    key, title = (str(above.id), above.short) if above else ("", "Others")
                groups.setdefault(key, (title, c.side, []))[2].append(c)
            order = sorted(
                groups.items(),
                key=lambda kv: (self._sorted(kv[1][2])[0].side != self.first, natural(kv[1][0])),
            )
            for key, (title, side, cs) in order:
                group(title, self.sides.get(side, side), cs, True, f"group-{key}")
        if gone := [c for c in self.counters if c.killed]:
            group("Out of play", "", gone, True, "out")
        return tuple(out)

    def _group_of(self, c: Counter) -> Counter | None:
        above = self.units.get(c.parent_id or 0)
        while above is not None and above.level != self.board.group_level:
            above = self.units.get(above.parent_id or 0)
        return above

    # -- the turn -----------------------------------------------------------------------------------------
    def _turn(self) -> TurnPanel:
        t, board = result.turn_now(self.session, self.game, self.rows), self.board
        word = self.rules.turn_word.capitalize()
        track = next((x for x in board.track if x.number == t["turn"]), None)
        step = t.get("step") or {}
        title = board.steps[step["index"]] if step and 0 <= step.get("index", -1) < len(board.steps) else ""
        side = self.sides.get(t["side_to_move"], t["side_to_move"])
        status = str(t["status"])
        if status == "setup":
            now = "Setting up"
        elif status == "finished":
            now = "Game over"
        else:
            label = f": {track.label}" if track and track.label else ""
            badges = "".join(f" · {b}" for b in board.badges)
            now = f"{word} {t['turn']}{label} · {side}{f': {title}' if title else ' to move'}{badges}"
        mine = turns.may_advance(self.session, self.game, self.viewer)  # as the advance itself asks
        movers = " and the ".join(self.sides.get(s, s) for s in turns.acting(self.game))
        waits = (
            f"The {movers} player{'s' if ' and ' in movers else ''} moves the game on." if not mine else ""
        )
        n = t.get("next") or {}
        then = n.get("then")
        then_words = ""
        if then:
            later = f", {self.rules.turn_word.lower()} {then['turn']}" if then["turn"] != t["turn"] else ""
            then_words = f"{self.sides.get(then['side_to_move'], then['side_to_move'])}{later}"
        next_title = (
            ""
            if status == "setup"
            else f"Next: {n['title']}"
            if n.get("title")
            else f"Next: {then_words}"
            if then_words
            else ""
        )
        needs, cards = (t.get("needs") or [])[1:], (t.get("needs_cards") or [])[1:]
        self.needs_of = {c: str(text) for text, c in zip(needs, cards, strict=False) if isinstance(c, int)}
        still = (
            tuple(
                Need(str(text), Want(self.want.group, c).query() if c in self.units else "")
                for text, c in zip(needs, cards, strict=False)
            )
            if status == "playing" and self.play is None
            else ()
        )
        step_write = {"url": f"/api/v1/games/{self.game.id}/turn/advance", "body": {"version": t["version"]}}
        return TurnPanel(
            now=now,
            turn=int(t["turn"]),
            status=status,
            current=int(t["turn"]) if status == "playing" else None,
            note=track.note if track and track.note else "",
            step_tools=mine,
            step_label="Start the game" if status == "setup" else "Next step",
            next_title=next_title,
            version=int(t["version"]),
            next_step=json.dumps(step_write),
            needs=still,
            waits=waits if status == "playing" else "",
        )

    # -- set-up --------------------------------------------------------------------------------------------
    def _setup(self, status: str) -> tuple[SetupGroup, ...]:
        if status != "setup":
            return ()
        waiting = [
            c for c in self.counters if not c.killed and not c.place and self.viewer.may_act_for(c.side)
        ]
        groups: dict[str, tuple[str, str, list[SetupRow]]] = {}  # by key: its title, side and rows
        for c in self._sorted(waiting):
            side = self.sides.get(c.side, c.side)
            key = f"{c.side}:{c.group_word}"
            row = SetupRow(c.id, c.short, c.printed, self._put(c, {}))
            groups.setdefault(key, (c.group_word or side, side, []))[2].append(row)
        return tuple(SetupGroup(k, title, side, tuple(rows)) for k, (title, side, rows) in groups.items())

    def _put(self, c: Counter, values: dict[str, object]) -> str:
        body = {"version": c.version, **values}
        return json.dumps(
            {"url": f"/api/v1/games/{self.game.id}/units/{c.id}", "method": "PUT", "body": body}
        )

    # -- the card ------------------------------------------------------------------------------------------
    def _offered(self) -> Offered | None:
        """What the open counter's card offers (`stand_card`), taken into its types."""
        uid = self.want.unit
        if uid is None or uid not in self.units:
            return None
        return self._offer_of(uid)

    def _offer_of(self, uid: int) -> Offered:
        """What a counter's card offers this seat now (`stand_card`), taken into its types."""
        try:
            raw = card_service.stand_card(self.session, self.game, self.viewer, uid)
        except (RulesError, Refused):
            return Offered((), (), (), None)
        edits = tuple(
            EditOffer(
                e["label"],
                e["field"],
                tuple((c["label"], c["value"]) for c in e["choices"] if not c.get("needs_target")),
            )
            for e in raw.get("edits") or []
        )
        offers = tuple(
            OfferLine(
                o["kind"],
                o["key"],
                o["label"],
                refusal(r["detail"], r.get("why"), r.get("source")) if (r := o.get("refused")) else None,
                dict(o.get("values") or {}),
                tuple(str(p) for p in o.get("places") or ()),
                bool(o.get("typed", True)),
            )
            for o in raw.get("offers") or []
        )
        acts = tuple(
            StandAct(**{**a, "options": tuple(a.get("options") or ())}) for a in raw.get("acts") or []
        )
        why = raw.get("refused")
        return Offered(
            acts, edits, offers, refusal(why["detail"], why.get("why"), why.get("source")) if why else None
        )

    def _play(self, offered: Offered | None) -> Play | None:
        w = self.want
        acts = offered.acts if offered is not None else ()
        done = self._done(w.done) if w.done is not None else None
        if done is not None:  # the roll recorded, as its event says it (its act offered no more, once made)
            act = _roll_of(done, acts, offered.offers if offered is not None else ())
            target = done.target_id
        elif w.act is None or not 0 <= w.act < len(acts):
            return None
        else:
            act = acts[w.act]
            target = act.unit_id if act.on_enemy else w.target if w.target in self.units else None
        specs = {
            k: OptionSpec(
                s["kind"], s["title"], s.get("default"), tuple(s.get("values") or ()), s.get("labels") or {}
            )
            for k, s in counters.roll_options(self.game.ruleset).get(act.resolver, {}).items()
        }
        given: dict[str, FieldValue] = {}
        for k, raw in w.given:
            spec = specs.get(k)
            if spec is not None:
                given[k] = (
                    raw == "true" if spec.kind == "flag" else raw if spec.kind == "word" else as_int(raw)
                )
        joined = tuple(j for j in w.joined if j in self.units)
        fields_: dict[str, FieldValue] = {
            **given,
            **({act.joined: [act.unit_id, *joined]} if act.joined else {}),
        }
        return Play(act, target, joined, given, specs, fields_, done)

    def _done(self, event_id: int) -> Done | None:
        try:
            ev = events_service.get_event(self.session, self.game.pk, event_id)
        except NotFoundError:
            return None
        if not self.viewer.sees(ev.visibility) or ev.kind != "roll":
            return None
        payload = events_service.event_dict(ev, events_service.roles_of(self.viewer))["payload"]
        res = payload.get("resolution") or {}
        done: list[Change] = []
        for c in changes_in(payload):
            if isinstance(c, UnitSet):
                done.append(SetState("", "", c.unit, c.field, c.after))
            elif isinstance(c, UnitCounted):
                done.append(AddToState("", "", c.unit, c.field, c.delta))
        rows = units_service.list_units(self.session, self.game.pk)
        state_fields = rules_of(self.game).book.state_fields
        return Done(
            event_id=ev.pk,
            resolver=str(payload.get("resolver") or ""),
            unit_id=payload.get("unit_id"),
            target_id=payload.get("target_id"),
            dice=" and ".join(str(d) for d in res.get("dice") or []),
            outcome_key=res.get("outcome_key") or "",
            words=outcome_words(res.get("outcome")),
            said=tuple(said(done, state_fields, unit_names.display_names(rows))),
            notes=tuple(str(n) for n in res.get("notes") or ()),
            request=dict(payload.get("request") or {}),
            undo_refused=undo_refused(self.session, self.game, self.viewer, ev),
        )

    def _card(self, offered: Offered | None) -> Card | None:
        c = self.units.get(self.want.unit or 0)
        if c is None or offered is None or c.id not in {x.id for x in self.counters}:
            return None
        word = humanise(self.board.place_word)
        side = [self.sides.get(c.side, c.side), c.full if c.full != c.short else ""]
        values = [c.printed, "Out of play" if c.killed else "", *c.states]
        card = Card(
            id=c.id,
            name=c.short,
            side=c.side,
            side_line=" · ".join(x for x in [*side, f"{word} {c.place}" if c.place else ""] if x),
            values_line=" · ".join(x for x in values if x) or "Nothing to note",
            close=Want(self.want.group).query(),
        )
        if self.play is not None:
            return replace(card, play=play_area(self, c, self.play))
        if self.status == "setup" and c.place and not c.killed and self.viewer.may_act_for(c.side):
            return replace(card, acts_area=self._set_up_again(c))
        return replace(card, acts_area=self._acts_area(c, offered))

    def result_edits(self, c: Counter, offered: Offered) -> tuple[Edit, ...]:
        """The card's unit edits, and each move applying a result (a retreat, an advance) as a tap per place the
        pipeline takes it to now (`OfferLine.places`): the player chooses among the places the rules allow."""
        edits = tuple(
            Edit(e.label, tuple(Choice(label, self._put(c, {e.field: value})) for label, value in e.choices))
            for e in offered.edits
            if e.choices
        )
        word, field = self.board.place_word, self.board.place_field
        moves = tuple(
            Edit(
                o.label,
                tuple(
                    Choice(f"{o.label} to {word} {p}", self._put(c, {field: p, **o.values}))
                    for p in sorted(o.places, key=natural)
                ),
            )
            for o in offered.offers
            if o.kind == "place" and o.values and o.refused is None and o.places
        )
        return (*edits, *moves)

    def results_of(self, play: Play) -> tuple[tuple[ResultFor, ...], tuple[str, ...]]:
        """A recorded roll's result to apply: on each counter it names (its roller, those joining it, its target)
        that this seat may act for, what the counter's card offers now; of the others, what the step still
        needs of them, their owner's to apply."""
        done = play.done
        if done is None:
            return (), ()
        joined = done.request.get(play.act.joined) if play.act.joined else None
        named = [done.unit_id, *(joined if isinstance(joined, list) else ()), done.target_id]
        ours: list[ResultFor] = []
        theirs: list[str] = []
        for uid in dict.fromkeys(u for u in named if isinstance(u, int)):
            c = self.units.get(uid)
            if c is None or c.killed:
                continue
            if self.viewer.may_act_for(c.side):
                if edits := self.result_edits(c, self._offer_of(c.id)):
                    ours.append(ResultFor(c.id, c.short, edits))
            elif need := self.needs_of.get(c.id):
                theirs.append(f"{need}: the {self.sides.get(c.side, c.side)} player applies it.")
        return tuple(ours), tuple(theirs)

    def _set_up_again(self, c: Counter) -> ActsArea:
        """In set-up, one's own counter placed: set up in another place typed (the rules judge it as they judged
        its first), or taken back to the set-up list; nothing else is played before the game starts."""
        word = self.board.place_word
        numeric = all(not x.place or x.place.isdecimal() for x in self.counters)
        moved = PlaceForm(
            f"Set up in another {word}", numeric, self.board.place_field, (Choice("Move", self._put(c, {})),)
        )
        back = Edit(
            "Set-up", (Choice("Back to the set-up list", self._put(c, {self.board.place_field: ""})),)
        )
        return ActsArea((), (back,), moved, (), (), None, "")

    def _acts_area(self, c: Counter, offered: Offered) -> ActsArea:
        api, w = f"/api/v1/games/{self.game.id}", self.want
        acts = tuple(
            ActLink(a.label, a.why, w.query(act=i, target=None, joined=(), given=(), dice=(), done=None))
            for i, a in enumerate(offered.acts)
        )
        edits = self.result_edits(c, offered)
        offers = offered.offers
        moves = [o for o in offers if o.kind == "place" and o.refused is None]
        if any(o.values and o.places for o in moves):
            # A result to apply: its choices alone, a tap per place (a general move would be read as the same
            # result: a second Retreat), typed only where the pipeline takes it past a step.
            moves = [o for o in moves if o.values and o.typed]
        plain = next((o for o in moves if not o.values), None)
        word = self.board.place_word
        place = None
        if moves:
            numeric = all(not x.place or x.place.isdecimal() for x in self.counters)
            label = plain.label if plain else f"To another {word}" if c.place else f"The {word} it enters"
            buttons = tuple(
                Choice("Move" if o is plain else o.label, self._put(c, dict(o.values))) for o in moves
            )
            place = PlaceForm(label, numeric, self.board.place_field, buttons)
        marks = tuple(
            Choice(
                o.label,
                json.dumps(
                    {
                        "url": f"{api}/units/{c.id}/markers",
                        "method": "POST",
                        "body": {"delta": 1 if o.kind == "mark" else -1},
                    }
                ),
            )
            for kind in ("mark", "recover")
            for o in offers
            if o.kind == kind and o.refused is None
        )[:2]
        # The plain move refused too (Zero Hour's, the night's), with its rule: a card without it said nothing why.
        first_place = next((o for o in offers if o.kind == "place"), None)
        greyed = tuple(
            Greyed(o.label, o.refused.detail)
            for o in offers
            if o.refused and (o.kind in ("roll", "edit") or (o is first_place and not place))
        )
        waiting = offered.refused if offered.refused and not acts else None
        nothing = not (acts or edits or place or marks or greyed or waiting)
        mine = self.viewer.may_act_for(c.side)
        words = (
            "Nothing to do with it now." if mine else "The other side's counter: nothing to do with it now."
        )
        return ActsArea(acts, edits, place, marks, greyed, waiting, words if nothing else "")


def _roll_of(done: Done, acts: tuple[StandAct, ...], offers: tuple[OfferLine, ...]) -> StandAct:
    """The act a recorded roll made: as the card offers it still, else by its offer's words (refused now)."""
    offered = next((a for a in acts if a.resolver == done.resolver), None)
    if offered is not None:
        return offered
    label = next(
        (o.label for o in offers if o.kind == "roll" and o.key == done.resolver), humanise(done.resolver)
    )
    on_enemy = done.unit_id is None
    unit = done.target_id if on_enemy else done.unit_id
    return StandAct(label, done.resolver, unit or 0, on_enemy=on_enemy)


def panel(session: Session, game: Game, viewer: Viewer, want: Want) -> Panels:
    """The page of counters' panels as `viewer` reads them now, showing `want`."""
    return Builder(session, game, viewer, want).build()
