"""Secrets through every read path, walked route by route. The app's GET routes are enumerated from the app
object (a route added later is walked without being listed here), their parameters filled from a real game,
and each is read with the other side's token and with none, from set-up to the end of the game: set-up, each
step of the first turn, after a battery fires, after it is aimed again, and over. Nothing read may show a
battery's aiming point before the rules put it on the table ("When a battery fires ... an aiming point is
placed on the table", Flanders Fields ARTILLERY AIMING POINT; every one once the game is over), nor which
battery the other side aimed (a frame of its aiming names none), nor the undealt pack or the other side's hand
(the pack less what is public and one's own hand is that hand), a card dealt or one a side entered from the
club's own pack. A game whose plans are sealed each bound (2mm Earth 1418) is walked bound by bound: no item
of a plan, nor its id (the other side would count them), before it lands. A side's secret objective (issue
69), given at set-up and scored at the end: nothing of it (its name, its point, its id) before the end."""

from __future__ import annotations

import functools
import itertools
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel

from app.deps import get_engine
from app.guard.auth import COOKIE_NAME
from app.main import app as default_app
from rules.core.vocabulary import SIDES
from rules.flanders_fields.book.organisation import ORGANISATION_TABLES
from rules.flanders_fields.resolvers.events import PACK
from tests.app.games.conftest import Game, live_url, new_game  # noqa: F401  (live_url is a fixture)
from tests.app.hostile.test_secrets import pdf_text, token_of

# Aiming points no other number of the game looks like (each is searched for as the pages may print it).
FIRES = [413.3125, 319.8125]  # the attacker's battery that fires in turn 1
KEPT = [433.5625, 357.1875]  # an attacker battery that never fires
DEFENDS = [521.4375, 617.0625]  # a defender battery that never fires
# The attacker's secret objective (issue 69), scored at the game's end: its name and point, and its id.
ORCHARD_AT = [77.4375, 133.0625]
ORCHARD = {
    "type": "Feature",
    "geometry": {"type": "Point", "coordinates": ORCHARD_AT},
    "properties": {"name": "Ziggurat Orchard", "vp": 2, "scored": "game_end"},
}
AIMED_AGAIN = [447.6875, 381.9375]  # the battery that fired, aimed again afterwards
CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:10|[2-9JQKA])[HDCS](?![A-Za-z0-9_-])")
STREAM = "/api/v1/games/{game_id}/stream"  # read live from the start of the game (a thread per side and view)
pytestmark = pytest.mark.long  # a whole game walked route by route: half a minute a part per backend
VIEWS = ("", "map", "board", "counters")  # every view of the stream a page asks for
# The walk in two parts, each its own game played the same way and walked at every event (so the suite's two
# workers share it): what the attacker reads, and what the defender and a client with no token read. Each part
# reads the streams of its sides; the referee's own reading (the search is not blind) goes with the second.
PARTS = {"attacker": ("attacker",), "defender-and-no-token": ("defender", None)}


def renderings(point: list[float]) -> list[str]:
    """How a page, a log entry or a printed card may write a point."""
    out = [f"{round(point[0])} along"]
    for v in point:
        out += [repr(v), f"{v:.2f}", f"{v:.1f}"]
    return out


@functools.cache  # the app's routes are made at its import: enumerated once, not at every walk
def get_routes() -> list[Any]:
    routes = [r for r in iter_route_contexts(default_app.router.routes) if "GET" in (r.methods or ())]
    assert len(routes) > 100, "the enumeration found too few routes: it would walk nothing"
    return routes


def params(dependant: Any, kind: str) -> list[Any]:
    """A route's path or query parameters, its dependencies' included (none for Starlette's own routes); a
    query read as one model (`Annotated[Model, Query()]`) by its fields, as its URL gives them."""
    if dependant is None:
        return []
    found = [*getattr(dependant, kind), *(p for d in dependant.dependencies for p in params(d, kind))]
    return [f for p in found for f in _fields_of(p)]


