"""Who does what to whom (issue 46): the roles check reads each term's clause, each
person's role (recipient, source) and each bound's number, and catches a planted change
of each while a correct rewording of the same clause stays quiet."""

from __future__ import annotations

import random

import pytest

from workbench.rules.planting import MUTATORS, REWORDERS
from workbench.rules.review import meaning_findings
from workbench.rules.roles import bound_changes, bounded_numbers, clause_swap, people_roles


def _findings(src, tr, src_lang, tr_lang):
    return meaning_findings("demo/x/y", src, tr, src_lang, tr_lang, {}, {}, [])


def _roles(src, tr, sl, tl):
    return {d for c, d in _findings(src, tr, sl, tl) if c == "roles"}


EN = "The active player pays 2 coins to a rival, then takes 1 card from the active player's pile."
HU = "A soron lévő játékos 2 érmét fizet egy riválisnak, majd elvesz 1 lapot a saját paklijából."


def test_people_roles_in_both_languages():
    assert people_roles(EN, "en") == (("actor.rival", "recipient"), ("actor.active", "source"))
    assert people_roles("A soron lévő játékostól egy riválisnak jár 1 érme.", "hu") == (
        ("actor.active", "source"), ("actor.rival", "recipient"))


@pytest.mark.parametrize("tr,tl,src,sl,detail", [
    # from whom to whom: the recipient become the source (Hungarian case ending, English preposition)
    (HU.replace("riválisnak", "riválistól"), "hu", EN, "en", "people rival: recipient -> source"),
    (EN.replace("to a rival", "from a rival"), "en", HU, "hu", "people rival: recipient -> source"),
    # who pays whom: the payer and the payee trade places
    ("Egy rivális 2 érmét fizet a soron lévő játékosnak, majd elvesz 1 lapot a saját paklijából.", "hu", EN, "en",
     "people recipient: rival -> active"),
])
def test_a_changed_role_is_caught(tr, tl, src, sl, detail):
    assert detail in _roles(src, tr, sl, tl)


def test_the_pair_has_no_roles_finding():
    assert _roles(EN, HU, "en", "hu") == set()
    assert _roles(HU, EN, "hu", "en") == set()


def test_bounds_are_compared_by_what_they_count():
    src = "Players with at least 3 cards lose 1, and a player with at least 5 cards loses 2."
    tr = "Akinek legalább 3 lapja van, 1-et veszít; akinek legalább 5 lapja van, 2-t veszít."
    assert bounded_numbers(src, "en") == {"3": {"min"}, "5": {"min"}}
    assert bound_changes(src, "en", tr, "hu") == []
    # one of two "at least" become "exactly": the word is still there, the count changed
    changed = tr.replace("legalább 3", "pontosan 3")
    assert bound_changes(src, "en", changed, "hu") == [("3", "min", "exact")]
    # "3 or more" is "at least 3": quiet
    assert bound_changes(src, "en", tr.replace("legalább 3", "3 vagy több"), "hu") == []


def test_terms_that_trade_clauses_are_caught():
    src = ("Pay ${terms.a} to the ${terms.b}, then move the ${terms.c} (not the ${terms.d}) and keep the "
           "${terms.e}.")
    tr = ("Fizess ${terms.a}-t a ${terms.b}-nak, majd mozgasd a ${terms.c}-t (a ${terms.d}-t nem), és tartsd meg a "
          "${terms.e}-t.")
    assert clause_swap(src, tr) is None
    swapped = tr.replace("${terms.b}", "@").replace("${terms.d}", "${terms.b}").replace("@", "${terms.d}")
    assert clause_swap(src, swapped) == ("terms.b", "terms.d")


def test_both_counts_two():
    src = "The 3 lowest cards of the row (if there are only 2, those 2) form the edge."
    tr = "A sor 3 legalsó lapja (ha csak 2 van, akkor az a 2) alkotja a szélt."
    reworded = "The 3 lowest cards of the row (or both, if there are only 2) form the edge."
    assert not any(c == "numbers" for c, _ in _findings(tr, reworded, "hu", "en"))
    assert not any(c == "numbers" for c, _ in _findings(src, tr, "en", "hu"))


