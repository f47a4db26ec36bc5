"""The lookup's HTTP side (issue 15): the device remembers its lookup, no required number is filled in
silently, errata come on demand, every text response is compressed, static files are cached by version, and
the bench's wire sizes stay within their targets."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from app.pages.lookup import LOOKUP_COOKIE

BROWSER = {"Accept-Encoding": "gzip, br"}
HX = {"HX-Request": "true"}


def test_the_device_remembers_its_lookup(reading_client: TestClient) -> None:
    # A fresh device: Flanders Fields, and the period is asked for, never assumed.
    first = reading_client.get("/lookup")
    assert "Pick the period you play" in first.text and 'id="lookup-form"' not in first.text
    assert reading_client.get("/lookup/flanders-fields/shooting").text.count('id="lookup-form"') == 0
    reading_client.get("/lookup/flanders-fields/shooting?period=mid")
    assert reading_client.cookies.get(LOOKUP_COOKIE) == "flanders-fields|mid|shooting|"
    # The installed app's start URL opens that lookup; a resolver link without a period keeps mid-war.
    start = reading_client.get("/lookup")
    assert 'id="lookup-title">Shooting' in start.text and 'name="period" value="mid"' in start.text
    order = reading_client.get("/lookup/flanders-fields/order-roll")
    assert 'name="period" value="mid"' in order.text
    assert ">Battalion (rifle companies)<" in order.text
    # The start page leads back to it.
    assert (
        "Continue: Flanders Fields · Western Front mid 1915 to mid 1917 · Order roll"
        in reading_client.get("/").text
    )


def test_the_workers_background_fetches_leave_the_remembered_lookup(reading_client: TestClient) -> None:
    # The service worker keeps the start page and the period page for offline use (sw.js, Purpose: prefetch);
    # answered after the player's next tap, their cookie would put back the lookup the player had left.
    reading_client.get("/lookup/flanders-fields/shooting?period=mid")
    for url in (
        "/lookup",
        "/lookup?ruleset=flanders-fields&period=early",
        "/lookup/flanders-fields/sos?period=late",
    ):
        r = reading_client.get(url, headers={"Purpose": "prefetch"})
        assert r.status_code == 200 and "set-cookie" not in r.headers, url
    assert reading_client.cookies.get(LOOKUP_COOKIE) == "flanders-fields|mid|shooting|"
    # A page the player opens is remembered as before.
    reading_client.get("/lookup?ruleset=flanders-fields&period=early")
    assert reading_client.cookies.get(LOOKUP_COOKIE) == "flanders-fields|early||"
    sw = (Path(__file__).parents[2] / "frontend/static/sw.js").read_text()
    assert 'headers: { Purpose: "prefetch" }' in sw


def test_a_forged_lookup_cookie_is_ignored(reading_client: TestClient) -> None:
    forged = (
        "nope|mid|shooting|",
        "flanders-fields|1999|x|",
        "a|b",
        "flanders-fields|mid|x|99999999999",
        "|" * 400,
    )
    for value in forged:
        reading_client.cookies.clear()
        r = reading_client.get("/lookup", headers={"Cookie": f"{LOOKUP_COOKIE}={value}"})
        assert r.status_code == 200 and "<html" in r.text, value
        assert "Pick the period you play" in r.text or 'id="lookup-form"' not in r.text, value


def test_the_range_is_never_filled_in(reading_client: TestClient) -> None:
    page = reading_client.get("/lookup/flanders-fields/shooting?period=mid", headers=HX).text
    assert re.search(r'id="f-range-cm" name="range_cm" value=""', page)
    assert "No answer yet: enter Range (cm)" in page and "hort range" not in page
    tapped = reading_client.post(
        "/lookup/flanders-fields/shooting", data={"period": "mid", "firer": "mg", "dice.0": "4"}, headers=HX
    ).text
    assert 'id="answer"' not in tapped and 'value="4" checked' in tapped
    measured = reading_client.post(
        "/lookup/flanders-fields/shooting",
        data={"period": "mid", "firer": "mg", "range_cm": "8", "dice.0": "4"},
        headers=HX,
    ).text
    assert 'id="answer"' in measured and "hort range" in measured


def test_errata_come_on_demand_and_only_those_of_the_resolver(reading_client: TestClient) -> None:
    swap = reading_client.post(
        "/lookup/flanders-fields/order-roll", data={"period": "mid", "dice.0": "4"}, headers=HX
    ).text
    assert 'name="variants.' not in swap and "Errata for this roll (" in swap
    errata = reading_client.get("/lookup/flanders-fields/order-roll/errata?period=mid").text
    topics = re.findall(r"<legend>([^<]+)</legend>", errata)
    assert topics and len(topics) < 34
    for hostile in ("period=1999", "period=mid&variants.nope=x", "period=mid&variants.barrage-duration=nope"):
        assert reading_client.get(f"/lookup/flanders-fields/order-roll/errata?{hostile}").status_code == 200
    assert reading_client.get("/lookup/flanders-fields/nothing/errata?period=mid").status_code == 404
    gas = reading_client.get("/lookup/flanders-fields/gas-wind/errata?period=mid").text
    assert set(re.findall(r"<legend>([^<]+)</legend>", gas)).isdisjoint(topics)


def test_the_offline_sheet_is_the_printed_one(reading_client: TestClient) -> None:
    from playsheets import render

    sheet = reading_client.get("/lookup/sheets/flanders-fields/mid")
    assert sheet.status_code == 200 and "max-age" in sheet.headers["cache-control"]
    assert 'data-sheet-section="actions" data-resolvers="order-roll"' in sheet.text
    printed = render.render_html("mid")
    first_table = re.search(r"<table>.*?</table>", printed, re.S)
    assert first_table and first_table.group(0) in sheet.text
    # Issue 69: the offline copy names the rules' version and the readings it uses, as the printed sheet does.
    said = sheet.text.split("data-sheet-readings>")[1].split("</p>")[0]
    assert (
        said.startswith("Rules: Flanders Fields (its book prints no version).")
        and "Raw troops shooting: Playsheet" in said
    )
    assert reading_client.get("/lookup/sheets/flanders-fields/1999").status_code == 404
    assert reading_client.get("/lookup/sheets/vimy-ridge/mid").status_code == 404
    assert reading_client.get("/lookup/sheets/flanders-fields/mid?variant=nope").status_code == 422


def test_text_is_compressed_and_static_files_cached_by_version(reading_client: TestClient) -> None:
    page = reading_client.get("/lookup/flanders-fields/order-roll?period=mid", headers=BROWSER)
    assert page.headers["content-encoding"] == "br" and "Accept-Encoding" in page.headers["vary"]
    api = reading_client.get("/api/v1/rulesets/flanders-fields", headers={"Accept-Encoding": "gzip"})
    assert api.headers["content-encoding"] == "gzip"
    css = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', page.text)
    assert css
    versioned = reading_client.get(css.group(1), headers=BROWSER)
    assert versioned.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert versioned.headers["content-encoding"] == "br"
    plain = reading_client.get("/static/css/app.css")
    assert plain.headers["cache-control"] == "no-cache" and plain.headers.get("etag")


def test_wire_sizes_within_the_targets() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import lookup_wire

    assert lookup_wire.main() == 0


def test_each_resolver_link_names_its_resolver_for_the_offline_sheet(reading_client: TestClient) -> None:
    """A resolver tapped with no server shows that resolver's table of the kept playsheet: its link names it
    (data-resolver, read by lookup-offline.js), as its address does, and the panel names the one shown."""
    page = reading_client.get("/lookup/flanders-fields/shooting?period=mid").text
    links = re.findall(r'<a class="resolver-link" href="/lookup/flanders-fields/([\w-]+)\?[^"]*"[^>]*>', page)
    named = re.findall(r'<a class="resolver-link"[^>]*data-resolver="([\w-]+)"', page)
    assert links and named == links, (links, named)
    assert 'data-lookup-panel data-resolver="shooting"' in page