def _fields_of(param: Any) -> list[Any]:
    model = getattr(param, "type_", None) or getattr(getattr(param, "field_info", None), "annotation", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return [param]
    return [SimpleNamespace(name=f.alias or name, field_info=f) for name, f in model.model_fields.items()]


def reads_the_database(dependant: Any) -> bool:
    """Whether a route reaches the database: every read of it goes through the app's engine (app.deps: a session
    is made from it), so a route none of whose dependencies is the engine answers from the code alone."""
    return dependant is not None and any(
        d.call is get_engine or reads_the_database(d) for d in dependant.dependencies
    )


# The club's pack's picker (map.html's Enter a card): each of the 52 faces, the same on every game's page, its
# write's body naming the face it enters (`data-card-rank`, `data-card-suit` and `data-body`): the pack's
# universe, not what it holds, so not read as shown (a hand's or the pack's card elsewhere in the tag still is).
PICKED = re.compile(
    r'data-card-rank="(10|[2-9JQKA])" data-card-suit="([HDCS])" (data-api="[^"]*") data-body=\'\{"cards": \["\1\2"\]\}\''
)


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(PICKED.sub(r"\3", text)))


@dataclass
class Walk:
    """One game on a real server, what each side holds secret, and what was read."""

    http: httpx.Client
    g: Game
    batteries: dict[str, list[int]]
    aimed: dict[int, tuple[str, list[float]]] = field(default_factory=dict)  # battery -> (side, point now)
    aims: dict[int, tuple[str, int]] = field(default_factory=dict)  # the event aiming -> (side, battery)
    ever: dict[str, list[list[float]]] = field(default_factory=dict)  # every point each side has set
    fired: list[list[float]] = field(default_factory=list)  # the points batteries fired at
    finished: bool = False
    reads: int = 0
    # A route about no game that reads no database answers the same at every step of the game (what it shows
    # is the code's and the rule books', never a row this game wrote): it is read at the first walk only.
    fixed_read: bool = False
    frames: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # Cards a side drew and handed to the other ("hand over card to enemy"): it knows them, as at the table.
    handed: dict[str, set[str]] = field(default_factory=dict)
    objectives: dict[str, list[str]] = field(default_factory=dict)  # a side's secret objectives, as written
    viewers: tuple[str | None, ...] = ("attacker", "defender", None)  # who reads (None: no token)

    def who(self, role: str | None) -> dict[str, str]:
        return {"referee": self.g.referee, "attacker": self.g.attacker, "defender": self.g.defender}.get(
            role or "", {}
        )

    def secrets_of(self, side: str) -> list[str]:
        """The renderings of `side`'s aiming points that are still its secret now."""
        if self.finished:
            return []
        aimed = [r for p in self.ever.get(side, []) if p not in self.fired for r in renderings(p)]
        return aimed + self.objectives.get(side, [])

    def hidden_cards(self, viewer: str | None, hands: dict[str, set[str]] | None = None) -> set[str]:
        """The undealt pack, and the other side's hand: no card of them is for `viewer` (`hands`: as read now)."""
        hands = self.hands() if hands is None else hands
        undealt = self.undealt(hands)
        known = hands.get(viewer or "", set()) | self.handed.get(viewer or "", set())
        return undealt | (set().union(*hands.values()) - known)

    def hands(self) -> dict[str, set[str]]:
        return {s: set(self.get(f"/api/v1/games/{self.g.id}/me", self.who(s))["event_hand"]) for s in SIDES}

    def undealt(self, hands: dict[str, set[str]]) -> set[str]:
        """The cards still in the pack: neither out of play nor in a hand."""
        state = self.get(f"/api/v1/games/{self.g.id}/state", self.g.referee)
        out = set((state["board"].get("events") or {}).get("out", ()))
        return set(PACK) - out - hands["attacker"] - hands["defender"]

    def get(self, path: str, headers: dict[str, str]) -> Any:
        r = self.http.get(path, headers=headers)
        assert r.status_code == 200, r.text
        return r.json()

    def urls(self) -> Iterator[tuple[str, bool]]:
        """Every GET route with its parameters filled from this game: (url, is it about this game); a route
        about no game that reads no database after the first walk no more (`fixed_read`)."""
        g = self.g
        events = self.get(f"/api/v1/games/{g.id}/events", g.referee)
        last = events[-1]["id"] if events else 0
        values: dict[str, list[Any]] = {
            "game_id": [g.id],
            # The batteries that hold a secret point (each side's), or every one before any is aimed: a route
            # of a unit reads its own point and, in what it lists, the others'.
            "unit_id": sorted(self.aimed) or [u for us in self.batteries.values() for u in us],
            "side": list(SIDES),
            "seat": ["referee", *SIDES],  # a join card's link (app/pages/join_cards.py)
            "item_id": [1],
            "template_id": [1],  # a template's card on the map (none laid in this game: 404)
            "ruleset": ["flanders-fields"],
            "ruleset_id": ["flanders-fields"],
            "resolver": ["random-event", "deviation", "shooting"],
            "period": ["early"],
            "table_id": [next(iter(ORGANISATION_TABLES))],
            "campaign_id": [1],
            "table_battle_id": [1],
            "scenario_id": ["mons-1914"],
            "event_id": [1],  # a club event (none in this game's world: its pages answer 404)
            "number": [1],  # an event's round
            "league_id": [1],  # a league (none in this game's world: its pages answer 404)
        }
        query: dict[str, list[Any]] = {"game": [g.id], "after": [0, max(0, last - 3)], "period": ["early"]}
        # The map's chooser of the stands under a tap (app/pages/map_cards.py): a stand that holds a secret.
        query["stand"] = values["unit_id"][:1]
        for route in get_routes():
            if route.path_format == STREAM:
                continue
            names = list(
                dict.fromkeys(p.name for p in params(getattr(route, "dependant", None), "path_params"))
            )
            queries = params(getattr(route, "dependant", None), "query_params")
            missing = [n for n in names if n not in values]
            assert not missing, f"{route.path_format}: say how to fill {missing} from a game"
            asked = [q.name for q in queries if q.name in query]
            required = [q.name for q in queries if q.field_info.is_required()]
            assert set(required) <= set(asked), f"{route.path_format}: say how to fill {required}"
            about = "game_id" in names or "game" in asked
            if self.fixed_read and not about and not reads_the_database(getattr(route, "dependant", None)):
                continue
            for combo in itertools.product(*(values[n] for n in names)):
                path = route.path_format.format(**dict(zip(names, combo, strict=True)))
                for q in itertools.product(*(query[n] for n in asked)):
                    qs = "&".join(f"{n}={v}" for n, v in zip(asked, q, strict=True))
                    yield (f"{path}?{qs}" if qs else path), about

    def read(self, viewer: str | None, pdfs: bool) -> Iterator[tuple[str, str, bool]]:
        """(where, text, is it about this game) of everything `viewer` (a role, or None: no token) reads.
        Without `pdfs`, a printable is read as its HTML (the same page, not printed) to save the printing."""
        headers = dict(self.who(viewer))
        if viewer is not None:  # the pages read the device's cookie, the API its header
            headers["Cookie"] = f"{COOKIE_NAME}={token_of(headers)}"
        for url, about in self.urls():
            if not about and viewer is not None:
                continue  # not about any game: read without a token only, the same for everyone
            if not pdfs and ".pdf" in url:
                continue
            # A page that answers htmx with a fragment of itself says so (Vary: HX-Request, app.guard.caching):
            # that fragment is read too; every other answer is the same whichever way it is asked.
            for fragment in (False, True):
                sent = {**headers, **({"HX-Request": "true"} if fragment else {})}
                r = self.http.get(url, headers=sent)
                self.reads += 1
                assert r.status_code < 500, f"{url}: {r.status_code} {r.text[:300]}"
                text = pdf_text(r) if url.split("?")[0].endswith(".pdf") and r.status_code == 200 else r.text
                yield f"{url}{' (fragment)' if fragment else ''}", text, about
                if "hx-request" not in r.headers.get("vary", "").lower():
                    break

    def check(self, phase: str, pdfs: bool = True) -> None:
        """Walk every route as each of `viewers` (a side, or no one): nothing of the other side's secrets."""
        hands = self.hands()  # read once: nothing is played while the routes are read
        for viewer in self.viewers:
            others = [s for s in SIDES if s != viewer]
            secrets = [r for s in others for r in self.secrets_of(s)]
            cards = self.hidden_cards(viewer, hands)
            for where, text, about in self.read(viewer, pdfs):
                for secret in secrets:
                    assert secret not in text, f"{phase}: {where} shows {secret!r} to {viewer or 'no token'}"
                # A route about no game (the rule book's card list) cannot know this game's pack.
                shown = cards_in(text) & cards if about else set()
                assert not shown, f"{phase}: {where} shows {sorted(shown)} to {viewer or 'no token'}"
        # The search is not blind: each side reads its own points as they are now, the referee all of them; and
        # its own secret objectives (the referee with the part that reads without a token).
        for who in [*(["referee"] if None in self.viewers else []), *(v for v in self.viewers if v)]:
            units = self.http.get(f"/api/v1/games/{self.g.id}/units", headers=self.who(who)).text
            for side, point in self.aimed.values():
                if who in ("referee", side):
                    assert renderings(point)[1] in units, f"{phase}: the {who} does not read {point}"
            score = self.http.get(f"/api/v1/games/{self.g.id}/score", headers=self.who(who)).text
            for side, secret in self.objectives.items():
                if who in ("referee", side):
                    assert all(s in score for s in secret), f"{phase}: the {who} does not read {secret}"
        self.fixed_read = True


