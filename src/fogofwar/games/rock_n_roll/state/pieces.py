"""Pieces and where they are: the sides, the zones a unit or local can be in, the piece
record, and the order of card ids (V2 before V10)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final, Literal

from ..cards import SIDES, UnitCard

__all__ = ["SIDES", "Piece", "Zone", "ZoneName", "id_key", "other"]


def other(side: str) -> str:
    """The opposing side."""
    return SIDES[1] if side == SIDES[0] else SIDES[0]


ZoneName = Literal["deck", "hand", "point", "hq", "prison", "gone", "discard"]
"""Where a unit or local card is (:class:`Zone` names them)."""


class Zone:
    """The zones' names (:data:`ZoneName`). Plain strings rather than an enum: the board
    compares zones in the hot path of play (holding, superiority, the legal list), where
    an exact ``str`` compares several times faster than a ``StrEnum`` member."""

    DECK: Final = "deck"
    HAND: Final = "hand"
    POINT: Final = "point"
    HQ: Final = "hq"
    PRISON: Final = "prison"
    GONE: Final = "gone"  # executed: out of the match (PT-P6)
    DISCARD: Final = "discard"  # a dead local (PT-L5), or one given up


@dataclass(slots=True)
class Piece:
    """Where one unit or local card is and what it fights for.

    Attributes:
        card: the card.
        owner: the side it fights for (a recruited unit: its captor, PT-P6); ``None``
            for a neutral local (PT-T4).
        zone: where it is (a :class:`Zone` name).
        holder: the side whose deck, hand, HQ or prison holds it.
        pos: its position in the row when on a Point.
        hits: hits taken this round (PT-C5).
        dead: in its HQ because it died (Devil's hand option 2).
    """

    card: UnitCard
    owner: str | None
    zone: ZoneName
    holder: str | None
    pos: int = -1
    hits: int = 0
    dead: bool = False


@functools.cache
def id_key(card_id: str) -> tuple[str, int]:
    """Sort ids as prefix then number: V2 before V10."""
    i = len(card_id)
    while i > 0 and "0" <= card_id[i - 1] <= "9":  # ASCII only: int() refuses "²"
        i -= 1
    return (card_id[:i], int(card_id[i:]) if i < len(card_id) else 0)
