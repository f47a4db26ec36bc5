"""The club's certificate authority (app/club/authority.py): constrained to private names and addresses, keys
owner-only, a server certificate that names the laptop's addresses and serves for server authentication only.
Checked with cryptography's own path verifier, which enforces name constraints."""

from __future__ import annotations

import datetime
import ipaddress
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from app.club import authority
from app.club.addresses import current_addresses, is_private
from app.core.config import sqlite_url

ROOT = Path(__file__).resolve().parents[3]
LOOPBACK = [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")]


def _verify(ca: x509.Certificate, leaf: x509.Certificate, name: x509.GeneralName) -> None:
    subject = name if isinstance(name, x509.DNSName | x509.IPAddress) else None
    assert subject is not None
    verifier = PolicyBuilder().store(Store([ca])).build_server_verifier(subject)
    verifier.verify(leaf, [])


def test_the_server_certificate_verifies_for_loopback_and_localhost_against_the_authority_only(
    tmp_path: Path,
) -> None:
    files = authority.ensure_authority(tmp_path)
    leaf = authority.issue_server_cert(files, LOOPBACK, ["localhost"])
    ca = authority.authority_cert(tmp_path)
    assert ca is not None
    for name in (x509.IPAddress(LOOPBACK[0]), x509.IPAddress(LOOPBACK[1]), x509.DNSName("localhost")):
        _verify(ca, leaf, name)
    with pytest.raises(VerificationError):
        _verify(ca, leaf, x509.DNSName("firestep.example"))  # a name it does not carry
    # Another data folder's authority does not vouch for it.
    other = authority.ensure_authority(tmp_path / "other")
    other_ca = x509.load_pem_x509_certificate(other.authority_cert.read_bytes())
    with pytest.raises(VerificationError):
        _verify(other_ca, leaf, x509.DNSName("localhost"))


@pytest.mark.parametrize(
    "name",
    [
        x509.DNSName("example.com"),
        x509.DNSName("localhost.example.com"),
        x509.DNSName("local.example"),
        x509.IPAddress(ipaddress.ip_address("8.8.8.8")),
        x509.IPAddress(ipaddress.ip_address("2001:4860::8888")),
    ],
    ids=str,
)
def test_the_authority_cannot_vouch_for_a_public_name(tmp_path: Path, name: x509.GeneralName) -> None:
    """A certificate for a public name, signed with the authority's own key, fails verification: the
    authority's name constraints exclude it."""
    files = authority.ensure_authority(tmp_path)
    if isinstance(name, x509.DNSName):
        leaf = authority.issue_server_cert(files, [], [name.value])
    else:
        assert isinstance(name, x509.IPAddress)
        leaf = authority.issue_server_cert(files, [name.value], [])  # type: ignore[list-item]
    ca = authority.authority_cert(tmp_path)
    assert ca is not None
    with pytest.raises(VerificationError, match="name constraint"):
        _verify(ca, leaf, name)


def test_private_names_the_constraints_permit_verify(tmp_path: Path) -> None:
    files = authority.ensure_authority(tmp_path)
    lan = ipaddress.ip_address("192.168.1.20")
    leaf = authority.issue_server_cert(files, [lan], ["club-laptop.local"])
    ca = authority.authority_cert(tmp_path)
    assert ca is not None
    _verify(ca, leaf, x509.IPAddress(lan))
    _verify(ca, leaf, x509.DNSName("club-laptop.local"))


def test_extensions_lifetimes_and_key_files(tmp_path: Path) -> None:
    files = authority.ensure_authority(tmp_path)
    leaf = authority.issue_server_cert(files)
    ca = authority.authority_cert(tmp_path)
    assert ca is not None
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    permitted = constraints.value.permitted_subtrees or []
    assert {n.value for n in permitted if isinstance(n, x509.DNSName)} == {"localhost", "local"}
    assert all(is_private(n.value.network_address) for n in permitted if isinstance(n, x509.IPAddress))
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    # The server certificate: server authentication only, at most 825 days, every current address named.
    assert leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == x509.ExtendedKeyUsage(
        [ExtendedKeyUsageOID.SERVER_AUTH]
    )
    assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= datetime.timedelta(days=825)
    sans = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert set(current_addresses()) <= set(sans.get_values_for_type(x509.IPAddress))
    assert set(LOOPBACK) <= set(sans.get_values_for_type(x509.IPAddress))
    assert "localhost" in sans.get_values_for_type(x509.DNSName)
    # Keys owner-only, in an owner-only folder.
    for path in (files.authority_key, files.server_key):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(files.folder.stat().st_mode) == 0o700


def test_the_authority_is_kept_and_the_server_certificate_reissued(tmp_path: Path) -> None:
    files = authority.ensure_authority(tmp_path)
    first_ca, first_key = files.authority_cert.read_bytes(), files.authority_key.read_bytes()
    first_leaf = authority.issue_server_cert(files)
    again = authority.ensure_authority(tmp_path)
    assert again.authority_cert.read_bytes() == first_ca and again.authority_key.read_bytes() == first_key
    second_leaf = authority.issue_server_cert(again)
    assert second_leaf.serial_number != first_leaf.serial_number
    assert second_leaf.public_key() != first_leaf.public_key()


def test_the_apple_profile_carries_the_authority_and_no_key(tmp_path: Path) -> None:
    import plistlib

    from cryptography.hazmat.primitives import serialization

    files = authority.ensure_authority(tmp_path)
    ca = authority.authority_cert(tmp_path)
    assert ca is not None
    profile = plistlib.loads(authority.mobileconfig(ca))
    (root,) = profile["PayloadContent"]
    assert root["PayloadType"] == "com.apple.security.root"
    assert root["PayloadContent"] == ca.public_bytes(serialization.Encoding.DER)
    assert authority.mobileconfig(ca) == authority.mobileconfig(ca)  # the same profile each download
    assert b"PRIVATE KEY" not in authority.mobileconfig(ca)
    assert files.authority_key.read_bytes() not in authority.mobileconfig(ca)


def _serve_club(var: Path) -> subprocess.CompletedProcess[str]:
    """`firestep serve --club` on a data folder; it stops at the start-up check, before serving."""
    # A file's database: an in-memory one keeps nothing, refused before the authority is read.
    env = {"PATH": "/usr/bin:/bin", "FIRESTEP_VAR_DIR": str(var), "FIRESTEP_DATABASE_URL": sqlite_url(var)}
    args = ["serve", "--club", "--no-setup", "--host", "127.0.0.1", "--port", "1", "--http-port", "2"]
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_corrupt_or_foreign_authority_key_stops_the_start_with_one_sentence(tmp_path: Path) -> None:
    files = authority.ensure_authority(tmp_path)
    authority.check_authority(files)
    authority.issue_server_cert(files, LOOPBACK, ["localhost"])
    authority.check_server(files)
    # A key of another authority beside this certificate: a server certificate it signed verifies nowhere.
    other = authority.ensure_authority(tmp_path / "other")
    files.authority_key.write_bytes(other.authority_key.read_bytes())
    with pytest.raises(authority.ClubFileError, match=r"authority\.key does not belong to .*authority\.crt"):
        authority.check_authority(files)
    # A server certificate the authority did not sign.
    foreign = authority.ClubFiles(tmp_path / "club")
    authority.issue_server_cert(other, LOOPBACK, ["localhost"])
    for name in ("server.key", "server.crt"):
        (foreign.folder / name).write_bytes((other.folder / name).read_bytes())
    with pytest.raises(authority.ClubFileError, match=r"server\.crt is not signed by"):
        authority.check_server(foreign)
    # As the command starts: a corrupt key and a foreign one are each one sentence naming the file and what
    # to do, and no traceback.
    for key in (b"-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n", None):
        if key is not None:
            files.authority_key.write_bytes(key)
        run = _serve_club(tmp_path)
        assert run.returncode == 1, run.stdout + run.stderr
        said = run.stderr.strip()
        assert "Traceback" not in run.stderr and len(said.splitlines()) == 1, said
        assert str(files.authority_key) in said and "start again" in said
        assert said.endswith(".") and said.count(". ") == 0
