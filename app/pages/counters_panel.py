"""The page of counters' panels, rendered by the server (issue 67): the turn panel, what the step still needs,
set-up's placing, the counters list and a counter's card (its acts, greyed acts with their sentence, options,
odds, dice, result and Undo), as `_counters_panel.html` renders them for one seat. The card is read from the
act pipeline's own answers: `app.services.card.stand_card` (what this counter may do now, and why not) and
`app.services.resolve.ask` (the odds, nothing written); a result from the roll's own event. The card's state
(the counter open, the act played, its target, the counters joining it, the options chosen, the dice tapped,
the roll recorded) is the request's query, so every tap is a link the server draws (`data-go`): a page's
script swaps the panels and sends the writes (frontend/static/js/counter-board.js); the game's stream pushes
the panels a seat may read (`counters_view`), and `?after=` reads them anew."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.core import live
from app.core.routing import Router
from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Game
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Refused, refusal_body
from app.pages.seats import Seat, game_page
from app.pages.templates import humanise, rule_state, templates
from app.services import card as card_service
from app.services import counters, result, score, unit_names
from app.services import events as events_service
from app.services import resolve as resolve_service
from app.services import units as units_service
from app.services.markers import rules_of
from app.services.seating import Viewer
from rules.core.consequences import outcome_words, said
from rules.core.errors import NotFoundError, RulesError
from rules.core.records import AddToState, Change, SetState

router = Router()

IDS = 2_147_483_647


@dataclass(frozen=True)
class Want:
    """What this seat's page of counters shows: the list's grouping, the counter whose card is open, the act it
    plays (its index in the card's acts), its target, the counters joining it, the options chosen, the dice
    tapped, and the roll recorded (its event)."""

    group: str = "place"
    unit: int | None = None
    act: int | None = None
    target: int | None = None
    joined: tuple[int, ...] = ()
    given: tuple[tuple[str, str], ...] = ()
    dice: tuple[int, ...] = ()
    done: int | None = None

    def query(self, **changed: Any) -> str:
        w = replace(self, **changed)
        pairs: list[tuple[str, Any]] = [("group", w.group)]
        pairs += [
            (k, v) for k, v in (("unit", w.unit), ("act", w.act), ("target", w.target)) if v is not None
        ]
        pairs += [("joined", j) for j in w.joined] + [("opt", f"{k}={v}") for k, v in w.given]
        pairs += [("die", d) for d in w.dice] + ([("done", w.done)] if w.done is not None else [])
        return urlencode(pairs)

    def chosen(self, name: str, value: str) -> tuple[tuple[str, str], ...]:
        return (*((k, v) for k, v in self.given if k != name), (name, value))


def want_of(
    group: str = "place",
    unit: int | None = None,
    act: int | None = None,
    target: int | None = None,
    joined: list[int] | None = None,
    opt: list[str] | None = None,
    die: list[int] | None = None,
    done: int | None = None,
) -> Want:
    given = tuple((k, v) for o in opt or () for k, _, v in [o.partition("=")] if k)
    return Want(group, unit, act, target, tuple(joined or ()), given, tuple(die or ()), done)


def _natural(text: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text))


@dataclass
class _Panel:
    session: Session
    game: Game
    viewer: Viewer
    want: Want
    out: dict[str, Any] = field(default_factory=dict)

    def build(self) -> dict[str, Any]:
        game, viewer, want = self.game, self.viewer, self.want
        rules = rule_state(game.ruleset)
        read = units_service.reader(game, viewer)
        rows = units_service.list_units(self.session, game.pk)
        self.units = {u.pk: read(u) for u in rows}
        names = unit_names.plain_names(rows)
        full = unit_names.names(rows)
        self.short = {uid: names[uid] or full[uid][1] for uid in self.units}
        self.full = {uid: full[uid][0] for uid in self.units}
        self.board = counters.counter_board(self.session, game)
        self.rules = rules
        self.sides = {
            s: rules.side_name(s, humanise(n) if (n := getattr(game, f"{s}_nation")) else s.capitalize())
            for s in ("attacker", "defender")
        }
        self.turn = result.turn_now(self.session, game)
        parents = {u["parent_id"] for u in self.units.values()}
        self.counters = [u for u in self.units.values() if u["id"] not in parents]
        self.first = viewer.role if viewer.role in self.sides else game.side_to_move or "attacker"
        offered = self._offered()
        self.play = self._play(offered)
        return {
            "game": game,
            "role": viewer.role,
            "want": want,
            "board": self.board,
            "turn_panel": self._turn(),
            "groups": self._groups(),
            "loaded": len(self.counters),
            "setup": self._setup(),
            "card": self._card(offered),
            "result_line": result.game_result(self.session, game.pk),  # None until the game is over
        }

    # -- a counter -----------------------------------------------------------------------------------------
    def place(self, u: dict[str, Any]) -> str:
        return str(u.get(self.board.place_field) or "")

    def printed(self, u: dict[str, Any]) -> str:
        flag, other = self.board.flipped
        set_ = [f for f in other if u.get(f) not in (None, "")]
        face = other if flag and u.get(flag) and len(set_) == len(other) else self.board.values
        return "-".join(str(u[f]) for f in face if u.get(f) not in (None, ""))

    def states(self, u: dict[str, Any], on_counter: bool) -> list[str]:
        marker, out = self.rules.marker, []
        if marker is not None and u.get(marker.name):
            out.append(f"{marker.label} {u[marker.name]}")
        for f in self.rules.card:
            if (
                f is marker
                or f.name in self.board.values
                or f.name == self.board.place_field
                or not u.get(f.name)
            ):
                continue
            if on_counter and f.kind != "flag":
                continue
            words = {"count": f"{f.label} {u[f.name]}", "flag": f.label}
            out.append(words.get(f.kind, f"{f.label}: {u[f.name]}"))
        mark = self.board.marks.get(u["id"])
        return [*out, mark] if mark else out

    def tapped(self, uid: int) -> str:
        play = self.play
        if play is None:
            return "selected" if uid == self.want.unit else ""
        if uid == play["target"]:
            return "target"
        return "attacking" if uid == self.want.unit or uid in self.want.joined else ""

    def go_tap(self, u: dict[str, Any]) -> str:
        """What tapping a counter does: in a roll, take it as the target or join it (or leave); else open its card
        (or close it)."""
        w, play = self.want, self.play
        if play is not None and not play["done"] and not play["act"].get("on_enemy") and not u["killed"]:
            roller = self.units.get(w.unit or 0)
            if roller is not None and u["side"] != roller["side"] and play["act"].get("target"):
                return w.query(target=u["id"], dice=(), done=None)
            if (
                roller is not None
                and u["side"] == roller["side"]
                and u["id"] != roller["id"]
                and play["act"].get("joined")
            ):
                joined = (
                    tuple(j for j in w.joined if j != u["id"])
                    if u["id"] in w.joined
                    else (*w.joined, u["id"])
                )
                return w.query(joined=joined, dice=())
        opened = w.unit == u["id"] and play is None
        return Want(w.group, None if opened else u["id"]).query()

    def button(self, u: dict[str, Any], with_place: bool) -> dict[str, Any]:
        word = humanise(self.board.place_word)
        return {
            "id": u["id"],
            "side": u["side"],
            "side_name": self.sides.get(u["side"], u["side"]),
            "killed": u["killed"],
            "name": self.short[u["id"]],
            "printed": self.printed(u),
            "place": f"{word} {self.place(u)}" if with_place and self.place(u) else "",
            "said": " · ".join(self.states(u, True)),
            "tapped": self.tapped(u["id"]),
            "go": self.go_tap(u),
        }

    def _sorted(self, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(units, key=lambda u: (u["side"] != self.first, _natural(self.short[u["id"]])))

    def _groups(self) -> list[dict[str, Any]]:
        board, live = self.board, [u for u in self.counters if not u["killed"]]
        out: list[dict[str, Any]] = []

        def group(title: str, note: str, units: list[dict[str, Any]], with_place: bool, key: str) -> None:
            out.append({"title": title, "note": note, "key": key,
                        "counters": [self.button(u, with_place) for u in self._sorted(units)]})  # fmt: skip

        if self.want.group != "group":
            places: dict[str, list[dict[str, Any]]] = {}
            for u in (u for u in live if self.place(u)):
                places.setdefault(self.place(u), []).append(u)
            for k in sorted(places, key=_natural):
                group(
                    f"{humanise(board.place_word)} {k}",
                    board.places.get(k, ""),
                    places[k],
                    False,
                    f"place-{k}",
                )
            if off := [u for u in live if not self.place(u)]:
                group(f"Not on a {board.place_word}", "", off, False, "off")
        else:
            groups: dict[str, dict[str, Any]] = {}
            for u in live:
                if board.group_field:
                    word = str(u.get(board.group_field) or "")
                    key, title = f"{u['side']}:{word}", word or "Others"
                else:
                    above = self._group_of(u)
                    key, title = (str(above["id"]), self.short[above["id"]]) if above else ("", "Others")
                groups.setdefault(key, {"title": title, "side": u["side"], "units": []})["units"].append(u)
            order = sorted(
                groups.items(),
                key=lambda kv: (
                    self._sorted(kv[1]["units"])[0]["side"] != self.first,
                    _natural(kv[1]["title"]),
                ),
            )
            for key, g in order:
                group(g["title"], self.sides.get(g["side"], g["side"]), g["units"], True, f"group-{key}")
        if gone := [u for u in self.counters if u["killed"]]:
            group("Out of play", "", gone, True, "out")
        return out

    def _group_of(self, u: dict[str, Any]) -> dict[str, Any] | None:
        above = self.units.get(u["parent_id"] or 0)
        while above is not None and above["level"] != self.board.group_level:
            above = self.units.get(above["parent_id"] or 0)
        return above

    # -- the turn -----------------------------------------------------------------------------------------
    def _turn(self) -> dict[str, Any]:
        t, game, board = self.turn, self.game, self.board
        word = self.rules.turn_word.capitalize()
        track = next((x for x in board.track if x.number == t["turn"]), None)
        step = t.get("step") or {}
        title = board.steps[step["index"]] if step and 0 <= step.get("index", -1) < len(board.steps) else ""
        side = self.sides.get(t["side_to_move"], t["side_to_move"])
        if t["status"] == "setup":
            now = "Setting up"
        elif t["status"] == "finished":
            now = "Game over"
        else:
            label = f": {track.label}" if track and track.label else ""
            badges = "".join(f" · {b}" for b in board.badges)
            now = f"{word} {t['turn']}{label} · {side}{f': {title}' if title else ' to move'}{badges}"
        role = self.viewer.role
        mine = t["status"] != "finished" and (
            role == "referee" or (t["status"] == "playing" and role == t["side_to_move"])
        )
        n = t.get("next") or {}
        then = n.get("then")
        then_words = ""
        if then:
            later = f", {self.rules.turn_word.lower()} {then['turn']}" if then["turn"] != t["turn"] else ""
            then_words = f"{self.sides.get(then['side_to_move'], then['side_to_move'])}{later}"
        next_title = (
            ""
            if t["status"] == "setup"
            else f"Next: {n['title']}"
            if n.get("title")
            else f"Next: {then_words}"
            if then_words
            else ""
        )
        needs, cards = (t.get("needs") or [])[1:], (t.get("needs_cards") or [])[1:]
        still = (
            [
                {"text": text, "go": Want(self.want.group, c).query() if c in self.units else ""}
                for text, c in zip(needs, cards, strict=False)
            ]
            if t["status"] == "playing" and self.play is None
            else []
        )
        return {
            "now": now,
            "turn": t["turn"],
            "status": t["status"],
            "current": t["turn"] if t["status"] == "playing" else None,
            "note": track.note if track and track.note else "",
            "step_tools": mine,
            "step_label": "Start the game" if t["status"] == "setup" else "Next step",
            "next_title": next_title,
            "next_step": {"url": f"/api/v1/games/{game.id}/turn/advance", "body": {"version": t["version"]}},
            "needs": still,
        }

    # -- set-up --------------------------------------------------------------------------------------------
    def _setup(self) -> list[dict[str, Any]]:
        if self.turn["status"] != "setup":
            return []
        waiting = [
            u
            for u in self.counters
            if not u["killed"] and not self.place(u) and self.viewer.may_act_for(u["side"])
        ]
        groups: dict[str, dict[str, Any]] = {}
        for u in self._sorted(waiting):
            word = str(u.get(self.board.group_field) or "") if self.board.group_field else ""
            side = self.sides.get(u["side"], u["side"])
            g = groups.setdefault(
                f"{u['side']}:{word}",
                {"key": f"{u['side']}:{word}", "title": word or side, "side": side, "rows": []},
            )
            g["rows"].append({**self.button(u, False), "write": self._put(u, {})})
        return list(groups.values())

    def _put(self, u: dict[str, Any], values: dict[str, Any]) -> str:
        body = {"version": u["version"], **values}
        return json.dumps(
            {"url": f"/api/v1/games/{self.game.id}/units/{u['id']}", "method": "PUT", "body": body}
        )

    # -- the card ------------------------------------------------------------------------------------------
    def _offered(self) -> dict[str, Any] | None:
        uid = self.want.unit
        if uid is None or uid not in self.units:
            return None
        try:
            return card_service.stand_card(self.session, self.game, self.viewer, uid)
        except (RulesError, Refused):
            return {"acts": [], "edits": [], "offers": [], "refused": None}

    def _play(self, offered: dict[str, Any] | None) -> dict[str, Any] | None:
        w = self.want
        acts = (offered or {}).get("acts") or []
        done = self._done(w.done) if w.done is not None else None
        if done is not None:  # the roll recorded, as its event says it (its act offered no more, once made)
            act = _roll_of(done, acts, (offered or {}).get("offers") or [])
            target = done["target_id"]
        elif w.act is None or not 0 <= w.act < len(acts):
            return None
        else:
            act = acts[w.act]
            target = act["unit_id"] if act.get("on_enemy") else w.target if w.target in self.units else None
        specs = counters.roll_options(self.game.ruleset).get(act["resolver"], {})
        given: dict[str, Any] = {}
        for k, raw in w.given:
            spec = specs.get(k)
            if spec is not None:
                given[k] = (
                    raw == "true" if spec["kind"] == "flag" else raw if spec["kind"] == "word" else _int(raw)
                )
        joined = [j for j in w.joined if j in self.units]
        fields = {**given, **({act["joined"]: [act["unit_id"], *joined]} if act.get("joined") else {})}
        body = {
            "unit_id": None if act.get("on_enemy") else act["unit_id"],
            "target_id": target,
            "fields": fields,
        }
        return {"act": act, "target": target, "joined": joined, "given": given, "specs": specs, "body": body,
                "done": done}  # fmt: skip

    def _done(self, event_id: int) -> dict[str, Any] | None:
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
        fields = rules_of(self.game).book.state_fields
        return {
            "event_id": ev.pk,
            "resolver": str(payload.get("resolver") or ""),
            "unit_id": payload.get("unit_id"),
            "target_id": payload.get("target_id"),
            "dice": " and ".join(str(d) for d in res.get("dice") or []),
            "outcome_key": res.get("outcome_key") or "",
            "words": outcome_words(res.get("outcome")),
            "said": said(done, fields, unit_names.display_names(rows)),
        }

    def _card(self, offered: dict[str, Any] | None) -> dict[str, Any] | None:
        u = self.units.get(self.want.unit or 0)
        if u is None or offered is None or u["id"] not in {c["id"] for c in self.counters}:
            return None
        word = humanise(self.board.place_word)
        side = [
            self.sides.get(u["side"], u["side"]),
            self.full[u["id"]] if self.full[u["id"]] != self.short[u["id"]] else "",
        ]
        values = [self.printed(u), "Out of play" if u["killed"] else "", *self.states(u, False)]
        card = {
            "id": u["id"],
            "name": self.short[u["id"]],
            "side": u["side"],
            "side_line": " · ".join(
                x for x in [*side, f"{word} {self.place(u)}" if self.place(u) else ""] if x
            ),
            "values_line": " · ".join(x for x in values if x) or "Nothing to note",
            "close": Want(self.want.group).query(),
        }
        if self.play is not None:
            return {**card, "play": self._play_area(u)}
        return {**card, "acts_area": self._acts_area(u, offered)}

    def _acts_area(self, u: dict[str, Any], offered: dict[str, Any]) -> dict[str, Any]:
        api, w = f"/api/v1/games/{self.game.id}", self.want
        acts = [{"label": a["label"], "why": a.get("why") or "", "go": w.query(act=i, target=None, joined=(), given=(), dice=(), done=None)}
                for i, a in enumerate(offered.get("acts") or [])]  # fmt: skip
        edits = []
        for e in offered.get("edits") or []:
            choices = [{"label": c["label"], "write": self._put(u, {e["field"]: c["value"]})}
                       for c in e["choices"] if not c.get("needs_target")]  # fmt: skip
            if choices:
                edits.append({"label": e["label"], "choices": choices})
        offers = offered.get("offers") or []
        moves = [o for o in offers if o["kind"] == "place" and not o.get("refused")]
        plain = next((o for o in moves if not o.get("values")), None)
        word = self.board.place_word
        place = None
        if moves:
            numeric = all(not self.place(c) or self.place(c).isdigit() for c in self.counters)
            label = (
                plain["label"]
                if plain
                else f"To another {word}"
                if self.place(u)
                else f"The {word} it enters"
            )
            place = {
                "label": label,
                "numeric": numeric,
                "field": self.board.place_field,
                "buttons": [
                    {
                        "text": "Move" if o is plain else o["label"],
                        "write": self._put(u, dict(o.get("values") or {})),
                    }
                    for o in moves
                ],
            }
        marks = [
            {
                "label": o["label"],
                "write": json.dumps(
                    {
                        "url": f"{api}/units/{u['id']}/markers",
                        "method": "POST",
                        "body": {"delta": 1 if o["kind"] == "mark" else -1},
                    }
                ),
            }
            for kind in ("mark", "recover")
            for o in offers[:]
            if o["kind"] == kind and not o.get("refused")
        ][:2]
        greyed = [{"label": o["label"], "detail": o["refused"]["detail"]} for o in offers
                  if o.get("refused") and o["kind"] in ("roll", "edit")]  # fmt: skip
        waiting = offered.get("refused") if offered.get("refused") and not acts else None
        nothing = not (acts or edits or place or marks or greyed or waiting)
        return {"acts": acts, "edits": edits, "place": place, "marks": marks, "greyed": greyed, "waiting": waiting,
                "nothing": ("Nothing to do with it now." if self.viewer.may_act_for(u["side"]) else "The other side's counter: nothing to do with it now.") if nothing else ""}  # fmt: skip

    def _play_area(self, u: dict[str, Any]) -> dict[str, Any]:
        play, w = self.play, self.want
        assert play is not None
        act, target = play["act"], self.units.get(play["target"] or 0)
        joined = [self.short[j] for j in play["joined"]]
        t_name = self.short[target["id"]] if target else ""
        who = (f"{act['label']}: {t_name}" if act.get("on_enemy")
               else f"{act['label']}: {' + '.join([self.short[u['id']], *joined])}{f' at {t_name}' if target else ''}")  # fmt: skip
        back = Want(w.group, w.unit).query()
        out: dict[str, Any] = {"title": who, "cancel": back, "done": play["done"]}
        if play["done"] is not None:
            out["undo"] = {
                "url": f"/api/v1/games/{self.game.id}/events/{play['done']['event_id']}/undo",
                "method": "POST",
                "body": {},
            }
            out["undo_json"] = json.dumps(out["undo"])
            return out
        if act.get("target") and play["target"] is None:
            other = self.sides["defender" if u["side"] == "attacker" else "attacker"]
            joins = "; tap more of your counters to join" if act.get("joined") else ""
            out["prompt"] = f"Tap the {other} counter it {act['label'].lower()}s{joins}."
            return out
        try:
            asked = resolve_service.ask(self.session, self.game, self.viewer, act["resolver"], play["body"]["fields"],
                                        None, play["body"]["unit_id"], play["target"])  # fmt: skip
        except (RulesError, Refused) as e:
            body = refusal_body(e)
            out["refused"] = {
                "detail": body["detail"],
                "why": body.get("why") or "",
                "source": body.get("source") or "",
            }
            out["options"] = self._options(act, [])
            return out
        if asked.get(
            "refused"
        ):  # refused as it stands: its options may lift it ("say the target is observed")
            refused = asked["refused"]
            out["refused"] = {k: refused.get(k) or "" for k in ("detail", "why", "source")}
            out["options"] = self._options(act, asked.get("filled") or [])
            return out
        labels = {f.name: f.label for f in self.rules.card}
        filled = asked.get("filled") or []
        out["detail"] = " · ".join(f"{labels.get(f['field']) or humanise(f['field'])} {_value(f['value'])}" for f in filled
                                   if not isinstance(f["value"], dict))  # fmt: skip
        out["filled"] = [
            f"{labels.get(f['field']) or humanise(f['field'])}: {_value(f['value'])} ({f['why']})"
            for f in filled
        ]
        out["odds"] = [f"{humanise(k)} {v}" for k, v in (asked.get("odds_words") or {}).items()]
        out["options"] = self._options(act, filled)
        dice = (asked.get("resolution") or {}).get("dice") or []
        count = len(dice) or act.get("dice") or 1
        roll = {"url": f"/api/v1/games/{self.game.id}/resolve/{act['resolver']}", "method": "POST",
                "body": {**play["body"], "apply": True}}  # fmt: skip
        out["dice"] = [
            {"label": "The die: tap what it shows" if count == 1 else f"Die {row + 1}",
             "faces": [self._face(roll, count, row, n) for n in range(1, 7)]}
            for row in range(count)
        ]  # fmt: skip
        out["roll"] = json.dumps(roll)
        out["then"] = w.query(dice=())
        out["joins"] = bool(act.get("joined"))
        unit = "" if act.get("on_enemy") else f"&unit={act['unit_id']}"
        out["lookup"] = f"/lookup/{self.game.ruleset}/{act['resolver']}?game={self.game.id}{unit}"
        return out

    def _face(self, roll: dict[str, Any], count: int, row: int, n: int) -> dict[str, Any]:
        """A die's face: tapped, it is kept (the roll's other dice still to tap) or the roll is recorded."""
        w = self.want
        dice = [*w.dice[:count], *([0] * max(0, count - len(w.dice)))]
        pressed = dice[row] == n
        dice[row] = n
        face: dict[str, Any] = {"n": n, "pressed": pressed}
        if all(dice):
            face["write"] = json.dumps({**roll, "body": {**roll["body"], "dice": dice}})
        else:
            face["go"] = w.query(dice=tuple(dice))
        return face

    def _options(self, act: dict[str, Any], filled: list[dict[str, Any]]) -> list[dict[str, Any]]:
        play, w = self.play, self.want
        assert play is not None
        specs, given = play["specs"], play["given"]
        by_board = {f["field"] for f in filled if not f.get("given")}
        named = [n for n in act.get("options") or [] if n in specs and (n not in by_board or n in given)]

        def now(n: str) -> Any:
            return given.get(n, specs[n].get("default"))

        def button(n: str, value: Any, text: str, pressed: bool) -> dict[str, Any]:
            raw = str(value).lower() if isinstance(value, bool) else str(value)
            return {
                "text": text,
                "pressed": pressed,
                "go": w.query(given=w.chosen(n, raw), dice=(), done=None),
            }

        rows = []
        for n in (n for n in named if specs[n]["kind"] != "flag"):
            spec = specs[n]
            words = spec.get("labels") or {}
            rows.append({"title": spec["title"], "buttons": [
                button(n, v, words.get(v) or humanise(v) if spec["kind"] == "word" else str(v), now(n) == v) for v in spec["values"]]})  # fmt: skip
        if flags := [n for n in named if specs[n]["kind"] == "flag"]:
            rows.append(
                {
                    "title": "Choices",
                    "buttons": [button(n, not now(n), specs[n]["title"], bool(now(n))) for n in flags],
                }
            )
        return rows


def _roll_of(
    done: dict[str, Any], acts: list[dict[str, Any]], offers: list[dict[str, Any]]
) -> dict[str, Any]:
    """The act a recorded roll made: as the card offers it still, else by its offer's words (refused now)."""
    resolver = done["resolver"]
    offered = next((a for a in acts if a["resolver"] == resolver), None)
    if offered is not None:
        return offered
    label = next(
        (o["label"] for o in offers if o["kind"] == "roll" and o["key"] == resolver), humanise(resolver)
    )
    on_enemy = done["unit_id"] is None
    return {"label": label, "resolver": resolver, "unit_id": done["target_id"] if on_enemy else done["unit_id"],
            "on_enemy": on_enemy}  # fmt: skip


