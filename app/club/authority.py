"""The club's certificate authority and the server certificate it signs (with `cryptography`).

Every file lives in `<FIRESTEP_VAR_DIR>/club/` (a folder only its owner may open: mode 0700, or on Windows an
access list naming that user alone); the private keys are written mode 0600 and never served. The authority
is made on first use and kept: a tablet trusts it once.
It is name-constrained to private addresses, loopback, `localhost` and `.local` names, so even a copied
authority key cannot vouch for a public site (to the clients that honour constraints on a trusted root:
/trust says plainly that some do not). The server certificate is made anew at every start, for the
addresses the laptop has then, for server authentication only, and lives SERVER_DAYS.
"""

from __future__ import annotations

import datetime
import ipaddress
import plistlib
import uuid
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from app.club.addresses import PRIVATE_NETWORKS, IPAddress, current_addresses, current_names
from app.core.datafolder import PrivateFolderError as PrivateFolderError  # raised by private_folder
from app.core.datafolder import private_folder, write_private
from app.core.platform import owner_only

AUTHORITY_DAYS = 3650  # trusted once per tablet: a club keeps it for years
SERVER_DAYS = 90  # reissued at every start, so short costs nothing (Apple's ceiling is 825 days)
PERMITTED_NAMES = ("localhost", "local")  # "local" permits every name under .local (RFC 5280 4.2.1.10)
AUTHORITY_NAME = "firestep club authority"


@dataclass(frozen=True)
class ClubFiles:
    """Where one data folder keeps the club's keys and certificates."""

    folder: Path

    @classmethod
    def of(cls, var_dir: Path) -> ClubFiles:
        return cls(Path(var_dir) / "club")

    @property
    def authority_key(self) -> Path:
        return self.folder / "authority.key"

    @property
    def authority_cert(self) -> Path:
        return self.folder / "authority.crt"

    @property
    def server_key(self) -> Path:
        return self.folder / "server.key"

    @property
    def server_cert(self) -> Path:
        return self.folder / "server.crt"


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "firestep"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


def name_constraints() -> x509.NameConstraints:
    permitted: list[x509.GeneralName] = [x509.DNSName(n) for n in PERMITTED_NAMES]
    permitted += [x509.IPAddress(net) for net in PRIVATE_NETWORKS]
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None)


def _new_authority(files: ClubFiles) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    name = _name(f"{AUTHORITY_NAME} {uuid.uuid4().hex[:8]}")  # two clubs' authorities are told apart
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=AUTHORITY_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(name_constraints(), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    write_private(files.authority_key, _key_pem(key))
    files.authority_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def ensure_authority(var_dir: Path) -> ClubFiles:
    """The data folder's club authority, made on first use (the folder too, owner-only)."""
    files = ClubFiles.of(var_dir)
    private_folder(files.folder)
    if not (files.authority_key.exists() and files.authority_cert.exists()):
        _new_authority(files)
    owner_only(files.authority_key)
    return files


def authority_cert(var_dir: Path) -> x509.Certificate | None:
    """The club authority's certificate, or None when this data folder has none (not served with --club)."""
    path = ClubFiles.of(var_dir).authority_cert
    return x509.load_pem_x509_certificate(path.read_bytes()) if path.exists() else None


def issue_server_cert(
    files: ClubFiles, addresses: list[IPAddress] | None = None, names: list[str] | None = None
) -> x509.Certificate:
    """A new server key and certificate, signed by the authority, naming every current address and name."""
    addresses = current_addresses() if addresses is None else addresses
    names = current_names() if names is None else names
    ca_key = serialization.load_pem_private_key(files.authority_key.read_bytes(), password=None)
    assert isinstance(ca_key, ec.EllipticCurvePrivateKey)
    ca_cert = x509.load_pem_x509_certificate(files.authority_cert.read_bytes())
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    sans: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    sans += [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(names[0] if names else str(addresses[0])))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    write_private(files.server_key, _key_pem(key))
    files.server_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert


def fingerprint(cert: x509.Certificate) -> str:
    """The SHA-256 fingerprint in groups of four, as /trust and the terminal show it to compare."""
    hexed = cert.fingerprint(hashes.SHA256()).hex().upper()
    return " ".join(hexed[i : i + 4] for i in range(0, len(hexed), 4))


def mobileconfig(cert: x509.Certificate) -> bytes:
    """An Apple configuration profile that installs the authority as a root (iPad, iPhone, macOS). Its ids
    follow from the authority, so downloading it twice offers the same profile."""
    der = cert.public_bytes(serialization.Encoding.DER)
    seed = cert.fingerprint(hashes.SHA256()).hex()
    profile_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"firestep-club:{seed}"))
    payload_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"firestep-club-root:{seed}"))
    profile = {
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"firestep.club.{profile_id}",
        "PayloadUUID": profile_id,
        "PayloadDisplayName": "firestep club",
        "PayloadDescription": "Lets this device open the club's firestep laptop over HTTPS.",
        "PayloadContent": [
            {
                "PayloadType": "com.apple.security.root",
                "PayloadVersion": 1,
                "PayloadIdentifier": f"firestep.club.root.{payload_id}",
                "PayloadUUID": payload_id,
                "PayloadDisplayName": AUTHORITY_NAME,
                "PayloadCertificateFileName": "firestep-club.crt",
                "PayloadContent": der,
            }
        ],
    }
    return plistlib.dumps(profile)


# -- the start-up check ----------------------------------------------------------------------------------------
class ClubFileError(Exception):
    """A club file that cannot serve: one sentence naming the file and what to do, shown instead of a
    traceback."""


def _remake(files: ClubFiles) -> str:
    return (
        f"move {files.authority_key.name} and {files.authority_cert.name} out of {files.folder} and start "
        "again to make a new authority (every tablet trusts it anew), or put back the pair you kept"
    )


def _key(path: Path, fix: str) -> ec.EllipticCurvePrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError, OSError, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ClubFileError(f"{path} is not a readable private key: {fix}.")
    return key


def _cert(path: Path, fix: str) -> x509.Certificate:
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (ValueError, OSError):
        raise ClubFileError(f"{path} is not a readable certificate: {fix}.") from None


def _same_key(key: ec.EllipticCurvePrivateKey, cert: x509.Certificate) -> bool:
    public = cert.public_key()
    return isinstance(public, ec.EllipticCurvePublicKey) and public.public_numbers() == (
        key.public_key().public_numbers()
    )


def check_authority(files: ClubFiles) -> None:
    """The authority's key and certificate belong together (a key that does not sign what tablets trust
    would make a server certificate no tablet verifies); a ClubFileError says which file and what to do."""
    fix = _remake(files)
    key = _key(files.authority_key, fix)
    if not _same_key(key, _cert(files.authority_cert, fix)):
        raise ClubFileError(f"{files.authority_key} does not belong to {files.authority_cert}: {fix}.")


def check_server(files: ClubFiles) -> None:
    """The server's key matches its certificate, and the authority tablets trust signed it."""
    fix = f"delete {files.server_key.name} and {files.server_cert.name} and start again"
    ca = _cert(files.authority_cert, _remake(files))
    cert = _cert(files.server_cert, fix)
    if not _same_key(_key(files.server_key, fix), cert):
        raise ClubFileError(f"{files.server_key} does not belong to {files.server_cert}: {fix}.")
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        raise ClubFileError(f"{files.server_cert} is not signed by {files.authority_cert}: {fix}.") from None
