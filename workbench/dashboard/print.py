"""The Print page: one card of every kind, rendered from the print templates in the
chosen game and language, and download buttons for the card sheets, the rulebook and
the side-by-side rulebook (PDF).

:class:`PrintModel` holds the choices and renders (cached by game, language and the card
pool's version, so an edit on disk shows at the next refresh); :class:`PrintPage` is the
Panel view. The rendering is :mod:`workbench.print` (Typst), the same as ``workbench print``.
"""

from __future__ import annotations

import io

import panel as pn
import param

def print_games() -> list[str]:
    """The games that declare printed cards (``Game.print_cards``)."""
    from workbench.core.registry import providing
    return providing("print")


def languages(game_id: str) -> list[str]:
    """Languages with both terms and print strings for ``game_id``."""
    from workbench.core.data import cards_dir
    folder = cards_dir(game_id)
    terms = {p.stem for p in (folder / "terms").glob("*.yaml")}
    strings = {p.name.split(".")[1] for p in (folder / "print").glob("strings.*.yaml")}
    return sorted(terms & strings) or ["en"]


class PrintModel(param.Parameterized):
    game = param.Selector(default=None, objects=[], doc="a game with printed cards")
    lang = param.String(default="en")
    paper = param.Selector(default="a4", objects=["a4", "letter"])

    def __init__(self, **params):
        games = print_games()
        game = params.pop("game", None) or (games[0] if games else None)
        super().__init__(**params)
        self.param.game.objects = games
        self.game = game
        self._cache: dict[tuple, object] = {}

    def deck(self):
        from workbench.print.pool import print_digest
        from workbench.print.sheets import build_deck
        key = ("deck", self.game, self.lang, self.paper, print_digest(self.game))
        if key not in self._cache:
            self._cache[key] = build_deck(self.game, self.lang, paper=self.paper)
        return self._cache[key]

    def previews(self, ppi: float = 110.0) -> list[tuple[str, bytes]]:
        """(kind title, PNG) of the first card of every kind, face up."""
        from workbench.print.sheets import typeset
        deck = self.deck()
        key = ("previews", self.game, self.lang, self.paper, deck.digest, ppi)
        if key not in self._cache:
            pages = [{"kind": k.key, "back": False, "cards": k.cards[:1], "cols": 1, "rows": 1,
                      "grid": k.grid.to_dict(), "fill": "#ffffff"} for k in deck.kinds if k.cards]
            pngs = typeset(deck, fmt="png", ppi=ppi, page_list=pages, entry="tts")
            pngs = pngs if isinstance(pngs, list) else [pngs]
            titles = [k.title for k in deck.kinds if k.cards]
            self._cache[key] = list(zip(titles, pngs))
        return self._cache[key]

    def sheets_pdf(self) -> bytes:
        from workbench.print.sheets import typeset
        return typeset(self.deck())

    def rules_pdf(self, other: str | None = None) -> bytes:
        from workbench.print.rulebook import compile_book, side_by_side, single
        book = side_by_side(self.game, self.lang, other, paper=self.paper) if other else \
            single(self.game, self.lang, paper=self.paper)
        return compile_book(book)

    def other_language(self) -> str | None:
        others = [x for x in languages(self.game) if x != self.lang]
        return others[0] if others else None


class PrintPage(pn.viewable.Viewer):
    def __init__(self, bench=None, model: PrintModel | None = None, **params):
        super().__init__(**params)
        self.model = m = model or PrintModel()
        self._game = pn.widgets.Select(name="Game", options=list(m.param.game.objects), value=m.game, width=200)
        self._lang = pn.widgets.RadioButtonGroup(name="Language", options=languages(m.game), value=m.lang)
        self._paper = pn.widgets.RadioButtonGroup(name="Paper", options=["a4", "letter"], value=m.paper)
        self._refresh = pn.widgets.Button(name="Refresh preview", width=150)
        self._status = pn.pane.Markdown("", css_classes=["print-status"])
        self._cards = pn.FlexBox()
        self._downloads = pn.Row(
            pn.widgets.FileDownload(callback=self._sheets, filename="deck.pdf", label="Card sheets (PDF)",
                                    button_type="primary", width=200),
            pn.widgets.FileDownload(callback=self._rules, filename="rules.pdf", label="Rulebook (PDF)", width=180),
            pn.widgets.FileDownload(callback=self._side, filename="rules-side-by-side.pdf",
                                    label="Side by side (PDF)", width=200))
        self._game.param.watch(self._on_game, "value")
        self._lang.param.watch(lambda e: self._update(), "value")
        self._paper.param.watch(lambda e: self._update(), "value")
        self._refresh.on_click(lambda e: self._update())
        self._update()

    async def _on_game(self, event) -> None:
        import asyncio

        from .names import game_name
        # typesetting a card of every kind takes seconds: say so first (sent at the
        # await), and take the old game's cards off the page meanwhile
        self._cards.objects = []
        self._status.object = f"Typesetting one card of every kind of {game_name(event.new)}…"
        await asyncio.sleep(0.05)
        langs = languages(event.new)
        self._lang.options = langs
        if self._lang.value not in langs:
            self._lang.value = langs[0]
        self._update()

    def _update(self) -> None:
        from workbench.core.errors import WorkbenchError
        m = self.model
        m.param.update(game=self._game.value, lang=self._lang.value, paper=self._paper.value)
        for d, name in zip(self._downloads, ("deck", "rules", "rules-side-by-side")):
            d.filename = f"{m.game}-{m.lang}-{name}.pdf"
        try:
            previews = m.previews()
        except WorkbenchError as exc:
            self._status.object = f"Cannot render: {exc}"
            self._cards.objects = []
            return
        deck = m.deck()
        self._cards.objects = [pn.Column(pn.pane.Markdown(f"**{title}**"), pn.pane.PNG(png, width=240))
                               for title, png in previews]
        counts = ", ".join(f"{k.title} {len(k.cards)}" for k in deck.kinds)
        note = "" if deck.words.emoji else " Icons print as text: the emoji font is not installed."
        self._status.object = (f"{deck.game_name} in {m.lang}: {counts}; {len(deck.pages)} pages on {m.paper}; "
                               f"card pool {deck.version}. ‡ marks a draft value.{note}")

    def _sheets(self):
        return io.BytesIO(self.model.sheets_pdf())

    def _rules(self):
        return io.BytesIO(self.model.rules_pdf())

    def _side(self):
        return io.BytesIO(self.model.rules_pdf(self.model.other_language()))

    def __panel__(self):
        return pn.Column(
            pn.pane.Markdown("### Print\nOne card of every kind as printed from `cards/<game>/print/`; "
                             "the downloads are the same PDFs as `workbench print` and `workbench rules pdf`."),
            pn.Row(self._game, self._lang, self._paper, self._refresh),
            self._status, self._cards, self._downloads)
