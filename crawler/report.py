"""`scrapy savings`' report: the store per site and per part as a text table, and as an SVG chart.

The chart is self-contained SVG (no plotting library, no script): per site, three bars on one scale, the
raw HTML fetched, the baseline store (every page's visible text with the same full-text index) when one is
given, and cleancrawl's store split by part.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from pipelines.storage.baseline import BaselineSize
from pipelines.storage.sizes import CATALOG, PARTS, SavingsReport, SiteSavings

_SITE_HEADERS = (
    "site",
    "pages",
    "raw HTML",
    "visible text",
    "clean text",
    "stored on disk",
    "stored/HTML",
    "stored/text",
)
_PALETTE = ("#2b6cb0", "#9f7aea", "#dd6b20", "#38a169", "#d69e2e", "#718096", "#cbd5e0", "#a0aec0")
_COLOURS = dict(zip(PARTS, _PALETTE, strict=True))
_HTML_COLOUR, _BASELINE_COLOUR = "#e53e3e", "#805ad5"
# The parts that belong to no site (and the catalog to no store size).
_UNATTRIBUTED = ("schema", "free pages", CATALOG)


def render_report(report: SavingsReport, baseline: BaselineSize | None) -> str:
    """The report as text: the sites' table, the parts of the store, and the whole against the disk."""
    lines = [f"Store {report.url} ({report.dialect})", ""]
    lines += [_sites_table(report.sites, baseline) if report.sites else "No pages stored yet.", ""]
    lines += _parts(report)
    if baseline is not None:
        stored = report.size.store_bytes
        lines.append("")
        what = "every page's visible text, with the same full-text index"
        lines.append(f"Baseline store ({what}): {baseline.total:,} bytes")
        lines.append(f"cleancrawl's store is {_percent(stored, baseline.total)} of the baseline store")
    return "\n".join(lines)


def _sites_table(sites: list[SiteSavings], baseline: BaselineSize | None) -> str:
    headers = _SITE_HEADERS + (("baseline", "stored/baseline") if baseline is not None else ())
    rows = [headers, *(_site_cells(site, baseline) for site in sites), _site_cells(_total(sites), baseline)]
    widths = [max(len(row[index]) for row in rows) for index in range(len(headers))]
    lines = ["  ".join(_aligned(cell, widths[i], i) for i, cell in enumerate(row)) for row in rows]
    rule = "-" * len(lines[0])
    return "\n".join([lines[0], rule, *lines[1:-1], rule, lines[-1]])


def _aligned(cell: str, width: int, index: int) -> str:
    # The site name reads best left-aligned, the figures right-aligned.
    return cell.ljust(width) if index == 0 else cell.rjust(width)


def _site_cells(site: SiteSavings, baseline: BaselineSize | None) -> tuple[str, ...]:
    cells = (
        site.site,
        f"{site.pages:,}",
        f"{site.raw_html_bytes:,}",
        f"{site.visible_text_bytes:,}",
        f"{site.clean_text_bytes:,}",
        f"{site.stored_bytes:,}",
        _percent(site.stored_bytes, site.raw_html_bytes),
        _percent(site.stored_bytes, site.visible_text_bytes),
    )
    if baseline is None:
        return cells
    base = sum(baseline.sites.values()) if site.site == "total" else baseline.sites.get(site.site, 0)
    return (*cells, f"{base:,}", _percent(site.stored_bytes, base))


def _total(sites: list[SiteSavings]) -> SiteSavings:
    def total(name: str) -> int:
        return sum(getattr(site, name) for site in sites)

    raw, visible, stored = total("raw_html_bytes"), total("visible_text_bytes"), total("stored_bytes")
    ratios = (stored / raw if raw else None, stored / visible if visible else None)
    return SiteSavings("total", total("pages"), raw, visible, total("clean_text_bytes"), stored, *ratios)


