"""Seed 004's CETR (Weninger, Hsu and Han, content extraction via tag ratios): a line of the source is
content when its tag ratio stands out from the page's.

Steps: (1) the page without scripts, remarks and styles (`extraction.prepare`), serialised; empty lines
removed, and lines wrapped at `line_chars` (65) characters, as CETR does for pages written on a few
long lines; (2) the tag ratio of each line: its non-tag characters over its tags (a line without tags
counts one); (3) a Gaussian smoothing pass (`smoothing_sigma` 1, `smoothing_radius` 3 lines);
(4) the content lines, by one of three models (`CetrParams.model`):
- "tm", CETR-TM: the smoothed ratio is at least tau = lambda * its standard deviation
  (`threshold_lambda` 1);
- "km", CETR-KM: k-means of the smoothed ratios (`clusters` 3); the cluster whose centroid is
  nearest the origin is not content, the others are;
- "2d", CETR's 2-D model (the paper's recommendation, the default): each line is the point (smoothed
  ratio, smoothed absolute derivative), the derivative being the distance of the ratio from the mean of
  the next alpha lines (`derivative_lines` 3); k-means with one centroid held at the origin, whose
  cluster is not content.
"""

from __future__ import annotations

import html as html_module
import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from lxml import etree

from extraction.config import ExtractionConfig
from extraction.methods.base import Method, Params, SitePage
from extraction.methods.common import page_hrefs
from extraction.prepare import PreparedPage, result_reason, truncated
from extraction.result import Block, BlockKind, ExtractionResult, Label
from extraction.segment import LINE_BREAKING_TAGS

MODELS = ("tm", "km", "2d")
_TOKENS = re.compile(r"<[^>]*>|[^<]+")
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)")
# Marks where a breaking tag stood in a line's text; not a character of the page (segment uses \x1e too).
_BREAK = "\x1e"

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Line:
    """One source line: its tags, its characters outside tags (ends stripped), and its text to read (a
    space where a block-level tag or <br> stood, so that "a</td><td>b" stays two words)."""

    tags: int
    chars: int
    text: str


def source_lines(markup: str, width: int) -> list[Line]:
    """The non-empty lines of `markup`, each wrapped once it reaches `width` characters (between tags, or at
    a space of the text). A tag whose attributes span lines counts on the line where it starts."""
    builder = _LineBuilder(width)
    for token in _TOKENS.findall(markup):
        if token.startswith("<"):
            builder.add_tag(token)
        else:
            first, *others = token.split("\n")
            builder.add_text(first)
            for text in others:
                builder.end_line()
                builder.add_text(text)
    builder.end_line()
    return builder.lines


class _LineBuilder:
    """The line being read: its tags, its text so far and its length in source characters."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[Line] = []
        self.tags = 0
        self.parts: list[str] = []
        self.length = 0

    def add_tag(self, tag: str) -> None:
        self.tags += 1
        self.length += len(tag)
        name = _TAG_NAME.match(tag)
        if name and name.group(1).lower() in LINE_BREAKING_TAGS:
            self.parts.append(_BREAK)
        if self.length >= self.width:
            self.end_line()

    def add_text(self, text: str) -> None:
        # An offset into the text rather than slicing off its rest: a text node can be megabytes long.
        start = 0
        while self.length + len(text) - start > self.width:
            cut = text.find(" ", start + self.width - self.length)
            if cut < 0:
                break
            self.parts.append(text[start:cut])
            self.end_line()
            start = cut + 1
        self.parts.append(text[start:])
        self.length += len(text) - start
        if self.length >= self.width:
            self.end_line()

    def end_line(self) -> None:
        """Close the line; an empty one (no tag, only whitespace) is dropped, as CETR drops empty lines."""
        text = "".join(self.parts)
        chars = len(text.replace(_BREAK, "").strip())
        if self.tags or chars:
            self.lines.append(Line(self.tags, chars, " ".join(text.replace(_BREAK, " ").split())))
        self.tags, self.parts, self.length = 0, [], 0


def tag_ratios(lines: list[Line]) -> Floats:
    """Each line's text characters over its tags, a line without tags counting one."""
    return np.array([line.chars / max(line.tags, 1) for line in lines], dtype=float)


def smooth(values: Floats, sigma: float, radius: int) -> Floats:
    """Gaussian smoothing with a kernel of `radius` values each side, normalised to sum 1."""
    offsets = np.arange(-radius, radius + 1, dtype=float)
    kernel = np.exp(-(offsets**2) / (2 * sigma**2))
    kernel /= kernel.sum()
    return np.convolve(values, kernel, mode="full")[radius : radius + len(values)]


def derivatives(values: Floats, ahead: int) -> Floats:
    """|mean of the next `ahead` values - the value| (0 for the last value, which has none ahead)."""
    count = len(values)
    sums = np.concatenate(([0.0], np.cumsum(values)))
    positions = np.arange(count)
    ends = np.minimum(positions + 1 + ahead, count)
    spans = ends - positions - 1
    means = np.divide(sums[ends] - sums[positions + 1], spans, out=values.copy(), where=spans > 0)
    distances: Floats = np.abs(means - values)
    return distances


