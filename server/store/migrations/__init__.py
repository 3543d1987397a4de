"""Alembic migration scripts, shipped inside the package so ``potluck serve`` finds them
from any working directory (and from an installed wheel)."""
