"""Items the `site` spider yields and the pipelines pass along (Scrapy dataclass items via itemadapter).

The contract between the crawl and the pipelines: the spider fills in what the response and `extraction`
give; `pipelines/cluster.py` sets `site` and `cluster`; `pipelines/noise.py` revises labels and sets
`content_hash`; `pipelines/store.py` persists the item. No HTML travels past the spider.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from extraction import Block, ExtractionResult


@dataclass(slots=True)
class BlockRecord:
    """One block of a page as it is stored: its hash always, its text only when it is content."""

    position: int
    hash: str
    label: str
    reason: str
    path: str
    kind: str
    text: str

    @classmethod
    def of(cls, block: Block) -> BlockRecord:
        """The record of an extracted block."""
        return cls(
            block.position,
            block.hash,
            block.label.value,
            block.reason,
            block.path,
            block.kind.value,
            block.text,
        )


@dataclass(slots=True)
class PageItem:
    """One crawled HTML page after extraction."""

    url: str
    final_url: str
    status: int
    fetched_at: datetime
    title: str
    encoding: str
    raw_html_bytes: int
    visible_text_bytes: int
    blocks: list[BlockRecord] = field(default_factory=list)
    site: str = ""
    cluster: str = ""
    content_hash: str = ""

    @classmethod
    def of(
        cls, result: ExtractionResult, url: str, status: int, raw_html_bytes: int, fetched_at: datetime
    ) -> PageItem:
        """The item of one extracted page, identified by `url` (its final URL in a crawl)."""
        return cls(
            url=url,
            final_url=url,
            status=status,
            fetched_at=fetched_at,
            title=result.title,
            encoding=result.encoding,
            raw_html_bytes=raw_html_bytes,
            visible_text_bytes=len(result.visible_text.encode("utf-8")),
            blocks=[BlockRecord.of(block) for block in result.blocks],
        )

    @property
    def content_text(self) -> str:
        """The informative text of the page, blocks in page order, one per line."""
        return "\n".join(block.text for block in self.blocks if block.label == "content")
