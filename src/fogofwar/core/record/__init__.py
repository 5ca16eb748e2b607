"""Game records: versioned JSON files that replay to the same game everywhere.

A record holds what is needed to play a game again from the start: the rule set's id
and version, the resolved configuration, the seed, and every action with its seat. Its
JSON form (format version 2)::

    {
      "format": "fogofwar-record",
      "version": 2,
      "engine": "0.1.0",
      "ruleset": "hide-and-seek",
      "ruleset_version": "1.0.0",
      "config": {"cells": 9, ...},
      "seeded": false,
      "commitment": "3f2a…",            # SHA-256 of the seed (fogofwar.core.secret)
      "seed": "9c41…",                  # a 256-bit secret, or a chosen integer seed
      "actions": [
        {"seat": "hider", "kind": "bid", "args": [1]},
        ...
      ],
      "digests": ["0be1c2d3e4f5a6b7", ...],   # one per action: the digest chain
      "outcome": {"winners": [...], "sides": [...], "reason": "...", "rule": "EX-7"},
      "meta": {}
    }

``outcome`` is ``null`` for an unfinished game; ``meta`` is free-form JSON (players,
bots, dates). ``seeded`` is true when someone chose the seed (``--seed``, a study), so
that whoever knows it knows every secret; otherwise the seed is a fresh secret that no
seat saw before the end, and ``commitment`` is what every seat was shown at the start.

**The digest chain.** ``digests[i]`` is the first 16 hex digits of a SHA-256 chain over
everything the umpire produced: it starts from the rule set, the config, the commitment
and every seat's opening view, and each action adds the action, every event it caused
(with its audience), the seats to act next and the outcome. Replaying checks the chain
action by action, so a record whose actions were swapped, changed, dropped or replayed
under another seed, config or rule version is refused at the first action where it
diverges (:class:`TamperedRecordError`) — even where every action is still legal.

Replaying applies every action *checked*, so an illegal action fails with its index
(:class:`ReplayError`), and a finished record's outcome is checked against the replay.
Every field is validated on load; out-of-range values (a seed of ``10**100``, a config
missing an option) are refused with one line.

Compatibility: format 1 records (no commitment, no digests) still load and replay, as
seeded games that cannot be verified. A record with a newer format version, or from a
rule set whose major version differs from the installed one, is refused with
:class:`RecordVersionError`. A different minor or patch version of the rule set replays
(it promises the same rules).

During a game the record is the umpire's secret (it holds the seed): it never goes into a
view or an event, and a bot never sees it.
"""

from __future__ import annotations

from .chain import DIGEST_CHARS, chain_start, chain_step
from .errors import RecordVersionError, ReplayError, TamperedRecordError
from .fields import FORMAT, FORMAT_VERSION, outcome_from_json
from .file import Record
from .verify import Recorder, Verdict, verify_record

__all__ = [
    "DIGEST_CHARS",
    "FORMAT",
    "FORMAT_VERSION",
    "Record",
    "RecordVersionError",
    "Recorder",
    "ReplayError",
    "TamperedRecordError",
    "Verdict",
    "chain_start",
    "chain_step",
    "outcome_from_json",
    "verify_record",
]
