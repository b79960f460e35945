"""Counted nouns: "1 token", never "1 tokens"."""

from workbench.core.counting import counted, plural


def test_one_is_singular_and_every_other_count_plural():
    assert counted(1, "token") == "1 token"
    assert [counted(n, "token") for n in (0, 2)] == ["0 tokens", "2 tokens"]
    assert counted(1, "copy", "copies") == "1 copy" and counted(3, "copy", "copies") == "3 copies"
    assert counted(1200, "game", fmt=",") == "1,200 games"
    assert plural(1, "Facility", "Facilities") == "Facility"


def test_the_graph_says_one_copy_and_one_token():
    from workbench.tweak import open_session
    for game_id in ("mandate-2038", "pax-transhumanity"):
        graph = open_session(game_id=game_id).graph()
        texts = [str(d.get(k, "")) for _, d in graph.nodes(data=True) for k in ("requirement", "bonus")]
        assert not [t for t in texts if t.startswith("1 ") and t.split()[1].endswith("s")
                    and t.split()[1] in ("copies", "tokens")], game_id
