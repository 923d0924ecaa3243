"""Scrapy settings -> ExtractionConfig: names, type conversion, unknown names."""

from __future__ import annotations

import dataclasses

import pytest
from scrapy.settings import Settings

from extraction import ExtractionConfig
from extraction.methods.registry import METHODS, UnknownMethodError, get_method
from pipelines.config import ExtractionSettingError, extraction_config, setting_name


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
