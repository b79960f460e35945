"""The workspace: one object (card folder, journal, output folder) the command
line builds and hands down; ``$WORKBENCH_CARDS`` is read in one module only."""

from __future__ import annotations

import ast
from pathlib import Path

from workbench.core import workspace as ws
from workbench.core.data import cards_dir, cards_root
from workbench.rooms.journal import journal_path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"


def _constants(path: Path, names: set[str]) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in names]


def test_the_environment_is_read_in_one_module():
    """No module but the workspace's names the variables (a message telling the
    designer about them is text, and says so by being more than the name)."""
    names = {ws.CARDS_ENV, ws.JOURNAL_ENV}
    offences = [f"{p.relative_to(PACKAGE)}:{line}" for p in sorted(PACKAGE.rglob("*.py"))
                if p != Path(ws.__file__) for line in _constants(p, names)]
    assert offences == []
    assert _constants(Path(ws.__file__), names)  # the search is not blind


def test_the_active_workspace_is_what_every_reader_follows(tmp_path, monkeypatch):
    monkeypatch.delenv(ws.CARDS_ENV, raising=False)
    monkeypatch.delenv(ws.JOURNAL_ENV, raising=False)
    bundled = cards_root()
    (tmp_path / "some_game").mkdir()
    with ws.using(ws.Workspace(cards=tmp_path)):
        assert cards_root() == tmp_path
        assert cards_dir("some-game") == tmp_path / "some_game"
        assert journal_path() == tmp_path / ws.JOURNAL_FILE
        with ws.using(ws.current().with_cards(None)):
            assert cards_root() == bundled
        assert cards_root() == tmp_path
    assert cards_root() == bundled
    assert journal_path() == Path(".") / ws.JOURNAL_FILE


def test_a_child_process_gets_the_workspace_in_its_environment(tmp_path):
    space = ws.Workspace(cards=tmp_path / "c", journal=tmp_path / "j.sqlite")
    env = space.environment({ws.CARDS_ENV: "elsewhere", "PATH": "/bin"})
    assert env["PATH"] == "/bin"
    assert ws.Workspace.from_environment(env) == space
    assert ws.CARDS_ENV not in ws.Workspace().environment({ws.CARDS_ENV: "x"})


def test_the_command_line_hands_its_workspace_down(tmp_path, monkeypatch, capsys):
    from workbench import cli
    seen = {}

    def fake(args):
        seen["args"], seen["current"] = args.workspace, ws.current()
        return 0

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    args = parser.parse_args(["journal", "list", "--cards", str(tmp_path)])
    args.func = fake
    monkeypatch.setattr(parser, "parse_args", lambda argv=None: args)
    monkeypatch.setenv(ws.CARDS_ENV, "/nowhere")
    assert cli.main([]) == 0
    assert seen["args"] is seen["current"] and seen["args"].cards == tmp_path.resolve()
