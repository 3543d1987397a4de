"""Request and response models of the REST API (they are what ``/docs`` shows)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Status = Literal["open", "running", "finished"]
BotLevel = Literal["easy", "normal", "hard"]


class Problem(BaseModel):
    """Every refused request: ``detail`` says why, ``code`` is stable for programs."""

    detail: str = Field(examples=["It is Ann's turn to throw the dice."])
    code: str = Field(examples=["illegal"])
    seq: int | None = Field(None, description="With code `stale`: the match's current seq.")


class GameInfo(BaseModel):
    id: str = Field(examples=["nutty-noodles"])
    name: str
    pitch: str
    min_players: int
    max_players: int
    options: dict[str, Any] = Field(description="JSON schema of the game's options.")


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, examples=["nutty-noodles"])
    players: int | None = Field(None, ge=1, le=64, description="Seats; default: the game's minimum.")
    options: dict[str, Any] = Field(default_factory=dict, description="Validated by the game's model.")
    bots: int | list[BotLevel] = Field(
        0, description="The bots, in the last seats: how many (all at the normal level), or the "
                       "level of each in seat order, e.g. `[\"hard\", \"easy\"]`.",
        examples=[1, ["hard", "easy"]])

    rated: bool = Field(True, description="Its end changes the ratings of its accounts (false: a friendly match).")

    @field_validator("bots")
    @classmethod
    def _bots_fit(cls, bots: int | list[str]) -> int | list[str]:
        count = bots if isinstance(bots, int) else len(bots)
        if not 0 <= count <= 64:
            raise ValueError("between 0 and 64 bots")
        return bots


class SeatInfo(BaseModel):
    seat: int
    name: str
    bot: bool
    level: BotLevel | None = Field(None, description="A bot's level; null for a human.")
    connected: bool = Field(description="A socket of this seat is open on the answering server.")
    standin: bool = Field(False, description="A stand-in bot plays this absent human's seat right now.")
    account: bool = Field(False, description="The seat was taken by a signed-in account.")
    rating: float | None = Field(None, description="In lists: the account's rating in this game (μ − 3σ), "
                                 "or a bot's fixed one; null for a seat without an account.")


class MatchSummary(BaseModel):
    id: str
    game: str
    status: Status
    players: int
    bots: int
    open_seats: int
    seats: list[SeatInfo]
    options: dict[str, Any]
    created_at: int
    started_at: int | None
    finished_at: int | None
    result: dict[str, Any] | None = Field(description="Once finished: winners, scores, reason.")
    seq: int | None = Field(description="Actions so far, when the answering server holds the match.")
    rematch: str | None = Field(None, description="Once somebody asked to play again: the new match's id.")
    rated: bool = Field(True, description="Its end changes the ratings of its accounts.")


class MatchCreated(BaseModel):
    id: str
    match: MatchSummary


class MatchPage(BaseModel):
    items: list[MatchSummary]
    total: int
    limit: int
    offset: int


class JoinRequest(BaseModel):
    name: str = Field(min_length=1, max_length=64, examples=["Ann"])


class Joined(BaseModel):
    seat: int
    token: str = Field(description="Secret; send as `Authorization: Bearer …` or `?token=`.")
    match: MatchSummary


class EventOut(BaseModel):
    type: str
    text: str
    data: dict[str, Any]
    seq: int = Field(description="The action that caused the event.")
    private: bool = False


class ViewResponse(BaseModel):
    seq: int
    status: Status
    seat: int | None = Field(description="Whose view this is (null: a spectator).")
    view: dict[str, Any] | None = Field(description="The game's view for this seat; null until it starts.")
    legal: list[dict[str, Any]]
    events: list[EventOut] = Field(description="Recent events this seat may see.")
    deadline: int | None = Field(description="Game-clock ms when time moves the game on.")
    now: int = Field(description="The server's game clock, ms.")
    result: dict[str, Any] | None


class Suggestion(BaseModel):
    action: dict[str, Any] | None = Field(description="The move the normal bot would play (null: wait).")
    label: str = Field(description="The move in plain words.")
    reason: str = Field(description="Why, in one line of the game's terms.")
    clause: dict[str, str] | None = Field(description="The rule's clause: anchor, quote, href.")


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any] = Field(examples=[{"type": "roll"}])
    expect_seq: int | None = Field(None, ge=0, description="Refuse (409) unless the match is at this seq.")


class ActionAccepted(BaseModel):
    seq: int


class LogEntry(BaseModel):
    seq: int
    seat: int | None
    action: dict[str, Any]
    at: int


class MatchLog(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    started_at: int
    actions: list[LogEntry]
    result: dict[str, Any] | None


class ChatRequest(BaseModel):
    text: str = Field(max_length=10_000)


class ChatLine(BaseModel):
    seat: int
    name: str
    text: str
    at: int
