"""rove.Agent: a run a step at a time, steered from Python, with a scripted
model behind OpenAI's wire format; what the application said is read off
the requests the model received."""

from __future__ import annotations

import json

import pytest
import rove


def _said(request: dict) -> str:
    """Every text a request to the model carried."""
    body = json.loads(request["body"])
    return "\n".join(str(m.get("content")) for m in body["messages"])


def test_an_application_steps_looks_tells_and_finishes(pages, model) -> None:
    with rove.Agent("Press Go", model="openai:scripted", start_url=pages.url("/go"),
                    base_url=model.url("/v1"), api_key="sk-test", max_steps=5) as agent:
        first = agent.step()
        assert first is not None and first.number == 1
        assert first.actions[0].tool == "click" and not first.actions[0].failed
        assert agent.ending is None
        # Between the steps: the page as the model will see it, and a word.
        assert 'button "Gone"' in agent.view()
        agent.tell("The button says Gone now.")
        rest = list(agent)
        assert [s.number for s in rest] == [2]
        assert agent.ending.reason == "done" and agent.ending.text == "went"
        assert agent.step() is None
    history = agent.history
    assert history is not None and history.succeeded
    assert [len(s.actions) for s in history.steps] == [1, 1]
    assert len(model.requests) == 2
    assert "Note from the user: The button says Gone now." in _said(model.requests[1])
    assert "Note from the user" not in _said(model.requests[0])


def test_an_application_that_stops_early_gets_the_models_last_word(pages, model) -> None:
    agent = rove.Agent("Press Go", model="openai:scripted", start_url=pages.url("/go"),
                       base_url=model.url("/v1"), api_key="sk-test")
    agent.step()
    agent.set_task("Press Go and say what it became")
    history = agent.finish()
    assert history.ending.reason == "max_steps" and history.ending.answer == "went"
    assert len(history.steps) == 1 and not history.succeeded
    last = model.requests[-1]
    assert json.loads(last["body"])["tool_choice"]["function"]["name"] == "done"
    assert "The task is now: Press Go and say what it became" in _said(last)
    assert "The user stops the run here." in _said(last)


def test_an_order_rove_cannot_read_is_refused_and_the_run_goes_on(pages, model) -> None:
    with rove.Agent("Press Go", model="openai:scripted", start_url=pages.url("/go"),
                    base_url=model.url("/v1"), api_key="sk-test") as agent:
        with pytest.raises(rove.RoveError) as refused:
            agent._ask({"do": "jump"})
        assert "not an order" in str(refused.value)
        assert agent.step() is not None


def test_a_run_rove_refuses_raises_at_the_first_step() -> None:
    agent = rove.Agent("x", model="openai:scripted", max_steps="many")
    with pytest.raises(rove.BadInputError) as bad:
        agent.step()
    assert "max-steps" in str(bad.value)
