"""Seed 004's CETR (Weninger, Hsu and Han, content extraction via tag ratios): a line of the source is
content when its tag ratio stands out from the page's.

Steps: (1) the page without scripts, remarks and styles (`extraction.prepare`), serialised; empty lines
removed, and lines wrapped at `cetr_line_chars` (65) characters, as CETR does for pages written on a few
long lines; (2) the tag ratio of each line: its non-tag characters over its tags (a line without tags
counts one); (3) a Gaussian smoothing pass (`cetr_smoothing_sigma` 1, `cetr_smoothing_radius` 3 lines);
(4) the content lines, by one of three models (`cetr_model`):
- "tm", CETR-TM: the smoothed ratio is at least tau = lambda * its standard deviation
  (`cetr_threshold_lambda` 1);
- "km", CETR-KM: k-means of the smoothed ratios (`cetr_clusters` 3); the cluster whose centroid is
  nearest the origin is not content, the others are;
- "2d", CETR's 2-D model (the paper's recommendation, the default): each line is the point (smoothed
  ratio, smoothed absolute derivative), the derivative being the distance of the ratio from the mean of
  the next alpha lines (`cetr_derivative_lines` 3); k-means with one centroid held at the origin, whose
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
from extraction.methods.base import Method
from extraction.methods.common import NO_TEXT, page_hrefs
from extraction.prepare import join_reasons, prepare
from extraction.result import Block, BlockKind, ExtractionResult, Label
from extraction.segment import BLOCK_TAGS

MODELS = ("tm", "km", "2d")
_TOKENS = re.compile(r"<[^>]*>|[^<]+")
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)")
_BREAKING_TAGS = BLOCK_TAGS | {"br"}
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
        if name and name.group(1).lower() in _BREAKING_TAGS:
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


class Cetr(Method):
    """Seed 004's CETR: tag ratios per source line, smoothed, then TM, KM or the 2-D model.

    Parameters (`ExtractionConfig`): `cetr_model` ("2d"; "tm", "km"), `cetr_line_chars` (65),
    `cetr_smoothing_sigma` (1.0), `cetr_smoothing_radius` (3), `cetr_threshold_lambda` (1.0, TM),
    `cetr_derivative_lines` (alpha = 3, 2-D), `cetr_clusters` (k = 3), `cetr_max_iterations` (100).
    """

    name = "cetr"
    paper = "seed 004: CETR, tag ratios per line, smoothed; threshold, k-means or 2-D clustering"

    def __init__(self, config: ExtractionConfig | None = None) -> None:
        super().__init__(config)
        if self.config.cetr_model not in MODELS:
            raise ValueError(f"cetr_model must be one of {', '.join(MODELS)}, not {self.config.cetr_model!r}")

    def extract(
        self, html: str | bytes, url: str | None = None, encoding: str | None = None
    ) -> ExtractionResult:
        """Label each text line of the page content or noise by its smoothed tag ratio."""
        config = self.config
        prepared = prepare(html, url, config, encoding)
        result, body = prepared.result, prepared.body
        if body is None:
            return result
        result.hrefs = page_hrefs(body)
        markup = etree.tostring(body, method="html", encoding="unicode")
        lines = source_lines(markup, config.cetr_line_chars)
        ratios = smooth(tag_ratios(lines), config.cetr_smoothing_sigma, config.cetr_smoothing_radius)
        content, why = self._select(ratios)
        result.blocks, truncated = _blocks(lines, ratios, content, why, config)
        if not result.blocks:
            reason = NO_TEXT
        elif not any(block.is_content for block in result.blocks):
            reason = "no line stands out"
        else:
            reason = f"only the first {config.max_blocks} lines with text were read" if truncated else ""
        result.reason = join_reasons(reason, result.reason)
        return result

    def _select(self, ratios: Floats) -> tuple[npt.NDArray[np.bool_], tuple[str, str]]:
        """Which lines are content, and the reasons of a content and of a noise line."""
        config = self.config
        if not len(ratios):
            return np.zeros(0, dtype=bool), ("", "")
        if config.cetr_model == "tm":
            tau = config.cetr_threshold_lambda * float(ratios.std())
            return ratios >= tau, (
                f"smoothed tag ratio at least tau {tau:.1f}",
                f"smoothed tag ratio under tau {tau:.1f}",
            )
        if config.cetr_model == "km":
            points = ratios[:, None]
        else:
            slopes = smooth(
                derivatives(ratios, config.cetr_derivative_lines),
                config.cetr_smoothing_sigma,
                config.cetr_smoothing_radius,
            )
            points = np.column_stack((ratios, slopes))
        content = away_from_origin(
            points, config.cetr_clusters, config.cetr_max_iterations, fixed_origin=config.cetr_model == "2d"
        )
        return content, ("in a cluster away from the origin", "in the cluster nearest the origin")


def _blocks(
    lines: list[Line],
    ratios: Floats,
    content: npt.NDArray[np.bool_],
    why: tuple[str, str],
    config: ExtractionConfig,
) -> tuple[list[Block], bool]:
    """One block per line with text, in page order, and whether `max_blocks` cut them short."""
    blocks: list[Block] = []
    model = f"CETR-{config.cetr_model.upper()}"
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
