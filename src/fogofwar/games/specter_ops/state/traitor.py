"""The traitor (SO-T2…T6): the 5-player game with the ``traitor`` switch on.

* ``traitor H3`` — at the end of setup the agent deals the role cards: one hunter is
  the traitor; only it and the agent know (SO-T2).
* The traitor's sight does not place the agent; its seeing the hidden agent that no
  loyal hunter sees is a *concealed sighting*, told to the agent and the traitor
  (SO-T3).
* ``accuse H2`` — once per game per hunter seat, at the start of its turn, while the
  traitor is unrevealed: proven if the accused is the traitor and has had a concealed
  sighting, which reveals it; else nothing happens, in public (SO-T4).
* ``reveal`` — the traitor's seat reveals itself at the start of its turn (SO-T4).
* Revealed, the traitor's figure leaves the hunters and becomes a second, hidden agent
  on its square, with a character not in use and 2 cards (SO-T5); the agents win when
  both escape, or when the first escapes while the traitor is unrevealed (SO-T6).
"""

from __future__ import annotations

import itertools

from ....core.game import Action, emit
from ....core.rules import Refusal
from ..characters import AGENTS, CARDS, card_pool
from ..knowledge import NO_KIT, Kit, PossibilityMap
from .attacks import Attacks
from .pieces import AGENT, BASE_HEALTH, Agent, Kind, Phase, Resume, Sighting

__all__ = ["Traitor"]


