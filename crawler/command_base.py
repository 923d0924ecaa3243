"""The base of the project's commands that run no crawl in their own process (``scrapy savings``,
``search``, ``schedule``); outside `crawler.commands`, where Scrapy would take it for a command."""

from __future__ import annotations

import argparse
import sys
from typing import ClassVar

from scrapy.commands import ScrapyCommand

from crawler.commands._errors import one_line_errors


class ProjectCommand(ScrapyCommand):
    """A command of this project: its module's docstring is its help, and a user error ends it with one
    line (`crawler.commands._errors`)."""

    requires_project = True
    requires_crawler_process = False
    # What follows the command's name (`syntax`); its line in ``scrapy -h`` is its class docstring.
    usage: ClassVar[str]

    def syntax(self) -> str:
        """The arguments after ``scrapy NAME``."""
        return self.usage

    def short_desc(self) -> str:
        """One line for ``scrapy -h``: the command class's docstring."""
        return (type(self).__doc__ or "").strip().rstrip(".")

    @property
    def command_name(self) -> str:
        """The name the command is called by: its module's."""
        return type(self).__module__.rsplit(".", 1)[-1]

    def long_desc(self) -> str:
        """The text of ``scrapy NAME -h``: the command module's docstring."""
        return str(sys.modules[type(self).__module__].__doc__)

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Scrapy's common options, with errors as one line."""
        super().add_options(parser)
        assert self.settings is not None
        one_line_errors(parser, self.command_name, self.settings)