@pytest.mark.parametrize("text,lang", [
    ("Minden játékos elveszít egy pontot (nulla alá nem mehet); a költség sosem csökken.", "hu"),
    ("Each Card can be picked once an Era; a cost cannot drop below zero, and it is never paid twice.", "en"),
])
def test_scope_rewordings_are_made_and_stay_quiet(text, lang):
    other = {"hu": ("Each player loses a point (it cannot go below zero); the cost never drops.", "en"),
             "en": ("Minden Kártya Korszakonként egyszer választható; a költség nem mehet nulla alá, és soha nem "
                    "fizetik kétszer.", "hu")}[lang]
    # (the game's named stretch of rounds, as the measure passes it from Game.rules_words)
    variants = REWORDERS["scope"](text, lang, random.Random(3), spans=("Era",))
    assert len(variants) >= 2
    for new, note in variants:
        # (a finding the unchanged pair has may go: "once an Era" says no "one" in "once per Era")
        assert _findings(other[0], new, other[1], lang) - _findings(other[0], text, other[1], lang) == set(), note


def test_the_generator_plants_role_and_scope_changes():
    rng = random.Random(5)
    roles = MUTATORS["placeholder-roles"](HU, "hu", rng, glossary_words=[])
    assert any("riválistól" in new for new, _ in roles)            # recipient -> source
    assert any(new.startswith("Egy rivális") for new, _ in roles)  # payer and payee traded
    scope = MUTATORS["quantifier"]("Each Card can be picked once an Era.", "en", rng, spans=("Era",))
    assert any("once an Era" not in new and "once" in new for new, _ in scope)



def test_terms_put_in_each_others_place_are_read_from_the_order_of_terms():
    from workbench.rules.roles import order_trade, term_sequence
    src = "The 👤Employee of a 🏢Company takes 🎟️Tokens and ❤️Support from a 🔌Utility."
    # a Hungarian possessor goes first: two neighbours in the other order are grammar, not a trade
    hu = "Egy 🏢Cég 👤Alkalmazottja 🎟️Zsetonokat és ❤️Támogatást vesz el egy 🔌Közműtől."
    assert order_trade(term_sequence(src), term_sequence(hu)) is None
    src = "The 👤Employee takes 🎟️Tokens and ❤️Support from a 🔌Utility."
    swapped = "Az 🔌Alkalmazott 🎟️Zsetonokat és ❤️Támogatást vesz el egy 👤Közműtől."
    assert set(order_trade(term_sequence(src), term_sequence(swapped))) == {"icon:👤", "icon:🔌"}


def test_written_out_glossary_terms_count_in_the_order():
    from workbench.rules.roles import order_trade, term_sequence, written_terms
    ws = written_terms((("Alkalmazott",), ("Cég",), ("Közmű",)))
    wt = written_terms((("Employee",), ("Company",), ("Utility",)))
    src = term_sequence("Az Alkalmazott a Cégnél dolgozik, a Közmű pedig fizet neki.", ws)
    assert order_trade(src, term_sequence("The Employee works at the Company, and the Utility pays them.", wt)) \
        is None
    # (a fourth term, the Company again, keeps a longest common order that leaves the two out)
    src = term_sequence("Az Alkalmazott a Cégnél dolgozik, a Cég és a Közmű pedig fizet neki.", ws)
    assert order_trade(src, term_sequence("The Utility works at the Company, and the Company and the Employee pay "
                                          "them.", wt)) in (("g:0", "g:2"), ("g:2", "g:0"))


def test_terms_that_trade_grammatical_roles():
    from workbench.rules.roles import grammatical_roles, role_trades
    bases = frozenset({"játékos", "zseton"})
    en = "Then the 👤Player takes 🎟️Tokens from the 🌀Pool."
    assert grammatical_roles(en, "en") == (("icon:👤", "subject"), ("icon:🎟", "object"), ("icon:🌀", "source"))
    hu = "Ezután a 👤Játékos 🎟️Zsetonokat vesz el a 🌀Készletből."
    assert role_trades(en, "en", hu, "hu", frozenset(), bases) == []
    traded = "Ezután a 👤Játékos 🌀Készletet vesz el a 🎟️Zsetonokból."
    assert role_trades(en, "en", traded, "hu", frozenset(), bases) == [("icon:🎟", "icon:🌀", "object", "source")]


