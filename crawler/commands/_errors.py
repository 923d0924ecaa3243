"""The user-error policy of every command of the project: a mistake of the user's (a bad argument or
setting, a store that does not exist or cannot be opened) ends the command with one line on stderr,
``scrapy NAME: what is wrong``, and exit code 2; the traceback is printed too only with
``--loglevel DEBUG``. Not a command module (its name starts with "_"; it defines no command).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from typing import NoReturn

from scrapy.settings import BaseSettings

USAGE_EXIT = 2


def one_line_errors(parser: argparse.ArgumentParser, name: str, settings: BaseSettings) -> None:
    """Make `parser` report errors as one line: Scrapy reports a command's `UsageError` (from its options
    or its `run`) through ``parser.error``, which would print the usage block first, and so does argparse
    for an option it cannot parse."""

    def error(message: str) -> NoReturn:
        fail(name, message, settings)

    parser.error = error  # type: ignore[method-assign]


def fail(name: str, message: str, settings: BaseSettings) -> NoReturn:
    """End the command with one line (and, with ``--loglevel DEBUG``, the traceback of the error being
    handled first)."""
    handled = sys.exc_info()[1]
    if handled is not None and str(settings.get("LOG_LEVEL", "")).upper() == "DEBUG":
        traceback.print_exception(handled)
    print(f"scrapy {name}: {message}", file=sys.stderr)
    sys.exit(USAGE_EXIT)
