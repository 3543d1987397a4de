"""The games of Potluck, one package each; each package exposes ``GAME``."""