def test_a_span_of_time_counted_by_in_the_translation_alone_is_caught():
    src = "Each required Layer has to be present once, unless the card shows it more than once."
    ok = "Minden megkövetelt Rétegnek egyszer kell jelen lennie, hacsak a kártya nem mutatja többször."
    assert not _roles(src, ok, "en", "hu")
    bad = "Minden megkövetelt Rétegnek körönként egyszer kell jelen lennie, hacsak a kártya nem mutatja többször."
    assert any(d.startswith("each ") and d.endswith(" added") for d in _roles(src, bad, "en", "hu"))


def test_two_items_of_one_list_are_not_planted_as_a_trade():
    rng = random.Random(3)
    text = "The actions are: Fundraise, Syndicate, Commercialize and Import; Hire pays the Agent."
    notes = [n for _, n in MUTATORS["placeholder-roles"](text, "en", rng,
                                                         glossary_words=["Fundraise", "Syndicate", "Import", "Hire",
                                                                         "Agent"])]
    assert not any("'Fundraise'" in n and "'Import'" in n for n in notes)
    assert any("'Hire'" in n and "'Agent'" in n for n in notes)


def test_list_items_with_their_own_articles_are_not_planted_as_a_trade():
    rng = random.Random(5)
    notes = [n for _, n in MUTATORS["placeholder-roles"]("When hiring (as an Employee, a Partner or a Patent), pay "
                                                         "the Agent.", "en", rng,
                                                         glossary_words=["Employee", "Partner", "Patent", "Agent"])]
    assert not any("'Employee'" in n and "'Partner'" in n for n in notes)
    assert any("'Employee'" in n and "'Agent'" in n for n in notes)
    notes = [n for _, n in MUTATORS["placeholder-roles"]("Minden Ügynök és minden Gyár egy jelenlét.", "hu", rng,
                                                         glossary_words=["Ügynök", "Gyár"])]
    assert not any("'Ügynök'" in n and "'Gyár'" in n for n in notes)


def test_a_table_is_aligned_row_by_row():
    from workbench.rules.meaning import aligned_sentences
    src = "| 🌟Meaning | Outcome |\n| --- | --- |\n| 0 | Collapse. Nothing holds. |\n| 1 | Critical. It holds; barely. |"
    # the last row says in one sentence what its source says in two: the other rows still pair
    tr = "| 🌟Értelem | Kimenet |\n| --- | --- |\n| 0 | Összeomlás. Semmi sem tart. |\n| 1 | Kritikus, épp hogy tart. |"
    units = aligned_sentences(src, "en", tr, "hu")
    pairs = {(x.strip("| "), y.strip("| ")) for x, y in units}
    assert ("0 | Collapse.", "0 | Összeomlás.") in pairs and ("Nothing holds.", "Semmi sem tart.") in pairs
    assert ("Critical. It holds; barely.", "Kritikus, épp hogy tart.") in pairs


def test_a_term_turned_from_source_to_goal_is_caught():
    from workbench.rules.roles import role_flips
    en = "Take 2 🎟️Tokens from the 🌀Pool."
    assert role_flips(en, "en", "Vegyél el 2 🎟️Zsetont a 🌀Készletből.", "hu") == []
    assert role_flips(en, "en", "Vegyél el 2 🎟️Zsetont a 🌀Készletbe.", "hu") == [("icon:🌀", "source", "goal")]
    assert role_flips(en, "en", "Vegyél el 2 🎟️Zsetont a 🌀Készletnek.", "hu") == [("icon:🌀", "source", "dative")]


