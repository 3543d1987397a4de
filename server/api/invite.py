"""The invite link of a match: an address friends on the network can open, and its QR code.

The address the host's own browser used is no good when it is a loopback one
(``127.0.0.1``, ``localhost``): it opens nothing on a friend's phone. So the link is, in
this order:

1. ``POTLUCK_PUBLIC_URL`` when it is set (behind a proxy, in a container, a name of your own);
2. the address the browser asked for, when it is not a loopback one (the host opened the
   page by the computer's network address, or through a proxy);
3. when the server listens on every interface (``--host 0.0.0.0``): this computer's
   network addresses, with the port it listens on;
4. otherwise the server listens on this computer only: the link is the browser's, and the
   answer says plainly that friends cannot open it, and how to let them in.

The QR code is drawn from ``qr`` (rows of ``0``/``1`` modules, no quiet zone) by the page.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from server.runtime import LiveMatch

from .auth import live_match

router = APIRouter(prefix="/api", tags=["lobby"])

WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")
# Asking the kernel for the route to these sends nothing; it tells which address this
# computer would speak from, i.e. its address on the network it is connected to.
ROUTE_PROBES = ("10.254.254.254", "192.168.254.254", "172.31.254.254")


class Invite(BaseModel):
    url: str = Field(description="The link to send: the first of `urls`.")
    urls: list[str] = Field(description="Every address of the match the server knows friends may use.")
    reach: Literal["network", "this_computer"] = Field(
        description="`network`: friends on the network can open `url`; `this_computer`: the server "
                    "listens on loopback only, so only this computer can.")
    note: str = Field(description="What to tell the host about the link, in a sentence or two.")
    qr: list[str] = Field(description="The QR code of `url`: rows of modules, `1` dark, without the quiet zone.")


def is_loopback(host: str) -> bool:
    """Is ``host`` (a name or an address, IPv6 with or without brackets) this computer only?"""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks (not loopback), the one it would
    route through first."""
    found: list[str] = []
    for probe in ROUTE_PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:
            continue
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    unique = dict.fromkeys(a for a in found if not is_loopback(a) and not ipaddress.ip_address(a).is_unspecified)
    return list(unique)


def in_a_container() -> bool:
    return Path("/.dockerenv").exists()


def _origin(host: str, port: int) -> str:
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}"


def invite_for(path: str, asked: str, listen: tuple[str, int] | None, public_url: str) -> Invite:
    """The invite to ``path`` for a browser that asked for ``asked`` (scheme://host[:port])
    of a server listening on ``listen`` (``None``: unknown, e.g. in tests)."""
    if public_url:
        return _invite([public_url.rstrip("/") + path], "network",
                       "Send this link to your friends, or let them scan the code.")
    if not is_loopback(urlsplit(asked).hostname or ""):
        return _invite([asked + path], "network", "Send this link to your friends, or let them scan the code.")
    if listen is not None and listen[0] in WILDCARDS:
        urls = [_origin(a, listen[1]) + path for a in network_addresses()]
        if urls and in_a_container():
            return _invite(urls, "network",
                           "This server runs in a container: these are the container's own addresses. If a "
                           "friend's device cannot open the link, open this page by your computer's network "
                           "address (or set POTLUCK_PUBLIC_URL) and send that link instead.")
        if urls:
            return _invite(urls, "network",
                           "Friends on the same network (Wi-Fi) open this link or scan the code. If it does not "
                           "load for them, allow the port in this computer's firewall.")
        return _invite([asked + path], "this_computer",
                       "This computer is on no network right now: only its own browser can open the link.")
    if listen is not None and not is_loopback(listen[0]):
        return _invite([_origin(listen[0], listen[1]) + path], "network",
                       "Send this link to your friends, or let them scan the code.")
    return _invite([asked + path], "this_computer",
                   "This server listens on this computer only (127.0.0.1): friends on your network cannot "
                   "open this link. To let them in, start it with `potluck serve --host 0.0.0.0` and open "
                   "this page again.")


def _invite(urls: list[str], reach: Literal["network", "this_computer"], note: str) -> Invite:
    code = segno.make(urls[0], error="m", micro=False)
    rows = ["".join("1" if module else "0" for module in row) for row in code.matrix]
    return Invite(url=urls[0], urls=urls, reach=reach, note=note, qr=rows)


@router.get("/matches/{match_id}/invite", response_model=Invite, summary="The invite link of a match")
async def invite(request: Request, live: LiveMatch = Depends(live_match)) -> Invite:
    """A link to the match that friends on the network can open, its QR code, and whether
    only this computer can open it (the server listens on loopback only)."""
    asked = str(request.base_url).rstrip("/")
    return invite_for(f"/matches/{live.id}", asked, getattr(request.app.state, "listen", None),
                      request.app.state.settings.public_url)
