"""Cross-page site models: what the pages of one template share is template, not content (issue 4).

`signature` groups a host's pages by template, `frequency` counts on how many pages of a cluster each
block (or near-identical block) appears, `entropy` scores blocks by Lin & Ho's term entropy, and
`slots` learns what each place of the template holds and where the content region is, and
`model.SiteModel` combines them into revised labels. Plain data in and out, so a crawl can persist them.
"""

from extraction.site_models.frequency import BlockKey, block_key
from extraction.site_models.model import Decision, SiteModel, stored_block
from extraction.site_models.signature import (
    Cluster,
    assign,
    best_cluster,
    block_paths_signature,
    decode_signature,
    encode_signature,
    page_signature,
    signature_key,
    similarity,
)

__all__ = [
    "BlockKey",
    "Cluster",
    "Decision",
    "SiteModel",
    "assign",
    "best_cluster",
    "block_key",
    "block_paths_signature",
    "decode_signature",
    "encode_signature",
    "page_signature",
    "signature_key",
    "similarity",
    "stored_block",
]
