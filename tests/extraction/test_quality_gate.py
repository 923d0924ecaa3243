"""Quality gate: F1 (the benchmark's averaging) on 30 pinned pages of each shared dataset stays above a floor.

The pages are pinned by ID: the first 30 IDs in sorted order of aeb, and the first 30 sorted IDs of wcxb-dev
that quality_flags.json does not flag. Pages are loaded and scored with the evaluation harness's own
`load_dataset`, `score_page` and `summarize` (F1 of the mean precision and the mean recall).
Each floor is about 0.03 under the value measured when it was set, rounded down to two decimals; raise it
when extraction improves, never lower it to let a change through.
"""

from __future__ import annotations

from pathlib import Path

from extraction import ExtractionError, extract
from extraction.evaluate.datasets import Dataset, load_dataset
from extraction.evaluate.metric import Summary, score_page, summarize

PAGE_COUNT = 30

# The first 30 sorted aeb IDs.
AEB_IDS = (
    "042bb7b5fedab6eac7db576522b89b93904c237d344bcbe14a6a5ab7f7335856",
    "04a6711caa7c687592777718866e781e976e0fe684faebe8b3cedcef8cd0ea34",
    "05844573ca7e1fba714d715bb11ca08c26e25328999c74a1cb3bc8a0e4399f0f",
    "06e5123e4ef7cfb4533250dc45d1e03d0838fc66223f45c583c4d12f48b4da85",
    "06ee193de4bd611f7fafbab0c59b0f6fe3495093516720632cd093b24c7a0e98",
    "076f4f33bf75059db581bedf36e76fb65e89a8f7752db3339aa3ea11c5122f32",
    "08f793762792bd252c75fb57544cdf506ffcc04785136cb87503f02364b82b56",
    "098bb3e96c0acdf36efdcde45fb9cca3f8c82c7cb2071b76097a1b96155f1eb2",
    "0d46122928b6f468cc4bbc694051d0dbae5702bc75a16dab82a99b58daf150a0",
    "0dd1357045727799a447563fd8851f4ebe79f042073ea16991a9b67aa595f81a",
    "0e014df693f182824fe5e24030ddbe1d0b96ddb9685cf20d5766457ed32ffa2d",
    "0ec95c7261d122f304728e90c983450ef1ce1e0b423546835c397d50aaf0d0f2",
    "11ea381ad92b5448cf66eae62f52ac565361a244c8881615fc6a7bb523cc0c32",
    "14cc2a0ca59c62a8c9f205a171e9ccf4ef4cf69b0c642f51c8c65c051b39024f",
    "156770d676ce79905198e1c8407f81e5ecfb617d9aa44712718707eb7e3b8e38",
    "16c30add7e96315e9cc957d85aa876ccb6b70055f0ddab51547a586117cc1f56",
    "1ace8c85aaee21b9d4505eca506d50c4721c29db62848b567a9703bfe0583892",
    "1ee91d1fce65e09be8b8d2d29eab771546d98ca2ba5c862941e660e9fec12432",
    "1f765c48780665e89cc3af1f7c9af47876e9fae9b5be4a936b0649e10f5e3198",
    "20b2b64916b00b25203c9f1bf14248922f4d522f18328e9f876cce116df0083e",
    "21486419bb109c5a62a68957f528e6ff29c92f58d8d3c1f2837c86ff3f3e11f9",
    "232a43fb15abde807427b2a7bf4f772e27b8760554370956d8291df4e8166dbf",
    "23aaecd14171f96cfd201a8a46666097e286ad71f74f29347a78c5ecba50da1e",
    "264dc3ae31249cb1f50c50986e0952a4708c2e705d18a2d8bf0e525da6e2b485",
    "287e4d9f4af31733aad6534aefb2bd00fb344ec8d6ebf1ac99dbc4d762da0ca4",
    "291a8bf33ee49074f33dcff37544ac40506cae450db83b6cb63f02b9920b51c2",
    "2c46804d9db4a85e8f8d31128ce0e11d02f25c7120c2faa5ec0664c604a47717",
    "2f42ef1d3ea0c96e56355d3db93d0e06b47e760b74f6f4261278b8cd1c246dd6",
    "30b771a40a4e96156d398716c877deef54b05d091770d2717c98e4c6b670010c",
    "3252222e61fe78982cffe0b0bad2b089c27b32f65852d1c5d3951517f3c2e295",
)
# The first 30 sorted wcxb-dev IDs not in quality_flags.json (none of 0001-0030 is flagged).
WCXB_IDS = tuple(f"{number:04d}" for number in range(1, PAGE_COUNT + 1))

# Measured 0.977 (P 0.961, R 0.992) on 2026-11-22 (working tree on commit f63b09d).
AEB_FLOOR = 0.94
# Measured 0.938 (P 0.941, R 0.934) on 2026-11-22 (working tree on commit f63b09d).
WCXB_FLOOR = 0.90


def score(dataset: Dataset) -> Summary:
    """Our extractor over every page, scored as the benchmark does; a refused page is an empty prediction."""
    scores = []
    for page in dataset.pages:
        try:
            prediction = extract(page.html, url=page.url).text
        except ExtractionError:
            prediction = ""
        scores.append(score_page(page.truth, prediction))
    return summarize(scores)


def test_aeb_pinned_pages(aeb_dir: Path) -> None:
    dataset = load_dataset(aeb_dir, limit=PAGE_COUNT)
    assert tuple(page.page_id for page in dataset.pages) == AEB_IDS
    summary = score(dataset)
    assert summary.f1 >= AEB_FLOOR, summary


def test_wcxb_pinned_pages(wcxb_dir: Path) -> None:
    dataset = load_dataset(wcxb_dir, exclude_flagged=True, limit=PAGE_COUNT)
    assert dataset.flagged_excluded > 0  # the flags were read, and none of the pinned pages is flagged
    assert tuple(page.page_id for page in dataset.pages) == WCXB_IDS
    summary = score(dataset)
    assert summary.f1 >= WCXB_FLOOR, summary
