"""The README must stay true: every command, page, API path, file and image it names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import app as cli
from app.core.pdf_engine import remedy

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_make_targets_named_in_readme_exist() -> None:
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.M))
    named = set(re.findall(r"`make (\w+)`", README)) | set(re.findall(r"^make (\w+)", README, re.M))
    assert {"run", "test"} <= named
    assert named <= targets


def test_cli_commands_named_in_readme_exist() -> None:
    out = CliRunner().invoke(cli, ["--help"], terminal_width=200).output
    named = set(re.findall(r"`firestep ([a-z][\w-]*)", README))
    assert named, "README names no firestep command"
    for command in named:
        assert command in out, f"README names `firestep {command}`, which the CLI does not have"


def test_api_paths_and_pages_named_in_readme_are_served(sqlite_client: TestClient) -> None:
    schema_paths = sqlite_client.get("/openapi.json").json()["paths"]
    patterns = [re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(p)) + "$") for p in schema_paths]
    named = set(re.findall(r"`(?:GET|POST) (/api/v1/[^`\s]+)`", README))
    assert named, "README names no API path"
    for path in named:
        assert any(p.match(path) for p in patterns), f"README names {path}, which the API does not have"
    for page in set(re.findall(r"http://127\.0\.0\.1:8000(/[\w/.-]*)", README)):
        if page.startswith("/docs") or page == "/":
            continue
        assert sqlite_client.get(page).status_code == 200, page


def test_files_and_images_named_in_readme_exist() -> None:
    for rel in re.findall(r"\]\(([\w/.-]+\.png)\)", README):
        assert (ROOT / rel).is_file(), f"README shows {rel}, which is missing"
    for rel in (
        "rules/core/",
        "rules/table/",
        "app/core/config.py",
        "app/errors.py",
        "migrations/",
        ".ci/run",
    ):
        assert (ROOT / rel).exists(), rel


def test_the_first_screen_installs_checks_and_serves_on_windows_macos_and_linux() -> None:
    """A club laptop's three commands per system in the README's first 50 lines, naming the wheel the build
    makes, whatever its build's number (tests/app/test_install.py builds it and runs the workflow's smoke
    script on it)."""
    first = "\n".join(README.splitlines()[:50])
    for system in ("Windows", "macOS", "Linux"):
        start = first.index(f"\n{system} (")
        block = first[first.index("```", start) : first.index("```", first.index("```", start) + 3)]
        commands = [line for line in block.splitlines()[1:] if line.strip()]
        assert len(commands) == 3, (system, commands)
        assert "pipx install" in commands[0] and "firestep-*.whl" in commands[0], system
        assert commands[1] == "firestep doctor", system
        assert commands[2].startswith("firestep serve"), system
    assert "`uv tool install ./firestep-*.whl`" in first
    assert "`firestep-wheel` artifact" in first and "firestep-0.1.N-py3-none-any.whl" in first


def test_the_update_steps_are_the_ones_the_update_test_runs() -> None:
    """The README's "Update" commands are those tests/app/test_install.py updates a wheel with, and the name of
    the artifact the workflow keeps."""
    update = README[README.index("### Update") : README.index("## A club night")]
    block = update[update.index("```sh") : update.index("```", update.index("```sh") + 3)]
    assert "pipx install --force ./firestep-*.whl" in block and "uv tool install ./firestep-*.whl" in block
    test = (ROOT / "tests" / "app" / "test_install.py").read_text()
    assert '"pipx", "install", *update' in test and 'update = [] if first else ["--force"]' in test
    assert '"uv", "tool", "install"' in test
    workflow = (ROOT / ".github" / "workflows" / "install.yml").read_text()
    assert "uses: actions/upload-artifact@v4" in workflow and "name: firestep-wheel" in workflow
    assert "fetch-depth: 0" in workflow  # a shallow clone counts only the commits it holds


@pytest.mark.parametrize(
    ("system", "platform", "runtime"),
    [
        ("Windows", "win32", "pacman -S mingw-w64-ucrt-x86_64-pango"),
        ("macOS", "darwin", "brew install pango"),
        ("Linux", "linux", "libpangoft2-1.0-0"),
    ],
)
def test_the_pdf_runtime_the_readme_installs_is_the_workflows_and_doctors(
    system: str, platform: str, runtime: str
) -> None:
    """Each system's Pango as the README's first screen installs it, the install workflow installs it before
    its smoke test, and `firestep doctor` names it where the PDF engine does not load."""
    workflow = (ROOT / ".github" / "workflows" / "install.yml").read_text()
    (line,) = [line for line in README.splitlines() if line.startswith(f"{system} (")]
    assert runtime in line and runtime in workflow and runtime in remedy(platform)
    if system == "macOS":  # Homebrew's libraries on Apple silicon, outside the loader's own path
        assert "DYLD_FALLBACK_LIBRARY_PATH" in line and "DYLD_FALLBACK_LIBRARY_PATH" in workflow
    for installer in ("pipx", "uv"):  # the smoke script after each install the README gives
        assert f"python tests/smoke/install_smoke.py --wheel-dir dist --installer {installer}" in workflow


def test_the_workflows_linux_job_runs_what_make_test_runs() -> None:
    """Issue 68: the workflow's Linux job is `make test` (lint, types, every tier, then the timed tests), with
    CI "false" so that what GitHub's runner lacks (PostgreSQL, Chromium) skips; the other systems run the tiers
    below the browser, the platform module's Windows and macOS branches among them."""
    workflow = (ROOT / ".github" / "workflows" / "install.yml").read_text()
    steps = workflow.split("\n      - ")[1:]  # the job's steps, each from its first key
    runs = [s for s in steps if re.search(r"^\s*run: .*(pytest|make )", s, re.M)]
    conditions = [re.findall(r"^\s*if: (.+)$", s, re.M) for s in runs]
    assert conditions == [["runner.os == 'Linux'"], ["runner.os != 'Linux'"]]
    assert "run: make test PYTHON=python" in runs[0] and 'CI: "false"' in runs[0]
    assert (ROOT / "Makefile").read_text().count("\ntest: lint types pytest\n") == 1


