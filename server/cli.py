"""The ``potluck`` command."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence


def option_pair(text: str) -> tuple[str, Any]:
    """A `--option KEY=VALUE` argument: the value read as JSON where it is JSON, else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _simulate(args: argparse.Namespace) -> int:
    from server.engine import InvalidOptions, UnknownGame, registry
    from server.engine.bots import check_level
    from server.engine.playout import default_bots, level_bots, random_bots
    from server.engine.simulation import simulate

    try:
        game = registry.get(args.game)
        levels = [check_level(level.strip()) for level in args.bots.split(",")] if args.bots else None
        players = args.players or (len(levels) if levels else 2)
        if levels and len(levels) != players:
            raise InvalidOptions(f"--bots names {len(levels)} levels for {players} players: one per seat.")
        bots = random_bots if args.random else level_bots(levels) if levels else default_bots
        summary = simulate(game, players, args.games, args.seed, dict(args.option), bots=bots, levels=levels)
    except (UnknownGame, InvalidOptions) as exc:
        print(f"potluck simulate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary.to_json(), indent=2) if args.json else summary.text())
    return 0


def _serve(args: argparse.Namespace) -> int:
    import logging

    import uvicorn

    from server.app import create_app, server_config
    from server.config import Settings
    from server.runtime.collector import tune_for_serving
    from server.runtime.limits import raise_open_file_limit

    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(name)s: %(message)s")
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"potluck serve: {exc}", file=sys.stderr)
        return 2
    raise_open_file_limit()  # before the app sizes its socket budget from it
    app = create_app(settings)
    config = server_config(app, args.host, args.port, access_log=not args.no_access_log)
    tune_for_serving()
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Potluck: http://{host}:{args.port}/  (API docs at /docs)", flush=True)
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1


def _migrate(args: argparse.Namespace) -> int:
    import asyncio

    from server.config import Settings
    from server.store import Database
    from server.store.migrate import upgrade

    async def run() -> str | None:
        db = Database(Settings.from_env().database_url)
        try:
            return await upgrade(db, args.revision)
        finally:
            await db.close()

    try:
        revision = asyncio.run(run())
    except Exception as exc:  # a message, not a traceback, for a bad URL or an unreachable server
        print(f"potluck migrate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"database is at revision {revision}")
    return 0


RESET_HOURS = 24


def _accounts(args: argparse.Namespace) -> int:
    """``potluck accounts list | reset NAME | rename NAME NEW | delete NAME``, on DATABASE_URL."""
    import asyncio
    import time

    from server.config import Settings
    from server.runtime.hub import clean_name
    from server.runtime.tokens import new_token, token_hash
    from server.problems import NameClaimed
    from server.store import Database, Store
    from server.store.migrate import upgrade

    async def run(store: Store) -> int:
        accounts = store.accounts
        if args.action == "list":
            rows = await accounts.all()
            for account, keys, seats in rows:
                when = time.strftime("%Y-%m-%d", time.gmtime(account.created_at / 1000))
                print(f"{account.name}\tsince {when}\t{'password' if account.password_hash else 'no password'}"
                      f", {keys} passkey{'s' * (keys != 1)}\t{seats} seat{'s' * (seats != 1)}")
            print(f"{len(rows)} account{'s' * (len(rows) != 1)}")
            return 0
        account = await accounts.named(args.name)
        if account is None:
            print(f"potluck accounts: no account is called {args.name!r}", file=sys.stderr)
            return 1
        if args.action == "reset":
            token = new_token()
            await accounts.offer_reset(account.id, token_hash(token), int(time.time() * 1000) + RESET_HOURS * 3_600_000)
            print(f"A one-time link for {account.name} to choose a new password (valid {RESET_HOURS} hours):")
            print(f"{args.url.rstrip('/')}/reset#{token}")
        elif args.action == "rename":
            try:
                renamed = await accounts.rename(account.id, clean_name(args.new))
            except NameClaimed:
                print(f"potluck accounts: {args.new!r} belongs to another account", file=sys.stderr)
                return 1
            print(f"{account.name} is now {renamed.name} (past seats keep the names they were played under)")
        elif args.action == "delete":
            await accounts.delete(account.id)
            print(f"deleted {account.name}: its sessions, passkeys and ratings; its past seats keep the name")
        return 0

    async def main() -> int:
        db = Database(Settings.from_env().database_url)
        try:
            await upgrade(db)
            return await run(Store(db))
        finally:
            await db.close()

    try:
        return asyncio.run(main())
    except Exception as exc:  # a message, not a traceback (a bad URL, an unreachable server, a bad name)
        print(f"potluck accounts: {type(exc).__name__}: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="potluck", description="Potluck game server.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play bot games and print the figures")
    sim.add_argument("game", help="game id, e.g. nutty-noodles")
    sim.add_argument("--players", type=int, default=None, help="default: one per --bots level, else 2")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--option", type=option_pair, action="append", default=[], metavar="KEY=VALUE")
    sim.add_argument("--random", action="store_true", help="random players instead of the game's bots")
    sim.add_argument("--bots", metavar="LEVEL,…", help="the bots' levels (easy, normal, hard), one per seat "
                     "in seat order, e.g. hard,normal; default: normal everywhere")
    sim.add_argument("--json", action="store_true", help="print JSON")
    sim.set_defaults(func=_simulate)

    serve = sub.add_parser("serve", help="run the game server (migrates the database first)",
                           description="Serve Potluck. DATABASE_URL picks the store (default: "
                           "SQLite in ./data/); REDIS_URL enables fan-out between processes.")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-access-log", action="store_true", help="do not log every request")
    serve.set_defaults(func=_serve)

    migrate = sub.add_parser("migrate", help="upgrade the database schema (DATABASE_URL)")
    migrate.add_argument("--revision", default="head", help="target Alembic revision (default: head)")
    migrate.set_defaults(func=_migrate)

    accounts = sub.add_parser("accounts", help="the accounts on this server (DATABASE_URL)")
    what = accounts.add_subparsers(dest="action", required=True)
    what.add_parser("list", help="every account: name, since when, password or passkeys, seats taken")
    reset = what.add_parser("reset", help="print a one-time link to choose a new password")
    reset.add_argument("name")
    reset.add_argument("--url", default="http://127.0.0.1:8000", help="the server's address, as players reach it")
    rename = what.add_parser("rename", help="give an account another name")
    rename.add_argument("name")
    rename.add_argument("new")
    delete = what.add_parser("delete", help="delete an account (its past seats keep the name as plain text)")
    delete.add_argument("name")
    accounts.set_defaults(func=_accounts)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
