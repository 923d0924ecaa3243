"""The crawl's records: what the spider makes of a page, what the pipelines pass on and the store keeps.

Neither the Scrapy project (`crawler`) nor the pipelines own these: both speak them, and the import graph is
a line, extraction <- records <- pipelines <- crawler. Nothing here imports Scrapy or SQLAlchemy.
"""

from records import stats
from records.pages import BlockRecord, PageRecord
from records.sites import site_of

__all__ = ["BlockRecord", "PageRecord", "site_of", "stats"]
