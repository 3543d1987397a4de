"""Accounts: claimed names, cookie sessions, passkeys (and their pending challenges), and
the seat an account took (``seats.account_id``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(256), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("reset_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("reset_expires_at", sa.BigInteger(), nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1024), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.LargeBinary(), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
    )
    # a plain ADD COLUMN on both databases (no table rebuild on SQLite, see 0002); SQLite
    # takes the foreign key inline (for a column that defaults to NULL), Alembic would not
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL")
    else:
        op.add_column("seats", sa.Column("account_id", sa.Integer(),
                                         sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account_id"])


def downgrade() -> None:
    # SQLite cannot DROP a column with a foreign key: seats is rebuilt (nothing refers to it)
    op.drop_index("ix_seats_account", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("webauthn_challenges")
    op.drop_index("ix_passkeys_account_id", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_sessions_account_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
