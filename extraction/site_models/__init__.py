"""Cross-page site models: what the pages of one template share is template, not content.

`signature` groups a host's pages by template, `frequency` counts on how many pages of a cluster each
block (or near-identical block) appears, `entropy` scores blocks by Lin & Ho's term entropy, and
`slots` learns what each place of the template holds and where the content region is, and
`model.SiteModel` combines them into revised labels; `config.SiteModelConfig` holds their thresholds.
Plain data in and out: a crawl keeps what they need in its store.
"""

from extraction.site_models.config import SiteModelConfig
from extraction.site_models.frequency import BlockKey, block_key
from extraction.site_models.model import Decision, SiteModel, stored_block
from extraction.site_models.signature import (
    Cluster,
    SharedClusters,
    SiteClusters,
    best_cluster,
    encode_signature,
    layout_signature,
    page_signature,
    settled_clusters,
    signature_key,
    similarity,
)

__all__ = [
    "BlockKey",
    "Cluster",
    "Decision",
    "SharedClusters",
    "SiteClusters",
    "SiteModel",
    "SiteModelConfig",
    "best_cluster",
    "block_key",
    "encode_signature",
    "layout_signature",
    "page_signature",
    "settled_clusters",
    "signature_key",
    "similarity",
    "stored_block",
]
