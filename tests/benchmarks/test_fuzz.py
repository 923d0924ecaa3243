"""The fuzz harness: mutations are reproducible and do what they say; the watchdog catches hangs, crashes
and dead workers; a short run on the fixtures finds nothing; replay reproduces a saved finding."""

from __future__ import annotations

import codecs
import os
import random
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks import fuzz
from benchmarks.fuzz import FuzzInput, Mutated
from tests.conftest import FIXTURES_DIR

PAGE = FuzzInput((FIXTURES_DIR / "news_foxbusiness.html").read_bytes(), "utf-8")
SEEDS = range(12)
_MB = 1024 * 1024


def _mutate(name: str, seed: int, data: FuzzInput = PAGE) -> Mutated:
    return fuzz.MUTATIONS[name](data, random.Random(seed))


@pytest.mark.parametrize("name", list(fuzz.MUTATIONS))
def test_each_mutation_is_the_same_for_a_seed_and_changes_the_page(name: str) -> None:
    for seed in range(4):
        first, again = _mutate(name, seed), _mutate(name, seed)
        assert first == again
        assert first.input != PAGE
    assert len({_mutate(name, seed).input for seed in SEEDS}) > 1


def _numbers(detail: str) -> list[int]:
    return [int(number) for number in re.findall(r"\d+", detail)]


def _check_truncate(out: Mutated) -> None:
    assert len(out.input.body) < len(PAGE.body) and PAGE.body.startswith(out.input.body)


def _check_flip_bytes(out: Mutated) -> None:
    body = out.input.body
    assert len(body) == len(PAGE.body)
    changed = sum(a != b for a, b in zip(body, PAGE.body, strict=True))
    assert changed == _numbers(out.detail)[0] > 0


def _check_delete_range(out: Mutated) -> None:
    start, end = _numbers(out.detail)
    assert out.input.body == PAGE.body[:start] + PAGE.body[end:] and end > start


def _check_duplicate_range(out: Mutated) -> None:
    length, start, copies, at = _numbers(out.detail)
    piece = PAGE.body[start : start + length]
    assert out.input.body == PAGE.body[:at] + piece * copies + PAGE.body[at:] and length > 0


def _check_duplicate_tags(out: Mutated) -> None:
    added = sum(int(copies) for copies in re.findall(r" x(\d+)", out.detail))
    opening = len(fuzz._OPEN_TAG.findall(out.input.body)) - len(fuzz._OPEN_TAG.findall(PAGE.body))
    assert opening >= added > 0


def _check_unclose_tags(out: Mutated) -> None:
    body = out.input.body
    if "closing tags dropped" in out.detail:
        dropped, total = _numbers(out.detail)
        assert len(fuzz._CLOSE_TAG.findall(body)) == total - dropped < total
    else:
        assert len(body) > len(PAGE.body) and "unclosed" in out.detail


def _check_swap_charset(out: Mutated) -> None:
    match = fuzz._META_CHARSET.search(out.input.body)
    assert match is not None and match.group(2).decode("latin-1").lower() != "utf-8"
    assert f"-> {match.group(2).decode('latin-1')!r}" in out.detail


def _check_invalid_utf8(out: Mutated) -> None:
    PAGE.body.decode("utf-8")
    with pytest.raises(UnicodeDecodeError):
        out.input.body.decode("utf-8")


def _check_deep_nesting(out: Mutated) -> None:
    levels = _numbers(out.detail)[0]
    added = len(fuzz._OPEN_TAG.findall(out.input.body)) - len(fuzz._OPEN_TAG.findall(PAGE.body))
    assert added >= levels >= 1000


def _check_huge_attribute(out: Mutated) -> None:
    assert re.search(rb'\s[\w-]+="[^"<>]{1000000,}"', out.input.body)


def _check_huge_text(out: Mutated) -> None:
    assert len(out.input.body) - len(PAGE.body) >= _MB - 8
    assert re.search(rb"[^<>]{1000000,}", out.input.body)


def _check_many_attributes(out: Mutated) -> None:
    largest = max(tag.count(b'="') for tag in re.findall(rb"<[^<>]+>", out.input.body))
    assert largest >= _numbers(out.detail)[0] >= 100


