"""rove.run and rove.test with a scripted model behind OpenAI's wire format."""

from __future__ import annotations

import json
import os
import sys

import pytest
import rove
from rove._binary import binary


def test_run_returns_the_history_as_objects(pages, model) -> None:
    history = rove.run("Press Go", model="openai:scripted", start_url=pages.url("/go"),
                       base_url=model.url("/v1"), api_key="sk-test", max_steps=5)
    assert history.succeeded and history.exit_status == 0
    assert history.ending.reason == "done" and history.ending.success is True
    first = history.steps[0].actions[0]
    assert first.tool == "click" and not first.failed
    assert len(history.steps) == 2
    assert history.usage["input"] == 100 or history.usage.input == 100
    # The model was called twice, with rove's tools on the wire.
    calls = [json.loads(r["body"]) for r in model.requests]
    assert len(calls) == 2 and any(t["function"]["name"] == "click" for t in calls[0]["tools"])


def test_run_sends_secrets_in_a_file_not_on_the_command_line(pages, secret_model, tmp_path,
                                                            monkeypatch) -> None:
    # rove is spawned through a wrapper that records what it was given (its
    # arguments, and the secrets file as it was then), and runs the real one.
    spawned = tmp_path / "spawned.json"
    wrapper = tmp_path / "rove"
    wrapper.write_text(f"""#!{sys.executable}
import json, os, stat, sys
argv = sys.argv[1:]
seen = {{"argv": argv}}
if "--secrets-file" in argv:
    path = argv[argv.index("--secrets-file") + 1]
    seen["file"] = path
    seen["mode"] = stat.S_IMODE(os.stat(path).st_mode)
with open({str(spawned)!r}, "w") as f:
    json.dump(seen, f)
os.execv({binary()!r}, [{binary()!r}] + argv)
""")
    wrapper.chmod(0o700)
    monkeypatch.setenv("ROVE_BINARY", str(wrapper))
    history = rove.run("Search for the password", model="openai:scripted",
                       start_url=pages.url("/form"), base_url=secret_model.url("/v1"),
                       api_key="sk-test", secrets={"pw": "hunter2-secret"})
    assert history.succeeded, history.stdout + history.stderr
    seen = json.loads(spawned.read_text())
    assert "--secrets-file" in seen["argv"]
    assert not any("hunter2-secret" in arg for arg in seen["argv"]), seen["argv"]
    assert seen["mode"] == 0o600, oct(seen["mode"])
    assert not os.path.exists(seen["file"]), "the secrets file was removed"
    # The page got the value: the form it submitted carried it…
    assert any(r["path"] == "/done?q=hunter2-secret" for r in pages.requests), pages.requests
    # …and the model never saw it.
    for request in secret_model.requests:
        assert b"hunter2-secret" not in request["body"]


def test_run_refused_by_rove_raises() -> None:
    with pytest.raises(rove.BadInputError) as bad:
        rove.run("x", model="openai:scripted", max_steps="many")
    assert "max-steps" in str(bad.value)


def test_test_returns_results_json_as_objects(pages, model, tmp_path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "- name: press_go\n"
        "  task: Press Go\n"
        f"  start_url: {pages.url('/go')}\n"
        "  max_steps: 4\n"
        "  verify:\n"
        "    - js: \"document.querySelector('button').textContent === 'Gone'\"\n")
    results = rove.test(suite, model="openai:scripted", jobs=1, out=tmp_path / "out",
                        base_url=model.url("/v1"), api_key="sk-test")
    assert results.met and results.exit_status == 0
    attempt = results.attempts[0]
    assert attempt.task == "press_go" and attempt.status == "passed"
    assert attempt.checks[0].passed
    assert results.suite.passed == 1
    assert (tmp_path / "out" / "results.json").is_file()
