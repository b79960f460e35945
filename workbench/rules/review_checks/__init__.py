"""The translation review's checks, one class each (see :mod:`.base`).

``CLAUSE_CHECKS`` run on every translated clause and heading, in this order;
``CATALOGUE_CHECKS`` on the catalogue and the terms files. The mechanical checks
(placeholders, icons, glossary, punctuation, length, spelling) live in
:mod:`workbench.rules.review`; these add the meaning-level ones."""

from __future__ import annotations

from .articles import ArticleCheck
from .base import CatalogueCheck, ClauseCheck, Pair
from .catalogue import DuplicateEntryCheck, OrphanEntryCheck, TermsSpellingCheck
from .meaning import (ActorCheck, ConditionCheck, IconTermCheck, NumberNounsCheck, QuantifierCheck, TermRolesCheck,
                      TimeCheck)
from .negation import NegationCheck
from .roles import ClauseRolesCheck
from .numbers_checks import NumberOrderCheck, NumbersCheck, NumberUnitsCheck
from .sentences import SentenceCountCheck
from .structure import MarkdownCheck, TableCellsCheck
from .terms import AntonymCheck, TermSwapCheck
from .typography import BracketsCheck, DoubledWordCheck, StartCapitalCheck, WhitespaceCheck
from .untranslated import LeftInSourceLanguageCheck, SameAsSourceCheck

CLAUSE_CHECKS: tuple[type[ClauseCheck], ...] = (
    NumbersCheck, NumberUnitsCheck, NumberOrderCheck, TableCellsCheck, MarkdownCheck, NegationCheck,
    SentenceCountCheck, SameAsSourceCheck, LeftInSourceLanguageCheck, TermSwapCheck, AntonymCheck,
    DoubledWordCheck, BracketsCheck, WhitespaceCheck, StartCapitalCheck, ArticleCheck,
    ActorCheck, TimeCheck, ConditionCheck, QuantifierCheck, TermRolesCheck, IconTermCheck,
    NumberNounsCheck, ClauseRolesCheck,
)
CATALOGUE_CHECKS: tuple[type[CatalogueCheck], ...] = (DuplicateEntryCheck, OrphanEntryCheck, TermsSpellingCheck)

__all__ = ["CLAUSE_CHECKS", "CATALOGUE_CHECKS", "ClauseCheck", "CatalogueCheck", "Pair"]