def test_the_wheel_is_found_or_built_as_the_workflow_builds_it() -> None:
    """A newcomer's gaps: where the artifact is (the workflow sets no retention, so GitHub's 90 days hold), that
    only a full clone numbers the build, the build line the workflow's own (into `dist`, so a rebuild leaves no
    second wheel for `./firestep-*.whl` to match) in the install and update sections alike, and the new terminal
    `pipx ensurepath` needs."""
    workflow = (ROOT / ".github" / "workflows" / "install.yml").read_text()
    first = "\n".join(README.splitlines()[:50])
    assert "Actions page" in first and "zip to unpack" in first and "signed in to GitHub" in first
    assert "retention-days" not in workflow and "after 90 days" in first
    assert "--depth 1" in first and "Download ZIP" in first
    build = "pip wheel --no-deps -w dist ."
    assert f"python -m {build}" in workflow
    update = README[README.index("### Update") : README.index("## A club night")]
    assert build in first and build in update and "delete" in update
    assert "pip wheel --no-deps ." not in README  # the clone's root, where an older wheel stays beside it
    assert "pipx ensurepath`, open a new terminal" in first


def test_the_club_night_starts_on_the_club_wifi_with_the_referee_first() -> None:
    """The certificate names the addresses the laptop has as serve starts; the referee signs in with the printed
    token before making the join cards, whose button the join-cards page has."""
    night = README[README.index("## A club night") : README.index("1. **One QR to trust.**")]
    assert night.index("wifi") < night.index("`firestep serve --club`")
    assert "referee signs in first" in night and '"Make new join cards"' in night
    cards = (ROOT / "frontend" / "templates" / "join_cards.html").read_text()
    assert "Make new join cards</button>" in cards
