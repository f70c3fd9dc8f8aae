"""Every `citegate` subcommand and flag explains itself in `--help`."""

from __future__ import annotations

import argparse

from stream.cli import build_parser


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    out: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out[name] = sub
                out.update({f"{name} {k}": v for k, v in _subparsers(sub).items()})
    return out


def test_every_flag_and_argument_has_help_text() -> None:
    missing = []
    for name, sub in _subparsers(build_parser()).items():
        for action in sub._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not (action.help or "").strip():
                missing.append(f"citegate {name}: {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_every_subcommand_has_a_one_line_summary() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in sub._choices_actions}
    assert set(helps) == set(sub.choices)
    assert all(h and "\n" not in h for h in helps.values())
    assert {"broker", "worker", "verify", "produce", "tail", "corpus", "replay", "eval"} <= set(
        helps
    )
