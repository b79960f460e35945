"""The rulebook model: clauses, terms, templates, translations, translation
review, and the registry of executable checks that prove each clause."""
