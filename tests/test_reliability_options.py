"""Command-line values parsed without YAML: whatever is typed after ``--option
key=`` or ``--lang``, the answer is a plain value or one clear refusal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.commands import validate
from workbench.core.errors import WorkbenchError


@settings(max_examples=200, derandomize=True)
@given(text=st.text(max_size=40))
def test_option_values_are_plain_or_refused(text):
    try:
        value = validate.option_value(text, "k")
    except WorkbenchError:
        return
    plain = (type(None), bool, int, float, str)
    assert isinstance(value, plain) or (isinstance(value, list) and all(isinstance(v, plain) for v in value))


@pytest.mark.parametrize("text", ["!!python/name:os.getcwd", "&a [1]", "*a", "[[1]]", "{a: 1}", "",
                                  "!!binary aGk=", "x" * 201])
def test_yaml_syntax_in_an_option_is_refused(text):
    with pytest.raises(WorkbenchError, match="option k"):
        validate.option_value(text, "k")


@pytest.mark.parametrize("text,value", [("40", 40), ("-3", -3), ("0.5", 0.5), ("true", True), ("no", False),
                                        ("null", None), ("standard", "standard"), ("a,b", ["a", "b"]),
                                        ("[Mirevanta, Orisonix]", ["Mirevanta", "Orisonix"]), ("[]", [])])
def test_plain_option_values_read_as_meant(text, value):
    assert validate.option_value(text, "k") == value


@settings(max_examples=200, derandomize=True)
@given(text=st.text(max_size=12))
def test_a_language_code_never_names_a_path(text):
    try:
        code = validate.lang(text)
    except WorkbenchError:
        return
    assert "/" not in code and "." not in code and "\\" not in code and 2 <= len(code) <= 6
