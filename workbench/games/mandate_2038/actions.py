"""The six Core Actions and the module that holds each one's rules.

Each module gives ``effects(state, seat, pos)`` (the effects the Action may have
with an Agent on district ``pos``) and ``resolve(state, seat, pos, mode)``;
:mod:`.flow` asks them through this table and never names them itself.
"""

from __future__ import annotations

from typing import Final

from . import build, deploy, fund, influence, organize, research

ACTION_RULES: Final = {"fund": fund, "research": research, "build": build, "organize": organize,
                "deploy": deploy, "influence": influence}
