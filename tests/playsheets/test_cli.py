"""`firestep playsheet` and `firestep template-kit` write real PDFs."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from app.cli import app
from tests.playsheets import pdf


def test_playsheet_command(tmp_path: Path) -> None:
    # The early sheet: of the three periods' the quickest to lay out (~0.5 s of CPU to late's 2.5 s).
    out = tmp_path / "early.pdf"
    result = CliRunner().invoke(app, ["playsheet", "--period", "early", "--paper", "a4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Western Front 1914 to mid 1915" in pdf.text(out.read_bytes())


def test_template_kit_command(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    result = CliRunner().invoke(app, ["template-kit", "--paper", "letter", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert pdf.page_count(out.read_bytes()) == 3
