"""Scrapy settings -> CrawlConfig: names, type conversion, method parameters, per-site overrides, errors."""

from __future__ import annotations

import dataclasses
import re

import pytest
from scrapy.settings import Settings

from extraction import ExtractionConfig
from extraction.methods.base import Params
from extraction.methods.cetr import CetrParams
from extraction.methods.contentextractor import ContentExtractorParams
from extraction.methods.registry import METHODS
from extraction.site_models import SiteModelConfig
from pipelines.config import CrawlConfig, ExtractionSettingError, crawl_config, setting_names


def test_no_extraction_setting_gives_the_defaults() -> None:
    assert crawl_config(Settings({"BOT_NAME": "x"})) == CrawlConfig()


def test_command_line_strings_are_converted_to_the_field_types() -> None:
    # `-s NAME=value` always gives strings.
    settings = Settings(
        {
            "EXTRACTION_MAX_LINK_DENSITY": "0.4",
            "EXTRACTION_MAX_BLOCKS": "500",
            "EXTRACTION_INCLUDE_CAPTIONS": "True",
            "EXTRACTION_SITE_MIN_PAGES": "7",
        }
    )
    config = crawl_config(settings).default
    assert config.extraction.max_link_density == 0.4
    assert config.extraction.max_blocks == 500
    assert config.extraction.include_captions is True
    assert config.extraction.noise_threshold == ExtractionConfig().noise_threshold
    assert config.model.min_pages == 7


@pytest.mark.parametrize("value", ["False", "false", "0", False])
def test_false_booleans_are_false(value: object) -> None:
    settings = Settings({"EXTRACTION_INCLUDE_CAPTIONS": value, "EXTRACTION_SITE_KEEP_HEADLINE": value})
    config = crawl_config(settings).default
    assert (config.extraction.include_captions, config.model.keep_headline) == (False, False)


def _fields(kind: type, prefix: str) -> list[tuple[str, str]]:
    return [(f"{prefix}{field.name.upper()}", field.name) for field in dataclasses.fields(kind)]


def test_every_config_field_has_a_setting() -> None:
    for setting, name in _fields(ExtractionConfig, "EXTRACTION_"):
        default = getattr(ExtractionConfig(), name)
        assert getattr(crawl_config(Settings({setting: str(default)})).default.extraction, name) == default
    for setting, name in _fields(SiteModelConfig, "EXTRACTION_SITE_"):
        default = getattr(SiteModelConfig(), name)
        assert getattr(crawl_config(Settings({setting: str(default)})).default.model, name) == default


def _leaves(params: Params) -> list[tuple[str, object]]:
    """(setting, default) of every field of a method's parameters, nested ones under their own prefix."""
    leaves: list[tuple[str, object]] = []
    for field in dataclasses.fields(params):
        value = getattr(params, field.name)
        if isinstance(value, Params):
            leaves.extend(_leaves(value))
        else:
            leaves.append((f"EXTRACTION_{params.prefix.upper()}_{field.name.upper()}", value))
    return leaves


@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_parameter_has_a_setting(method: str) -> None:
    for setting, default in _leaves(METHODS[method].params_type()):
        assert setting in setting_names()
        config = crawl_config(Settings({"EXTRACTION_METHOD": method, setting: str(default)}))
        assert config.params == METHODS[method].params_type()


def test_method_parameters_reach_the_crawls_method_nested_ones_included() -> None:
    settings = {
        "EXTRACTION_METHOD": "contentextractor",
        "EXTRACTION_METHOD_LEARN_PAGES": "8",
        "EXTRACTION_CONTENTEXTRACTOR_SIMILARITY": "0.8",
        "EXTRACTION_GETBLOCKS_TAGS": "table p",
    }
    config = crawl_config(Settings(settings))
    assert (config.method, config.learn_pages) == ("contentextractor", 8)
    assert isinstance(config.params, ContentExtractorParams)
    assert config.params.similarity == 0.8
    assert config.params.kfe.getblocks.tags == "table p"
    # The same tag set lands where another method keeps it.
    other = crawl_config(Settings({"EXTRACTION_METHOD": "infodiscoverer", "EXTRACTION_GETBLOCKS_TAGS": "p"}))
    assert other.params.getblocks.tags == "p"  # type: ignore[attr-defined]