def _parts(report: SavingsReport) -> list[str]:
    size = report.size
    lines = ["The store on disk, by part:"]
    shown = [part for part in PARTS if part != CATALOG or report.dialect == "postgresql"]
    lines += [f"  {part:<26} {size.parts.get(part, 0):>14,} bytes" for part in shown]
    lines.append(f"  {'sum of the parts':<26} {size.total:>14,} bytes")
    if report.dialect == "sqlite":
        lines.append(f"  {'on disk':<26} {size.on_disk:>14,} bytes: the database file and its log (ls -l)")
        lines.append(f"  {'an empty store':<26} {report.empty:>14,} bytes (schema and indexes, no page)")
        difference = abs(size.on_disk - size.total)
        lines.append(f"  the parts account for the store on disk within {_percent(difference, size.on_disk)}")
        return lines
    lines.append(f"  {'the database':<26} {size.on_disk:>14,} bytes: pg_database_size")
    lines.append(f"  {'an empty database':<26} {report.empty:>14,} bytes: template1, the catalog alone")
    if report.shared_database:
        lines.append("  the database holds other schemas' tables too: the store is the sum of its parts")
        return lines
    own = size.on_disk - report.empty
    difference = abs(own - size.total)
    lines.append(f"  the parts account for the database less an empty one within {_percent(difference, own)}")
    return lines


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def write_plot(path: Path, report: SavingsReport, baseline: BaselineSize | None) -> None:
    """An SVG chart of the bytes per site: raw HTML, baseline store, cleancrawl's store by part."""
    sites = report.sites
    parts = _site_parts(report)
    baselines = list(baseline.sites.values()) if baseline else []
    largest = max([1, *(site.raw_html_bytes for site in sites), *baselines])
    scale = 560 / largest
    height = 60 + len(sites) * 96 + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{height}" font-family="sans-serif" '
        'font-size="12">',
        '<text x="10" y="22" font-size="15" font-weight="bold">Bytes per site: raw HTML, baseline store, '
        "cleancrawl's store by part</text>",
    ]
    for index, site in enumerate(sites):
        top = 50 + index * 96
        out.append(f'<text x="10" y="{top + 14}" font-weight="bold">{escape(site.site)}</text>')
        out += _bar(top + 20, [("raw HTML", site.raw_html_bytes, _HTML_COLOUR)], scale, "raw HTML")
        if baseline is not None:
            base = baseline.sites.get(site.site, 0)
            out += _bar(top + 44, [("baseline", base, _BASELINE_COLOUR)], scale, "baseline store")
        stack = [(part, parts[site.site].get(part, 0), _COLOURS[part]) for part in PARTS]
        out += _bar(top + 68, stack, scale, "cleancrawl")
    out += _legend(height - 26)
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n", "utf-8")


def _site_parts(report: SavingsReport) -> dict[str, dict[str, int]]:
    """Each site's share of each part, by its share of the store's attributed bytes (as index_savings)."""
    attributed = sum(site.stored_bytes for site in report.sites) or 1
    shared = {part: size for part, size in report.size.parts.items() if part not in _UNATTRIBUTED}
    return {
        site.site: {part: round(size * site.stored_bytes / attributed) for part, size in shared.items()}
        for site in report.sites
    }


def _bar(y: int, segments: list[tuple[str, int, str]], scale: float, label: str) -> list[str]:
    out = [f'<text x="10" y="{y + 13}">{escape(label)}</text>']
    x = 130.0
    for name, size, colour in segments:
        width = size * scale
        if width > 0:
            out.append(
                f'<rect x="{x:.1f}" y="{y}" width="{max(width, 0.5):.1f}" height="18" fill="{colour}">'
                f"<title>{escape(name)}: {size:,} bytes</title></rect>"
            )
        x += width
    total = sum(size for _, size, _ in segments)
    out.append(f'<text x="{x + 6:.1f}" y="{y + 13}">{total / 1e6:.2f} MB</text>')
    return out


def _legend(y: int) -> list[str]:
    out = []
    drawn = [(part, colour) for part, colour in _COLOURS.items() if part not in _UNATTRIBUTED]
    entries = [("raw HTML", _HTML_COLOUR), ("baseline store", _BASELINE_COLOUR), *drawn]
    for index, (name, colour) in enumerate(entries):
        x = 10 + index * 98
        out.append(f'<rect x="{x}" y="{y}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{x + 16}" y="{y + 10}" font-size="10">{escape(name)}</text>')
    return out
