"""Number checks: the same numbers (digits, number words, ordinals, "double"), each
with the same unit, icon or term, in the same order."""

from __future__ import annotations

from collections import Counter

from .base import ClauseCheck, Pair
from .tokens import Tok, has_weak_one, numbers, tokenize, value_counter, with_unit_marks


def _fmt(v) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def clause_tokens(p: Pair) -> tuple[list[Tok], list[Tok]]:
    """Source and translation tokens of a pair (cached on it)."""
    cached = getattr(p, "_tokens", None)
    if cached is None:
        s_text, s_keys = with_unit_marks(p.src, p.src_ctx)
        t_text, t_keys = with_unit_marks(p.tr, p.tr_ctx)
        cached = (tokenize(s_text, p.src_lang, s_keys, p.glossary, "source"),
                  tokenize(t_text, p.tr_lang, t_keys, p.glossary, "target"))
        p._tokens = cached
    return cached


def number_difference(p: Pair) -> tuple[list, list]:
    """(missing, extra) values, with "6-6" standing for one 6 or two, and a weak one
    ("egy", "first", "a") standing for a digit 1."""
    s, t = clause_tokens(p)
    # "first"/"első" pairs with its number (number-order) but is no count: it may be "kezd"
    a, da = value_counter([x for x in numbers(s) if not (x.ordinal and x.value == 1)])
    b, db = value_counter([x for x in numbers(t) if not (x.ordinal and x.value == 1)])
    missing, extra = a - b, b - a
    for v in list(extra):
        extra[v] = max(0, extra[v] - da[v])
    for v in list(missing):
        missing[v] = max(0, missing[v] - db[v])
    missing, extra = +missing, +extra
    if missing.get(1) and has_weak_one(t, p.tr_lang):
        del missing[1]
    if extra.get(1) and has_weak_one(s, p.src_lang):
        del extra[1]
    # "both" counts two: "(or both, if there are only 2)" says the source's "those 2"
    for counter, text, lang in ((missing, p.tr, p.tr_lang), (extra, p.src, p.src_lang)):
        if counter.get(2):
            counter[2] = max(0, counter[2] - _both_words(text, lang))
    missing, extra = +missing, +extra
    return sorted(missing.elements()), sorted(extra.elements())


_BOTH = {"en": ("both",), "hu": ("mindkettő", "mindkettőt", "mindkettőre", "mindkettőnek", "mindketten")}


def _both_words(text: str, lang: str) -> int:
    """How many words of ``text`` say "both of them" (a count of two)."""
    import re
    words = _BOTH.get(re.split(r"[-_]", lang)[0].lower(), ())
    return sum(w.lower() in words for w in re.findall(r"\w+", text))


class NumbersCheck(ClauseCheck):
    """The same numbers on both sides: digits, number words, ordinals ("third" = 3) and multipliers ("double" = 2)."""

    name = "numbers"

    def run(self, p: Pair):
        missing, extra = number_difference(p)
        if not missing and not extra:
            return []
        said = ", ".join(map(_fmt, missing)) or "nothing"
        instead = ", ".join(map(_fmt, extra)) or "nothing"
        parts = ([f"missing {', '.join(map(_fmt, missing))}"] if missing else []) + \
                ([f"extra {', '.join(map(_fmt, extra))}"] if extra else [])
        return [("; ".join(parts), f"the source says {said} where the translation says {instead}; "
                                   "make the numbers agree (digits, number words or ordinals)")]


def _unit_name(unit: str) -> str:
    if unit.startswith("icon:"):
        return unit[5:]
    if unit.startswith("ph:"):
        return "${" + unit[3:] + "}"
    return unit.split(":", 1)[-1]


