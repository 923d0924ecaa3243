"""A deterministic generated news/blog site: static HTML for a web server, with ground truth and topics.

`generate_site(root, pages, seed)` writes about `pages` HTML files under `root`, as a CMS would publish them:
a home listing with pagination, category and tag listings with pagination, static pages (about, contact,
privacy) and, for the bulk, articles at ``/YYYY/MM/DD/slug/``. Every page has the site template (header
with logo and category menu, a sidebar with a search form, latest posts, related posts on articles, a tag
cloud and a rotating ad, a footer with links and a newsletter form, share buttons, inline CSS and JS).

Article text is pseudo-English prose drawn from general and topical vocabularies (ten categories, each with
its own words), seeded per article, so no two articles share a paragraph and the template's text never
occurs in an article's body. Beside the site (in ``ROOT.meta/`` unless told otherwise) go:

- ``ground_truth.jsonl``: ``{"file", "url_path", "title", "main_text"}`` per article, as in
  ``shared/sites/ground_truth``: main_text is the ``h1`` title, then one line per block of the article's
  ``div.entry-content`` (paragraph, heading, list item, table row with its cells joined by spaces,
  figure caption, quoted paragraph), exactly as rendered;
- ``topics.json``: ``{"categories": {name: description}, "pages": {url_path: [main, secondary...]}}``;
- ``pages.tsv``: every page's url_path, kind, file and size; ``site.json``: the generation's parameters.

The same arguments give byte-identical files, whatever the number of worker processes: every page draws
from its own random generator, seeded from the site's seed and the page's identity.

CLI: ``python -m benchmarks.sitegen OUT_DIR --pages 20000 [--seed 0] [--heavy] [--workers N] [--force]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import random
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, TypeVar

SITE_NAME = "The Common Almanac"
TAGLINE = "Field notes on stars, kitchens, wheels, money, gardens, lenses, wood, birds, boards and boats"
DEFAULT_HEAD_BYTES = 12_000  # inline CSS + JS per page: with the template and body, pages of 20-40 KB
HEAVY_HEAD_BYTES = 82_000  # pages of about 100 KB, as heavy themes with inlined bundles make them
PER_PAGE = 20
STATIC_PAGES = ("about", "contact", "privacy")
MIN_PAGES = 40
_START = datetime(2013, 1, 7, 8, 0)
_SPAN_HOURS = 10 * 365 * 24  # articles spread over ten years, whatever their number
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_TAG_RE = re.compile(r"<[^>]+>")

# --- vocabulary ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Category:
    """A topic: its name (also its slug), a description, and the words that mark its articles."""

    name: str
    description: str
    nouns: tuple[str, ...]
    adjectives: tuple[str, ...]
    verbs: tuple[str, ...]  # base form: "we {verb} the ..."
    tags: tuple[str, ...]


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


CATEGORIES: tuple[Category, ...] = (
    Category(
        "astronomy",
        "Stargazing, telescopes, planets, eclipses and the night sky seen from a back garden.",
        _words(
            "telescope nebula galaxy comet eyepiece planet orbit eclipse meteor constellation asteroid "
            "observatory supernova quasar moon crater starlight parallax spectrum exoplanet equinox "
            "solstice zenith magnitude astronomer satellite cosmos pulsar meridian ecliptic refractor "
            "reflector starfield redshift nova aurora planisphere occultation transit lightyear"
        ),
        _words("celestial lunar stellar orbital planetary luminous interstellar galactic nocturnal cosmic"),
        _words("observe collimate magnify chart photograph track spot focus"),
        _phrases(
            "night sky, deep sky objects, meteor showers, lunar eclipse, star charts, planetary "
            "conjunctions, dark skies, solar system, telescope mounts, variable stars, comets, auroras"
        ),
    ),
    Category(
        "cooking",
        "Recipes, kitchen techniques, pantry staples and the odd disaster at the stove.",
        _words(
            "recipe skillet dough broth saucepan oven garlic onion butter flour marinade pastry spice "
            "vinegar stock yeast caramel risotto chef dumpling pantry seasoning shallot lentils batter "
            "colander whisk casserole saffron sourdough custard brine ginger noodle chutney griddle "
            "stew gravy omelette"
        ),
        _words("savoury crispy tender caramelised zesty smoky creamy fragrant buttery spiced"),
        _words("simmer braise knead whisk roast season marinate sear"),
        _phrases(
            "weeknight dinners, baking, sourdough, soups and stews, spices, vegetarian, preserves, "
            "pasta, desserts, kitchen tools, one pot meals, breakfast"
        ),
    ),
    Category(
        "cycling",
        "Road, gravel and commuting by bicycle: rides, routes, maintenance and kit.",
        _words(
            "bicycle derailleur cadence saddle handlebar chainring sprocket peloton pedal crankset "
            "gravel helmet climb descent tyre spoke rim frame brake cassette commute sprint gradient "
            "mudguard pannier drivetrain velodrome puncture headwind chain freewheel cleat sportive "
            "bidon jersey bikepacking hub singletrack"
        ),
        _words("aerodynamic tubeless geared uphill downhill carbon steel rideable windy muddy"),
        _words("pedal climb descend shift pump overtake draft cycle"),
        _phrases(
            "road cycling, gravel rides, bike maintenance, commuting, bikepacking, racing, "
            "cycling kit, routes, track cycling, tyres, winter riding, touring"
        ),
    ),
    Category(
        "finance",
        "Personal finance without the hype: saving, investing, pensions, taxes and markets.",
        _words(
            "portfolio dividend inflation mortgage bond equity pension savings interest ledger broker "
            "volatility liquidity tax asset annuity yield treasury credit debt retirement valuation "
            "earnings recession shareholder fund index payslip overdraft allowance premium "
            "spreadsheet invoice bank loan currency"
        ),
        _words("fiscal monetary taxable diversified compounded liquid leveraged undervalued annual fixed"),
        _words("invest budget save borrow rebalance hedge diversify compound"),
        _phrases(
            "personal finance, investing, pensions, index funds, taxes, mortgages, budgeting, "
            "interest rates, stock market, saving, retirement, inflation"
        ),
    ),
    Category(
        "gardening",
        "Vegetable beds, borders, compost and the seasons of an ordinary garden.",
        _words(
            "compost seedling perennial mulch trellis soil greenhouse pruning tomato bulb hedge shrub "
            "weed allotment fertiliser rootstock blossom cutting lawn orchard beetroot harvest aphid "
            "germination spade hoe courgette polytunnel cloche dahlia rhubarb wheelbarrow loam "
            "seedbed potting hosepipe"
        ),
        _words("hardy perennial annual leafy flowering evergreen frosty fertile waterlogged sunny"),
        _words("prune sow transplant water weed mulch dig propagate"),
        _phrases(
            "vegetable garden, composting, pruning, seeds, flowers, fruit trees, greenhouse, "
            "allotment, pests, lawn care, herbs, winter garden"
        ),
    ),
    Category(
        "photography",
        "Cameras, lenses, light and composition, from film to mirrorless.",
        _words(
            "lens shutter exposure sensor histogram bokeh viewfinder portrait flash mirrorless zoom "
            "darkroom negative print composition polarizer softbox monochrome filter megapixel "
            "autofocus rangefinder diaphragm aperture emulsion enlarger lightmeter gimbal reflector "
            "framing backlight snapshot photograph camera"
        ),
        _words("overexposed underexposed grainy sharp blurred panoramic telephoto macro tonal candid"),
        _words("frame expose shoot develop meter crop focus bracket"),
        _phrases(
            "film photography, lenses, street photography, portraits, landscapes, lighting, "
            "editing, cameras, macro, black and white, night photography, composition"
        ),
    ),
    Category(
        "woodworking",
        "Hand tools, joinery, finishes and furniture made in a small workshop.",
        _words(
            "chisel dovetail lathe oak walnut joinery mortise tenon bandsaw sandpaper clamp veneer "
            "grain workbench router dowel varnish lumber spokeshave plywood jigsaw mallet rasp "
            "sawdust beech maple cabinet drawer shellac bevel offcut timber splinter handsaw "
            "marquetry bench"
        ),
        _words("planed seasoned glued dovetailed kiln-dried oiled rough-sawn quartersawn square flush"),
        _words("plane saw sand glue carve chisel turn clamp"),
        _phrases(
            "hand tools, joinery, wood finishing, furniture, woodturning, workshop, sharpening, "
            "timber, power tools, carving, cabinets, restoration"
        ),
    ),
    Category(
        "birdwatching",
        "Birds at the feeder, on the estuary and on migration, with notes from the hide.",
        _words(
            "warbler heron plumage migration nest kestrel sparrow wren owl songbird feeder hide "
            "estuary wader raptor egret finch thrush woodpecker birdsong flock binoculars chiffchaff "
            "curlew kingfisher lapwing nightingale goldfinch buzzard swallow fledgling robin starling "
            "marsh ornithologist wingspan"
        ),
        _words("migratory feathered nesting wintering juvenile plumaged avian speckled reedy coastal"),
        _words("spot ring identify feed nest migrate record listen"),
        _phrases(
            "garden birds, bird migration, waders, birds of prey, bird feeders, nesting, "
            "birdsong, owls, estuary birds, bird ringing, seabirds, binoculars"
        ),
    ),
    Category(
        "chess",
        "Openings, endgames, tournaments and famous games, for club players.",
        _words(
            "opening gambit endgame bishop knight rook pawn checkmate castling tournament grandmaster "
            "sacrifice fianchetto zugzwang tempo rating blitz queen stalemate middlegame variation "
            "annotation chessboard clock defence promotion skewer fork pin repertoire simul "
            "puzzle arbiter rapid kingside queenside"
        ),
        _words("positional tactical doubled isolated passed backward strategic sharp drawn winning"),
        _words("castle checkmate sacrifice promote analyse blunder resign capture"),
        _phrases(
            "chess openings, endgames, tactics, tournaments, chess history, blitz, club chess, "
            "grandmaster games, puzzles, chess engines, strategy, correspondence chess"
        ),
    ),
    Category(
        "sailing",
        "Dinghies, cruising yachts, tides, knots and passages along the coast.",
        _words(
            "mainsail jib hull keel tiller mooring harbour regatta dinghy spinnaker anchor tide "
            "rigging mast halyard starboard buoy gybe skipper marina bowline sheet winch cockpit "
            "boom forestay lifejacket chartplotter ketch yacht pontoon leeway ballast crew "
            "galley transom"
        ),
        _words("windward leeward nautical tidal offshore reefed becalmed salty seaworthy coastal"),
        _words("tack gybe moor reef helm anchor hoist navigate"),
        _phrases(
            "dinghy sailing, cruising, racing, knots, tides, navigation, boat maintenance, "
            "sailing holidays, safety at sea, yachts, anchoring, weather"
        ),
    ),
)

_NOUNS = _words(
    "time way year day morning week idea problem question plan result detail moment reason friend "
    "neighbour story method habit season weekend evening mistake list part side book advice "
    "experience choice change step note piece corner hour minute month summer winter spring autumn "
    "afternoon weather town village road river hill field market shop library club meeting class "
    "lesson teacher student family child parent sister brother colleague visitor stranger photo "
    "letter message report article magazine newspaper radio record map guide manual diary journal "
    "routine schedule budget cost price bargain project task job effort attempt test trial "
    "surprise accident chance luck problem answer solution theory rule exception difference pattern "
    "comparison example sample version copy original memory picture sound voice silence noise "
    "light shadow colour shape size weight distance speed height depth edge surface bottom top "
    "middle beginning end start finish goal target standard quality quantity number figure total"
)
_ADJECTIVES = _words(
    "good new old great small large long short early late young quiet loud simple difficult easy "
    "clear strange familiar useful careful patient honest curious cheerful gloomy bright dull warm "
    "cold dry wet heavy light cheap expensive rare common ordinary unusual modest generous stubborn "
    "gentle rough smooth narrow wide steep flat slow quick tidy messy calm busy lazy eager sensible "
    "clever awkward lucky obvious subtle practical elegant sturdy fragile reliable noisy peaceful "
    "remarkable decent reasonable surprising patient thorough brief"
)
_PAST_VERBS = _words(
    "found made took gave kept left brought bought built caught chose drew drove fixed followed "
    "forgot guessed heard held joined learned lost missed moved noticed opened ordered packed "
    "painted planned pulled pushed read remembered repaired returned saw sold sent showed started "
    "stopped studied tested tried turned visited waited walked wanted washed watched wrote changed "
    "checked cleaned counted covered described discovered explained finished helped improved "
    "measured mentioned needed offered prepared promised replaced reached shared suggested"
)
_BASE_VERBS = _words(
    "find make take give keep leave bring build catch choose draw fix follow guess hear hold join "
    "learn miss move notice open order pack paint plan pull push read remember repair return see "
    "send show start stop study test try turn visit wait walk want wash watch write change check "
    "clean count cover describe finish help improve measure mention offer prepare replace share"
)
_ADVERBS = _words(
    "quickly slowly carefully quietly suddenly finally eventually rarely often usually always "
    "sometimes honestly frankly happily sadly gently firmly loosely roughly nearly barely hardly "
    "clearly simply mostly partly largely entirely completely properly badly neatly patiently"
)
_TIMES = _phrases(
    "last Tuesday, on Sunday morning, in the spring, over the winter, one wet afternoon, last year, "
    "early on, after lunch, before dawn, late in the evening, during the holidays, at the weekend, "
    "the following week, a few days later, in the end, at first, by midsummer, in late autumn, "
    "after the storm, on the first warm day, three weeks ago, before the move, on a grey Monday"
)
_PEOPLE = _phrases(
    "my neighbour, a friend of mine, the club secretary, my brother, an old colleague, my aunt, "
    "the man at the shop, our teacher, a reader, my daughter, the previous owner, a retired engineer, "
    "the woman next door, my grandfather, a visitor from the north, the local expert, my partner"
)
_PLACES = _words(
    "Ashford Bramley Carrow Dunmore Elstead Fenwick Glenrothes Harlow Ilkley Kendal Lydney Marlow "
    "Norwood Otley Penrith Quarrington Redruth Selby Tiverton Ulverston Ventnor Whitby Yeovil "
    "Zennor Amberley Barnsley Cromer Dorking Exmouth Frome"
)
_FIRST_NAMES = _words(
    "Alice Ben Chloé Daniel Elena Farid Grace Hugo Isla James Kasia Liam Maya Noah Olga Pedro "
    "Quinn Rosa Sami Tomás Una Viktor Wendy Xavier Yusuf Zoë"
)
_SURNAMES = _words(
    "Abbott Brennan Carvalho Dufresne Ellison Fischer Gallagher Hartley Iqbal Jensen Kowalski "
    "Lindqvist Moreau Novak Okafor Pereira Quigley Rossi Sørensen Takahashi Underwood Varga "
    "Whitmore Yilmaz Zielinski"
)

# Sentence templates. Slots: N noun, A adjective, V past verb, G base verb, D adverb, M time, P person,
# L place, K number, T topical noun, B topical adjective, W topical verb. Digits tell apart two slots of
# one kind ("T2"); they are dropped when filling.
_SENTENCES = (
    "the A T V the N D M",
    "we had to W the T twice before the N felt A",
    "nobody expected the T to be so B, but it was",
    "if you G the T D, the N becomes A and A2",
    "P V that a B T is worth more than a A N",
    "M I V a T in L, and it V2 the whole N",
    "the N of a T depends on the T2, the T3 and, above all, the N2",
    "the T (a B one, as it happens) V the N",
    "“the T is A,” P told me, “but the N is A2”",
    "this is why I D W the T before the T2",
    "there is a A difference between a T and a T2",
    "after K minutes the N was A again",
    "most people G the T first; I prefer to W the T2",
    "it took K attempts to W the T properly",
    "P D V the T, which V2 everyone in L",
    "a B T needs a A N and a little patience",
    "I V the T in L M, and I still remember the N",
    "the first T I V was A, A2 and far too B",
    "what matters is not the T but the N you G with it",
    "in L the T is A, the N A2 and the T2 B",
    "you will W the T more D once the N is A",
    "K of the T came from L, the rest from P",
    "the T V, the T2 V2, and the N simply V3",
    "it is A to W a T without a B T2",
    "M P V the T and V2 the N",
    "I D V the T, so the N stayed A",
    "every T has a N, and every N has a A T2",
    "the B T and the A N have little in common",
)
_QUESTIONS = (
    "why does the T G so D",
    "is a B T really better than a A N",
    "who V the T M",
    "what would you W first, the T or the T2",
)
_CONNECTORS = (", and ", ", but ", "; ", " — ", ", so ", ", although ", ", while ", " because ")
_TITLES = (
    "how to W a B T",
    "K lessons from a A T",
    "why the T matters more than the N",
    "a A guide to the T and the T2",
    "notes on the T: A and A2",
    "what I learned from K years of T",
    "the B T of L",
    "M: a T, a N and a A T2",
    "in praise of the A T",
    "when the T V the N",
    "K ways to W the T",
    "the A N behind the B T",
)
# Two slots or more: a heading with few possible fillings would recur across articles, like template text.
_HEADINGS = (
    "the B T and the N",
    "a note on the A T",
    "what about the T and the T2",
    "the T, the T2 and the N",
    "A T, B T2",
    "in L with a B T",
)
_SMALL_WORDS = frozenset(_words("a an and the of to in on for with at by or but from"))


# A compiled template: its parts (even indices literal, odd indices slot letters) and the slots that
# follow a literal "a ", which becomes "an " before a vowel.
Template = tuple[tuple[str, ...], tuple[int, ...]]


def _compile(templates: Sequence[str]) -> tuple[Template, ...]:
    """Split each template into literal and slot parts, and find its "a SLOT" places."""
    compiled = []
    for template in templates:
        parts = tuple(re.split(r"\b([NAVGDMPLKTBW])\d?\b", template))
        an_slots = tuple(i for i in range(1, len(parts), 2) if re.search(r"(?:^|\W)a $", parts[i - 1]))
        compiled.append((parts, an_slots))
    return tuple(compiled)


_C_SENTENCES = _compile(_SENTENCES)
_C_QUESTIONS = _compile(_QUESTIONS)
_C_TITLES = _compile(_TITLES)
_C_HEADINGS = _compile(_HEADINGS)


def _mix(*parts: object) -> int:
    """A stable 64-bit integer from the parts (Python's `hash` of a str changes between processes)."""
    data = "\x1f".join(str(part) for part in parts).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def _capitalise(text: str) -> str:
    if text.startswith("“"):
        return "“" + text[1:2].upper() + text[2:]
    return text[:1].upper() + text[1:]


def _title_case(text: str) -> str:
    words = text.split(" ")
    return " ".join(
        word if i and word in _SMALL_WORDS else word[:1].upper() + word[1:] for i, word in enumerate(words)
    )


def slugify(text: str) -> str:
    """A URL slug: lower case words joined by hyphens, at most 60 characters, cut at a word boundary."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if len(slug) > 60:
        slug = slug[:60].rsplit("-", 1)[0]
    return slug or "post"


Pools = dict[str, Sequence[str]]
_T = TypeVar("_T")


def _pools(main: Category, secondary: Sequence[Category], markup: Sequence[str] = ()) -> Pools:
    """The word pools of one article: general words, and topical words, most from its main category.

    `markup` adds a few pre-marked topical words (emphasis, a link) to the topical noun pool, so a body
    has one or two inline elements, as written text has.
    """
    nouns = list(main.nouns) * 4
    adjectives = list(main.adjectives) * 4
    verbs = list(main.verbs) * 4
    for other in secondary:
        nouns += other.nouns
        adjectives += other.adjectives
        verbs += other.verbs
    return {
        "N": _NOUNS, "A": _ADJECTIVES, "V": _PAST_VERBS, "G": _BASE_VERBS, "D": _ADVERBS,
        "M": _TIMES, "P": _PEOPLE, "L": _PLACES, "K": tuple(str(k) for k in (2, 3, 4, 5, 6, 7, 8, 9, 12)),
        "T": nouns + list(markup), "B": adjectives, "W": verbs,
    }  # fmt: skip


class Prose:
    """Pseudo-English from templates, each slot filled from the pools with one random generator."""

    def __init__(self, rng: random.Random, pools: Pools) -> None:
        self.random = rng.random
        self.randint = rng.randint
        self.pools = pools

    def choice(self, seq: Sequence[_T]) -> _T:
        """One element; `seq[int(random() * len)]` is three times cheaper than `Random.choice`."""
        return seq[int(self.random() * len(seq))]

    def fill(self, template: Template) -> str:
        """One template with its slots filled."""
        parts, an_slots = template
        out = list(parts)
        pools, random_ = self.pools, self.random
        for i in range(1, len(parts), 2):
            pool = pools[parts[i]]
            out[i] = pool[int(random_() * len(pool))]
        for i in an_slots:
            if out[i][0] in "aeiou":
                out[i - 1] = parts[i - 1][:-1] + "n "
        return "".join(out)

    def sentence(self) -> str:
        """One sentence of 1-3 clauses (some 6, some 40 words), capitalised and punctuated."""
        if self.random() < 0.06:
            return _capitalise(self.fill(self.choice(_C_QUESTIONS))) + "?"
        text = self.fill(self.choice(_C_SENTENCES))
        roll = self.random()
        clauses = 3 if roll < 0.12 else 2 if roll < 0.45 else 1
        for _ in range(clauses - 1):
            text += self.choice(_CONNECTORS) + self.fill(self.choice(_C_SENTENCES))
        return _capitalise(text) + ("!" if self.random() < 0.02 else ".")

    def paragraph(self, low: int = 2, high: int = 7) -> str:
        """Between `low` and `high` sentences."""
        return " ".join(self.sentence() for _ in range(self.randint(low, high)))

    def title(self) -> str:
        """A title-cased headline."""
        return _title_case(self.fill(self.choice(_C_TITLES)))

    def heading(self) -> str:
        """A short subheading, capitalised like a sentence."""
        return _capitalise(self.fill(self.choice(_C_HEADINGS)))

    def phrase(self) -> str:
        """A short noun phrase for list items and table cells."""
        return _capitalise(self.fill(self.choice(_C_PHRASES)))


_C_PHRASES = _compile(("A T", "B T and N", "the N of the T", "a A T from L", "T, B and A", "W the T D"))

# --- the site plan -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Article:
    """One article's identity and what listings show of it (its body is drawn when it is rendered)."""

    index: int
    category: int
    secondary: tuple[int, ...]
    tags: tuple[int, ...]
    author: int
    title: str = ""
    path: str = ""
    published: datetime = _START
    lede: str = ""


@dataclass(slots=True)
class Listing:
    """A paginated list of articles (newest first): the home page, a category or a tag."""

    kind: str  # "home", "category" or "tag"
    name: str
    heading: str
    description: str
    base: str  # url path of page 1, ending in "/"
    members: list[int] = field(default_factory=list)

    def page_count(self, per_page: int) -> int:
        """At least one page, even when empty."""
        return max(1, math.ceil(len(self.members) / per_page))

    def page_path(self, number: int) -> str:
        """The url path of page `number` (1-based)."""
        return self.base if number == 1 else f"{self.base}page/{number}/"


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag: its label, slug and the category it was drawn from."""

    label: str
    slug: str
    category: int


@dataclass(slots=True)
class SitePlan:
    """Everything a page needs from the rest of the site; shared (read-only) by the worker processes."""

    seed: int
    per_page: int
    head_bytes: int
    articles: list[Article]
    tags: list[Tag]
    home: Listing
    categories: list[Listing]
    tag_listings: dict[int, Listing]
    authors: list[str]
    style: str = ""
    script: str = ""
    latest_html: str = ""
    cloud_html: str = ""
    nav_html: str = ""
    listing_order: list[Listing] = field(default_factory=list)  # `listings()`, numbered for the jobs

    def listings(self) -> Iterator[Listing]:
        """Home, categories, then tags in tag order."""
        yield self.home
        yield from self.categories
        yield from (self.tag_listings[key] for key in sorted(self.tag_listings))

    def page_count(self) -> int:
        """How many HTML files the plan makes."""
        listed = sum(listing.page_count(self.per_page) for listing in self.listings())
        return len(self.articles) + listed + len(STATIC_PAGES)


def _all_tags() -> list[Tag]:
    return [Tag(label, slugify(label), c) for c, cat in enumerate(CATEGORIES) for label in cat.tags]


def _draw_identity(seed: int, index: int, tags_of: list[list[int]]) -> Article:
    """Category, secondary categories, tags and author of article `index`: from its own generator only,
    so the first n articles are the same whatever the site's size."""
    rng = random.Random(_mix(seed, "identity", index))
    category = rng.randrange(len(CATEGORIES))
    others = [c for c in range(len(CATEGORIES)) if c != category]
    secondary = tuple(rng.sample(others, rng.choices((0, 1, 2), (55, 30, 15))[0]))
    # Tags: a Zipf-like pick from the main category's tags (a few tags are popular), maybe one secondary.
    own = tags_of[category]
    weights = [1.0 / (rank + 1) for rank in range(len(own))]
    tags = set(rng.choices(own, weights, k=rng.randint(1, 3)))
    if secondary and rng.random() < 0.5:
        tags.add(rng.choice(tags_of[secondary[0]]))
    return Article(index, category, secondary, tuple(sorted(tags)), rng.randrange(8))


def _count_articles(seed: int, pages: int, per_page: int, tags_of: list[list[int]]) -> list[Article]:
    """The largest prefix of articles whose site (articles, listing pages, static pages) fits in `pages`."""
    home, total = 0, len(STATIC_PAGES) + 1 + len(CATEGORIES)  # empty listings still have one page
    per_category = [0] * len(CATEGORIES)
    per_tag: dict[int, int] = {}
    articles: list[Article] = []
    while True:
        article = _draw_identity(seed, len(articles), tags_of)
        added = 1 + (home % per_page == 0 and home > 0)
        home += 1
        for c in (article.category, *article.secondary):
            added += per_category[c] % per_page == 0 and per_category[c] > 0
            per_category[c] += 1
        for t in article.tags:
            added += per_tag.get(t, 0) % per_page == 0
            per_tag[t] = per_tag.get(t, 0) + 1
        if total + added > pages:
            return articles
        total += added
        articles.append(article)


def plan_site(
    pages: int, seed: int = 0, per_page: int = PER_PAGE, head_bytes: int = DEFAULT_HEAD_BYTES
) -> SitePlan:
    """The site's structure: which articles, their titles, paths and dates, and every listing."""
    if pages < MIN_PAGES:
        raise ValueError(f"a generated site needs at least {MIN_PAGES} pages, not {pages}")
    tags = _all_tags()
    # A small site uses few tags, or its tag pages would outnumber its articles: 2 a category at
    # 160 pages, all 12 from about 1,500 pages on.
    per_category = max(2, pages // 120)
    tags_of = [[t for t, tag in enumerate(tags) if tag.category == c] for c in range(len(CATEGORIES))]
    tags_of = [own[:per_category] for own in tags_of]
    articles = _count_articles(seed, pages, per_page, tags_of)
    _name_articles(seed, articles)
    plan = SitePlan(
        seed, per_page, head_bytes, articles, tags,
        home=Listing("home", "home", "Latest posts", TAGLINE, "/"),
        categories=[
            Listing("category", c.name, c.name.capitalize(), c.description, f"/category/{c.name}/")
            for c in CATEGORIES
        ],
        tag_listings={},
        authors=_authors(seed),
    )  # fmt: skip
    _fill_listings(plan)
    plan.listing_order = list(plan.listings())
    _prepare_template(plan)
    return plan


def _authors(seed: int) -> list[str]:
    rng = random.Random(_mix(seed, "authors"))
    firsts = rng.sample(_FIRST_NAMES, 8)
    lasts = rng.sample(_SURNAMES, 8)
    return [f"{first} {last}" for first, last in zip(firsts, lasts, strict=True)]


def _name_articles(seed: int, articles: list[Article]) -> None:
    """Titles (unique), ledes, dates and paths, in publication order (oldest first)."""
    step = _SPAN_HOURS / max(1, len(articles))
    seen_titles: set[str] = set()
    seen_paths: set[str] = set()
    for article in articles:
        rng = random.Random(_mix(seed, "name", article.index))
        prose = Prose(rng, _pools(CATEGORIES[article.category], [CATEGORIES[c] for c in article.secondary]))
        title = prose.title()
        while title in seen_titles:  # a repeated headline would make two articles share text
            title = prose.title()
        seen_titles.add(title)
        article.title = title
        article.lede = prose.sentence()
        hours = article.index * step + rng.random() * step * 0.8
        moment = _START + timedelta(hours=hours, minutes=rng.randrange(60))
        article.published = moment.replace(second=0, microsecond=0)
        day = article.published
        path = f"/{day.year}/{day.month:02d}/{day.day:02d}/{slugify(title)}/"
        if path in seen_paths:
            path = f"{path[:-1]}-{article.index}/"
        seen_paths.add(path)
        article.path = path


def _fill_listings(plan: SitePlan) -> None:
    """Members of each listing, newest first."""
    for article in reversed(plan.articles):
        plan.home.members.append(article.index)
        for c in (article.category, *article.secondary):
            plan.categories[c].members.append(article.index)
        for t in article.tags:
            listing = plan.tag_listings.get(t)
            if listing is None:
                tag = plan.tags[t]
                description = f"Posts tagged {tag.label}, from the {CATEGORIES[tag.category].name} desk."
                listing = Listing("tag", tag.slug, f"Tag: {tag.label}", description, f"/tag/{tag.slug}/")
                plan.tag_listings[t] = listing
            listing.members.append(article.index)


# --- the template ------------------------------------------------------------------------------------

_CSS_SELECTORS = _words(
    "body .site-header .site-branding .logo .main-navigation #primary-menu .menu-item .site-content "
    ".site-main .entry-header .entry-title .entry-meta .entry-content .entry-footer .widget "
    ".widget-title .widget_search .search-field .tagcloud .ad-slot .site-footer .newsletter "
    ".copyright .pagination .page-numbers .share-buttons .comment-list .comment-content "
    ".post-navigation .wp-block-image figcaption blockquote table th td .more-link .button"
)
_CSS_PROPERTIES = (
    ("margin", ("0", "0 auto", "1em 0", "0 0 1.5rem", "2rem 1rem")),
    ("padding", ("0", ".5em 1em", "1rem", "0 .75rem", "2px 6px")),
    ("color", ("#222", "#3a3a3a", "#0b5394", "#666", "#fff", "inherit")),
    ("background", ("#fff", "#f7f7f5", "transparent", "#1d2b36", "linear-gradient(#fafafa,#eee)")),
    ("font-size", ("1rem", ".875rem", "1.25rem", "14px", "2.1em", "smaller")),
    ("line-height", ("1.5", "1.65", "1.2", "normal")),
    ("display", ("block", "flex", "grid", "inline-block", "none")),
    ("border", ("0", "1px solid #ddd", "2px solid currentColor", "1px dashed #ccc")),
    ("font-family", ("Georgia,serif", "system-ui,-apple-system,sans-serif", "Menlo,monospace")),
    ("transition", ("color .2s ease", "opacity .3s", "transform .25s ease-out")),
)
_JS_NAMES = _words(
    "menu toggle search modal cookie banner lazy image share counter scroll sticky header analytics "
    "consent newsletter comment reply carousel slider gallery lightbox video embed"
)


def _style(rng: random.Random, size: int) -> str:
    """Inline CSS of about `size` characters: rules over the theme's selectors and utility classes."""
    rules: list[str] = []
    length = 0
    while length < size:
        selector = rng.choice(_CSS_SELECTORS)
        if rng.random() < 0.4:
            selector = f".u-{rng.choice(_JS_NAMES)}-{rng.randrange(100)}"
        if rng.random() < 0.3:
            selector += rng.choice((":hover", " a", " > li", "::before", ":focus-visible"))
        props = ";".join(f"{name}:{rng.choice(values)}" for name, values in rng.sample(_CSS_PROPERTIES, 3))
        rule = f"{selector}{{{props}}}"
        if rng.random() < 0.05:
            rule = f"@media (max-width:{rng.choice((480, 640, 782, 1024))}px){{{rule}}}"
        rules.append(rule)
        length += len(rule) + 1
    return "\n".join(rules)


def _script(rng: random.Random, size: int) -> str:
    """Inline JS of about `size` characters: the theme's little widgets, as minifiers leave them."""
    chunks = ["window.almanac=window.almanac||{};"]
    length = len(chunks[0])
    while length < size:
        a, b = rng.choice(_JS_NAMES), rng.choice(_JS_NAMES)
        number = rng.randrange(1000)
        chunk = (
            f"almanac.{a}{number}=function(e){{var t=document.querySelectorAll('.{a}-{b}');"
            f"for(var n=0;n<t.length;n++){{t[n].addEventListener('click',function(){{"
            f"this.classList.toggle('is-{b}');almanac.track&&almanac.track('{a}',{number})}})}}}};"
        )
        chunks.append(chunk)
        length += len(chunk)
    return "\n".join(chunks)


def _prepare_template(plan: SitePlan) -> None:
    """The parts of the template that are the same on every page, rendered once."""
    rng = random.Random(_mix(plan.seed, "theme"))
    plan.style = _style(rng, plan.head_bytes * 2 // 3)
    plan.script = _script(rng, plan.head_bytes // 3)
    latest = "".join(
        f'<li><a href="{a.path}">{a.title}</a> <span class="post-date">{_date(a.published)}</span></li>'
        for a in reversed(plan.articles[-5:])
    )
    plan.latest_html = _widget("widget_recent_entries", "Latest posts", f"<ul>{latest}</ul>")
    plan.cloud_html = _tag_cloud(plan)
    items = "".join(f'<li class="menu-item"><a href="{c.base}">{c.heading}</a></li>' for c in plan.categories)
    plan.nav_html = (
        '<nav id="site-navigation" class="main-navigation" aria-label="Primary">'
        '<button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">Menu</button>'
        f'<ul id="primary-menu"><li class="menu-item"><a href="/">Home</a></li>{items}'
        '<li class="menu-item"><a href="/about/">About</a></li>'
        '<li class="menu-item"><a href="/contact/">Contact</a></li></ul></nav>'
    )


def _tag_cloud(plan: SitePlan) -> str:
    """The 30 most used tags, alphabetically, sized by use (the same on every page)."""
    used = sorted(plan.tag_listings.items(), key=lambda item: (-len(item[1].members), item[0]))[:30]
    if not used:
        return ""
    most = max(len(listing.members) for _, listing in used)
    links = []
    for t, listing in sorted(used, key=lambda item: plan.tags[item[0]].label):
        size = 8 + round(14 * math.log1p(len(listing.members)) / math.log1p(most))
        links.append(
            f'<a href="{listing.base}" class="tag-cloud-link" style="font-size: {size}pt">'
            f"{plan.tags[t].label}</a>"
        )
    return _widget("widget_tag_cloud", "Tags", f'<div class="tagcloud">{" ".join(links)}</div>')


def _widget(kind: str, heading: str, inner: str) -> str:
    return f'<section class="widget {kind}"><h2 class="widget-title">{heading}</h2>{inner}</section>'


def _date(moment: datetime) -> str:
    # Month names of our own: strftime's %B follows the process locale.
    return f"{_MONTHS[moment.month - 1]} {moment.day}, {moment.year}"


_ADS = (
    ("Lumen Roasters", "Fresh coffee, roasted on Tuesdays. 20% off your first bag."),
    ("Northfold Outdoor", "Waterproofs that survive a real winter. Free returns."),
    ("Pagewise Books", "Second-hand books, sorted by people who read them."),
    ("Tidewater Insurance", "Cover for boats, bikes and sheds. Get a quote in two minutes."),
)


def _ad(plan: SitePlan, path: str) -> str:
    """One of a few ads, rotated by a hash of the page's path (as ad servers do per request)."""
    number = _mix(plan.seed, "ad", path) % len(_ADS)
    name, line = _ADS[number]
    return (
        f'<section class="widget widget_ad"><div class="ad-slot" data-ad="{number}"><span class="ad-label">'
        f'Advertisement</span><a href="https://ads.example.net/click?c={number}" rel="sponsored nofollow">'
        f'<img src="https://ads.example.net/banner/{number}.png" width="300" height="250" alt="{name}">'
        f"<strong>{name}</strong> {line}</a></div></section>"
    )


_SEARCH = (
    '<section class="widget widget_search"><form role="search" method="get" class="search-form" action="/">'
    '<label><span class="screen-reader-text">Search for:</span><input type="search" class="search-field" '
    'placeholder="Search …" name="s"></label><button type="submit" class="search-submit">Search</button>'
    "</form></section>"
)
_FOOTER = (
    '<footer id="colophon" class="site-footer"><div class="footer-widgets"><section class="newsletter">'
    '<h2 class="widget-title">The weekly digest</h2><p>One email on Fridays with the week’s posts. No spam, '
    'unsubscribe at any time.</p><form class="newsletter-form" method="post" action="/subscribe">'
    '<input type="email" name="email" placeholder="you@example.com" required>'
    '<button type="submit">Subscribe</button></form></section><nav class="footer-navigation" '
    'aria-label="Footer"><ul><li><a href="/about/">About us</a></li><li><a href="/contact/">Contact</a></li>'
    '<li><a href="/privacy/">Privacy policy</a></li><li><a href="#page">Back to top</a></li></ul></nav></div>'
    f'<div class="site-info"><p class="copyright">© 2013–2023 {SITE_NAME}. All rights reserved. '
    "Proudly published with a content management system.</p></div></footer>"
)


def _page(plan: SitePlan, path: str, kind: str, title: str, main: str, related: str = "") -> bytes:
    """A whole page: head with inline CSS/JS, header, main content, sidebar, footer."""
    sidebar = (
        f'<aside id="secondary" class="widget-area">{_SEARCH}{plan.latest_html}{related}'
        f"{plan.cloud_html}{_ad(plan, path)}</aside>"
    )
    html = (
        '<!DOCTYPE html>\n<html lang="en-GB">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        f'<link rel="canonical" href="{path}">\n<meta name="generator" content="sitegen">\n'
        f"<style>\n{plan.style}\n</style>\n<script>\n{plan.script}\n</script>\n</head>\n"
        f'<body class="{kind}">\n<div id="page" class="site">'
        '<a class="skip-link screen-reader-text" href="#main">Skip to content</a>\n'
        '<header id="masthead" class="site-header"><div class="site-branding">'
        '<a href="/" class="custom-logo-link" rel="home"><img src="/logo.svg" class="custom-logo" '
        f'alt="{SITE_NAME}" width="120" height="40"></a>'
        f'<p class="site-title"><a href="/" rel="home">{SITE_NAME}</a></p>'
        f'<p class="site-description">{TAGLINE}</p></div>{plan.nav_html}</header>\n'
        f'<div id="content" class="site-content">\n<main id="main" class="site-main">\n{main}\n</main>\n'
        f"{sidebar}\n</div>\n{_FOOTER}\n</div>\n"
        f'<script>almanac.page={{"path":"{path}","type":"{kind}"}};almanac.ready&&almanac.ready();</script>\n'
        "</body>\n</html>\n"
    )
    return html.encode("utf-8")


# --- articles --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Body:
    """An article body being written: its HTML blocks and the ground-truth lines they render to."""

    html: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def block(self, tag: str, inner: str, attributes: str = "") -> None:
        """A one-line block element (p, h2, h3)."""
        self.html.append(f"<{tag}{attributes}>{inner}</{tag}>")
        self.text(inner)

    def text(self, *inners: str) -> None:
        """Ground-truth lines: the text of these blocks' inner HTML, inline elements removed."""
        self.lines.extend(_TAG_RE.sub("", inner) for inner in inners)


def _inline_markup(article: Article) -> list[str]:
    """Two marked-up topical words (emphasis, a link to the category) that the body's prose may draw."""
    category = CATEGORIES[article.category]
    noun, other = category.nouns[article.index % len(category.nouns)], category.nouns[-1]
    return [f"<em>{noun}</em>", f'<a href="/category/{category.name}/">{other}</a>']


def _list(prose: Prose, body: Body) -> None:
    tag = "ol" if prose.random() < 0.3 else "ul"
    items = [prose.phrase() if prose.random() < 0.6 else prose.sentence() for _ in range(prose.randint(3, 6))]
    body.html.append(f"<{tag}>" + "".join(f"<li>{item}</li>" for item in items) + f"</{tag}>")
    body.text(*items)


def _table(prose: Prose, body: Body) -> None:
    # The header is the article's own too: a fixed "Item Count Notes" would be template text.
    head = [prose.phrase(), prose.choice(_MEASURES), prose.phrase()]
    rows = [[prose.phrase(), str(prose.randint(1, 250)), prose.phrase()] for _ in range(prose.randint(3, 6))]
    cells = "".join(f"<th>{cell}</th>" for cell in head)
    html = [f'<figure class="wp-block-table"><table><thead><tr>{cells}</tr></thead><tbody>']
    html.extend("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    html.append("</tbody></table></figure>")
    body.html.append("".join(html))
    body.text(*(" ".join(row) for row in [head, *rows]))


_MEASURES = ("Count", "Hours", "Cost", "Miles", "Score", "Weight", "Days", "Share", "Size", "Rank")


def _figure(prose: Prose, body: Body, article: Article, number: int) -> None:
    caption = prose.sentence()
    day = article.published
    src = f"/media/{day.year}/{day.month:02d}/image-{article.index}-{number}.jpg"
    body.html.append(
        f'<figure class="wp-block-image"><img src="{src}" alt="" width="800" height="533" loading="lazy">'
        f"<figcaption>{caption}</figcaption></figure>"
    )
    body.text(caption)


def _quote(prose: Prose, body: Body) -> None:
    text = f"{prose.sentence()} {prose.sentence()} — {prose.choice(_PEOPLE)}"
    body.html.append(f"<blockquote><p>{text}</p></blockquote>")
    body.text(text)


def _article_body(article: Article, prose: Prose) -> Body:
    """3-15 paragraphs (the first opens with the lede), with headings, a list, a table, a figure, a quote."""
    body = Body()
    count = prose.randint(3, 15)
    extras: dict[int, list[str]] = {}
    for kind, chance in (("h2", 0.55), ("list", 0.4), ("table", 0.25), ("figure", 0.35), ("quote", 0.25)):
        if prose.random() < chance:
            extras.setdefault(prose.randint(1, count - 1), []).append(kind)
    for number in range(count):
        for kind in extras.get(number, ()):
            _extra(kind, prose, body, article, number)
        text = prose.paragraph()
        body.block("p", f"{article.lede} {text}" if number == 0 else text)
    return body


def _extra(kind: str, prose: Prose, body: Body, article: Article, number: int) -> None:
    if kind == "h2":
        body.block("h2", prose.heading(), ' class="wp-block-heading"')
        if prose.random() < 0.3:
            body.block("p", prose.paragraph(1, 3))
            body.block("h3", prose.heading(), ' class="wp-block-heading"')
    elif kind == "list":
        _list(prose, body)
    elif kind == "table":
        _table(prose, body)
    elif kind == "figure":
        _figure(prose, body, article, number)
    else:
        _quote(prose, body)


def _comments(article: Article, prose: Prose) -> str:
    """The comments section: on about a third of the articles, 1-8 comments and a reply form."""
    count = prose.randint(1, 8) if prose.random() < 0.35 else 0
    items = []
    for number in range(count):
        name = f"{prose.choice(_FIRST_NAMES)} {prose.choice(_SURNAMES)[0]}."
        when = article.published + timedelta(hours=7 * (number + 1) + prose.randint(0, 30))
        items.append(
            f'<li id="comment-{article.index}-{number}" class="comment"><article class="comment-body">'
            f'<footer class="comment-meta"><b class="fn">{name}</b> <time>{_date(when)}</time></footer>'
            f'<div class="comment-content"><p>{prose.paragraph(1, 3)}</p></div>'
            '<div class="reply"><a class="comment-reply-link" href="#respond">Reply</a></div></article></li>'
        )
    heading = f'<h2 class="comments-title">{count} comment{"s" if count != 1 else ""}</h2>' if count else ""
    items_html = f'<ol class="comment-list">{"".join(items)}</ol>' if count else ""
    return (
        f'<section id="comments" class="comments-area">{heading}{items_html}'
        '<div id="respond" class="comment-respond"><h3 class="comment-reply-title">Leave a reply</h3>'
        '<form action="/comment" method="post" class="comment-form"><p><label>Comment'
        '<textarea name="comment" rows="6"></textarea></label></p>'
        '<p><label>Name<input name="author" type="text"></label></p>'
        '<p><label>Email<input name="email" type="email"></label></p><p><input type="submit" '
        'value="Post comment"></p></form></div></section>'
    )


def _related(plan: SitePlan, article: Article, rng: random.Random) -> str:
    """Five related posts: four from the same category, one from another (the box differs per article)."""
    same = [i for i in _sample(rng, plan.categories[article.category].members, 6) if i != article.index][:4]
    other = plan.categories[(article.category + 1 + rng.randrange(len(CATEGORIES) - 1)) % len(CATEGORIES)]
    chosen = same + _sample(rng, other.members, 1)
    links = "".join(f'<li><a href="{a.path}">{a.title}</a></li>' for a in (plan.articles[i] for i in chosen))
    return _widget("related-posts", "Related posts", f"<ul>{links}</ul>")


def _sample(rng: random.Random, population: Sequence[int], k: int) -> list[int]:
    return rng.sample(population, min(k, len(population)))


def render_article(plan: SitePlan, index: int) -> tuple[bytes, dict[str, str]]:
    """An article page and its ground-truth record."""
    article = plan.articles[index]
    rng = random.Random(_mix(plan.seed, "body", index))
    category = CATEGORIES[article.category]
    secondary = [CATEGORIES[c] for c in article.secondary]
    prose = Prose(rng, _pools(category, secondary, _inline_markup(article)))
    body = _article_body(article, prose)
    author = plan.authors[article.author]
    main = (
        f'<article id="post-{index}" class="post type-post status-publish category-{category.name}">'
        f'<header class="entry-header"><h1 class="entry-title">{article.title}</h1>'
        '<div class="entry-meta"><span class="byline">By '
        f'<span class="author vcard">{author}</span></span> · '
        f'<time class="entry-date published" datetime="{article.published.isoformat()}">'
        f"{_date(article.published)}</time> · in {_category_links(plan, article)}</div></header>\n"
        f'<div class="entry-content">\n{chr(10).join(body.html)}\n</div>\n'
        f'<footer class="entry-footer">{_tag_links(plan, article)}{_share(article.path)}</footer>'
        f"</article>\n{_post_navigation(plan, index)}\n{_comments(article, prose)}"
    )
    page_title = f"{article.title} – {SITE_NAME}"
    html = _page(plan, article.path, "single-post", page_title, main, _related(plan, article, rng))
    truth = {
        "file": _file_of(article.path),
        "url_path": article.path,
        "title": page_title,
        "main_text": "\n".join([article.title, *body.lines]),
    }
    return html, truth


def _category_links(plan: SitePlan, article: Article) -> str:
    return ", ".join(
        f'<a href="{plan.categories[c].base}" rel="category tag">{plan.categories[c].heading}</a>'
        for c in (article.category, *article.secondary)
    )


def _tag_links(plan: SitePlan, article: Article) -> str:
    links = ", ".join(
        f'<a href="/tag/{plan.tags[t].slug}/" rel="tag">{plan.tags[t].label}</a>' for t in article.tags
    )
    return f'<span class="tags-links">Tagged {links}</span>'


def _share(path: str) -> str:
    quoted = path.replace("/", "%2F")
    links = "".join(
        f'<a class="share-{name.lower()}" href="https://{host}/share?url={quoted}" '
        f'rel="nofollow noopener">{name}</a>'
        for name, host in (("Mastodon", "social.example.org"), ("Facebook", "facebook.example.com"),
                           ("LinkedIn", "linkedin.example.com"), ("Email", "mail.example.com"))
    )  # fmt: skip
    return f'<div class="share-buttons"><span class="share-label">Share this:</span>{links}</div>'


def _post_navigation(plan: SitePlan, index: int) -> str:
    """Links to the previous and next article in publication order."""
    parts = []
    if index > 0:
        previous = plan.articles[index - 1]
        parts.append(
            f'<div class="nav-previous"><a href="{previous.path}" rel="prev">'
            f'<span class="meta-nav">Previous post</span> {previous.title}</a></div>'
        )
    if index + 1 < len(plan.articles):
        following = plan.articles[index + 1]
        parts.append(
            f'<div class="nav-next"><a href="{following.path}" rel="next">'
            f'<span class="meta-nav">Next post</span> {following.title}</a></div>'
        )
    return _nav("post-navigation", "".join(parts))


def _nav(kind: str, links: str) -> str:
    return f'<nav class="navigation {kind}" aria-label="Posts"><div class="nav-links">{links}</div></nav>'


# --- listings and static pages -----------------------------------------------------------------------------


def _excerpt(article: Article) -> str:
    words = article.lede.split()
    return " ".join(words[:35]) + (" …" if len(words) > 35 else "")


def render_listing(plan: SitePlan, listing: Listing, number: int) -> bytes:
    """Page `number` of a listing: a header, 20 excerpts and the pagination links."""
    start = (number - 1) * plan.per_page
    shown = listing.members[start : start + plan.per_page]
    excerpts = "\n".join(_excerpt_html(plan, plan.articles[i]) for i in shown)
    if not excerpts:
        excerpts = '<p class="no-results">Nothing has been published here yet.</p>'
    page_note = f" – Page {number}" if number > 1 else ""
    header = (
        f'<header class="page-header"><h1 class="page-title">{listing.heading}{page_note}</h1>'
        f'<div class="archive-description"><p>{listing.description}</p></div></header>'
    )
    pagination = _pagination(listing, number, listing.page_count(plan.per_page))
    title = f"{listing.heading}{page_note} – {SITE_NAME}"
    path = listing.page_path(number)
    return _page(plan, path, f"archive {listing.kind}", title, f"{header}\n{excerpts}\n{pagination}")


def _excerpt_html(plan: SitePlan, article: Article) -> str:
    return (
        f'<article class="post excerpt category-{CATEGORIES[article.category].name}">'
        f'<h2 class="entry-title"><a href="{article.path}" rel="bookmark">{article.title}</a></h2>'
        f'<div class="entry-meta"><time datetime="{article.published.isoformat()}">'
        f"{_date(article.published)}</time>"
        f" · {plan.authors[article.author]}</div>"
        f'<div class="entry-summary"><p>{_excerpt(article)}</p></div>'
        f'<a class="more-link" href="{article.path}">Continue reading</a></article>'
    )


def _pagination(listing: Listing, number: int, last: int) -> str:
    """WordPress-style page links: previous, 1 … n-2 … n+2 … last, next."""
    if last == 1:
        return ""
    shown = sorted({1, last, *range(max(1, number - 2), min(last, number + 2) + 1)})
    parts = []
    if number > 1:
        parts.append(f'<a class="prev page-numbers" href="{listing.page_path(number - 1)}">« Previous</a>')
    for i, page in enumerate(shown):
        if i and page - shown[i - 1] > 1:
            parts.append('<span class="page-numbers dots">…</span>')
        if page == number:
            parts.append(f'<span aria-current="page" class="page-numbers current">{page}</span>')
        else:
            parts.append(f'<a class="page-numbers" href="{listing.page_path(page)}">{page}</a>')
    if number < last:
        parts.append(f'<a class="next page-numbers" href="{listing.page_path(number + 1)}">Next »</a>')
    return _nav("pagination", " ".join(parts))


def render_static(plan: SitePlan, name: str) -> bytes:
    """The about, contact or privacy page."""
    rng = random.Random(_mix(plan.seed, "static", name))
    prose = Prose(rng, _pools(CATEGORIES[rng.randrange(len(CATEGORIES))], CATEGORIES[:3]))
    paragraphs = "".join(f"<p>{prose.paragraph()}</p>" for _ in range(3))
    if name == "about":
        team = "".join(f"<li>{author}</li>" for author in plan.authors)
        extra = f"<h2>Who writes here</h2><ul>{team}</ul>"
    elif name == "contact":
        extra = (
            '<form class="contact-form" method="post" action="/contact"><p><label>Name<input name="name">'
            '</label></p><p><label>Email<input name="email" type="email"></label></p><p><label>Message'
            '<textarea name="message" rows="8"></textarea></label></p><p><button type="submit">Send</button>'
            f"</p></form><address>{SITE_NAME}, 12 Harbour Lane, {prose.choice(_PLACES)}</address>"
        )
    else:
        extra = "<h2>Cookies</h2><p>We use a cookie to remember your consent and nothing else.</p>"
    heading = {"about": "About", "contact": "Contact us", "privacy": "Privacy policy"}[name]
    main = (
        f'<article class="page"><header class="entry-header"><h1 class="entry-title">{heading}</h1></header>'
        f'<div class="entry-content">{paragraphs}{extra}</div></article>'
    )
    return _page(plan, f"/{name}/", "page", f"{heading} – {SITE_NAME}", main)


# --- writing ---------------------------------------------------------------------------------------------

# A job: ("article", index), ("listing", listing number, page number) or ("static", name index).
Job = tuple[str, int, int]
_PLAN: SitePlan | None = None  # the plan of the running generation, inherited by forked workers


@dataclass(frozen=True, slots=True)
class Written:
    """What one job wrote."""

    url_path: str
    kind: str
    file: str
    size: int
    truth: str | None  # the ground-truth JSON line of an article


def _file_of(url_path: str) -> str:
    return url_path.lstrip("/") + "index.html"


def _jobs(plan: SitePlan) -> list[Job]:
    jobs: list[Job] = [("article", i, 0) for i in range(len(plan.articles))]
    for number, listing in enumerate(plan.listings()):
        jobs.extend(("listing", number, page) for page in range(1, listing.page_count(plan.per_page) + 1))
    jobs.extend(("static", i, 0) for i in range(len(STATIC_PAGES)))
    return jobs


def _run_job(root: Path, job: Job) -> Written:
    """Render one page and write it under `root`."""
    plan = _PLAN
    assert plan is not None
    kind, first, second = job
    truth = None
    if kind == "article":
        html, record = render_article(plan, first)
        url_path, truth = record["url_path"], json.dumps(record, ensure_ascii=False)
    elif kind == "listing":
        listing = plan.listing_order[first]
        html, url_path, kind = render_listing(plan, listing, second), listing.page_path(second), listing.kind
    else:
        url_path = f"/{STATIC_PAGES[first]}/"
        html = render_static(plan, STATIC_PAGES[first])
    target = root / _file_of(url_path)
    try:  # one system call when the parent exists, as it mostly does (/2019/05/05/ for /2019/05/05/slug/)
        target.parent.mkdir(exist_ok=True)
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(html)
    return Written(url_path, kind, _file_of(url_path), len(html), truth)


class _Runner:
    """A picklable callable for `Pool.imap`: the root is passed, the plan is inherited by fork."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, job: Job) -> Written:
        return _run_job(self.root, job)


def _write_pages(plan: SitePlan, root: Path, workers: int, truth: IO[str]) -> list[Written]:
    """Every page, written by `workers` processes (forked, so they share the plan without pickling it).

    Ground-truth lines go to `truth` as the pages come back, in job order; they are not kept.
    """
    global _PLAN
    _PLAN = plan
    jobs = _jobs(plan)
    runner = _Runner(root)
    try:
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return [_keep(runner(job), truth) for job in jobs]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return [_keep(written, truth) for written in pool.imap(runner, jobs, chunksize=64)]
    finally:
        _PLAN = None


def _keep(written: Written, truth: IO[str]) -> Written:
    """Write the page's ground truth out and keep the rest (50,000 bodies of text would fill memory)."""
    if written.truth is None:
        return written
    truth.write(written.truth + "\n")
    return Written(written.url_path, written.kind, written.file, written.size, None)


# --- the public entry point -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GeneratedSite:
    """A generated site on disk: where its files and metadata are, and what it holds."""

    root: Path
    meta_dir: Path
    seed: int
    kinds: dict[str, str]  # url_path -> "article", "home", "category", "tag" or "static", in writing order
    total_bytes: int
    seconds: float = 0.0

    @property
    def pages(self) -> int:
        """How many HTML files the site has."""
        return len(self.kinds)

    @property
    def articles(self) -> list[str]:
        """The url paths of the articles, oldest first."""
        return [path for path, kind in self.kinds.items() if kind == "article"]

    @property
    def ground_truth(self) -> Path:
        """``ground_truth.jsonl``: one record per article."""
        return self.meta_dir / "ground_truth.jsonl"

    @property
    def topics(self) -> Path:
        """``topics.json``: categories with descriptions, and each article's categories."""
        return self.meta_dir / "topics.json"

    def file_of(self, url_path: str) -> Path:
        """The file that answers `url_path`."""
        return self.root / _file_of(url_path)


def default_meta_dir(root: Path) -> Path:
    """Where the metadata of a site at `root` goes by default: ``ROOT.meta`` beside it (not served)."""
    return root.parent / f"{root.name}.meta"


def generate_site(
    root: Path,
    pages: int,
    seed: int = 0,
    *,
    meta_dir: Path | None = None,
    head_bytes: int = DEFAULT_HEAD_BYTES,
    per_page: int = PER_PAGE,
    workers: int | None = None,
    overwrite: bool = False,
) -> GeneratedSite:
    """Write a site of at most `pages` HTML files (as many articles as fit) under `root`.

    `head_bytes` is the size of the inline CSS and JS of every page (`HEAVY_HEAD_BYTES` for ~100 KB pages);
    `workers` processes render the pages (default: one per core). `root` and the metadata folder must be
    empty or absent, unless `overwrite`, which removes them first.
    """
    started = time.perf_counter()
    meta = meta_dir or default_meta_dir(root)
    _prepare_directories(root, meta, overwrite)
    plan = plan_site(pages, seed, per_page, head_bytes)
    with (meta / "ground_truth.jsonl").open("w", encoding="utf-8") as truth:
        written = _write_pages(plan, root, workers or os.cpu_count() or 1, truth)
    _write_meta(plan, meta, written, pages)
    kinds = {item.url_path: item.kind for item in written}
    total = sum(item.size for item in written)
    return GeneratedSite(root, meta, seed, kinds, total, time.perf_counter() - started)


def _prepare_directories(root: Path, meta: Path, overwrite: bool) -> None:
    for directory in (root, meta):
        if directory.exists() and any(directory.iterdir()):
            if not overwrite:
                raise FileExistsError(f"{directory} is not empty (overwrite=True or --force replaces it)")
            shutil.rmtree(directory)
        directory.mkdir(parents=True, exist_ok=True)


def _write_meta(plan: SitePlan, meta: Path, written: list[Written], requested: int) -> None:
    """Topics, the page index and the parameters, beside the site (the ground truth is written already)."""
    topics = {
        "categories": {c.name: c.description for c in CATEGORIES},
        "pages": {a.path: [CATEGORIES[c].name for c in (a.category, *a.secondary)] for a in plan.articles},
    }
    (meta / "topics.json").write_text(json.dumps(topics, indent=1, ensure_ascii=False) + "\n", "utf-8")
    index = "".join(f"{w.url_path}\t{w.kind}\t{w.file}\t{w.size}\n" for w in written)
    (meta / "pages.tsv").write_text(index, "utf-8")
    parameters = {
        "seed": plan.seed, "pages_requested": requested, "pages": len(written),
        "articles": len(plan.articles), "per_page": plan.per_page, "head_bytes": plan.head_bytes,
        "start": "/",
    }  # fmt: skip
    (meta / "site.json").write_text(json.dumps(parameters, indent=1) + "\n", "utf-8")


def load_site(root: Path, meta_dir: Path | None = None) -> GeneratedSite:
    """A site generated earlier, from its metadata folder."""
    meta = meta_dir or default_meta_dir(root)
    kinds: dict[str, str] = {}
    total = 0
    for line in (meta / "pages.tsv").read_text("utf-8").splitlines():
        url_path, kind, _, size = line.split("\t")
        kinds[url_path] = kind
        total += int(size)
    seed = json.loads((meta / "site.json").read_text("utf-8"))["seed"]
    return GeneratedSite(root, meta, int(seed), kinds, total)


# --- CLI -------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None, out: Callable[[str], object] = print) -> int:
    """``python -m benchmarks.sitegen OUT_DIR --pages N [--seed S] [--heavy] ...``: generate and summarise."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sitegen", description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", type=Path, help="where the HTML files go (served as the site's root)")
    parser.add_argument("--pages", type=int, default=2000, help="how many HTML files, at most (default 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--heavy", action="store_true", help="~100 KB pages (big inline CSS and JS)")
    parser.add_argument("--head-bytes", type=int, help="inline CSS+JS per page, in bytes")
    parser.add_argument("--meta", type=Path, help="metadata folder (default OUT_DIR.meta beside it)")
    parser.add_argument("--workers", type=int, help="processes (default: one per core)")
    parser.add_argument("--force", action="store_true", help="replace OUT_DIR and the metadata folder")
    args = parser.parse_args(argv)
    head = args.head_bytes or (HEAVY_HEAD_BYTES if args.heavy else DEFAULT_HEAD_BYTES)
    site = generate_site(
        args.out_dir, args.pages, args.seed, meta_dir=args.meta, head_bytes=head,
        workers=args.workers, overwrite=args.force,
    )  # fmt: skip
    sizes = sorted(site.file_of(path).stat().st_size for path in site.kinds)
    out(
        f"{site.pages} pages ({len(site.articles)} articles) in {site.seconds:.1f} s: "
        f"{site.total_bytes / 1e6:.1f} MB, median page {sizes[len(sizes) // 2] / 1000:.1f} KB; "
        f"metadata in {site.meta_dir}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
