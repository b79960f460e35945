"""Print-and-play output: card sheets, rulebook PDFs and a Tabletop Simulator export.

Card data is read from the card files (``workbench.core.data``), put into the chosen
language with the rules' terms and the print strings, and laid out by Typst
(through its Python binding) from one editable template per card kind in
``cards/<game>/print/``. See docs/print.md.
"""
