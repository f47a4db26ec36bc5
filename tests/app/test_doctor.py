"""`firestep doctor` (app/doctor.py), line by line: a healthy club folder (as serve --club leaves it), then each
broken case made for real: a read-only data folder, a database at an old revision, an expired or foreign club
certificate (made with cryptography), a port held by a real socket, the PDF engine that does not load."""

from __future__ import annotations

import datetime
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from app import doctor
from app.cli import app as cli
from app.club import addresses, authority
from app.core.config import Settings, sqlite_url
from app.core.db import alembic_config, head_revision, migrate
from app.core.pdf_engine import remedy
from tests.app.club.served import free_port, free_ports

DAY = datetime.timedelta(days=1)


def club_folder(var: Path) -> Settings:
    """A data folder as `firestep serve --club` leaves it: migrated, the authority and a server certificate
    for the laptop's addresses now, the folder and the database this user's only."""
    var.mkdir(mode=0o700)
    migrate(sqlite_url(var))
    files = authority.ensure_authority(var)
    authority.issue_server_cert(files, addresses.current_addresses(), addresses.current_names())
    (var / "firestep.db").chmod(0o600)
    return Settings(var_dir=var, database_url=sqlite_url(var), secret_key="-")


TOPICS = (
    "Python", "firestep", "data folder", "database", "PDF engine", "club authority", "club certificate",
    "https port", "plain port", "network",
)  # fmt: skip


def lines(settings: Settings, port: int = 0) -> dict[str, doctor.Line]:
    """Each line by its topic (the ports' by which they are)."""
    https, plain = free_ports(2)
    return dict(zip(TOPICS, doctor.check(settings, port or https, plain), strict=True))


def statuses(found: dict[str, doctor.Line]) -> dict[str, str]:
    return {topic: line.status for topic, line in found.items()}


NETWORK = "ok" if addresses.lan_addresses() else "note"  # this machine's own network, as it is
VERDICT_WITHOUT_NETWORK = "Not ready for a club night yet: tablets cannot reach this laptop yet (no network)."
HEALTHY = {**dict.fromkeys(TOPICS, "ok"), "network": NETWORK}


