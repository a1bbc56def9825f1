"""Tests of :mod:`fedtheory._console`: Ctrl-C while the CLI and numpy load gives one line and exit status 130."""
import sys


def test_ctrl_c_while_the_cli_imports_numpy(monkeypatch, capsys):
    """Ctrl-C while ``fedtheory.cli`` (and numpy, scipy) load: one line and exit 130, no traceback.
    ``import fedtheory`` itself loads nothing heavy, so the handler is in place before the import."""
    import builtins

    from fedtheory import _console

    real_import = builtins.__import__

    def interrupted(name, globals=None, locals=None, fromlist=(), level=0):
        if (level == 1 and name == "cli") or name == "fedtheory.cli":
            raise KeyboardInterrupt
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.delitem(sys.modules, "fedtheory.cli", raising=False)
    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert _console.run(["list"]) == 130
    monkeypatch.undo()
    assert capsys.readouterr().err == "fedtheory: interrupted\n"
