"""`run_method`: a method's run keeps its blocks, site-level methods learn from the rest of their site, and
every registered method reads every aeb page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from extraction.config import ExtractionConfig
from extraction.errors import EmptyDocumentError
from extraction.evaluate import runner
from extraction.evaluate.datasets import Dataset, Page, load_dataset
from extraction.evaluate.peers import Extractor
from extraction.evaluate.runner import run_extractor, run_method
from extraction.methods.base import Method, SitePage
from extraction.methods.registry import METHODS
from extraction.result import ExtractionResult

ARTICLE = "<html><body><p>One paragraph of an article, long enough to keep.</p></body></html>"


class Recorder(Method):
    """A site-level method that records what it learned before each extraction."""

    name = "recorder"
    paper = "test double"
    site_level: ClassVar[bool] = True
    learned: ClassVar[dict[str | None, list[str | None]]] = {}

    def learn(self, pages: Sequence[SitePage]) -> None:
        self.seen = [page.url for page in pages]

    def extract(
        self, html: str | bytes, url: str | None = None, encoding: str | None = None
    ) -> ExtractionResult:
        if not html:
            raise EmptyDocumentError("empty")
        if html == "boom":
            raise RuntimeError("a bug")
        Recorder.learned[url] = self.seen
        return ExtractionResult(url, "", [])


def page(page_id: str, site: str | None, html: str = ARTICLE) -> Page:
    return Page(page_id, html, "truth", url=f"https://{site or 'nosite'}.test/{page_id}", site=site)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    Recorder.learned = {}
    monkeypatch.setattr(runner, "get_method", lambda name, config=None: Recorder(config))
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
        run_method("recorder", [page("1", "a"), page("2", "a", html="boom")])
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
    config = ExtractionConfig(domlocate_min_text_chars=10, domlocate_max_link_density=0.05)
    run = run_method("domlocate", pages, config)
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
