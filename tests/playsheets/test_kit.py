"""The 1:1 template kit: every template measured in the rendered PDF at a known resolution."""

from __future__ import annotations

import pytest

from playsheets import kit
from playsheets.render import PAPERS, template_kit_html, template_kit_pdf
from rules.flanders_fields.book.table_sizes import TEMPLATES
from rules.flanders_fields.play import kit_sheet
from tests.playsheets import pdf

DPI = 254  # 100 pixels per cm
PX_PER_CM = DPI / 2.54
TOLERANCE_PX = 2  # 0.2 mm: well inside what a pair of scissors can hold
CALIBRATION = "#c00000"  # the calibration bar's outline and cells (print.css)


@pytest.fixture(scope="module", params=sorted(PAPERS))
def rendered(request: pytest.FixtureRequest) -> tuple[str, bytes, list]:
    paper = request.param
    data = template_kit_pdf(paper)
    pdf.save_artifacts(data, f"template-kit-{paper}")
    return paper, data, pdf.rasterise(data, DPI, crisp=True)


def test_pages_have_the_paper_size(rendered: tuple[str, bytes, list]) -> None:
    paper, data, _ = rendered
    w_mm, h_mm = PAPERS[paper].width_mm, PAPERS[paper].height_mm
    sizes = pdf.page_size_pt(data)
    assert len(sizes) == len(kit.pages())
    for page, (w, h) in zip(kit.pages(), sizes, strict=True):
        expect = (w_mm, h_mm) if page.orientation == "portrait" else (h_mm, w_mm)
        assert (round(w / 72 * 25.4, 1), round(h / 72 * 25.4, 1)) == pytest.approx(expect, abs=0.15)


def test_calibration_bar_is_10cm_on_every_page(rendered: tuple[str, bytes, list]) -> None:
    _, _, images = rendered
    for img in images:
        box = pdf.bbox(img, CALIBRATION)
        assert box is not None
        assert box[2] - box[0] == pytest.approx(10 * PX_PER_CM, abs=TOLERANCE_PX)


def test_every_template_is_exactly_its_rule_size(rendered: tuple[str, bytes, list]) -> None:
    _, _, images = rendered
    measured = {}
    for page, img in zip(kit.pages(), images, strict=True):
        for piece in page.pieces:
            box = pdf.bbox(img, piece.colour)
            assert box is not None, piece.id
            measured[piece.id] = ((box[2] - box[0]) / PX_PER_CM, (box[3] - box[1]) / PX_PER_CM)
    tol = TOLERANCE_PX / PX_PER_CM
    # The rule sizes (cm, width x depth) as the text gives them, via rules.table.templates.
    for kind in ("artillery", "sos", "light-mortar", "medium-mortar", "heavy-mortar", "mg-indirect"):
        spec = TEMPLATES[kind]
        assert measured[kind] == pytest.approx((spec.width_cm, spec.depth_cm), abs=tol), kind
    # "an area 20cm wide by 10cm deep if launched by the attacker, but only 10x5 if used by a defender"
    assert measured["gas-attacker"] == pytest.approx((20, 10), abs=tol)
    assert measured["gas-defender"] == pytest.approx((10, 5), abs=tol)
    # "artillery ... a rectangle 10x10cm"; "SOS fire covers an area of effect 10cm wide by 5cm deep"
    assert measured["artillery"] == pytest.approx((10, 10), abs=tol)
    assert measured["sos"] == pytest.approx((10, 5), abs=tol)
    # "Light Mortars ... 3cm square", medium 4cm, heavy 5cm
    assert [measured[k][0] for k in ("light-mortar", "medium-mortar", "heavy-mortar")] == pytest.approx(
        [3, 4, 5], abs=tol
    )
    # The barrage band is drawn with its depth across the page: "covers an area 20cm wide" (deep).
    assert measured["rolling-barrage"][0] == pytest.approx(20, abs=tol)
    assert measured["rolling-barrage"][1] == pytest.approx(kit_sheet.BARRAGE_SEGMENT_CM, abs=tol)
    # MG: a 2 cm lane ("the width of their 2cm base") and "Beaten Zone = 15cm beyond First target".
    lane_len, lane_w = measured["mg-beaten-zone"]
    assert lane_w == pytest.approx(2, abs=tol)
    assert lane_len == pytest.approx(kit_sheet.MG_LANE_STUB_CM + 15, abs=tol)


def test_pieces_stay_on_their_page_and_do_not_overlap() -> None:
    for page in kit.pages():
        w, h = page.area_mm
        rects = []
        for p in page.pieces:
            left = p.x_mm - (p.apron[0] if p.apron else 0)
            assert left >= 0 and p.x_mm + p.w_mm <= w and p.y_mm >= kit.TOP_MM and p.y_mm + p.h_mm <= h, p.id
            rects.append((left, p.y_mm, p.x_mm + p.w_mm, p.y_mm + p.h_mm + 8))  # 8 mm: the note below
        for i, a in enumerate(rects):
            for b in rects[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_kit_text_is_at_least_8pt_and_names_each_template(paper: str) -> None:
    html = template_kit_html(paper)
    assert min(pdf.font_sizes_pt(html)) >= 8
    text = pdf.text(template_kit_pdf(paper))
    for title in (
        "Artillery battery",
        "SOS fire",
        "Heavy mortar",
        "Medium mortar",
        "Light mortar",
        "Gas cloud, attacker",
        "Gas cloud, defender",
        "MG fire lane and beaten zone",
        "Rolling barrage band",
        "10 cm calibration bar",
    ):
        assert title in text
