""""Your move" mail: an account's address and its confirmation, and unsubscribing.

``PUT /api/me/email`` sets the signed-in account's address, unconfirmed, and mails it a
one-time link (``/mail/confirm?token=…``: a random token, kept as its SHA-256, used up by
the first visit); only a confirmed address is mailed. Every "your move" mail links to
``/mail/unsubscribe?key=…`` (the account's random mail key): the page asks, its button
(or a mail program's one-click POST to the same address) switches the mail off. Without
``POTLUCK_SMTP_URL`` no mail is sent and setting an address is refused (503).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from server.problems import Invalid, Unavailable
from server.runtime import Runtime
from server.runtime.mailer import Mail
from server.runtime.tokens import token_hash
from server.store import AccountRecord

from .accounts import attempt, refusals
from .auth import runtime_of
from .pages import templates
from .sessions import signed_in

router = APIRouter(tags=["accounts"])

ADDRESS = re.compile(r"[^@\s<>\"',;]{1,64}@[^@\s<>\"',;]{1,255}\.[^@\s<>\"',;.]{2,63}")


class EmailAddress(BaseModel):
    email: str = Field(min_length=3, max_length=320, examples=["maria@example.org"])


class MailSettings(BaseModel):
    email: str | None = Field(description="The address \"your move\" mail goes to; null: none.")
    confirmed: bool = Field(description="Its confirmation link was opened: only then is it mailed.")
    off: bool = Field(description="Unsubscribed: no more \"your move\" mail.")


def _base(request: Request) -> str:
    return (request.app.state.settings.public_url or str(request.base_url)).rstrip("/")


@router.get("/api/me/email", response_model=MailSettings, responses=refusals(401), summary="Your mail settings")
async def my_email(account: AccountRecord = Depends(signed_in), runtime: Runtime = Depends(runtime_of)) -> dict:
    found = (await runtime.store.mail.of([account.id])).get(account.id)
    return {"email": found.email if found else None, "confirmed": bool(found and found.confirmed),
            "off": bool(found and found.off)}


@router.put("/api/me/email", response_model=MailSettings, responses={**refusals(401, 403, 422, 429), 503: {}},
            summary="Set the address for \"your move\" mail (a confirmation link is mailed to it)")
async def set_email(body: EmailAddress, request: Request, account: AccountRecord = Depends(signed_in),
                    runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    await attempt(request)  # mails go out: as limited as sign-ins
    mailer = runtime.services.your_move.mailer
    if mailer is None:
        raise Unavailable("This server sends no mail (its operator has not set POTLUCK_SMTP_URL).")
    email = body.email.strip()
    if not ADDRESS.fullmatch(email):
        raise Invalid("That does not look like a mail address (name@example.org).")
    token = secrets.token_urlsafe(32)
    await runtime.store.mail.set(account.id, email, token_hash(token), secrets.token_urlsafe(24))
    link = f"{_base(request)}/mail/confirm?token={token}"
    try:
        await mailer.send(Mail(email, "Confirm your address at Potluck",
                               f"Hello {account.name},\n\nOpen this link to get \"your move\" mail at this address "
                               f"when you play by turns:\n\n{link}\n\nIf you did not ask for it, ignore this mail.\n"))
    except Exception as exc:
        raise Unavailable(f"The confirmation mail could not be sent ({type(exc).__name__}); try again later.") from None
    return {"email": email, "confirmed": False, "off": False}


def _page(request: Request, heading: str, said: str, key: str | None = None) -> HTMLResponse:
    return templates.TemplateResponse(request, "mail.html", {"heading": heading, "said": said, "key": key,
                                                             "renderers": []})


@router.get("/mail/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm(request: Request, token: str = "", runtime: Runtime = Depends(runtime_of)) -> HTMLResponse:
    found = await runtime.store.mail.confirm(token_hash(token)) if 0 < len(token) <= 128 else None
    if found is None:
        return _page(request, "Link used up", "This confirmation link was used already, replaced by a newer one, "
                                              "or mistyped.")
    return _page(request, "Address confirmed", "You will get a mail when it is your move in a match played by turns.")


@router.get("/mail/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page(request: Request, key: str = "") -> HTMLResponse:
    return _page(request, "Unsubscribe", "Stop the mails that say it is your move?", key=key[:64] or None)


@router.post("/mail/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe(request: Request, key: str = "", runtime: Runtime = Depends(runtime_of)) -> HTMLResponse:
    if key and len(key) <= 64 and await runtime.store.mail.unsubscribe(key):
        return _page(request, "Unsubscribed", "No more \"your move\" mail. Set your address again on your tables "
                                              "page to get them back.")
    return _page(request, "Unknown link", "This unsubscribe link is mistyped.")
