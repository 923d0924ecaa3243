"""The checks of cleancrawl's own settings that stop a crawl at start (the ``EXTRACTION_*`` settings are
`pipelines.config`'s, the store and the crawl lock `pipelines.context.check_settings`'s).

Each setting of `crawler.default_settings` must convert to its default's type and lie in its range; a
setting named in lower case after a known one (``-s database_url=...``, which Scrapy would keep apart and
no component would read) is an error that names the setting meant.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

from scrapy.settings import BaseSettings
from scrapy.settings import default_settings as scrapy_defaults

from crawler import default_settings
from pipelines.config import Range, setting_names

T = TypeVar("T")

# The ranges of cleancrawl's numeric settings (any other must not be negative).
_RANGES = {
    "STORAGE_BATCH_SIZE": Range(1),
    "STORAGE_KNOWN_BLOCKS": Range(1),
    "RECRAWL_DEC_RATE": Range(0, 1),
    "FOCUS_TEMPLATE_FACTOR": Range(0, 1),
    "FOCUS_SATURATION_NEW_TERMS": Range(0, 1),
}


class SettingError(ValueError):
    """A setting of the wrong type, out of its range, or misspelt."""


def check_crawl_settings(settings: BaseSettings) -> None:
    """Raise `SettingError` for the first of cleancrawl's settings that is wrong, naming it and its range."""
    _check_case(settings)
    for name in own_settings():
        _check_value(settings, name, getattr(default_settings, name))


def own_settings() -> list[str]:
    """cleancrawl's own settings, with their defaults in `crawler.default_settings`."""
    return sorted(name for name in dir(default_settings) if name.isupper())


def _check_case(settings: BaseSettings) -> None:
    known = {name for name in dir(scrapy_defaults) if name.isupper()} | {*own_settings(), *setting_names()}
    for name in settings:
        if not name.isupper() and name.upper() in known:
            raise SettingError(
                f"unknown setting {name}: setting names are upper case, did you mean {name.upper()}?"
            )


def settings_group(cls: type[T], settings: BaseSettings, prefix: str) -> T:
    """The dataclass `cls` with each field read from the setting ``<prefix><FIELD>``, checked as
    `check_crawl_settings` checks it (`SettingError` when it is wrong)."""
    values = {}
    for field in fields(cls):  # type: ignore[arg-type]
        name = prefix + field.name.upper()
        values[field.name] = _check_value(settings, name, getattr(default_settings, name))
    return cls(**values)


def _check_value(settings: BaseSettings, name: str, default: Any) -> Any:
    if isinstance(default, bool):
        return _converted(settings, name, settings.getbool, "boolean (True or False)")
    if isinstance(default, (int, float)):
        getter = settings.getint if isinstance(default, int) else settings.getfloat
        value = _converted(settings, name, getter, "number" if isinstance(default, float) else "whole number")
        valid = _RANGES.get(name, Range(0))
        if value not in valid:
            raise SettingError(f"{name}={value!r} is out of range: it must be {valid}")
        return value
    return settings.get(name)


def _converted(settings: BaseSettings, name: str, getter: Any, kind: str) -> Any:
    try:
        return getter(name)
    except (TypeError, ValueError):
        raise SettingError(f"{name}={settings.get(name)!r} is not a {kind}") from None
