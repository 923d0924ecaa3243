"""The one place Scrapy settings become the crawl's extraction configuration, `CrawlConfig`.

Four kinds of ``EXTRACTION_*`` settings, each mapped onto a frozen dataclass of the library:
- ``EXTRACTION_<FIELD>``: a field of `ExtractionConfig` (``EXTRACTION_MAX_LINK_DENSITY``);
- ``EXTRACTION_SITE_<FIELD>``: a field of `SiteModelConfig` (``EXTRACTION_SITE_MIN_PAGES``);
- ``EXTRACTION_<PREFIX>_<FIELD>``: a parameter of the crawl's method (``EXTRACTION_CETR_MODEL``, the
  `prefix` of the method's `Params`); naming a parameter of another method is an error;
- the crawl-wide choices ``EXTRACTION_METHOD`` (`extraction.methods.registry.METHODS`) and
  ``EXTRACTION_METHOD_LEARN_PAGES`` (pages of a cluster a site-level method holds to learn from).

Values are converted to the field's type (``-s`` gives strings) and checked against the field's range
(`setting_range`: a limit is at least 1, a share between 0 and 1, no number negative). A name that maps
onto nothing, and a value out of its range, stop the crawl at start, so a typo never silently leaves a
default in place and no value makes every page fail.

``EXTRACTION_SITE_OVERRIDES`` gives some sites settings of their own: a mapping of site (``host:port``, or
``host`` for every port) to ``EXTRACTION_<FIELD>`` and ``EXTRACTION_SITE_<FIELD>`` settings, in
``settings.py`` or as JSON on the command line. The method and its parameters are the crawl's.
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from scrapy.settings import BaseSettings

from extraction import ExtractionConfig
from extraction.methods.base import NoParams, Params
from extraction.methods.registry import DEFAULT_METHOD, METHODS, UnknownMethodError, method_class
from extraction.site_models import SiteModelConfig

PREFIX = "EXTRACTION_"
SITE_PREFIX = "EXTRACTION_SITE_"
OVERRIDES = "EXTRACTION_SITE_OVERRIDES"
METHOD = "EXTRACTION_METHOD"
LEARN_PAGES = "EXTRACTION_METHOD_LEARN_PAGES"
_CRAWL_WIDE = (METHOD, LEARN_PAGES)


class ExtractionSettingError(ValueError):
    """An ``EXTRACTION_*`` setting names nothing, holds a value of the wrong type, or is out of place."""


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """What the pages of one site are extracted and modelled with."""

    extraction: ExtractionConfig = field(default_factory=ExtractionConfig)
    model: SiteModelConfig = field(default_factory=SiteModelConfig)


@dataclass(frozen=True, slots=True)
class CrawlConfig:
    """The crawl's method and its parameters, and each site's extraction and model configuration."""

    method: str = DEFAULT_METHOD
    params: Params = field(default_factory=NoParams)
    learn_pages: int = 32
    default: SiteConfig = field(default_factory=SiteConfig)
    sites: Mapping[str, SiteConfig] = field(default_factory=dict)

    def of(self, site: str) -> SiteConfig:
        """The config of a site (``host[:port]``): its own, else its host's, else the crawl's."""
        if not self.sites:
            return self.default
        found = self.sites.get(site.lower())
        return found if found is not None else self.sites.get(_hostname(site), self.default)


@dataclass(frozen=True, slots=True)
class Range:
    """The values a numeric setting may take: from `low` (excluded when `open_low`) to `high` (None: no
    upper bound)."""

    low: float = 0
    high: float | None = None
    open_low: bool = False

    def __contains__(self, value: float) -> bool:
        above = value > self.low if self.open_low else value >= self.low
        return math.isfinite(value) and above and (self.high is None or value <= self.high)

    def __str__(self) -> str:
        low = f"above {self.low:g}" if self.open_low else f"at least {self.low:g}"
        if self.high is None:
            return low
        return (
            f"from {self.low:g} to {self.high:g}" if not self.open_low else f"{low} and at most {self.high:g}"
        )


_COUNT, _POSITIVE, _SHARE = Range(0), Range(1), Range(0, 1)
# A setting's range by its name's form: whole numbers that bound or size something (a page, a block, an
# iteration) must let at least one through, other whole numbers must not be negative; steps must move,
# widths and spreads be above zero, shares, ratios, densities, thresholds and weights of a score lie from
# 0 to 1, other numbers must not be negative. The tests check every setting's default against its range.
_POSITIVE_INT = re.compile(
    r"^EXTRACTION_MAX_|_ITERATIONS$|_CLUSTERS$|_K$|_SIZE$|_DEPTH$|_PER_POINT$|_PAGES$|_LINES$|_LINE_CHARS$"
    r"|_PATTERN_LENGTH$"
)
_FLOAT_RULES: tuple[tuple[re.Pattern[str], Range], ...] = (
    (re.compile(r"_STEP$"), Range(0, 1, open_low=True)),
    (re.compile(r"_SIGMA$|_WIDTH$"), Range(0, open_low=True)),
    (re.compile(r"_IBDF_THRESHOLD$"), _COUNT),
    (
        re.compile(
            r"(SHARE|RATIO|DENSITY|IMPORTANCE|SIMILARITY|THRESHOLD|DECAY|ATTENUATION|FLOOR|ENTROPY|GAIN"
            r"|_NLTD|_NATD|_PMD|_ALPHA|_BETA|_PENALTY)$"
        ),
        _SHARE,
    ),
)


def setting_range(name: str, kind: type = float) -> Range:
    """The range of the numeric ``EXTRACTION_*`` setting `name` of type `kind` (int or float)."""
    if kind is int:
        return _POSITIVE if _POSITIVE_INT.search(name) else _COUNT
    return next((valid for pattern, valid in _FLOAT_RULES if pattern.search(name)), _COUNT)


@dataclass(frozen=True, slots=True)
class _Target:
    """Where a setting lands: a field of the extraction config, of the model config, or of the parameters
    of some methods (a technique several methods build on sits at a different path in each)."""

    part: str  # "extraction", "model" or "params"
    kind: type
    # Attribute names from the part's dataclass down to the field, by method ("" for the two configs).
    paths: Mapping[str, tuple[str, ...]]

    def path(self, method: str) -> tuple[str, ...]:
        """The field's path in `method`'s parameters (or in the config)."""
        return self.paths[method if self.part == "params" else ""]


def crawl_config(settings: BaseSettings) -> CrawlConfig:
    """Parse every ``EXTRACTION_*`` setting once into the crawl's `CrawlConfig` (errors name the setting).

    A setting not given keeps the dataclass's default: the library's dataclasses are where every
    extraction default lives.
    """
    crawl: dict[str, Any] = {}
    if settings.get(METHOD) is not None:
        crawl["method"] = settings.get(METHOD)
    if settings.get(LEARN_PAGES) is not None:
        crawl["learn_pages"] = _checked(LEARN_PAGES, _convert(settings, LEARN_PAGES, int), "")
    method = crawl.get("method", DEFAULT_METHOD)
    try:
        params_type = method_class(method).params_type
    except UnknownMethodError as error:
        raise ExtractionSettingError(f"{METHOD}: {error}") from None
    values = _values(settings, method, where="")
    default = SiteConfig(
        _built(ExtractionConfig(), values.get("extraction", {})),
        _built(SiteModelConfig(), values.get("model", {})),
    )
    params = _built(params_type(), values.get("params", {}))
    return CrawlConfig(params=params, default=default, sites=_site_overrides(settings, default), **crawl)


def setting_names() -> list[str]:
    """Every ``EXTRACTION_*`` setting, sorted (for error messages and the documentation test)."""
    return sorted([*_TARGETS, *_CRAWL_WIDE, OVERRIDES])


def _site_overrides(settings: BaseSettings, default: SiteConfig) -> dict[str, SiteConfig]:
    try:
        overrides = settings.getdict(OVERRIDES)
    except ValueError as error:
        raise ExtractionSettingError(f"{OVERRIDES} is not a mapping of sites to settings: {error}") from None
    return {site.lower(): _site_config(default, site, values) for site, values in overrides.items()}


def _site_config(default: SiteConfig, site: str, values: object) -> SiteConfig:
    where = f"{OVERRIDES}[{site!r}]"
    if not isinstance(values, Mapping):
        raise ExtractionSettingError(f"{where} must map EXTRACTION_* settings to values, not {values!r}")
    strays = sorted(name for name in values if not str(name).startswith(PREFIX) or name == OVERRIDES)
    if strays:
        raise ExtractionSettingError(f"{where}: only EXTRACTION_* settings can be set per site, not {strays}")
    wide = [name for name in values if name in _CRAWL_WIDE]
    if wide:
        names = ", ".join(sorted(wide))
        raise ExtractionSettingError(f"{where}: {names} applies to the whole crawl, not to a site")
    parsed = _values(BaseSettings(values), method=None, where=f"{where}: ")
    return SiteConfig(
        _built(default.extraction, parsed.get("extraction", {})),
        _built(default.model, parsed.get("model", {})),
    )


def _values(settings: BaseSettings, method: str | None, where: str) -> dict[str, dict[tuple[str, ...], Any]]:
    """The values the ``EXTRACTION_*`` settings give, converted, by part and field path; a site's
    (`method` None) take no method parameters."""
    values: dict[str, dict[tuple[str, ...], Any]] = {}
    for name in settings:
        if not name.startswith(PREFIX) or name in _CRAWL_WIDE or name == OVERRIDES:
            continue
        target = _TARGETS.get(name)
        if target is None:
            raise ExtractionSettingError(f"{where}unknown setting {name}: extraction settings are {_known()}")
        if target.part == "params" and method not in target.paths:
            users = ", ".join(sorted(target.paths))
            scope = f"this crawl's {METHOD} is {method}" if method else "it applies to the whole crawl"
            raise ExtractionSettingError(f"{where}{name} is a parameter of {users}; {scope}")
        value = _checked(name, _convert(settings, name, target.kind), where)
        values.setdefault(target.part, {})[target.path(method or "")] = value
    return values


def _checked(name: str, value: Any, where: str) -> Any:
    """`value` when it is in the range of setting `name` (or not a number); else an error naming both."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    valid = setting_range(name, type(value))
    if value not in valid:
        raise ExtractionSettingError(f"{where}{name}={value!r} is out of range: it must be {valid}")
    return value


