"""Loaded by the browser tests' server process only (this folder is on its PYTHONPATH):
adds this folder to the games package's path, so the registry also finds the test game
``secret-snack`` — a tiny game with private events and a quick end, drawn by the generic
renderer. Production code is untouched; the pytest process never imports this."""

import os

import server.games

server.games.__path__.append(os.path.dirname(os.path.abspath(__file__)))
