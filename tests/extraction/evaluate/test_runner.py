"""`run_method`: a method's run keeps its blocks, site-level methods learn from the rest of their site, and
every registered method reads every aeb page; warm-up calls are untimed, and `run_rounds` rotates the order
of repeated passes and keeps each extractor's fastest."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import ClassVar

import pytest
from lxml import etree

from extraction.evaluate import runner
from extraction.evaluate.datasets import Dataset, Page, load_dataset
from extraction.evaluate.peers import Extractor, cleancrawl
from extraction.evaluate.runner import Run, run_extractor, run_method, run_rounds
from extraction.methods.base import Method, SitePage
from extraction.methods.domlocate import DomLocateParams
from extraction.methods.registry import METHODS
from extraction.prepare import PreparedPage
from extraction.result import ExtractionResult

ARTICLE = "<html><body><p>One paragraph of an article, long enough to keep.</p></body></html>"


class Recorder(Method, name="recorder"):
    """A site-level method that records what it learned before each extraction."""

    paper = "test double"
    site_level: ClassVar[bool] = True
    learned: ClassVar[dict[str | None, list[str | None]]] = {}

    def learn(self, pages: Sequence[SitePage]) -> None:
        self.seen = [page.url for page in pages]

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        if "boom" in str(source.html):
            raise RuntimeError("a bug")
        Recorder.learned[source.url] = self.seen
        return prepared.result


def page(page_id: str, site: str | None, html: str = ARTICLE) -> Page:
    return Page(page_id, html, "truth", url=f"https://{site or 'nosite'}.test/{page_id}", site=site)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    Recorder.learned = {}
    monkeypatch.setattr(runner, "get_method", lambda name, config=None, params=None: Recorder(config))
    return Recorder


def test_site_level_methods_learn_from_the_other_pages_of_the_site(recorder: type[Recorder]) -> None:
    pages = [page("1", "a"), page("2", "b"), page("3", "a"), page("4", None), page("5", "a")]
    run = run_method("recorder", pages)
    assert run.failures == 0 and len(run.predictions) == 5
    assert recorder.learned == {
        "https://a.test/1": ["https://a.test/3", "https://a.test/5"],
        "https://b.test/2": [],
        "https://a.test/3": ["https://a.test/1", "https://a.test/5"],
        "https://nosite.test/4": [],
        "https://a.test/5": ["https://a.test/1", "https://a.test/3"],
    }


def test_refused_input_is_an_empty_prediction_and_a_bug_names_the_page(recorder: type[Recorder]) -> None:
    run = run_method("recorder", [page("1", "a", html=""), page("2", "a")])
    assert (run.failures, run.predictions["1"], run.blocks["1"]) == (1, "", [])
    with pytest.raises(RuntimeError) as raised:
        run_method("recorder", [page("1", "a"), page("2", "a", html="<p>boom</p>")])
    assert "recorder failed on page 2" in raised.value.__notes__


def test_a_peer_run_keeps_no_blocks_even_when_it_fails() -> None:
    def run(html: str, url: str | None) -> str:
        if "boom" in html:
            raise ValueError("a peer's own error")
        return html

    result = run_extractor(Extractor("peer", run), [page("1", "a"), page("2", "a", html="boom")])
    assert (result.failures, result.predictions["2"], result.blocks) == (1, "", {})


def test_a_method_run_keeps_its_blocks() -> None:
    pages = [page("1", "a", html=ARTICLE.replace("</p>", '</p><ul><li><a href="/">Home</a></li></ul>'))]
    params = DomLocateParams(min_text_chars=10, max_link_density=0.05)
    run = run_method("domlocate", pages, params=params)
    outcomes = run.blocks["1"]
    assert [(outcome.text, outcome.content) for outcome in outcomes] == [
        ("One paragraph of an article, long enough to keep.", True),
        ("Home", False),
    ]
    assert run.predictions["1"] == "One paragraph of an article, long enough to keep."


@pytest.fixture(scope="module")
def aeb(aeb_dir: Path) -> Dataset:
    return load_dataset(aeb_dir)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_reads_every_aeb_page(aeb: Dataset, name: str) -> None:
    run = run_method(name, aeb.pages)
    assert run.failures == 0
    assert len(run.predictions) == len(aeb.pages) == 181
    for page_id, text in run.predictions.items():
        assert text == "\n".join(outcome.text for outcome in run.blocks[page_id] if outcome.content)
    assert sum(bool(text) for text in run.predictions.values()) > 150, "most articles keep some text"


def test_warm_up_calls_are_untimed_and_leave_no_trace() -> None:
    calls: list[str | None] = []

    def run(html: str, url: str | None) -> str:
        if not calls:
            time.sleep(0.3)  # a first call that pays for a lazy import
        calls.append(url)
        return html

    pages = [page("1", "a"), page("2", "a"), page("3", "a")]
    result = run_extractor(Extractor("peer", run), pages, warmup=2)
    urls = [p.url for p in pages]
    assert calls == [*urls[:2], *urls]
    assert result.seconds < 0.3
    assert list(result.predictions) == ["1", "2", "3"] and result.failures == 0


def test_a_tolerated_failure_during_warm_up_is_not_counted() -> None:
    def run(html: str, url: str | None) -> str:
        raise ValueError("refused")

    result = run_extractor(Extractor("peer", run), [page("1", "a")], warmup=1)
    assert result.failures == 1 and result.predictions == {"1": ""}


def fake_pass(name: str, order: list[str], seconds: list[float]) -> Callable[[], Run]:
    """A timed pass that records when it ran and takes the next of `seconds`, predicting its pass number."""

    def timed() -> Run:
        order.append(name)
        number = sum(1 for ran in order if ran == name)
        return Run(name, {"1": f"pass {number}"}, 0, seconds[number - 1], float(number), 100.0 + number)

    return timed


def test_rounds_rotate_the_order_and_keep_the_fastest_pass() -> None:
    order: list[str] = []
    passes = [fake_pass("a", order, [3.0, 1.0, 2.0]), fake_pass("b", order, [1.0, 2.0, 3.0])]
    passes.append(fake_pass("c", order, [5.0, 5.0, 4.0]))
    runs = run_rounds(passes, repeat=3)
    assert order == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert [run.name for run in runs] == ["a", "b", "c"]
    assert [run.seconds for run in runs] == [1.0, 1.0, 4.0]
    assert all(run.predictions == {"1": "pass 1"} and run.passes == 3 for run in runs)
    assert all((run.peak_memory_mb, run.peak_rss_mb) == (3.0, 103.0) for run in runs)


def test_repeated_passes_over_real_pages_predict_what_one_pass_does(fixtures_dir: Path) -> None:
    pages = [
        Page(path.stem, path.read_text(encoding="utf-8"), "truth", url=f"https://example.test/{path.stem}")
        for path in sorted(fixtures_dir.glob("*.html"))
    ]
    assert len(pages) >= 3
    once = run_extractor(cleancrawl(), pages)
    best = run_rounds([partial(run_extractor, cleancrawl(), pages, warmup=2)], repeat=2)[0]
    assert best.predictions == once.predictions and any(once.predictions.values())
    assert best.passes == 2 and once.passes == 1 and best.seconds > 0
