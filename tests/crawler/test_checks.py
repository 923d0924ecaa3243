"""cleancrawl's own settings checked at start: type, range, and a known name in lower case."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from crawler.addon import apply_defaults
from crawler.checks import SettingError, check_crawl_settings, settings_group
from crawler.focus import FocusWeights
from crawler.traps import TrapLimits


def settings(**values: object) -> Settings:
    result = Settings({"BOT_NAME": "x"})
    apply_defaults(result)
    result.setdict(values, priority="cmdline")
    return result


def test_the_defaults_pass() -> None:
    check_crawl_settings(settings())


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"STORAGE_BATCH_SIZE": "0"}, "STORAGE_BATCH_SIZE=0 is out of range: it must be at least 1"),
        ({"STORAGE_BATCH_SIZE": "many"}, "STORAGE_BATCH_SIZE='many' is not a whole number"),
        (
            {"PROGRESS_INTERVAL_PAGES": "-5"},
            "PROGRESS_INTERVAL_PAGES=-5 is out of range: it must be at least 0",
        ),
        ({"RETRY_AFTER_MAX": "-1"}, "RETRY_AFTER_MAX=-1.0 is out of range"),
        ({"RECRAWL_DEC_RATE": "1.5"}, "RECRAWL_DEC_RATE=1.5 is out of range: it must be from 0 to 1"),
        ({"FOCUS_TEMPLATE_FACTOR": "2"}, "FOCUS_TEMPLATE_FACTOR=2.0 is out of range: it must be from 0 to 1"),
        ({"NOISE_ENABLED": "perhaps"}, "NOISE_ENABLED='perhaps' is not a boolean"),
        ({"database_url": "sqlite:///x.db"}, "unknown setting database_url: setting names are upper case"),
        ({"Extraction_Max_Blocks": "5"}, "did you mean EXTRACTION_MAX_BLOCKS?"),
        ({"download_delay": "5"}, "did you mean DOWNLOAD_DELAY?"),
    ],
)
def test_a_wrong_setting_is_named(values: dict[str, object], message: str) -> None:
    with pytest.raises(SettingError, match=message.replace("?", r"\?").replace("(", r"\(")):
        check_crawl_settings(settings(**values))


def test_lower_case_names_of_nothing_known_are_left_alone() -> None:
    check_crawl_settings(settings(my_own_setting="1"))


def test_a_settings_group_reads_each_field_from_its_setting() -> None:
    limits = settings_group(TrapLimits, settings(TRAP_MAX_QUERY_VARIANTS="7"), "TRAP_")
    assert limits == TrapLimits(100_000, 7, 10_000, 3)
    assert settings_group(FocusWeights, settings(FOCUS_BLOCK_SIGNAL="False"), "FOCUS_").block_signal is False


def test_a_settings_group_checks_what_it_reads() -> None:
    with pytest.raises(SettingError, match="TRAP_MAX_PATTERN_URLS=-1 is out of range"):
        settings_group(TrapLimits, settings(TRAP_MAX_PATTERN_URLS="-1"), "TRAP_")