class NumberUnitsCheck(ClauseCheck):
    """Each number belongs to the same unit, icon or term in both languages ("3 ☀️, 2 🔍" is not "3 🔍, 2 ☀️")."""

    name = "number-units"

    def run(self, p: Pair):
        s, t = clause_tokens(p)
        su = Counter((_v(x), x.unit) for x in numbers(s) if x.unit)
        tu = Counter((_v(x), x.unit) for x in numbers(t) if x.unit)
        s_units = {u.unit for u in s if u.unit and u.kind != "num"}
        t_units = {u.unit for u in t if u.unit and u.kind != "num"}
        s_vals = {_v(x) for x in numbers(s)}
        t_vals = {_v(x) for x in numbers(t)}
        out = []
        lost = [(v, u) for (v, u) in (su - tu) if u in t_units and v in t_vals]
        gained = [(v, u) for (v, u) in (tu - su) if u in s_units and v in s_vals]
        if lost and gained:
            a = ", ".join(f"{_fmt(v)} {_unit_name(u)}" for v, u in sorted(lost, key=str))
            b = ", ".join(f"{_fmt(v)} {_unit_name(u)}" for v, u in sorted(gained, key=str))
            out.append((f"{a} -> {b}", f"the source has {a} where the translation has {b}: a number moved to "
                                       "another unit; put each number with its own unit"))
        return out


def _v(t: Tok):
    return int(t.value) if float(t.value).is_integer() else t.value


_LIST_JOIN = {"and", "or", "és", "vagy", "illetve", "to", "then", "majd", "aztán", "az", "a", "the"}


def number_lists(toks: list[Tok]) -> list[list]:
    """Runs of numbers written as a list ("2, 3, 4 and 5", "2, 3, 4, illetve 5"):
    numbers joined only by commas, dashes and list words."""
    runs: list[list] = []
    cur: list = []
    gap_ok = True
    for t in toks:
        if t.kind == "num" and not t.ordinal:
            if cur and not gap_ok:
                runs.append(cur)
                cur = []
            cur.append(_v(t))
            gap_ok = True
        elif t.kind == "bar" and t.text in ",–-":
            continue
        elif t.kind == "word" and t.text.lower() in _LIST_JOIN:
            continue
        else:
            gap_ok = False
    if cur:
        runs.append(cur)
    return [r for r in runs if len(r) >= 2]


def ordinal_pairs(toks: list[Tok]) -> Counter:
    """(ordinal, number) for each ordinal followed by a number in the same sentence:
    "the 1st gets 5" -> (1, 5)."""
    out: Counter = Counter()
    for i, t in enumerate(toks):
        if t.kind != "num" or not t.ordinal:
            continue
        rest = toks[i + 1:]
        if rest and rest[0].kind == "bar" and rest[0].text == "." and t.text[:1].isdigit():
            rest = rest[1:]   # the dot of a Hungarian ordinal ("az 1. hozzájáruló")
        for u in rest:
            if u.kind == "bar" and u.text in ".;:":
                break
            if u.kind == "num":
                if not u.ordinal:
                    out[(_v(t), _v(u))] += 1
                break
    return out


class NumberOrderCheck(ClauseCheck):
    """Numbers keep their order in a list and stay with their ordinal ("the 1st gets 5, the 2nd gets 3")."""

    name = "number-order"

    def run(self, p: Pair):
        s, t = clause_tokens(p)
        out = []
        la, lb = number_lists(s), number_lists(t)
        for run in la:
            same = [r for r in lb if Counter(r) == Counter(run)]
            if same and run not in lb:
                out.append((f"{' '.join(map(_fmt, run))} -> {' '.join(map(_fmt, same[0]))}",
                            f"the source lists {', '.join(map(_fmt, run))} but the translation "
                            f"{', '.join(map(_fmt, same[0]))}; keep the order"))
        pa, pb = ordinal_pairs(s), ordinal_pairs(t)
        if pa and pb and pa != pb and sum(pa.values()) == sum(pb.values()):
            a = ", ".join(f"#{_fmt(o)}: {_fmt(n)}" for o, n in sorted(pa.elements()))
            b = ", ".join(f"#{_fmt(o)}: {_fmt(n)}" for o, n in sorted(pb.elements()))
            out.append((f"{a} -> {b}", f"the source gives {a} but the translation {b}; check no two numbers "
                                       "were swapped"))
        return out