def _control_count(body: bytes) -> int:
    """C0 controls and DEL, and C1 controls encoded in UTF-8."""
    c1 = len(re.findall(rb"\xc2[\x80-\x9f]", body))
    return sum(body.count(bytes((code,))) for code in fuzz._CONTROLS) + c1


def _check_control_chars(out: Mutated) -> None:
    assert _control_count(out.input.body) > _control_count(PAGE.body)


def _check_bom_mismatch(out: Mutated) -> None:
    # The longest BOM that matches: the UTF-32-LE one starts with the UTF-16-LE one.
    name = max((bom, name) for name, bom in fuzz._BOMS if out.input.body.startswith(bom))[1]
    assert f"{name} BOM" in out.detail
    declared = out.detail.split("declared ", 1)[1].split(",")[0]
    assert codecs.lookup(declared).name != codecs.lookup(name).name


def _check_binary_prefix(out: Mutated) -> None:
    assert out.input.body.endswith(PAGE.body) and len(out.input.body) > len(PAGE.body)


def _check_grammar(out: Mutated) -> None:
    assert out.input.body != PAGE.body and out.input.charset == PAGE.charset
    out.input.body.decode("utf-8", errors="surrogatepass")


def _check_combination(out: Mutated) -> None:
    names = [part.split(" (", 1)[0] for part in out.detail.split(" + ")]
    assert 2 <= len(names) <= 3 and set(names) <= set(fuzz.COMBINABLE)


CHECKS: dict[str, Callable[[Mutated], None]] = {name: globals()[f"_check_{name}"] for name in fuzz.MUTATIONS}


@pytest.mark.parametrize("name", list(fuzz.MUTATIONS))
def test_each_mutation_does_what_it_says(name: str) -> None:
    for seed in SEEDS:
        CHECKS[name](_mutate(name, seed))


def test_the_charset_mutations_change_the_header_hint_too() -> None:
    headers = {_mutate("swap_charset", seed).input.charset for seed in range(40)}
    assert None in headers and len(headers - {"utf-8", None}) > 5


def test_inputs_are_built_again_identically_from_their_case() -> None:
    corpus = fuzz.fixtures_corpus()
    cases = [fuzz.make_case(7, index, list(fuzz.TARGETS), len(corpus.pages)) for index in range(40)]
    assert {case.mutation for case in cases} == set(fuzz.MUTATIONS)
    assert [case.target for case in cases[:4]] == ["extract", "spider", "extract", "spider"]
    for case in cases[:20]:
        assert fuzz.build_input(case, corpus.pages) == fuzz.build_input(case, corpus.pages)


def test_without_the_shared_data_sets_the_fixtures_are_used(tmp_path: Path) -> None:
    corpus = fuzz.find_corpus(tmp_path)
    assert corpus.labels and all(label.startswith("fixtures/") for label in corpus.labels)
    assert len(corpus.missing) == 2


def test_a_short_run_on_the_fixtures_finds_no_crash(tmp_path: Path) -> None:
    settings = fuzz.RunSettings(inputs=200, seed=0, workers=2, out=tmp_path)
    report = fuzz.run(settings, fuzz.fixtures_corpus())
    assert report.crashes == 0 and report.hangs == 0, report.tally.findings
    assert report.tally.total.inputs == 200
    assert set(report.tally.targets) == {"extract", "spider"}
    assert set(report.tally.mutations) == set(fuzz.MUTATIONS)
    assert len((tmp_path / "inputs.jsonl").read_text().splitlines()) == 200
    assert "worst time per page" in "\n".join(report.lines())


# Targets for the harness's own tests; module level, so that spawned workers can import them.


def sleeping_target(data: FuzzInput, url: str) -> str:
    time.sleep(60)
    return "woke up"


def spinning_target(data: FuzzInput, url: str) -> str:
    while True:
        pass


def raising_target(data: FuzzInput, url: str) -> str:
    raise RuntimeError(f"boom on {len(data.body)} bytes")


def dying_target(data: FuzzInput, url: str) -> str:
    os.kill(os.getpid(), signal.SIGSEGV)
    return "unreachable"


def greedy_target(data: FuzzInput, url: str) -> str:
    return str(len(bytearray(1024 * _MB)))


