"""Specter Ops characters and equipment cards, as data.

The seed names no cards beyond the Orangutan; these follow the original game's published
cards as the rules specification reads them (characters and equipment section). What a
character or card *does* is coded once, in :mod:`.state` (search for its id); this module
only says what exists, its numbers, and whether a use is announced to the hunters.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AGENTS",
    "CARDS",
    "GENERIC_CARDS",
    "HUNTERS",
    "AgentCharacter",
    "Card",
    "HunterCharacter",
    "card_pool",
]


@dataclass(frozen=True, slots=True)
class AgentCharacter:
    """An agent character.

    Attributes:
        id: e.g. ``"cobra"``.
        name: e.g. ``"Cobra"``.
        health_bonus: added to the base health 4 (the Orangutan's +2).
        objective_range: king distance from which objectives are completed (Blue Jay 2).
        close_attack_range: attackers within this distance get ``close_attack_modifier``
            (the Spider: within 3, −2).
        close_attack_modifier: see above.
        ambush: the Cobra's stun of a hunter that ends on or orthogonally next to it.
        unique_card: the id of its unique equipment card.
        text: the ability for people.
    """

    id: str
    name: str
    unique_card: str
    text: str
    health_bonus: int = 0
    objective_range: int = 1
    close_attack_range: int = 0
    close_attack_modifier: int = 0
    ambush: bool = False


@dataclass(frozen=True, slots=True)
class HunterCharacter:
    """A hunter character.

    Attributes:
        id: e.g. ``"gun"``.
        name: e.g. ``"Gun"``.
        sniff: the Beast: after moving 3 or fewer steps it may ask whether the agent is
            within 4 squares.
        attack_dice: the Gun rolls 2 attack dice and keeps the better.
        attack_bonus: the Prophet's +2 (a natural 1 still misses).
        remote: the Puppet may use the sensor or drive the vehicle from anywhere.
        text: the ability for people.
    """

    id: str
    name: str
    text: str
    sniff: bool = False
    attack_dice: int = 1
    attack_bonus: int = 0
    remote: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    """An equipment card (SO-A7, SO-A8).

    Attributes:
        id: e.g. ``"adrenal-surge"``.
        name: e.g. ``"Adrenal Surge"``.
        uses: how many times its ability can be used; a spent card is gone (SO-A8).
        public: whether a use is announced (with its square and effect); a hidden use is
            not, and the possibility map allows for it while uses may remain.
        when: ``"before"`` the move, ``"after"`` it, or ``"either"``.
        target: ``"square"`` (a square within ``reach`` of the agent), ``"hunter"`` (a
            hunter figure within ``reach``), or ``""`` (none).
        reach: king distance for the target.
        owner: the agent character whose unique card it is, or ``""`` for generic cards.
        text: the effect for people.
    """

    id: str
    name: str
    uses: int
    public: bool
    when: str
    text: str
    target: str = ""
    reach: int = 0
    owner: str = ""


AGENTS: dict[str, AgentCharacter] = {
    a.id: a
    for a in (
        AgentCharacter(
            "cobra",
            "Cobra",
            "venom-dart",
            "A hunter that ends its move on the hidden agent's square is stunned; one that "
            "ends orthogonally next to it is stunned on a d6 of 4+.",
            ambush=True,
        ),
        AgentCharacter("orangutan", "Orangutan", "med-kit", "+2 health.", health_bonus=2),
        AgentCharacter(
            "spider",
            "Spider",
            "signal-jammer",
            "Hunters attacking from within 3 squares get -2 on the roll.",
            close_attack_range=3,
            close_attack_modifier=-2,
        ),
        AgentCharacter(
            "blue-jay",
            "Blue Jay",
            "holo-decoy",
            "Completes objectives from up to 2 squares away.",
            objective_range=2,
        ),
    )
}

HUNTERS: dict[str, HunterCharacter] = {
    h.id: h
    for h in (
        HunterCharacter(
            "beast",
            "Beast",
            "After moving 3 or fewer steps may sniff: the agent says whether it is within 4 "
            "squares.",
            sniff=True,
        ),
        HunterCharacter(
            "gun", "Gun", "Rolls 2 dice per attack and keeps the better.", attack_dice=2
        ),
        HunterCharacter(
            "prophet",
            "Prophet",
            "+2 to attack rolls; a natural 1 still misses.",
            attack_bonus=2,
        ),
        HunterCharacter(
            "puppet",
            "Puppet",
            "May use the motion sensor or drive the vehicle from anywhere, instead of moving.",
            remote=True,
        ),
    )
}

CARDS: dict[str, Card] = {
    c.id: c
    for c in (
        Card(
            "adrenal-surge",
            "Adrenal Surge",
            3,
            public=False,
            when="before",
            text="Move up to 6 steps this turn.",
        ),
        Card(
            "flash-bang",
            "Flash Bang",
            3,
            public=True,
            when="either",
            target="square",
            reach=4,
            text="Choose a square within 4: every hunter not aboard the vehicle that can see "
            "it is stunned.",
        ),
        Card(
            "smoke-grenade",
            "Smoke Grenade",
            3,
            public=True,
            when="either",
            target="square",
            reach=4,
            text="Choose a square within 4: the 3x3 area around it blocks sight (not movement) "
            "until the end of the agent's next turn.",
        ),
        Card(
            "stealth-field",
            "Stealth Field",
            3,
            public=False,
            when="either",
            text="This turn the agent is visible only to hunters within 2 squares.",
        ),
        Card(
            "holo-decoy",
            "Holo Decoy",
            2,
            public=False,
            when="after",
            target="square",
            owner="blue-jay",
            text="Place the Last Seen token on any square the agent could have been seen on "
            "this turn (a hunter sees it and the agent could have reached it).",
        ),
        Card(
            "venom-dart",
            "Venom Dart",
            2,
            public=True,
            when="either",
            target="hunter",
            reach=4,
            owner="cobra",
            text="Stun a hunter on foot within 4 squares.",
        ),
        Card(
            "med-kit",
            "Med Kit",
            1,
            public=True,
            when="either",
            owner="orangutan",
            text="Regain 1 health, up to the starting health.",
        ),
        Card(
            "signal-jammer",
            "Signal Jammer",
            2,
            public=True,
            when="either",
            owner="spider",
            text="Until the end of the agent's next turn the motion sensor detects nothing.",
        ),
    )
}

GENERIC_CARDS = tuple(c.id for c in CARDS.values() if not c.owner)


def card_pool(agent: str) -> tuple[str, ...]:
    """The cards an agent character may take: the generic ones and its unique card."""
    return (*GENERIC_CARDS, AGENTS[agent].unique_card)