def follow(base: str, g: Game, side: str, view: str, frames: list[dict[str, Any]]) -> threading.Thread:
    """A side's live stream in one of its views (what a page asks each frame to carry: "" the event alone,
    "map" the units it touched and the game's state, "board" the referee board's pieces), from before set-up
    until the game is over, every frame kept."""

    def run() -> None:
        try:
            read()
        except httpx.HTTPError:
            return  # the server stopped first (the test failed before the end): the test says why

    def read() -> None:
        headers = {"Authorization": f"Bearer {token_of(getattr(g, side))}"}
        url = f"{base}/api/v1/games/{g.id}/stream" + (f"?view={view}" if view else "")
        with httpx.stream("GET", url, headers=headers, timeout=120) as r:
            assert r.status_code == 200
            frame: dict[str, Any] = {}
            for line in r.iter_lines():
                if line.startswith("event: "):
                    frame["kind"] = line[7:]
                elif line.startswith("id: "):
                    frame["id"] = int(line[4:])
                elif line.startswith("data: "):
                    frame["data"] = line[6:]
                elif line == "" and "id" in frame:
                    frames.append(frame)
                    if frame.get("kind") == "game-finished":
                        return
                    frame = {}

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def held(frame: dict[str, Any]) -> int:
    """The newest event a frame's parts may hold (`as_of_event`: they are read when it is rendered, which on a
    busy machine may be after newer events), its own id for a frame of the event alone: what its side could
    have seen by then is what the frame may show, whenever it was rendered."""
    as_of = int(json.loads(frame["data"]).get("as_of_event", frame["id"]))
    assert as_of >= frame["id"], frame
    return as_of


