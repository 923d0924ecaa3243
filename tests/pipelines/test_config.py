"""Scrapy settings -> ExtractionConfig: names, type conversion, unknown names."""

from __future__ import annotations

import dataclasses

import pytest
from scrapy.settings import Settings

from extraction import ExtractionConfig
from extraction.methods.registry import METHODS, UnknownMethodError, get_method
from pipelines.config import ExtractionSettingError, extraction_config, setting_name, site_configs


def test_no_extraction_setting_gives_the_defaults() -> None:
    assert extraction_config(Settings({"BOT_NAME": "x"})) == ExtractionConfig()


def test_command_line_strings_are_converted_to_the_field_types() -> None:
    # `-s NAME=value` always gives strings.
    settings = Settings(
        {
            "EXTRACTION_MAX_LINK_DENSITY": "0.4",
            "EXTRACTION_MAX_BLOCKS": "500",
            "EXTRACTION_INCLUDE_CAPTIONS": "True",
        }
    )
    config = extraction_config(settings)
    assert config.max_link_density == 0.4
    assert config.max_blocks == 500
    assert config.include_captions is True
    assert config.noise_threshold == ExtractionConfig().noise_threshold


@pytest.mark.parametrize("value", ["False", "false", "0", False])
def test_false_booleans_are_false(value: object) -> None:
    settings = Settings({"EXTRACTION_INCLUDE_CAPTIONS": value})
    assert extraction_config(settings).include_captions is False


def test_every_field_has_a_setting() -> None:
    for field in dataclasses.fields(ExtractionConfig):
        default = getattr(ExtractionConfig(), field.name)
        config = extraction_config(Settings({setting_name(field.name): str(default)}))
        assert getattr(config, field.name) == default


def test_project_settings_load_and_turn_captions_off() -> None:
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    assert extraction_config(settings).include_captions is False


def test_an_unknown_name_is_an_error_that_lists_the_known_ones() -> None:
    with pytest.raises(ExtractionSettingError, match="unknown setting EXTRACTION_MAX_LINK_DENSTY") as info:
        extraction_config(Settings({"EXTRACTION_MAX_LINK_DENSTY": "0.4"}))
    assert "EXTRACTION_MAX_LINK_DENSITY" in str(info.value)


def test_a_value_of_the_wrong_type_names_the_setting() -> None:
    with pytest.raises(ExtractionSettingError, match="EXTRACTION_MAX_BLOCKS='many' is not a valid int"):
        extraction_config(Settings({"EXTRACTION_MAX_BLOCKS": "many"}))


def test_the_method_settings_reach_the_config() -> None:
    settings = Settings({"EXTRACTION_METHOD": "contentextractor", "EXTRACTION_METHOD_LEARN_PAGES": "8"})
    config = extraction_config(settings)
    assert (config.method, config.method_learn_pages) == ("contentextractor", 8)
    assert get_method(config.method, config).site_level


def test_an_unknown_method_is_an_error_that_lists_the_methods() -> None:
    config = extraction_config(Settings({"EXTRACTION_METHOD": "readability"}))
    with pytest.raises(UnknownMethodError, match="unknown method 'readability'; choose from ") as info:
        get_method(config.method, config)
    assert all(name in str(info.value) for name in METHODS)


def test_a_site_override_applies_to_that_site_only() -> None:
    overrides = {"docs.example.org": {"EXTRACTION_SITE_MIN_PAGES": "12"}}
    settings = Settings({"EXTRACTION_SITE_FREQUENT_SHARE": "0.6", "EXTRACTION_SITE_OVERRIDES": overrides})
    configs = site_configs(settings)
    site = configs.of("docs.example.org")
    assert (site.site_min_pages, site.site_frequent_share) == (12, 0.6)
    assert configs.of("www.example.org") == configs.default == extraction_config(settings)
    assert configs.default.site_min_pages == ExtractionConfig().site_min_pages


def test_a_host_override_covers_every_port_and_a_host_port_one_wins() -> None:
    overrides = {
        "127.0.0.1": {"EXTRACTION_SITE_MIN_PAGES": 7},
        "127.0.0.1:8000": {"EXTRACTION_SITE_MIN_PAGES": 9},
    }
    configs = site_configs(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))
    assert configs.of("127.0.0.1:8080").site_min_pages == 7
    assert configs.of("127.0.0.1:8000").site_min_pages == 9
    assert configs.of("localhost:8000") == configs.default


def test_site_overrides_on_the_command_line_are_json() -> None:
    overrides = '{"Docs.Example.org": {"EXTRACTION_SITE_DROP_REDUNDANT": "true"}}'
    configs = site_configs(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))
    assert configs.of("docs.example.org").site_drop_redundant is True


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ("{not json", "EXTRACTION_SITE_OVERRIDES is not a mapping of sites to settings"),
        ({"a.org": 3}, r"EXTRACTION_SITE_OVERRIDES\['a.org'\] must map EXTRACTION_\* settings"),
        ({"a.org": {"SITE_MIN_PAGES": 3}}, r"only EXTRACTION_\* settings can be set per site"),
        ({"a.org": {"EXTRACTION_SITE_MIN_PAGE": 3}}, "unknown setting EXTRACTION_SITE_MIN_PAGE"),
        ({"a.org": {"EXTRACTION_SITE_MIN_PAGES": "x"}}, "EXTRACTION_SITE_MIN_PAGES='x' is not a valid int"),
        ({"a.org": {"EXTRACTION_METHOD": "cetr"}}, "EXTRACTION_METHOD applies to the whole crawl"),
    ],
)
def test_a_bad_site_override_is_an_error_that_says_what_is_wrong(overrides: object, message: str) -> None:
    with pytest.raises(ExtractionSettingError, match=message):
        site_configs(Settings({"EXTRACTION_SITE_OVERRIDES": overrides}))