def _harness_run(
    tmp_path: Path, target: fuzz.Target, inputs: int, time_cap: float = 5.0, memory_mb: int = 2048
) -> fuzz.Report:
    """A run of `target` alone, one worker, no warm-up (these targets need none)."""
    settings = fuzz.RunSettings(inputs, 0, 1, fuzz.Limits(time_cap, memory_mb), out=tmp_path)
    return fuzz.run(settings, fuzz.fixtures_corpus(), {"test": target}, warm=None)


def _findings(tmp_path: Path) -> list[str]:
    return sorted(path.name for path in tmp_path.glob("*.html*"))


def test_the_watchdog_kills_a_hung_worker_and_goes_on(tmp_path: Path) -> None:
    # A worker that waits at no CPU is killed at the backstop (3x the cap of wall time).
    started = time.monotonic()
    report = _harness_run(tmp_path, sleeping_target, 2, time_cap=0.3)
    assert report.hangs == 2 and report.restarts == 2
    assert time.monotonic() - started < 30
    assert len(_findings(tmp_path)) == 2 and all("-hang.html" in name for name in _findings(tmp_path))
    assert all("s CPU): worker killed" in finding for finding in report.tally.findings)


def test_the_watchdog_kills_a_spinning_worker_once_it_has_had_the_cap_in_cpu(tmp_path: Path) -> None:
    report = _harness_run(tmp_path, spinning_target, 1, time_cap=0.5)
    assert report.hangs == 1
    assert report.tally.total.worst >= 0.4  # its CPU time, close to the cap


def test_an_exception_is_a_crash_with_its_traceback(tmp_path: Path) -> None:
    report = _harness_run(tmp_path, raising_target, 4)
    assert report.crashes == 4 and report.restarts == 0
    assert all("RuntimeError: boom" in finding for finding in report.tally.findings)
    assert len(_findings(tmp_path)) == 4


def test_a_dead_worker_is_a_crash_and_is_replaced(tmp_path: Path) -> None:
    report = _harness_run(tmp_path, dying_target, 2)
    assert report.crashes == 2 and report.restarts == 2
    assert all("signal SIGSEGV" in finding for finding in report.tally.findings)


def test_the_memory_cap_turns_a_huge_allocation_into_a_crash(tmp_path: Path) -> None:
    report = _harness_run(tmp_path, greedy_target, 2, memory_mb=512)
    assert report.crashes == 2 and report.restarts == 2
    assert all("MemoryError" in finding for finding in report.tally.findings)


def test_replay_reproduces_a_saved_finding(tmp_path: Path) -> None:
    _harness_run(tmp_path, raising_target, 2)
    saved = tmp_path / _findings(tmp_path)[0]
    body, record = fuzz.read_finding(saved)
    assert record["kind"] == "crash" and record["replay"].endswith(saved.name)
    assert fuzz.build_input(fuzz.Case(0, record["index"], "test", record["mutation"], 0),
                            [FIXTURES_DIR / record["page"].split("/", 1)[1]]).input == body  # fmt: skip
    _, outcome = fuzz.replay(saved, targets={"test": raising_target}, warm=None)
    assert outcome.status == "crash"
    assert f"boom on {record['size']} bytes" in outcome.note


def test_replay_runs_the_real_targets(tmp_path: Path) -> None:
    findings = fuzz.Findings(tmp_path)
    case = fuzz.Case(0, 5, "spider", "truncate", 0)
    saved = findings.save(case, "slow", PAGE, {"detail": "the fixture itself"})
    record, outcome = fuzz.replay(saved, fuzz.Limits(time_cap=30))
    assert record["target"] == "spider" and outcome.status == "ok"
    assert outcome.note.startswith("1 pages")


def failing_warm_up() -> None:
    raise ImportError("the code under test does not import")


def test_a_worker_that_cannot_start_stops_the_run_with_a_report(tmp_path: Path) -> None:
    settings = fuzz.RunSettings(inputs=5, workers=1, out=tmp_path)
    report = fuzz.run(settings, fuzz.fixtures_corpus(), {"test": raising_target}, warm=failing_warm_up)
    assert "did not start" in report.stopped and report.tally.total.inputs == 0
    assert report.lines()[0].startswith("STOPPED EARLY")
    assert (tmp_path / "summary.json").is_file()