def test_a_parameter_of_another_method_is_an_error_that_names_its_methods() -> None:
    cetr = "EXTRACTION_CETR_MODEL is a parameter of cetr; this crawl's EXTRACTION_METHOD is cleancrawl"
    with pytest.raises(ExtractionSettingError, match=cetr):
        crawl_config(Settings({"EXTRACTION_CETR_MODEL": "tm"}))
    message = "EXTRACTION_GETBLOCKS_TAGS is a parameter of contentextractor, featureextractor, infodiscoverer"
    with pytest.raises(ExtractionSettingError, match=message):
        crawl_config(Settings({"EXTRACTION_METHOD": "cetr", "EXTRACTION_GETBLOCKS_TAGS": "p"}))


def test_a_parameter_the_method_refuses_is_an_error() -> None:
    assert crawl_config(Settings({"EXTRACTION_METHOD": "cetr"})).params == CetrParams()
    with pytest.raises(ExtractionSettingError, match="the CETR model must be one of tm, km, 2d, not 'x'"):
        crawl_config(Settings({"EXTRACTION_METHOD": "cetr", "EXTRACTION_CETR_MODEL": "x"}))


def test_project_settings_load_with_the_library_defaults() -> None:
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    assert crawl_config(settings).default.extraction.include_captions is False


def test_an_unknown_name_is_an_error_that_lists_the_known_ones() -> None:
    with pytest.raises(ExtractionSettingError, match="unknown setting EXTRACTION_MAX_LINK_DENSTY") as info:
        crawl_config(Settings({"EXTRACTION_MAX_LINK_DENSTY": "0.4"}))
    assert "EXTRACTION_MAX_LINK_DENSITY" in str(info.value)


def test_a_value_of_the_wrong_type_names_the_setting() -> None:
    with pytest.raises(ExtractionSettingError, match="EXTRACTION_MAX_BLOCKS='many' is not a valid int"):
        crawl_config(Settings({"EXTRACTION_MAX_BLOCKS": "many"}))


def test_an_unknown_method_is_an_error_that_lists_the_methods() -> None:
    with pytest.raises(ExtractionSettingError, match="unknown method 'readability'; choose from ") as info:
        crawl_config(Settings({"EXTRACTION_METHOD": "readability"}))
    assert all(name in str(info.value) for name in METHODS)


def test_a_site_override_applies_to_that_site_only() -> None:
    overrides = {"docs.example.org": {"EXTRACTION_SITE_MIN_PAGES": "12", "EXTRACTION_MAX_BLOCKS": "40"}}
    settings = Settings({"EXTRACTION_SITE_FREQUENT_SHARE": "0.6", "EXTRACTION_SITE_OVERRIDES": overrides})
    config = crawl_config(settings)
    site = config.of("docs.example.org")
    assert (site.model.min_pages, site.model.frequent_share, site.extraction.max_blocks) == (12, 0.6, 40)
    assert config.of("www.example.org") == config.default
    assert config.default.model.min_pages == SiteModelConfig().min_pages


def test_a_host_override_covers_every_port_and_a_host_port_one_wins() -> None:
    overrides = {
        "127.0.0.1": {"EXTRACTION_SITE_MIN_PAGES": 7},
        "127.0.0.1:8000": {"EXTRACTION_SITE_MIN_PAGES": 9},
    }
    config = crawl_config(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))
    assert config.of("127.0.0.1:8080").model.min_pages == 7
    assert config.of("127.0.0.1:8000").model.min_pages == 9
    assert config.of("localhost:8000") == config.default


