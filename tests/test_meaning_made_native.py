"""The compiled build of the rules (``workbench.native``, ``workbench.build_native``,
made by the ordinary install: ``setup.py``): a stale or foreign build is never
loaded, a failed compile says why, the hand-written field lists the compiled
Meaning Made state relies on stay complete, CI runs the compiled build, and the
other build plays byte-identical games."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.core.game import State
from workbench.core.registry import get_game
from workbench import native
from workbench.games.meaning_made import state as state_module
from workbench.games.meaning_made.state import PLAYER_FIELDS, STATE_FIELDS, MMState, Player

GAME = get_game("meaning-made")
ROOT = Path(__file__).resolve().parent.parent


def _fake_build(folder: Path) -> Path:
    """A manifest that matches the sources on disk, with empty stand-in files."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = {native.source_key(p): native.digest(p) for p in native.sources()}
    modules = {name: f"{name}.so" for name in native.COMPILED_MODULES}
    for file in modules.values():
        (folder / file).write_bytes(b"")
    (folder / native.MANIFEST).write_text(json.dumps({"abi": native.abi(), "modules": modules,
                                                      "sources": sources}), encoding="utf-8")
    return folder


def test_a_current_build_is_accepted(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_PURE", raising=False)
    files, why = native.check(_fake_build(tmp_path))
    assert why == "compiled (mypyc)"
    assert set(files) == set(native.COMPILED_MODULES)


def test_an_edited_source_means_plain_python(tmp_path, monkeypatch):
    """The manifest records each source's hash; one differing hash (here the
    record of state.py, as if state.py had been edited after the build) refuses
    the whole build."""
    monkeypatch.delenv("WORKBENCH_PURE", raising=False)
    folder = _fake_build(tmp_path)
    data = json.loads((folder / native.MANIFEST).read_text())
    key = native.source_key(native.HERE / "games" / "meaning_made" / "state.py")
    data["sources"][key] = hashlib.sha256(b"an older state.py").hexdigest()
    (folder / native.MANIFEST).write_text(json.dumps(data))
    files, why = native.check(folder)
    assert files is None and "state.py changed since the build" in why


def test_a_new_or_removed_source_means_plain_python(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_PURE", raising=False)
    folder = _fake_build(tmp_path)
    data = json.loads((folder / native.MANIFEST).read_text())
    data["sources"].pop(native.source_key(native.HERE / "games" / "meaning_made" / "flow.py"))
    (folder / native.MANIFEST).write_text(json.dumps(data))
    files, why = native.check(folder)
    assert files is None and "added or removed" in why


def test_another_interpreter_missing_files_or_a_bad_manifest_mean_plain_python(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_PURE", raising=False)
    folder = _fake_build(tmp_path / "abi")
    data = json.loads((folder / native.MANIFEST).read_text())
    data["abi"] = "cpython-27 .so"
    (folder / native.MANIFEST).write_text(json.dumps(data))
    assert "the build is for cpython-27" in native.check(folder)[1]

    folder = _fake_build(tmp_path / "missing")
    (folder / "workbench.games.meaning_made.state.so").unlink()
    assert "compiled file missing" in native.check(folder)[1]

    folder = _fake_build(tmp_path / "bad")
    (folder / native.MANIFEST).write_text("{not json")
    assert "unreadable" in native.check(folder)[1]

    assert "no compiled build" in native.check(tmp_path / "none")[1]


def test_workbench_pure_switches_the_build_off(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_PURE", "1")
    files, why = native.check(_fake_build(tmp_path))
    assert files is None and "WORKBENCH_PURE" in why


def test_the_state_is_a_state_and_its_field_lists_are_complete():
    """The compiled state has no ``vars()``: STATE_FIELDS stands in for it, and
    the compiled build's clone (``state._clone_by_field``) copies the fields one by
    one. Both lists are written by hand, so check them against the interpreted classes."""
    state = GAME.new_initial_state(GAME.config(4, seed=3))
    assert isinstance(state, State)
    if state_module._COMPILED:
        pytest.skip("vars() exists only on the interpreted state")
    assert sorted(vars(state)) == sorted(STATE_FIELDS)
    assert tuple(Player.__slots__) == PLAYER_FIELDS
    # every field is written by the compiled build's clone
    tree = ast.parse(inspect.getsource(state_module._clone_by_field))
    assigned = {t.attr for node in ast.walk(tree) if isinstance(node, ast.Assign)
                for target in node.targets
                for t in (target.elts if isinstance(target, ast.Tuple) else [target])
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "s"}
    constructor = {"config", "rules", "cards", "rng"}  # passed to MMState(...) there
    assert set(STATE_FIELDS) - constructor <= assigned, set(STATE_FIELDS) - constructor - assigned


def test_the_compiled_builds_clone_is_the_clone():
    """``state._clone_by_field`` (the compiled build's clone, which the mutation score
    leaves out because the interpreted build never runs it) gives the fields ``clone()``
    gives, sharing and copying the same ones, and the two copies play on alike."""
    from workbench.core.rng import Rng
    from workbench.games.meaning_made.state import fields
    state = GAME.new_initial_state(GAME.config(3, seed=5))
    rng = Rng(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    by_field, clone = state_module._clone_by_field(state), state.clone()
    old, new, ref = fields(state), fields(by_field), fields(clone)
    for name, value in old.items():
        if name == "rng":
            assert by_field.rng is not state.rng and by_field.rng.state == state.rng.state
            continue
        if name == "players":
            assert [vars_of(p) for p in new[name]] == [vars_of(p) for p in value]
            assert not any(a is b for a, b in zip(new[name], value))
            continue
        assert new[name] == value, name
        assert (new[name] is value) == (ref[name] is value), name
    for _ in range(30):
        if by_field.is_terminal():
            break
        action = rng.choice(by_field.legal_actions())
        by_field.apply_action(action)
        clone.apply_action(action)
    assert [vars_of(p) for p in by_field.players] == [vars_of(p) for p in clone.players]
    assert by_field.meaning == clone.meaning and by_field.round == clone.round


def vars_of(player: Player) -> tuple:
    return tuple(getattr(player, f) for f in PLAYER_FIELDS)


def test_states_pickle_and_deepcopy_field_by_field():
    """A compiled state or Rules cannot be made empty, so both pickle through
    ``__reduce__``; the copy equals the original in every field."""
    import copy
    import pickle
    from workbench.games.meaning_made.state import fields
    state = GAME.new_initial_state(GAME.config(3, seed=8, variants=("long-game",)))
    for _ in range(40):
        state.apply_action(state.legal_actions()[-1])

    def plain(s) -> str:
        out = fields(s)
        out["config"] = (s.config.players, s.config.variants, s.config.options)
        out["rules"] = (s.rules.box_tuple, s.rules.options)
        out["cards"] = sorted(s.cards.initiatives)
        out["rng"] = s.rng.state
        out["players"] = [tuple(getattr(p, f) for f in PLAYER_FIELDS) for p in s.players]
        out["progress"] = {k: (v.filled, v.markers) for k, v in s.progress.items()}
        return repr(out)

    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert plain(twin) == plain(state)
        assert twin.legal_actions() == state.legal_actions()


def test_the_build_refuses_to_write_into_an_installed_package(tmp_path):
    """Nothing is ever written into an installed package: without a
    pyproject.toml beside it, the package is not a checkout and the build says so."""
    tree = tmp_path / "site-packages"
    shutil.copytree(ROOT / "workbench", tree / "workbench",
                    ignore=shutil.ignore_patterns("__pycache__", "_native"))
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = subprocess.run([sys.executable, "-m", "workbench.build_native"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 1 and "source checkout" in run.stderr and "Traceback" not in run.stderr
    assert not (tree / "workbench" / "_native").exists()


def test_without_mypy_the_build_says_so_and_changes_nothing(tmp_path):
    tree = tmp_path / "checkout"
    shutil.copytree(ROOT / "workbench", tree / "workbench",
                    ignore=shutil.ignore_patterns("__pycache__", "_native"))
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    code = ("import sys; sys.modules['mypyc'] = None; sys.modules['mypyc.build'] = None; "
            "from workbench.build_native import main; sys.exit(main(['build']))")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 1 and "needs mypy" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not (tree / "workbench" / "_native").exists()


def test_an_install_that_could_not_compile_says_why(tmp_path):
    """setup.py leaves NOT_BUILT with the reason where the compile failed:
    plain Python runs and the status gives that reason in one line."""
    folder = tmp_path / "_native"
    folder.mkdir()
    (folder / native.NOT_BUILT).write_text("the C build failed: CompileError: no cc\nmore detail\n")
    files, why = native.check(folder)
    assert files is None
    assert why == "pure Python: the install did not compile the rules (the C build failed: CompileError: no cc)"


def test_every_declared_module_exists_and_is_a_source_of_the_build():
    assert native.COMPILED_MODULES, "no game declares compiled modules"
    keys = {native.source_key(p) for p in native.sources()}
    for name in native.COMPILED_MODULES:
        assert importlib.util.find_spec(name) is not None, name
        assert name.replace(".", "/") + ".py" in keys


def test_ci_runs_the_compiled_build():
    """The README's install compiles the rules where a compiler is present (CI
    has one): there the whole suite runs on the compiled build, never skipped."""
    if os.environ.get("WORKBENCH_PURE"):
        pytest.skip("WORKBENCH_PURE is set: plain Python by request")
    if native.status != "compiled (mypyc)":
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the compiled build: {native.status}")
        pytest.skip(native.status)
    for name in native.COMPILED_MODULES:
        assert type(sys.modules.get(name) or importlib.import_module(name)).__name__ == "module"
    assert state_module._COMPILED


@pytest.mark.slow
def test_the_other_build_plays_the_same_games():
    """The differential test (fixed seeds, byte-identical play JSON on a covering
    sample of the cases, every simulate table) on the build this process does not run: plain Python when the suite
    runs compiled, which is what CI does, and the compiled build otherwise."""
    env = dict(os.environ)
    if native.status == "compiled (mypyc)":
        env["WORKBENCH_PURE"] = "1"
        expected = "pure Python: WORKBENCH_PURE is set"
    else:
        env.pop("WORKBENCH_PURE", None)
        if native.check()[0] is None:
            pytest.skip(native.check()[1])
        expected = "compiled (mypyc)"
    probe = subprocess.run([sys.executable, "-c", "from workbench import native; print(native.status)"],
                           cwd=ROOT, env=env, capture_output=True, text=True)
    assert probe.stdout.strip() == expected, probe.stdout + probe.stderr
    # a covering sample of the play cases (every player count, bot kind, variant and
    # option value): the build the suite runs plays them all in test_differential
    env["WORKBENCH_DIFFERENTIAL_SAMPLE"] = "cover"
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
                           "-p", "no:xdist", "-p", "no:nbval",
                           str(ROOT / "tests" / "test_differential.py")],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert test.returncode == 0, test.stdout[-3000:]
