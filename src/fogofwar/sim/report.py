"""A study's report for people: ``report.md`` and ``report.html`` with matplotlib plots.

Drawn from ``results.json`` and ``games.jsonl`` alone (a study's results can be drawn
again without playing): the cells' win rates with their 95% intervals as bars, each
metric's distribution per cell as box plots, a heat map of the first side's win rate
when exactly two options vary, then the comparisons' sentences and the tables.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import RulesError
from ..core.game import get_ruleset
from .stats import interval_text

__all__ = ["drawn_files", "print_study", "write_report"]


def _games(cells: Sequence[Mapping[str, Any]]) -> str:
    """The games behind each cell's figures, for a plot's title: "200 games a cell", or
    the least and most where cells differ (a study resumed, say)."""
    counts = sorted({int(c["games"]) for c in cells})
    if len(counts) == 1:
        return f"{counts[0]:,} game{'s' if counts[0] != 1 else ''} a cell"
    return f"{counts[0]:,}–{counts[-1]:,} games a cell"


def _plots(
    folder: Path, results: Mapping[str, Any], games: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str]]:
    """Draw the plots into ``folder``; returns (file name, caption) of each."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    cells = results["cells"]
    names = [c["name"] for c in cells]
    sides = _sides(cells)
    out: list[tuple[str, str]] = []

    # Draws are a bar of their own where any cell has one: without it a cell's bars
    # summed to less than 100% unexplained.
    drawn = any(c["draws"]["count"] for c in cells)
    series = [*sides, "draw"] if drawn else sides
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(names) * max(1, len(series))), 4))
    width = 0.8 / max(1, len(series))
    for k, side in enumerate(series):
        # A cell whose game has no such side (a Versus mission beside a solo one)
        # shows no bar for it.
        won = [c["draws"] if side == "draw" else c["wins"].get(side) for c in cells]
        nan = float("nan")
        rates = [w["rate"] * 100 if w else nan for w in won]
        lows = [r - w["ci95"][0] * 100 if w else 0.0 for r, w in zip(rates, won, strict=True)]
        highs = [w["ci95"][1] * 100 - r if w else 0.0 for r, w in zip(rates, won, strict=True)]
        xs = [i + k * width for i in range(len(names))]
        ax.bar(xs, rates, width, yerr=[lows, highs], capsize=4, label=side)
    ax.set_xticks(
        [i + width * (len(series) - 1) / 2 for i in range(len(names))],
        names,
        rotation=20,
        ha="right",
    )
    ax.set_ylabel("games, % (95% interval)")
    ax.set_ylim(0, 100)
    # Beside the axes, not over them: inside, it hid the top of a tall bar.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(f"{results['study']}: win rate by cell ({_games(cells)})")
    fig.tight_layout()
    fig.savefig(folder / "win-rates.png", dpi=100)
    plt.close(fig)
    what = "each side's win rate" + (" and the draws" if drawn else "")
    out.append(
        (
            "win-rates.png",
            f"{what[0].upper()}{what[1:]} by cell, with the Wilson 95% interval ({_games(cells)}).",
        )
    )

    metrics = sorted({m for c in cells for m in c["metrics"]})
    for metric in metrics:
        data = [
            [
                float(g["metrics"][metric])
                for g in games
                if g["cell"] == n and metric in g["metrics"]
            ]
            for n in names
        ]
        if not any(data):
            continue
        fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(names)), 3.5))
        file = f"metric-{metric}.png"
        # The rule set says which metrics are yes/no (results.json's "proportion");
        # results written before it said are read from the values.
        kinds = [c["metrics"][metric].get("proportion") for c in cells if metric in c["metrics"]]
        if kinds and None not in kinds:
            yes_no = all(kinds)
        else:
            yes_no = all(v in (0.0, 1.0) for d in data for v in d)
        if yes_no:
            # A yes/no metric (won, escaped): a box of 0s and 1s shows nothing. Its share
            # of the games, with the interval results.json gives it (Wilson's).
            spreads = [c["metrics"].get(metric) for c in cells]
            shares = [sp["mean"] * 100 if sp else float("nan") for sp in spreads]
            errs = [
                (
                    (r - sp["interval"][0] * 100, sp["interval"][1] * 100 - r)
                    if sp and sp["interval"][0] is not None
                    else (0.0, 0.0)
                )
                for r, sp in zip(shares, spreads, strict=True)
            ]
            xs = list(range(len(names)))
            ax.bar(xs, shares, 0.6, yerr=list(zip(*errs, strict=True)), capsize=4)
            ax.set_xticks(xs, names, rotation=20, ha="right")
            ax.set_ylim(0, 100)
            ax.set_ylabel("games, % (95% interval)")
            ax.set_title(f"{metric}: share of games, by cell ({_games(cells)})")
            caption = f"The share of each cell's games with {metric}, with its 95% interval."
        else:
            ax.boxplot([d or [float("nan")] for d in data], showmeans=True)
            ax.set_xticks(range(1, len(names) + 1), names, rotation=20, ha="right")
            ax.set_title(f"{metric} per game, by cell ({_games(cells)})")
            caption = f"The distribution of {metric} over each cell's games (▲: the mean)."
        fig.tight_layout()
        fig.savefig(folder / file, dpi=100)
        plt.close(fig)
        out.append((file, caption))

    # Two dimensions make a heat map: two varied options, or one and the variants.
    dims = list(results.get("varied") or []) + (["variant"] if results.get("variants") else [])
    if len(dims) == 2 and sides:
        a, b = dims

        def at(cell: Mapping[str, Any], dim: str) -> Any:
            return cell.get("variant") if dim == "variant" else cell["options"].get(dim)

        xs = list(dict.fromkeys(at(c, a) for c in cells))
        ys = list(dict.fromkeys(at(c, b) for c in cells))
        grid = [[float("nan")] * len(xs) for _ in ys]
        spans: dict[tuple[int, int], tuple[float, float]] = {}
        for c in cells:
            if sides[0] in c["wins"]:
                won = c["wins"][sides[0]]
                i, j = ys.index(at(c, b)), xs.index(at(c, a))
                grid[i][j] = won["rate"] * 100
                spans[i, j] = (won["ci95"][0] * 100, won["ci95"][1] * 100)
        fig, ax = plt.subplots(figsize=(1.5 + 1.2 * len(xs), 1.5 + 0.9 * len(ys)))
        image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=100, aspect="auto")
        ax.set_xticks(range(len(xs)), [_label(x) for x in xs])
        ax.set_yticks(range(len(ys)), [_label(y) for y in ys])
        ax.set_xlabel(a)
        ax.set_ylabel(b)
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                # NaN: no such cell, or no such side in its game.
                lo, hi = spans.get((i, j), (v, v))
                shown = "n/a" if v != v else f"{v:.0f}%\n[{lo:.0f}–{hi:.0f}]"
                ax.text(j, i, shown, ha="center", va="center", color="white", fontsize=8)
        fig.colorbar(image, label=f"{sides[0]} wins, %")
        # Two short lines: a heat map is narrow, and one line ran off its edges.
        ax.set_title(f"{sides[0]} wins, % [95% interval]\n{_games(cells)}", fontsize=9)
        fig.tight_layout()
        fig.savefig(folder / "heat-map.png", dpi=100)
        plt.close(fig)
        out.append(
            (
                "heat-map.png",
                f"{sides[0]}'s win rate by {a} and {b}, with its Wilson 95% interval "
                f"({_games(cells)}; n/a: no such side in that cell's game).",
            )
        )
    return out


