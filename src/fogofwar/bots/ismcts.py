"""``ismcts``: information-set Monte Carlo tree search over the game protocol, for any
rule set that can sample worlds (:meth:`~fogofwar.core.game.Ruleset.sample_world`).

Each iteration draws one *determinisation* — a full state consistent with the seat's
view, from :meth:`Ruleset.sample_world` — and plays it to the end:

* **The tree holds the searching seat's own decisions only.** A node is the sequence of
  this seat's actions since the root; its children are keyed by the seat's next action.
  The other seats act by the rollout policy, inside the tree and below it. A hidden
  action of another seat (the agent's step, a card from a concealed hand) is therefore
  never a branch of the tree: no determinisation can steer the search by what the seat
  cannot see (the leak of single-observer ISMCTS), and the tree stays as narrow as the
  seat's own choices. The price: the opponents' replies are modelled by the rollout
  policy, not searched.
* **Selection** is ISUCT (Cowling, Powley and Whitehouse 2012): among the actions legal
  in this determinisation, the one maximising ``mean + c * sqrt(ln(available) / visits)``,
  where ``available`` counts the iterations in which the action was legal. An action
  never tried in this node is tried first (one expansion per iteration, chosen at
  random from the bot's stream).
* **Rollouts** play every other decision with the rollout policy: ``random`` (a legal
  action at random, no view needed: the fast default), or ``heuristic`` (the rule set's
  default bot for each seat, from that seat's view of the determinisation).
* **A prior from the heuristic** (progressive bias): where the rule set has a heuristic
  bot for the seat, each node asks it once, from the seat's view of the world that first
  reached the node, which action it would play; that action is tried first and its
  score gets ``prior / (1 + visits)`` more. At the root this is the heuristic's own move
  from the real view: a small budget plays like the heuristic, a larger one departs
  from it where the worlds say so.
* **Reward** is 1 for a game the seat wins, 0.5 for a draw, 0 for a loss; the move
  played is the root's most visited action (ties: the higher mean, then the first legal).
* **Routes left to the heuristic** (``steps``): where the rule set names the kinds of
  action that only carry out a move already chosen (:attr:`Ruleset.route_kinds
  <fogofwar.core.game.Ruleset.route_kinds>`: Zero Dark's steps, facings and stops), a
  decision whose legal actions are all of those kinds is the seat's heuristic's, at the
  table (no search: it answers at once) and inside the tree (no node: the iteration
  goes on to the seat's next choice). The search then decides whole moves — which hero
  acts, what it fires at, which card is played — rather than single steps: a few
  times fewer searched decisions a game, and trees whose depth is choices, not steps.
  ``steps=search`` searches every decision.
* **Paired worlds at the root** (``root=paired``): instead of a tree, each sampled
  world plays *every* legal action of the decision, from the same world and the same
  rollout stream (common random numbers), every seat this one included then played by
  the rollout policy; the move is the action of the best mean (ties: the heuristic's
  choice among them). Where most of a rollout's value comes from the world drawn (where
  the hidden agent is) rather than from the action, comparing actions on the same
  worlds cancels that part: measured at Specter Ops hunters' decisions, the variance of
  a difference between two actions' values falls five-fold and more (the median;
  ``bench/bench_root_regret.py``, docs/search.md).
  ``iterations`` counts rollouts: ``ceil(iterations / actions)`` worlds.
* **Rollouts cut short** (``depth``): with ``depth=N`` above 0 an iteration stops ``N``
  actions after the seat's last decision in the tree (past the tree, or inside it where
  the other seats play on), and the reward is the rule set's evaluation of the world
  then (:meth:`Ruleset.evaluation`: the seat's modelled chance, fitted to heuristic
  games): many more iterations a second, at the price of the model's error.

* **Worlds drawn fast** (the parameters do not change it): the worlds of one decision
  come from one :meth:`Ruleset.world_sampler` (the view's table laid out once). With
  random rollouts a view of a world is read only where a node first asks the heuristic
  for its hint, so each iteration first plays a world that keeps no views
  (``views=False``); one that reaches such a node is undone and played again from the
  start in a world that keeps them, from the same streams: the same iteration, and the
  same tree as if every world kept its views (tests compare whole trees, both ways).

Parameters (``ismcts:iterations=400,c=0.7``): ``iterations`` (the budget, 200 by
default), ``seconds`` (a time budget instead, when above 0: the search stops at
whichever comes first; the same seed then no longer gives the same move), ``c`` (the
exploration constant, 0.7), ``rollout`` (``random`` or ``heuristic``) and ``prior``
(the heuristic's bias, 1.0; 0 turns it off) and ``depth`` (rollout actions before the
evaluation takes over; 0, the default, plays every rollout to the end; a rule set
without an evaluation refuses a depth) and ``steps`` (``heuristic``, the default, or
``search``) and ``widen`` (progressive widening: 0, the default, tries every legal
action of a node before choosing among them; α between 0 and 1 lets a node visited
``n`` times keep to its first ``ceil((n + 1)^α)`` actions — the heuristic's first, then
at random — so that a small budget searches a few steps deep rather than every step
once) and ``root`` (``tree``, the default, or ``paired``). With a fixed iteration
budget the same view, legal actions and stream give the same move.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from fogofwar.core.errors import RulesError
from fogofwar.core.game import (
    Action,
    Config,
    Evaluation,
    Outcome,
    PlayerView,
    Ruleset,
    State,
    get_ruleset,
)
from fogofwar.core.rng import Stream

from .base import Bot, make_bot

__all__ = ["IsmctsBot", "searchable"]

ROLLOUTS = ("random", "heuristic")
STEPS = ("heuristic", "search")
ROOTS = ("tree", "paired")
_FAST = True  # tests turn it off: every iteration in a world that keeps its views


def searchable(ruleset_id: str) -> bool:
    """Whether ``ismcts`` plays ``ruleset_id`` (its rule set samples worlds)."""
    try:
        return get_ruleset(ruleset_id).can_sample_worlds
    except RulesError:
        return False


@dataclass(slots=True)
class _Node:
    """A sequence of the seat's own actions: its statistics and its children."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[Action, _Node] = field(default_factory=dict)
    hint: Action | None = None  # the heuristic's choice here (the prior)
    hinted: bool = False
    bonus: float = 0.0  # the prior's bias, where this action is its parent's hint


