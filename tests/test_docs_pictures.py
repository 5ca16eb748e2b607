"""The docs' pictures are drawn by ``make docs`` from the real renderers (issue 21, item
14) and are up to date: drawing them again gives the same text."""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "pictures"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("docs_pictures", FOLDER / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(svg: str) -> str:
    """What an SVG of rich's shows, without its markup (robust to how rich splits it)."""
    found = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    return "".join(html.unescape(t) for t in found).replace("\xa0", " ")


def test_pictures_are_drawn_and_up_to_date(tmp_path: Path) -> None:
    written = _generator().generate(tmp_path)
    assert {p.name for p in written} == {p.name for p in FOLDER.glob("*.svg")}
    for fresh in written:
        kept = (FOLDER / fresh.name).read_text(encoding="utf-8")
        assert _text(fresh.read_text(encoding="utf-8")) == _text(kept), (
            f"{fresh.name} is out of date: run make docs"
        )
    shown = _text((tmp_path / "play-specter-ops.svg").read_text(encoding="utf-8"))
    assert "agent to act" in shown and "agent>" in shown and "map shows all" in shown
    assert "H1↗" in _text((tmp_path / "play-zero-dark.svg").read_text(encoding="utf-8"))


def test_every_picture_is_in_the_docs() -> None:
    docs = " ".join(
        p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *ROOT.glob("docs/*.md")]
    )
    for picture in FOLDER.glob("*.svg"):
        assert f"pictures/{picture.name}" in docs, picture.name
