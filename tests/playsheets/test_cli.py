"""`firestep playsheet` and `firestep template-kit` write real PDFs."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from app.cli import app
from tests.playsheets import pdf


def test_playsheet_command(tmp_path: Path) -> None:
    out = tmp_path / "late.pdf"
    result = CliRunner().invoke(app, ["playsheet", "--period", "late", "--paper", "a4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Western Front mid 1917 to end of war" in pdf.text(out.read_bytes())


def test_template_kit_command(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    result = CliRunner().invoke(app, ["template-kit", "--paper", "letter", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert pdf.page_count(out.read_bytes()) == 3