def turn(w: Walk) -> dict[str, Any]:
    return dict(w.get(f"/api/v1/games/{w.g.id}/turn", w.g.referee))


def advance(w: Walk) -> dict[str, Any]:
    r = w.http.post(
        f"/api/v1/games/{w.g.id}/turn/advance", headers=w.g.referee, json={"version": turn(w)["version"]}
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def aim(w: Walk, who: dict[str, str], unit_id: int, point: list[float]) -> None:
    unit = w.get(f"/api/v1/games/{w.g.id}/units/{unit_id}", who)
    w.aimed[unit_id] = (unit["side"], point)
    w.ever.setdefault(unit["side"], []).append(point)
    body = {"version": unit["version"], "aiming_point": point, "override": who is w.g.referee}
    r = w.http.put(f"/api/v1/games/{w.g.id}/units/{unit_id}", headers=who, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["unit"]["aiming_point"] == point  # its own side reads what it set
    w.aims[r.json()["event_id"]] = (unit["side"], unit_id)


# No deadline of the client's own (httpx's): a PDF is rendered by the server's niced worker, a minute or more on a
# loaded machine; the test's one deadline is pytest-timeout's (pyproject.toml).
@pytest.fixture
def walk(live_url: str) -> Iterator[Walk]:  # noqa: F811
    with httpx.Client(base_url=live_url, timeout=None) as http:
        g = new_game(http)
        units = w_units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
        batteries = {
            s: [u["id"] for u in w_units if u["side"] == s and u["level"] == "battery"] for s in SIDES
        }
        assert units and all(batteries.values())
        yield Walk(http, g, batteries)


@pytest.mark.parametrize("part", PARTS)
def test_no_route_shows_a_secret_aiming_point_or_the_pack(
    walk: Walk,
    live_url: str,  # noqa: F811
    part: str,
) -> None:
    w, g = walk, walk.g
    w.viewers = PARTS[part]
    threads = {
        (s, v): follow(live_url, g, s, v, w.frames.setdefault(f"{s} {v}", []))
        for s in SIDES
        if s in w.viewers
        for v in VIEWS
    }
    first, second = w.batteries["attacker"][:2]
    aim(w, g.attacker, first, FIRES)
    aim(w, g.attacker, second, KEPT)
    aim(w, g.defender, w.batteries["defender"][0], DEFENDS)
    given = w.http.post(
        f"/api/v1/games/{g.id}/objectives/secret",
        headers=g.referee,
        json={"side": "attacker", "objective": ORCHARD},
    )
    assert given.status_code == 201, given.text
    w.objectives["attacker"] = [
        given.json()["id"],
        "Ziggurat Orchard",
        *map(repr, ORCHARD_AT),
    ]
    w.check("set-up")

    advance(w)  # the game starts
    # A side draws as from a shuffled pack: it may neither pick where it draws nor look without drawing.
    draw = f"/api/v1/games/{g.id}/resolve/random-event"
    for body, field_name in (({"dice": [13]}, "dice"), ({"apply": False}, "apply")):
        refused = w.http.post(draw, headers=g.attacker, json=body)
        assert refused.status_code == 422 and refused.json()["errors"][0]["loc"][-1] == field_name
    # The referee enters the Ace of Hearts (13th of the fresh pack) for the attacker, who keeps it; then the
    # attacker draws for itself. Its own answer says what it drew and holds, nothing of the pack left.
    assert w.http.post(draw, headers=g.referee, json={"dice": [13]}).status_code == 200
    own = w.http.post(draw, headers=g.attacker, json={})
    assert own.status_code == 200, own.text
    drawn = own.json()["resolution"]["outcome"]["drawn"]
    w.handed["attacker"] = {c["card"] for c in drawn if c["to_opponent"]}
    assert "AH" in w.get(f"/api/v1/games/{g.id}/me", g.attacker)["event_hand"]
    assert not cards_in(own.text) & w.hidden_cards("attacker"), "the drawer's answer shows the pack"
    assert '"deck"' not in own.text and "probabilities" not in own.text
    # The club draws from its own pack from now on (the referee's game option): the attacker enters the card it
    # drew, and every route is walked with it in the attacker's hand as with a dealt one.
    version = w.get(f"/api/v1/games/{g.id}", g.referee)["version"]
    club = {"version": version, "variants": {"events-pack": "club"}}
    assert w.http.patch(f"/api/v1/games/{g.id}", headers=g.referee, json=club).status_code == 200
    # The card is one the shuffled draw above left in the pack: a red court card, kept as the King of Hearts is.
    undealt = w.undealt(w.hands())
    card = next(c for c in ("KH", "QH", "JH", "KD", "QD", "JD") if c in undealt)
    entered = w.http.post(f"/api/v1/games/{g.id}/cards/drawn", headers=g.attacker, json={"cards": [card]})
    assert entered.status_code == 200, entered.text
    assert card in w.get(f"/api/v1/games/{g.id}/me", g.attacker)["event_hand"]
    assert not cards_in(entered.text) & w.hidden_cards("attacker"), "the answer to an entry shows the pack"
    steps = 0
    now = turn(w)  # read once a step (nothing moves the game between the reads of one step)
    while (now["turn"], now["side_to_move"]) == (1, "attacker"):
        w.check(f"turn 1, attacker, step {now['step']}", pdfs=steps == 0)
        advance(w)
        steps += 1
        now = turn(w)
    assert steps > 1

    # The attacker's battery fires: its aiming point goes on the table, and the British read it (in the British
    # turn: the referee's override).
    fired = w.http.post(
        f"/api/v1/games/{g.id}/resolve/deviation",
        headers=g.referee,
        json={"unit_id": first, "override": True},
    )
    assert fired.status_code == 200, fired.text
    w.fired.append(FIRES)
    seen = w.get(f"/api/v1/games/{g.id}/units/{first}", g.defender)
    assert seen["aiming_point"] == FIRES
    w.check("after the attacker's battery fired")
    # Aimed again, the new point is the attacker's secret until it fires there.
    aim(w, g.referee, first, AIMED_AGAIN)
    assert w.get(f"/api/v1/games/{g.id}/units/{first}", g.defender)["aiming_point"] is None
    w.check("after the battery was aimed again")
    now = turn(w)
    while (now["turn"], now["side_to_move"]) == (1, "defender"):
        advance(w)
        now = turn(w)
        w.check(f"turn {now['turn']}, {now['side_to_move']}, step {now['step']}", pdfs=False)

    version = now["version"]
    assert w.http.post(
        f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version}
    ).is_success
    w.finished = True
    w.check("game over")
    # Over, the whole plan is on the table: each side reads the other's aiming points.
    assert w.get(f"/api/v1/games/{g.id}/units/{w.batteries['defender'][0]}", g.attacker)["aiming_point"] == (
        DEFENDS
    )
    assert w.get(f"/api/v1/games/{g.id}/units/{second}", g.defender)["aiming_point"] == KEPT

    # The live streams, frame by frame as they were sent: before the battery fired, its point in none of
    # the other side's; before the end, no other secret point and no card of the pack or the other hand.
    fire_id = fired.json()["event_id"]
    for (side, view), thread in threads.items():
        # Waited for to its end, however loaded the machine, not for 30 s (a wait expiring was this test's one
        # bound of time): its deadline is pytest-timeout's, as the walk's; a stream cut short lacks the last frame.
        thread.join()
        frames = w.frames[f"{side} {view}"]
        reached = f"the {side}'s stream ({view}) did not reach the end of the game"
        if view == "map":  # the walk reads frames that carry units, not only events
            assert any('"units":[{' in f["data"] for f in frames)
        assert frames and frames[-1]["kind"] == "game-finished", reached
        other = next(s for s in SIDES if s != side)
        w.finished = False
        late = w.secrets_of(other)
        early = late + (renderings(FIRES) if other == "attacker" else [])
        cards = w.hidden_cards(side)
        for f in frames[:-1]:
            for secret in early if held(f) < fire_id else late:
                assert secret not in f["data"], (
                    f"the {side}'s stream ({view}), event {f['id']}, shows {secret!r}"
                )
            assert not cards_in(f["data"]) & cards, (
                f"the {side}'s stream ({view}), event {f['id']}, shows cards"
            )
            aiming, battery = w.aims.get(f["id"], (side, 0))
            if aiming == other:  # that the other side aimed is told, which battery it aimed is not
                told = json.loads(f["data"])
                carried = {u["id"] for u in told.get("units", ())}
                assert "unit_id" not in told["payload"] and battery not in carried, (
                    f"the {side}'s stream ({view}), event {f['id']}, names the battery aimed"
                )
    anonymous = w.http.get(f"/api/v1/games/{g.id}/stream")
    assert anonymous.status_code == 401
    assert w.reads > 500


# -- a plan sealed each bound (issue 39: 2mm Earth 1418's artillery plans) -----------------------------------
# Grid references no other number of the game looks like (above 100, so no clock's seconds either, and apart
# from where the circles that land are drawn): the attacker's bombardment and naval shoot of bound 1, the
# defender's bombardment of bound 1, the attacker's bombardment of bound 2 (never landing).
BOMBARDS = [113.1875, 141.6875]
NAVAL = [100.3125, 152.4375]
DEFENDER_BOMBARDS = [116.3125, 127.5625]
NEXT_BOUND = [106.6875, 171.0625]


@dataclass
class PlanWalk(Walk):
    """The walk of a game whose plans are sealed each bound: a side's secrets are the grid references and the
    ids of its items not yet landed (an id would let the other side count them)."""

    items: dict[str, dict[int, list[float]]] = field(default_factory=dict)  # side -> item id -> its point

    def secrets_of(self, side: str) -> list[str]:
        if self.finished:
            return []
        waiting = {i: p for i, p in self.items.get(side, {}).items() if p not in self.fired}
        return [str(i) for i in waiting] + [r for p in waiting.values() for r in renderings(p)]

    def plan(self, side: str, bound: int, kind: str, point: list[float]) -> None:
        item = {"kind": kind, "battery": f"{side} guns", "grid": point}
        r = self.http.post(
            f"/api/v1/games/{self.g.id}/fireplans/{side}/items",
            headers=self.who(side),
            json={"arrival_turn": bound, "item": item},
        )
        assert r.status_code == 201, r.text
        self.items.setdefault(side, {})[r.json()["id"]] = point


def advance_to_step(w: Walk, step: str) -> None:
    for _ in range(40):
        if advance(w)["turn"]["step"]["id"] == step:
            return
    raise AssertionError(f"no step {step}")


def test_no_route_shows_a_bound_plan_before_it_lands(live_url: str) -> None:  # noqa: F811
    earth = "2mm-earth-1418"
    with httpx.Client(base_url=live_url, timeout=None) as http:
        g = new_game(http, {"ruleset": earth, "name": "Sealed bounds"})
        units = []
        for side, y in (("attacker", 40.0), ("defender", 120.0)):
            unit = {
                "side": side,
                "name": f"{side} coy",
                "level": "company",
                "kind": "line-inf",
                "x": 60,
                "y": y,
            }
            r = http.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=unit)
            assert r.status_code == 201, r.text
            units.append(r.json()["unit"]["id"])
        w = PlanWalk(http, g, {"attacker": units[:1], "defender": units[1:]})
        threads = {
            (s, v): follow(live_url, g, s, v, w.frames.setdefault(f"{s} {v}", []))
            for s in SIDES
            for v in VIEWS
        }
        advance(w)  # the game starts: bound 1, high commands
        w.plan("attacker", 1, "circle-bombardment", BOMBARDS)
        w.plan("attacker", 1, "naval-railway-bombardment", NAVAL)
        w.plan("defender", 1, "circle-bombardment", DEFENDER_BOMBARDS)
        w.check("bound 1, written")
        sealed = http.post(f"/api/v1/games/{g.id}/fireplans/attacker/lock", headers=g.attacker)
        assert sealed.status_code == 200, sealed.text
        advance_to_step(w, "execute-1")  # every plan sealed, nothing landed
        w.check("bound 1, sealed", pdfs=False)
        # Undo answers nothing of a plan either: a seal is not taken back, and its refusal tells no more.
        for e in w.get(f"/api/v1/games/{g.id}/events", g.defender):
            if e["kind"] == "fire-plan-locked":
                r = http.post(f"/api/v1/games/{g.id}/events/{e['id']}/undo", headers=g.defender)
                assert r.status_code == 422 and not [s for s in w.secrets_of("attacker") if s in r.text]
        advance_to_step(w, "execute-2")  # the bombardments land; the naval shoot waits for step 10
        arrivals = [
            e for e in w.get(f"/api/v1/games/{g.id}/events", g.referee) if e["kind"] == "fire-plan-arrival"
        ]
        assert sorted(e["payload"]["item"]["data"]["grid"] for e in arrivals) == [BOMBARDS, DEFENDER_BOMBARDS]
        w.fired += [BOMBARDS, DEFENDER_BOMBARDS]
        w.check("bound 1, bombardments landed", pdfs=False)
        advance_to_step(w, "execute-10")
        w.fired.append(NAVAL)
        advance_to_step(w, "high-commands")  # bound 2: a new plan, as secret
        w.plan("attacker", 2, "circle-bombardment", NEXT_BOUND)
        w.check("bound 2, written", pdfs=False)

        version = turn(w)["version"]
        assert http.post(
            f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version}
        ).is_success

        # The live streams, frame by frame: an item (its point, its id) in none of the other side's frames
        # before its landing (written with the step it lands in, in one commit, so sent from that step's frame),
        # by the newest event each frame holds.
        log = w.get(f"/api/v1/games/{g.id}/events", g.referee)
        landed = {
            tuple(e["payload"]["item"]["data"]["grid"]): max(
                step["id"] for step in log if step["kind"] == "step" and step["id"] < e["id"]
            )
            for e in log
            if e["kind"] == "fire-plan-arrival"
        }
        assert len(landed) == 3
        for (side, view), thread in threads.items():
            # Waited for to its end, however loaded the machine, not for 30 s (a wait expiring was this test's one
            # bound of time): its deadline is pytest-timeout's, as the walk's; a stream cut short lacks the last frame.
            thread.join()
            frames = w.frames[f"{side} {view}"]
            reached = f"the {side}'s stream ({view}) did not reach the end of the game"
            assert frames and frames[-1]["kind"] == "game-finished", reached
            plan = w.items.get(next(s for s in SIDES if s != side), {})
            for f in frames[:-1]:
                seen = held(f)
                due = {i: p for i, p in plan.items() if seen < landed.get(tuple(p), seen + 1)}
                for secret in [str(i) for i in due] + [r for p in due.values() for r in renderings(p)]:
                    assert secret not in f["data"], (
                        f"the {side}'s stream ({view}), event {f['id']}, shows {secret!r}"
                    )
