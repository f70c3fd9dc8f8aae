"""`citegate` command line. Usage and input errors exit 2 with one line on stderr, no traceback."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from stream.errors import CitegateError


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


Command = Callable[[argparse.Namespace], int]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole CLI, or (`command`) only what that subcommand needs to parse and run."""
    from stream import commands

    parser = _Parser(prog="citegate", description="Citation verification for RAG answers.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands.register(sub, command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Kafka client failures reach the user as one `citegate: error:` line; without a handler
    # of its own, aiokafka's connection errors would also print through logging's last resort.
    # (The worker configures real handlers, where they are logged as usual.)
    logging.getLogger("aiokafka").addHandler(logging.NullHandler())
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    handler: Command = args.handler
    try:
        return handler(args)
    except CitegateError as exc:
        sys.stderr.write(f"citegate: error: {exc.message}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("citegate: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