def test_half_a_trade_of_roles_is_caught_and_a_list_is_not():
    from workbench.rules.roles import role_trades
    hu = "Amíg az 🌟Értelem 3 vagy kevesebb, az 💬Érintkezés nem ad 🛡️Életerőt."
    bases = frozenset({"értelem", "érintkezés", "életerő"})
    ok = "While 🌟Meaning is 3 or lower, 💬Touchpoint gives no 🛡️Vitals."
    assert role_trades(hu, "hu", ok, "en", bases) == []
    assert role_trades(hu, "hu", "While 🌟Meaning is 3 or lower, 🛡️Vitals gives no 💬Touchpoint.", "en", bases)
    # a list item after a comma reads as a subject in English: no trade with its neighbour
    en = "Results cost 🌟Meaning, but they can also touch 🛡️Vitals, 🎟️Tokens or other parts."
    hu = "Az eredmény 🌟Értelembe kerül, de érintheti az 🛡️Életerőt, a 🎟️Zsetonokat vagy más részeket."
    assert role_trades(en, "en", hu, "hu", frozenset(), frozenset({"életerőt"})) == []


def test_a_trade_in_a_short_sentence_is_found_and_a_moved_clause_is_not():
    from workbench.rules.roles import order_trade
    # (Heat, Agent, Heat, Market, Splay): one longest common order keeps the first Heat's
    # partner, so every pair is tried in a sentence of a few terms
    assert set(order_trade(tuple("HAHMS"), tuple("HASMH"))) == {"H", "S"}
    # a "when" clause moved behind the main clause moves a block of terms: no trade
    assert order_trade(tuple("TLPL"), tuple("PLTL")) is None


def test_everyone_become_someone_is_caught():
    src = "Everyone is dealt 2 ideas."
    assert not _findings(src, "Mindenki 2 ötletet kap.", "en", "hu")
    assert _findings(src, "Valaki 2 ötletet kap.", "en", "hu")


def test_whose_piece_is_caught():
    src = "Another player's Employee may work for you if it stands at your own Company."
    ok = "Egy másik játékos Alkalmazottja is dolgozhat neked, ha a saját Cégednél áll."
    assert not _findings(src, ok, "en", "hu")
    assert _findings(src, "A saját Alkalmazottja is dolgozhat neked, ha a saját Cégednél áll.", "en", "hu")
    hu = "A lapot a saját táblája alá csúsztatja."
    assert not _findings(hu, "The player slides the card under their own board.", "hu", "en")
    assert _findings(hu, "The player slides the card under another player's board.", "hu", "en")


def test_terms_put_in_each_others_sentence_are_caught():
    from workbench.rules.roles import sentence_trade
    hu = "Az 🌟Értelem 0-tól 12-ig tart. A 📅Események lefelé mozgatják. A ❤️Támogatás felfelé viszi."
    en = "🌟Meaning runs from 0 to 12. 📅Events move it down. ❤️Support moves it up."
    assert sentence_trade(hu, en) is None
    traded = "📅Events runs from 0 to 12. 🌟Meaning move it down. ❤️Support moves it up."
    assert sentence_trade(hu, traded) == ("icon:📅", "icon:🌟", 1, 2)
    # one term said as a pronoun in one sentence changes one sentence's terms, not two
    assert sentence_trade(hu, "🌟Meaning runs from 0 to 12. Events move it down. ❤️Support moves it up.") is None
    assert any(d.startswith("sentences") for c, d in _findings(hu, traded, "hu", "en") if c == "roles")


def test_a_paragraph_kept_whole_is_cut_where_its_terms_anchor_the_sentences():
    from workbench.rules.roles import term_aligned
    a = "Ha 🌟Értelem 0, mindenki veszít. Ha kész, vége; ekkor minden 👤Játékos összeadja 🛡️Életerejét."
    b = "If 🌟Meaning is 0, everyone loses. If it is done, it ends; then each 👤Player adds 🛡️Vitals."
    assert len(term_aligned([(a, b)])) == 2
    # the sentences name other terms: the pair stays whole
    assert term_aligned([(a, b.replace("🌟Meaning", "Meaning"))]) == [(a, b.replace("🌟Meaning", "Meaning"))]


def test_a_verb_in_ing_takes_an_object():
    from workbench.rules.roles import grammatical_roles
    assert grammatical_roles("pay for loading 🧬Patterns and during 🌀Stability", "en") == (
        ("icon:🧬", "object"), ("icon:🌀", ""))
