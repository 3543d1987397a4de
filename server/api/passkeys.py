"""REST: passkeys (WebAuthn, the ``webauthn`` package) — add one to your account, and sign
in with one.

Each ceremony takes two requests: ``…/options`` hands out a random challenge (kept in the
database for two minutes, so any server process can take the answer, and spent by the
first answer), then the browser's answer is verified against this server: its relying
party id is the host name the browser asked for, its origin this server's own. Sign-in
uses discoverable credentials: the browser offers the passkeys it holds for this site,
no name is typed.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from webauthn import (generate_authentication_options, generate_registration_options, options_to_json,
                      verify_authentication_response, verify_registration_response)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor,
                                      ResidentKeyRequirement, UserVerificationRequirement)

from server.runtime import Invalid, Runtime
from server.store import AccountRecord, PasskeyRecord

from .accounts import BadCredentials, Me, attempt, refusals
from .auth import runtime_of
from .sessions import signed_in, start_session, wall_ms

router = APIRouter(prefix="/api", tags=["accounts"])

CHALLENGE_MS = 120_000
NOT_ACCEPTED = "This passkey was not accepted; try again."


class Ceremony(BaseModel):
    challenge_id: str = Field(description="Send it back with the answer.")
    options: dict[str, Any] = Field(description="For `PublicKeyCredential.parse…OptionsFromJSON` in the browser.")


class Answer(BaseModel):
    challenge_id: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any] = Field(description="The browser's credential, as `PublicKeyCredential.toJSON()`.")


class Passkey(BaseModel):
    id: str
    created_at: int


def relying_party(request: Request) -> tuple[str, str]:
    """This server as the browser sees it: ``(rp_id, origin)``."""
    host = request.headers.get("host") or request.url.netloc
    return (request.url.hostname or host.split(":")[0]), f"{request.url.scheme}://{host}"


async def _ceremony(runtime: Runtime, challenge: bytes, account_id: int | None, options: Any) -> dict[str, Any]:
    challenge_id, now = secrets.token_urlsafe(24), wall_ms()
    await runtime.store.accounts.put_challenge(challenge_id, challenge, account_id, now + CHALLENGE_MS, now)
    return {"challenge_id": challenge_id, "options": _json(options)}


def _json(options: Any) -> dict[str, Any]:
    return json.loads(options_to_json(options))


async def _challenge(runtime: Runtime, challenge_id: str, account_id: int | None) -> bytes:
    taken = await runtime.store.accounts.take_challenge(challenge_id, wall_ms())
    if taken is None or taken[1] != account_id:
        raise Invalid("This passkey request has expired or was already answered; start again.")
    return taken[0]


@router.post("/me/passkeys/options", response_model=Ceremony, responses=refusals(401, 403),
             summary="Start adding a passkey to your account")
async def registration_options(request: Request, account: AccountRecord = Depends(signed_in),
                               runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    rp_id, _ = relying_party(request)
    known = await runtime.store.accounts.passkeys_of(account.id)
    options = generate_registration_options(
        rp_id=rp_id, rp_name="Potluck", user_name=account.name, user_id=f"potluck-{account.id}".encode(),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id)) for k in known],
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED))
    return await _ceremony(runtime, options.challenge, account.id, options)


@router.post("/me/passkeys", response_model=Passkey, status_code=201, responses=refusals(401, 403, 422),
             summary="Add a passkey to your account")
async def register(body: Answer, request: Request, account: AccountRecord = Depends(signed_in),
                   runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    challenge = await _challenge(runtime, body.challenge_id, account.id)
    rp_id, origin = relying_party(request)
    try:
        verified = verify_registration_response(credential=body.credential, expected_challenge=challenge,
                                                expected_rp_id=rp_id, expected_origin=origin)
    except (WebAuthnException, ValueError, TypeError, KeyError):
        raise Invalid(NOT_ACCEPTED) from None
    key = PasskeyRecord(bytes_to_base64url(verified.credential_id), account.id, verified.credential_public_key,
                        verified.sign_count, wall_ms())
    if await runtime.store.accounts.passkey(key.credential_id) is not None:
        raise Invalid("This passkey is registered already.")
    await runtime.store.accounts.add_passkey(key)
    return {"id": key.credential_id, "created_at": key.created_at}


@router.get("/me/passkeys", response_model=list[Passkey], responses=refusals(401), summary="Your passkeys")
async def my_passkeys(account: AccountRecord = Depends(signed_in),
                      runtime: Runtime = Depends(runtime_of)) -> list[dict[str, Any]]:
    return [{"id": k.credential_id, "created_at": k.created_at} for k in await runtime.store.accounts.passkeys_of(account.id)]


@router.post("/session/passkey/options", response_model=Ceremony, responses=refusals(403, 429),
             summary="Start signing in with a passkey")
async def authentication_options(request: Request, runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    await attempt(request)
    rp_id, _ = relying_party(request)
    options = generate_authentication_options(rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
    return await _ceremony(runtime, options.challenge, None, options)


@router.post("/session/passkey", response_model=Me, responses=refusals(401, 403, 422),
             summary="Sign in with a passkey")
async def sign_in_with_passkey(body: Answer, request: Request, response: Response,
                               runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    challenge = await _challenge(runtime, body.challenge_id, None)
    raw_id = body.credential.get("rawId") or body.credential.get("id")
    key = await runtime.store.accounts.passkey(raw_id) if isinstance(raw_id, str) and len(raw_id) <= 1024 else None
    if key is None:
        raise BadCredentials("This passkey is not known here.")
    rp_id, origin = relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=body.credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=key.public_key, credential_current_sign_count=key.sign_count)
    except (WebAuthnException, ValueError, TypeError, KeyError):
        raise BadCredentials(NOT_ACCEPTED) from None
    await runtime.store.accounts.used_passkey(key.credential_id, verified.new_sign_count)
    account = await runtime.store.accounts.get(key.account_id)
    if account is None:
        raise BadCredentials("This passkey is not known here.")
    await start_session(request, response, account)
    return {"account": account.to_json()}