def drawn_files(folder: Path) -> list[Path]:
    """The files :func:`write_report` has written in ``folder``: the report and its
    plots (what goes with the games they were drawn from)."""
    plots = ["win-rates.png", "heat-map.png", *(p.name for p in folder.glob("metric-*.png"))]
    return [folder / name for name in ("report.md", "report.html", *plots)]


def _label(value: object) -> str:
    """An option's value as a study file writes it: ``true``, not Python's ``True``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _sides(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every side of the cells' games, in the order they first appear."""
    return list(dict.fromkeys(side for c in cells for side in c["wins"]))


def _rate(cell: Mapping[str, Any], side: str) -> str:
    """A side's win rate in a cell with its interval; "—" where its game has no such
    side."""
    w = cell["wins"].get(side)
    if w is None:
        return "—"
    return f"{w['rate'] * 100:.1f}% [{w['ci95'][0] * 100:.1f}, {w['ci95'][1] * 100:.1f}]"


def _rows(results: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    cells = results["cells"]
    sides = _sides(cells)
    head = ["cell", *(f"{s} wins" for s in sides), "draws", "games", "mean length (actions)"]
    rows = []
    for c in cells:
        row = [str(c["name"])]
        row += [_rate(c, s) for s in sides]
        row += [f"{c['draws']['rate'] * 100:.1f}%", str(c["games"]), f"{c['mean_length']:.1f}"]
        rows.append(row)
    return head, rows


def _metric_rows(results: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    head = ["cell", "metric", "games", "mean", "sd", "95% interval of the mean"]
    rows = []
    for c in results["cells"]:
        for name, m in c["metrics"].items():
            low, high = m["interval"]
            rows.append(
                [str(c["name"]), name, str(m["games"]), f"{m['mean']:.3f}", f"{m['sd']:.3f}",
                 interval_text(low, high)]
            )  # fmt: skip
    return head, rows


def _side_lines(results: Mapping[str, Any]) -> list[str]:
    """What the win-rate table's sides hold where a cell's game moves a seat to another
    side in secret (``Ruleset.side_notes``: Specter Ops' traitor), one sentence per set
    of cells alike: ``In players=5 the sides are — agent: its seats and the traitor,
    …``."""
    try:
        rs = get_ruleset(results["ruleset"])
    except RulesError:
        return []  # a plug-in this process cannot load: the table as it is
    alike: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for cell in results["cells"]:
        notes = tuple(rs.side_notes(cell["config"]).items())
        if notes:
            alike.setdefault(notes, []).append(str(cell["name"]))
    return [
        f"In {', '.join(names)} the sides are — "
        + "; ".join(f"{side}: its seats {note}" for side, note in notes)
        + "."
        for notes, names in alike.items()
    ]


def write_report(
    folder: Path, results: Mapping[str, Any], games: Sequence[Mapping[str, Any]]
) -> list[Path]:
    """Write ``report.md``, ``report.html`` and their plots into ``folder``; returns the
    files written."""
    plots = _plots(folder, results, games)
    title = f"Study {results['study']}: {results['ruleset']} {results['ruleset_version']}"
    intro = (
        f"{results['games_per_cell']} games a cell, seed {results['seed']}; seats: "
        + ", ".join(f"{s} {b}" for s, b in results["seats"].items())
        + "; every other seat plays random."
    )
    sentences = [c["sentence"] for c in results["comparisons"]]
    head, rows = _rows(results)
    mhead, mrows = _metric_rows(results)

    md = [f"# {title}", "", intro, "", "## Win rates", ""]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(r) + " |" for r in rows]
    sides = _side_lines(results)
    md += ["", *sides] if sides else []
    md += ["", "## Comparisons", ""]
    md += [f"- {s}" for s in sentences] or ["(no two cells differ in one option)"]
    md += ["", "## Plots", ""]
    for file, caption in plots:
        md += [f"![{caption}]({file})", "", f"*{caption}*", ""]
    if mrows:
        md += ["## Metrics", "", "| " + " | ".join(mhead) + " |", "|" + "---|" * len(mhead)]
        md += ["| " + " | ".join(r) + " |" for r in mrows]
    (folder / "report.md").write_text("\n".join(md) + "\n", encoding="utf-8")

    def table(header: list[str], body: list[list[str]]) -> str:
        th = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        trs = "".join(
            "<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in r) + "</tr>" for r in body
        )
        return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"

    figures = "".join(
        f'<figure><img src="{html.escape(f)}" alt="{html.escape(c)}">'
        f"<figcaption>{html.escape(c)}</figcaption></figure>"
        for f, c in plots
    )
    items = "".join(f"<li>{html.escape(s)}</li>" for s in sentences)
    page = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}"
        "img{max-width:100%}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(intro)}</p>"
        f"<h2>Win rates</h2>{table(head, rows)}"
        + "".join(f"<p>{html.escape(line)}</p>" for line in sides)
        + f"<h2>Comparisons</h2><ul>{items}</ul>"
        f"<h2>Plots</h2>{figures}"
        + (f"<h2>Metrics</h2>{table(mhead, mrows)}" if mrows else "")
        + "</body></html>\n"
    )
    (folder / "report.html").write_text(page, encoding="utf-8")
    return [folder / "report.md", folder / "report.html", *(folder / f for f, _ in plots)]


def print_study(results: Mapping[str, Any], console: Console) -> None:
    """The cells' win rates (95% intervals) and the comparisons' sentences."""
    cells = results["cells"]
    sides = _sides(cells)
    table = Table(title=escape(f"{results['study']}: {results['games_per_cell']} games a cell"))
    table.add_column("cell")
    for side in sides:
        table.add_column(f"{side} wins", justify="right")
    table.add_column("draws", justify="right")
    for cell in cells:
        row = [escape(str(cell["name"])), *(_rate(cell, side) for side in sides)]
        row.append(f"{cell['draws']['rate'] * 100:.1f}%")
        table.add_row(*row)
    console.print(table)
    for line in _side_lines(results):
        console.print(escape(line), highlight=False)
    for c in results["comparisons"]:
        console.print(f"· {escape(c['sentence'])}", highlight=False)