def away_from_origin(
    points: Floats, clusters: int, iterations: int, fixed_origin: bool
) -> npt.NDArray[np.bool_]:
    """k-means of the points: True for those outside the cluster whose centroid is nearest the origin.

    With `fixed_origin` one centroid stays at the origin (CETR's 2-D model). Deterministic: the centroids
    start at points spread evenly by their distance from the origin.
    """
    order = np.argsort(np.linalg.norm(points, axis=1), kind="stable")
    picks = np.linspace(0, len(points) - 1, clusters).round().astype(np.int64)
    centroids = points[order[picks]].copy()
    if fixed_origin:
        centroids[0] = 0.0
    labels = np.full(len(points), -1, dtype=np.int64)
    for _ in range(iterations):
        distances = np.linalg.norm(points[:, None, :] - centroids[None, :, :], axis=2)
        updated = distances.argmin(axis=1)
        if np.array_equal(updated, labels):
            break
        labels = updated
        for cluster in range(1 if fixed_origin else 0, clusters):
            members = points[labels == cluster]
            if len(members):
                centroids[cluster] = members.mean(axis=0)
    result: npt.NDArray[np.bool_] = labels != int(np.linalg.norm(centroids, axis=1).argmin())
    return result


@dataclass(frozen=True, slots=True)
class CetrParams(Params):
    """CETR's parameters (settings ``EXTRACTION_CETR_*``)."""

    prefix = "cetr"
    # The model: "tm" (threshold), "km" (k-means) or "2d" (k-means over the smoothed tag ratio and its
    # derivative, the paper's best).
    model: str = "2d"
    # Source lines are wrapped at this many characters (minified pages).
    line_chars: int = 65
    # Gaussian smoothing.
    smoothing_sigma: float = 1.0
    smoothing_radius: int = 3
    # TM's threshold tau = lambda * standard deviation.
    threshold_lambda: float = 1.0
    # Alpha, the lines ahead averaged for the derivative (2-D).
    derivative_lines: int = 3
    # k clusters, k-means iterations at most.
    clusters: int = 3
    max_iterations: int = 100

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"the CETR model must be one of {', '.join(MODELS)}, not {self.model!r}")


class Cetr(Method[CetrParams], name="cetr"):
    """Seed 004's CETR: tag ratios per source line, smoothed, then TM, KM or the 2-D model."""

    paper = "seed 004: CETR, tag ratios per line, smoothed; threshold, k-means or 2-D clustering"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label each text line of the page content or noise by its smoothed tag ratio."""
        config, params, result = self.config, self.params, prepared.result
        result.hrefs = page_hrefs(body)
        markup = etree.tostring(body, method="html", encoding="unicode")
        lines = source_lines(markup, params.line_chars)
        ratios = smooth(tag_ratios(lines), params.smoothing_sigma, params.smoothing_radius)
        content, why = self._select(ratios)
        model = f"CETR-{params.model.upper()}"
        result.blocks, cut_short = _blocks(lines, ratios, content, why, config, model)
        cut = truncated(cut_short, config.max_blocks, "lines with text")
        result.reason = result_reason(result.blocks, "no line stands out", cut, result.reason)
        return result

    def _select(self, ratios: Floats) -> tuple[npt.NDArray[np.bool_], tuple[str, str]]:
        """Which lines are content, and the reasons of a content and of a noise line."""
        params = self.params
        if not len(ratios):
            return np.zeros(0, dtype=bool), ("", "")
        if params.model == "tm":
            tau = params.threshold_lambda * float(ratios.std())
            return ratios >= tau, (
                f"smoothed tag ratio at least tau {tau:.1f}",
                f"smoothed tag ratio under tau {tau:.1f}",
            )
        if params.model == "km":
            points = ratios[:, None]
        else:
            slopes = smooth(
                derivatives(ratios, params.derivative_lines),
                params.smoothing_sigma,
                params.smoothing_radius,
            )
            points = np.column_stack((ratios, slopes))
        content = away_from_origin(
            points, params.clusters, params.max_iterations, fixed_origin=params.model == "2d"
        )
        return content, ("in a cluster away from the origin", "in the cluster nearest the origin")


def _blocks(
    lines: list[Line],
    ratios: Floats,
    content: npt.NDArray[np.bool_],
    why: tuple[str, str],
    config: ExtractionConfig,
    model: str,
) -> tuple[list[Block], bool]:
    """One block per line with text, in page order, and whether `max_blocks` cut them short; each reason
    names the `model`."""
    blocks: list[Block] = []
    for number, line in enumerate(lines):
        text = " ".join(html_module.unescape(line.text).split()) if "&" in line.text else line.text
        if not text:
            continue
        if len(blocks) == config.max_blocks:
            return blocks, True
        block = Block(len(blocks), f"line:{number}", "line", BlockKind.TEXT, text[: config.max_block_chars])
        block.score = float(ratios[number])
        if content[number]:
            block.label, block.reason = Label.CONTENT, f"{model}: {why[0]}"
        else:
            block.reason = f"{model}: {why[1]}"
        blocks.append(block)
    return blocks, False
