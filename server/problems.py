"""What can go wrong when a client asks the server for something: one family for every layer.

The store (a full match, a name taken or claimed by an account, seats held for a rematch) and the runtime (an
illegal or stale action, a match not started) raise these themselves, with the sentence a
player reads, so nothing translates one error into another on the way up. Each error has
a stable machine ``code`` (sent in WebSocket error messages and REST error bodies); the API
maps the classes to HTTP statuses.
"""

from __future__ import annotations


class Problem(Exception):
    """A client's request that cannot be granted; the state is untouched."""

    code = "invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownMatch(Problem):
    code = "not_found"


class NotAuthenticated(Problem):
    code = "unauthorized"


class NotYourSeat(Problem):
    code = "forbidden"


class NameClaimed(Problem):
    """The name (compared after NFKC and casefolding) belongs to an account, not the
    asker's: taking a seat under it, signing up with it or renaming to it is refused."""

    code = "name_claimed"

    def __init__(self, name: str) -> None:
        super().__init__(f"The name {name!r} belongs to an account: sign in as it to play under it, "
                         "or choose another name.")
        self.name = name


class Conflict(Problem):
    """The request does not fit the match as it is now (full, finished, not started…)."""

    code = "conflict"


class MatchFull(Conflict):
    code = "full"


class MatchOver(Conflict):
    code = "finished"


class NotStarted(Conflict):
    code = "not_started"


class NotFinished(Conflict):
    code = "not_finished"


class NameTaken(Conflict):
    code = "name_taken"


class AlreadySeated(Conflict):
    """The signed-in account has a seat at this table already (perhaps under an earlier
    name): one account, one seat."""

    code = "already_seated"


class SeatsHeld(Conflict):
    """In a rematch, the free seats are kept for the previous match's players until
    ``until`` (ms)."""

    code = "held"

    def __init__(self, message: str, until: int) -> None:
        super().__init__(message)
        self.until = until


class StaleSeq(Conflict):
    """``expect_seq`` is not the match's current ``seq``."""

    code = "stale"

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


class Illegal(Problem):
    """The rules refuse the action; ``message`` is the game's reason."""

    code = "illegal"


class Invalid(Problem):
    """A malformed or out-of-range request (unknown game, bad options, bad message)."""

    code = "invalid"


class RateLimited(Problem):
    """Too many requests from this client; ``retry_after``: seconds to wait, if known."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class AtCapacity(Problem):
    """The server runs as much of this as it will; ``retry_after``: seconds to wait."""

    code = "at_capacity"

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Busy(Problem):
    """The match kept moving under us; try again."""

    code = "busy"


class Unavailable(Problem):
    """This server cannot serve the match right now (its log does not replay here)."""

    code = "unavailable"