def _int(raw: str) -> int | None:
    try:
        return int(raw)
    except ValueError:
        return None


def _value(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return json.dumps(v) if isinstance(v, dict) else str(v)


def panel(session: Session, game: Game, viewer: Viewer, want: Want) -> dict[str, Any]:
    """The page of counters' panels as `viewer` reads them now, showing `want`."""
    return _Panel(session, game, viewer, want).build()


@router.get("/games/{game_id}/counters/panel", response_class=HTMLResponse)
def counters_panel(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    group: Annotated[str, Query(pattern="^(place|group)$")] = "place",
    unit: Annotated[int | None, Query(ge=1, le=IDS)] = None,
    act: Annotated[int | None, Query(ge=0, le=64)] = None,
    target: Annotated[int | None, Query(ge=1, le=IDS)] = None,
    joined: Annotated[list[int] | None, Query(max_length=64)] = None,
    opt: Annotated[list[str] | None, Query(max_length=16)] = None,
    die: Annotated[list[int] | None, Query(max_length=8)] = None,
    done: Annotated[int | None, Query(ge=1, le=IDS)] = None,
) -> Response:
    """The page of counters' panels for this seat, showing the card the query names (`Want`)."""
    if any(len(o) > 128 for o in opt or ()):
        return HTMLResponse("opt: at most 128 characters each (name=value).", status_code=422)
    if any(not 0 <= d <= 6 for d in die or ()):
        return HTMLResponse("die: each 1 to 6, or 0 while not tapped yet.", status_code=422)
    if any(not 1 <= j <= IDS for j in joined or ()):
        return HTMLResponse("joined: each a counter's id.", status_code=422)
    want = want_of(group, unit, act, target, joined, opt, die, done)

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        return panel(session, game, seat.viewer, want)

    return game_page(
        request, session, settings, game_id, "_counters_panel.html", "_counters_panel.html", build
    )


@live.view("counters")
def counters_view(
    session: Session, game: Game, viewer: Viewer, events: list[dict[str, Any]], shared: live.Shared
) -> list[dict[str, Any]]:
    """The live frames' part for the page of counters: the event says the panels changed (the page reads them
    for its own card, `counters_panel`, the panels being each device's own taps' too); the game ended, its
    result line (the same for every viewer, result-line.js swaps it in)."""

    def line() -> str:
        return templates.get_template("_result_line.html").render(
            result_line=result.game_result(session, game.pk)
        )

    return [
        {"result": shared.get("result", line)}
        if e["kind"] == score.FINISHED and game.status == "finished"
        else {"panels": True}
        for e in events
    ]
