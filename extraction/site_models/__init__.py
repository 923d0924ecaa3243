"""Cross-page site models: what the pages of one template share is template, not content (issue 4).

`signature` groups a host's pages by template, `frequency` counts on how many pages of a cluster each
block (or near-identical block) appears, `entropy` scores blocks by Lin & Ho's term entropy, and
`model.SiteModel` combines them into revised labels. Plain data in and out, so a crawl can persist them.
"""

from extraction.site_models.model import Decision, SiteModel
from extraction.site_models.signature import Cluster, assign, page_signature, similarity

__all__ = ["Cluster", "Decision", "SiteModel", "assign", "page_signature", "similarity"]