def test_site_overrides_on_the_command_line_are_json() -> None:
    overrides = '{"Docs.Example.org": {"EXTRACTION_SITE_DROP_REDUNDANT": "true"}}'
    config = crawl_config(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))
    assert config.of("docs.example.org").model.drop_redundant is True


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ("{not json", "EXTRACTION_SITE_OVERRIDES is not a mapping of sites to settings"),
        ({"a.org": 3}, r"EXTRACTION_SITE_OVERRIDES\['a.org'\] must map EXTRACTION_\* settings"),
        ({"a.org": {"SITE_MIN_PAGES": 3}}, r"only EXTRACTION_\* settings can be set per site"),
        ({"a.org": {"EXTRACTION_SITE_MIN_PAGE": 3}}, "unknown setting EXTRACTION_SITE_MIN_PAGE"),
        ({"a.org": {"EXTRACTION_SITE_MIN_PAGES": "x"}}, "EXTRACTION_SITE_MIN_PAGES='x' is not a valid int"),
        ({"a.org": {"EXTRACTION_METHOD": "cetr"}}, "EXTRACTION_METHOD applies to the whole crawl"),
        ({"a.org": {"EXTRACTION_CETR_MODEL": "tm"}}, "EXTRACTION_CETR_MODEL is a parameter of cetr"),
    ],
)
def test_a_bad_site_override_is_an_error_that_says_what_is_wrong(overrides: object, message: str) -> None:
    with pytest.raises(ExtractionSettingError, match=message):
        crawl_config(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))


def _defaults() -> dict[str, object]:
    """Every numeric EXTRACTION_* setting with its default, as `-s` would give it."""
    settings: dict[str, object] = {}
    for setting, name in _fields(ExtractionConfig, "EXTRACTION_"):
        settings[setting] = getattr(ExtractionConfig(), name)
    for setting, name in _fields(SiteModelConfig, "EXTRACTION_SITE_"):
        settings[setting] = getattr(SiteModelConfig(), name)
    return {name: value for name, value in settings.items() if type(value) in (int, float)}


def test_every_default_is_in_its_range() -> None:
    assert crawl_config(Settings({name: str(value) for name, value in _defaults().items()})) == CrawlConfig()
    for method in METHODS:
        crawl_config(Settings({"EXTRACTION_METHOD": method}))  # the parameters' defaults pass too


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        # Issue 15 row 5: these stored 0 pages and exited 0, or were silently ignored.
        ("EXTRACTION_MAX_BLOCKS", "-1", "EXTRACTION_MAX_BLOCKS=-1 is out of range: it must be at least 1"),
        ("EXTRACTION_MAX_DOCUMENT_BYTES", "0", "EXTRACTION_MAX_DOCUMENT_BYTES=0 is out of range"),
        ("EXTRACTION_SITE_CLUSTER_THRESHOLD", "5", "=5.0 is out of range: it must be from 0 to 1"),
        ("EXTRACTION_SITE_ENTROPY_STEP", "0", "it must be above 0 and at most 1"),
        ("EXTRACTION_NOISE_ALPHA", "nan", "EXTRACTION_NOISE_ALPHA=nan is out of range"),
        ("EXTRACTION_ANCESTOR_LEVELS", "-2", "it must be at least 0"),
        ("EXTRACTION_METHOD_LEARN_PAGES", "0", "EXTRACTION_METHOD_LEARN_PAGES=0 is out of range"),
    ],
)
def test_values_out_of_range_name_the_setting_and_its_range(name: str, value: str, message: str) -> None:
    with pytest.raises(ExtractionSettingError, match=re.escape(message)):
        crawl_config(Settings({name: value}))


def test_a_site_override_out_of_range_is_refused() -> None:
    overrides = {"shop.test": {"EXTRACTION_SITE_FREQUENT_SHARE": 2}}
    with pytest.raises(ExtractionSettingError, match=r"\['shop.test'\]: EXTRACTION_SITE_FREQUENT_SHARE=2"):
        crawl_config(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))
