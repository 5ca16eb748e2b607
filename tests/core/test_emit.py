"""core.game.emit: the one helper every rule set records its events with."""

from __future__ import annotations

from fogofwar.core.game import Event, emit


def test_emit_appends_and_returns_the_event_with_its_audience() -> None:
    log: list[Event] = []
    event = emit(log, "rolled", to=["agent"], faces=[3, 5])
    assert log == [event]
    assert event.kind == "rolled" and dict(event.data) == {"faces": [3, 5]}
    assert event.to == frozenset({"agent"}) and event.visible_to("agent")
    assert not event.visible_to("hunter1")
    # No audience: every seat is told.
    assert emit(log, "round").to is None and len(log) == 2


def test_fields_named_like_emits_own_arguments_go_in_data() -> None:
    # "to" names the audience, so an event's own field "to" (a move's destination)
    # is given in data; keyword fields are added after it, in order.
    log: list[Event] = []
    event = emit(log, "moved", to=["a"], data={"from": "L1", "to": "L2"}, by="action")
    assert list(event.data.items()) == [("from", "L1"), ("to", "L2"), ("by", "action")]
    assert event.to == frozenset({"a"})
