"""Playtest rooms: people at one game from their own browsers.

``journal`` keeps every room, seat, game, move, chat line and survey in SQLite;
``room`` holds the live tables (moves through the engine, each seat shown only
its :meth:`Game.observation`); ``web`` serves the seats' pages and websockets
inside ``workbench serve``. See docs/playtesting.md.
"""