def test_a_healthy_club_folder_is_ok_line_by_line_and_exits_zero(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    found = lines(settings)
    assert statuses(found) == HEALTHY, found
    assert [line.topic for line in found.values()][:7] == list(TOPICS[:7])
    said = {topic: line.said for topic, line in found.items()}
    assert said["firestep"] == version("firestep") and said["Python"].startswith(
        ".".join(map(str, sys.version_info[:3]))
    )
    assert said["data folder"] == f"{settings.var_dir}, writable, this user's only"
    ca = authority.authority_cert(settings.var_dir)
    assert ca is not None and authority.fingerprint(ca) in said["club authority"]
    assert said["club certificate"].endswith(", ".join(["127.0.0.1", *map(str, addresses.lan_addresses())]))
    lan = addresses.lan_addresses()
    if lan:
        assert f"https://{addresses.url_host(lan[0])}:" in said["network"]
    else:
        assert "join the club's wifi" in said["network"]
    # The command: each line printed, then the verdict, exit status 0.
    env = {"FIRESTEP_VAR_DIR": str(settings.var_dir), "FIRESTEP_DATABASE_URL": ""}
    https, plain = free_ports(2)
    ports = ["--port", str(https), "--http-port", str(plain)]
    run = CliRunner().invoke(cli, ["doctor", *ports], env=env, terminal_width=300)
    assert run.exit_code == 0, run.output
    verdict = "Ready for a club night." if lan else VERDICT_WITHOUT_NETWORK
    assert run.output.splitlines()[-1] == verdict
    assert run.output.splitlines()[2].startswith("ok    data folder: ")


def test_a_fresh_laptop_is_notes_of_what_serve_makes_and_exits_zero(tmp_path: Path) -> None:
    var = tmp_path / "var"
    found = lines(Settings(var_dir=var, database_url=sqlite_url(var), secret_key="-"))
    assert statuses(found) == {
        **HEALTHY,
        "data folder": "note",
        "database": "note",
        "club authority": "note",
        "club certificate": "note",
    }
    assert found["data folder"].said == f"{var} does not exist yet: firestep serve makes it."
    assert not var.exists()  # checking made nothing


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The folder made read-only for real: file modes do not stop root, so as root it is made immutable."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        undo = ["chattr", "-i", str(folder)]
    else:
        folder.chmod(0o500)
        undo = ["chmod", "700", str(folder)]
    try:
        yield
    finally:
        subprocess.run(undo, check=True)


@pytest.mark.skipif(sys.platform != "linux", reason="chattr is Linux's")
def test_a_read_only_data_folder_fails_naming_it(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    with read_only(settings.var_dir):
        found = lines(settings)
    # SQLite cannot open a database whose folder it may not write in (its journal lives beside it).
    assert statuses(found) == {**HEALTHY, "data folder": "FAIL", "database": "FAIL"}
    assert found["data folder"].said.startswith(f"{settings.var_dir} is not writable (")
    assert found["data folder"].said.endswith(
        "make it writable by you, or set FIRESTEP_VAR_DIR to a folder of your own."
    )
    assert found["database"].said.endswith(
        "firestep.db does not open (unable to open database file): make its folder readable and writable by you."
    )


def test_a_database_at_an_old_revision_fails_naming_firestep_migrate(tmp_path: Path) -> None:
    var = tmp_path / "var"
    var.mkdir(mode=0o700)
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    first = list(scripts.walk_revisions())[-1].revision
    migrate(sqlite_url(var), first)
    (var / "firestep.db").chmod(0o600)
    found = lines(Settings(var_dir=var, database_url=sqlite_url(var), secret_key="-"))
    assert statuses(found) == {
        **HEALTHY,
        "database": "FAIL",
        "club authority": "note",
        "club certificate": "note",
    }
    assert found["database"].said.startswith(f"The database is at revision {first} and this firestep needs ")
    assert found["database"].said.endswith("run `firestep migrate`.")


def _signing_key(path: Path) -> ec.EllipticCurvePrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    return key


def _resign(
    cert_path: Path, key: ec.EllipticCurvePrivateKey, before: datetime.datetime, after: datetime.datetime
) -> None:
    """The certificate made anew with other dates, every other field kept, signed by `key`."""
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    builder = (
        x509.CertificateBuilder()
        .subject_name(cert.subject)
        .issuer_name(cert.issuer)
        .public_key(cert.public_key())  # type: ignore[arg-type]
        .serial_number(x509.random_serial_number())
        .not_valid_before(before)
        .not_valid_after(after)
    )
    for extension in cert.extensions:
        builder = builder.add_extension(extension.value, extension.critical)
    cert_path.write_bytes(builder.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))


def test_an_expired_server_certificate_fails_naming_serve_club(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    files = authority.ClubFiles.of(settings.var_dir)
    now = datetime.datetime.now(datetime.UTC)
    _resign(files.server_cert, _signing_key(files.authority_key), now - 100 * DAY, now - DAY)
    found = lines(settings)
    assert statuses(found) == {**HEALTHY, "club certificate": "FAIL"}
    certificate = found["club certificate"]
    assert (
        "is valid only from" in certificate.said and "start firestep serve --club again" in certificate.said
    )


def test_an_expired_authority_fails_naming_a_new_one(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    files = authority.ClubFiles.of(settings.var_dir)
    now = datetime.datetime.now(datetime.UTC)
    _resign(files.authority_cert, _signing_key(files.authority_key), now - 4000 * DAY, now - DAY)
    found = lines(settings)
    assert statuses(found) == {**HEALTHY, "club authority": "FAIL"}  # the certificate it signed verifies
    assert f"{files.authority_cert} is valid only from" in found["club authority"].said
    assert "serve --club again to make a new one" in found["club authority"].said


def test_a_foreign_server_certificate_or_authority_key_fails_naming_the_file(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    files = authority.ClubFiles.of(settings.var_dir)
    other = authority.ensure_authority(tmp_path / "other")
    authority.issue_server_cert(other, addresses.current_addresses(), addresses.current_names())
    for name in ("server.key", "server.crt"):
        shutil.copyfile(other.folder / name, files.folder / name)
    found = lines(settings)
    assert statuses(found) == {**HEALTHY, "club certificate": "FAIL"}
    assert found["club certificate"].said.startswith(
        f"{files.server_cert} is not signed by {files.authority_cert}"
    )
    # Another club's key beside this authority's certificate.
    shutil.copyfile(other.authority_key, files.authority_key)
    found = lines(settings)
    assert statuses(found) == {**HEALTHY, "club authority": "FAIL", "club certificate": "FAIL"}
    assert found["club authority"].said.startswith(f"{files.authority_key} does not belong to ")


def test_a_server_certificate_of_other_addresses_fails_naming_them(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    files = authority.ClubFiles.of(settings.var_dir)
    authority.issue_server_cert(files, [addresses.ipaddress.ip_address("::1")], ["localhost"])
    found = lines(settings)
    assert statuses(found) == {**HEALTHY, "club certificate": "FAIL"}
    assert f"{files.server_cert} does not name 127.0.0.1" in found["club certificate"].said


def test_a_port_in_use_fails_naming_it_and_serves_other(tmp_path: Path) -> None:
    settings = club_folder(tmp_path / "var")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        found = lines(settings, port)
    assert statuses(found) == {**HEALTHY, "https port": "FAIL"}
    assert found["https port"].topic == f"port {port}"
    assert found["https port"].said == (
        "another program holds it (the club's HTTPS (serve --club) needs it): close that program or serve on "
        "another: firestep serve --club --port N."
    )


def test_without_the_pdf_engine_doctor_exits_non_zero_naming_the_remedy(tmp_path: Path) -> None:
    """`import weasyprint` made to fail, as where Pango is missing, in a process of its own (the engine's
    answer is kept for a process's life)."""
    settings = club_folder(tmp_path / "var")
    env = {**os.environ, "FIRESTEP_VAR_DIR": str(settings.var_dir), "FIRESTEP_DATABASE_URL": ""}
    https, plain = free_ports(2)
    ports = ["--port", str(https), "--http-port", str(plain)]
    hidden = "import sys; sys.modules['weasyprint'] = None; sys.argv[0] = 'firestep'; from app.cli import main; main()"
    run = subprocess.run(
        [sys.executable, "-c", hidden, "doctor", *ports], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1, run.stdout + run.stderr
    (failed,) = [line for line in run.stdout.splitlines() if line.startswith("FAIL")]
    assert failed.startswith("FAIL  PDF engine: ") and remedy() in failed, failed
    assert run.stdout.splitlines()[-1] == "1 to fix before a club night (the FAIL lines)."


@pytest.mark.storage
def test_the_database_line_reads_either_backend_and_names_one_that_does_not_answer(migrated_url: str) -> None:
    url = make_url(migrated_url)
    if url.get_backend_name() == "sqlite":
        Path(str(url.database)).chmod(0o600)  # as the data folder keeps it
    line = doctor.database_line(migrated_url)
    assert line.status == "ok" and line.said.endswith(f"at revision {head_revision()}"), line
    if url.get_backend_name() == "postgresql":  # a server that does not answer
        gone = url.set(port=free_port()).render_as_string(hide_password=False)
        line = doctor.database_line(gone)
        assert line.status == "FAIL" and line.said.endswith("start it or fix FIRESTEP_DATABASE_URL."), line


def test_the_verdict_names_what_the_notes_say_is_lacking_never_ready_without_a_network(
    tmp_path: Path,
) -> None:
    """Issue 68: "note network: no address tablets can reach yet" was followed by "Ready for a club night."
    The same healthy folder's lines with the network line of a laptop on no network, then on one."""
    settings = club_folder(tmp_path / "var")
    others = [line for line in doctor.check(settings, *free_ports(2)) if line.topic != "network"]
    assert all(line.status == "ok" for line in others), others
    offline = doctor.network_line([], 8443, 8000)
    assert offline.status == "note" and offline.said.startswith("no address tablets can reach yet")
    assert doctor.summary([*others, offline]) == VERDICT_WITHOUT_NETWORK
    online = doctor.network_line([addresses.ipaddress.ip_address("192.168.1.20")], 8443, 8000)
    assert online.status == "ok" and doctor.summary([*others, online]) == "Ready for a club night."
    # A FAIL comes first: what is to fix, then (once fixed) what is lacking.
    failed = doctor.Line("PDF engine", "FAIL", "x")
    assert doctor.summary([*others, failed, offline]) == "1 to fix before a club night (the FAIL lines)."