_Config = typing.TypeVar("_Config")


def _built(base: _Config, values: Mapping[tuple[str, ...], Any]) -> _Config:
    """`base` with the fields at `values`' paths replaced (nested dataclasses rebuilt on the way)."""
    result = base
    for path, value in values.items():
        result = _replaced(result, path, value)
    return result


def _replaced(instance: _Config, path: tuple[str, ...], value: Any) -> _Config:
    head, *rest = path
    new = _replaced(getattr(instance, head), tuple(rest), value) if rest else value
    try:
        return dataclasses.replace(instance, **{head: new})  # type: ignore[type-var]
    except ValueError as error:  # a dataclass's own check of its values (CETR's model, ...)
        raise ExtractionSettingError(str(error)) from None


def _fields(kind: type) -> Iterator[tuple[str, type]]:
    """The fields of a config dataclass with their resolved types (the modules postpone annotations)."""
    hints = typing.get_type_hints(kind)
    for item in dataclasses.fields(kind):
        yield item.name, hints[item.name]


def _params_fields(
    params: type[Params], path: tuple[str, ...] = ()
) -> Iterator[tuple[str, tuple[str, ...], type]]:
    """(setting, path, type) of every field of a method's parameters, nested ones under their own prefix."""
    for name, kind in _fields(params):
        if isinstance(kind, type) and issubclass(kind, Params):
            yield from _params_fields(kind, (*path, name))
        else:
            yield f"{PREFIX}{params.prefix.upper()}_{name.upper()}", (*path, name), kind


def _targets() -> dict[str, _Target]:
    """Every ``EXTRACTION_*`` setting of a field, and where it lands."""
    targets = {
        PREFIX + name.upper(): _Target("extraction", kind, {"": (name,)})
        for name, kind in _fields(ExtractionConfig)
    }
    for name, kind in _fields(SiteModelConfig):
        targets[SITE_PREFIX + name.upper()] = _Target("model", kind, {"": (name,)})
    for method, cls in METHODS.items():
        for setting, path, kind in _params_fields(cls.params_type):
            known = targets.get(setting)
            if known is not None and known.part != "params":
                raise AssertionError(f"{setting} names a config field and a method parameter")
            paths = {**(known.paths if known else {}), method: path}
            targets[setting] = _Target("params", kind, paths)
    return targets


_TARGETS = _targets()


def _known() -> str:
    return ", ".join(setting_names())


def _hostname(site: str) -> str:
    return urlsplit("//" + site).hostname or site.lower()


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
