"""The scenario editor's terrain kind card from the server (app.pages.terrain_kinds): the words the editor showed
for a kind, the rows it needs, a drawn piece's card, and a kind or class it does not know refused, naming it."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient

from rules.flanders_fields.book.cover import cover_for
from rules.table.requests import MAX_FEATURES

CARD = "/scenarios/new/flanders-fields/terrain-kind"
EARTH = "2mm-earth-1418"  # a rule set reading its terrain by classes


def test_a_kinds_card_says_the_rules_words_and_shows_the_rows_it_needs(sqlite_client: TestClient) -> None:
    woods = sqlite_client.get(CARD, params={"terrain_kind": "woods", "forces_period": "mid"})
    assert woods.status_code == 200
    assert (
        f"Woods. Cover: {cover_for(['woods'])} (“Wooded areas provide soft cover”). With trench: "
        f"{cover_for(['woods', 'trench'])}. Movement (Close): Infantry 10 cm, Cavalry 15 cm, Field artillery 10 cm,"
        " Tank 10 cm.</p>"
    ) in woods.text
    assert 'data-kind="woods">' in woods.text  # no breadth: its row stays hidden (scenario-editor.css)
    wire = sqlite_client.get(CARD, params={"terrain_kind": "wire"})
    assert "Wire. Cover: open (“Experienced and Veteran troops" in wire.text
    assert "Movement: crossed by the wire rules, not the movement table.</p>" in wire.text
    assert "data-breadth" in wire.text
    assert "Depth of the belt (cm; blank: the rules' standard belt)" in unescape(wire.text)
    assert wire.text.count("data-breadth-offer=") == 2 and 'data-breadth-offer="2"' in wire.text
    piece = sqlite_client.get(CARD, params={"terrain_kind": "trench", "piece": "true", "owner": "attacker"})
    said = card_of(piece.text)
    assert said.startswith("Trench. Cover: ") and "The attacker's trench." in said
    # A hill's height said to the millimetre, 0 as any other.
    for given, high in (("7.5", "7.5"), ("1e-300", "0"), ("0", "0"), ("-0", "0")):
        hill = sqlite_client.get(CARD, params={"terrain_kind": "hill", "piece": "true", "height": given})
        assert card_of(hill.text).endswith(f"{high} cm high."), given


def card_of(panel: str) -> str:
    found = re.search(r"<p data-piece-card>(.*?)</p>", panel, re.S)
    assert found, panel
    return unescape(found[1]).strip()


def test_a_drawn_pieces_panel_names_it_as_the_list_does_with_its_name_and_class_to_change(
    sqlite_client: TestClient,
) -> None:
    """A piece picked on the map or in the list: its name (its own, else its kind's and its place in the
    terrain, from 1), the name to rename prefilled, its class picked (its kind's when it names none)."""
    own = sqlite_client.get(
        f"/scenarios/new/{EARTH}/terrain-kind",
        params={
            "piece": "true",
            "key": "2",
            "name": "Farm <lane>",
            "terrain_kind": "woods",
            "terrain_class": "road",
        },
    )
    assert own.status_code == 200
    assert "<h3 data-piece-name>Farm &lt;lane&gt;</h3>" in own.text
    assert 'value="Farm &lt;lane&gt;" data-piece-rename' in own.text
    assert '<option value="road" selected>' in own.text and own.text.count(" selected>") == 1
    assert card_of(own.text).startswith("Woods.") and "Road" in card_of(own.text)
    unnamed = sqlite_client.get(
        f"/scenarios/new/{EARTH}/terrain-kind", params={"piece": "true", "key": "2", "terrain_kind": "woods"}
    )
    assert "<h3 data-piece-name>Woods 3</h3>" in unnamed.text and 'value="" data-piece-rename' in unnamed.text
    assert " selected>" not in unnamed.text and "As its kind (" in unnamed.text
    # Its place and name bounded, the field named.
    for params in ({"key": "-1"}, {"key": str(MAX_FEATURES)}, {"name": "x" * 1001}):
        answer = sqlite_client.get(CARD, params={"terrain_kind": "woods", "piece": "true", **params})
        assert answer.status_code == 422 and next(iter(params)) in answer.text, params


def test_an_unknown_kind_class_or_owner_is_refused_naming_the_field(sqlite_client: TestClient) -> None:
    for params, field in (
        ({"terrain_kind": "lava"}, "Terrain kind: "),
        ({"terrain_kind": "woods", "terrain_class": "x" * 5000}, "Terrain class: "),
        ({"terrain_kind": "trench", "owner": "referee"}, "Owner: "),
        ({"terrain_kind": "hill", "height": "1e9"}, "Height: "),
        # A number as a script writes one (the hostile pass of session 18: "1_0" was read as 10).
        ({"terrain_kind": "hill", "height": "1_0"}, "Height: "),
        ({"terrain_kind": "hill", "height": " 5 "}, "Height: "),
        # Owner and height only for the kinds whose pieces have them (rules.table.terrain.PIECE_PROPERTIES).
        ({"terrain_kind": "wire", "piece": "true", "owner": "defender"}, "Owner: "),
        ({"terrain_kind": "wire", "piece": "true", "height": "7.5"}, "Height: "),
        ({"terrain_kind": "woods", "forces_period": "modern"}, "Period: "),
    ):
        answer = sqlite_client.get(CARD, params=params)
        assert answer.status_code == 422 and answer.text.startswith(field), params
    assert sqlite_client.get("/scenarios/new/nope/terrain-kind").status_code == 422


def test_a_kinds_draw_a_line_says_what_it_needs_before_a_line_is_drawn(sqlite_client: TestClient) -> None:
    """The card's Line button (swapped in by the card) carries the kind's own sentence for a line drawn with no
    width (scenario-editor.js says it and draws nothing); a wire belt has the rules' standard depth, an area no line."""
    line = re.compile(r'<button[^>]*id="scn-draw-line"[^>]*>')
    trench = line.search(sqlite_client.get(CARD, params={"terrain_kind": "trench"}).text)
    assert (
        trench and 'data-needs="A trench drawn as a line needs its width in cm: enter it first."' in trench[0]
    )
    wire = line.search(sqlite_client.get(CARD, params={"terrain_kind": "wire"}).text)
    assert wire and "data-needs" not in wire[0] and "disabled" not in wire[0]
    woods = line.search(sqlite_client.get(CARD, params={"terrain_kind": "woods"}).text)
    assert woods and "disabled" in woods[0] and "data-needs" not in woods[0]