class Traitor(Attacks):
    """SO-T2…T6: the traitor game."""

    # ------------------------------------------------------------------ the deal (SO-T2)

    def _deal_options(self, seat: str) -> list[tuple[str]]:
        return [(h.id,) for h in self.hunters]

    def _check_deal(self, seat: str, args: tuple[str]) -> Refusal | None:
        """SO-T2: the traitor card goes to one of the hunter figures."""
        if any(h.id == args[0] for h in self.hunters):
            return None
        return self._refuse_deal()

    def _refuse_deal(self, action: Action | None = None) -> Refusal:
        return "the traitor card goes to one of the hunters H1 … H4", "SO-T2"

    def _refuse_before_deal(self, action: Action) -> Refusal:
        return "the agent first deals the role cards: 'traitor H1' … 'traitor H4'", "SO-T2"

    def _deal(self, seat: str, args: tuple[str]) -> None:
        """SO-T2: the agent deals the role cards; only it and the traitor know."""
        h = next(x for x in self.hunters if x.id == args[0])
        self.traitor, self.traitor_seat = h.id, h.seat
        emit(self.events, "traitor_dealt", to=(AGENT,), hunter=h.id, seat=h.seat)
        emit(self.events, "roles_dealt", hunters=[x.id for x in self.hunters])
        for x in self.hunters:
            role = "traitor" if x is h else "loyal"
            emit(self.events, "role", to=(x.seat,), hunter=x.id, role=role)
        roles = [(x.id, False) for x in self.hunters]
        a1 = self.focus
        a1.knowledge = PossibilityMap.start(self.geo.agent_start, self.site_sets, self._kits, roles)
        # The traitor knows its role (and so far nothing more): its map is the public
        # one's worlds of its role (Board.traitor_map).
        self._derive_traitor_map()
        self._start_agent_turn()

    # ------------------------------------------------------------------ accusations (SO-T4)

    def _accuser_refusal(self, seat: str, kind: str) -> Refusal | None:
        """SO-T4 (and SO-T2, SO-G1): why the hunter seat may not accuse now, whoever it
        names — once per game, at the start of its turn, while the traitor is unrevealed
        — or, for a reveal, why it may not reveal itself (only the traitor may); the
        role cards are dealt once."""
        if kind == Kind.TRAITOR:
            return "the role cards are dealt once, at the end of setup", "SO-T2"
        if not self.traitor_game:
            return "there is a traitor only in the 5-player game with the switch on", "SO-G1"
        if self.traitor_revealed:
            return "the traitor has already been revealed", "SO-T4"
        if self.phase is not Phase.HUNTER or self.current is None:
            return f"a hunter may {kind} only at the start of its own turn", "SO-T4"
        if self.steps or self.drove:
            return f"a hunter may {kind} only at the start of its turn, before moving", "SO-T4"
        if kind == Kind.REVEAL:
            # Its own accusation spent or not: SO-T4's voluntary reveal has no condition.
            if self.hunters[self.current].id == self.traitor:
                return None
            return "only the traitor may reveal itself", "SO-T4"
        if seat in self.accused:
            return "each hunter may accuse only once per game", "SO-T4"
        return None

    def _accusation_refusal(self, seat: str, kind: str, accused: str | None) -> Refusal | None:
        """SO-T4: the seat's accusation of ``accused`` (one of the other hunters), or its
        reveal; see :meth:`_accuser_refusal`."""
        found = self._accuser_refusal(seat, kind)
        if found is not None or kind != Kind.ACCUSE:
            return found
        h = self._active()
        if any(x.id == accused for x in self.hunters if x is not h):
            return None
        return "a hunter accuses one of the other hunters (H1 … H4)", "SO-T4"

    def _traitor_refusal(self, seat: str, kind: str, accused: str | None) -> Refusal:
        """Why a deal, an accusation or a reveal that is not a move now (or whose
        arguments do not parse) is refused."""
        found = self._accusation_refusal(seat, kind, accused)
        return found or ("only the traitor may reveal itself", "SO-T4")

    def _accusation_open(self) -> bool:
        """Whether an accusation or a reveal may be made at all now: in the traitor
        game, the traitor unrevealed, a hunter at the start of its turn (the hunter
        phase lists them only then)."""
        return self.traitor_game and not self.traitor_revealed and not self.steps and not self.drove

    def _accusations(self, seat: str) -> list[tuple[str]]:
        """The seat's accusations now, from the rule's parts: the other hunters, when it
        may accuse at all."""
        if self._accuser_refusal(seat, Kind.ACCUSE) is not None:
            return []
        h = self._active()
        return [(x.id,) for x in self.hunters if x is not h]

    def _reveals(self, seat: str) -> list[tuple[()]]:
        """The traitor's reveal, when it may reveal itself now."""
        return [()] if self._accuser_refusal(seat, Kind.REVEAL) is None else []

    def _check_accuse(self, seat: str, args: tuple[str]) -> Refusal | None:
        return self._accusation_refusal(seat, Kind.ACCUSE, args[0])

    def _check_reveal(self, seat: str, args: tuple[()]) -> Refusal | None:
        return self._accusation_refusal(seat, Kind.REVEAL, None)

    def _accuse(self, seat: str, args: tuple[str]) -> None:
        """Proven if the accused had a concealed sighting (SO-T4): it is revealed.
        Otherwise nothing happens and the failure is announced — which tells the map
        that if the accused is the traitor, it has seen nothing concealed yet."""
        if self.current is None:  # pragma: no cover
            return
        h = self.hunters[self.current]
        accused = args[0]
        self.accused[h.seat] = accused
        proven = accused == self.traitor and bool(self.concealed)
        emit(self.events, "accusation", hunter=h.id, seat=h.seat, accused=accused, proven=proven)
        if proven:
            # Proven: the accused is the traitor and has had a concealed sighting.
            self._learn(lambda k: k.roles_where(lambda r: r == (accused, True)))
            self._reveal_traitor("accused")
            return
        self.failed_accusations += 1
        self._learn(lambda k: k.roles_where(lambda r: not (r[0] == accused and r[1])))

    def _reveal(self, seat: str, args: tuple[()]) -> None:
        self._reveal_traitor("voluntary")

    # ------------------------------------------------------------------ the reveal (SO-T5)

    def _reveal_traitor(self, how: str) -> None:
        """SO-T4, SO-T5: the traitor's figure leaves the hunters and becomes a second,
        hidden agent on its square; it picks an agent character not in use (4 health,
        6 for the Orangutan) and 2 cards, in secret."""
        geo = self.geo
        k = next(i for i, x in enumerate(self.hunters) if x.id == self.traitor)
        h = self.hunters[k]
        self.traitor_revealed = True
        was_current = self.current == k
        current = None if self.current is None else self.hunters[self.current]
        del self.hunters[k]
        self.current = None if current is None or was_current else self.hunters.index(current)
        emit(
            self.events,
            "traitor_revealed",
            hunter=h.id,
            seat=h.seat,
            square=geo.name(h.square),
            how=how,
        )
        self._learn(lambda m: m.roles_where(lambda r: r[0] == h.id))
        self.traitor_map = None
        a2 = Agent(
            "A2",
            h.seat,
            h.square,
            [h.square],
            BASE_HEALTH,
            PossibilityMap.start(h.square, ()),
            max_health=BASE_HEALTH,
            character_public=not self.with_characters,
            turn_start=h.square,
            path_sight=self.sight(),
            shown=h.square,
        )
        self.agents.append(a2)
        self._resume = Resume.NEXT if was_current or self.current is None else Resume.HUNTER
        if self.with_characters:
            self.focus_index = 1
            self.phase = Phase.PICK_AGENT
            emit(self.events, "second_agent", agent="A2", seat=h.seat, square=geo.name(h.square))
        else:
            emit(
                self.events,
                "second_agent",
                agent="A2",
                seat=h.seat,
                square=geo.name(h.square),
                health=a2.health,
            )
            self._second_agent_ready()

    def _second_agent_ready(self) -> None:
        """A2's kit is chosen: its map starts; the hunters' round goes on."""
        a1, a2 = self.agents
        a1_char = a1.character if a1.character_public else None
        kits: list[Kit] = [NO_KIT]
        if self.with_characters:
            kits = [
                (char, tuple(sorted((c, CARDS[c].uses) for c in hand)))
                for char in AGENTS
                if char != a1_char
                for hand in itertools.combinations(card_pool(char), 2)
            ]
        a2.knowledge = PossibilityMap.start(a2.square, (), kits)
        self.focus_index = 0
        self._distinct_characters()
        if self._resume is Resume.HUNTER:
            self.phase = Phase.HUNTER
        else:
            self._next_hunter()

    # ------------------------------------------------------------------ sightings (SO-T3)

    def _concealed_moment(self, moment: str, *, stealth: bool = False) -> None:
        """SO-T3, SO-T4: the traitor sees the hidden first agent that no loyal hunter
        sees; its figure is not placed, and the agent and the traitor know it."""
        if not self.traitor or self.traitor_revealed:
            return
        a1 = self.agents[0]
        traitor = next(h for h in self.hunters if h.id == self.traitor)
        seen = self._seen_by([traitor.square], stealth=stealth)
        now = a1.shown is None and bool(seen >> a1.square & 1)
        if now:
            square = self.geo.name(a1.square)
            self.concealed.append(Sighting(round=self.round, moment=moment, square=square))
            emit(
                self.events,
                "concealed_sighting",
                to=(AGENT, self.traitor_seat),
                hunter=self.traitor,
                square=square,
                moment=moment,
            )
        if self.searching or (self._traitor_own is None and not self._traitor_derived):
            return
        if self._traitor_derived and not now:
            # Unseen by the traitor too: its map is still the public map's worlds of its
            # role never seen concealed (the public flag means "ever"), derived.
            return
        # The traitor knows whether it sees the agent at this moment: its own map keeps
        # the worlds that agree. Its map's flag means "seen at the current moment" (the
        # public map's: "ever"), so it is cleared for the next one.
        known = self._own_traitor_map().roles_where(lambda r: r[1] == now)
        if now:
            known = known.revealed(a1.square)
        self.traitor_map = known.split_roles(lambda r: [((r[0], False), -1)])
