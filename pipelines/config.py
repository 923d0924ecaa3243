"""The one place Scrapy settings become an `ExtractionConfig`.

Every field of `extraction.config.ExtractionConfig` is a setting named ``EXTRACTION_<FIELD>`` (upper case):
``-s EXTRACTION_MAX_LINK_DENSITY=0.4`` sets ``max_link_density``. Values are converted to the field's type
(``-s`` gives strings). A setting ``EXTRACTION_*`` that names no field is an error at startup, so a typo
never silently leaves a default in place.

``EXTRACTION_SITE_OVERRIDES`` gives some sites settings of their own: a mapping of site (``host:port``, or
``host`` for every port) to ``EXTRACTION_*`` settings, in ``settings.py`` or as JSON on the command line
(``-s 'EXTRACTION_SITE_OVERRIDES={"docs.example.org": {"EXTRACTION_SITE_FREQUENT_SHARE": 0.8}}'``). Every
pipeline and the spider take a page's config from `SiteConfigs.of` its site. The method is the crawl's:
``EXTRACTION_METHOD`` and ``EXTRACTION_METHOD_LEARN_PAGES`` cannot be set per site.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from scrapy.settings import BaseSettings

from extraction import ExtractionConfig

PREFIX = "EXTRACTION_"
OVERRIDES = "EXTRACTION_SITE_OVERRIDES"
# One method labels the whole crawl (the spider and the method pipeline hold one per crawl).
_CRAWL_WIDE = frozenset({"method", "method_learn_pages"})


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
    return ExtractionConfig(**_fields(settings))


@dataclass(slots=True, frozen=True)
class SiteConfigs:
    """The crawl's extraction config and the configs of the sites ``EXTRACTION_SITE_OVERRIDES`` names."""

    default: ExtractionConfig = field(default_factory=ExtractionConfig)
    sites: Mapping[str, ExtractionConfig] = field(default_factory=dict)

    def of(self, site: str) -> ExtractionConfig:
        """The config of a site (``host[:port]``): its own, else its host's, else the crawl's."""
        if not self.sites:
            return self.default
        found = self.sites.get(site.lower())
        return found if found is not None else self.sites.get(_hostname(site), self.default)


def site_configs(settings: BaseSettings) -> SiteConfigs:
    """The crawl's config from the ``EXTRACTION_*`` settings, and each overridden site's on top of it."""
    default = extraction_config(settings)
    try:
        overrides = settings.getdict(OVERRIDES)
    except ValueError as error:
        raise ExtractionSettingError(f"{OVERRIDES} is not a mapping of sites to settings: {error}") from None
    sites = {site.lower(): _site_config(default, site, values) for site, values in overrides.items()}
    return SiteConfigs(default, sites)


def _site_config(default: ExtractionConfig, site: str, values: object) -> ExtractionConfig:
    where = f"{OVERRIDES}[{site!r}]"
    if not isinstance(values, Mapping):
        raise ExtractionSettingError(f"{where} must map EXTRACTION_* settings to values, not {values!r}")
    strays = sorted(name for name in values if not str(name).startswith(PREFIX) or name == OVERRIDES)
    if strays:
        raise ExtractionSettingError(f"{where}: only EXTRACTION_* settings can be set per site, not {strays}")
    fields = _fields(BaseSettings(values))
    wide = sorted(setting_name(name) for name in fields.keys() & _CRAWL_WIDE)
    if wide:
        raise ExtractionSettingError(f"{where}: {', '.join(wide)} applies to the whole crawl, not to a site")
    return dataclasses.replace(default, **fields)


def _hostname(site: str) -> str:
    return urlsplit("//" + site).hostname or site.lower()


def _fields(settings: BaseSettings) -> dict[str, Any]:
    """The config fields the ``EXTRACTION_*`` settings set, converted to the fields' types."""
    values: dict[str, Any] = {}
    for name in settings:
        if not name.startswith(PREFIX) or name == OVERRIDES:
            continue
        field_name = name[len(PREFIX) :].lower()
        if field_name not in _FIELD_TYPES:
            known = ", ".join(setting_name(f) for f in _FIELD_TYPES)
            raise ExtractionSettingError(f"unknown setting {name}: extraction settings are {known}")
        values[field_name] = _convert(settings, name, _FIELD_TYPES[field_name])
    return values


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