class IsmctsBot(Bot):
    """Information-set MCTS with determinisation from ``sample_world`` (see the module
    doc)."""

    name = "ismcts"

    def __init__(
        self,
        *,
        iterations: int = 200,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        prior: float = 1.0,
        depth: int = 0,
        steps: str = "heuristic",
        widen: float = 0.0,
        root: str = "tree",
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise RulesError(f"ismcts: iterations is a whole number, 1 or more, not {iterations!r}")
        if not isinstance(seconds, int | float) or not seconds >= 0 or seconds == math.inf:
            raise RulesError(f"ismcts: seconds is a number, 0 or more, not {seconds!r}")
        if not isinstance(c, int | float) or not c >= 0 or c == math.inf:
            raise RulesError(f"ismcts: c is a number, 0 or more, not {c!r}")
        if not isinstance(prior, int | float) or not prior >= 0 or prior == math.inf:
            raise RulesError(f"ismcts: prior is a number, 0 or more, not {prior!r}")
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise RulesError(f"ismcts: depth is a whole number, 0 or more, not {depth!r}")
        if isinstance(widen, bool) or not isinstance(widen, int | float) or not 0 <= widen < 1:
            raise RulesError(f"ismcts: widen is a number from 0 to below 1, not {widen!r}")
        if steps not in STEPS:
            raise RulesError(f"ismcts: steps is one of {', '.join(STEPS)}, not {steps!r}")
        if rollout not in ROLLOUTS:
            raise RulesError(f"ismcts: rollout is one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if root not in ROOTS:
            raise RulesError(f"ismcts: root is one of {', '.join(ROOTS)}, not {root!r}")
        if root == "paired" and widen:
            raise RulesError("ismcts: widen shapes a tree; root=paired grows none")
        self.iterations = iterations
        self.seconds = float(seconds)
        self.c = float(c)
        self.rollout = rollout
        self.prior = float(prior)
        self.depth = depth
        self.steps = steps
        self.widen = float(widen)
        self.root = root
        self.route: frozenset[str] = frozenset()  # the kinds left to the heuristic (reset)
        self.evaluation: Evaluation | None = None
        self.hints = False  # whether this seat has a heuristic to ask (set by reset)
        self.tie_break = False  # whether a paired search's ties go to the heuristic (reset)
        self.seat = ""
        self.ruleset: Ruleset | None = None
        self.policies: dict[str, Bot] = {}
        self.last_iterations = 0  # how many the last decision ran (for benchmarks)
        self.last_root = _Node()

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        rs = get_ruleset(ruleset_id)
        if not rs.can_sample_worlds:
            raise RulesError(f"ismcts needs a rule set that samples worlds; {rs.id} does not")
        self.evaluation = rs.evaluation(config) if self.depth else None
        if self.depth and self.evaluation is None:
            raise RulesError(
                f"ismcts: depth needs a rule set that evaluates positions; {rs.id} does not"
            )
        self.seat = seat
        self.ruleset = rs
        self.policies = {}
        own = rs.default_bots.get(seat, "random")
        heuristic = own not in ("random", self.name)
        self.hints = self.prior > 0 and heuristic
        # A paired search breaks its ties with the heuristic's move where there is one.
        self.tie_break = self.root == "paired" and heuristic
        ask = self.hints or self.tie_break
        self.route = rs.route_kinds if self.steps == "heuristic" and heuristic else frozenset()
        if self.rollout == "heuristic" or ask or self.route:
            for s in rs.seats(config):
                name = rs.default_bots.get(s, "random")
                bot = make_bot("random" if name == self.name else name, rs.id)
                bot.reset(s, rs.id, config)
                self.policies[s] = bot

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.ruleset is None:
            raise RulesError("ismcts: reset() was not called before choose()")
        if self._routine(legal):
            self.last_iterations = 0
            self.last_root = _Node()
            return self.policies[self.seat].choose(view, legal, stream)
        salt = stream.bits64()  # one word per decision: every iteration's streams below it
        if self.root == "paired":
            return self._paired(view, legal, stream, salt)
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        sampler = self.ruleset.world_sampler(view)
        # With random rollouts a view of the world is read only where a node of the
        # tree first asks the heuristic for its hint (a few iterations in ten): each
        # iteration first plays a world that keeps no views, and only one that comes to
        # such a node is played again from the start in a world that does (the same
        # world and the same draws, so the same iteration: `_FAST` off plays them all
        # so, and tests compare the trees).
        fast = _FAST and self.rollout == "random" and not self.route
        done = 0
        while done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if not fast or not self._iterate(
                sampler(stream.fork("world", salt, done), views=False),
                root,
                stream.fork("play", salt, done),
                legal,
                probe=self.hints,
            ):
                world = sampler(stream.fork("world", salt, done))
                if self.rollout == "random" and not self.hints and not self.route:
                    world.skip_views()  # no view of it is ever read
                self._iterate(world, root, stream.fork("play", salt, done), legal)
            done += 1
        self.last_iterations = done
        self.last_root = root  # the last decision's tree (for tests and benchmarks)
        best: Action | None = None
        key = (-1, -1.0)
        for a in legal:  # in legal order: ties go to the first
            node = root.children.get(a)
            if node is None:
                continue
            k = (node.visits, node.reward / node.visits)
            if k > key:
                best, key = a, k
        return best if best is not None else legal[0]

    def _paired(
        self, view: PlayerView, legal: Sequence[Action], stream: Stream, salt: int
    ) -> Action:
        """``root=paired``: each sampled world plays every legal action from the root
        (the same world and the same rollout stream for each), so the actions are
        compared on common worlds; the move is the best mean. ``iterations`` counts
        rollouts: ``ceil(iterations / len(legal))`` worlds, whole worlds only."""
        if self.ruleset is None:  # pragma: no cover - choose() checked it
            raise RulesError("ismcts: reset() was not called before choose()")
        worlds = -(-self.iterations // len(legal))
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        sums = [0.0] * len(legal)
        views = self.rollout != "random"  # a random rollout reads no view
        sampler = self.ruleset.world_sampler(view)
        done = 0
        while done < worlds:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            for i, action in enumerate(legal):
                # Drawn again for each action from the same stream: the very same world
                # (a function of the view and the stream), played on from the same
                # rollout stream.
                world = sampler(stream.fork("world", salt, done), views=views)
                sums[i] += self._rollout(world, stream.fork("play", salt, done), action)
            done += 1
        self.last_iterations = done * len(legal)
        root = _Node(visits=done * len(legal), reward=sum(sums))
        for action, total in zip(legal, sums, strict=True):
            root.children[action] = _Node(visits=done, reward=total, available=done)
        self.last_root = root
        top = max(sums)
        best = [a for a, total in zip(legal, sums, strict=True) if total >= top - 1e-9]
        if len(best) > 1 and self.tie_break:
            # Worlds that cannot tell the best apart: the heuristic's move, if among them.
            hint = self.policies[self.seat].choose(view, legal, stream.fork("hint", salt))
            if hint in best:
                return hint
        return best[0]

    def _rollout(self, world: State, play: Stream, first: Action) -> float:
        """The seat's reward for ``world`` played on by the rollout policy (every seat,
        this one too) to its end, or ``depth`` actions after ``first`` (the seat's
        action from the root) and the evaluation. Seats that act before this one in the
        runner's order (sorted seats, where several may act) play first, as in the
        tree."""
        seat = self.seat
        limit = self.ruleset.metadata.max_length if self.ruleset is not None else 10**6
        evaluation = self.evaluation
        started = False
        rolled = steps = 0
        while (outcome := world.outcome()) is None:
            steps += 1
            if steps > limit:
                return 0.5  # past the rule set's longest game: a draw, as in the tree
            if started and evaluation is not None and rolled >= self.depth:
                return evaluation(world, seat)
            actor = min(world.to_act())
            options = world.legal_actions(actor)
            if actor == seat and not started:
                if first not in options:
                    raise RulesError(
                        f"ismcts: {first} is not legal in a world sampled from the view of "
                        f"{seat}, where the view allows it (Ruleset.sample_world)"
                    )
                action = first
                started = True
            else:
                action = self._policy(world, actor, options, play)
                rolled += started
            world.apply_unchecked(action)
        return self._reward(outcome)

    def _policy(self, world: State, actor: str, options: Sequence[Action], play: Stream) -> Action:
        """The rollout policy's action for ``actor``: its heuristic's, from its view of
        the world, or a legal action at random."""
        if self.rollout == "heuristic":
            return self.policies[actor].choose(world.view(actor), tuple(options), play)
        return options[play.randbelow(len(options))]

    def _reward(self, outcome: Outcome) -> float:
        """1 for a game the seat's side won, ½ for a draw, 0 for a loss (also to a side
        with no seat, as Warfighter's Hostiles: a draw is a game no side won)."""
        if self.seat in outcome.winners:
            return 1.0
        if outcome.is_draw:
            return 0.5
        return 0.0

    def _iterate(
        self,
        world: State,
        root: _Node,
        play: Stream,
        legal: Sequence[Action],
        *,
        probe: bool = False,
    ) -> bool:
        """One iteration from ``world``, backed up the tree: True. ``legal``: the seat's
        legal actions in the view, which are its legal actions in any world sampled
        from it (:meth:`Ruleset.sample_world`), so the first decision does not ask the
        world again. ``probe``: ``world`` keeps no views, so an iteration that comes to
        a node still without its hint stops there, undoes what it counted on the way
        (False) and changes nothing."""
        seat = self.seat
        node: _Node | None = root
        path = [root]
        chosen: list[tuple[_Node, Sequence[Action]]] = []  # each selection (for a probe)
        # A world that ran past the rule set's longest game (none should) counts as a
        # draw rather than a search that never ends.
        limit = self.ruleset.metadata.max_length if self.ruleset is not None else 10**6
        steps = 0
        # The cut-off (depth) counts the actions since the seat's last decision in the
        # tree, whoever takes them: past the tree, and inside it where the other seats
        # play long stretches (or the seat never acts again); never before the seat's
        # first decision, so every iteration reaches a child of the root.
        rolled = 0
        depth = self.depth
        evaluation = self.evaluation  # set by reset only with a depth
        while (outcome := world.outcome()) is None:
            steps += 1
            if steps > limit:
                self._back(path, 0.5)
                return True
            if evaluation is not None and rolled >= depth and len(path) > 1:
                self._back(path, evaluation(world, seat))
                return True
            actor = min(world.to_act())  # the runner's order: sorted seats
            # The world as sampled, the seat to act: its legal list is the view's.
            options = legal if steps == 1 and actor == seat else world.legal_actions(actor)
            if actor == seat and node is not None and self._routine(options):
                # A step of a move the tree chose: the heuristic walks it, and the
                # cut-off counts it like any action past the seat's last choice.
                action = self.policies[seat].choose(world.view(seat), tuple(options), play)
                rolled += 1
            elif actor == seat and node is not None:
                if self.hints and not node.hinted:
                    if probe:  # the hint needs the seat's view, which this world lacks
                        self._unselect(chosen)
                        return False
                    node.hinted = True
                    node.hint = self.policies[seat].choose(world.view(seat), tuple(options), play)
                if probe:
                    chosen.append((node, options))
                action = self._select(node, options, play)
                child = node.children.get(action)
                if child is None:  # expanded now: the rest is a rollout
                    # (A node's hint is asked before any of its children is made.)
                    bonus = self.prior if action == node.hint else 0.0
                    child = node.children[action] = _Node(available=1, bonus=bonus)
                    node = None
                    if self.rollout == "random":
                        world.skip_views()  # hints and routes read views in the tree only
                else:
                    node = child
                path.append(child)
                rolled = 0
            else:
                action = self._policy(world, actor, options, play)
                rolled += 1
            world.apply_unchecked(action)
        self._back(path, self._reward(outcome))
        return True

    @staticmethod
    def _unselect(chosen: Sequence[tuple[_Node, Sequence[Action]]]) -> None:
        """Undo what :meth:`_select` counted at each ``(node, options)``: each legal
        child's availability."""
        for node, options in chosen:
            children = node.children
            for a in options:
                if a in children:
                    children[a].available -= 1

    def _routine(self, options: Sequence[Action]) -> bool:
        """Whether a decision only carries out a move (its actions all of the rule set's
        route kinds), left to the heuristic."""
        route = self.route
        return bool(route) and all(a.kind in route for a in options)

    @staticmethod
    def _back(path: Sequence[_Node], reward: float) -> None:
        """Back the iteration's reward up the nodes it went through."""
        for n in path:
            n.visits += 1
            n.reward += reward

    def _select(self, node: _Node, options: Sequence[Action], play: Stream) -> Action:
        """ISUCT among the actions legal here; an untried one first."""
        untried: list[Action] = []
        best: Action | None = None
        score = -math.inf
        children = node.children
        get = children.get
        hint = node.hint
        c, sqrt, log = self.c, math.sqrt, math.log
        for a in options:
            child = get(a)
            if child is None:
                untried.append(a)
                continue
            child.available += 1
            visits = child.visits
            if visits:
                value = child.reward / visits + c * sqrt(log(child.available) / visits)
                if child.bonus:  # the heuristic's choice (progressive bias)
                    value += child.bonus / (1 + visits)
            else:
                value = math.inf
            if value > score:
                best, score = a, value
        # Progressive widening (``widen`` α above 0): a node visited n times keeps to
        # its first ceil((n + 1)^α) actions tried while one of them is legal here, so
        # that its visits go deeper down its best few rather than one to every action.
        if untried and (
            best is None
            or not self.widen
            or len(children) < math.ceil((node.visits + 1) ** self.widen)
        ):
            if hint is not None and hint in untried:
                return hint  # the heuristic's choice is tried first
            return untried[play.randbelow(len(untried))]
        if best is None:  # pragma: no cover - options is never empty
            raise RulesError("ismcts: no legal action in a determinisation")
        return best
