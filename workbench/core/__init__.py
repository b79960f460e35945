"""Game-agnostic machinery: the game protocol, the seeded random stream, action
notation helpers, match history with time travel, scenarios, bots and play loops.

Nothing here knows the rules of any particular game."""
