"""/trust: how a tablet trusts the club's certificate authority once (`firestep serve --club`), with the
downloads each system needs. Served on the plain port too, at / as well (app/server.py), since a device that
does not yet trust the authority cannot open the HTTPS one without a warning; there its script moves to the
HTTPS address as soon as that answers, so a device that trusts the authority goes straight on."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app.club import authority
from app.club.addresses import lan_addresses, url_host
from app.club.qr import svg
from app.core.config import Settings, get_settings
from app.core.routing import Router
from app.deps import SettingsDep
from app.pages.templates import templates

router = Router(include_in_schema=False)

# The downloads: the authority's certificate only (never a key), as DER (what Windows, Android, macOS and
# ChromeOS import as .crt) and PEM (Linux, Firefox), and as an Apple configuration profile.
DER_NAME = "firestep-club.crt"
PEM_NAME = "firestep-club.pem"
PROFILE_NAME = "firestep-club.mobileconfig"
CA_DER = "application/x-x509-ca-cert"
APPLE_PROFILE = "application/x-apple-aspen-config"
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def club_host(request: Request) -> str:
    """The host the laptop is reached at, as a URL's host: the request's own, unless that is the laptop
    itself (loopback) while the server listens beyond it: a tablet needs the laptop's LAN address."""
    host = request.url.hostname or "127.0.0.1"
    if host in LOOPBACK and get_settings().host not in LOOPBACK:  # served beyond loopback
        lan = lan_addresses()
        return url_host(lan[0]) if lan else "127.0.0.1"
    return url_host(host)


def trust_url(request: Request, settings: Settings) -> str | None:
    """The plain-HTTP address of /trust a tablet can open, or None when this is not a club server."""
    if not settings.club_port:
        return None
    return f"http://{club_host(request)}:{settings.club_http_port}/trust"


def trust_qr(request: Request, settings: Settings) -> dict[str, str] | None:
    """The /trust link and its QR code, for the start page and /trust itself; None on a plain server."""
    url = trust_url(request, settings)
    return {"url": url, "svg": svg(url, "QR code: how to trust this laptop")} if url else None


def _start_page_qr(request: Request) -> dict[str, str] | None:
    return trust_qr(request, get_settings())


templates.env.globals["club_trust_qr"] = _start_page_qr  # the start page's "trust this laptop" card


@router.get("/trust", response_class=HTMLResponse)
def trust_page(request: Request, settings: SettingsDep) -> Response:
    cert = authority.authority_cert(settings.var_dir) if settings.club_port else None
    context: dict[str, Any] = {"title": "Trust this laptop", "club": cert is not None}
    if cert is not None:
        context |= {
            "fingerprint": authority.fingerprint(cert),
            "https_url": f"https://{club_host(request)}:{settings.club_port}/",
            "https_port": settings.club_port,
            "qr": trust_qr(request, settings),
            "der": f"/trust/{DER_NAME}",
            "pem": f"/trust/{PEM_NAME}",
            "profile": f"/trust/{PROFILE_NAME}",
        }
    return templates.TemplateResponse(request, "trust.html", context, status_code=200 if cert else 404)


def _download(settings: Settings, kind: str) -> Response:
    cert = authority.authority_cert(settings.var_dir) if settings.club_port else None
    if cert is None:
        return Response("This server has no club authority: start it with firestep serve --club.", 404)
    body, media, name = {
        "der": (cert.public_bytes(serialization.Encoding.DER), CA_DER, DER_NAME),
        "pem": (cert.public_bytes(serialization.Encoding.PEM), "application/x-pem-file", PEM_NAME),
        "profile": (authority.mobileconfig(cert), APPLE_PROFILE, PROFILE_NAME),
    }[kind]
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get(f"/trust/{DER_NAME}")
def authority_der(settings: SettingsDep) -> Response:
    return _download(settings, "der")


@router.get(f"/trust/{PEM_NAME}")
def authority_pem(settings: SettingsDep) -> Response:
    return _download(settings, "pem")


@router.get(f"/trust/{PROFILE_NAME}")
def authority_profile(settings: SettingsDep) -> Response:
    return _download(settings, "profile")
