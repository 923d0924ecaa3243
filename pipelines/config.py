"""The one place Scrapy settings become an `ExtractionConfig`.

Every field of `extraction.config.ExtractionConfig` is a setting named ``EXTRACTION_<FIELD>`` (upper case):
``-s EXTRACTION_MAX_LINK_DENSITY=0.4`` sets ``max_link_density``. Values are converted to the field's type
(``-s`` gives strings). A setting ``EXTRACTION_*`` that names no field is an error at startup, so a typo
never silently leaves a default in place.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Any

from scrapy.settings import BaseSettings

from extraction import ExtractionConfig

PREFIX = "EXTRACTION_"


class ExtractionSettingError(ValueError):
    """An ``EXTRACTION_*`` setting names no config field or holds a value of the wrong type."""


def _field_types() -> dict[str, type]:
    """Config field name -> its type (resolved: the module uses postponed annotations)."""
    hints = typing.get_type_hints(ExtractionConfig)
    return {field.name: hints[field.name] for field in dataclasses.fields(ExtractionConfig)}


_FIELD_TYPES = _field_types()


def setting_name(field: str) -> str:
    """The Scrapy setting of a config field: ``max_link_density`` -> ``EXTRACTION_MAX_LINK_DENSITY``."""
    return PREFIX + field.upper()


def extraction_config(settings: BaseSettings) -> ExtractionConfig:
    """Build the extraction config from the ``EXTRACTION_*`` settings; unset fields keep their defaults."""
    values: dict[str, Any] = {}
    for name in settings:
        if not name.startswith(PREFIX):
            continue
        field = name[len(PREFIX) :].lower()
        if field not in _FIELD_TYPES:
            known = ", ".join(setting_name(f) for f in _FIELD_TYPES)
            raise ExtractionSettingError(f"unknown setting {name}: extraction settings are {known}")
        values[field] = _convert(settings, name, _FIELD_TYPES[field])
    return ExtractionConfig(**values)


def _getter(settings: BaseSettings, kind: type) -> Callable[[str], Any]:
    """The settings accessor that converts to `kind` (getbool understands "False", "0", "true", ...)."""
    getters: dict[type, Callable[[str], Any]] = {
        bool: settings.getbool,
        int: settings.getint,
        float: settings.getfloat,
        str: settings.get,
    }
    try:
        return getters[kind]
    except KeyError:
        raise ExtractionSettingError(f"no conversion from a setting to {kind!r}") from None


def _convert(settings: BaseSettings, name: str, kind: type) -> Any:
    """The value of setting `name` as `kind`, or a clear error naming the setting."""
    getter = _getter(settings, kind)
    try:
        return getter(name)
    except ValueError as error:
        value = settings.get(name)
        raise ExtractionSettingError(f"setting {name}={value!r} is not a valid {kind.__name__}") from error
