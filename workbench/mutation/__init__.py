"""Mutation testing of a game's rules: how much of the engine its scenarios and checks pin down.

- :mod:`.operators` finds the small changes that can be planted in a rules module;
- :mod:`.plant` plants one in the running process (forked per mutant);
- :mod:`.suite` runs a game's scenarios and Python checks one at a time, records which lines
  each reaches, and tells a passing run from a failing one;
- :mod:`.run` samples mutants, runs the checks that reach each on all cores and gathers the
  kill rate per module and per clause;
- :mod:`.propose` searches seeded random play for a position where a surviving mutant and
  the real engine differ, and writes it as a scenario;
- :mod:`.report` prints the result.

Nothing here names a game: the game says which of its modules are rules
(``Game.rules_modules``).
"""
